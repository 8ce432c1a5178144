"""Warcraft: Frontline's state: frozen Structs and tuples, and the queries rules, moves and views share.

A side is one player's half of the table: its race, resource repository, workers by
place, army, researched techs and buildings. Times are counted in the owner's own action
rounds: a task or a building started in round r with time t is ready at the start of the
owner's round r + t ("takes 1 turn to build").
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rulesets.frontline import board
from rulesets.frontline.cards import BUILDINGS, RESEARCH, UNITS
from rulesets.frontline.params import Params
from rulesets.memo import last_args, last_state

Phase = Literal["action", "frontline", "over"]
"""`action`: the current seat plays its action round; `frontline`: the table counts the
forces and moves the frontline; `over`: a base line was reached or the last bout ended."""

replace = msgspec.structs.replace


class Task(msgspec.Struct, frozen=True, gc=False):
    """What a building is busy with ("each building can only do one task at the same time")."""

    item: str
    """A unit id or a tech id."""
    kind: Literal["unit", "research"]
    ready: int
    """The owner's action round at whose start it is done."""


class Building(msgspec.Struct, frozen=True, gc=False):
    """A building on a site of an area."""

    id: str
    kind: str
    area: str
    ready: int = 0
    """The owner's action round from whose start it stands (0: from the start)."""
    task: Task | None = None


class Returning(msgspec.Struct, frozen=True, gc=False):
    """Militia going back to work: "takes one extra round before going back to work"."""

    count: int
    to: str
    ready: int
    """The owner's action round at whose start they arrive (before collection)."""


class Side(msgspec.Struct, frozen=True, gc=False):
    """One player: race, repository, workers, army, techs and buildings."""

    seat: str
    race: str
    half: int
    gold: int
    lumber: int
    workers: tuple[tuple[str, int], ...]
    """Place -> workers there (`idle`, `gold`, `lumber`, `militia`, a burrow id); sorted, no zeros."""
    returning: tuple[Returning, ...] = ()
    units: tuple[tuple[str, int], ...] = ()
    """Combat unit id -> how many the player has; sorted."""
    techs: tuple[str, ...] = ()
    buildings: tuple[Building, ...] = ()
    built: tuple[tuple[str, int], ...] = ()
    """Building kind -> how many the player ever built (numbers the next id)."""
    rounds: int = 0
    """Action rounds the player has begun."""


class State(msgspec.Struct, frozen=True, gc=False):
    """A Warcraft: Frontline position."""

    seats: tuple[str, ...]
    """Seats in seating order: the first acts first in every bout and owns half A."""
    sides: tuple[Side, ...]
    current: str
    phase: Phase = "action"
    bout: int = 1
    """The bout under way: both players' turns make one bout."""
    bouts_done: int = 0
    front: int = 0
    """The frontline: grids into the second seat's half (> 0) or the first seat's (< 0)."""
    forces: tuple[int, ...] = (0, 0)
    force_drift: tuple[int, ...] = ()
    """By how much the table's last written count of each force stood off the rules' count
    (empty: it agreed). A lasting difference (a unit the log never trained) is one mistake:
    named when it appears or changes, not at every later count."""
    """Both military forces as last counted, in seating order."""
    razed: tuple[str, ...] = ()
    """Buildings the last frontline move destroyed (`seat:id`), for the view."""


# --- sides ------------------------------------------------------------------------------------


def side(state: State, seat: str | None) -> Side | None:
    """The seat's side, if it sits at this table."""
    for s in state.sides:
        if s.seat == seat:
            return s
    return None


def opponent(state: State, seat: str) -> Side:
    """The other player's side."""
    return next(s for s in state.sides if s.seat != seat)


def with_side(state: State, updated: Side, **changes: object) -> State:
    """The state with one side replaced (and other fields changed)."""
    sides = tuple([updated if s.seat == updated.seat else s for s in state.sides])
    return replace(state, sides=sides, **changes)


def bump(pairs: tuple[tuple[str, int], ...], key: str, delta: int, *more: tuple[str, int]) -> tuple[tuple[str, int], ...]:
    """A sorted key -> count table with `delta` added to `key` (and each further (key,
    delta) of `more`: workers leave one place for another in one pass), entries at 0 dropped."""
    table = dict(pairs)
    table[key] = table.get(key, 0) + delta
    for other, change in more:
        table[other] = table.get(other, 0) + change
    return tuple(sorted([kv for kv in table.items() if kv[1] != 0]))


def count(pairs: tuple[tuple[str, int], ...], key: str) -> int:
    """How many `key` a key -> count table holds."""
    for k, n in reversed(pairs):  # the last entry of a key, as `dict(pairs)` keeps it
        if k == key:
            return n
    return 0


def building(s: Side, building_id: str) -> Building | None:
    """The side's building with that id."""
    return next((b for b in s.buildings if b.id == building_id), None)


def standing(s: Side, b: Building) -> bool:
    """Built and ready: its build time has passed."""
    return b.ready <= s.rounds


def effect_total(s: Side, effect: str) -> int:
    """The total amount of the side's researched techs with that effect (0 without one)."""
    return sum(RESEARCH[t].amount for t in s.techs if t in RESEARCH and RESEARCH[t].effect == effect)


# --- population, force and defense ------------------------------------------------------------


def workers(s: Side) -> int:
    """Every worker the side has: at work, idle, militia, in burrows or returning."""
    total = 0  # a plain loop: every decision asks it, of a handful of places
    for _, n in s.workers:
        total += n
    for back in s.returning:
        total += back.count
    return total


def population(s: Side) -> int:
    """Population used: workers, combat units, and units still in training ("take 1 population")."""
    return workers(s) + _army_and_training(s.units, s.buildings)


@last_args  # every decision asks it; worker moves change neither part (rulesets/memo.py)
def _army_and_training(units: tuple[tuple[str, int], ...], buildings: tuple[Building, ...]) -> int:
    army = sum(UNITS[u].population * n for u, n in units if u in UNITS)
    return army + sum(UNITS[b.task.item].population for b in buildings if b.task and b.task.kind == "unit" and b.task.item in UNITS)


def capacity(params: Params, s: Side) -> int:
    """Population capacity of standing buildings (base 10, farm/burrow 5), at most what two d10 show."""
    return _capacity(params, s.buildings, s.rounds)


@last_args  # every decision asks it; worker moves change none of its parts (rulesets/memo.py)
def _capacity(params: Params, buildings: tuple[Building, ...], rounds: int) -> int:
    total = sum(BUILDINGS[b.kind].capacity for b in buildings if b.kind in BUILDINGS and b.ready <= rounds)  # `standing`
    return min(params.capacity_max, total)


def force(params: Params, s: Side) -> int:
    """Military force: each combat unit's force (plus weapon research), and each militia."""
    units = sum(UNITS[u].force * n for u, n in s.units if u in UNITS)
    upgrades = effect_total(s, "unit_force") * sum(n for _, n in s.units)
    return units + upgrades + params.militia_force * count(s.workers, "militia")


def area_defenses(params: Params, s: Side) -> dict[str, int]:
    """What the side's standing buildings add to its grids' defense, by area (areas without
    any: none): towers, research raising every building's defense, and workers sheltering in
    burrows."""
    by_area: dict[str, int] = {}
    per_building = effect_total(s, "building_defense")
    held = dict(s.workers)  # `count` of every place: the last entry of a key, as dict keeps it
    for b in s.buildings:
        card = BUILDINGS.get(b.kind)
        if card is not None and b.ready <= s.rounds:  # `standing`
            added = card.defense + per_building + params.burrow_defense * held.get(b.id, 0)
            if added:
                by_area[b.area] = by_area.get(b.area, 0) + added
    return by_area


def defenses(params: Params, state: State, half: int) -> tuple[int, ...]:
    """Each grid's defense power in a half, from the middle to the base line: the track's
    number plus what the half's owner built in the grid's area."""
    return _both_defenses(params, state)[half]


@last_state  # the frontline step asks it in legal, check and apply of the same state (rulesets/memo.py)
def _both_defenses(params: Params, state: State) -> tuple[tuple[int, ...], ...]:
    return tuple(_HALVES[half % len(_HALVES)](params, half, owner) for half, owner in enumerate(state.sides))


def _half_defenses(params: Params, half: int, owner: Side) -> tuple[int, ...]:
    built = area_defenses(params, owner)  # every area's defense in one pass, once for all its grids
    return tuple(default + built.get(area_id, 0) for default, area_id in zip(params.track, board.grid_areas(params, half), strict=True))


_HALVES = (last_args(_half_defenses), last_args(_half_defenses))
"""One memo per half (rulesets/memo.py): the side that did not just play is the same object
at the next frontline step, so its half is worked out once per change of that side."""


@last_state  # the frontline step asks it in legal and apply of the same state (rulesets/memo.py)
def counted_forces(params: Params, state: State) -> tuple[int, ...]:
    """Both military forces now, in seating order."""
    return tuple(force(params, s) for s in state.sides)


def frontline(params: Params, state: State, forces: tuple[int, ...] | None = None) -> int:
    """Where the forces now put the frontline (or `forces`, as the table counted them): the
    leader pushes into the other half by the difference, grid by grid, never skipping a grid
    it cannot pass."""
    first, second = counted_forces(params, state) if forces is None else forces
    difference = first - second
    if difference == 0:
        return 0
    half = 1 if difference > 0 else 0
    return board.signed(half, board.reach(defenses(params, state, half), abs(difference)))


# --- areas and points -------------------------------------------------------------------------


def holds(params: Params, state: State, seat: str, area_id: str) -> bool:
    """The seat may build in the area: it is behind the seat's side of the frontline."""
    a, s = board.area(params, area_id), side(state, seat)
    return a is not None and s is not None and board.holder(a, state.front) == s.half


def buildings_in(state: State, area_id: str) -> int:
    """Buildings of either player on the area's sites."""
    return sum(1 for s in state.sides for b in s.buildings if b.area == area_id)


def base_line_reached(params: Params, state: State) -> int | None:
    """The half whose base line the frontline stands on, if any."""
    for half in (0, 1):
        if board.depth(state.front, half) >= len(params.track):
            return half
    return None


def points(params: Params, state: State, seat: str) -> int:
    """Winning condition 3: researched techs, and 2 points a grid the frontline stands into
    the other half."""
    s, them = side(state, seat), opponent(state, seat)
    assert s is not None
    return params.points_per_tech * len(s.techs) + params.points_per_grid * board.depth(state.front, them.half)
