"""Bots that play MortalGate for simulated playtests.

A bot is a policy: given the params, the state and the legal events, it returns one of
them. Bots may use randomness (they are players, not rules), always from the seeded
generator they are handed, so a simulation replays byte for byte from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.base import Event
from rulesets.mortalgate import board
from rulesets.mortalgate.events import (
    AbilityUsed,
    AltarCaptured,
    AttackDeclared,
    HeroMoved,
    Node,
    TurnStarted,
)
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.rules import HEALS
from rulesets.mortalgate.state import State, find, game_map, stats


def random_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Any legal event, uniformly: finds the corners of the rules, not good play."""
    return legal[rng.randrange(len(legal))]


def heuristic_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Capture uncontested altars, heal the wounded, focus fire on the weakest enemy, then
    move toward the nearest altar the team does not hold or the nearest enemy."""
    goals = _Goals(params, state)
    # one score and one tie-breaking draw per event, in the order of `legal` (as a `max` key would)
    keys = [(_score(params, state, event, goals), rng.random()) for event in legal]
    return legal[max(range(len(legal)), key=keys.__getitem__)]


class _Goals:
    """Where the acting team wants to be, worked out once per decision."""

    def __init__(self, params: Params, state: State) -> None:
        turn = state.turn
        hero = find(state, turn.hero) if turn else None
        team = hero.team if hero else None
        gmap = game_map(params)
        open_altars = [a for a, owner in zip(gmap.altars, state.altars, strict=True) if owner != team]
        self.nodes = [a.node for a in open_altars] + [h.node for h in state.heroes if h.team != team and h.node is not None]
        self.height = gmap.height
        self.rows = [board.distances_from(node, gmap.width, gmap.height) for node in self.nodes]
        """Each goal's distance to every node, read once per goal: every candidate move measures to each."""
        self.zones = frozenset().union(*(a.zone for a in open_altars)) if open_altars else frozenset()

    def nearest(self, node: Node) -> int:
        """Hex steps from a node to the nearest goal (`board.distance`, read from the goals' tables)."""
        at = board.cell(node, self.height)
        return min([row[at] for row in self.rows])


def _score(params: Params, state: State, event: Event, goals: _Goals) -> float:
    if isinstance(event, HeroMoved):  # most of the events offered
        return _move_score(event, goals)
    if isinstance(event, AltarCaptured):
        return 100.0
    if isinstance(event, AbilityUsed):
        return _ability_score(params, state, event)
    if isinstance(event, AttackDeclared):
        target = find(state, event.target)
        return 60.0 - (target.health if target else 0)
    if isinstance(event, TurnStarted):
        return 0.0
    return 1.0


def _ability_score(params: Params, state: State, event: AbilityUsed) -> float:
    target = find(state, event.target) if event.target else None
    if event.ability in HEALS:
        if target is None:
            return -1.0
        missing = stats(params, target.id).health - target.health
        return 70.0 + missing if missing >= 4 else -1.0
    if event.ability in ("shield_wall", "static_charge", "precision_targeting", "quick_blade"):
        return 30.0
    if event.ability in ("rising_winds", "cheap_shot"):
        return 55.0
    return 65.0 - (target.health if target else 10)


def _move_score(event: HeroMoved, goals: _Goals) -> float:
    """Closer to a goal is better; standing in a zone we can capture is best."""
    end = event.path[-1]
    if end in goals.zones:
        return 50.0
    if not goals.nodes:
        return 0.5
    return 20.0 - goals.nearest(end) * 0.5


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
