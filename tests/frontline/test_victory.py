"""Destroying enemy buildings with the frontline, and the end of the game (Winning condition)."""

from __future__ import annotations

from rulesets.frontline.events import BuildingBuilt, RoundEnded
from rulesets.frontline.state import State, points
from tests.frontline.scenario import (
    RULESET,
    P,
    add_buildings,
    building,
    change,
    end_round,
    fresh,
    rules_broken,
    the,
)


def strong_a(force_a: int, state: State | None = None) -> State:
    """a (orc) with `force_a` force in grunts (even numbers), b with none."""
    return change(state or fresh(), "a", units=(("grunt", force_a // 2),))


def test_buildings_of_an_area_the_frontline_pushed_through_are_destroyed() -> None:
    """Destroying enemy buildings: "Once frontline pushes through these lines, builds in front of
    the lines are destroyed". A difference of 10 passes B1's 5/7/9 and the 8 and 10 of B2, so B1 is
    pushed through and B2, where the frontline now stands, keeps its farm."""
    state = add_buildings(fresh(), "b", building("tower", "B1"), building("farm", "B2"))
    state = end_round(strong_a(10, state))
    assert state.front == 5
    assert state.razed == ("b:tower-1",)
    assert [b.id for b in the(state, "b").buildings] == ["base-1", "farm-1"]
    assert rules_broken(state, BuildingBuilt(by="b", building="farm", area="B2")) == ["frontline/build.behind-frontline"]


def test_a_burrow_the_frontline_destroys_takes_its_workers_with_it() -> None:
    """"if the burrow is destroyed, workers in the burrow will die with it"."""
    state = fresh({"a": "human", "b": "orc"})
    state = add_buildings(state, "b", building("burrow", "B1"))
    state = change(state, "b", workers=(("burrow-1", 2), ("gold", 3)), techs=("battle_stations",))
    state = change(state, "a", units=(("footman", 6),))  # 12 vs B1's 2+2, 4+2, 6+2 and B2's 8, 10, 12
    state = end_round(state)
    assert state.front == 6
    assert the(state, "b").workers == (("gold", 3),)


def test_pushing_the_frontline_to_the_base_line_wins_at_once() -> None:
    """Winning condition 1: "If one player pushed the front line to the base line(the grid with
    24), this player wins."""
    state = end_round(strong_a(22))
    assert state.front == 11 and RULESET.outcome(P, state) is None
    state = end_round(strong_a(24, state))
    result = RULESET.outcome(P, state)
    assert result is not None and (result.winner, result.rule) == ("a", "frontline/victory.base-line")
    assert state.phase == "over"
    assert rules_broken(state, RoundEnded(by="b")) == ["frontline/victory.game-over"]
    assert list(RULESET.legal(P, state)) == []


def test_after_fifteen_bouts_researched_techs_and_two_points_a_grid_decide() -> None:
    """Winning condition 2-3: "after 15 bouts ... a. Researched techs. b. ... Each grid pushed gives
    the player 2 points." a pushed 2 grids (4 points) and knows 1 tech; b knows 4 techs."""
    state = change(strong_a(4), "a", techs=("battle_stations",))
    state = change(state, "b", techs=("call_to_arms", "forged_weapons", "reinforced_buildings"))
    for _ in range(2 * P.bouts - 1):
        state = end_round(state)
        assert RULESET.outcome(P, state) is None
    state = end_round(state)
    assert (state.bouts_done, state.front) == (15, 2)
    assert (points(P, state, "a"), points(P, state, "b")) == (1 + 4, 3)
    result = RULESET.outcome(P, state)
    assert result is not None and (result.winner, result.rule) == ("a", "frontline/victory.points")


def test_equal_points_after_the_last_bout_are_a_draw() -> None:
    state = fresh()
    for _ in range(2 * P.bouts):
        state = end_round(state)
    result = RULESET.outcome(P, state)
    assert result is not None and result.draw and result.winner is None
    assert "equal points (a 0, b 0)" in result.reason
