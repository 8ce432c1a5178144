"""SUMMONING CARDS, passage by passage: House Summoning, Field Summoning on a base of the
same suit or no higher value, orthogonal only, never on an enemy base; Lords as bases."""

from __future__ import annotations

from rulesets.mercenarium.events import CardSummoned, HymnSung
from tests.mercenarium.scenario import HOUSES, legal, piece, play, position, seat_player, violations

RED_HOUSE = HOUSES["red"]  # (3, 6)


def summon(card: str, space: tuple[int, int], by: str = "red") -> CardSummoned:
    return CardSummoned(seq=20, by=by, card=card, space=space)


# --- House Summoning -------------------------------------------------------------------------------


def test_any_card_may_be_summoned_into_your_empty_house() -> None:
    state = position(hands={"red": ("2C", "LB", "AS")})
    for card in ("2C", "LB", "AS"):
        assert violations(state, summon(card, RED_HOUSE)) == []


def test_a_summoned_card_is_oriented_to_its_summoner_and_leaves_the_hand() -> None:
    state = play(position(hands={"red": ("7B",)}), summon("7B", RED_HOUSE))
    placed = piece(state, "7B")
    assert placed is not None and placed.owner == "red" and placed.space == RED_HOUSE
    assert seat_player(state, "red").hand == ()


def test_an_occupied_house_takes_no_summon() -> None:
    state = position(board={"9S": (RED_HOUSE, "yellow"), "2S": ((0, 0), "red")}, hands={"red": ("2C",)})
    assert violations(state, summon("2C", RED_HOUSE)) == ["mercenarium/summon.occupied"]


def test_a_card_not_in_the_hand_or_a_hymn_cannot_be_summoned() -> None:
    state = position(hands={"red": ("2C",)}, hymns={"red": ("IV",)})
    assert violations(state, summon("3C", RED_HOUSE)) == ["mercenarium/summon.hand"]
    assert violations(state, summon("IV", RED_HOUSE)) == ["mercenarium/summon.hand"]


def test_an_enemys_empty_house_is_no_house_summon_for_you() -> None:
    state = position(hands={"red": ("2C",)})
    assert violations(state, summon("2C", HOUSES["yellow"])) == ["mercenarium/summon.adjacent"]


# --- Field Summoning ----------------------------------------------------------------------------------


def test_a_field_summon_on_a_base_of_the_same_suit_is_valid_whatever_its_value() -> None:
    state = position(board={"KC": ((3, 5), "red")}, hands={"red": ("2C",)})
    assert violations(state, summon("2C", (3, 4))) == []


def test_a_field_summon_of_equal_or_higher_value_is_valid_whatever_its_suit() -> None:
    state = position(board={"7C": ((3, 5), "red")}, hands={"red": ("7S", "9B")})
    assert violations(state, summon("7S", (3, 4))) == []
    assert violations(state, summon("9B", (2, 5))) == []


def test_a_lower_card_of_another_suit_has_no_base() -> None:
    state = position(board={"7C": ((3, 5), "red")}, hands={"red": ("6S",)})
    assert violations(state, summon("6S", (3, 4))) == ["mercenarium/summon.base"]


def test_one_valid_base_among_several_adjacent_cards_is_enough() -> None:
    state = position(board={"KC": ((3, 4), "red"), "5S": ((2, 5), "red")}, hands={"red": ("6S",)})
    assert violations(state, summon("6S", (2, 4))) == []


def test_a_diagonal_summon_is_named() -> None:
    state = position(board={"2C": ((3, 5), "red")}, hands={"red": ("KS",)})
    assert violations(state, summon("KS", (2, 4))) == ["mercenarium/summon.orthogonal"]


def test_a_summon_based_only_on_an_enemy_card_is_named_but_beside_an_enemy_is_allowed() -> None:
    state = position(board={"2C": ((3, 3), "yellow"), "3C": ((1, 1), "red")}, hands={"red": ("KS",)})
    assert violations(state, summon("KS", (3, 4))) == ["mercenarium/summon.enemy-base"]
    state = position(board={"2C": ((3, 3), "yellow"), "3C": ((4, 4), "red")}, hands={"red": ("KS",)})
    assert violations(state, summon("KS", (3, 4))) == []


def test_a_summon_far_from_every_card_is_named() -> None:
    state = position(board={"2C": ((0, 0), "red")}, hands={"red": ("KS",)})
    assert violations(state, summon("KS", (3, 3))) == ["mercenarium/summon.adjacent"]


def test_summons_go_to_empty_spaces_on_the_board() -> None:
    state = position(board={"2C": ((3, 6), "red"), "3C": ((3, 5), "yellow")}, hands={"red": ("KC",)})
    assert violations(state, summon("KC", (3, 5))) == ["mercenarium/summon.occupied"]
    edge = position(board={"2C": ((0, 0), "red")}, hands={"red": ("KC",)})
    assert violations(edge, summon("KC", (-1, 0))) == ["mercenarium/summon.board"]


# --- Lords -----------------------------------------------------------------------------------------------


def test_a_lord_may_be_field_summoned_on_any_friendly_card() -> None:
    state = position(board={"AS": ((3, 5), "red")}, hands={"red": ("LB",)})
    assert violations(state, summon("LB", (3, 4))) == []


def test_next_to_a_lord_only_lords_and_its_suit_may_be_field_summoned() -> None:
    state = position(board={"LB": ((3, 5), "red")}, hands={"red": ("AS", "2B", "LC")})
    assert violations(state, summon("AS", (3, 4))) == ["mercenarium/summon.base"]
    assert violations(state, summon("2B", (3, 4))) == []
    assert violations(state, summon("LC", (3, 4))) == []


def test_unless_the_space_is_also_next_to_a_separate_valid_base() -> None:
    state = position(board={"LB": ((3, 5), "red"), "9S": ((2, 4), "red")}, hands={"red": ("AS",)})
    assert violations(state, summon("AS", (3, 4))) == []


# --- contracts and legal summons ----------------------------------------------------------------------------


def test_a_summoned_mercenary_is_under_contract_to_its_summoner() -> None:
    state = play(position(hands={"red": ("QS", "10S")}), summon("QS", RED_HOUSE))
    assert state.contracts == (("QS", "red"),)
    state = play(position(hands={"red": ("10S",)}), summon("10S", RED_HOUSE))
    assert state.contracts == ()


def test_legal_summons_are_exactly_the_valid_ones() -> None:
    state = position(board={"7C": ((3, 5), "red")}, hands={"red": ("6S", "8S", "2C")})
    offered = {(e.card, e.space) for e in legal(state) if isinstance(e, CardSummoned)}
    spaces = [(3, 4), (2, 5), (4, 5), (3, 6)]
    assert offered == {(c, s) for c in ("8S", "2C") for s in spaces} | {("6S", (3, 6))}


def test_summoning_is_the_whole_turn() -> None:
    state = play(position(hands={"red": ("2C", "3C")}, hymns={"red": ("IV",)}), summon("2C", RED_HOUSE))
    assert state.current == "yellow"
    assert violations(state, CardSummoned(seq=21, by="red", card="3C", space=(3, 5))) == ["mercenarium/turn.order"]
    assert violations(state, HymnSung(seq=21, by="red", hymn="IV")) == ["mercenarium/turn.order"]


def test_summons_are_the_valid_ones_whether_or_not_a_space_holds_two_cards() -> None:
    """`legal` reads the empty spaces beside own cards from the turn's steps when every card
    has a space of its own, and looks at every neighbour when the table left two cards on one
    space: either way the summons offered are exactly those `check` accepts, in order."""
    from rulesets.mercenarium.moves import candidates
    from tests.mercenarium.scenario import P

    hands = {"red": ("6S", "8S", "2C", "KG")}
    for board in ({"7C": ((3, 5), "red"), "9S": ((1, 1), "red"), "4G": ((2, 1), "yellow")},
                  {"7C": ((3, 5), "red"), "9S": ((3, 5), "red"), "4G": ((3, 4), "yellow"), "5B": ((5, 5), "red")}):
        state = position(board=board, hands=hands)
        offered = [e for e in legal(state) if isinstance(e, CardSummoned)]
        accepted = [e for e in candidates(P, state) if isinstance(e, CardSummoned) and not violations(state, e)]
        assert offered == accepted and offered
