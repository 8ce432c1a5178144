"""The four missions' deployment zones, evac zones and deployment order (frontier.md, Missions).

A zone is a union of axis-aligned rectangles of the 44" x 30" table (optionally only the
part within some distance of another zone). Zones depend on the choices made while
setting up: the long edge the defender picks, the two edges of an ambush, the short edge
the target or VIP stands by. Until a choice is made, a zone that depends on it is the
union of every way it could go.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Literal, NamedTuple

from rulesets.frontier.board import Point, rectangle

WIDTH = 44.0
"""The long edges run 44" (frontier.md, Introduction: "a 30" x 44" board")."""
HEIGHT = 30.0
LONG_EDGES = ("south", "north")
SHORT_EDGES = ("west", "east")
EDGES = (*LONG_EDGES, *SHORT_EDGES)
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}
ROLES = ("attacker", "defender")

Scope = Literal["all", "half", "rest", "none"]


class Rect(NamedTuple):
    """An axis-aligned rectangle (x0 <= x1, y0 <= y1), boundary included."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, p: Point) -> bool:
        """Whether p is in the rectangle or on its boundary."""
        return self.x0 - 1e-9 <= p[0] <= self.x1 + 1e-9 and self.y0 - 1e-9 <= p[1] <= self.y1 + 1e-9

    def distance(self, p: Point) -> float:
        """Distance from p to the rectangle (0 inside)."""
        dx = max(self.x0 - p[0], 0.0, p[0] - self.x1)
        dy = max(self.y0 - p[1], 0.0, p[1] - self.y1)
        return float((dx * dx + dy * dy) ** 0.5)


class Zone(NamedTuple):
    """A deployment area: in one of `rects` and, if `near` is set, within `near_dist` of it."""

    rects: tuple[Rect, ...]
    label: str
    near: tuple[Rect, ...] = ()
    near_dist: float = 0.0

    def contains(self, p: Point) -> bool:
        """Whether a point lies in the zone."""
        for rect in self.rects:  # (a loop, not `any` over a generator: asked for every point a unit may be set up on)
            if rect.contains(p):
                return not self.near or min(r.distance(p) for r in self.near) <= self.near_dist + 1e-9
        return False

    def distance(self, p: Point) -> float:
        """Distance from p to the zone's rectangles (0 inside)."""
        return min((r.distance(p) for r in self.rects), default=float("inf"))

    def outlines(self) -> list[tuple[Point, ...]]:
        """The rectangles as polygons, for drawing."""
        return [rectangle(*r) for r in self.rects]


class Wave(NamedTuple):
    """One step of a mission's deployment, in printed order."""

    role: str
    """Who sets up in this step: `attacker` or `defender`."""
    zone: str
    """Name of the area the step's units (and marker) go in."""
    scope: Scope
    """all: every unit; half: up to 50% of the army's points; rest: every unit not yet set up;
    none: no units (only the marker)."""
    edge: Literal["long", "corner"] | None = None
    """An edge choice made first: one long edge, or two adjacent edges."""
    marker: str | None = None
    """A marker placed first in this step."""


class Layout(NamedTuple):
    """The setup choices zones depend on."""

    attacker_edges: tuple[str, ...] = ()
    defender_edges: tuple[str, ...] = ()
    short_edge: str | None = None
    """The short edge the Sabotage target or the Escort VIP was placed by."""


WAVES: dict[str, tuple[Wave, ...]] = {
    # "The defender picks a long board edge and deploys all their units within that half of the
    # board. The attacker then places all of their models within 10" of opposite board edge."
    # "The attacker places a marker (strong point) anywhere more than 5" from their deployment zone."
    "assault": (
        Wave("defender", "defender-half", "all", edge="long"),
        Wave("attacker", "attacker-edge", "all"),
        Wave("attacker", "strong-point", "none", marker="strong_point"),
    ),
    # "The defender places a single marker (the target) within 10" of a short board edge. They then
    # place up to 50% of their total points worth of units anywhere in the same area. The attacker
    # then places their units either within 10" of the opposite edge. Or within 5" of the centre line
    # ... The defender then deploys their remaining units within 5" of either long board edge."
    "sabotage": (
        Wave("defender", "target-area", "half", marker="target"),
        Wave("attacker", "attacker-sabotage", "all"),
        Wave("defender", "defender-flanks", "rest"),
    ),
    # "The attacker picks two adjacent board edges. They then setup their units anywhere up to 10"
    # from these board edges. The defender then sets up their units anywhere within 10" of the
    # attackers deployment zone, and at least 10" from a board edge."
    "ambush": (
        Wave("attacker", "attacker-corner", "all", edge="corner"),
        Wave("defender", "defender-ambushed", "all"),
    ),
    # "The attacker places a marker (the VIP) within 10" of a short board edge. They then place up to
    # 50% of their total points worth of units in the same area. The defender chooses a single long
    # board edge and deploys all their forces within 5" and at least 10" from any short board edge.
    # The attacker then places their remaining forces within 10" of the opposite board edge."
    "escort": (
        Wave("attacker", "vip-area", "half", marker="vip"),
        Wave("defender", "defender-edge", "all", edge="long"),
        Wave("attacker", "attacker-far-edge", "rest"),
    ),
}


def strip(edge: str, depth: float) -> Rect:
    """The part of the table within `depth` inches of an edge."""
    return {
        "south": Rect(0, 0, WIDTH, depth),
        "north": Rect(0, HEIGHT - depth, WIDTH, HEIGHT),
        "west": Rect(0, 0, depth, HEIGHT),
        "east": Rect(WIDTH - depth, 0, WIDTH, HEIGHT),
    }[edge]


def edge_distance(edge: str, p: Point) -> float:
    """Distance from p to a board edge (the edge's whole line)."""
    if edge == "south":  # (not a dict built per call: every unit's evac distance asks it)
        return p[1]
    if edge == "north":
        return HEIGHT - p[1]
    if edge == "west":
        return p[0]
    if edge == "east":
        return WIDTH - p[0]
    raise KeyError(edge)


def edge_line(edge: str) -> tuple[Point, Point]:
    """The edge's two corners."""
    return {
        "south": ((0.0, 0.0), (WIDTH, 0.0)),
        "north": ((0.0, HEIGHT), (WIDTH, HEIGHT)),
        "west": ((0.0, 0.0), (0.0, HEIGHT)),
        "east": ((WIDTH, 0.0), (WIDTH, HEIGHT)),
    }[edge]


def on_table(p: Point) -> bool:
    """Whether a point is on the 44" x 30" table."""
    return -1e-9 <= p[0] <= WIDTH + 1e-9 and -1e-9 <= p[1] <= HEIGHT + 1e-9


def short_edge_of(p: Point) -> str:
    """The short edge nearer a point (the target's or VIP's side of the table)."""
    return "west" if p[0] <= WIDTH / 2 else "east"


def corners() -> list[tuple[str, str]]:
    """The four pairs of adjacent edges (long first)."""
    return [(long, short) for long in LONG_EDGES for short in SHORT_EDGES]


def _options(chosen: tuple[str, ...], candidates: Iterable[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The chosen edges, or every candidate while the choice is not made."""
    return [chosen] if chosen else list(candidates)


def _union(zones: Iterable[Zone], label: str) -> Zone:
    rects: list[Rect] = []
    for zone in zones:
        rects += [r for r in zone.rects if r not in rects]
    return Zone(tuple(rects), label)


@functools.lru_cache(maxsize=256)
def zone(mission: str, name: str, layout: Layout) -> Zone:
    """A named deployment area of a mission under the setup choices made so far (a pure value
    of a few setup choices, remembered: every unit and marker set up asks it)."""
    builder = _ZONES[name]
    return builder(layout)


def _defender_half(layout: Layout) -> Zone:
    halves = [strip(e[0], HEIGHT / 2) for e in _options(layout.defender_edges, ((e,) for e in LONG_EDGES))]
    return Zone(tuple(halves), "defender's half")


def _assault_attacker(layout: Layout) -> Zone:
    edges = _options(layout.defender_edges, ((e,) for e in LONG_EDGES))
    return Zone(tuple(strip(OPPOSITE[e[0]], 10) for e in edges), 'within 10" of the edge opposite the defender')


def _shorts(layout: Layout) -> list[str]:
    return [layout.short_edge] if layout.short_edge else list(SHORT_EDGES)


def _target_area(layout: Layout) -> Zone:
    return Zone(tuple(strip(s, 10) for s in _shorts(layout)), 'within 10" of the short edge')


def _centre_band(short: str) -> Rect:
    """Within 5" of the centre line (the line halfway between the long edges), outside the
    defender's area by `short` (readings.py: "centre line")."""
    return Rect(10, HEIGHT / 2 - 5, WIDTH, HEIGHT / 2 + 5) if short == "west" else Rect(0, HEIGHT / 2 - 5, WIDTH - 10, HEIGHT / 2 + 5)


def _attacker_sabotage(layout: Layout) -> Zone:
    rects: list[Rect] = []
    for short in _shorts(layout):
        rects += [strip(OPPOSITE[short], 10), _centre_band(short)]
    return Zone(tuple(rects), 'within 10" of the opposite short edge, or within 5" of the centre line')


def _defender_flanks(layout: Layout) -> Zone:
    rects: list[Rect] = []
    for short in _shorts(layout):
        far = strip(OPPOSITE[short], 10)
        x0, x1 = (0.0, far.x0) if short == "west" else (far.x1, WIDTH)
        rects += [Rect(x0, 0, x1, 5), Rect(x0, HEIGHT - 5, x1, HEIGHT)]
    return Zone(tuple(dict.fromkeys(rects)), 'within 5" of a long edge, outside the attacker\'s zone')


def _attacker_corner(layout: Layout) -> Zone:
    pairs = _options(layout.attacker_edges, corners())
    return _union((Zone(tuple(strip(e, 10) for e in pair), "") for pair in pairs), 'within 10" of the two chosen edges')


def _defender_ambushed(layout: Layout) -> Zone:
    inner = Rect(10, 10, WIDTH - 10, HEIGHT - 10)
    return Zone((inner,), 'within 10" of the attacker\'s zone, at least 10" from every edge',
                near=_attacker_corner(layout).rects, near_dist=10)


def _defender_edge(layout: Layout) -> Zone:
    rects = []
    for (edge,) in _options(layout.defender_edges, ((e,) for e in LONG_EDGES)):
        band = strip(edge, 5)
        rects.append(Rect(10, band.y0, WIDTH - 10, band.y1))
    return Zone(tuple(rects), 'within 5" of the long edge, at least 10" from the short edges')


def _attacker_far_edge(layout: Layout) -> Zone:
    return Zone(tuple(strip(OPPOSITE[s], 10) for s in _shorts(layout)), 'within 10" of the short edge opposite the VIP')


def _strong_point_area(layout: Layout) -> Zone:
    return Zone((Rect(0, 0, WIDTH, HEIGHT),), 'more than 5" from the attacker\'s deployment zone')


_ZONES = {
    "defender-half": _defender_half,
    "attacker-edge": _assault_attacker,
    "strong-point": _strong_point_area,
    "target-area": _target_area,
    "attacker-sabotage": _attacker_sabotage,
    "defender-flanks": _defender_flanks,
    "attacker-corner": _attacker_corner,
    "defender-ambushed": _defender_ambushed,
    "vip-area": _target_area,
    "defender-edge": _defender_edge,
    "attacker-far-edge": _attacker_far_edge,
}


@functools.lru_cache(maxsize=256)
def deployment_zone(mission: str, role: str, layout: Layout) -> Zone:
    """Everywhere a role may set up units in the mission (all its steps together; remembered
    like `zone`: each of a set-up's sampled marker points asks it)."""
    zones = [zone(mission, w.zone, layout) for w in WAVES[mission] if w.role == role and w.scope != "none"]
    return _union(zones, f"{role}'s deployment zone")


def marker_problem(mission: str, marker: str, at: Point, layout: Layout) -> str | None:
    """Why a mission marker may not go at `at` (None if it may)."""
    if not on_table(at):
        return f"{at} is off the table"
    if marker == "strong_point":
        attacker = deployment_zone(mission, "attacker", layout)
        if attacker.distance(at) <= 5:
            return f'the strong point must be more than 5" from the attacker\'s deployment zone; it is {attacker.distance(at):.1f}" away'
    if marker in ("target", "vip") and min(edge_distance(s, at) for s in SHORT_EDGES) > 10:
        return f'the {marker} must be within 10" of a short board edge'
    return None


def marker_allowed(mission: str, marker: str, at: Point, layout: Layout) -> bool:
    """`marker_problem(...) is None`, without its message: the same questions in the same order
    (a set-up offers a mission marker at thirty sampled points, most of them refused)."""
    if not on_table(at):
        return False
    if marker == "strong_point" and deployment_zone(mission, "attacker", layout).distance(at) <= 5:
        return False
    return not (marker in ("target", "vip") and min(edge_distance(s, at) for s in SHORT_EDGES) > 10)


def evac_edges(mission: str, role: str, layout: Layout) -> tuple[str, ...]:
    """The board edges that are a role's evac zones (frontier.md, each mission's Evac Zones)."""
    if mission == "assault":
        # "The defenders evac zone is their long board edge. The attackers evac zones are the remaining 3"
        mine = layout.defender_edges[:1]
        return mine if role == "defender" else tuple(e for e in EDGES if e not in mine)
    if mission in ("sabotage", "escort"):
        # Sabotage: "The attackers evac zone is their short board edge" (opposite the target);
        # Escort: "the short board edge farthest from where the VIP was deployed".
        far = (OPPOSITE[layout.short_edge],) if layout.short_edge else ()
        if role == "attacker":
            return far
        if mission == "sabotage":  # "The defenders evac zones are the other three board edges."
            return tuple(e for e in EDGES if e not in far)
        return layout.defender_edges[:1]  # Escort: "the long board edge on which they deployed"
    # Ambush: "either of their board edges in their deployment zone"; "the remaining two".
    mine = layout.attacker_edges
    return mine if role == "attacker" else tuple(e for e in EDGES if e not in mine)
