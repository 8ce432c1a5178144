"""MortalGate geometry: properties that must hold for every pair of nodes, and worked cases.

The hand-checked cases use target T = (10, 10), an even column (sitting half a hex low), whose
neighbours are N (10, 9), NE (11, 10), SE (11, 11), S (10, 11), SW (9, 11), NW (9, 10).
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.mortalgate.board import (
    HEIGHT,
    WIDTH,
    Node,
    _samples,
    cell,
    direction,
    distance,
    distances_from,
    line,
    line_of_sight,
    neighbours,
    on_board,
    ring,
    shockwave_nodes,
    sight_clear,
    sight_lines,
    splinter_nodes,
    step,
    to_cube,
    to_node,
    within,
)

nodes = st.tuples(st.integers(0, WIDTH - 1), st.integers(0, HEIGHT - 1))
far_nodes = st.tuples(st.integers(-40, 60), st.integers(-40, 60))
"""Nodes on and off the board: pure geometry must not care about the edges."""
blockers = st.frozensets(nodes, max_size=60)

T: Node = (10, 10)
AROUND_T = {
    "N": (10, 9),
    "NE": (11, 10),
    "SE": (11, 11),
    "S": (10, 11),
    "SW": (9, 11),
    "NW": (9, 10),
}
ORDER = ("N", "NE", "SE", "S", "SW", "NW")


# --- properties -------------------------------------------------------------------------


@given(nodes, st.integers(1, 30), st.integers(1, 30))
def test_a_distance_table_reads_the_hex_distance_to_every_node_of_the_map(goal: Node, width: int, height: int) -> None:
    """The heuristic bot reads `distances_from` instead of measuring: built column by column,
    it must say `distance` for every node of any map size, the goal anywhere on or off it."""
    table = distances_from(goal, width, height)
    assert table == tuple(distance(goal, (col, row)) for col in range(width) for row in range(height))
    assert table[cell((width - 1, height - 1), height)] == distance(goal, (width - 1, height - 1))


@given(far_nodes, far_nodes)
def test_distance_is_symmetric_and_zero_only_on_itself(a: Node, b: Node) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(far_nodes, far_nodes, far_nodes)
def test_distance_triangle_inequality(a: Node, b: Node, c: Node) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(nodes)
def test_neighbours_are_one_step_away_on_board_and_mutual(a: Node) -> None:
    near = neighbours(a)
    assert len(set(near)) == len(near) <= 6
    for n in near:
        assert distance(a, n) == 1
        assert on_board(n)
        assert a in neighbours(n)
    assert set(near) == set(ring(a, 1))


@given(st.tuples(st.integers(1, WIDTH - 2), st.integers(1, HEIGHT - 2)))
def test_interior_nodes_have_six_neighbours_in_direction_order(a: Node) -> None:
    assert neighbours(a) == tuple(step(a, d) for d in range(6))


@given(nodes, nodes)
def test_line_has_distance_plus_one_adjacent_on_board_nodes(a: Node, b: Node) -> None:
    for nodes_ in sight_lines(a, b):
        assert len(nodes_) == distance(a, b) + 1
        assert nodes_[0] == a and nodes_[-1] == b
        assert all(distance(x, y) == 1 for x, y in pairwise(nodes_))
        assert all(on_board(n) for n in nodes_)
        # every node of a straight line lies on a shortest path from a to b
        assert all(distance(a, n) + distance(n, b) == distance(a, b) for n in nodes_)
    assert line(a, b) == sight_lines(a, b)[0]
    assert 1 <= len(sight_lines(a, b)) <= 2


@given(nodes, nodes)
def test_line_is_the_same_in_both_directions(a: Node, b: Node) -> None:
    assert line(b, a) == tuple(reversed(line(a, b)))
    assert sight_lines(b, a) == tuple(tuple(reversed(x)) for x in sight_lines(a, b))


@given(nodes, nodes, blockers)
def test_line_of_sight_is_symmetric(a: Node, b: Node, blocking: frozenset[Node]) -> None:
    assert line_of_sight(a, b, blocking) == line_of_sight(b, a, blocking)


@given(nodes, nodes, blockers, blockers)
def test_endpoints_never_block_and_more_blockers_never_clear(
    a: Node, b: Node, blocking: frozenset[Node], more: frozenset[Node]
) -> None:
    seen = line_of_sight(a, b, blocking)
    assert line_of_sight(a, b, blocking | {a, b}) == seen
    assert line_of_sight(a, b, frozenset())
    if line_of_sight(a, b, blocking | more):
        assert seen


@given(nodes, blockers)
def test_adjacent_nodes_always_see_each_other(a: Node, blocking: frozenset[Node]) -> None:
    for n in neighbours(a):
        assert line_of_sight(a, n, blocking)


@given(far_nodes, far_nodes)
def test_direction_points_along_a_shortest_path(a: Node, b: Node) -> None:
    if a == b:
        return
    d = direction(a, b)
    assert 0 <= d < 6
    assert distance(step(a, d), b) == distance(a, b) - 1


@given(far_nodes, st.integers(0, 5), st.integers(1, 9))
def test_direction_of_a_straight_run_is_that_direction(a: Node, d: int, k: int) -> None:
    b = a
    for _ in range(k):
        b = step(b, d)
    assert direction(a, b) == d


@given(nodes, nodes)
def test_splinter_nodes_flank_the_target_and_face_the_attacker(
    attacker: Node, target: Node
) -> None:
    if attacker == target:
        return
    hit = splinter_nodes(attacker, target)
    assert len(hit) <= 2 and len(set(hit)) == len(hit)
    for n in hit:
        assert on_board(n)
        assert distance(n, target) == 1
        assert n != attacker or distance(attacker, target) == 1
        assert distance(n, attacker) <= distance(target, attacker)


@given(nodes, nodes)
def test_shockwave_nodes_continue_the_line_behind_the_target(attacker: Node, target: Node) -> None:
    if attacker == target:
        return
    hit = shockwave_nodes(attacker, target)
    n = distance(attacker, target)
    assert len(hit) <= 2
    for node in hit:  # one of the two may be off the board and dropped
        assert on_board(node)
        assert distance(attacker, node) - n == distance(target, node) in (1, 2)
    if len(hit) == 2:
        assert distance(target, hit[0]) == 1 and distance(hit[0], hit[1]) == 1


@given(st.tuples(st.integers(6, 15), st.integers(6, 21)), st.integers(0, 5))
def test_ring_and_within_count_hexes(a: Node, radius: int) -> None:
    r = ring(a, radius)
    assert len(r) == (6 * radius if radius else 1) == len(set(r))
    assert all(distance(a, n) == radius for n in r)
    assert len(within(a, radius)) == 1 + 3 * radius * (radius + 1)


# --- worked cases -----------------------------------------------------------------------


def test_neighbours_of_an_even_and_an_odd_column() -> None:
    assert neighbours(T) == tuple(AROUND_T[d] for d in ORDER)
    assert neighbours((11, 10)) == ((11, 9), (12, 9), (12, 10), (11, 11), (10, 10), (10, 9))
    assert neighbours((0, 0)) == ((1, 0), (1, 1), (0, 1))
    assert neighbours((21, 27)) == ((21, 26), (20, 27), (20, 26))


def test_distance_examples() -> None:
    assert distance((0, 0), (21, 27)) == 37  # 21 steps SE also descend 11 rows, then 16 steps S
    assert distance(T, (14, 10)) == 4  # same row, four columns east: zig-zag along the row
    assert distance(T, (10, 16)) == 6


def test_line_of_sight_blocked_by_an_enemy_not_by_an_ally() -> None:
    """mortalgate.txt, Line-of-Sight: "Line-of-sight can be blocked by other enemies and
    impassable terrain. Allies of the attacker to not block line of sight." The engine
    passes only blockers, so the same node blocks as an enemy and not as an ally."""
    archer, target, middle = (10, 7), T, (10, 9)
    assert line(archer, target) == ((10, 7), (10, 8), (10, 9), (10, 10))
    enemy_in_between = {middle}
    ally_in_between: set[Node] = set()  # allies are not passed in
    assert not line_of_sight(archer, target, enemy_in_between)
    assert line_of_sight(archer, target, ally_in_between)
    assert line_of_sight(archer, target, {(9, 8), (11, 8)})  # beside the line: no effect


def test_line_along_an_edge_is_clear_if_either_side_is() -> None:
    """mortalgate.txt, Line-of-Sight, read as "able to draw a straight line": four columns
    east along row 10 the line runs along hex edges, between (11, 10)/(11, 11) and
    (13, 10)/(13, 11); one blocker on one side leaves the other side clear."""
    east = (14, 10)
    assert set(sight_lines(T, east)) == {
        ((10, 10), (11, 11), (12, 10), (13, 11), (14, 10)),
        ((10, 10), (11, 10), (12, 10), (13, 10), (14, 10)),
    }
    assert line_of_sight(T, east, {(11, 10)})
    assert line_of_sight(T, east, {(11, 11), (13, 11)})
    assert not line_of_sight(T, east, {(11, 10), (11, 11)})  # both sides of one edge
    assert not line_of_sight(T, east, {(11, 10), (13, 11)})  # each line blocked somewhere
    assert not line_of_sight(T, east, {(12, 10)})  # on both lines


def test_a_line_never_leaves_the_board_along_the_bottom_edge() -> None:
    """Between even columns of the last row one nudge would dip below the board; that line
    is not "through the nodes of the board", so only the on-board one counts."""
    assert sight_lines((0, 27), (4, 27)) == (((0, 27), (1, 27), (2, 27), (3, 27), (4, 27)),)
    assert not line_of_sight((0, 27), (4, 27), {(1, 27)})


def test_direction_ties_go_to_the_first_going_clockwise() -> None:
    assert [direction(T, AROUND_T[d]) for d in ORDER] == [0, 1, 2, 3, 4, 5]
    assert direction(T, (14, 10)) == 1  # due east: between NE and SE
    assert direction(T, (6, 10)) == 4  # due west: between SW and NW
    assert direction(T, (9, 9)) == 5  # between NW and N
    with pytest.raises(ValueError):
        direction(T, T)


@pytest.mark.parametrize("d", range(6))
@pytest.mark.parametrize("reach", [1, 3])
def test_splinter_and_shockwave_along_each_direction(d: int, reach: int) -> None:
    """mortalgate.txt, Blessing Types: Splinter hits the nodes "immediately to the left and
    right of the target (angled toward the attacker)", Shockwave "the 2 nodes directly
    behind the target"."""
    attacker = T
    for _ in range(reach):
        attacker = step(attacker, d)
    left, right = ORDER[(d - 1) % 6], ORDER[(d + 1) % 6]
    assert set(splinter_nodes(attacker, T)) == {AROUND_T[left], AROUND_T[right]}
    behind = ORDER[(d + 3) % 6]
    assert shockwave_nodes(attacker, T) == (AROUND_T[behind], step(AROUND_T[behind], d + 3))


def test_splinter_and_shockwave_for_an_oblique_attack() -> None:
    """From (13, 7), five steps away, the attacker is 37 degrees east of north of T: NE is
    the closest direction (23 degrees off), so Splinter takes N and SE; the line's
    continuation behind T goes through (9, 11) and (9, 12)."""
    attacker = (13, 7)
    assert line(attacker, T) == ((13, 7), (12, 7), (12, 8), (11, 9), (11, 10), (10, 10))
    assert direction(T, attacker) == 1
    assert splinter_nodes(attacker, T) == (AROUND_T["N"], AROUND_T["SE"])
    assert shockwave_nodes(attacker, T) == ((9, 11), (9, 12))


def test_splinter_when_the_attacker_is_exactly_between_two_directions() -> None:
    """Due east the attacker faces T's NE and SE sides equally: those two are the nodes
    left and right of the line that are angled toward it."""
    assert splinter_nodes((14, 10), T) == (AROUND_T["NE"], AROUND_T["SE"])


def test_off_board_splash_nodes_are_dropped() -> None:
    assert splinter_nodes((0, 7), (0, 10)) == ((1, 10),)  # NW of (0, 10) is off the board
    assert shockwave_nodes((10, 24), (10, 26)) == ((10, 27),)
    assert shockwave_nodes((10, 25), (10, 27)) == ()


def test_ring_starts_north_and_runs_clockwise() -> None:
    assert ring(T, 1) == tuple(AROUND_T[d] for d in ORDER)
    assert ring(T, 0) == (T,)
    assert len(ring((0, 0), 2)) < 12


def plain_samples(a: Node, b: Node, side: int, extra: int = 0) -> tuple[Node, ...]:
    """A line's samples computed at every point, the ends too: the cube lerp, nudged to one
    side, rounded to the nearest cube node (what `board._samples` computes)."""
    n = distance(a, b)
    if n == 0:
        return (a,)
    (aq, ar, as_), (bq, br, bs) = to_cube(a), to_cube(b)
    eq, er, es = (side * e for e in (1e-6, 2e-6, -3e-6))
    nodes = []
    for i in range(n + extra + 1):
        j = n - i
        q, r, s = (aq * j + bq * i) / n + eq, (ar * j + br * i) / n + er, (as_ * j + bs * i) / n + es
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        else:
            rs = -rq - rr
        nodes.append(to_node((rq, rr, rs)))
    return tuple(nodes)


def _samples_agree(pairs: list[tuple[Node, Node]]) -> None:
    for a, b in pairs:
        for side in (1, -1):
            for extra in (0, 2) if a != b else (0,):
                assert _samples(a, b, side, extra) == plain_samples(a, b, side, extra), (a, b, side, extra)


def test_a_lines_samples_are_its_points_rounded_ends_included() -> None:
    """`board._samples` takes a and b as the first and n-th samples without computing them
    (exact: a millionth's nudge from an exact centre); every sample must be what computing
    each point gives, on the board and just off it (a few thousand pairs here, every pair of
    the map in the slow run)."""
    pick = random.Random(28)
    nodes = [(col, row) for col in range(-1, WIDTH + 1) for row in range(-1, HEIGHT + 1)]
    _samples_agree([(pick.choice(nodes), pick.choice(nodes)) for _ in range(3000)])


@pytest.mark.slow
def test_every_lines_samples_are_its_points_rounded() -> None:
    nodes = [(col, row) for col in range(WIDTH) for row in range(HEIGHT)]
    _samples_agree([(a, b) for a in nodes for b in nodes])


def _sight_agrees(pairs: list[tuple[Node, Node]], seed: int) -> None:
    """`sight_clear` (blockers as a mask of cells) against `line_of_sight` (blockers as a
    set) for each pair, under blockers drawn around the pair: on its lines' nodes (so each
    line is blocked, or not, node by node), beside them, and on the pair's own ends."""
    pick = random.Random(seed)
    for a, b in pairs:
        near = [n for line_ in sight_lines(a, b) for n in line_] + [*neighbours(a), *neighbours(b)]
        for _ in range(4):
            blocked = frozenset(pick.sample(near, pick.randint(0, min(len(near), 4))))
            mask = sum(1 << cell(n) for n in blocked if on_board(n))
            assert sight_clear(a, b, mask) == line_of_sight(a, b, blocked), (a, b, sorted(blocked))


def test_sight_read_from_a_mask_of_blockers_is_line_of_sight() -> None:
    """`board.sight_clear` translates lines met before (their nodes as steps from the first
    end) and tests each with one mask: it must answer as `line_of_sight` does, every pair of
    the map in the slow run; here, every pair within 8 steps of some 60 nodes (edges and
    corners among them, where a nudged line may leave the map)."""
    pick = random.Random(11)
    every = [(col, row) for col in range(WIDTH) for row in range(HEIGHT)]
    starts = [(0, 0), (WIDTH - 1, HEIGHT - 1), (0, HEIGHT - 1), (WIDTH - 1, 0), (10, 27), (11, 27), (0, 13),
              *pick.sample(every, 53)]
    _sight_agrees([(a, b) for a in starts for b in every if distance(a, b) <= 8], seed=12)


@pytest.mark.slow
def test_sight_read_from_a_mask_of_blockers_is_line_of_sight_for_every_pair() -> None:
    every = [(col, row) for col in range(WIDTH) for row in range(HEIGHT)]
    _sight_agrees([(a, b) for a in every for b in every], seed=13)
