"""WINNING THE GAME, STALEMATES and SINGULARITY, passage by passage: five captures, Limbo and
elimination (different for 2 and for 3-4 players), three repetitions, Singularity and the
universal stalemate after it."""

from __future__ import annotations

from rulesets.mercenarium.events import (
    CardCaptured,
    CardDrawn,
    CardMoved,
    CardsAnnihilated,
    CardSummoned,
    DrawDeclared,
    HymnSung,
    MercenaryBought,
    Put,
)
from tests.mercenarium.scenario import (
    FOUR,
    HOUSES,
    RULESET,
    THREE,
    P,
    legal,
    play,
    position,
    seat_player,
    violations,
)


def result(state):
    return RULESET.outcome(P, state)


# --- STANDARD VICTORY -----------------------------------------------------------------------------------------------


def test_the_first_player_to_five_captures_wins_spent_ones_counting() -> None:
    state = position(board={"LB": ((3, 4), "red"), "2C": ((3, 3), "yellow"), "9G": ((0, 0), "yellow")},
                     captures={"red": (("2S", True), ("3S", True), "4S", "5S")})
    assert result(state) is None
    after = play(state, CardCaptured(seq=20, by="red", card="LB", target="2C"))
    won = result(after)
    assert won is not None and won.winner == "red" and won.rule == "mercenarium/victory.captures"


def test_an_annihilation_gives_nobody_a_capture() -> None:
    state = position(board={"LB": ((3, 4), "red"), "AS": ((3, 3), "yellow"), "9G": ((0, 0), "yellow")},
                     captures={"red": ("2S", "3S", "4S", "5S")})
    after = play(state, CardsAnnihilated(seq=20, by="red", card="LB", target="AS"))
    assert result(after) is None and len(seat_player(after, "red").captures) == 4


def test_nothing_may_happen_once_the_game_is_over() -> None:
    state = position(board={"2C": ((0, 0), "red")}, hands={"red": ("3C",)}, captures={"red": ("2S", "3S", "4S", "5S", "6S")})
    assert "mercenarium/victory.game-over" in violations(state, CardMoved(seq=20, by="red", card="2C", to=(1, 0)))
    assert legal(state) == []


# --- Limbo in 2-player games --------------------------------------------------------------------------------------------

YELLOW_HOUSE = HOUSES["yellow"]  # (3, 0)


def invade(**yellow) -> tuple:
    """Red's card steps into yellow's House; yellow has no card in play."""
    state = position(board={"9B": ((3, 1), "red"), "2C": ((3, 6), "red")}, current="red", **yellow)
    return state, play(state, CardMoved(seq=20, by="red", card="9B", to=YELLOW_HOUSE))


def test_a_player_with_no_cards_in_play_and_an_enemy_on_its_house_is_in_limbo() -> None:
    view = RULESET.view(P, invade(hymns={"yellow": ("IV",)})[1], None)
    assert ("yellow", "in Limbo") in next(p.rows for p in view.panels if p.title == "Limbo")


def test_in_limbo_without_a_hymn_or_a_mercenary_to_buy_a_player_loses_at_once() -> None:
    before, after = invade(hands={"yellow": ("2S", "3S")})
    assert result(before) is None
    lost = result(after)
    assert lost is not None and lost.winner == "red" and lost.rule == "mercenarium/victory.limbo-2p"


def test_a_player_in_limbo_with_a_hymn_has_its_next_turn_and_loses_if_still_in_limbo() -> None:
    _, state = invade(hymns={"yellow": ("IV",)})
    assert result(state) is None and state.current == "yellow"
    state = play(state, HymnSung(seq=21, by="yellow", hymn="IV"))
    lost = result(state)
    assert lost is not None and lost.winner == "red"


def test_a_hymn_that_opens_the_house_escapes_limbo() -> None:
    _, state = invade(hymns={"yellow": ("IV",)})
    state = play(state, HymnSung(seq=21, by="yellow", hymn="IV", puts=(Put(card="9B", to="discard"),)))
    assert result(state) is None and state.current == "red"


def test_buying_a_mercenary_escapes_limbo() -> None:
    state = position(board={"9B": ((3, 1), "red"), "QS": ((5, 5), "red")}, captures={"yellow": ("5S",)})
    state = play(state, DrawDeclared(seq=19, by="red"), CardDrawn(seq=20, seat="red", card="2C"))
    state = play(state, DrawDeclared(seq=21, by="yellow"), CardDrawn(seq=22, seat="yellow", card="3C"))
    state = play(state, CardMoved(seq=23, by="red", card="9B", to=YELLOW_HOUSE))
    assert result(state) is None  # yellow can buy the Queen of Souls
    state = play(state, MercenaryBought(seq=24, by="yellow", card="QS"))
    assert result(state) is None and state.current == "red"


def test_a_mercenary_under_contract_is_no_way_out() -> None:
    state = position(board={"9B": ((3, 1), "red"), "QS": ((5, 5), "red")}, captures={"yellow": ("5S",)}, contracts=(("QS", "red"),))
    state = play(state, CardMoved(seq=20, by="red", card="9B", to=YELLOW_HOUSE))
    lost = result(state)
    assert lost is not None and lost.winner == "red"


def test_an_enemy_card_summoned_into_the_house_also_puts_a_player_in_limbo() -> None:
    state = position(board={"9B": ((3, 1), "red")}, hands={"red": ("10B",)})
    state = play(state, CardSummoned(seq=20, by="red", card="10B", space=YELLOW_HOUSE))
    assert result(state) is not None


def test_a_player_with_no_cards_but_an_open_house_is_not_in_limbo() -> None:
    state = play(position(board={"9B": ((3, 2), "red")}), CardMoved(seq=20, by="red", card="9B", to=(3, 1)))
    assert result(state) is None


def test_a_player_who_puts_itself_into_limbo_has_until_the_end_of_its_next_turn() -> None:
    state = position(board={"9B": (YELLOW_HOUSE, "red"), "LS": ((5, 5), "yellow"), "LB": ((5, 4), "red"),
                            "2C": ((6, 6), "red")}, hymns={"yellow": ("IV",)}, current="yellow")
    state = play(state, CardsAnnihilated(seq=20, by="yellow", card="LS", target="LB"))
    assert result(state) is None and state.current == "red"
    state = play(state, DrawDeclared(seq=21, by="red"), CardDrawn(seq=22, seat="red", card=state.deck[0]))
    assert result(state) is None and state.current == "yellow"  # its next turn, with a hymn to try
    state = play(state, HymnSung(seq=23, by="yellow", hymn="IV"))
    assert result(state) is not None and result(state).winner == "red"


# --- Limbo in 3- and 4-player games ------------------------------------------------------------------------------------


def test_in_3_and_4_player_games_a_player_stays_in_limbo_and_keeps_playing() -> None:
    state = position(THREE, board={"9B": ((3, 1), "red"), "2C": ((0, 3), "orange")}, hands={"yellow": ("2S",)})
    state = play(state, CardMoved(seq=20, by="red", card="9B", to=YELLOW_HOUSE))
    assert result(state) is None and state.current == "orange"
    state = play(state, DrawDeclared(seq=21, by="orange"), CardDrawn(seq=22, seat="orange", card=state.deck[0]))
    assert state.current == "yellow" and result(state) is None
    assert any(isinstance(e, DrawDeclared) for e in legal(state))
    state = play(state, DrawDeclared(seq=23, by="yellow"), CardDrawn(seq=24, seat="yellow", card=state.deck[0]))
    assert result(state) is None and state.current == "red"


def test_all_opponents_in_limbo_at_once_and_the_last_player_with_cards_in_play_wins() -> None:
    board = {"9B": ((3, 1), "red"), "8B": (HOUSES["orange"], "red"), "7B": (HOUSES["green"], "red")}
    state = position(FOUR, board=board)
    assert result(state) is None
    state = play(state, CardMoved(seq=20, by="red", card="9B", to=YELLOW_HOUSE))
    won = result(state)
    assert won is not None and won.winner == "red" and won.rule == "mercenarium/victory.limbo"


def test_one_opponent_with_a_card_in_play_keeps_the_game_going() -> None:
    board = {"9B": ((3, 1), "red"), "8B": (HOUSES["orange"], "red"), "2G": ((6, 6), "green")}
    state = play(position(FOUR, board=board), CardMoved(seq=20, by="red", card="9B", to=YELLOW_HOUSE))
    assert result(state) is None


# --- STALEMATES ------------------------------------------------------------------------------------------------------


def shuffle_back_and_forth(state, cycles: int):
    moves = [("red", "7B", (3, 4)), ("yellow", "7G", (3, 2)), ("red", "7B", (3, 5)), ("yellow", "7G", (3, 1))]
    seq = 20
    for _ in range(cycles):
        for by, card, to in moves:
            if result(state) is not None:
                return state
            state = play(state, CardMoved(seq=seq, by=by, card=card, to=to))
            seq += 1
    return state


def test_the_third_repetition_of_a_position_is_a_stalemate_draw() -> None:
    start = position(board={"7B": ((3, 5), "red"), "7G": ((3, 1), "yellow")})
    state = shuffle_back_and_forth(start, 2)
    assert result(state) is None  # each position twice so far
    state = play(state, CardMoved(seq=40, by="red", card="7B", to=(3, 4)))
    drawn = result(state)
    assert drawn is not None and drawn.draw and drawn.winner is None and drawn.rule == "mercenarium/stalemate.repetition"


def test_any_action_other_than_a_move_starts_the_count_again() -> None:
    state = shuffle_back_and_forth(position(board={"7B": ((3, 5), "red"), "7G": ((3, 1), "yellow")}), 2)
    state = play(state, DrawDeclared(seq=40, by="red"), CardDrawn(seq=41, seat="red", card=state.deck[0]))
    assert len(state.history) == 1
    state = shuffle_back_and_forth(play(state, DrawDeclared(seq=42, by="yellow"), CardDrawn(seq=43, seat="yellow", card=state.deck[0])), 1)
    assert result(state) is None


# --- SINGULARITY ---------------------------------------------------------------------------------------------------------


def test_drawing_the_last_card_starts_singularity_with_discards_and_hymnal_as_one_deck() -> None:
    state = position(board={"2C": ((3, 6), "red")}, hands={"red": ("3C",)}, deck=("AB",), hymnal=("II", "IX"), discard=("4C",))
    state = play(state, DrawDeclared(seq=20, by="red"), CardDrawn(seq=21, seat="red", card="AB"))
    assert state.singularity and state.deck == ("4C", "II", "IX") and state.hymnal == () and state.discard == ()
    assert result(state) is None


def test_in_singularity_there_is_no_maximum_hand_size() -> None:
    state = position(hands={"red": ("2C", "3C", "4C", "5C", "6C")}, hymns={"red": ("IV",)}, singularity=True, deck=("II", "AB"))
    assert violations(state, DrawDeclared(seq=20, by="red")) == []
    state = play(state, DrawDeclared(seq=20, by="red"), CardDrawn(seq=21, seat="red", card="II"))
    assert seat_player(state, "red").hymns == ("II", "IV")  # a hymn drawn for free, and two held
    assert not [e for e in legal(state) if type(e).__name__ == "ExtrasReturned"]


def test_when_the_singularity_deck_runs_out_the_game_is_a_universal_stalemate() -> None:
    state = position(hands={"red": ("2C",)}, singularity=True, deck=("AB",))
    state = play(state, DrawDeclared(seq=20, by="red"), CardDrawn(seq=21, seat="red", card="AB"))
    drawn = result(state)
    assert drawn is not None and drawn.draw and drawn.rule == "mercenarium/singularity.stalemate"


def test_fireyes_stops_drawing_when_the_singularity_deck_runs_out() -> None:
    state = play(position(hymns={"red": ("I",)}, singularity=True, deck=("2C", "3C")), HymnSung(seq=20, by="red", hymn="I"))
    state = play(state, CardDrawn(seq=21, seat="red", card="2C"), CardDrawn(seq=22, seat="red", card="3C"))
    assert state.pending == () and result(state) is not None and result(state).draw
