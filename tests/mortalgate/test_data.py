"""MortalGate's data files: the three maps and the heroes, against what the text says.

Maps and stat sheets are lost images, so these tests check the constraints the text does
give (mortalgate.txt, Game Components, Design History, Our Heroes and Abilities) and that
every assumed value says so.
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest

from rulesets.mortalgate import board, maps
from rulesets.mortalgate.board import Node
from rulesets.mortalgate.maps import MapData

RULES_TEXT = Path(__file__).resolve().parents[3] / "shared" / "rules" / "mortalgate.txt"
CENTRE: Node = (11, 13)
ALL_MAPS = [maps.load_map(m) for m in maps.MAP_IDS]


def flat(text: str) -> str:
    """Text with every run of whitespace as one space (the rules text wraps lines)."""
    return re.sub(r"\s+", " ", text.replace("[…]", " "))


@pytest.fixture(scope="module")
def rules_text() -> str:
    if not RULES_TEXT.exists():
        pytest.skip(f"rules text not found at {RULES_TEXT}")
    return flat(RULES_TEXT.read_text(encoding="utf-8"))


def reachable(gmap: MapData, start: Node) -> set[Node]:
    """Nodes a hero can walk to from `start` (breadth-first over passable nodes)."""
    seen, queue = {start}, deque([start])
    while queue:
        for near in board.neighbours(queue.popleft(), gmap.width, gmap.height):
            if near not in gmap.impassable and near not in seen:
                seen.add(near)
                queue.append(near)
    return seen


def busy(gmap: MapData) -> set[Node]:
    """Terrain, spawns and altar zones."""
    spawn = {n for nodes in gmap.spawns.values() for n in nodes}
    return set(gmap.impassable) | spawn | {n for a in gmap.altars for n in a.zone}


def half(node: Node) -> str:
    """Red's half is the top (red spawns there), blue's the bottom."""
    return "red" if node[1] < 14 else "blue"


# --- maps ---------------------------------------------------------------------------------


@pytest.mark.parametrize("gmap", ALL_MAPS, ids=maps.MAP_IDS)
def test_every_map_is_22_by_28_with_8_altars_and_zones(gmap: MapData) -> None:
    assert (gmap.width, gmap.height) == (22, 28)
    assert gmap.sources["size"].source == "rules"
    assert gmap.sources["altar-positions"].source == "assumed"
    assert [a.id for a in gmap.altars] == [f"altar-{i}" for i in range(1, 9)]
    zones = [a.zone for a in gmap.altars]
    for altar in gmap.altars:
        assert altar.node in altar.zone
        assert altar.zone == board.within(altar.node, 1) and len(altar.zone) == 7
        assert not altar.zone & gmap.impassable
        assert all(board.on_board(n) for n in altar.zone)
    assert sum(len(z) for z in zones) == len(set().union(*zones))  # zones do not overlap
    assert gmap.notes


@pytest.mark.parametrize("gmap", ALL_MAPS, ids=maps.MAP_IDS)
def test_spawns_hold_a_team_and_lie_far_apart(gmap: MapData) -> None:
    assert set(gmap.spawns) == {"red", "blue"}
    zones = {n for a in gmap.altars for n in a.zone}
    for nodes in gmap.spawns.values():
        assert len(set(nodes)) >= 4
        assert not set(nodes) & (gmap.impassable | zones)
    gap = min(board.distance(r, b) for r in gmap.spawns["red"] for b in gmap.spawns["blue"])
    assert gap >= 25


@pytest.mark.parametrize("gmap", ALL_MAPS, ids=maps.MAP_IDS)
def test_every_spawn_and_altar_zone_is_reachable_from_both_spawns(gmap: MapData) -> None:
    targets = {n for nodes in gmap.spawns.values() for n in nodes}
    targets |= {n for a in gmap.altars for n in a.zone}
    for team in ("red", "blue"):
        assert targets <= reachable(gmap, gmap.spawns[team][0])


@pytest.mark.parametrize("gmap", ALL_MAPS, ids=maps.MAP_IDS)
def test_maps_are_asymmetric(gmap: MapData) -> None:
    """mortalgate.txt, Game Theory: "The map is constructed in an asymmetric layout"."""

    def turned(n: Node) -> Node:  # half a turn about the centre: an exact symmetry of the grid
        return (gmap.width - 1 - n[0], gmap.height - 1 - n[1])

    assert {turned(n) for n in gmap.impassable} != gmap.impassable
    assert {turned(a.node) for a in gmap.altars} != {a.node for a in gmap.altars}


def test_map_1_5_has_the_centre_mountain_and_no_bonuses() -> None:
    m15 = maps.load_map("1.5")
    assert board.within(CENTRE, 2) <= m15.impassable
    assert all(a.blessing is None for a in m15.altars)
    assert m15.enchantments == ()


def test_map_2_0_opens_the_centre_with_minor_changes() -> None:
    """Version 2.00 item 3: "Minor changes were made to the map layout to create an open
    area ... in the center of the map"."""
    m15, m20 = maps.load_map("1.5"), maps.load_map("2.0")
    assert m20.impassable < m15.impassable
    assert m15.impassable - m20.impassable <= board.within(CENTRE, 4)
    assert [a.node for a in m20.altars] == [a.node for a in m15.altars]
    assert m20.spawns == m15.spawns


@pytest.mark.parametrize("map_id", ["2.0", "2.5"])
def test_the_centre_is_an_open_arena(map_id: str) -> None:
    gmap = maps.load_map(map_id)
    assert not busy(gmap) & board.within(CENTRE, 4)


def test_map_2_0_has_five_enchantment_spots_one_per_old_kind() -> None:
    """Version 2.00 item 1: "The number of enchantments was reduced to 5"."""
    m20 = maps.load_map("2.0")
    assert len(m20.enchantments) == 5
    assert sorted(kind for _, kind in m20.enchantments) == sorted(maps.OLD_BLESSINGS)
    spots = {node for node, _ in m20.enchantments}
    assert len(spots) == 5
    assert not spots & busy(m20)
    assert spots <= reachable(m20, m20.spawns["red"][0])


def test_map_2_0_altars_carry_the_five_old_blessings_for_2_1() -> None:
    m20 = maps.load_map("2.0")
    kinds = [a.blessing for a in m20.altars]
    assert all(k in maps.OLD_BLESSINGS for k in kinds)
    assert set(kinds) == set(maps.OLD_BLESSINGS)  # 8 altars, 5 kinds: some repeat


def test_map_2_5_has_more_terrain_and_enclosed_altars() -> None:
    """Version 2.5 item 1: "Map was redesigned to enclose altars and add more impassable
    terrain". Enclosed: most of the ring just outside each zone is impassable, and at least
    one node of it is an entrance (the zone is reachable, tested above)."""
    m20, m25 = maps.load_map("2.0"), maps.load_map("2.5")
    assert len(m25.impassable) > len(m20.impassable)
    for altar in m25.altars:
        border = board.ring(altar.node, 2)
        walls = [n for n in border if n in m25.impassable]
        entrances = [n for n in border if n not in m25.impassable]
        assert len(walls) > len(border) / 2, altar.id
        assert entrances, altar.id
    for altar in m20.altars:  # the older map left them open
        assert sum(n in m20.impassable for n in board.ring(altar.node, 2)) <= 1


def test_map_2_5_blessings_are_unique_and_counterparts_face_each_other() -> None:
    """Version 2.5 item 4: "allow each altar to contain unique blessing ... Each blessing
    has a counterpart that closely balance when held by opposing teams"."""
    m25 = maps.load_map("2.5")
    kinds = [a.blessing for a in m25.altars]
    assert sorted(k for k in kinds if k) == sorted(maps.BLESSINGS)
    where = {a.blessing: a.node for a in m25.altars}
    assert {b for pair in maps.COUNTERPARTS for b in pair} == set(maps.BLESSINGS)
    for one, other in maps.COUNTERPARTS:
        assert half(where[one]) != half(where[other]), (one, other)
    assert m25.enchantments == ()


def test_load_map_is_a_lookup_of_data_read_once() -> None:
    assert maps.load_map("2.5") is maps.load_map("2.5")
    with pytest.raises(maps.UnknownMapError, match=r"no map .3\.0."):
        maps.load_map("3.0")


# --- bad map files ------------------------------------------------------------------------

GOOD = (maps.DATA / "map-2.0.toml").read_text(encoding="utf-8")
GRID = GOOD.split("grid = '''\n")[1].split("\n'''")[0]
LINES = GRID.splitlines()


def with_grid(lines: list[str]) -> str:
    """The 2.0 file with another grid."""
    return GOOD.replace(GRID, "\n".join(lines))


def put(row: int, col: int, char: str) -> list[str]:
    """The 2.0 grid with one character changed."""
    lines = list(LINES)
    lines[row] = lines[row][:col] + char + lines[row][col + 1 :]
    return lines


def node_of(char: str) -> Node:
    """Where a character is drawn on the 2.0 grid (first occurrence)."""
    row = next(r for r, line in enumerate(LINES) if char in line)
    return (LINES[row].index(char), row)


def zone_node_next_to_altar_1() -> Node:
    col, row = node_of("1")
    return (col, row - 1)


BAD = {
    "not toml": ("grid = '''", "not valid TOML"),
    "short grid": (with_grid(LINES[:-1]), "grid has 27 lines"),
    "narrow row": (with_grid([LINES[0][:-1], *LINES[1:]]), "grid row 0 has 21 characters"),
    "unknown mark": (with_grid(put(10, 0, "?")), "unknown mark '?'"),
    "zone blocked": (
        with_grid(put(zone_node_next_to_altar_1()[1], zone_node_next_to_altar_1()[0], "#")),
        "altar-1 zone node",
    ),
    "zone not drawn": (with_grid(put(*reversed(node_of("+")), ".")), "is not drawn '+'"),
    "stray zone mark": (with_grid(put(10, 0, "+")), "'+' at (0, 10) is in no altar's zone"),
    "missing altar": (with_grid(put(*reversed(node_of("8")), ".")), "do not match"),
    "unlisted enchantment": (with_grid(put(10, 0, "E")), "E drawn at (0, 10)"),
    "small spawn": (GOOD.replace(GRID, GRID.replace("R", ".", 4)), "red spawn has 3 nodes"),
    "walled in": (
        with_grid(
            [
                "".join(
                    "#" if (c, r) in board.ring(node_of("7"), 2) else ch
                    for c, ch in enumerate(line)
                )
                for r, line in enumerate(LINES)
            ]
        ),
        "altar-7 zone cannot be reached",
    ),
    "bad blessing": (GOOD.replace('blessing = "leech"', 'blessing = "vampirism"', 1), "vampirism"),
    "bad source": (GOOD.replace('source = "assumed"', 'source = "guessed"', 1), "guessed"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_map_file_is_one_line_naming_the_file_and_the_problem(case: str) -> None:
    text, expected = BAD[case]
    with pytest.raises(maps.MapDataError) as caught:
        maps.parse_map(text, name="map-x.toml")
    message = str(caught.value)
    assert message.startswith("map-x.toml: ")
    assert expected in message
    assert "\n" not in message


def test_the_shipped_2_0_file_parses_through_the_same_function() -> None:
    assert maps.parse_map(GOOD, name="map-2.0.toml") == maps.load_map("2.0")
