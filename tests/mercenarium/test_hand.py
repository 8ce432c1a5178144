"""DRAWING CARDS and the hand limits (five non-hymn cards, one hymn; extras go back)."""

from __future__ import annotations

from rulesets.mercenarium.events import (
    CardDrawn,
    CardSummoned,
    DrawDeclared,
    ExtrasReturned,
    HymnSung,
    Put,
    TurnPassed,
)
from tests.mercenarium.scenario import (
    RULESET,
    P,
    legal,
    play,
    position,
    seat_player,
    violations,
)

FULL = ("2C", "3C", "4C", "5C", "6C")


def draw(discard: str | None = None, by: str = "red", seq: int = 20) -> DrawDeclared:
    return DrawDeclared(seq=seq, by=by, discard=discard)


def test_a_draw_takes_one_card_each_card_in_the_deck_equally_likely() -> None:
    state = play(position(hands={"red": ("2C",)}, deck=("AB", "QS", "7G")), draw())
    outcomes = RULESET.chance(P, state)
    assert [(e.card, p) for e, p in outcomes] == [("QS", 1 / 3), ("7G", 1 / 3), ("AB", 1 / 3)]
    state = play(state, CardDrawn(seq=21, seat="red", card="QS"))
    assert seat_player(state, "red").hand == ("2C", "QS") and state.deck == ("7G", "AB")
    assert state.current == "yellow"


def test_a_card_not_in_the_deck_cannot_be_drawn() -> None:
    state = play(position(hands={"red": ("2C",)}, deck=("AB",)), draw())
    assert violations(state, CardDrawn(seq=21, seat="red", card="QS")) == ["mercenarium/draw.card"]
    assert violations(state, CardDrawn(seq=21, seat="yellow", card="AB")) == ["mercenarium/draw.pending"]
    assert violations(position(), CardDrawn(seq=21, seat="red", card="AB")) == ["mercenarium/draw.pending"]


def test_nothing_else_happens_until_the_drawn_card_is_recorded() -> None:
    state = play(position(hands={"red": ("2C",)}), draw())
    assert violations(state, CardSummoned(seq=21, by="red", card="2C", space=(3, 6))) == ["mercenarium/turn.pending"]


def test_at_five_cards_a_player_discards_one_first_face_up() -> None:
    state = position(hands={"red": FULL})
    assert violations(state, draw("2C")) == []
    state = play(state, draw("2C"))
    assert "2C" in state.discard and seat_player(state, "red").hand == FULL[1:]
    assert {e.discard for e in legal(position(hands={"red": FULL})) if isinstance(e, DrawDeclared)} == set(FULL)


def test_a_discard_must_be_a_non_hymn_card_from_the_hand() -> None:
    state = position(hands={"red": FULL}, hymns={"red": ("IV",)})
    assert violations(state, draw("IV")) == ["mercenarium/draw.discard"]
    assert violations(state, draw("AB")) == ["mercenarium/draw.discard"]


def test_a_sixth_card_kept_is_named_once() -> None:
    state = position(hands={"red": FULL, "yellow": ("7C",)})
    assert violations(state, draw()) == ["mercenarium/hand.limit"]
    state = play(state, draw(), CardDrawn(seq=21, seat="red", card="AB"))
    assert len(seat_player(state, "red").hand) == 6
    yellow_turn = DrawDeclared(seq=22, by="yellow")
    assert violations(state, yellow_turn) == []  # already named: not again for the same excess
    state = play(state, yellow_turn, CardDrawn(seq=23, seat="yellow", card="KB"))
    assert violations(state, TurnPassed(seq=24, by="red")) == ["mercenarium/turn.no-pass"]


def test_extras_from_a_hymn_go_back_before_the_game_goes_on() -> None:
    puts = (Put(card="AB", to="hand", seat="red"), Put(card="II", to="hand", seat="red"), Put(card="V", to="hand", seat="red"))
    state = play(position(hands={"red": FULL}, hymns={"red": ("IV",)}), HymnSung(seq=20, by="red", hymn="IV", puts=puts))
    assert len(seat_player(state, "red").hand) == 6 and len(seat_player(state, "red").hymns) == 2
    assert {type(e) for e in legal(state)} == {ExtrasReturned}
    assert RULESET.progress(P, state).actor == "red"
    state = play(state, ExtrasReturned(seq=21, by="red", cards=("AB", "V")))
    red = seat_player(state, "red")
    assert len(red.hand) == 5 and red.hymns == ("II",)
    assert "AB" in state.deck and "V" in state.hymnal


def test_going_on_with_extras_in_a_hand_is_named_once() -> None:
    puts = (Put(card="AB", to="hand", seat="red"),)
    state = play(position(hands={"red": FULL}, hymns={"red": ("IV",)}), HymnSung(seq=20, by="red", hymn="IV", puts=puts))
    event = DrawDeclared(seq=21, by="yellow")
    assert violations(state, event) == ["mercenarium/hand.limit"]
    state = play(state, event, CardDrawn(seq=22, seat="yellow", card="KB"))
    assert violations(state, TurnPassed(seq=23, by="red")) == ["mercenarium/turn.no-pass"]


def test_only_the_extras_go_back() -> None:
    state = position(hands={"red": (*FULL, "AB")})
    assert violations(state, ExtrasReturned(seq=20, by="red", cards=("AB",))) == []
    assert violations(state, ExtrasReturned(seq=20, by="red", cards=("AB", "2C"))) == ["mercenarium/hand.extras"]
    assert violations(state, ExtrasReturned(seq=20, by="red", cards=("KB",))) == ["mercenarium/hand.extras"]
    assert violations(position(hands={"red": FULL}), ExtrasReturned(seq=20, by="red", cards=("2C",))) == ["mercenarium/hand.extras"]


def test_no_passing() -> None:
    state = position(hands={"red": ("2C",)})
    assert violations(state, TurnPassed(seq=20, by="red")) == ["mercenarium/turn.no-pass"]
    assert play(state, TurnPassed(seq=20, by="red")).current == "yellow"  # the table went on
    assert not [e for e in legal(state) if isinstance(e, TurnPassed)]
