"""A hero's walk (`moves.reachable`) is remembered per the heroes standing in its reach: it
must still be exactly the breadth-first walk of the position, paths and order, wherever the
other heroes stand (nearer than the last step, at it, or out of reach)."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Set as AbstractSet

import msgspec
import pytest

from rulesets.mortalgate import board, maps, moves
from rulesets.mortalgate.events import Node
from rulesets.mortalgate.moves import reachable
from rulesets.mortalgate.state import occupied

from .scenario import positions, rules


def plain_walk(map_id: str, start: Node, steps: int, taken: AbstractSet[Node]) -> list[tuple[Node, tuple[Node, ...]]]:
    """The walk read straight from the movement rules: a queue, free passable neighbours."""
    gmap = maps.load_map(map_id)
    paths: dict[Node, tuple[Node, ...]] = {start: ()}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if len(paths[node]) == steps:
            continue
        for near in board.neighbours(node, gmap.width, gmap.height):
            if near not in paths and near not in taken and near not in gmap.impassable:
                paths[near] = (*paths[node], near)
                queue.append(near)
    del paths[start]
    return list(paths.items())


@pytest.mark.parametrize("version", ["2.0", "2.5"])
def test_every_walk_of_a_game_is_the_breadth_first_walk_around_the_heroes(version: str) -> None:
    r = rules(version)
    for state in positions(version, seed=7)[::5]:
        for hero in state.heroes:
            if hero.node is None:
                continue
            for steps in (1, 3, 5, 7):
                expected = plain_walk(r.params.map, hero.node, steps, occupied(state))
                assert list(reachable(r.params, state, hero.node, steps).items()) == expected


def test_heroes_at_the_last_step_or_nearer_change_the_walk_as_the_rules_do() -> None:
    r = rules("2.5")
    state = positions("2.5", seed=3)[40]
    pick = random.Random(18)
    walker, others = state.heroes[0], state.heroes[1:]
    assert walker.node is not None
    for steps in (2, 4, 6):
        free = [node for node, _ in plain_walk(r.params.map, walker.node, steps, set())]
        for _ in range(30):
            spots = pick.sample(free, k=min(len(others), len(free)))
            heroes = (walker, *(msgspec.structs.replace(h, node=n) for h, n in zip(others, spots, strict=False)))
            moved = msgspec.structs.replace(state, heroes=heroes)
            expected = plain_walk(r.params.map, walker.node, steps, occupied(moved))
            assert list(reachable(r.params, moved, walker.node, steps).items()) == expected


@pytest.mark.parametrize("version", ["1.5", "2.0", "2.5"])
def test_a_walk_around_heroes_is_the_plain_search_wherever_they_stand(version: str) -> None:
    """The walk around heroes places anew only the ends whose path on the empty board passes
    a hero (`moves._around`): from any node, with heroes anywhere in its reach (next to the
    walker, one behind another, on a terrain's edge), paths and order as a plain search gives."""
    r = rules(version)
    state = positions(version, seed=3)[40]
    gmap = maps.load_map(r.params.map)
    open_nodes = [node for node in board.all_nodes(gmap.width, gmap.height) if node not in gmap.impassable]
    pick = random.Random(version)
    walker, others = state.heroes[0], state.heroes[1:]
    for _ in range(150):
        start, steps = pick.choice(open_nodes), pick.randint(2, 7)
        free = [node for node, _ in plain_walk(r.params.map, start, steps, set())]
        near = [node for node in free if board.distance(start, node) < steps]
        spots = pick.sample(near or free, k=min(pick.randint(1, len(others)), len(near or free)))
        heroes = (msgspec.structs.replace(walker, node=start),
                  *(msgspec.structs.replace(h, node=n) for h, n in zip(others, spots, strict=False)))
        moved = msgspec.structs.replace(state, heroes=heroes)
        expected = plain_walk(r.params.map, start, steps, occupied(moved) - {start})
        assert list(reachable(r.params, moved, start, steps).items()) == expected


@pytest.mark.parametrize("version", ["1.5", "2.5"])
def test_a_walk_tells_where_its_moves_end_and_how_far_the_longest_goes(version: str) -> None:
    """The heuristic reads a walk's `ends` (cells) and `reach`, not its paths (`moves.Walk`):
    they must be the paths' last nodes and the longest path's steps, and a path read by index
    the one iterated, in each of a walk's shapes (the empty board's, less heroes at its last
    step, or searched around heroes nearer)."""
    r = rules(version)
    shapes = {"free": 0, "less": 0, "searched": 0}
    for state in positions(version, seed=7)[::7]:
        for hero in state.heroes:
            if hero.node is None:
                continue
            for steps in (1, 2, 4, 6):
                walk = moves._paths(r.params, state, hero.node, steps)
                paths = list(walk)
                assert paths == list(reachable(r.params, state, hero.node, steps).values())
                assert list(walk.ends) == [board.cell(path[-1]) for path in paths]
                assert walk.reach == max(map(len, paths), default=0)
                assert [walk[index] for index in range(len(walk))] == paths == [walk[index - len(walk)] for index in range(len(walk))]
                free = moves._free_walk(r.params.map, hero.node, steps).walk
                shapes["free" if walk is free else "less" if walk.cells is free.cells else "searched"] += 1
    assert all(shapes.values()), shapes


@pytest.mark.parametrize("version", ["1.5", "2.0", "2.5"])
def test_the_maps_table_of_free_walks_is_the_search_from_every_node(version: str) -> None:
    """The empty board's walks come from a table per map (`moves._free_walks`), each shorter
    walk a prefix of the node's longest: every one must be the breadth-first search of that
    many steps, ends, parents, reach, depths and where each end sits, and a plain walk's paths."""
    map_id = rules(version).params.map
    gmap = maps.load_map(map_id)
    table = moves._free_walks(map_id)
    assert len(table) == gmap.width * gmap.height * moves.TABLED_STEPS
    pick = random.Random(version)
    for (start, steps), free in table.items():
        searched = moves._walk(map_id, start, steps, ())
        assert free.walk.cells == tuple(searched.cells) and free.walk._parents == tuple(searched._parents)
        assert free.walk.reach == searched.reach
        assert free.depths == tuple(len(path) for path in searched)
        assert dict(free.at) == {path[-1]: position for position, path in enumerate(searched)}
        if pick.random() < 0.05:
            assert [(path[-1], path) for path in free.walk] == plain_walk(map_id, start, steps, set())
