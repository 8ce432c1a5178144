"""The BoardView and hidden information: a seat sees its own hand, card backs and counts for
the others; scrubbing back never shows a card a seat had not seen by then (boardgame.io
issue #169, inaccurate rewind of secret state, must not happen here)."""

from __future__ import annotations

import random

import msgspec

from events.base import Event
from projections.corpus.simulate import play as simulate
from projections.read.replay import replay
from projections.read.timeline import Timeline
from rulesets.mercenarium.events import (
    CardDealt,
    CardDrawn,
    HymnDealt,
    HymnDrawn,
    HymnSung,
    ZodiacResolved,
)
from tests.mercenarium.scenario import FOUR, HOUSES, RULESET, P, R, position


def rows(view) -> dict[str, tuple[str, ...]]:
    return {r.id: r.cards for r in view.rows}


def test_a_seat_sees_its_own_hand_and_only_backs_and_counts_of_the_others() -> None:
    state = position(hands={"red": ("2C", "AB"), "yellow": ("9S", "QS", "KS")}, hymns={"red": ("IV",), "yellow": ("XI",)})
    mine = rows(RULESET.view(P, state, "red"))
    assert mine["hand-red"] == ("2C", "AB") and mine["hymns-red"] == ("IV",)
    assert mine["hand-yellow"] == ("?", "?", "?") and mine["hymns-yellow"] == ("?",)
    assert "deck" not in mine and "hymnal" not in mine
    hands = next(p for p in RULESET.view(P, state, "red").panels if p.title == "Hands")
    assert ("yellow", "3 cards + 1 hymn(s)") in hands.rows


def test_the_whole_truth_with_no_seat() -> None:
    state = position(hands={"yellow": ("9S",)}, hymns={"yellow": ("XI",)}, deck=("2C", "3C"), hymnal=("II",))
    everything = rows(RULESET.view(P, state, None))
    assert everything["hand-yellow"] == ("9S",) and everything["hymns-yellow"] == ("XI",)
    assert everything["deck"] == ("2C", "3C") and everything["hymnal"] == ("II",)


def test_captures_and_the_discard_pile_are_open_to_all() -> None:
    state = position(captures={"yellow": ("2C", ("3C", True))}, discard=("4C",))
    seen = rows(RULESET.view(P, state, "red"))
    assert seen["captures-yellow"] == ("2C", "3C (spent)") and seen["discard"] == ("4C",)


def test_cards_are_drawn_by_controller_and_orientation_with_their_aura_dots() -> None:
    board = {"9B": ((3, 5), "red"), "9S": ((0, 2), "orange"), "9G": ((3, 1), "yellow"), "QC": ((5, 3), "green")}
    view = RULESET.view(P, position(FOUR, board=board, contracts=(("QC", "green"),)), "red")
    pieces = {p.id: p for p in view.pieces}
    assert {p.id: (p.side, p.facing, (p.x, p.y)) for p in view.pieces} == {
        "9B": ("red", 0, (3, 5)), "9S": ("orange", 90, (0, 2)), "9G": ("yellow", 180, (3, 1)), "QC": ("green", 270, (5, 3))}
    assert pieces["9B"].detail.startswith("9 of Blades; aura N2 E4 S2 W1")
    assert pieces["9G"].detail.startswith("9 of Gears; aura N1 E2 S4 W2")  # upside down: its strong top faces south
    assert "contract green" in pieces["QC"].badges and "mercenary" in pieces["QC"].badges
    assert "assumed" in pieces["9B"].detail


def test_houses_are_cells_of_their_seat_drawn_once_without_a_label_over_the_board() -> None:
    view = RULESET.view(P, position(FOUR), None)
    assert view.geometry == "grid" and (view.width, view.height) == (7, 7)
    assert {c.owner: (c.col, c.row) for c in view.cells if c.kind == "house"} == {s: HOUSES[s] for s in FOUR}
    assert not view.regions  # a region over the House cell printed its name over the cards beside it


# --- scrubbing back (boardgame.io #169) ----------------------------------------------------------------------------------


def seen_by(events: list[Event], seat: str, upto: int) -> set[str]:
    """Cards the seat was given, face down, by seq `upto` (from the log itself)."""
    got = set()
    for event in events[1 : upto + 1]:
        if isinstance(event, CardDealt | CardDrawn) and event.seat == seat:
            got.add(event.card)
        elif isinstance(event, HymnDealt | HymnDrawn) and event.seat == seat:
            got.add(event.hymn)
        elif isinstance(event, HymnSung | ZodiacResolved):
            got |= {put.card for put in event.puts if put.to == "hand" and put.seat == seat}
    return got


def test_scrubbing_back_never_shows_a_seat_a_card_it_had_not_seen_by_then() -> None:
    seats = {s: s for s in FOUR}
    events = simulate(R, seats, seed=4, bot="random")
    timeline = Timeline(events, R, every=16)
    full = [step.state for step in replay(events, R, audit=False)]
    rng = random.Random(1)
    for seq in [*rng.sample(range(len(events)), 40), len(events) - 1, 30, 3]:  # forward, back, anywhere
        state = timeline.state_at(seq).state
        assert msgspec.json.encode(state) == msgspec.json.encode(full[seq])
        for seat in FOUR:
            view = RULESET.view(P, state, seat)
            shown = rows(view)
            assert set(shown[f"hand-{seat}"]) | set(shown[f"hymns-{seat}"]) <= seen_by(events, seat, seq), (seq, seat)
            for other in FOUR:
                if other != seat:
                    assert set(shown[f"hand-{other}"]) <= {"?"}, (seq, seat, other)
            assert "deck" not in shown
            assert view == RULESET.view(P, full[seq], seat)


def test_a_drawn_card_appears_in_its_seats_view_at_the_draw_and_not_one_step_before() -> None:
    events = simulate(R, {"red": "a", "yellow": "b"}, seed=2, bot="heuristic")
    draw = next(e for e in events if isinstance(e, CardDrawn))
    timeline = Timeline(events, R, every=8)
    before = rows(RULESET.view(P, timeline.state_at(draw.seq - 1).state, draw.seat))
    after = rows(RULESET.view(P, timeline.state_at(draw.seq).state, draw.seat))
    assert draw.card not in before[f"hand-{draw.seat}"] + before[f"hymns-{draw.seat}"]
    assert draw.card in after[f"hand-{draw.seat}"] + after[f"hymns-{draw.seat}"]


def test_metrics_count_captures_cards_in_play_and_hands_and_the_first_seats_lead() -> None:
    state = position(FOUR, board={"2C": ((0, 0), "red")}, hands={"red": ("3C",)}, hymns={"red": ("IV",)},
                     captures={"red": ("4C",), "yellow": ("5C", "6C")})
    numbers = RULESET.metrics(P, state)
    assert (numbers["captures_red"], numbers["in_play_red"], numbers["hand_red"]) == (1, 1, 2)
    assert numbers["score"] == -1
