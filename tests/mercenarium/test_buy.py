"""BUYING MERCENARIES and Contracts, passage by passage."""

from __future__ import annotations

import pytest

from rulesets.mercenarium import cards
from rulesets.mercenarium.events import (
    CardCaptured,
    CardDrawn,
    CardSummoned,
    DrawDeclared,
    MercenaryBought,
)
from rulesets.mercenarium.state import dots
from tests.mercenarium.scenario import (
    HOUSES,
    THREE,
    P,
    legal,
    notes,
    piece,
    play,
    position,
    seat_player,
    violations,
)


def buy(card: str, by: str = "red", capture: str | None = None, seq: int = 20) -> MercenaryBought:
    return MercenaryBought(seq=seq, by=by, card=card, capture=capture)


def test_a_face_down_capture_buys_an_enemy_mercenary_which_turns_to_the_buyer() -> None:
    state = position(board={"QB": ((3, 3), "yellow"), "2C": ((0, 0), "red")}, captures={"red": ("5S",)})
    assert violations(state, buy("QB", capture="5S")) == []
    after = play(state, buy("QB", capture="5S"))
    bought = piece(after, "QB")
    assert bought is not None and bought.owner == "red" and bought.space == (3, 3)
    assert dots(P, bought, 90) == cards.CARDS["QB"].aura[1]  # its right edge now points east: turned to red
    assert [(c.card, c.spent) for c in seat_player(after, "red").captures] == [("5S", True)]


def test_a_spent_capture_still_counts_toward_victory_but_buys_nothing_more() -> None:
    state = position(board={"QB": ((3, 3), "yellow"), "KB": ((4, 3), "yellow"), "2C": ((0, 0), "red")},
                     captures={"red": (("5S", True),)})
    assert violations(state, buy("QB")) == ["mercenarium/buy.capture"]
    assert violations(state, buy("QB", capture="5S")) == ["mercenarium/buy.capture"]


def test_without_any_capture_nothing_is_bought() -> None:
    state = position(board={"QB": ((3, 3), "yellow"), "2C": ((0, 0), "red")})
    assert violations(state, buy("QB")) == ["mercenarium/buy.capture"]


@pytest.mark.parametrize(("card", "what"), [("10B", "a 10"), ("LB", "a Lord"), ("7B", "Materia")])
def test_tens_lords_and_materia_are_not_mercenaries(card: str, what: str) -> None:
    state = position(board={card: ((3, 3), "yellow"), "2C": ((0, 0), "red")}, captures={"red": ("5S",)})
    problems = [message for rule, _, message in notes(state, buy(card)) if rule == "mercenarium/buy.mercenary"]
    assert len(problems) == 1 and what in problems[0]
    assert violations(state, buy(card)) == ["mercenarium/buy.mercenary"]


def test_your_own_or_an_absent_mercenary_cannot_be_bought() -> None:
    state = position(board={"QB": ((3, 3), "red")}, hands={"red": ("KB",)}, captures={"red": ("5S",)})
    assert violations(state, buy("QB")) == ["mercenarium/buy.enemy"]
    assert violations(state, buy("KB")) == ["mercenarium/buy.enemy"]


# --- Contracts ------------------------------------------------------------------------------------------------


def test_a_bought_mercenary_is_under_contract_until_its_buyers_next_turn() -> None:
    state = position(THREE, board={"QB": ((3, 3), "yellow"), "2C": ((0, 0), "red"), "3C": ((0, 1), "orange")},
                     captures={"red": ("5S",), "orange": ("6S",), "yellow": ("7S",)})
    state = play(state, buy("QB"))
    assert state.contracts == (("QB", "red"),) and state.current == "orange"
    assert violations(state, buy("QB", by="orange", seq=21)) == ["mercenarium/buy.contract"]
    state = play(state, DrawDeclared(seq=21, by="orange"), CardDrawn(seq=22, seat="orange", card=state.deck[0]))
    assert violations(state, buy("QB", by="yellow", seq=23)) == ["mercenarium/buy.contract"]
    state = play(state, DrawDeclared(seq=23, by="yellow"), CardDrawn(seq=24, seat="yellow", card=state.deck[0]))
    assert state.current == "red" and state.contracts == ()  # red's turn again: the contract has expired


def test_buying_back_a_mercenary_waits_a_full_round() -> None:
    state = position(board={"QB": ((3, 3), "yellow"), "2C": ((0, 0), "red"), "3C": ((6, 0), "yellow")},
                     captures={"red": ("5S",), "yellow": ("6S",)})
    state = play(state, buy("QB"))
    assert violations(state, buy("QB", by="yellow", seq=21)) == ["mercenarium/buy.contract"]
    state = play(state, DrawDeclared(seq=21, by="yellow"), CardDrawn(seq=22, seat="yellow", card=state.deck[0]))
    state = play(state, DrawDeclared(seq=23, by="red"), CardDrawn(seq=24, seat="red", card=state.deck[0]))
    assert violations(state, buy("QB", by="yellow", seq=25)) == []


def test_a_just_summoned_mercenary_cannot_be_bought_before_its_summoners_next_turn() -> None:
    state = position(hands={"red": ("KS",)}, board={"3C": ((6, 0), "yellow")}, captures={"yellow": ("6S",)})
    state = play(state, CardSummoned(seq=20, by="red", card="KS", space=HOUSES["red"]))
    assert violations(state, buy("KS", by="yellow", seq=21)) == ["mercenarium/buy.contract"]


def test_a_contract_does_not_protect_from_capture() -> None:
    state = position(board={"2G": ((3, 4), "yellow"), "LB": ((3, 3), "red")}, contracts=(("LB", "red"),), current="yellow")
    assert violations(state, CardCaptured(seq=20, by="yellow", card="2G", target="LB")) == []


def test_legal_buys_skip_contracts_tens_and_lords() -> None:
    state = position(board={"QB": ((3, 3), "yellow"), "KB": ((4, 3), "yellow"), "10B": ((5, 3), "yellow"),
                            "LB": ((2, 3), "yellow"), "2C": ((0, 0), "red")},
                     captures={"red": ("5S",)}, contracts=(("KB", "yellow"),))
    assert [e.card for e in legal(state) if isinstance(e, MercenaryBought)] == ["QB"]
