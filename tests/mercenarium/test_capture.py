"""MOVING CARDS, CAPTURING CARDS and the Alchemy Wheel, passage by passage.

Aura dots are assumed data (data/cards.toml): the tests pick the cards they need from the
table, so they hold for any table a designer writes.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rulesets.mercenarium import cards
from rulesets.mercenarium.events import CardCaptured, CardMoved, CardsAnnihilated
from rulesets.mercenarium.state import Placed, State, alchemy, dots
from tests.mercenarium.scenario import P, legal, piece, play, position, seat_player, violations

ATTACK_FROM, DEFEND_AT = (3, 4), (3, 3)
"""Red (south) attacks north into yellow (north): red's top edge meets yellow's top edge."""


def top(card: str) -> int:
    return cards.CARDS[card].aura[0]


def pair(test: Callable[[cards.Card, cards.Card], bool]) -> tuple[str, str]:
    """The first (attacker, defender) of the aura table that passes the test (no Lords)."""
    plain = [c for c in cards.CARDS.values() if not c.lord]
    for a in plain:
        for d in plain:
            if a.id != d.id and test(a, d):
                return a.id, d.id
    raise AssertionError("the aura table has no such pair")


def duel(attacker: str, defender: str, **extra):
    return position(board={attacker: (ATTACK_FROM, "red"), defender: (DEFEND_AT, "yellow"), **extra})


def capture(attacker: str, defender: str) -> CardCaptured:
    return CardCaptured(seq=20, by="red", card=attacker, target=defender)


# --- Moving Cards --------------------------------------------------------------------------------------


def test_a_card_moves_one_space_north_south_east_or_west() -> None:
    state = position(board={"7B": ((3, 3), "red")})
    for to in ((3, 2), (4, 3), (3, 4), (2, 3)):
        assert violations(state, CardMoved(seq=20, by="red", card="7B", to=to)) == []
    assert piece(play(state, CardMoved(seq=20, by="red", card="7B", to=(4, 3))), "7B") == Placed("7B", (4, 3), "red")


@pytest.mark.parametrize("to", [(4, 2), (3, 1), (5, 3)])
def test_a_diagonal_or_longer_move_is_named(to: tuple[int, int]) -> None:
    state = position(board={"7B": ((3, 3), "red")})
    assert violations(state, CardMoved(seq=20, by="red", card="7B", to=to)) == ["mercenarium/move.one-space"]


def test_no_move_onto_a_card_or_off_the_board() -> None:
    state = position(board={"7B": ((3, 0), "red"), "8B": ((3, 1), "red"), "9B": ((2, 0), "yellow")})
    assert violations(state, CardMoved(seq=20, by="red", card="7B", to=(3, 1))) == ["mercenarium/move.occupied"]
    assert violations(state, CardMoved(seq=20, by="red", card="7B", to=(2, 0))) == ["mercenarium/move.occupied"]
    assert violations(state, CardMoved(seq=20, by="red", card="7B", to=(3, -1))) == ["mercenarium/move.board"]


def test_a_table_s_move_onto_a_card_off_the_board_or_of_a_card_not_in_play_moves_nothing_but_ends_the_turn() -> None:
    """`apply` follows the table: a move it cannot make on the board leaves every card where
    it is (the space taken, before or after the moved card in the board's order; off the
    board; a card in a hand), and the turn passes as after any move."""
    state = position(board={"7B": ((3, 0), "red"), "8B": ((3, 1), "red"), "2C": ((2, 0), "yellow"), "QB": ((4, 0), "yellow")},
                     hands={"red": ("9B",)})
    for card, to in (("7B", (3, 1)), ("7B", (2, 0)), ("7B", (4, 0)), ("8B", (3, 0)), ("7B", (3, -1)), ("9B", (5, 5))):
        after = play(state, CardMoved(seq=20, by="red", card=card, to=to))
        assert after.board == state.board and after.current == "yellow" and after.last == state.last
    moved = play(state, CardMoved(seq=20, by="red", card="8B", to=(3, 2)))
    assert [p if p.card != "8B" else Placed("8B", (3, 2), "red") for p in state.board] == list(moved.board)  # in place: still sorted
    assert moved.last is not None and moved.last.spaces == ((3, 1), (3, 2))


def test_a_move_applied_after_legal_read_its_board_is_the_move_applied_without() -> None:
    """`apply` reads whether a move's space is taken from the board's index when `legal` has
    just built it for that very board (`state.known_by_space`), and looks along the board
    otherwise (a replay): both give the same state, at every move of seeded random games and
    at a table's moves onto a taken space."""
    from projections.corpus.simulate import play as simulate
    from projections.read.replay import replay
    from rulesets.mercenarium import rules
    from rulesets.mercenarium import state as board_state
    from tests.mercenarium.scenario import SEATS, R

    def both(state: State, event: CardMoved) -> tuple[State, State]:
        board_state._by_space(())  # another board asked last: nothing known, the look along the board
        assert board_state.known_by_space(state.board) is None
        unknown = rules.apply(P, state, event)
        board_state.board_by_space(state)  # as `legal` leaves it
        assert board_state.known_by_space(state.board) is not None
        return unknown, rules.apply(P, state, event)

    moves = 0
    for players, seed in ((2, 4), (3, 5)):
        events = simulate(R, {s: s for s in SEATS[players]}, seed=seed, bot="random")
        for step, event in zip(replay(events[:-1], R, audit=False), events[1:], strict=False):
            if isinstance(event, CardMoved):
                unknown, known = both(step.state, event)
                assert unknown == known
                moves += 1
    assert moves > 200
    state = position(board={"7B": ((3, 0), "red"), "8B": ((3, 1), "red"), "2C": ((2, 0), "yellow")})
    for card, to in (("7B", (3, 1)), ("8B", (3, 0)), ("7B", (2, 0)), ("8B", (3, 2))):
        unknown, known = both(state, CardMoved(seq=20, by="red", card=card, to=to))
        assert unknown == known


def test_only_your_own_card_in_play_moves() -> None:
    state = position(board={"9B": ((2, 0), "yellow")}, hands={"red": ("7B",)})
    assert violations(state, CardMoved(seq=20, by="red", card="9B", to=(2, 1))) == ["mercenarium/move.card"]
    assert violations(state, CardMoved(seq=20, by="red", card="7B", to=(2, 1))) == ["mercenarium/move.card"]


# --- orientation ----------------------------------------------------------------------------------------------


def test_a_cards_edges_turn_with_its_controller() -> None:
    blades = cards.CARDS["9B"].aura  # top, right, bottom, left
    red, yellow = Placed("9B", (3, 3), "red"), Placed("9B", (3, 3), "yellow")
    orange, green = Placed("9B", (3, 3), "orange"), Placed("9B", (3, 3), "green")
    east = 90
    assert dots(P, red, east) == blades[1]  # red sits south: the card's right is east
    assert dots(P, yellow, east) == blades[3]  # yellow sits north: the card is upside down
    assert dots(P, orange, east) == blades[0]  # orange sits west: the card's top points east
    assert dots(P, green, east) == blades[2]


# --- Capturing Cards --------------------------------------------------------------------------------------------


def test_a_card_captures_an_adjacent_enemy_with_fewer_dots_on_the_touching_edge() -> None:
    a, d = pair(lambda a, d: a.aura[0] > d.aura[0])
    state = duel(a, d)
    assert violations(state, capture(a, d)) == []
    after = play(state, capture(a, d))
    assert piece(after, a) == Placed(a, DEFEND_AT, "red") and piece(after, d) is None
    assert [c.card for c in seat_player(after, "red").captures] == [d]
    assert not seat_player(after, "red").captures[0].spent  # "placed face-down"


def test_a_capture_through_a_weaker_edge_is_named_and_replayed_as_played() -> None:
    a, d = pair(lambda a, d: a.aura[0] < d.aura[0])
    state = duel(a, d)
    assert violations(state, capture(a, d)) == ["mercenarium/capture.aura"]
    assert [c.card for c in seat_player(play(state, capture(a, d)), "red").captures] == [d]


def test_a_capture_must_touch_an_edge() -> None:
    state = position(board={"AB": ((3, 4), "red"), "2C": ((4, 3), "yellow")})
    assert violations(state, capture("AB", "2C")) == ["mercenarium/capture.adjacent"]


def test_your_own_card_is_no_capture() -> None:
    state = position(board={"AB": ((3, 4), "red"), "2C": ((3, 3), "red")})
    assert violations(state, capture("AB", "2C")) == ["mercenarium/capture.target"]


# --- the Alchemy Wheel --------------------------------------------------------------------------------------------


def test_the_wheel_blades_consume_claws_gears_consume_blades_opposites_annihilate() -> None:
    assert alchemy("blades", "claws") == "consume" and alchemy("claws", "blades") == "consumed"
    assert alchemy("gears", "blades") == "consume"
    assert alchemy("blades", "souls") == alchemy("claws", "gears") == "annihilate"
    assert alchemy("souls", "souls") == "deadlock"


def tie(a_suit: str, d_suit: str) -> tuple[str, str]:
    return pair(lambda a, d: a.aura[0] == d.aura[0] and a.suit == a_suit and d.suit == d_suit)


def test_in_a_tie_the_consuming_card_captures() -> None:
    a, d = tie("blades", "claws")
    assert violations(duel(a, d), capture(a, d)) == []


def test_in_a_tie_the_card_that_would_be_consumed_may_not_initiate() -> None:
    a, d = tie("claws", "blades")
    assert violations(duel(a, d), capture(a, d)) == ["mercenarium/alchemy.consumption"]


def test_a_tie_of_opposed_suits_annihilates_both_and_nobody_captures() -> None:
    a, d = tie("blades", "souls")
    state = duel(a, d)
    assert violations(state, capture(a, d)) == ["mercenarium/alchemy.annihilation"]
    annihilate = CardsAnnihilated(seq=20, by="red", card=a, target=d)
    assert violations(state, annihilate) == []
    after = play(state, annihilate)
    assert after.board == () and set(after.discard) == {a, d}
    assert all(not p.captures for p in after.players)


def test_either_opposed_card_may_initiate_the_annihilation() -> None:
    a, d = tie("souls", "blades")
    assert violations(duel(a, d), CardsAnnihilated(seq=20, by="red", card=a, target=d)) == []


def test_an_annihilation_without_a_tie_of_opposites_is_named() -> None:
    a, d = pair(lambda a, d: a.aura[0] > d.aura[0] and a.suit == "blades" and d.suit == "souls")
    assert violations(duel(a, d), CardsAnnihilated(seq=20, by="red", card=a, target=d)) == ["mercenarium/alchemy.annihilation"]
    a, d = tie("blades", "claws")
    assert violations(duel(a, d), CardsAnnihilated(seq=20, by="red", card=a, target=d)) == ["mercenarium/alchemy.annihilation"]


def test_same_suit_ties_deadlock_but_the_cards_may_move_elsewhere() -> None:
    a, d = tie("gears", "gears")
    state = duel(a, d)
    assert violations(state, capture(a, d)) == ["mercenarium/alchemy.deadlock"]
    assert violations(state, CardsAnnihilated(seq=20, by="red", card=a, target=d)) == ["mercenarium/alchemy.annihilation"]
    assert violations(state, CardMoved(seq=20, by="red", card=a, to=(2, 4))) == []


# --- ALCHEMY: THE LORDS ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("defender", "rule"), [
    ("AC", None),  # Blades consume Claws, even an Ace with more dots
    ("2G", "mercenarium/alchemy.consumption"),  # Gears consume Blades, even a 2
    ("AS", "mercenarium/alchemy.annihilation"),  # opposed
    ("2B", "mercenarium/alchemy.deadlock"),  # its own suit
])
def test_a_lord_always_resolves_by_alchemy(defender: str, rule: str | None) -> None:
    state = duel("LB", defender)
    assert violations(state, capture("LB", defender)) == ([rule] if rule else [])


def test_a_lord_is_captured_by_the_suit_that_consumes_it_whatever_the_dots() -> None:
    assert violations(duel("2G", "LB"), capture("2G", "LB")) == []
    assert violations(duel("AC", "LB"), capture("AC", "LB")) == ["mercenarium/alchemy.consumption"]


def test_a_lord_meeting_an_opposed_card_may_annihilate() -> None:
    assert violations(duel("LB", "AS"), CardsAnnihilated(seq=20, by="red", card="LB", target="AS")) == []


# --- legal moves -----------------------------------------------------------------------------------------------


def test_legal_offers_captures_only_where_the_rules_allow_them() -> None:
    strong, weak = pair(lambda a, d: a.aura[0] > d.aura[0])
    state = duel(strong, weak)
    events = legal(state)
    assert capture(strong, weak).card in {e.card for e in events if isinstance(e, CardCaptured)}
    reverse = position(board={weak: (ATTACK_FROM, "red"), strong: (DEFEND_AT, "yellow")})
    assert not [e for e in legal(reverse) if isinstance(e, CardCaptured) and e.target == strong]
