"""COMPONENTS and SET UP, passage by passage: the deck and hymnal, the deal, the roll for the
first turn (the Fool and Fox dice), clockwise play and who may sit where."""

from __future__ import annotations

import msgspec
import pytest

from rulesets.mercenarium import cards
from rulesets.mercenarium.events import (
    CardDealt,
    CardDrawn,
    CardSummoned,
    DrawDeclared,
    HymnDealt,
    TurnOrderRolled,
)
from tests.mercenarium.scenario import (
    FOUR,
    HOUSES,
    RULESET,
    THREE,
    TWO,
    P,
    hand,
    play,
    started,
    violations,
    with_,
)

# --- COMPONENTS -------------------------------------------------------------------------------


def test_the_deck_holds_56_cards_materia_mercenaries_and_lords_in_four_suits() -> None:
    assert len(cards.DECK) == 56
    for suit in ("claws", "souls", "gears", "blades"):
        ranks = [c.rank for c in cards.CARDS.values() if c.suit == suit]
        assert ranks == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "L"]


def test_face_values_jack_11_to_lord_15() -> None:
    assert [cards.CARDS[f"{r}B"].value for r in ("10", "J", "Q", "K", "A", "L")] == [10, 11, 12, 13, 14, 15]


def test_only_jacks_queens_kings_and_aces_are_mercenaries() -> None:
    mercenaries = {c.rank for c in cards.CARDS.values() if c.mercenary}
    assert mercenaries == {"J", "Q", "K", "A"}


def test_the_hymnal_holds_15_hymns_apart_from_the_deck() -> None:
    assert cards.HYMNAL == ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV")
    assert not set(cards.HYMNAL) & set(cards.DECK)
    assert (cards.HYMNS["I"].title, cards.HYMNS["VII"].title, cards.HYMNS["XIII"].title) == ("Fireyes", "Primary", "Zodiac")


def test_setup_keeps_the_hymnal_apart_and_deals_nothing_yet() -> None:
    state = RULESET.setup(P, started())
    assert state.stage == "deal" and state.deck == cards.DECK and state.hymnal == cards.HYMNAL
    assert all(not p.hand and not p.hymns for p in state.players)


def test_the_houses_are_the_centre_spaces_of_the_four_sides() -> None:
    view = RULESET.view(P, RULESET.setup(P, started(FOUR)), None)
    houses = {c.owner: (c.col, c.row) for c in view.cells if c.kind == "house"}
    assert houses == HOUSES


# --- seats ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [TWO, ("orange", "green"), THREE, FOUR])
def test_two_to_four_players_at_their_houses_are_accepted(seats: tuple[str, ...]) -> None:
    assert RULESET.validate_start(P, started(seats)) == []


def test_two_players_must_sit_directly_across() -> None:
    problems = RULESET.validate_start(P, started(("red", "orange")))
    assert problems and "directly across" in problems[0]


def test_a_seat_that_is_no_house_and_a_fifth_player_are_refused() -> None:
    assert any("not a House" in p for p in RULESET.validate_start(P, started(("red", "blue"))))
    five = RULESET.validate_start(P, started((*FOUR, "purple")))
    assert any("2-4 players" in p for p in five)


def test_play_goes_clockwise_around_the_houses_whatever_the_seating_order() -> None:
    state = RULESET.setup(P, started(("green", "yellow", "red", "orange")))
    assert state.seats == ("red", "orange", "yellow", "green")


# --- dealing ------------------------------------------------------------------------------------------


def deal(seats: tuple[str, ...] = TWO):
    """Deal by the chance steps' first outcomes: five cards each, then a hymn each."""
    state = RULESET.setup(P, started(seats))
    events = []
    while state.stage == "deal":
        event = RULESET.chance(P, state)[0][0]
        events.append(event)
        state = play(state, event)
    return state, events


def test_five_cards_then_one_hymn_are_dealt_to_each_player() -> None:
    state, events = deal(FOUR)
    assert [type(e) for e in events] == [CardDealt] * 20 + [HymnDealt] * 4
    assert all(len(p.hand) == 5 and len(p.hymns) == 1 for p in state.players)
    assert len(state.deck) == 36 and len(state.hymnal) == 11
    assert state.stage == "order"


def test_every_card_left_in_the_deck_is_an_equally_likely_deal() -> None:
    state = RULESET.setup(P, started())
    outcomes = RULESET.chance(P, state)
    assert {e.card for e, _ in outcomes} == set(cards.DECK)
    assert {p for _, p in outcomes} == {1 / 56}


def test_a_sixth_card_dealt_or_a_second_hymn_is_named() -> None:
    state, _ = deal()
    state = with_(state, stage="deal")
    assert violations(state, CardDealt(seq=30, seat="red", card=state.deck[0])) == ["mercenarium/setup.deal"]
    assert violations(state, HymnDealt(seq=30, seat="red", hymn=state.hymnal[0])) == ["mercenarium/setup.deal"]


def test_a_card_not_in_the_deck_cannot_be_dealt() -> None:
    state = RULESET.setup(P, started())
    state = play(state, CardDealt(seq=1, seat="red", card="AB"))
    assert violations(state, CardDealt(seq=2, seat="yellow", card="AB")) == ["mercenarium/setup.deal"]


# --- turn order -------------------------------------------------------------------------------------------


def roll(state, seat, face, die="fool", seq=30):
    return play(state, TurnOrderRolled(seq=seq, seat=seat, die=die, face=face))


def test_the_highest_roll_goes_first() -> None:
    state, _ = deal()
    state = roll(roll(state, "red", 2), "yellow", 5, die="fox")
    assert state.stage == "play" and state.first == "yellow" and state.current == "yellow"


def test_the_sphere_and_the_seed_of_life_count_as_6() -> None:
    state, _ = deal()
    assert roll(roll(state, "red", "sphere"), "yellow", 5, die="fox").first == "red"
    assert roll(roll(state, "red", 5), "yellow", "seed-of-life", die="fox").first == "yellow"


def test_only_tied_top_players_re_roll_until_the_tie_is_broken() -> None:
    state, _ = deal(THREE)
    state = roll(roll(roll(state, "red", 4), "orange", 4, die="fox"), "yellow", 1)
    assert state.stage == "order" and state.rollers == ("red", "orange")
    assert violations(state, TurnOrderRolled(seq=31, seat="yellow", die="fool", face=6)) != []
    assert "mercenarium/setup.turn-order" in violations(state, TurnOrderRolled(seq=31, seat="yellow", die="fool", face=3))
    state = roll(roll(state, "red", 3), "orange", 3, die="fox")
    state = roll(roll(state, "red", "sphere"), "orange", 2, die="fox")
    assert state.first == "red"


def test_the_chance_step_offers_the_dies_five_numbers_and_its_symbol() -> None:
    state, _ = deal()
    faces = [e.face for e, _ in RULESET.chance(P, state)]
    assert faces == [1, 2, 3, 4, 5, "sphere"]


def test_a_symbol_on_the_wrong_die_is_named_and_a_written_6_is_a_warning() -> None:
    state, _ = deal()
    assert violations(state, TurnOrderRolled(seq=30, seat="red", die="fool", face="seed-of-life")) == ["mercenarium/setup.turn-order"]
    warned = [v for v in RULESET.check(P, state, TurnOrderRolled(seq=30, seat="red", die="fox", face=6))]
    assert [(v.rule, v.severity) for v in warned] == [("mercenarium/setup.turn-order", "warning")]


def test_no_turn_action_before_the_deal_and_the_roll() -> None:
    state, _ = deal()
    event = CardSummoned(seq=30, by="red", card=state.players[0].hand[0], space=HOUSES["red"])
    assert violations(state, event) == ["mercenarium/turn.order"]


def test_after_the_roll_turns_go_clockwise_from_the_first_player() -> None:
    state, _ = deal(FOUR)
    for seat, face in zip(FOUR, (1, 2, "sphere", 3), strict=True):
        state = roll(state, seat, face, die="fox" if face == "seed-of-life" else "fool")
    assert state.current == "yellow"
    order = []
    for _ in range(4):
        order.append(state.current)
        card = hand(state, state.current)[0]
        state = play(state, DrawDeclared(seq=40, by=state.current, discard=card), CardDrawn(seq=41, seat=state.current, card=state.deck[0]))
    assert order == ["yellow", "green", "red", "orange"]


def test_a_variant_board_must_keep_a_centre_space_on_each_side() -> None:
    assert RULESET.validate_start(msgspec.structs.replace(P, board_size=5), started()) == []
    problems = RULESET.validate_start(msgspec.structs.replace(P, board_size=6), started())
    assert problems and "odd size" in problems[0]
