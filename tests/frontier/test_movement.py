"""frontier.md, Movement, Climbing, Jumping and Falling, and terrain and sight on the table.

Moves are made through an advance nobody reacts to (up to 10") unless a test needs another.
The saboteur (scale 1) and the captain have no ability that changes movement.
"""

from __future__ import annotations

from rulesets.frontier.events import ActionDeclared, Passed, ReactionDeclared, UnitMoved
from rulesets.frontier.state import effective_scale
from tests.frontier.scenario import block, legally, messages, position, put, roll, unit, violations

SAB = "p1/saboteur-1"
CAP = "p2/captain-1"


def advancing(*things: object, mover: str = SAB):
    """The mover's advance has succeeded: its move is open."""
    state = position(*things)  # type: ignore[arg-type]
    side = mover.split("/")[0]
    return legally(state, ActionDeclared(by=side, unit=mover, action="advance"), Passed(by="p2" if side == "p1" else "p1", step="reaction"))


def move(to: tuple[float, float], level: int = 0, path: tuple[tuple[float, float], ...] = (), unit_id: str = SAB, by: str = "p1") -> UnitMoved:
    return UnitMoved(by=by, unit=unit_id, to=to, level=level, path=path)


FOE = put("captain", (40, 28), side="p2")


# --- Movement ------------------------------------------------------------------------------------


def test_only_the_straight_line_from_start_to_end_is_limited() -> None:
    """"It may never end its move further than the specified distance from its starting point"."""
    state = advancing(put("saboteur", (5, 5)), FOE)
    assert violations(state, move((15, 5), path=((8, 9), (12, 9)))) == []  # a longer way round, ending 10" away
    assert violations(state, move((15.2, 5))) == ["frontier/movement.distance"]


def test_a_move_may_not_pass_through_another_unit_friendly_or_otherwise() -> None:
    friend = put("captain", (10, 5), side="p2")
    state = advancing(put("saboteur", (5, 5)), put("saboteur", (8, 5), n=2), friend)
    assert violations(state, move((12, 5))) == ["frontier/movement.through-units", "frontier/movement.through-units"]
    assert violations(state, move((12, 5), path=((6, 8), (11, 8)))) == []
    assert violations(state, move((8.5, 5.2))) == ["frontier/movement.through-units"]  # ends on top of a unit


def test_bases_may_touch() -> None:
    state = advancing(put("saboteur", (5, 5)), put("captain", (10, 5), side="p2"))
    assert violations(state, move((9.0, 5.0))) == []  # 1" between centres: two 0.5" bases touching


def test_a_move_stays_on_the_table() -> None:
    state = advancing(put("saboteur", (2, 2)), FOE)
    assert violations(state, move((-1, 2))) == ["frontier/movement.table"]


def test_terrain_of_a_lower_scale_is_crossed_without_penalty() -> None:
    """"It may move over terrain of a lower scale without penalty": a scale 2 team crosses a scale 1 wall."""
    wall = block("wall", 10, 0, 11, 30, 1)
    state = advancing(wall, put("colonial_exploration_team", (5, 15)), FOE, mover="p1/colonial_exploration_team-1")
    assert violations(state, move((15, 15), unit_id="p1/colonial_exploration_team-1")) == []


# --- Climbing --------------------------------------------------------------------------------------


def test_climbing_over_terrain_of_equal_scale_costs_1_inch_per_scale() -> None:
    """"Climbing reduces the maximum movement distance by 1" per scale of the terrain climbed"."""
    wall = block("wall", 10, 0, 11, 30, 1)
    state = advancing(wall, put("saboteur", (5, 15)), FOE)
    assert violations(state, move((14.0, 15))) == []
    assert violations(state, move((14.5, 15))) == ["frontier/movement.distance"]
    assert 'less 1" climbing wall' in messages(state, move((14.5, 15)))[0]


def test_climbing_onto_a_roof_costs_its_scale_and_the_unit_stands_taller() -> None:
    tower = block("tower", 10, 12, 14, 18, 3)
    state = advancing(tower, put("saboteur", (5, 15)), FOE)
    assert violations(state, move((12, 15), level=3)) == []  # 7" moved, 3" climbed
    assert violations(state, move((12.5, 15), level=3)) == ["frontier/movement.distance"]
    up = legally(state, move((12, 15), level=3))
    assert effective_scale(up, unit(up, SAB)) == 4  # "its scale is increased by the scale of that terrain"


def test_a_unit_may_not_stop_halfway_up() -> None:
    """"A unit may only climb terrain if it can end its move on top of, or off the piece"."""
    tower = block("tower", 10, 12, 14, 18, 3)
    state = advancing(tower, put("saboteur", (5, 15)), FOE)
    assert violations(state, move((11, 15), level=1)) == ["frontier/climbing.halfway"]
    assert violations(state, move((11, 15), level=0)) == ["frontier/climbing.halfway"]  # solid at ground level


def test_a_building_with_a_ground_floor_is_walked_into_and_its_floors_are_climbed() -> None:
    house = block("house", 10, 12, 14, 18, 3, (0, ("cover",)), (1, ("firing_position",)), (3, ("exposed",)))
    state = advancing(house, put("saboteur", (5, 15)), FOE)
    assert violations(state, move((14.9, 15), level=0)) == []
    assert violations(state, move((13.9, 15), level=1)) == []
    assert violations(state, move((14.0, 12.0), level=1)) == ["frontier/movement.distance"]  # 9.5" + 1" up
    assert violations(state, move((11, 15), level=2)) == ["frontier/climbing.halfway"]


def test_climbing_down_costs_the_height_left() -> None:
    tower = block("tower", 10, 12, 14, 18, 2)
    state = advancing(tower, put("saboteur", (12, 15), level=2), FOE)
    assert violations(state, move((20, 15))) == []  # 8" + 2" climbing down
    assert violations(state, move((20.5, 15))) == ["frontier/movement.distance"]


def test_a_gap_no_wider_than_the_units_scale_is_jumped_freely() -> None:
    """"A unit may move freely over a gap between terrain equal or lower than its scale in inches"."""
    one, two = block("one", 10, 10, 14, 20, 2), block("two", 15, 10, 19, 20, 2)
    state = advancing(one, two, put("saboteur", (12, 15), level=2), FOE)
    assert violations(state, move((21.9, 15), level=0)) == ["frontier/movement.distance"]  # off the far side: climbs down
    assert violations(state, move((18.9, 15), level=2)) == []  # 6.9": the 1" gap is jumped, no climbing
    wide = block("wide", 16, 10, 20, 20, 2)
    far = advancing(one, wide, put("saboteur", (12, 15), level=2), FOE)
    assert violations(far, move((18.9, 15), level=2)) == ["frontier/movement.distance"]  # 2" gap: down 2 and up 2


# --- Falling ------------------------------------------------------------------------------------------


def overwatched(scale_piece: int, kind: str, level: int):
    """The p1 unit stands on a piece of some scale; p2's overwatch wins and p2 moves it."""
    roof = block("roof", 3, 12, 7, 18, scale_piece)
    state = position(roof, put(kind, (5, 15), level=level), put("captain", (25, 15), side="p2"))
    mover = f"p1/{kind}-1"
    return legally(state, ActionDeclared(by="p1", unit=mover, action="advance"), ReactionDeclared(by="p2", unit=CAP, reaction="overwatch"),
                   roll((1,), (6,))), mover


def test_falling_off_terrain_no_taller_than_the_unit_costs_nothing() -> None:
    state, mover = overwatched(1, "saboteur", 1)
    state = legally(state, UnitMoved(by="p2", unit=mover, to=(9.5, 15)))
    assert unit(state, mover).status == "board" and not unit(state, mover).shaken


def test_falling_off_terrain_taller_than_the_unit_but_under_double_shakes_it() -> None:
    state, mover = overwatched(3, "colonial_exploration_team", 3)  # scale 2 falls 3
    state = legally(state, UnitMoved(by="p2", unit=mover, to=(9.5, 15)))
    assert unit(state, mover).shaken


def test_falling_off_terrain_double_the_units_scale_destroys_it() -> None:
    state, mover = overwatched(2, "saboteur", 2)  # scale 1 falls 2
    state = legally(state, UnitMoved(by="p2", unit=mover, to=(9.5, 15)))
    assert unit(state, mover).status == "destroyed"


def test_the_opponent_moving_a_unit_off_terrain_does_not_pay_for_climbing_down() -> None:
    state, mover = overwatched(2, "saboteur", 2)
    assert violations(state, UnitMoved(by="p2", unit=mover, to=(9.9, 15))) == []  # 4.9" however high


# --- Terrain Rules on the table --------------------------------------------------------------------------


def test_units_may_not_move_through_impassable_terrain() -> None:
    lake = block("lake", 8, 0, 10, 30, 0, (0, ("impassable",)))
    state = advancing(lake, put("saboteur", (5, 15)), FOE)
    assert violations(state, move((12, 15))) == ["frontier/terrain.impassable"]
    assert violations(state, move((9, 15))) == ["frontier/terrain.impassable"]


def test_a_flying_drone_crosses_impassable_terrain_and_units_but_may_not_stop_in_them() -> None:
    """Flying: "This unit ignores terrain, any tokens, and other units when it moves"."""
    lake = block("lake", 8, 0, 10, 30, 0, (0, ("impassable",)))
    state = advancing(lake, put("patrol_drone", (5, 15)), put("saboteur", (7, 15)), FOE, mover="p1/patrol_drone-1")
    assert violations(state, move((14.9, 15), unit_id="p1/patrol_drone-1")) == []
    assert violations(state, move((9, 15), unit_id="p1/patrol_drone-1")) == ["frontier/terrain.impassable"]


# --- Line of Sight on the table ------------------------------------------------------------------------------


def test_a_unit_hiding_within_5_inches_of_a_wall_cannot_be_fired_at_over_it() -> None:
    wall = block("wall", 20, 0, 21, 30, 1)
    team = put("colonial_exploration_team", (5, 15))
    hiding = position(wall, team, put("captain", (23, 15), side="p2"))
    shot = ActionDeclared(by="p1", unit="p1/colonial_exploration_team-1", action="open_fire", target=CAP)
    assert violations(hiding, shot) == ["frontier/open-fire.line-of-sight"]
    away = position(wall, team, put("captain", (30, 15), side="p2"))
    assert violations(away, shot) == []


def test_a_man_on_top_of_a_wall_sees_over_another_wall() -> None:
    """"a man (scale 1) standing on top of a wall (scale 1) would have an effective scale of 2"."""
    low, far = block("low", 4, 0, 6, 30, 1), block("far", 15, 0, 16, 30, 1)
    shot = ActionDeclared(by="p1", unit=SAB, action="open_fire", target=CAP)
    on_wall = position(low, far, put("saboteur", (5, 15), level=1), put("captain", (30, 15), side="p2"))
    assert effective_scale(on_wall, unit(on_wall, SAB)) == 2
    assert violations(on_wall, shot) == []
    below = position(low, far, put("saboteur", (3, 15)), put("captain", (30, 15), side="p2"))
    assert violations(below, shot) == ["frontier/open-fire.line-of-sight"]


def test_a_unit_in_the_way_blocks_sight_if_it_is_as_tall() -> None:
    shot = ActionDeclared(by="p1", unit=SAB, action="open_fire", target=CAP)
    state = position(put("saboteur", (5, 15)), put("saboteur", (15, 15), n=2), put("captain", (25, 15), side="p2"))
    assert violations(state, shot) == ["frontier/open-fire.line-of-sight"]


def test_a_unit_in_open_sided_terrain_is_seen_if_the_line_runs_2_inches_or_less_inside() -> None:
    """Open Sided: "ignore this piece of terrain if the distance covered by line of sight inside the terrain is 2" or less"."""
    ruin = block("ruin", 15, 10, 25, 20, 2, (0, ("open_sided", "rough")))
    shot = ActionDeclared(by="p1", unit=SAB, action="open_fire", target=CAP)
    assert violations(position(ruin, put("saboteur", (3, 15)), put("captain", (16.5, 15), side="p2")), shot) == []
    assert violations(position(ruin, put("saboteur", (3, 15)), put("captain", (18, 15), side="p2")), shot) == ["frontier/open-fire.line-of-sight"]
