"""Warcraft: Frontline at the table: every event in words, every action a tap or two on the board.

A building card then its site, a unit or research card then the building, the workers'
place then where they go; the board is folded so it reads at a laptop's width.
"""

from __future__ import annotations

import statistics
from collections import Counter

import pytest

from rulesets.frontline.events import (
    BuildingBuilt,
    BuildingDestroyed,
    TrainingStarted,
    WorkersMoved,
)
from rulesets.view import key_position, piece_key
from tests.contract import check_bot_game_is_recordable_by_taps
from tests.frontline.scenario import RULESET, P, add_buildings, building, fresh, play
from tests.tap_support import described, golden_logs, log_steps, rules_of, taps

LOGS = golden_logs("frontline")


@pytest.mark.parametrize("name", list(LOGS))
def test_every_event_of_a_golden_log_is_described_in_words_and_names(name: str) -> None:
    words = described(LOGS[name])
    assert "builds a Barracks in" in words and "the gold mine" in words and "the frontline stands" in words


@pytest.mark.parametrize("name", list(LOGS))
def test_a_golden_log_is_recorded_by_taps_on_drawn_things_and_cards(name: str) -> None:
    events = LOGS[name]
    kinds = check_bot_game_is_recordable_by_taps(rules_of(events), events)
    assert set(kinds) == {"board", "button", "forced", "end"}
    assert kinds["forced"] == sum(1 for e in events if type(e).__name__ == "FrontlineMoved")  # the table only counts


@pytest.mark.parametrize("name", list(LOGS))
def test_builds_trainings_and_research_take_two_taps_and_worker_moves_at_most_three(name: str) -> None:
    events = LOGS[name]
    counts = taps(log_steps(rules_of(events), events))
    for kind in ("BuildingBuilt", "TrainingStarted", "ResearchStarted"):
        assert set(counts[kind]) == {2}, kind
    assert set(counts["RoundEnded"]) == {1} and max(counts["WorkersMoved"]) <= 3
    assert statistics.median(counts["all"]) <= 2


def test_a_building_stands_on_the_site_its_card_was_tapped_to() -> None:
    state = fresh()
    event = BuildingBuilt(by="a", building="barracks", area="A3")
    where = RULESET.touch(P, state, event)
    assert where.source == "card:build:Barracks" and where.words == "build a Barracks in A3"
    after = RULESET.view(P, play(state, event), None)
    piece = next(p for p in after.pieces if p.id == "a:barracks-1")
    assert key_position(where.target or "") == (piece.x, piece.y)


def test_a_building_taken_in_the_other_half_fills_it_from_the_far_end() -> None:
    state = add_buildings(fresh(), "a", building("farm", "B1"))
    state = add_buildings(state, "b", building("farm", "B1", number=2))
    pieces = {p.id: (p.x, p.y) for p in RULESET.view(P, state, None).pieces}
    assert pieces["a:farm-1"] != pieces["b:farm-2"]


def test_a_unit_is_trained_by_tapping_its_card_then_the_building() -> None:
    state = fresh()
    where = RULESET.touch(P, state, TrainingStarted(by="a", unit="worker", building="base-1"))
    assert (where.source, where.target) == ("card:train:Worker", piece_key("a:base-1"))
    drawn = {f"card:{row.id}:{face}" for row in RULESET.view(P, state, "a").rows for face in row.cards}
    assert where.source in drawn


def test_workers_move_from_one_counted_place_to_another_and_the_count_is_the_picker() -> None:
    state = fresh()  # a: 3 in the gold mine, 2 in the forest
    one = RULESET.touch(P, state, WorkersMoved(by="a", count=1, origin="gold", to="lumber"))
    every = RULESET.touch(P, state, WorkersMoved(by="a", count=3, origin="gold", to="lumber"))
    assert (one.source, one.target) == (every.source, every.target) == (piece_key("a:workers:gold"), piece_key("a:workers:lumber"))
    assert (one.words, every.words) == ("move 1 worker", "move all 3 workers")
    chips = {p.id: p.label for p in RULESET.view(P, state, None).pieces if ":workers:" in p.id}
    assert chips == {"a:workers:gold": "3", "a:workers:lumber": "2", "b:workers:gold": "3", "b:workers:lumber": "2", "b:workers:militia": "0"}


def test_a_building_is_destroyed_by_tapping_it_twice() -> None:
    state = add_buildings(fresh(), "a", building("farm", "A3"))
    where = RULESET.touch(P, state, BuildingDestroyed(by="a", building="farm-1"))
    assert where.source == where.target == piece_key("a:farm-1")
    assert RULESET.describe is not None
    assert RULESET.describe(P, state, BuildingDestroyed(by="a", building="farm-1")) == "a destroys its Farm 1 (A3)"


def test_the_board_is_folded_to_read_at_a_laptops_width() -> None:
    """Twelve columns and nine rows (not a 24 x 4 strip): both tracks meet at the fold."""
    view = RULESET.view(P, fresh(), None)
    assert (view.width, view.height) == (12, 9)
    rows = {c.owner: c.row for c in view.cells if c.kind == "base line"}
    assert rows["b"] - rows["a"] == 2
    spots = Counter((p.x, p.y) for p in view.pieces)
    assert max(spots.values()) == 1
    assert all(0 <= p.x < view.width and 0 <= p.y < view.height for p in view.pieces)
