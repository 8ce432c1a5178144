"""Frontier's table geometry: points in inches, distances, segments, polygons, line of sight.

Frontier is played on an open 30" x 44" table (frontier.md, Introduction): units stand
anywhere, distances are measured in inches and line of sight is geometry. Everything
here is pure arithmetic on floats; the rules decide what the numbers mean.

The table's x axis runs along the 44" long edges (west to east), y along the 30" short
edges (south to north); (0, 0) is the south-west corner.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple, Protocol

Point = tuple[float, float]
"""(x, y) in inches from the south-west corner."""
Polygon = tuple[Point, ...]
"""A simple polygon's corners in order (either winding); the last joins the first."""

EPS = 1e-9
"""Below this, two lengths are equal (float noise, never a table measurement)."""


# --- points and segments ------------------------------------------------------------------


def distance(a: Point, b: Point) -> float:
    """Straight-line distance between two points, in inches."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def toward(a: Point, b: Point, length: float) -> Point:
    """The point `length` inches from a in the direction of b (a itself if a == b)."""
    d = distance(a, b)
    if d < EPS:
        return a
    return (a[0] + (b[0] - a[0]) * length / d, a[1] + (b[1] - a[1]) * length / d)


def polar(origin: Point, degrees: float, length: float) -> Point:
    """The point `length` inches from origin at an angle (0 = east, 90 = north)."""
    rad = math.radians(degrees)
    return (origin[0] + length * math.cos(rad), origin[1] + length * math.sin(rad))


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """Shortest distance from p to the segment ab."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 <= 0.0:
        return distance(p, a)
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    t = min(1.0, max(0.0, t))
    return distance(p, (a[0] + t * dx, a[1] + t * dy))


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd share a point (touching counts)."""
    if (max(a[0], b[0]) < min(c[0], d[0]) - EPS or max(c[0], d[0]) < min(a[0], b[0]) - EPS
            or max(a[1], b[1]) < min(c[1], d[1]) - EPS or max(c[1], d[1]) < min(a[1], b[1]) - EPS):
        return False  # more than EPS apart along one axis: neither crossing nor within EPS
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and ((d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)):
        return True
    return (
        point_segment_distance(a, c, d) < EPS
        or point_segment_distance(b, c, d) < EPS
        or point_segment_distance(c, a, b) < EPS
        or point_segment_distance(d, a, b) < EPS
    )


def segment_distance(a: Point, b: Point, c: Point, d: Point) -> float:
    """Shortest distance between segments ab and cd (0 when they cross)."""
    if segments_intersect(a, b, c, d):
        return 0.0
    return min(point_segment_distance(a, c, d), point_segment_distance(b, c, d),
               point_segment_distance(c, a, b), point_segment_distance(d, a, b))


def path_legs(points: Sequence[Point]) -> list[tuple[Point, Point]]:
    """Consecutive pairs of a polyline (a single point has no legs)."""
    return [(points[i], points[i + 1]) for i in range(len(points) - 1)]


def path_point_distance(points: Sequence[Point], p: Point) -> float:
    """Shortest distance from p to a polyline (to its only point if it has one)."""
    if len(points) == 1:
        return distance(points[0], p)
    return min(point_segment_distance(p, a, b) for a, b in path_legs(points))


# --- polygons -------------------------------------------------------------------------------


def rectangle(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    """The axis-aligned rectangle with opposite corners (x0, y0) and (x1, y1)."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


@lru_cache(maxsize=1 << 14)
def edges(poly: Polygon) -> tuple[tuple[Point, Point], ...]:
    """The polygon's sides, the last one closing it (memoised: a table's few outlines are
    walked side by side for every point, segment and sight line tested against them)."""
    return tuple((poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


Side = tuple[float, float, float, float, float, float, float]
"""A polygon's side as flat numbers: (ax, ay, bx, by, dx, dy, length2), from corner a to
corner b, with b - a and its squared length (what every exact test of the side computes)."""


@lru_cache(maxsize=1 << 12)
def sides(poly: Polygon) -> tuple[Side, ...]:
    """The polygon's sides (`edges`) as flat numbers, worked out once per outline: the exact
    tests below read them in one loop each instead of calling `point_segment_distance` and
    unpacking points side by side (the same subtractions, so the same floats)."""
    out = []
    for (ax, ay), (bx, by) in edges(poly):
        dx, dy = bx - ax, by - ay
        out.append((ax, ay, bx, by, dx, dy, dx * dx + dy * dy))
    return tuple(out)


def _side_distance(x: float, y: float, side: Side) -> float:
    """`point_segment_distance((x, y), a, b)` for a side from `sides`: the same arithmetic in
    the same order (the clamp to [0, 1] as min(1, max(0, t)) gives it)."""
    ax, ay, _, _, dx, dy, length2 = side
    if length2 <= 0.0:
        return math.hypot(ax - x, ay - y)
    t = ((x - ax) * dx + (y - ay) * dy) / length2
    t = 0.0 if t <= 0.0 else t if t < 1.0 else 1.0
    return math.hypot(ax + t * dx - x, ay + t * dy - y)


def _crossed(x: float, y: float, flat: tuple[Side, ...]) -> bool:
    """The crossing count's answer for (x, y): an odd number of sides cross the ray east of it."""
    crossed = False
    for ax, ay, _bx, by, dx, dy, _ in flat:
        if (ay > y) != (by > y) and x < ax + (y - ay) * dx / dy:  # dx, dy: bx - ax, by - ay
            crossed = not crossed
    return crossed


def inside(p: Point, poly: Polygon) -> bool:
    """Whether p lies inside the polygon or on its boundary."""
    x0, y0, x1, y1 = outline_box(poly)
    x, y = p
    if x < x0 - EPS or x > x1 + EPS or y < y0 - EPS or y > y1 + EPS:
        return False  # off the bounding box: neither inside nor on a side
    flat = sides(poly)
    # inside by the crossing count, or on a side (which the count may miss either way)
    return _crossed(x, y, flat) or any(_side_distance(x, y, side) < EPS for side in flat)


def _strictly_inside_at(x: float, y: float, box: tuple[float, float, float, float], flat: tuple[Side, ...]) -> bool:
    """`_strictly_inside((x, y), poly)` for the outline's box and `sides`: inside by the
    crossing count and more than EPS from every side (a point on a side is inside for
    `inside` but not strictly; one off the box is neither)."""
    if x < box[0] - EPS or x > box[2] + EPS or y < box[1] - EPS or y > box[3] + EPS:
        return False
    return _crossed(x, y, flat) and all(_side_distance(x, y, side) > EPS for side in flat)


def polygon_distance(p: Point, poly: Polygon) -> float:
    """Distance from p to the polygon: 0 inside or on it, else to its nearest side."""
    if inside(p, poly):
        return 0.0
    return min(point_segment_distance(p, a, b) for a, b in edges(poly))


@lru_cache(maxsize=1 << 12)
def polygons_gap(one: Polygon, two: Polygon) -> float:
    """The gap between two polygons: 0 if they touch or overlap."""
    if inside(one[0], two) or inside(two[0], one):
        return 0.0
    return min(segment_distance(a, b, c, d) for a, b in edges(one) for c, d in edges(two))


def polygons_touch(one: Polygon, two: Polygon) -> bool:
    """Whether two polygons touch or overlap: `polygons_gap(one, two) <= 0`, without measuring
    the gap (the first crossing side decides; two sides that do not cross are at least EPS
    apart, so the gap is 0 exactly when one holds a corner of the other or two sides cross)."""
    if inside(one[0], two) or inside(two[0], one):
        return True
    return any(segments_intersect(a, b, c, d) for a, b in edges(one) for c, d in edges(two))


def _crossings(a: Point, b: Point, poly: Polygon) -> list[float]:
    """Parameters t in [0, 1] where segment ab meets a side of the polygon."""
    return _crossings_of(a[0], a[1], b[0] - a[0], b[1] - a[1], sides(poly))


def _crossings_of(ax: float, ay: float, dx: float, dy: float, flat: tuple[Side, ...]) -> list[float]:
    """`_crossings` of the segment from (ax, ay) along (dx, dy) with a polygon's `sides`."""
    ts = [0.0, 1.0]
    for cx, cy, _, _, ex, ey, _ in flat:
        denom = dx * ey - dy * ex
        if -EPS < denom < EPS:
            continue  # parallel sides add nothing a midpoint test misses
        t = ((cx - ax) * ey - (cy - ay) * ex) / denom
        u = ((cx - ax) * dy - (cy - ay) * dx) / denom
        if -EPS <= t <= 1 + EPS and -EPS <= u <= 1 + EPS:
            ts.append(0.0 if t <= 0.0 else t if t < 1.0 else 1.0)
    ts.sort()
    return ts


@lru_cache(maxsize=1 << 16)
def length_inside(a: Point, b: Point, poly: Polygon) -> float:
    """How many inches of segment ab lie inside the polygon (its boundary counts as outside
    when the segment only runs along it).

    Pure geometry over frozen tuples, so memoised: a move's legs are measured against every
    piece by each check of it, and a segment clear of the outline's bounding box is 0 at once.
    Each stretch between two crossings counts when its midpoint is strictly inside.
    """
    box = outline_box(poly)
    ax, ay = a
    bx, by = b
    if (ax if ax > bx else bx) < box[0] or (ax if ax < bx else bx) > box[2] or (ay if ay > by else by) < box[1] or (ay if ay < by else by) > box[3]:
        return 0.0
    flat = sides(poly)
    dx, dy = bx - ax, by - ay
    ts = _crossings_of(ax, ay, dx, dy, flat)
    total = 0.0
    length = math.hypot(dx, dy)  # `distance(a, b)`
    t0 = ts[0]
    for t1 in ts[1:]:
        if t1 - t0 >= EPS:
            mid = (t0 + t1) / 2
            if _strictly_inside_at(ax + dx * mid, ay + dy * mid, box, flat):
                total += (t1 - t0) * length
        t0 = t1
    return total


def _strictly_inside(p: Point, poly: Polygon) -> bool:
    return _strictly_inside_at(p[0], p[1], outline_box(poly), sides(poly))


BOX_MARGIN = 1e-6
"""How far outside an outline's bounding box a segment must stay for `segment_misses_box` to
pass it by: a thousand times EPS, so no point the exact tests compute along the segment
(within float noise of it) can fall within EPS of the box."""


def segment_misses_box(a: Point, b: Point, box: tuple[float, float, float, float]) -> bool:
    """Whether segment ab stays more than BOX_MARGIN outside a (min x, min y, max x, max y)
    box: then it runs through nothing inside it, and `length_inside` of any outline within the
    box is 0 (a long diagonal line's bounding box meets many pieces' boxes, the line few).
    Clipped to the box's two slabs; conservative: in doubt, it does not miss."""
    t0, t1 = 0.0, 1.0
    for p, q, lo, hi in ((a[0], b[0], box[0] - BOX_MARGIN, box[2] + BOX_MARGIN), (a[1], b[1], box[1] - BOX_MARGIN, box[3] + BOX_MARGIN)):
        d = q - p
        if d == 0.0:
            if p < lo or p > hi:
                return True
            continue
        ta, tb = (lo - p) / d, (hi - p) / d
        if ta > tb:
            ta, tb = tb, ta
        if ta > t0:
            t0 = ta
        if tb < t1:
            t1 = tb
        if t0 > t1:
            return True
    return False


def path_inside(points: Sequence[Point], poly: Polygon) -> float:
    """Inches of a polyline inside the polygon (0 at once if the polyline's bounding box
    misses the outline's: a move is measured against every piece on the table)."""
    if len(points) == 1:
        return 0.0
    x0, y0, x1, y1 = box = outline_box(poly)
    if len(points) == 2:  # most moves: one leg, without the lists
        a, b = points
        if (a[0] if a[0] > b[0] else b[0]) < x0 or (a[0] if a[0] < b[0] else b[0]) > x1 \
                or (a[1] if a[1] > b[1] else b[1]) < y0 or (a[1] if a[1] < b[1] else b[1]) > y1:
            return 0.0
        return 0.0 if segment_misses_box(a, b, box) else length_inside(a, b, poly)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    if max(xs) < x0 or min(xs) > x1 or max(ys) < y0 or min(ys) > y1:
        return 0.0
    return sum(length_inside(a, b, poly) for a, b in path_legs(points) if not segment_misses_box(a, b, box))


def path_enters(points: Sequence[Point], poly: Polygon) -> bool:
    """Whether any stretch of a polyline runs through the polygon's interior."""
    return path_inside(points, poly) > EPS


def first_entry(a: Point, b: Point, poly: Polygon) -> float | None:
    """The first parameter t in [0, 1] at which segment ab runs into the polygon's interior
    (None if it never does, or if a already stands strictly inside)."""
    if _strictly_inside(a, poly):
        return None
    ts = _crossings(a, b, poly)
    for t0, t1 in pairwise(ts):
        if t1 - t0 < EPS:
            continue
        mid = (t0 + t1) / 2
        if _strictly_inside((a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid), poly):
            return t0
    return None


def bounds(poly: Polygon) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of a polygon."""
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


@lru_cache(maxsize=1 << 12)
def outline_box(poly: Polygon) -> tuple[float, float, float, float]:
    """`bounds`, memoised: a table has a dozen outlines, asked about thousands of times."""
    return bounds(poly)


def centroid(poly: Polygon) -> Point:
    """The average of a polygon's corners (a label point, not the area centre)."""
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))


@lru_cache(maxsize=1 << 14)
def moved_to(poly: Polygon, to: Point) -> Polygon:
    """The same outline with its centre (`centroid`) at `to`: a piece picked up and put
    down elsewhere, not turned (corners rounded to a thousandth of an inch; memoised: a
    set-up position asks for every piece at every sample point, in legal and again in
    what it refuses)."""
    cx, cy = centroid(poly)
    return tuple((round(x - cx + to[0], 3), round(y - cy + to[1], 3)) for x, y in poly)


def boxes_meet(one: tuple[float, float, float, float], two: tuple[float, float, float, float]) -> bool:
    """Whether two (min x, min y, max x, max y) boxes overlap or touch: outlines whose boxes
    do not meet cannot touch, so the exact test is skipped for them."""
    return one[0] <= two[2] + EPS and two[0] <= one[2] + EPS and one[1] <= two[3] + EPS and two[1] <= one[3] + EPS


@lru_cache(maxsize=1 << 10)
def is_simple(poly: Polygon) -> bool:
    """At least three corners, non-zero area, and no two non-adjacent sides crossing
    (memoised: the same few table pieces are placed in game after game)."""
    if len(poly) < 3:
        return False
    area = sum(a[0] * b[1] - b[0] * a[1] for a, b in edges(poly)) / 2
    if abs(area) < EPS:
        return False
    sides = edges(poly)
    n = len(sides)
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            if segments_intersect(*sides[i], *sides[j]):
                return False
    return True


# --- line of sight (frontier.md, Line of Sight) ---------------------------------------------


class Solid(Protocol):
    """A terrain piece as the geometry sees it: outline, scale and its Open Sided levels."""

    @property
    def id(self) -> str: ...
    @property
    def outline(self) -> Polygon: ...
    @property
    def scale(self) -> int: ...
    @property
    def open_sided(self) -> tuple[int, ...]:
        """Heights (levels) of the piece that have the Open Sided rule."""
    @property
    def box(self) -> tuple[float, float, float, float]:
        """The outline's bounds (min x, min y, max x, max y)."""


class Terrain(NamedTuple):
    """A plain terrain piece for geometry alone (tests, tools); states keep their own pieces."""

    id: str
    outline: Polygon
    scale: int
    open_sided: tuple[int, ...] = ()
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


def make_terrain(id: str, outline: Polygon, scale: int, open_sided: tuple[int, ...] = ()) -> Terrain:
    """A Terrain with its bounds worked out."""
    return Terrain(id, tuple(outline), scale, open_sided, bounds(tuple(outline)))


class Sighted(NamedTuple):
    """One end of a line of sight: where it stands and how tall it counts."""

    at: Point
    scale: int
    """Effective scale: the unit's scale plus the height it stands at."""
    piece: str | None = None
    """The terrain piece whose outline it stands in or on, if any."""
    level: int = 0
    """The height it stands at inside that piece (its scale when on top)."""
    id: str = ""


class Body(NamedTuple):
    """A unit that may stand in the way: its centre, base radius and effective scale."""

    id: str
    at: Point
    radius: float
    scale: int


NEAR_TERRAIN = 5.0
"""The 5" rule: terrain this close to a unit hides it at the unit's own scale."""
OPEN_SIDED_SIGHT = 2.0
"""Open Sided: a piece is ignored if the line runs 2" or less inside it."""


def sight_blocker(a: Sighted, b: Sighted, terrain: Iterable[Solid], bodies: Iterable[Body] = ()) -> str | None:
    """The id of the first terrain piece or unit blocking the line between a and b, or None.

    "A unit has line of sight to another unit if a line can be drawn between the two units
    without passing through terrain or another unit of an equal or larger scale than the
    highest scale of the two units"; "If a unit is within 5" of a piece of terrain of an equal
    or larger scale than its effective scale then line of sight may not be drawn to or from the
    unit through that piece"; Open Sided: "ignore this piece of terrain if the distance covered
    by line of sight inside the terrain is 2" or less" (for a unit in it). The piece a unit
    stands on top of never blocks its own sight (it looks over the edge: readings.py).
    """
    found = terrain_blocker(a, b, terrain)
    return found if found is not None else body_blocker(a, b, bodies)


def terrain_blocker(a: Sighted, b: Sighted, terrain: Iterable[Solid]) -> str | None:
    """The first terrain piece blocking the line between a and b (`sight_blocker`'s terrain
    part: it depends on the two ends and the table alone, so it may be remembered while units
    move elsewhere)."""
    a_scale, b_scale = a.scale, b.scale
    tallest = a_scale if a_scale >= b_scale else b_scale
    (ax, ay), (bx, by) = a.at, b.at
    lo_x, hi_x = (ax, bx) if ax <= bx else (bx, ax)  # (min and max, without the calls)
    lo_y, hi_y = (ay, by) if ay <= by else (by, ay)
    for piece in terrain:
        x0, y0, x1, y1 = box = piece.box
        if hi_x < x0 or lo_x > x1 or hi_y < y0 or lo_y > y1:
            continue  # `_terrain_blocks`'s own first test, without the call: most pieces are far off
        scale = piece.scale
        if scale < a_scale and scale < b_scale:
            continue  # `_terrain_blocks`' answer for a piece lower than both ends, before any measure
        if segment_misses_box(a.at, b.at, box):
            continue  # the line passes the piece's box by: nothing of it runs inside the piece
        if _terrain_blocks(a, b, piece, tallest):
            return piece.id
    return None


def body_blocker(a: Sighted, b: Sighted, bodies: Iterable[Body]) -> str | None:
    """The first unit (other than the two ends) blocking the line between a and b
    (`sight_blocker`'s units part: "another unit of an equal or larger scale")."""
    tallest = max(a.scale, b.scale)
    ax, ay = a.at
    bx_, by_ = b.at
    lo_x, hi_x = (ax, bx_) if ax <= bx_ else (bx_, ax)
    lo_y, hi_y = (ay, by_) if ay <= by_ else (by_, ay)
    a_id, b_id = a.id, b.id
    line: Side | None = None
    for body_id, at, radius, scale in bodies:  # (unpacked whole: a line asks it of every unit on the table)
        if scale < tallest or body_id in (a_id, b_id):
            continue
        bx, by = at
        if bx < lo_x - radius or bx > hi_x + radius or by < lo_y - radius or by > hi_y + radius:
            continue  # further than its radius from the line's bounding box: from the line
        if line is None:  # the line as a `sides` entry, for `point_segment_distance(at, a.at, b.at)`'s arithmetic
            dx, dy = bx_ - ax, by_ - ay
            line = (ax, ay, bx_, by_, dx, dy, dx * dx + dy * dy)
        if _side_distance(bx, by, line) < radius - EPS:
            return body_id
    return None


def _terrain_blocks(a: Sighted, b: Sighted, piece: Solid, tallest: int) -> bool:
    x0, y0, x1, y1 = piece.box
    if max(a.at[0], b.at[0]) < x0 or min(a.at[0], b.at[0]) > x1 or max(a.at[1], b.at[1]) < y0 or min(a.at[1], b.at[1]) > y1:
        return False  # the cheapest test first: most pieces are nowhere near the line
    if (a.piece == piece.id and a.level >= piece.scale) or (b.piece == piece.id and b.level >= piece.scale):
        return False  # an end on top of the piece looks over its edge
    if piece.scale < a.scale and piece.scale < b.scale:
        return False  # lower than both ends: below the tallest, and hiding neither (the last test below), whatever runs inside
    through = length_inside(a.at, b.at, piece.outline)
    if through <= EPS:
        return False
    if through <= OPEN_SIDED_SIGHT + EPS and any(end.piece == piece.id and end.level in piece.open_sided for end in (a, b)):
        return False
    if piece.scale >= tallest:
        return True
    return any(piece.scale >= end.scale and polygon_distance(end.at, piece.outline) <= NEAR_TERRAIN + EPS for end in (a, b))


def line_of_sight(a: Sighted, b: Sighted, terrain: Iterable[Solid], bodies: Iterable[Body] = ()) -> bool:
    """Whether a and b see each other (the rule is symmetric: "to or from")."""
    return sight_blocker(a, b, terrain, bodies) is None
