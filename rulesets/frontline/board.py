"""Warcraft: Frontline's geometry: the two halves, their areas, and how far a push goes.

The board is read as one track of grids between the two base lines, half of it in each
player's half ("Each player will own half of the map by default"). The frontline is a
signed number of grids: positive when it stands in the second seat's half (the first seat
pushed it there), negative in the first seat's half, 0 in the middle. Areas are bands of
consecutive grids; an area is held by a player while the frontline has not entered it
from the other side, taken once the frontline has pushed through its far border, and
contested while the frontline stands inside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import msgspec

from rulesets.frontline.params import Params

HALVES = ("A", "B")
"""Half letters by seating order: A is the first seat's half, B the second's."""


class Area(msgspec.Struct, frozen=True, kw_only=True):
    """One area of a half: the grids of the track it spans and its building sites."""

    id: str
    """`A1` ... `B4`: half letter, then 1 for the front area up to the base area."""
    half: int
    """0: the first seat's half, 1: the second seat's."""
    number: int
    first: int
    """First grid of the track in it, counted from the middle (1 = the first grid pushed)."""
    last: int
    sites: int


@cache
def areas(params: Params) -> tuple[Area, ...]:
    """Every area of both halves, the first seat's half first, each from the front back
    (memoised: params are frozen and few)."""
    out = []
    for half, letter in enumerate(HALVES):
        first = 1
        for number, (grids, sites) in enumerate(zip(params.area_grids, params.area_sites, strict=True), start=1):
            out.append(Area(id=f"{letter}{number}", half=half, number=number, first=first, last=first + grids - 1, sites=sites))
            first += grids
    return tuple(out)


def area(params: Params, area_id: str) -> Area | None:
    """The area with that id, if the board has it."""
    return _areas_by_id(params).get(area_id)


@cache
def _areas_by_id(params: Params) -> dict[str, Area]:
    """The areas by id (the first of an id, as a scan finds it)."""
    out: dict[str, Area] = {}
    for a in areas(params):
        out.setdefault(a.id, a)
    return out


def base_area(params: Params, half: int) -> Area:
    """The half's base area, at its base line (the last area)."""
    return [a for a in areas(params) if a.half == half][-1]


@cache
def area_of_grid(params: Params, half: int, grid: int) -> Area:
    """The area of `half` that grid `grid` (1 = nearest the middle) lies in."""
    return next(a for a in areas(params) if a.half == half and a.first <= grid <= a.last)


@cache
def grid_areas(params: Params, half: int) -> tuple[str, ...]:
    """The area id of each grid of `half`, from the middle to the base line."""
    return tuple(area_of_grid(params, half, grid).id for grid in range(1, len(params.track) + 1))


def depth(front: int, half: int) -> int:
    """How many grids the frontline stands inside `half` (0 if it is not in it)."""
    return max(0, front) if half == 1 else max(0, -front)


def holder(a: Area, front: int) -> int | None:
    """The half whose player holds the area, or None while the frontline stands inside it.

    Destroying enemy buildings: "Once frontline pushes through these lines, builds in front
    of the lines are destroyed ... because these area are behind the front line now, we can
    now build in these areas."
    """
    inside = depth(front, a.half)
    if inside >= a.last + 1:
        return 1 - a.half
    if inside <= a.first - 1:
        return a.half
    return None


def signed(half: int, grids: int) -> int:
    """The signed frontline for `grids` grids into `half`."""
    return grids if half == 1 else -grids


def reach(defenses: Sequence[int], difference: int) -> int:
    """Grids a push of `difference` gets through, grid by grid from the middle.

    Defense Power: "enemy player can not skip to that grid without passing through the
    previous grid": the push stops before the first grid whose defense is higher than the
    difference, whatever the grids behind it need.
    """
    grids = 0
    for needed in defenses:
        if difference < needed:
            break
        grids += 1
    return grids


def skipped(defenses: Sequence[int], difference: int, grids: int) -> int | None:
    """The first grid before `grids` that `difference` cannot pass though grid `grids`
    itself would yield to it (a skip), else None."""
    if not 1 <= grids <= len(defenses) or defenses[grids - 1] > difference:
        return None
    return next((i for i, needed in enumerate(defenses[: grids - 1], start=1) if needed > difference), None)
