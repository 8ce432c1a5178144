"""SINGING HYMNS and LEARNING HYMNS, passage by passage; hymns whose text is lost are
recorded as what they did and never guessed."""

from __future__ import annotations

import pytest

from rulesets.mercenarium.events import (
    CardDrawn,
    HymnDrawn,
    HymnLearned,
    HymnSung,
    Put,
    ZodiacResolved,
    ZodiacRolled,
)
from tests.mercenarium.scenario import (
    RULESET,
    P,
    legal,
    notes,
    piece,
    play,
    position,
    seat_player,
    violations,
)

UNCHECKED = ("mercenarium/hymns.effect", "info")


def sing(hymn: str, *puts: Put, by: str = "red", kept: bool | None = None) -> HymnSung:
    return HymnSung(seq=20, by=by, hymn=hymn, puts=puts, kept=kept)


# --- singing a hymn whose text is lost ---------------------------------------------------------------------


@pytest.mark.parametrize("hymn", ["I", "II", "VII", "XV"])
def test_a_lost_hymn_is_sung_and_audited_as_effect_unchecked(hymn: str) -> None:
    state = position(hymns={"red": (hymn,)}, board={"2C": ((3, 6), "red")})
    found = notes(state, sing(hymn))
    assert [(rule, severity) for rule, severity, _ in found] == [UNCHECKED]
    assert "effect unchecked: text not available" in found[0][2]


def test_a_sung_hymn_is_discarded_and_the_turn_passes() -> None:
    state = play(position(hymns={"red": ("IV",)}), sing("IV"))
    assert seat_player(state, "red").hymns == () and "IV" in state.discard and state.current == "yellow"


def test_the_recorded_changes_of_a_lost_hymn_are_replayed_faithfully() -> None:
    state = position(board={"QB": ((3, 3), "yellow"), "2C": ((3, 6), "red")}, hands={"yellow": ("5S",)},
                     hymns={"red": ("IV",)}, captures={"yellow": ("7G",)})
    puts = (
        Put(card="QB", to="hand", seat="red"),  # a card in play taken into a hand
        Put(card="9S", to="board", seat="red", space=(4, 4)),  # a card from the deck put in play
        Put(card="5S", to="discard"),  # a card from an enemy hand discarded
        Put(card="7G", to="captures", seat="red", spent=True),  # a capture changing hands, face up
        Put(card="2C", to="board", seat="yellow", space=(3, 6)),  # a card changing sides in place
    )
    after = play(state, sing("IV", *puts))
    red, yellow = seat_player(after, "red"), seat_player(after, "yellow")
    assert "QB" in red.hand and piece(after, "QB") is None
    assert piece(after, "9S").owner == "red" and "9S" not in after.deck
    assert "5S" in after.discard and yellow.hand == ()
    assert [(c.card, c.spent) for c in red.captures] == [("7G", True)] and yellow.captures == ()
    assert piece(after, "2C").owner == "yellow"


def test_impossible_recorded_changes_are_named() -> None:
    state = position(board={"QB": ((3, 3), "yellow")}, hymns={"red": ("IV",)})
    for put in (Put(card="9S", to="board", seat="red", space=(3, 3)), Put(card="ZZ", to="deck"),
                Put(card="9S", to="hand", seat="blue"), Put(card="II", to="board", seat="red", space=(0, 0)),
                Put(card="9S", to="board", seat="red", space=(9, 9))):
        assert violations(state, sing("IV", put)) == ["mercenarium/hymns.put"], put


def test_only_a_held_hymn_can_be_sung() -> None:
    state = position(hymns={"red": ("IV",)})
    assert violations(state, sing("V")) == ["mercenarium/hymns.hand"]
    assert violations(state, sing("XX")) == ["mercenarium/hymns.hand"]


# --- the effects the text gives: Fireyes and Primary in Singularity ----------------------------------------------


def test_fireyes_in_singularity_draws_5_cards_and_is_discarded() -> None:
    state = position(hymns={"red": ("I",)}, singularity=True, deck=("2C", "3C", "4C", "5C", "6C", "7C"))
    assert notes(state, sing("I")) == []
    state = play(state, sing("I"))
    for i in range(5):
        outcomes = RULESET.chance(P, state)
        assert outcomes is not None and {e.card for e, _ in outcomes} == set(state.deck)
        state = play(state, CardDrawn(seq=21 + i, seat="red", card=state.deck[0]))
    assert seat_player(state, "red").hand == ("2C", "3C", "4C", "5C", "6C")
    assert "I" in state.discard and state.current == "yellow"


def test_fireyes_in_singularity_makes_no_other_change_and_is_not_kept() -> None:
    state = position(hymns={"red": ("I",)}, singularity=True)
    assert violations(state, sing("I", Put(card="2C", to="hand", seat="red"))) == ["mercenarium/hymns.effect"]
    assert violations(state, sing("I", kept=True)) == ["mercenarium/hymns.discard"]


def test_primary_in_singularity_searches_the_deck_for_any_one_card() -> None:
    state = position(hymns={"red": ("VII",)}, singularity=True, deck=("2C", "AB", "X"))
    search = sing("VII", Put(card="AB", to="hand", seat="red"))
    assert notes(state, search) == []
    assert "AB" in seat_player(play(state, search), "red").hand
    assert violations(state, sing("VII")) == ["mercenarium/hymns.effect"]
    assert violations(state, sing("VII", Put(card="QS", to="hand", seat="red"))) == ["mercenarium/hymns.effect"]
    assert violations(state, sing("VII", Put(card="AB", to="hand", seat="yellow"))) == ["mercenarium/hymns.effect"]
    offered = [e.puts[0].card for e in legal(state) if isinstance(e, HymnSung)]
    assert offered == ["2C", "AB", "X"]


# --- the Zodiac -----------------------------------------------------------------------------------------------------


def test_the_zodiac_rolls_the_d12_and_the_rolled_hymns_changes_follow_unchecked() -> None:
    state = position(hymns={"red": ("XIII",)})
    assert notes(state, sing("XIII")) == []
    state = play(state, sing("XIII"))
    assert [e.value for e, _ in RULESET.chance(P, state)] == list(range(1, 13))
    state = play(state, ZodiacRolled(seq=21, value=4))
    effect = ZodiacResolved(seq=22, by="red", hymn="IV", puts=(Put(card="9S", to="hand", seat="red"),))
    assert [(r, s) for r, s, _ in notes(state, effect)] == [UNCHECKED]
    assert violations(state, ZodiacResolved(seq=22, by="red", hymn="V")) == ["mercenarium/hymns.zodiac"]
    state = play(state, effect)
    assert "9S" in seat_player(state, "red").hand and state.current == "yellow"


def test_the_zodiac_stays_face_up_as_its_holders_hymn_and_every_seat_sees_it() -> None:
    state = play(position(hymns={"red": ("XIII",)}), sing("XIII"), ZodiacRolled(seq=21, value=4), ZodiacResolved(seq=22, by="red", hymn="IV"))
    red = seat_player(state, "red")
    assert red.hymns == ("XIII",) and red.face_up == ("XIII",)
    row = next(r for r in RULESET.view(P, state, "yellow").rows if r.id == "hymns-red")
    assert row.cards == ("XIII",)


def test_the_zodiac_makes_no_change_before_its_roll_and_its_die_has_12_faces() -> None:
    state = position(hymns={"red": ("XIII",)})
    assert violations(state, sing("XIII", Put(card="9S", to="hand", seat="red"))) == ["mercenarium/hymns.zodiac"]
    rolled = play(state, sing("XIII"))
    assert violations(rolled, ZodiacRolled(seq=21, value=13)) == ["mercenarium/hymns.zodiac"]
    assert violations(state, ZodiacRolled(seq=21, value=3)) == ["mercenarium/hymns.zodiac"]


def test_in_singularity_a_zodiac_rolling_fireyes_draws_5_and_rolling_primary_searches() -> None:
    state = play(position(hymns={"red": ("XIII",)}, singularity=True), sing("XIII"), ZodiacRolled(seq=21, value=1))
    assert state.pending[0].kind == "draw" and state.pending[0].count == 5
    state = play(position(hymns={"red": ("XIII",)}, singularity=True, deck=("2C", "AB")), sing("XIII"), ZodiacRolled(seq=21, value=7))
    search = ZodiacResolved(seq=22, by="red", hymn="VII", puts=(Put(card="AB", to="hand", seat="red"),))
    assert notes(state, search) == []
    assert violations(state, ZodiacResolved(seq=22, by="red", hymn="VII")) == ["mercenarium/hymns.effect"]


# --- LEARNING HYMNS: the five offerings -------------------------------------------------------------------------------


def learn(*offering: str, captures: tuple[str, ...] = ()) -> HymnLearned:
    return HymnLearned(seq=20, by="red", offering=offering, captures=captures)


@pytest.mark.parametrize("event", [
    learn("2C", "9S"),  # two cards with a face value between 2 and 9
    learn("10B"),  # one card of 10, J, Q, K, A or L
    learn("LG"),
    learn(captures=("5S",)),  # a face-down capture
])
def test_an_offering_without_a_hymn_in_hand_learns_a_hymn(event: HymnLearned) -> None:
    state = position(hands={"red": ("2C", "9S", "10B", "LG")}, captures={"red": ("5S",)})
    assert violations(state, event) == []


@pytest.mark.parametrize("event", [learn("IV", "2C"), learn("IV", "LG"), learn("IV", captures=("5S",))])
def test_the_current_hymn_with_one_card_or_one_capture_is_an_offering(event: HymnLearned) -> None:
    state = position(hands={"red": ("2C", "LG")}, hymns={"red": ("IV",)}, captures={"red": ("5S",)})
    assert violations(state, event) == []


def test_a_face_up_zodiac_is_offered_like_any_current_hymn() -> None:
    state = position(hands={"red": ("2C",)}, hymns={"red": ("XIII",)}, face_up={"red": ("XIII",)})
    assert violations(state, learn("XIII", "2C")) == []


@pytest.mark.parametrize("event", [learn("2C"), learn("2C", "10B"), learn("2C", "3C", "4C"), learn("9S", captures=("5S",)),
                                   learn(captures=("5S", "6S")), learn()])
def test_anything_else_is_not_an_acceptable_offering(event: HymnLearned) -> None:
    state = position(hands={"red": ("2C", "3C", "4C", "9S", "10B")}, captures={"red": ("5S", "6S")})
    assert violations(state, event) == ["mercenarium/hymns.offering"]


def test_offerings_come_from_the_hand_or_the_captures_never_from_play() -> None:
    state = position(board={"10B": ((3, 6), "red")}, hands={"red": ("2C",)}, captures={"red": (("5S", True),)})
    assert violations(state, learn("10B")) == ["mercenarium/hymns.offering-in-play"]
    assert violations(state, learn(captures=("5S",))) == ["mercenarium/hymns.offering"]


def test_a_player_still_holding_a_hymn_after_the_offering_learns_nothing() -> None:
    state = position(hands={"red": ("2C", "9S")}, hymns={"red": ("IV",)})
    assert violations(state, learn("2C", "9S")) == ["mercenarium/hymns.learn-holding"]


def test_learning_discards_the_offering_flips_the_capture_and_draws_a_hymn() -> None:
    state = position(hands={"red": ("2C",)}, hymns={"red": ("IV",)}, captures={"red": ("5S",)}, hymnal=("II", "IX"))
    state = play(state, learn("IV", captures=("5S",)))
    assert "IV" in state.discard and seat_player(state, "red").captures[0].spent
    assert [e.hymn for e, _ in RULESET.chance(P, state)] == ["II", "IX"]
    assert state.current == "red"  # the action is not over until the hymn is drawn
    state = play(state, HymnDrawn(seq=21, seat="red", hymn="IX"))
    assert seat_player(state, "red").hymns == ("IX",) and state.hymnal == ("II",) and state.current == "yellow"


def test_no_hymn_can_be_learned_from_an_empty_hymnal_or_in_singularity() -> None:
    state = position(hands={"red": ("10B",)}, hymnal=())
    assert violations(state, learn("10B")) == ["mercenarium/hymns.learn"]
    state = position(hands={"red": ("10B",)}, singularity=True)
    assert violations(state, learn("10B")) == ["mercenarium/hymns.learn"]


def test_legal_offerings_are_the_five_forms() -> None:
    state = position(hands={"red": ("2C", "9S", "10B")}, captures={"red": ("5S", "6S")})
    offered = {(e.offering, e.captures) for e in legal(state) if isinstance(e, HymnLearned)}
    assert offered == {(("2C", "9S"), ()), (("10B",), ()), ((), ("5S",))}
    state = position(hands={"red": ("2C",)}, hymns={"red": ("IV",)}, captures={"red": ("5S",)})
    offered = {(e.offering, e.captures) for e in legal(state) if isinstance(e, HymnLearned)}
    assert offered == {(("IV", "2C"), ()), (("IV",), ("5S",))}
