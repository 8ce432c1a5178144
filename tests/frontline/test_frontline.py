"""The frontline: the text's worked examples (Combat Rules, Figure 1; Defense Power, Figure 5)."""

from __future__ import annotations

from rulesets.frontline.events import FrontlineMoved, RoundEnded, WorkersMoved
from rulesets.frontline.state import State, defenses
from tests.frontline.scenario import (
    RULESET,
    P,
    add_buildings,
    building,
    change,
    end_round,
    fresh,
    play,
    rules_broken,
)


def forces(a: int, b: int, state: State | None = None) -> State:
    """a (orc) with `a` force of grunts and headhunters, b (human) with `b` of footmen and riflemen."""
    state = state or fresh()
    return change(change(state, "a", units=_army(a, "grunt", "headhunter")), "b", units=_army(b, "footman", "rifleman"))


def _army(force: int, two: str, three: str) -> tuple[tuple[str, int], ...]:
    """Force made of 2s, and one 3 for an odd total."""
    threes = force % 2
    twos = (force - 3 * threes) // 2
    return tuple(sorted((k, n) for k, n in ((two, twos), (three, threes)) if n))


def frontline_after_a(state: State) -> FrontlineMoved:
    """What the rules have the table record when a ends its round."""
    state = play(state, RoundEnded(by="a"))
    [moved] = RULESET.legal(P, state)
    assert isinstance(moved, FrontlineMoved)
    return moved


def test_a_difference_of_two_pushes_one_grid_towards_b_and_b_catching_up_pushes_it_back() -> None:
    """Figure 1: "Player A has military force 12, and player B has military force 10 ... A can
    push the frontline forward towards B ... If B increased 2 military force then the frontline
    gets pushed back"."""
    state = end_round(forces(12, 10))
    assert (state.front, state.forces) == (1, (12, 10))
    assert state.current == "b"
    state = change(state, "b", units=(("footman", 6),))
    state = end_round(state)
    assert (state.front, state.forces) == (0, (12, 12))


def test_the_table_recording_the_push_and_the_counted_forces_is_clean() -> None:
    state = play(forces(12, 10), RoundEnded(by="a"))
    assert rules_broken(state, FrontlineMoved(toward="b", grids=1, forces={"a": 12, "b": 10})) == []
    assert rules_broken(state, FrontlineMoved(toward="b", grids=2)) == ["frontline/combat.frontline"]
    assert rules_broken(state, FrontlineMoved(toward="a", grids=1)) == ["frontline/combat.frontline"]
    assert rules_broken(state, FrontlineMoved(toward="b", grids=1, forces={"a": 13, "b": 10})) == ["frontline/combat.force"]


def test_a_tower_lifts_its_area_to_5_7_9_and_leaves_the_other_grids_unchanged() -> None:
    """Figure 5: "There is a tower build in the black hexagon, so the grids in that area gets +3,
    meaning the enemy have to get 5/7/9 ... All other grids are unchanged."""
    plain = defenses(P, fresh(), 1)
    towered = defenses(P, add_buildings(fresh(), "b", building("tower", "B1")), 1)
    assert plain[:4] == (2, 4, 6, 8)
    assert towered[:4] == (5, 7, 9, 8)
    assert towered[3:] == plain[3:]
    assert defenses(P, add_buildings(fresh(), "b", building("tower", "B1")), 0) == defenses(P, fresh(), 0)


def test_towers_add_up_and_only_once_they_stand() -> None:
    """"Multiple towers adds up"; a tower still going up defends nothing."""
    two = add_buildings(fresh(), "b", building("tower", "B1"), building("tower", "B1", 2))
    assert defenses(P, two, 1)[:3] == (8, 10, 12)
    going_up = add_buildings(fresh(), "b", building("tower", "B1", ready=5))
    assert defenses(P, going_up, 1)[:3] == (2, 4, 6)


def test_research_raises_every_buildings_defense_in_its_own_area() -> None:
    """"There are research that can increase all building's defense power. Defense power
    provided by buildings only increase the defense power in that area"."""
    state = add_buildings(fresh(), "b", building("tower", "B1"), building("farm", "B2"))
    state = change(state, "b", techs=("reinforced_buildings",))
    assert defenses(P, state, 1)[:6] == (2 + 4, 4 + 4, 6 + 4, 8 + 1, 10 + 1, 12 + 1)
    assert defenses(P, state, 1)[6:9] == (14, 16, 18)


def test_orc_workers_in_a_burrow_add_one_defense_each_to_its_area() -> None:
    """"each worker in burrow increase defense power by 1"."""
    state = add_buildings(fresh(), "a", building("burrow", "A2"))
    state = change(state, "a", workers=(("burrow-1", 3), ("gold", 2)), techs=("battle_stations",))
    assert defenses(P, state, 0)[:6] == (2, 4, 6, 8 + 3, 10 + 3, 12 + 3)


def test_no_skipping_a_difference_of_8_stops_before_the_9_though_the_next_grid_is_8() -> None:
    """Defense Power: "if enemy player had 18 military power and we had 10, with difference of 8,
    enemy player can only push the frontline to the grid with the green mark. If the other player
    had 19, then the frontline is pushed to the grid with red arrow." B's tower makes 5/7/9, 8."""
    towered = add_buildings(fresh(), "b", building("tower", "B1"))
    assert defenses(P, towered, 1)[:4] == (5, 7, 9, 8)
    green = frontline_after_a(forces(18, 10, towered))
    assert (green.toward, green.grids) == ("b", 2)
    red = frontline_after_a(forces(19, 10, towered))
    assert (red.toward, red.grids) == ("b", 4)


def test_the_audit_names_a_skip_past_the_9_as_no_skip() -> None:
    towered = play(forces(18, 10, add_buildings(fresh(), "b", building("tower", "B1"))), RoundEnded(by="a"))
    assert rules_broken(towered, FrontlineMoved(toward="b", grids=4)) == ["frontline/combat.no-skip"]
    assert rules_broken(towered, FrontlineMoved(toward="b", grids=3)) == ["frontline/combat.frontline"]
    assert rules_broken(towered, FrontlineMoved(toward="b", grids=2)) == []


def test_the_frontline_is_moved_only_after_a_round_ends_and_actions_wait_for_it() -> None:
    state = fresh()
    assert rules_broken(state, FrontlineMoved()) == ["frontline/play.sequence"]
    ended = play(state, RoundEnded(by="a"))
    assert rules_broken(ended, WorkersMoved(by="a", count=1, origin="gold", to="lumber")) == ["frontline/play.sequence"]
    assert rules_broken(ended, FrontlineMoved()) == []


def test_the_second_seat_pushes_into_the_first_seats_half_when_it_is_stronger() -> None:
    """A difference of 6 yields the grids needing 2, 4 and 6 (a difference equal to the
    number pushes into the grid), and stops before the 8."""
    state = end_round(forces(4, 10))
    assert state.front == -3
    assert end_round(forces(4, 11, state)).front == -3
