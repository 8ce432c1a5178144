"""The table's exact geometry, made cheaper, gives the same numbers as the plain code before it.

`board.inside`, `length_inside` and `path_inside` read each outline's sides as flat numbers
worked out once (`board.sides`) and do the arithmetic of `point_segment_distance` and the
crossing count in one loop. Sight lines, climbing and impassable terrain decide on these
numbers, so a seed's log stays the same only if every float is the same: each test holds
the new code to the code before it (kept here as the reference), bit for bit, on outlines
and segments chosen to hit the awkward cases (ends on corners and sides, segments along a
side, through a corner, degenerate outlines).
"""

from __future__ import annotations

import math
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from projections.corpus.simulate import play
from rulesets.frontier import board, movement
from rulesets.frontier.board import EPS, Point, Polygon, Sighted
from rulesets.frontier.events import Level
from rulesets.frontier.state import Piece, Unit, make_piece, on_board, sighted, terrain_sight
from rulesets.frontier.state import _sighted as plain_sighted
from tests.frontier.scenario import P, R

# --- the reference: board.py's code before its sides were read as flat numbers ------------------


def _old_point_segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 <= 0.0:
        return math.hypot(a[0] - p[0], a[1] - p[1])
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    t = min(1.0, max(0.0, t))
    q = (a[0] + t * dx, a[1] + t * dy)
    return math.hypot(q[0] - p[0], q[1] - p[1])


def _old_edges(poly: Polygon) -> tuple[tuple[Point, Point], ...]:
    return tuple((poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def _old_inside(p: Point, poly: Polygon) -> bool:
    x0, y0, x1, y1 = board.bounds(poly)
    if p[0] < x0 - EPS or p[0] > x1 + EPS or p[1] < y0 - EPS or p[1] > y1 + EPS:
        return False
    sides = _old_edges(poly)
    x, y = p
    crossed = False
    for (ax, ay), (bx, by) in sides:
        if (ay > y) != (by > y):
            cross_x = ax + (y - ay) * (bx - ax) / (by - ay)
            if x < cross_x:
                crossed = not crossed
    return crossed or any(_old_point_segment_distance(p, a, b) < EPS for a, b in sides)


def _old_crossings(a: Point, b: Point, poly: Polygon) -> list[float]:
    ts = [0.0, 1.0]
    dx, dy = b[0] - a[0], b[1] - a[1]
    for c, d in _old_edges(poly):
        ex, ey = d[0] - c[0], d[1] - c[1]
        denom = dx * ey - dy * ex
        if abs(denom) < EPS:
            continue
        t = ((c[0] - a[0]) * ey - (c[1] - a[1]) * ex) / denom
        u = ((c[0] - a[0]) * dy - (c[1] - a[1]) * dx) / denom
        if -EPS <= t <= 1 + EPS and -EPS <= u <= 1 + EPS:
            ts.append(min(1.0, max(0.0, t)))
    return sorted(ts)


def _old_strictly_inside(p: Point, poly: Polygon) -> bool:
    return _old_inside(p, poly) and all(_old_point_segment_distance(p, a, b) > EPS for a, b in _old_edges(poly))


def _old_length_inside(a: Point, b: Point, poly: Polygon) -> float:
    x0, y0, x1, y1 = board.bounds(poly)
    if max(a[0], b[0]) < x0 or min(a[0], b[0]) > x1 or max(a[1], b[1]) < y0 or min(a[1], b[1]) > y1:
        return 0.0
    ts = _old_crossings(a, b, poly)
    total = 0.0
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    for t0, t1 in pairwise(ts):
        if t1 - t0 < EPS:
            continue
        mid = (t0 + t1) / 2
        m = (a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid)
        if _old_strictly_inside(m, poly):
            total += (t1 - t0) * length
    return total


def _old_path_inside(points: list[Point], poly: Polygon) -> float:
    if len(points) == 1:
        return 0.0
    x0, y0, x1, y1 = board.bounds(poly)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    if max(xs) < x0 or min(xs) > x1 or max(ys) < y0 or min(ys) > y1:
        return 0.0
    return sum(_old_length_inside(a, b, poly) for a, b in board.path_legs(points) if not board.segment_misses_box(a, b, (x0, y0, x1, y1)))


# --- outlines and segments with awkward cases -------------------------------------------------------

grid = st.integers(0, 12).map(float)
anywhere = st.floats(min_value=0, max_value=12, allow_nan=False)
corner = st.tuples(grid, grid) | st.tuples(anywhere, anywhere)
outlines = st.lists(corner, min_size=3, max_size=7).map(tuple) | st.tuples(grid, grid, st.integers(1, 6), st.integers(1, 6)).map(
    lambda r: board.rectangle(r[0], r[1], r[0] + r[2], r[1] + r[3]))


@st.composite
def on_or_near(draw: st.DrawFn, poly: Polygon) -> Point:
    """A point that is a corner, somewhere along a side, a hair off a side, or anywhere."""
    how = draw(st.sampled_from(["corner", "side", "hair", "anywhere", "grid"]))
    if how == "anywhere":
        return draw(st.tuples(anywhere, anywhere))
    if how == "grid":
        return draw(st.tuples(grid, grid))
    a = poly[draw(st.integers(0, len(poly) - 1))]
    if how == "corner":
        return a
    b = poly[(poly.index(a) + 1) % len(poly)]
    t = draw(st.sampled_from([0.5, 0.25, 1 / 3]) | st.floats(0, 1))
    p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
    if how == "hair":
        shift = draw(st.sampled_from([EPS / 2, -EPS / 2, 2 * EPS, -2 * EPS, 1e-7]))
        p = (p[0] + shift, p[1] - shift)
    return p


@st.composite
def outline_and_segment(draw: st.DrawFn) -> tuple[Polygon, Point, Point]:
    poly = draw(outlines)
    return poly, draw(on_or_near(poly)), draw(on_or_near(poly))


@settings(max_examples=800, deadline=None)
@given(outline_and_segment())
def test_a_segment_measures_the_same_inches_inside_an_outline_as_before(case: tuple[Polygon, Point, Point]) -> None:
    """`length_inside` (and the crossings and strict insideness it is made of), the same float."""
    poly, a, b = case
    assert board._crossings(a, b, poly) == _old_crossings(a, b, poly)
    expected = _old_length_inside(a, b, poly)
    found = board.length_inside.__wrapped__(a, b, poly)
    assert math.copysign(1.0, found) == math.copysign(1.0, expected) and found == expected, (found, expected)
    for p in (a, b, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)):
        assert board._strictly_inside(p, poly) == _old_strictly_inside(p, poly)


@settings(max_examples=800, deadline=None)
@given(outline_and_segment())
def test_a_point_is_inside_an_outline_exactly_as_before(case: tuple[Polygon, Point, Point]) -> None:
    """`inside` on corners, on sides, a hair off them, and anywhere."""
    poly, a, b = case
    for p in (a, b):
        assert board.inside(p, poly) == _old_inside(p, poly)


@settings(max_examples=800, deadline=None)
@given(outlines, st.data())
def test_a_path_measures_the_same_inches_inside_an_outline_as_before(poly: Polygon, data: st.DataObject) -> None:
    """`path_inside` of one leg (its own shortcut) and of several."""
    path = data.draw(st.lists(on_or_near(poly), min_size=1, max_size=4))
    assert board.path_inside(path, poly) == _old_path_inside(path, poly)
    assert board.path_inside(tuple(path[:2]), poly) == _old_path_inside(path[:2], poly)


@settings(max_examples=800, deadline=None)
@given(outline_and_segment())
def test_a_points_distance_to_each_side_is_the_same_float_as_before(case: tuple[Polygon, Point, Point]) -> None:
    """`board._side_distance` on a side from `board.sides` against `point_segment_distance`'s
    arithmetic, from corners, sides and anywhere (a side of zero length included)."""
    poly, a, b = case
    for side, (c, d) in zip(board.sides(poly), _old_edges(poly), strict=True):
        for p in (a, b, c):
            assert board._side_distance(p[0], p[1], side) == _old_point_segment_distance(p, c, d)
            assert board._side_distance(p[0], p[1], side) == board.point_segment_distance(p, c, d)


# --- what the moves and sight lines built on it ask ------------------------------------------------


def _old_snap(p: Point) -> Point:
    x = min(max(p[0], 0.0), 44.0)
    y = min(max(p[1], 0.0), 30.0)
    return (round(x, 2), round(y, 2))


@settings(max_examples=500, deadline=None)
@given(st.tuples(st.floats(-5, 50, allow_nan=False) | st.sampled_from([-0.0, 0.0, 44.0, 30.0, 0, 44, -3]),
                 st.floats(-5, 40, allow_nan=False) | st.sampled_from([-0.0, 0.0, 30.0, 0, 30, 31])))
def test_a_point_snaps_to_the_same_numbers_as_before(p: Point) -> None:
    """`movement.snap` without min and max: the same values and types (a -0.0 kept, an int kept)."""
    found, expected = movement.snap(p), _old_snap(p)
    assert [(v, type(v), math.copysign(1, v)) for v in found] == [(v, type(v), math.copysign(1, v)) for v in expected]


def _old_through_walls(pieces: list[Piece], start: Point, to: Point, path: tuple[Point, ...], free: bool) -> list[str]:
    """`movement._through_walls` before a move whose box misses a piece's was passed by (the reference)."""
    points = (start, *path, to)
    out = []
    for piece in pieces:
        if board.inside(to, piece.outline):
            out.append(f"end {piece.id}")
        elif not free and board.path_enters(points, piece.outline):
            out.append(f"through {piece.id}")
    return out


@settings(max_examples=500, deadline=None)
@given(outlines, st.data(), st.booleans())
def test_impassable_terrain_stops_the_same_moves_as_before(poly: Polygon, data: st.DataObject, free: bool) -> None:
    """`movement._through_walls` (a move whose bounding box stays more than EPS off a piece's
    is passed by) against every piece asked: moves ending on, beside and a hair off the outline."""
    wall = make_piece("lake", "", poly, 0, (Level(height=0, rules=("impassable",)),))
    start, to = data.draw(on_or_near(poly)), data.draw(on_or_near(poly))
    path = tuple(data.draw(st.lists(on_or_near(poly), max_size=2)))
    unit = Unit(id="u", type="stalker_team", side="p1", status="board", at=start)
    x0, y0, x1, y1 = wall.box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    moves = [(start, to, path)]
    for hair in (EPS / 2, 2 * EPS):  # from outside up to a hair off each side of the box
        moves += [((x0 - 3, cy), (x0 - hair, cy), ()), ((x1 + 3, cy), (x1 + hair, cy), ()),
                  ((cx, y0 - 3), (cx, y0 - hair), ()), ((cx, y1 + 3), (cx, y1 + hair), ())]
    for begin, end, via in moves:
        found = [("end " if "end its move" in p.message else "through ") + "lake" for p in movement._through_walls((wall,), unit, begin, end, via, free)]
        assert found == _old_through_walls([wall], begin, end, via, free)


def test_a_lines_terrain_part_is_remembered_by_where_its_ends_stand_not_by_which_units() -> None:
    """The table's sight lines (`state.terrain_sight`) are kept by each end's place, scale,
    piece and height: asked again with other units' ids at the same places, the answer is
    what `board.terrain_blocker` traces afresh (lines between every pair of places units stood
    at in a seeded game, each asked under two pairs of ids)."""
    log = play(R, R.ruleset.example_seats, seed=3, bot="heuristic")
    state = R.ruleset.setup(P, log[0])
    places: list[Sighted] = []
    for event in log[1:]:
        state = R.ruleset.apply(P, state, event)
        places += [sighted(state, u) for u in on_board(state) if sighted(state, u) not in places]
    lines = terrain_sight(state)
    asked = blocked = 0
    for a in places[:40]:
        for b in places[:40]:
            for ids in (("x", "y"), (b.id, a.id)):
                one, two = a._replace(id=ids[0]), b._replace(id=ids[1])
                expected = board.terrain_blocker(one, two, state.terrain)
                assert lines(one, two) == expected
                asked += 1
                blocked += expected is not None
    assert asked > 1000 and 0 < blocked < asked


def test_a_units_end_of_a_line_is_remembered_only_while_the_unit_is_the_same() -> None:
    """`state.sighted` for a unit where it stands (kept per unit object and table) against the
    plain reading at every state of seeded games, in a game's order: units that moved, climbed,
    were shaken or replaced get their new end, units that did not keep theirs."""
    asked = 0
    for bot, seed in (("random", 3), ("heuristic", 4), ("random", 5)):
        log = play(R, R.ruleset.example_seats, seed=seed, bot=bot)
        state = R.ruleset.setup(P, log[0])
        for event in log[1:]:
            state = R.ruleset.apply(P, state, event)
            for unit in on_board(state):
                assert sighted(state, unit) == plain_sighted(state, unit, None, None), unit.id
                asked += 1
    assert asked > 1000
