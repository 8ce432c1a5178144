"""MortalGate's maps, one per map version, read once from text-art TOML files in data/.

The rulebook's map was an image and is lost ("MortalGate is played on hex-map with the
following important locations labeled below", mortalgate.txt, Game Setup). What the text
fixes is the board size, 8 altars with altar zones, a spawn point per team, impassable
terrain, 5 enchantment spots in 2.00 and how each redesign changed the layout; every
position is therefore `assumed`, drawn to fit those sentences (each file's notes cite
them). A designer edits the grid; `parse_map` checks it and names the first problem.

Grid legend (one character per node, row by row, 22 characters x 28 lines; even columns
sit half a hex lower on the real board):
`.` open  `#` impassable  `R`/`B` red/blue spawn  `1`..`8` altar-1..altar-8
`+` altar-zone node (open; must match the zones the altar table defines)
`E` enchantment spot (open; listed with its kind in `[[enchantments]]`).
"""

from __future__ import annotations

import tomllib
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from events.errors import TabletapeError
from rulesets.mortalgate.board import HEIGHT, WIDTH, Node, neighbours, within
from rulesets.provenance import Sourced

DATA = Path(__file__).parent / "data"
MAP_IDS = ("1.5", "2.0", "2.5")
"""Map versions: 1.5 the first map, 2.0 (also played by 2.1) and the 2.5 redesign."""

BLESSINGS: Mapping[str, str] = {
    "pinpoint": "Pinpoint",
    "evasive": "Evasive",
    "forceful": "Forceful",
    "divine_shield": "Divine Shield",
    "sprint": "Sprint",
    "splinter": "Splinter",
    "shockwave": "Shockwave",
    "leech": "Leech",
}
"""Blessing id -> printed name, in the order of mortalgate.txt, Blessing Types."""

OLD_BLESSINGS = ("pinpoint", "forceful", "splinter", "shockwave", "leech")
"""The five kinds before 2.5 (Version 2.5 item 4: "Evasive, Divine Shield, and Sprint
blessings added"); 2.00's enchantments are taken to be the same five (assumed)."""

COUNTERPARTS: tuple[tuple[str, str], ...] = (
    ("pinpoint", "evasive"),
    ("forceful", "divine_shield"),
    ("splinter", "shockwave"),
    ("sprint", "leech"),
)
"""Blessings that "closely balance when held by opposing teams" (Version 2.5 item 4).

The text names no pairs. Pinpoint/Evasive (hit vs dodge) and Forceful/Divine Shield
(+1 damage dealt vs -1 damage taken) cancel each other; Splinter/Shockwave are the two
splash effects; Sprint/Leech is what remains (reach vs sustain). Assumed.
"""

SPAWN_MIN = 4
"""Nodes a spawn needs: a team has up to 4 heroes who all start there (mortalgate.txt,
Draft Phase: "place their hero figures at the spawn point"). Assumed minimum."""

_GRID_CHARS = frozenset(".#RB+E12345678")
_TEAMS = {"R": "red", "B": "blue"}


class MapDataError(TabletapeError, ValueError):
    """A map file that cannot be used; the message names the file and the first problem."""


_Fail = Callable[[str], MapDataError]
"""Builds the error for one problem, prefixed with the file name."""


class UnknownMapError(TabletapeError, LookupError):
    """A map id that no data file provides."""


class Altar(msgspec.Struct, frozen=True, kw_only=True):
    """An altar: its node, the altar zone a hero must inhabit to capture it, its blessing."""

    id: str
    """`altar-1` .. `altar-8`, matching the digit on the grid."""
    name: str
    node: Node
    zone: frozenset[Node]
    """Nodes of the altar zone, the altar's own node included (it is passable)."""
    blessing: str | None
    """Blessing id (a key of `BLESSINGS`) earned by holding it from 2.1; None on map 1.5."""


class MapData(msgspec.Struct, frozen=True, kw_only=True):
    """One map layout; the rules engine never reads the file, only this."""

    id: str
    width: int
    height: int
    impassable: frozenset[Node]
    spawns: dict[str, tuple[Node, ...]]
    """`red` and `blue` -> their spawn nodes, sorted."""
    altars: tuple[Altar, ...]
    enchantments: tuple[tuple[Node, str], ...]
    """(node, blessing id) of each 2.00 enchantment spot; empty on the other maps."""
    sources: dict[str, Sourced]
    """Provenance of each part of the layout (size, altars, spawns, terrain...)."""
    notes: tuple[str, ...]
    """Design notes: which sentence of the text each choice answers."""


def parse_map(text: str, *, name: str) -> MapData:
    """Read one map file's text; `name` (the file name) starts every error message."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MapDataError(f"{name}: not valid TOML: {error}") from None
    try:
        return _build(raw, name)
    except MapDataError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise MapDataError(f"{name}: {_describe(error)}") from None


def _describe(error: Exception) -> str:
    """A one-line reason for a structural problem in the TOML (missing key, wrong type)."""
    if isinstance(error, KeyError):
        return f"missing key {error.args[0]!r}"
    return str(error).splitlines()[0]


def _build(raw: dict[str, Any], name: str) -> MapData:
    """Check every constraint of the format and assemble the MapData."""

    def fail(message: str) -> MapDataError:
        return MapDataError(f"{name}: {message}")

    width, height = int(raw.get("width", WIDTH)), int(raw.get("height", HEIGHT))
    grid = _read_grid(str(raw["grid"]), width, height, fail)
    marks: dict[str, set[Node]] = {}
    for node, char in grid.items():
        marks.setdefault(char, set()).add(node)
    impassable = frozenset(marks.get("#", set()))
    altars = _read_altars(raw.get("altars", []), marks, impassable, width, height, fail)
    spawns = _read_spawns(marks, fail)
    enchantments = _read_enchantments(raw.get("enchantments", []), marks.get("E", set()), fail)
    _check_zone_marks(altars, marks.get("+", set()), fail)
    _check_reachable(impassable, spawns, altars, width, height, fail)
    sources = {
        key: Sourced(value=entry["value"], source=entry["source"], note=entry.get("note", ""))
        for key, entry in raw.get("sources", {}).items()
    }
    for key, entry in sources.items():
        if entry.source not in ("rules", "assumed"):
            raise fail(f"sources.{key}: source must be 'rules' or 'assumed', not {entry.source!r}")
    return MapData(
        id=str(raw["id"]),
        width=width,
        height=height,
        impassable=impassable,
        spawns=spawns,
        altars=altars,
        enchantments=enchantments,
        sources=sources,
        notes=tuple(str(n) for n in raw.get("notes", ())),
    )


def _read_grid(text: str, width: int, height: int, fail: _Fail) -> dict[Node, str]:
    """The grid as node -> character, after checking its shape and alphabet."""
    lines = [ln.strip() for ln in text.strip().splitlines()]
    if len(lines) != height:
        raise fail(f"grid has {len(lines)} lines, the map is {height} rows tall")
    grid: dict[Node, str] = {}
    for row, ln in enumerate(lines):
        if len(ln) != width:
            raise fail(f"grid row {row} has {len(ln)} characters, the map is {width} wide")
        for col, char in enumerate(ln):
            if char not in _GRID_CHARS:
                raise fail(f"grid row {row} col {col}: unknown mark {char!r}")
            grid[(col, row)] = char
    return grid


def _read_altars(
    entries: list[dict[str, Any]],
    marks: dict[str, set[Node]],
    impassable: frozenset[Node],
    width: int,
    height: int,
    fail: _Fail,
) -> tuple[Altar, ...]:
    """Altars from the table, placed where their digit is drawn; zones checked passable."""
    altars = []
    digits = sorted(d for d in marks if d.isdigit())
    expected = [f"altar-{d}" for d in digits]
    ids = [str(e["id"]) for e in entries]
    if ids != expected:
        raise fail(f"[[altars]] ids {ids} do not match the grid's altar digits {expected}")
    for entry, digit in zip(entries, digits, strict=True):
        spots = marks[digit]
        if len(spots) != 1:
            raise fail(f"altar digit {digit} is drawn {len(spots)} times, once expected")
        node = next(iter(spots))
        if "nodes" in entry:
            zone = frozenset((int(c), int(r)) for c, r in entry["nodes"]) | {node}
        else:
            zone = within(node, int(entry.get("radius", 1)), width=width, height=height)
        bad = sorted(zone & impassable)
        if bad:
            raise fail(f"{entry['id']} zone node {bad[0]} is impassable")
        off = sorted(n for n in zone if not (0 <= n[0] < width and 0 <= n[1] < height))
        if off:
            raise fail(f"{entry['id']} zone node {off[0]} is off the map")
        blessing = entry.get("blessing")
        if blessing is not None and blessing not in BLESSINGS:
            raise fail(f"{entry['id']} blessing {blessing!r} is not one of {', '.join(BLESSINGS)}")
        altars.append(
            Altar(id=entry["id"], name=str(entry["name"]), node=node, zone=zone, blessing=blessing)
        )
    return tuple(altars)


def _read_spawns(marks: dict[str, set[Node]], fail: _Fail) -> dict[str, tuple[Node, ...]]:
    """Red and blue spawn nodes; each must hold a full team."""
    spawns = {}
    for char, team in _TEAMS.items():
        nodes = tuple(sorted(marks.get(char, ())))
        if len(nodes) < SPAWN_MIN:
            raise fail(
                f"{team} spawn has {len(nodes)} nodes ({char}); a team of 4 needs {SPAWN_MIN}"
            )
        spawns[team] = nodes
    return spawns


def _read_enchantments(
    entries: list[dict[str, Any]], drawn: set[Node], fail: _Fail
) -> tuple[tuple[Node, str], ...]:
    """Enchantment spots from the table; each must be drawn `E` and every `E` listed."""
    spots = []
    for entry in entries:
        node = (int(entry["at"][0]), int(entry["at"][1]))
        kind = str(entry["kind"])
        if kind not in OLD_BLESSINGS:
            raise fail(
                f"enchantment at {node}: kind {kind!r} is not one of {', '.join(OLD_BLESSINGS)}"
            )
        if node not in drawn:
            raise fail(f"enchantment at {node} is not drawn as E on the grid")
        spots.append((node, kind))
    listed = {node for node, _ in spots}
    if listed != drawn:
        raise fail(f"E drawn at {sorted(drawn - listed)[0]} has no [[enchantments]] entry")
    return tuple(spots)


def _check_zone_marks(altars: tuple[Altar, ...], plus: set[Node], fail: _Fail) -> None:
    """The `+` marks must be exactly the zone nodes, so the drawing never lies."""
    zones = set().union(*(a.zone - {a.node} for a in altars)) if altars else set()
    if missing := sorted(zones - plus):
        raise fail(f"altar-zone node {missing[0]} is not drawn '+'")
    if extra := sorted(plus - zones):
        raise fail(f"'+' at {extra[0]} is in no altar's zone")


def _check_reachable(
    impassable: frozenset[Node],
    spawns: dict[str, tuple[Node, ...]],
    altars: tuple[Altar, ...],
    width: int,
    height: int,
    fail: _Fail,
) -> None:
    """Every spawn and altar-zone node must be reachable from the red spawn on foot."""
    start = spawns["red"][0]
    seen = {start}
    queue = deque([start])
    while queue:
        for near in neighbours(queue.popleft(), width, height):
            if near not in impassable and near not in seen:
                seen.add(near)
                queue.append(near)
    for team, nodes in spawns.items():
        if not seen.issuperset(nodes):
            raise fail(f"{team} spawn cannot be reached from the red spawn")
    for altar in altars:
        if not seen.issuperset(altar.zone):
            raise fail(f"{altar.id} zone cannot be reached from the red spawn")


def read_map_file(path: Path) -> MapData:
    """Read and check one map file (I/O at import time only)."""
    return parse_map(path.read_text(encoding="utf-8"), name=path.name)


MAPS: Mapping[str, MapData] = {m: read_map_file(DATA / f"map-{m}.toml") for m in MAP_IDS}
"""Every map, read once at import."""


def load_map(map_id: str) -> MapData:
    """The map of a map version ("1.5", "2.0", "2.5"); no I/O, the files are read at import."""
    try:
        return MAPS[map_id]
    except KeyError:
        raise UnknownMapError(f"no map {map_id!r}; maps: {', '.join(MAPS)}") from None
