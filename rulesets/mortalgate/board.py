"""MortalGate's board geometry: pure functions over hex nodes, no game state.

The board is "22 hexes wide x 28 hexes tall, staggered by evens on X-axis"
(mortalgate.txt, Game Components): flat-topped hexes in columns, even columns shifted half
a hex down (`hex-even-q` in `rulesets.view`). A node is its offset coordinate
`(col, row)`; every computation converts to cube coordinates `(q, r, s)`, `q + r + s = 0`,
where distances, straight lines and directions are simple and exact.

Directions are numbered clockwise from north: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW, so
`d + 3` is the opposite direction and `d ± 1` are the directions either side of `d`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from functools import cache, lru_cache
from typing import TypeVar

T = TypeVar("T")

Node = tuple[int, int]
"""(col, row) on the staggered map; col 0..21, row 0..27."""

Cube = tuple[int, int, int]
"""(q, r, s) with q + r + s == 0; q is the column, r grows towards the bottom."""

WIDTH = 22
"""Columns (mortalgate.txt, Game Components: "22 hexes wide")."""
HEIGHT = 28
"""Rows (mortalgate.txt, Game Components: "28 hexes tall")."""

DIRECTIONS: tuple[Cube, ...] = (
    (0, -1, 1),  # 0 N
    (1, -1, 0),  # 1 NE
    (1, 0, -1),  # 2 SE
    (0, 1, -1),  # 3 S
    (-1, 1, 0),  # 4 SW
    (-1, 0, 1),  # 5 NW
)
"""Cube steps of the six neighbour directions, clockwise from north."""

DIRECTION_NAMES = ("N", "NE", "SE", "S", "SW", "NW")

_NUDGE = (1e-6, 2e-6, -3e-6)
"""Added to a lerped point so it never sits exactly on a hex edge (sums to zero)."""


def to_cube(node: Node) -> Cube:
    """Cube coordinates of an offset node (even columns are the ones shifted down)."""
    col, row = node
    q = col
    r = row - (col + (col & 1)) // 2
    return (q, r, -q - r)


def to_node(cube: Cube) -> Node:
    """Offset node of cube coordinates (the inverse of `to_cube`)."""
    q, r, _ = cube
    return (q, r + (q + (q & 1)) // 2)


def on_board(node: Node, width: int = WIDTH, height: int = HEIGHT) -> bool:
    """Whether a node lies on the width x height map."""
    col, row = node
    return 0 <= col < width and 0 <= row < height


def step(node: Node, d: int) -> Node:
    """The node one step from `node` in direction `d` (may be off the board)."""
    q, r, s = to_cube(node)
    dq, dr, ds = DIRECTIONS[d % 6]
    return to_node((q + dq, r + dr, s + ds))


@cache
def neighbours(node: Node, width: int = WIDTH, height: int = HEIGHT) -> tuple[Node, ...]:
    """On-board neighbours of a node, in direction order N, NE, SE, S, SW, NW (memoised: a map
    has a few hundred nodes, and burning, splash and adjacency ask again every turn). A node
    on the map reads the map's table (`neighbour_table`, all built at once)."""
    return _tabled(node, width, height, neighbour_table, _neighbours)


@lru_cache(maxsize=4)  # (one map size in play; a few more in tests)
def neighbour_table(width: int = WIDTH, height: int = HEIGHT) -> tuple[tuple[Node, ...], ...]:
    """`neighbours` of every node of a width x height map, by cell (`cell`), built at once
    (about 4 ms): a process's first dozen games met a hundred or so anew."""
    return tuple(_neighbours(node, width, height) for node in all_nodes(width, height))


def _tabled(node: Node, width: int, height: int, table: Callable[[int, int], tuple[T, ...]],
            worked_out: Callable[[Node, int, int], T]) -> T:
    """A per-node answer of a width x height map: read from the map's `table` (built at once,
    by cell) for a node on the map, `worked_out` for one off it (a table's mistake)."""
    col, row = node
    if 0 <= col < width and 0 <= row < height:
        return table(width, height)[col * height + row]
    return worked_out(node, width, height)


def _neighbours(node: Node, width: int, height: int) -> tuple[Node, ...]:
    return tuple(n for n in (step(node, d) for d in range(6)) if on_board(n, width, height))


def distance(a: Node, b: Node) -> int:
    """Hex steps between two nodes, ignoring terrain (mortalgate.txt, Movement: one node per point).

    `to_cube` inlined: every move, attack and ability measures a distance.
    """
    aq, row = a
    bq, brow = b
    dq = aq - bq
    dr = (row - (aq + (aq & 1)) // 2) - (brow - (bq + (bq & 1)) // 2)
    return max(abs(dq), abs(dr), abs(dq + dr))


@cache
def distances_from(node: Node, width: int = WIDTH, height: int = HEIGHT) -> tuple[int, ...]:
    """`distance(node, x)` for every x of a width x height map, at `cell(x, height)` (memoised:
    pure geometry of a few hundred nodes; a bot measuring every move to every goal reads a
    table instead of computing cube coordinates each time). A node on the map reads the map's
    tables (`distance_tables`, all built at once); one off it (a table's mistake) is worked out."""
    return _tabled(node, width, height, distance_tables, _distances)


def distances_from_each(nodes: Iterable[Node], width: int = WIDTH, height: int = HEIGHT) -> list[tuple[int, ...]]:
    """`distances_from` each node, in order: the map's tables asked once for them all (a
    bot's move decision reads one per enemy standing; a node off the map is worked out)."""
    tables = distance_tables(width, height)
    return [tables[col * height + row] if 0 <= col < width and 0 <= row < height else _distances((col, row), width, height)
            for col, row in nodes]


@lru_cache(maxsize=4)  # (one map size in play; a few more in tests)
def distance_tables(width: int = WIDTH, height: int = HEIGHT) -> tuple[tuple[int, ...], ...]:
    """`distances_from` every node of a width x height map, by cell, built at once (about
    10 ms, once per map size): bots and moves measure from wherever heroes stand, and a
    process's first dozen games met a few hundred of these tables anew."""
    return tuple(_distances(node, width, height) for node in all_nodes(width, height))


def _distances(node: Node, width: int, height: int) -> tuple[int, ...]:
    """`distances_from`, worked out. Built column by column: down a column the cube r grows
    by one a row, so each column is a slice of one row of steps."""
    gq, gr, _ = to_cube(node)
    span = max(2 * (width + height), width + height + abs(gr))  # every |dr| on the map, the goal on it or off it
    # The same for every goal on the map, so a map's goals share its few columns of steps.
    table: list[int] = []
    for col in range(width):
        first = span + (-((col + (col & 1)) // 2)) - gr  # index of row 0's r - gr in the steps
        table += _column_steps(col - gq, span)[first:first + height]
    return tuple(table)


@cache
def _column_steps(dq: int, span: int) -> tuple[int, ...]:
    """Hex steps `max(|dq|, |dr|, |dq + dr|)` to a node dq columns and dr cube rows away, for
    dr from -span to span (cube s differs by -(dq + dr))."""
    return tuple(max(abs(dq), abs(dr), abs(dq + dr)) for dr in range(-span, span + 1))


def cell(node: Node, height: int = HEIGHT) -> int:
    """A node's index in a `distances_from` table."""
    return node[0] * height + node[1]


def _cube_round(q: float, r: float, s: float) -> Cube:
    """The cube node whose hex contains a fractional cube point."""
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return (rq, rr, rs)


def _samples(a: Node, b: Node, side: int, extra: int = 0) -> tuple[Node, ...]:
    """Nodes under the points a + i/n (b - a), i = 0..n+extra, nudged to one side.

    A line's samples do not depend on where it starts: they are a's cube plus the samples
    of the same line from the origin (`_steps_along`, remembered per cube offset b - a), so
    a pair of nodes never met before costs a translation, not a line's arithmetic.

    Exact: a sample's coordinate is k/n for an integer k (n at most the map's span), plus a
    nudge of a millionth or so, so it is never within 1/(2n) - 3e-6 of a half-integer unless
    k/n is one, then a millionth away; and a rounding's three distances, compared to choose
    the coordinate to derive, differ by at least a millionth. Moving the line by whole
    nodes moves every point by an integer and changes each value by far less (a float's
    error, some 1e-14), so every rounding and every comparison comes out the same.
    `tests/mortalgate/test_board.py` holds it to every point computed from a and b, every
    pair of the map in the slow run.
    """
    if a == b:
        return (a,)
    aq, ar, _ = to_cube(a)
    bq, br, _ = to_cube(b)
    nodes = []
    for q, r in _steps_along(bq - aq, br - ar, side, extra):
        q += aq
        nodes.append((q, r + ar + (q + (q & 1)) // 2))
    return tuple(nodes)


@lru_cache(maxsize=1 << 14)
def _steps_along(dq: int, dr: int, side: int, extra: int) -> tuple[tuple[int, int], ...]:
    """The cube (q, r) of the samples of a line from the origin to (dq, dr): the points
    i/n (dq, dr, -dq - dr), i = 0..n+extra, nudged to one side and rounded to a hex
    (`_cube_round`, inlined). The first and the n-th points are the line's ends, a
    millionth's nudge away from an exact centre: they are not computed."""
    ds = -dq - dr
    n = max(abs(dq), abs(dr), abs(ds))
    eq, er, es = _NUDGE if side == 1 else tuple(side * e for e in _NUDGE)
    steps = [(0, 0)]
    for i in range(1, n + extra + 1):
        if i == n:
            steps.append((dq, dr))
            continue
        q, r, s = dq * i / n + eq, dr * i / n + er, ds * i / n + es
        rq, rr, rs = round(q), round(r), round(s)
        aq, ar, as_ = abs(rq - q), abs(rr - r), abs(rs - s)
        if aq > ar and aq > as_:
            rq = -rr - rs
        elif ar > as_:
            rr = -rq - rs
        steps.append((rq, rr))
    return tuple(steps)


def _sides(a: Node, b: Node, width: int, height: int) -> tuple[tuple[int, tuple[Node, ...]], ...]:
    """(nudge side, its node line) for the sides (+1 first) whose line stays on the board,
    one per distinct line (each line sampled once).

    A nudged line that would leave the board (along the bottom edge between two even
    columns the +1 nudge dips below the last row) is not a line "through the nodes of the
    board" (mortalgate.txt, Line-of-Sight). On a rectangular map at least one side always
    stays on it; if neither did, both are kept rather than none.
    """
    plus, minus = _samples(a, b, side=1), _samples(a, b, side=-1)
    candidates = ((1, plus),) if plus == minus else ((1, plus), (-1, minus))
    kept = tuple((s, ln) for s, ln in candidates if all(0 <= col < width and 0 <= row < height for col, row in ln))  # (`on_board`, inlined)
    return kept or candidates


@lru_cache(maxsize=1 << 16)
def sight_lines(
    a: Node, b: Node, *, width: int = WIDTH, height: int = HEIGHT
) -> tuple[tuple[Node, ...], ...]:
    """The one or two on-board node lines from a straight line between a and b.

    Nudging the line to either side gives two node lines; they differ only where the
    straight line runs exactly along a hex edge. Pure geometry, so it is memoised: sight
    is asked for the same pairs again and again during a game.
    """
    return tuple(ln for _, ln in _sides(a, b, width, height))


def line(a: Node, b: Node, *, width: int = WIDTH, height: int = HEIGHT) -> tuple[Node, ...]:
    """Nodes a straight line from a's centre to b's centre passes through, a and b included.

    Cube lerp with the usual epsilon nudge; where the line runs exactly along the edge
    between two hexes the nudge picks one side (the other one if the first would leave the
    board). `line(b, a)` is `line(a, b)` reversed. `sight_lines` gives both sides.
    """
    return sight_lines(a, b, width=width, height=height)[0]


def _interiors(a: Node, b: Node, width: int, height: int) -> tuple[frozenset[Node], ...]:
    """The nodes strictly between a and b on each of their sight lines.

    The lines of (b, a) are those of (a, b) reversed, bit for bit (`_samples`), so their
    interiors are the same sets: one memo entry serves both directions.
    """
    return _ordered_interiors(a, b, width, height) if a <= b else _ordered_interiors(b, a, width, height)


@lru_cache(maxsize=1 << 16)
def _ordered_interiors(a: Node, b: Node, width: int, height: int) -> tuple[frozenset[Node], ...]:
    return tuple(frozenset(nodes[1:-1]) for nodes in sight_lines(a, b, width=width, height=height))


def line_of_sight(
    a: Node, b: Node, *blocking: AbstractSet[Node], width: int = WIDTH, height: int = HEIGHT
) -> bool:
    """Whether a can see b: some straight line has no blocking node strictly between them.

    mortalgate.txt, Line-of-Sight: "the attacker must be able to draw a straight line
    through the nodes of the board to the target", blocked by enemies and impassable
    terrain, not by allies; the caller passes only the blockers, as one or more sets
    (terrain and enemies apart, so neither is copied into the other). The text does not
    say what happens where the line runs exactly along the edge between two nodes: we read
    "able to draw a straight line" as permissive, so sight is clear if either of the two
    nudged lines is clear (a blocker on one side of the edge alone does not block).
    """
    for inner in _interiors(a, b, width, height):  # (loops, not generators: every attack and spell asks)
        for blocked in blocking:
            if not inner.isdisjoint(blocked):
                break
        else:
            return True
    return False


def sight_clear(a: Node, b: Node, blocked: int, width: int = WIDTH, height: int = HEIGHT) -> bool:
    """`line_of_sight` between two nodes of the map, the blockers given as one int whose bit
    `cell(node, height)` is set for each blocking node of the map (one off it cannot block:
    every line kept lies on the map).

    A line's nodes, as steps from its first end, depend on the steps between its ends and
    the first end's column parity alone (`_sight_masks`, a translation of `_samples`), so a
    pair never met before costs a shift, not a line traced, kept and turned into sets; and
    each line is tested with one `&`. `tests/mortalgate/test_board.py` holds it to
    `line_of_sight` with the same blockers, every pair of the map in the slow run."""
    if b < a:  # (`_interiors`' order; the lines of (b, a) are those of (a, b) reversed)
        a, b = b, a
    acol, arow = a
    key = (((height << 8) + b[0] - acol + 128) << 9) + ((b[1] - arow + 128) << 1) + (acol & 1)
    lines = _SIGHT_MASKS.get(key) or _sight_masks(key, b[0] - acol, b[1] - arow, acol & 1, height)
    at = acol * height + arow
    kept = False
    for inner, first, low_col, high_col, low_row, high_row in lines:  # (a loop: every attack and spell asks)
        if acol + low_col >= 0 and acol + high_col < width and arow + low_row >= 0 and arow + high_row < height:
            kept = True
            if not (inner << (at + first)) & blocked:
                return True
    if kept:
        return False
    return line_of_sight(a, b, {node for node in all_nodes(width, height) if blocked >> cell(node, height) & 1},
                         width=width, height=height)  # (neither line on the map: never on a rectangle; kept exact)


_SIGHT_MASKS: dict[int, tuple[tuple[int, int, int, int, int, int], ...]] = {}
"""`_sight_masks` by key (a plain dict: one int is found faster than a cache's tuple of four)."""


def _sight_masks(key: int, dcol: int, drow: int, parity: int, height: int) -> tuple[tuple[int, int, int, int, int, int], ...]:
    """The distinct nudged lines (+1 side first, as `_sides` keeps them) from a node of column
    parity `parity` to the node `dcol` columns and `drow` rows away, as `_samples` gives
    them, each as: its inner nodes as a mask of cell steps (bit `dc * height + dr - first`
    for an inner node `dc` columns and `dr` rows from the first end, `first` the least of
    those steps, so from the cell `at` they are `mask << (at + first)`), `first`, and the
    least and most column and row steps of all its nodes (whether it stays on the map from
    a given start). The same from every node of that parity: a sample's column is the
    start's plus whole columns, and its row moves with the start's row and, by `to_node`,
    with the start's column parity alone. Kept in `_SIGHT_MASKS` (a few hundred a map)."""
    start = (parity, 0)
    end = (parity + dcol, drow)
    plus, minus = _samples(start, end, side=1), _samples(start, end, side=-1)
    lines = []
    for nodes in (plus,) if plus == minus else (plus, minus):
        steps = [(col - parity, row) for col, row in nodes]
        inner = [col * height + row for col, row in steps[1:-1]]
        first = min(inner, default=0)
        mask = 0
        for offset in inner:
            mask |= 1 << (offset - first)
        cols, rows = [col for col, _ in steps], [row for _, row in steps]
        lines.append((mask, first, min(cols), max(cols), min(rows), max(rows)))
    _SIGHT_MASKS[key] = answer = tuple(lines)
    return answer


def _pixel_dot(u: Cube, v: Cube) -> int:
    """4x the Cartesian dot product of two cube vectors on flat-topped hexes (exact).

    Centre of (q, r) is x = 3/2 q, y = sqrt(3) (r + q/2); scaling by 4 keeps it integral.
    """
    return 9 * u[0] * v[0] + 3 * (2 * u[1] + u[0]) * (2 * v[1] + v[0])


def _closest_directions(a: Node, b: Node) -> tuple[int, ...]:
    """Directions of a whose angle to the direction a->b is smallest (1, or 2 on a tie)."""
    if a == b:
        raise ValueError(f"no direction from a node to itself: {a}")
    ca, cb = to_cube(a), to_cube(b)
    v = (cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2])
    dots = [_pixel_dot(d, v) for d in DIRECTIONS]
    best = max(dots)
    return tuple(d for d in range(6) if dots[d] == best)


def direction(a: Node, b: Node) -> int:
    """Index (0-5) of a's neighbour direction closest in angle to the direction towards b.

    Exact integer arithmetic. When b lies exactly between two directions (along a hex
    corner, e.g. two columns east on the same row) the lower index wins, except that
    the tie between NW (5) and N (0) gives 5: the first of the pair going clockwise.
    """
    tied = _closest_directions(a, b)
    return 5 if tied == (0, 5) else tied[0]


@lru_cache(maxsize=1 << 14)
def splinter_nodes(
    attacker: Node, target: Node, *, width: int = WIDTH, height: int = HEIGHT
) -> tuple[Node, ...]:
    """Nodes a Splinter blessing also hits: the target's two neighbours angled toward the attacker.

    mortalgate.txt, Blessing Types, Splinter: "Enemies in the adjacent nodes immediately to
    the left and right of the target (angled toward the attacker)". With d the target's
    direction closest to the attacker, those are the neighbours at d - 1 and d + 1. When
    the attacker lies exactly between two directions (along a hex corner) the two tied
    directions are themselves the pair left and right of that line, both angled toward the
    attacker, so they are the Splinter nodes. Off-board nodes are dropped.
    """
    tied = _closest_directions(target, attacker)
    if len(tied) == 2:
        sides = tied
    else:
        d = tied[0]
        sides = ((d - 1) % 6, (d + 1) % 6)
    nodes = (step(target, d) for d in sides)
    return tuple(n for n in nodes if on_board(n, width, height))


@lru_cache(maxsize=1 << 14)
def shockwave_nodes(
    attacker: Node, target: Node, *, width: int = WIDTH, height: int = HEIGHT
) -> tuple[Node, ...]:
    """Nodes a Shockwave blessing also hits: the 2 nodes directly behind the target.

    mortalgate.txt, Blessing Types, Shockwave: "the 2 nodes directly behind the target".
    The straight line from the attacker through the target (`line`, same nudge) is
    continued by two more samples at the same spacing, so the nodes are that line's own
    continuation and each is adjacent to the one before. Off-board nodes are dropped.
    """
    if attacker == target:
        raise ValueError(f"attacker and target share a node: {target}")
    side = _sides(attacker, target, width, height)[0][0]
    behind = _samples(attacker, target, side=side, extra=2)[-2:]
    return tuple(n for n in behind if on_board(n, width, height))


def ring(node: Node, radius: int, *, width: int = WIDTH, height: int = HEIGHT) -> tuple[Node, ...]:
    """On-board nodes at exactly `radius` steps from `node`, clockwise from the north one."""
    if radius == 0:
        return (node,) if on_board(node, width, height) else ()
    q, r, s = to_cube(node)
    dq, dr, ds = DIRECTIONS[0]
    cube = (q + dq * radius, r + dr * radius, s + ds * radius)
    found: list[Node] = []
    for d in range(2, 8):  # walk SE, S, SW, NW, N, NE from the north corner
        sq, sr, ss = DIRECTIONS[d % 6]
        for _ in range(radius):
            found.append(to_node(cube))
            cube = (cube[0] + sq, cube[1] + sr, cube[2] + ss)
    return tuple(n for n in found if on_board(n, width, height))


def within(node: Node, radius: int, *, width: int = WIDTH, height: int = HEIGHT) -> frozenset[Node]:
    """On-board nodes at most `radius` steps from `node` (a zone; includes `node`)."""
    return frozenset(
        n for k in range(radius + 1) for n in ring(node, k, width=width, height=height)
    )


def all_nodes(width: int = WIDTH, height: int = HEIGHT) -> tuple[Node, ...]:
    """Every node of the map, column by column."""
    return tuple((c, r) for c in range(width) for r in range(height))
