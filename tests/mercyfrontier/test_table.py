"""Mercy Frontier at the table: every event in words, and recorded by taps: a token
then where it ends, a card of the mercenary row with the payment picked in resources, a
contract card then its space, a worker then what it builds, the phase's end as a button."""

from __future__ import annotations

import re
import statistics

import pytest

from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from projections.record.tapplan import plan
from projections.record.taps import tap_map
from rulesets.mercyfrontier.events import (
    BuildingBuilt,
    MercenaryHired,
    MercenaryMoved,
    MercenaryPlaced,
    StepFinished,
    WorkersPlaced,
)
from rulesets.mercyfrontier.resources import Resources
from rulesets.view import card_key, piece_key, space_key
from tests.mercyfrontier import golden
from tests.mercyfrontier.scenario import ORANGE_BIOFUEL, ORANGE_NEOSTEEL, legal, position, rules
from tests.tap_support import drawn, log_steps, rules_of, tap_counts, undrawn_taps

SHARED = (MatchStarted, MatchEnded, Retracted, Ruled)
REPR = re.compile(r"[\[\]{}]|\w\(|\d, \d|'")
"""A Python repr in a sentence: brackets, braces, quotes, `(5, 13)`, `Resources(`."""
CARD_ID = re.compile(r"\b[a-z]+-\d\b")
"""A card id such as `raider-3` where the card has a printed name."""
LOGS = [*golden.GAMES, "mercyfrontier-mistakes"]


@pytest.mark.parametrize("name", LOGS)
def test_every_event_of_a_golden_log_is_told_in_words_with_names_and_board_spaces(name: str) -> None:
    events = golden.read_log(name)
    r = rules_of(events)
    told = 0
    for step in log_steps(r, events):
        if isinstance(step.event, SHARED):
            continue
        text = r.ruleset.describe(r.params, step.state, step.event)  # type: ignore[misc]
        assert text != type(step.event).__name__, step.event
        assert not REPR.search(text.replace("'s ", " ")), text
        assert not CARD_ID.search(text), text
        told += 1
    assert told > 40


@pytest.mark.parametrize("name", list(golden.GAMES))
def test_a_golden_game_is_recorded_by_taps_on_what_the_board_draws(name: str) -> None:
    events = golden.read_log(name)
    r = rules_of(events)
    steps = list(log_steps(r, events))
    assert not [(s.event.seq, type(s.event).__name__) for s in steps if s.plan.kind == "not-legal"]
    for step in steps:
        if step.plan.kind == "board":
            assert not undrawn_taps(r, step), (step.event.seq, step.plan)
    counts = tap_counts(steps)
    assert statistics.median(counts["board"]) <= 2 and max(counts["board"]) <= 3, counts


def test_hiring_taps_the_row_card_and_picks_the_payment_in_resources() -> None:
    r = rules()
    state = position(phase="purchase", purses={"orange": Resources(biofuel=3, neosteel=3, crystal=3)})
    hires = [e for e in legal(state) if isinstance(e, MercenaryHired) and e.card == "raider-1"]
    assert len(hires) > 1
    taps = [plan(r, state, e).taps for e in hires]
    assert {t[0].what for t in taps} == {card_key("market", "Raider 2/2 (4 cr)")}
    picks = [t[1].what for t in taps]
    assert all(p.startswith("pay ") and "{" not in p for p in picks) and len(set(picks)) == len(picks)
    assert "pay 2 neosteel" in picks or any(re.fullmatch(r"pay (\d \w+)(, \d \w+)*", p) for p in picks)


def test_two_copies_in_the_row_are_two_cards_to_tap() -> None:
    r = rules()
    state = position(phase="purchase", market=("scout-1", "scout-2", "raider-1", "brute-1"))
    row = next(row for row in r.ruleset.view(r.params, state, None).rows if row.id == "market")
    assert row.cards[:2] == ("Scout 1/1 (3 cr) #1", "Scout 1/1 (3 cr) #2")
    targets = {c.touch.target for c in tap_map(r, state, legal(state)).choices if isinstance(c.event, MercenaryHired)}
    assert card_key("market", "Scout 1/1 (3 cr) #2") in targets


def test_a_token_is_tapped_then_the_space_its_front_edge_reaches() -> None:
    r = rules()
    state = position(mercs={"warden-1": ("orange", (3, 9))})
    move = MercenaryMoved(by="orange", card="warden-1", direction="north", spaces=1)
    assert move in legal(state)
    assert [t.what for t in plan(r, state, move).taps] == [space_key(3, 8)]  # the Warden is the only token: pre-selected
    south = MercenaryMoved(by="orange", card="warden-1", direction="south", spaces=1)
    assert r.ruleset.touch(r.params, state, south).target == space_key(3, 12)  # type: ignore[misc]
    assert r.ruleset.describe(r.params, state, move) == "orange's Warden moves 1 north to D9"  # type: ignore[misc]


def test_a_placed_contract_card_is_tapped_then_the_tokens_top_left_space() -> None:
    r = rules()
    state = position(phase="placement", mercs={"raider-1": ("orange", None), "scout-1": ("orange", None)})
    place = MercenaryPlaced(by="orange", card="raider-1", space=(0, 12))
    assert place in legal(state)
    assert [t.what for t in plan(r, state, place).taps] == [card_key("contracts-orange", "Raider 2/2 (4 cr) hp 2 (not placed)"), space_key(0, 12)]
    assert card_key("contracts-orange", "Raider 2/2 (4 cr) hp 2 (not placed)") in drawn(r.ruleset.view(r.params, state, "orange"))


def test_workers_are_placed_by_tapping_the_first_and_last_space_and_a_refinery_is_tapped_where_it_stands() -> None:
    r = rules("accelerated")
    state = position("accelerated", phase="workers")
    place = WorkersPlaced(by="orange", spaces=(ORANGE_BIOFUEL, ORANGE_NEOSTEEL))
    assert place in legal(state, "accelerated")
    taps = [t.what for t in plan(r, state, place).taps]
    assert taps == [piece_key("refinery-3-13"), piece_key("refinery-5-13")]
    assert r.ruleset.describe(r.params, state, place) == "orange places workers on D14 and F14"  # type: ignore[misc]


def test_a_building_is_built_by_tapping_the_worker_and_picking_what_it_builds() -> None:
    r = rules()
    state = position(phase="building", workers={"orange": [(2, 12)]}, purses={"orange": Resources(biofuel=5, neosteel=5, crystal=5)})
    builds = [e for e in legal(state) if isinstance(e, BuildingBuilt)]
    assert builds and {r.ruleset.touch(r.params, state, b).target for b in builds} == {piece_key("worker-orange-0")}  # type: ignore[misc]
    words = sorted(t.what for b in builds for t in plan(r, state, b).taps if t.where == "pick")
    assert words and all(w.startswith("build a ") for w in words) and any("beacon" in w for w in words)


def test_ending_a_phase_is_a_button_named_after_the_phase() -> None:
    r = rules()
    state = position(phase="building", workers={"orange": [(2, 12)]}, purses={"orange": Resources(biofuel=5, neosteel=5, crystal=5)})
    done = StepFinished(by="orange")
    assert plan(r, state, done).taps[0].what == "done with the building phase"
    assert r.ruleset.describe(r.params, state, done) == "orange is done with the building phase"  # type: ignore[misc]
