"""Every game and version tabletape comes with passes the whole ruleset contract (a designer's
game is held to the checks its parts call for by `tabletape check-game`: test_authoring,
test_example_gofish)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from events.shared import MatchStarted
from rulesets import registry
from tests import contract

PLAYABLE = [name for name in registry.built_in() if registry.game(name).gives("legal")]
"""Games a bot can play (they have `legal`); a log-only game replays what the table wrote."""
SPECS = [f"{name}@{version}" for name in PLAYABLE for version in registry.game(name).versions]


@pytest.mark.parametrize("spec", SPECS)
def test_setup_offers_a_first_step(spec: str) -> None:
    contract.check_setup_is_valid(registry.resolve(spec))


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_seeded_bots_finish_clean_games(spec: str, bot: str) -> None:
    rules = registry.resolve(spec)
    events = contract.check_bot_game_is_clean(rules, bot, seed=11)
    contract.check_timeline_matches_replay(rules, events)
    contract.check_apply_does_not_mutate(rules, events)
    contract.check_states_survive_a_snapshot(rules, events)


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_gives_the_same_log(spec: str) -> None:
    contract.check_replay_is_deterministic(registry.resolve(spec), seed=5)


@pytest.mark.parametrize("name", registry.built_in())
def test_rules_modules_import_no_io_clock_or_randomness(name: str) -> None:
    module = importlib.import_module(registry.game(name).setup.__module__)
    contract.check_rules_modules_are_pure(Path(module.__file__).parent)


@pytest.mark.parametrize("name", registry.built_in())
def test_game_events_do_not_shadow_envelope_fields(name: str) -> None:
    contract.check_events_keep_the_envelope(registry.resolve(name))


@pytest.mark.parametrize("spec", [f"{name}@{registry.game(name).newest}" for name in PLAYABLE])
def test_a_bot_game_can_be_recorded_by_taps_alone(spec: str) -> None:
    rules = registry.resolve(spec)
    events = contract.play_clean(rules, "heuristic", seed=11)
    kinds = contract.check_bot_game_is_recordable_by_taps(rules, events)
    if rules.ruleset.touch is not None:
        assert kinds.get("board", 0) > 0, kinds


@pytest.mark.parametrize("spec", [f"{name}@{registry.game(name).newest}" for name in PLAYABLE])
@pytest.mark.parametrize("seed", [3, 8])
def test_legal_is_exactly_the_candidates_check_accepts(spec: str, seed: int) -> None:
    assert contract.check_legal_is_what_check_accepts(registry.resolve(spec), seed) > 0


NO_CHANCE = {"frontline"}
"""Games without dice or a deck: no chance step to check."""


@pytest.mark.parametrize("spec", [f"{name}@{version}" for name in PLAYABLE for version in registry.game(name).versions])
def test_every_chance_outcome_offered_is_one_check_accepts(spec: str) -> None:
    checked = contract.check_chance_outcomes_are_accepted(registry.resolve(spec), 3, positions=25)
    assert checked > 0 or spec.split("@")[0] in NO_CHANCE


@pytest.mark.parametrize("spec", [f"{name}@{registry.game(name).newest}" for name in PLAYABLE])
def test_the_mistakes_offered_to_the_recorder_are_ones_the_rules_refuse(spec: str) -> None:
    rules = registry.resolve(spec)
    checked = contract.check_attempts_are_refused(rules, 3)
    assert checked > 0 or rules.ruleset.attempts is None


BUILT_LEGAL = ["mortalgate", "frontline", "mercyfrontier", "mercenarium"]
"""Games whose `legal` is built from the rules (wholly or for their common kinds) rather than filtered by `check`:
held to `check` on many more seeded positions in the slow run."""


@pytest.mark.slow
@pytest.mark.parametrize("spec", [f"{name}@{version}" for name in BUILT_LEGAL for version in registry.game(name).versions])
@pytest.mark.parametrize("seed", range(20, 28))
def test_built_legal_moves_are_exactly_what_check_accepts_on_many_positions(spec: str, seed: int) -> None:
    assert contract.check_legal_is_what_check_accepts(registry.resolve(spec), seed, positions=150) > 0


@pytest.mark.parametrize("spec", [f"{name}@{version}" for name in BUILT_LEGAL for version in registry.game(name).versions])
def test_built_legal_moves_are_exactly_what_check_accepts_in_every_version(spec: str) -> None:
    assert contract.check_legal_is_what_check_accepts(registry.resolve(spec), 5) > 0


GOLDEN_LOGS = sorted(str(path.relative_to(Path(__file__).parent)) for name in BUILT_LEGAL
                     for path in (Path(__file__).parent / name / "golden").glob("*.jsonl"))


@pytest.mark.parametrize("log", GOLDEN_LOGS)
def test_built_legal_moves_are_exactly_what_check_accepts_along_golden_games(log: str) -> None:
    from events.codec import decode_log

    lines = (Path(__file__).parent / log).read_bytes().splitlines()
    game = log.split("/")[0]
    events = list(decode_log(lines, registry.game(game).codec, where=log))
    started = events[0]
    assert isinstance(started, MatchStarted)
    assert contract.check_legal_is_what_check_accepts_along(registry.resolve(f"{game}@{started.version}"), events) > 0


def test_a_place_past_the_edge_is_named_not_looped_on() -> None:
    from rulesets.view import space_name

    assert space_name("grid", 0, 0) == "A1" and space_name("hex-even-q", 26, 9) == "AA10"
    assert space_name("grid", -2, 3) == "off the board (-2, 3)"


@pytest.mark.parametrize("name", PLAYABLE)
def test_one_table_mistake_gives_one_finding(name: str) -> None:
    rules = registry.resolve(name)
    events = contract.check_bot_game_is_clean(rules, "heuristic", seed=11)
    contract.check_one_mistake_gives_one_finding(rules, events)


@pytest.mark.parametrize("name", PLAYABLE)
def test_a_second_independent_mistake_is_named_beside_the_first(name: str) -> None:
    rules = registry.resolve(name)
    events = contract.check_bot_game_is_clean(rules, "heuristic", seed=11)
    contract.check_independent_mistakes_are_each_named(rules, events)
