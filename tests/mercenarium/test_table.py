"""Mercenarium at the table: every event in words, and recorded by taps on the board and its
card rows: a hand card tapped only in its own seat's view, a capture flipped to
buy, the draw piles, the turn-order dice read as who goes first."""

from __future__ import annotations

import re
import statistics

import pytest

from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from projections.record.tapplan import plan
from projections.record.taps import tap_map
from rulesets.mercenarium.events import (
    CardSummoned,
    DrawDeclared,
    ExtrasReturned,
    HymnLearned,
    HymnSung,
    TurnOrderRolled,
    ZodiacRolled,
)
from rulesets.view import card_key, space_key
from tests.mercenarium import golden
from tests.mercenarium.scenario import RULESET, P, R, legal, position, with_
from tests.tap_support import drawn, log_steps, tap_counts, undrawn_taps

SHARED = (MatchStarted, MatchEnded, Retracted, Ruled)
REPR = re.compile(r"[\[\]{}]|\(\d|\w\(|\d, \d")
"""A Python repr in a sentence: brackets, braces, `(3, 6)`, `Put(`."""
CARD_ID = re.compile(r"\b(?:10|[2-9JQKAL])[CSGB]\b")
"""A card id such as `7B` where the text has a name (the 7 of Blades)."""
LOGS = [*golden.GAMES, "mercenarium-mistakes"]


def words(state, event) -> str:
    return RULESET.describe(P, state, event)


@pytest.mark.parametrize("name", LOGS)
def test_every_event_of_a_golden_log_is_told_in_words_with_card_names_and_board_names(name: str) -> None:
    events = golden.read_log(name)
    told = 0
    for step in log_steps(R, events):
        if isinstance(step.event, SHARED):
            continue
        text = words(step.state, step.event)
        assert text != type(step.event).__name__, step.event
        assert not REPR.search(text), text
        assert not CARD_ID.search(text), text
        told += 1
    assert told > 100


def test_the_golden_logs_name_spaces_as_the_board_prints_them() -> None:
    events = golden.read_log("mercenarium-2p")
    first = next(s for s in log_steps(R, events) if isinstance(s.event, CardSummoned))
    assert words(first.state, first.event) == "yellow summons the Jack of Gears to D1 (yellow's House)"


@pytest.mark.parametrize("name", list(golden.GAMES))
def test_a_golden_game_is_recorded_by_taps_drawn_in_the_acting_seats_own_view(name: str) -> None:
    steps = list(log_steps(R, golden.read_log(name)))
    assert not [(s.event.seq, type(s.event).__name__) for s in steps if s.plan.kind == "not-legal"]
    for step in steps:
        if step.plan.kind == "board":
            assert not undrawn_taps(R, step), (step.event.seq, step.plan)
    counts = tap_counts(steps)
    assert counts["board"] and statistics.median(counts["board"]) <= 2 and max(counts["board"]) <= 3, counts


def test_a_hand_card_is_tapped_in_its_own_seats_view_and_hidden_in_the_others() -> None:
    state = position(board={"5C": ((3, 5), "red")}, hands={"red": ("2C", "AB"), "yellow": ("9S",)})
    summon = CardSummoned(by="red", card="AB", space=(3, 4))
    assert summon in legal(state)
    how = plan(R, state, summon)
    assert [t.what for t in how.taps] == [card_key("hand-red", "AB"), space_key(3, 4)]
    assert card_key("hand-red", "AB") in drawn(RULESET.view(P, state, "red"))
    assert card_key("hand-red", "AB") not in drawn(RULESET.view(P, state, "yellow"))


def test_buying_taps_the_capture_to_flip_then_the_enemy_mercenary() -> None:
    state = position(board={"5C": ((3, 5), "red"), "JG": ((3, 1), "yellow")}, captures={"red": ("2S",)})
    buy = next(e for e in legal(state) if type(e).__name__ == "MercenaryBought")
    assert [t.what for t in plan(R, state, buy).taps] == [card_key("captures-red", "2S"), "piece:JG"]
    assert words(state, buy) == "red buys yellow's Jack of Gears, flipping the captured 2 of Souls face up"


def test_drawing_taps_the_deck_and_a_full_hand_taps_the_card_to_discard_first() -> None:
    state = position(board={"5C": ((3, 5), "red")}, hands={"red": ("2C",)})
    assert [t.what for t in plan(R, state, DrawDeclared(by="red")).taps] == [card_key("piles", "deck")]
    full = position(board={"5C": ((3, 5), "red")}, hands={"red": ("2C", "3C", "4C", "6C", "7C")})
    discard = DrawDeclared(by="red", discard="3C")
    assert discard in legal(full)
    assert [t.what for t in plan(R, full, discard).taps] == [card_key("hand-red", "3C"), card_key("piles", "deck")]
    assert words(full, discard) == "red discards the 3 of Claws and draws a card"


def test_an_offering_starts_from_its_first_card_and_the_picker_names_the_whole_offering() -> None:
    state = position(board={"5C": ((3, 5), "red")}, hands={"red": ("2C", "3S", "4G", "10B")})
    offers = [e for e in legal(state) if isinstance(e, HymnLearned)]
    taps = tap_map(R, state, legal(state))
    from_two = taps.at(card_key("hand-red", "2C"), card_key("piles", "hymnal"))
    assert {c.touch.words for c in from_two} == {"offer 2 of Claws + 3 of Souls", "offer 2 of Claws + 4 of Gears"}
    single = HymnLearned(by="red", offering=("10B",))
    assert single in offers and [t.what for t in plan(R, state, single).taps] == [card_key("hand-red", "10B"), card_key("piles", "hymnal")]
    assert words(state, single) == "red offers the 10 of Blades to learn a new hymn"


def test_primary_in_singularity_is_sung_from_the_hymn_with_the_card_found_picked_in_words() -> None:
    state = position(hymns={"red": ("VII",)}, singularity=True, deck=("2C", "AB"), board={"5C": ((3, 5), "red")})
    songs = [e for e in legal(state) if isinstance(e, HymnSung)]
    assert len(songs) == 2
    picks = [t for s in songs for t in plan(R, state, s).taps if t.where == "pick"]
    assert sorted(t.what for t in picks) == ["sing: the 2 of Claws to red's hand", "sing: the Ace of Blades to red's hand"]


def test_an_extra_card_is_tapped_then_shuffled_back_into_its_pile() -> None:
    state = position(board={"5C": ((3, 5), "red")}, hands={"red": ("2C", "3C", "4C", "6C", "7C", "8C")}, hymns={"red": ("I", "II")})
    back = ExtrasReturned(by="red", cards=("II",))
    assert back in legal(state)
    assert [t.what for t in plan(R, state, back).taps] == [card_key("hymns-red", "II"), card_key("piles", "hymnal")]
    assert words(state, ExtrasReturned(by="red", cards=("8C",))) == "red shuffles the 8 of Claws back into the deck"


def test_a_turn_order_roll_says_what_it_counts_as_and_who_goes_first_or_rolls_again() -> None:
    order = with_(position(), stage="order", rollers=("red", "yellow"), rolls=(("red", 4),), current=None)
    assert words(order, TurnOrderRolled(seat="yellow", die="fox", face="seed-of-life")) == (
        "yellow rolls the Fox die: the seed of life (counts as 6); yellow's 6 is highest: yellow takes the first turn")
    assert words(order, TurnOrderRolled(seat="yellow", die="fox", face=4)).endswith("red and yellow tie at 4 and roll again")
    first = with_(order, rolls=())
    assert words(first, TurnOrderRolled(seat="red", die="fool", face=3)).endswith("highest so far: 3 by red")


def test_the_zodiac_roll_says_whose_effect_it_takes() -> None:
    assert words(position(), ZodiacRolled(value=7)) == "the Zodiac shows 7: it takes the effect of hymn VII. Primary"
