"""Every bot of every built-in game plays what its reference policy plays.

A game's `bots_reference` module writes each of its bots as the strategy reads (score every
legal event, take the best, break ties by the draw); the fast bots may bound, prune and
remember as they need, and are held here to their references at every decision of seeded
games of every version (`projections.authoring.contract.check_bot_plays_as_its_reference`), as the
contract holds `legal` to the candidates `check` accepts.
"""

from __future__ import annotations

import importlib

import pytest

from rulesets import registry
from rulesets.protocol import Bot
from tests import contract

GAMES = [name for name in registry.names() if registry.game(name).gives("bots")]
"""The built-in games with bots of their own."""
SEEDS = range(1, 13)
"""Twelve seeded games per bot, 24 per game, spread over its versions."""


def references(name: str) -> dict[str, Bot]:
    """The game's reference policies by bot name."""
    return importlib.import_module(f"rulesets.{name}.bots_reference").REFERENCES


@pytest.mark.parametrize("name", GAMES)
def test_every_bot_of_a_game_has_a_reference_policy(name: str) -> None:
    assert set(registry.game(name).own_bots or ()) == set(references(name))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_a_bot_plays_the_events_its_reference_plays_at_every_decision(name: str, bot: str) -> None:
    game = registry.game(name)
    versions = list(game.versions)
    compared = 0
    for seed in SEEDS:
        rules = registry.resolve(f"{name}@{versions[seed % len(versions)]}")
        compared += contract.check_bot_plays_as_its_reference(rules, bot, references(name)[bot], seed)
    assert compared > 10 * len(SEEDS)
