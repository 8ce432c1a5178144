"""Frontier geometry: properties that must hold for any points and pieces, and worked cases
from frontier.md, Line of Sight."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulesets.frontier.board import (
    Body,
    Point,
    Sighted,
    distance,
    inside,
    length_inside,
    line_of_sight,
    make_terrain,
    path_point_distance,
    point_segment_distance,
    polygon_distance,
    polygons_gap,
    polygons_touch,
    rectangle,
    segments_intersect,
    sight_blocker,
)

coord = st.floats(min_value=-50, max_value=100, allow_nan=False, allow_infinity=False)
points = st.tuples(coord, coord)
table = st.tuples(st.floats(0, 44), st.floats(0, 30))
scales = st.integers(0, 5)


@st.composite
def rects(draw: st.DrawFn) -> tuple[float, float, float, float]:
    x0, y0 = draw(st.floats(0, 40)), draw(st.floats(0, 26))
    return x0, y0, x0 + draw(st.floats(0.5, 10)), y0 + draw(st.floats(0.5, 10))


def _clip(a: Point, b: Point, r: tuple[float, float, float, float]) -> float:
    """Liang-Barsky: the length of segment ab inside an axis-aligned rectangle's interior (independent check)."""
    x0, y0, x1, y1 = r
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    if (dx == 0 and a[0] in (x0, x1)) or (dy == 0 and a[1] in (y0, y1)):
        return 0.0  # running along a side is not inside
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if abs(p) < 1e-12:
            if q < 0:
                return 0.0
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    return max(0.0, t1 - t0) * distance(a, b)


# --- distances ----------------------------------------------------------------------------


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(points, points)
def test_distance_is_symmetric_and_zero_only_on_itself(a: Point, b: Point) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(points, points, points)
def test_distance_triangle_inequality(a: Point, b: Point, c: Point) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c) + 1e-9


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(points, points, points)
def test_distance_to_a_segment_is_at_most_the_distance_to_either_end(p: Point, a: Point, b: Point) -> None:
    d = point_segment_distance(p, a, b)
    assert 0 <= d <= min(distance(p, a), distance(p, b)) + 1e-9
    assert point_segment_distance(a, a, b) < 1e-9 and point_segment_distance(b, a, b) < 1e-9


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(points, points, points)
def test_a_polyline_is_as_close_as_its_nearest_leg(p: Point, a: Point, b: Point) -> None:
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    assert math.isclose(path_point_distance((a, mid, b), p), point_segment_distance(p, a, b), abs_tol=1e-6)


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(points, points, points, points)
def test_segment_intersection_is_symmetric(a: Point, b: Point, c: Point, d: Point) -> None:
    assert segments_intersect(a, b, c, d) == segments_intersect(c, d, a, b) == segments_intersect(b, a, d, c)


# --- polygons -----------------------------------------------------------------------------


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(rects(), table)
def test_inside_a_rectangle_matches_its_bounds(r: tuple[float, float, float, float], p: Point) -> None:
    x0, y0, x1, y1 = r
    assume(min(abs(p[0] - x0), abs(p[0] - x1), abs(p[1] - y0), abs(p[1] - y1)) > 1e-6)
    assert inside(p, rectangle(*r)) == (x0 < p[0] < x1 and y0 < p[1] < y1)


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(rects(), table)
def test_distance_to_a_polygon_is_zero_exactly_inside(r: tuple[float, float, float, float], p: Point) -> None:
    poly = rectangle(*r)
    assert (polygon_distance(p, poly) == 0) == inside(p, poly)


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(rects(), table, table)
def test_length_inside_a_rectangle_matches_an_independent_clip(r: tuple[float, float, float, float], a: Point, b: Point) -> None:
    x0, y0, x1, y1 = r
    along = [abs(a[1] - y) < 1e-6 and abs(b[1] - y) < 1e-6 for y in (y0, y1)] + [abs(a[0] - x) < 1e-6 and abs(b[0] - x) < 1e-6 for x in (x0, x1)]
    assume(not any(along))  # a line within float noise of running along a side is neither in nor out
    assert math.isclose(length_inside(a, b, rectangle(*r)), _clip(a, b, r), abs_tol=1e-6)


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(rects(), table, table)
def test_length_inside_is_symmetric_and_at_most_the_segment(r: tuple[float, float, float, float], a: Point, b: Point) -> None:
    poly = rectangle(*r)
    inside_ab = length_inside(a, b, poly)
    assert math.isclose(inside_ab, length_inside(b, a, poly), abs_tol=1e-6)
    assert -1e-9 <= inside_ab <= distance(a, b) + 1e-9


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(rects(), rects())
def test_gap_between_polygons_is_symmetric_and_zero_when_they_overlap(r1: tuple[float, float, float, float], r2: tuple[float, float, float, float]) -> None:
    one, two = rectangle(*r1), rectangle(*r2)
    assert math.isclose(polygons_gap(one, two), polygons_gap(two, one), abs_tol=1e-9)
    overlap = r1[0] <= r2[2] and r2[0] <= r1[2] and r1[1] <= r2[3] and r2[1] <= r1[3]
    assert (polygons_gap(one, two) < 1e-9) == overlap


polygon_corners = st.lists(st.tuples(st.floats(0, 12), st.floats(0, 12)), min_size=3, max_size=6).map(tuple)


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(polygon_corners, polygon_corners, st.sampled_from([0.0, 1.0, 5.0]))
def test_polygons_touch_exactly_when_their_gap_is_zero(one: tuple[Point, ...], two: tuple[Point, ...], shift: float) -> None:
    """The set-up's overlap test asks `polygons_touch` instead of measuring the gap: the same
    answer for any outlines, touching at a corner or a side included."""
    two = tuple((x + shift, y) for x, y in two)
    assert polygons_touch(one, two) == (polygons_gap(one, two) <= 0)
    assert polygons_touch(rectangle(0, 0, 2, 2), rectangle(2, 0, 4, 2))  # sides touching
    assert not polygons_touch(rectangle(0, 0, 2, 2), rectangle(2.5, 0, 4, 2))


def test_an_l_shaped_outline_counts_only_the_stretch_inside_it() -> None:
    ell = ((0.0, 0.0), (6.0, 0.0), (6.0, 2.0), (2.0, 2.0), (2.0, 6.0), (0.0, 6.0))
    assert math.isclose(length_inside((-1, 1), (7, 1), ell), 6.0)
    assert math.isclose(length_inside((-1, 4), (7, 4), ell), 2.0)  # only the upright of the L
    assert length_inside((3, 3), (5, 5), ell) == 0.0  # the notch is outside


# --- line of sight -----------------------------------------------------------------------------


def man(x: float, y: float, scale: int = 1, **kw: object) -> Sighted:
    return Sighted(at=(x, y), scale=scale, id=f"u{x},{y}", **kw)  # type: ignore[arg-type]


@st.composite
def pieces(draw: st.DrawFn) -> list:
    out = []
    for i in range(draw(st.integers(0, 4))):
        out.append(make_terrain(f"t{i}", rectangle(*draw(rects())), draw(scales)))
    return out


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(table, table, scales, scales, pieces())
def test_line_of_sight_is_symmetric(a: Point, b: Point, sa: int, sb: int, terrain: list) -> None:
    """"line of sight may not be drawn to or from the unit": the rule reads the same both ways."""
    one, two = Sighted(at=a, scale=sa, id="a"), Sighted(at=b, scale=sb, id="b")
    assert line_of_sight(one, two, terrain) == line_of_sight(two, one, terrain)


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(table, table, scales, scales)
def test_an_empty_table_never_blocks(a: Point, b: Point, sa: int, sb: int) -> None:
    assert line_of_sight(Sighted(at=a, scale=sa), Sighted(at=b, scale=sb), [])


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(table, table, st.integers(1, 3), pieces(), pieces())
def test_more_terrain_never_opens_a_line(a: Point, b: Point, s: int, some: list, more: list) -> None:
    one, two = Sighted(at=a, scale=s, id="a"), Sighted(at=b, scale=s, id="b")
    more = [t._replace(id=f"m{t.id}") for t in more]
    if not line_of_sight(one, two, some):
        assert not line_of_sight(one, two, some + more)


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(table, table, st.integers(1, 3), pieces(), st.floats(-5, 5), st.floats(-5, 5))
def test_line_of_sight_does_not_change_when_everything_moves_together(a: Point, b: Point, s: int, terrain: list, dx: float, dy: float) -> None:
    def shift(p: Point) -> Point:
        return (p[0] + dx, p[1] + dy)

    moved = [make_terrain(t.id, tuple(shift(p) for p in t.outline), t.scale) for t in terrain]
    before = line_of_sight(Sighted(at=a, scale=s), Sighted(at=b, scale=s), terrain)
    after = line_of_sight(Sighted(at=shift(a), scale=s), Sighted(at=shift(b), scale=s), moved)
    assume(all(abs(length_inside(a, b, t.outline) - 2.0) > 1e-6 for t in terrain))
    assert before == after


@settings(deadline=None)  # pure arithmetic: a slow run is a busy machine, not a slow test
@given(st.floats(0.5, 3), scales)
def test_a_wall_as_tall_as_both_units_across_the_line_blocks(width: float, extra: int) -> None:
    wall = make_terrain("wall", rectangle(20, 0, 20 + width, 30), 1 + extra)
    assert not line_of_sight(man(5, 15), man(40, 15), [wall])


WALL = make_terrain("wall", rectangle(21, 0, 22, 30), 1)


def test_a_lower_wall_far_from_both_units_does_not_block_taller_units() -> None:
    """Scale 2 units see over a scale 1 wall more than 5" from each of them."""
    assert line_of_sight(man(10, 15, 2), man(34, 15, 2), [WALL])


def test_a_wall_blocks_units_of_its_own_scale_anywhere() -> None:
    """"without passing through terrain ... of an equal or larger scale than the highest scale of the two units"."""
    assert sight_blocker(man(5, 15), man(40, 15), [WALL]) == "wall"


def test_a_unit_within_5_inches_of_terrain_its_own_scale_hides_behind_it() -> None:
    """The 5" rule: a scale 1 man crouching 3" behind a scale 1 wall is not seen by a scale 2 team."""
    team = man(5, 15, 2)
    assert not line_of_sight(team, man(25, 15, 1), [WALL])  # 3" from the wall
    assert line_of_sight(team, man(28, 15, 2), [WALL])  # a scale 2 unit behind it is seen
    assert line_of_sight(team, man(30, 15, 2), [WALL])


def test_a_unit_more_than_5_inches_from_a_lower_wall_is_seen_by_a_taller_one() -> None:
    assert line_of_sight(man(5, 15, 2), man(30, 15, 1), [WALL])  # 8" from the wall


def test_standing_on_top_of_a_wall_adds_its_scale() -> None:
    """"a man (scale 1) standing on top of a wall (scale 1) would have an effective scale of 2"."""
    on_wall = Sighted(at=(21.5, 15), scale=2, piece="wall", level=1, id="lookout")
    assert line_of_sight(on_wall, man(40, 15, 1), [WALL])
    assert line_of_sight(man(2, 15, 1), on_wall, [WALL])


RUIN = make_terrain("ruin", rectangle(10, 10, 16, 20), 2, open_sided=(0,))


def test_open_sided_terrain_is_ignored_for_a_unit_in_it_when_the_line_runs_2_inches_or_less_inside() -> None:
    """Open Sided: "ignore this piece of terrain if the distance covered by line of sight inside the terrain is 2" or less"."""
    in_ruin = Sighted(at=(14.5, 15), scale=1, piece="ruin", level=0, id="in")
    assert line_of_sight(in_ruin, man(30, 15), [RUIN])  # 1.5" inside
    deep = Sighted(at=(12, 15), scale=1, piece="ruin", level=0, id="deep")
    assert not line_of_sight(deep, man(30, 15), [RUIN])  # 4" inside


def test_open_sided_terrain_between_two_units_outside_it_still_blocks() -> None:
    assert not line_of_sight(man(9.5, 15), man(16.5, 15), [RUIN])  # 6" inside, neither unit in it


def test_a_unit_as_tall_as_both_blocks_but_a_smaller_one_does_not() -> None:
    """Units block like terrain: "or another unit of an equal or larger scale"."""
    crowd = [Body("x", (20, 15), 0.5, 1)]
    assert sight_blocker(man(10, 15), man(30, 15), [], crowd) == "x"
    assert line_of_sight(man(10, 15, 2), man(30, 15, 2), [], crowd)


@pytest.mark.parametrize("offset", [0.49, 0.51])
def test_a_unit_blocks_only_lines_through_its_base(offset: float) -> None:
    crowd = [Body("x", (20, 15 + offset), 0.5, 1)]
    assert line_of_sight(man(10, 15), man(30, 15), [], crowd) == (offset > 0.5)
