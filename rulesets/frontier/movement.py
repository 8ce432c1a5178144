"""Movement on the open table (frontier.md, Movement, Climbing, Jumping, Falling).

"It may never end its move further than the specified distance from its starting point;
It may not move through other units (Friendly or otherwise); It may move over terrain of
a lower scale without penalty." Climbing costs 1" per scale of the terrain climbed; a
gap no wider than the unit's scale in inches is jumped freely; a unit moved off terrain
by its opponent falls. The path a move records is only checked for what it passes; its
length is free.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from typing import NamedTuple

import msgspec

from rulesets.frontier import board, missions
from rulesets.frontier.board import Point
from rulesets.frontier.params import Params
from rulesets.frontier.state import (
    NEAR,
    Piece,
    State,
    Unit,
    Window,
    bodies,
    find,
    has,
    heights_at,
    kind,
    locator,
    on_board,
    piece_at,
    position,
    sight_lines,
    sighted,
    terrain_sight,
    walls,
)
from rulesets.memo import last_args, last_state

replace = msgspec.structs.replace
WIDTH, HEIGHT = missions.WIDTH, missions.HEIGHT
TOKEN_REACH = 5.0
"""Knife Missile and Minefield: a token "within 5" of an enemy unit" triggers."""
SLACK = 1e-6
"""Float slack on "may not move through other units" (bases may touch)."""


class Problem(NamedTuple):
    """A rule a move breaks: the section and the message."""

    rule: str
    message: str


def ignores_terrain(unit: Unit) -> bool:
    """Flying ("ignores terrain, any tokens, and other units when it moves"), or Jump Packs
    used for this move ("this move ignores terrain, any tokens, and other units")."""
    return has(unit, "flying") or "jump_packs" in unit.primed


def cannot_move(unit: Unit) -> bool:
    """Kill Zone: "This unit cannot move"."""
    return has(unit, "kill_zone")


FOLLOWED_MOVES = frozenset({"advance", "flank", "fall_back", "overwatch"})
"""Moves that follow from an action or reaction declared for the unit itself (Advance: "Move
the unit up to 10""; Flank, Fall Back: "Move the reactive unit up to 5""; an Overwatch won
against that advance). A unit that cannot move may not declare them, and Kill Zone is named
at that declaration; where the table declared one anyway, the move follows the table and is
not named again (readings.py, abilities.kill_zone). The rules open these windows for such a
unit only then (`rules._move_window`)."""


def stuck(unit: Unit, window: Window) -> bool:
    """Whether Kill Zone is named at a move of this unit in this window: any move it makes,
    but that of an action or reaction already refused for Kill Zone (`FOLLOWED_MOVES`)."""
    return cannot_move(unit) and window.purpose not in FOLLOWED_MOVES


def allowance(unit: Unit, window: Window) -> float:
    """The maximum move distance of a move window for this unit, before climbing.

    Indigenous (+2"), Need for Speed (+5") "whenever this unit moves"; Jump Packs +5" for the
    move it is used for.
    """
    return allowance_of(unit, window.allowance)


def allowance_of(unit: Unit, inches: float) -> float:
    """`allowance` for a move window of `inches`, asked before any window is made (Fight
    Through's offers rule most targets out by distance alone)."""
    total = inches
    if has(unit, "indigenous"):
        total += 2
    if has(unit, "need_for_speed"):
        total += 5
    if "jump_packs" in unit.primed:
        total += 5
    return total


def _scale_for_movement(harnessed: bool, piece: Piece) -> int:
    """AG Harness (`harnessed`): "For the purposes of movement, this unit counts terrain of
    scale 3 or less as scale 0"."""
    if harnessed and piece.scale <= 3:
        return 0
    return piece.scale


def climb(state: State, unit: Unit, start: Point, z0: int, end: Point, z1: int, path: tuple[Point, ...], *, forced: bool = False) -> tuple[int, list[str]]:
    """Inches lost to climbing on this move, and the pieces climbed.

    Only terrain of a scale equal to or higher than the unit's is climbed ("It may move over
    terrain of a lower scale without penalty"). Climbing onto a piece costs the height reached
    (its scale for the top), over it its scale, off it the height left (readings.py); walking
    into a piece at ground level where it has a ground floor costs nothing; a jump across a
    gap no wider than the unit's scale costs only any height gained; a unit moved off terrain
    by its opponent falls instead of climbing down.
    """
    if ignores_terrain(unit):
        return 0, []
    scale = kind(unit).scale
    tall = _climbable(state, scale, has(unit, "ag_harness"))
    if not tall:
        return 0, []
    return _climbing(tall, scale, piece_at(state, start), start, z0, piece_at(state, end), end, z1, path, forced)


def _climbing(tall: tuple[tuple[Piece, int], ...], scale: int, here: Piece | None, start: Point, z0: int,
              there: Piece | None, end: Point, z1: int, path: tuple[Point, ...], forced: bool) -> tuple[int, list[str]]:
    """`climb` once the pieces the unit climbs (`tall`, not empty) and the pieces at both
    ends are known: a move's sampled ends share the first two (`_Mover`)."""
    points = (start, *path, end)
    jumped = (here is not None and there is not None and here.id != there.id and z0 > 0 and z1 > 0
              and board.polygons_gap(here.outline, there.outline) <= scale + board.EPS)
    cost, climbed = 0, []
    lo_x, lo_y, hi_x, hi_y = _box(points)
    here_id = here.id if here is not None else None
    there_id = there.id if there is not None else None
    for piece, height in tall:
        if piece.id == here_id:
            step = abs(z1 - z0) if piece.id == there_id else 0 if jumped or forced else z0
        elif piece.id == there_id:
            step = max(z1 - z0, 0) if jumped else z1
        else:
            x0, y0, x1, y1 = piece.box
            if hi_x < x0 or lo_x > x1 or hi_y < y0 or lo_y > y1:
                continue  # the move's bounding box misses the piece's: it cannot enter it
            if not board.path_enters(points, piece.outline):
                continue
            step = 0 if piece.enterable() and z0 == 0 and z1 == 0 else height
        if step > 0:
            cost += step
            climbed.append(piece.id)
    return cost, climbed


def _box(points: tuple[Point, ...]) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of a move's points (most moves are a start and an end)."""
    if len(points) == 2:
        (ax, ay), (bx, by) = points
        return (ax if ax <= bx else bx), (ay if ay <= by else by), (bx if ax <= bx else ax), (by if ay <= by else ay)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _climbable(state: State, scale: int, harnessed: bool) -> tuple[tuple[Piece, int], ...]:
    """The pieces a unit of `scale` climbs (those it moves over freely left out), each with
    its height for movement, in placing order."""
    return _climbables(None, state.terrain)(scale, harnessed)


@last_state  # one table per game: every state of it shares the same terrain tuple (rulesets/memo.py)
def _climbables(params: None, terrain: tuple[Piece, ...]) -> Callable[[int, bool], tuple[tuple[Piece, int], ...]]:
    """`_climbable` for one table: a move asks it of every piece for every sampled end, and the
    answer depends only on the table, the unit's scale and AG Harness. Pure over frozen values."""

    @functools.lru_cache(maxsize=64)
    def of(scale: int, harnessed: bool) -> tuple[tuple[Piece, int], ...]:
        return tuple((piece, height) for piece in terrain if (height := _scale_for_movement(harnessed, piece)) >= scale)

    return of


def move_problems(params: Params, state: State, unit: Unit, window: Window, to: Point, level: int, path: tuple[Point, ...]) -> list[Problem]:
    """Every movement rule a move would break (empty if it is legal)."""
    return list(_breaches(state, _mover(state, unit, window), to, level, path))


def move_allowed(params: Params, state: State, unit: Unit, window: Window, to: Point, level: int, path: tuple[Point, ...]) -> bool:
    """Whether a move breaks no movement rule: the rules are asked in `move_problems`' order
    and the first broken one decides (a sampled move that ends too far is not then traced
    past every unit and sight line). What the move's action asks of where it ends by distance
    alone (`_window_reach_problems`, last in that order) is asked first: it is the cheapest
    test and the one a sampled Fight Through end most often fails, and any rule broken
    refuses the move whichever is found first."""
    return mover_allows(_mover(state, unit, window), to, level, path)


def decision_mover(state: State, unit: Unit, window: Window) -> _Mover:
    """What every sampled end of one unit's move in this window shares (`_mover`), with what
    its straight moves may meet (`_Near`), for a caller that keeps it for the decision itself
    (`rules.decision_mover`: a move window's ends, `rules.move_refused`)."""
    mover = _mover(state, unit, window)
    return mover._replace(near=_near(state.terrain, mover.start, mover.reach, mover.radius, mover.tall, mover.here, mover.walls, mover.bodies))


def mover_allows(mover: _Mover, to: Point, level: int, path: tuple[Point, ...]) -> bool:
    """`move_allowed` once the decision's mover is known."""
    if mover.bound and not _window_reach_allows(mover, to):
        return False
    moved = board.distance(mover.start, to)
    if mover.stuck and (moved > board.EPS or path):
        return False
    there = mover.locate(to)
    near = mover.near
    if near is not None and (path or not _within(near.box, to)):
        near = None
    standing = mover.bodies if near is None else near.bodies
    return (_ground_allows(mover, to, level, path, there, moved, near)
            and (not standing or _units_clear(standing, mover.unit.id, mover.radius, mover.start, to, path, mover.free))
            and (mover.aim is None or _sight_allows(mover, to, level, there)))


def ground_allowed(state: State, unit: Unit, window: Window, to: Point, level: int) -> bool:
    """Whether a straight move breaks none of the rules that read the table, the unit and the
    window alone: `move_allowed` but for the units standing (a unit ended on or passed
    through, one in the way of the line of sight the move's action asks for). For a unit,
    window target and table that stay the same while other units move, the answer stays:
    `move_allowed` is exactly `ground_allowed and units_allow` (so a caller may remember the
    first)."""
    mover = _mover(state, unit, window)
    if not _window_reach_allows(mover, to):
        return False
    moved = board.distance(mover.start, to)
    if mover.stuck and moved > board.EPS:
        return False
    there = mover.locate(to)
    if not _ground_allows(mover, to, level, (), there, moved, None):
        return False
    return mover.aim_end is None or terrain_sight(state)(_end_at(mover, to, level, there), mover.aim_end) is None


def units_allow(state: State, unit: Unit, window: Window, to: Point, level: int) -> bool:
    """Whether the units standing allow a straight move that `ground_allowed` allows: it ends
    on and passes through none, and none blocks the line of sight its action asks for
    (`board.body_blocker`, the units part of a sight line)."""
    standing = bodies(state)  # (not the decision's `_mover`: Fight Through's offers ask this of a new window each time)
    if not _units_clear(standing, unit.id, kind(unit).base, position(unit), to, (), ignores_terrain(unit)):  # `_through_units` as a yes or no
        return False
    aim = find(state, window.keep_sight)
    return aim is None or aim.at is None or board.body_blocker(sighted(state, unit, to, level), sighted(state, aim), standing) is None


def _end_at(mover: _Mover, to: Point, level: int, there: Piece | None) -> board.Sighted:
    """The moving unit's end of a sight line after the move (`sighted(state, unit, to, level)`)."""
    return board.Sighted(at=to, scale=mover.scale + level, piece=there.id if there else None, level=level, id=mover.unit.id)


class _Mover(NamedTuple):
    """What every end of one unit's move shares: read once per decision (`_mover`), not once
    per sampled end. Each field is what `_breaches` used to ask of the state, the unit or
    the window, with the same answer."""

    unit: Unit
    window: Window
    start: Point
    stuck: bool
    """Kill Zone (`stuck`)."""
    free: bool
    """Flying or Jump Packs (`ignores_terrain`)."""
    reach: float
    """`allowance`, before climbing."""
    scale: int
    radius: float
    """The unit's base radius."""
    tall: tuple[tuple[Piece, int], ...]
    """The pieces it climbs (`_climbable`; none when it ignores terrain)."""
    here: Piece | None
    """The piece it starts in (only asked when `tall` has pieces)."""
    aim: Unit | None
    """Fight Through's target, on the table."""
    away: Unit | None
    """Fall Back's enemy, on the table."""
    locate: Callable[[Point], Piece | None]
    """`piece_at` on the table."""
    walls: tuple[Piece, ...]
    bodies: tuple[board.Body, ...]
    """Every unit on the table (`bodies`)."""
    aim_end: board.Sighted | None
    """The target's end of a sight line (`sighted`)."""
    sight: Callable[[board.Sighted, board.Sighted, tuple[board.Body, ...]], str | None]
    """What blocks a sight line on the table (`sees`'s question)."""
    bound: bool = True
    """Whether the window asks anything of where the move ends by distance (`_window_reach_allows`:
    Slalom's "must move", Fall Back's enemy, Fight Through's target); most moves ask nothing."""
    near: _Near | None = None
    """What a straight move ending within `reach` of its start may meet (`_near`): worked out
    for a decision's mover (`decision_mover`), whose ends are many."""


class _Near(NamedTuple):
    """`tall`, `walls` and `bodies` cut down to what a straight move that ends inside `box`
    (the square of `reach` round the start, where every sampled end falls) may meet: each
    test of `_climbing`, `_walls_clear` and `_units_clear` passes by a piece or a unit further
    than its own distance from the move's bounding box, and the move's bounding box is
    inside `box`; one inch more than those distances is kept, so no rounding decides it. A
    tall piece is kept also when its id is that of a piece in reach (`_climbing` finds the
    pieces at either end by id, before any box test)."""

    box: tuple[float, float, float, float]
    tall: tuple[tuple[Piece, int], ...]
    walls: tuple[Piece, ...]
    bodies: tuple[board.Body, ...]


MARGIN = 1.0
"""Inches kept round `_Near.box` beyond what each test measures."""


def _near(terrain: tuple[Piece, ...], start: Point, reach: float, radius: float, tall: tuple[tuple[Piece, int], ...],
          here: Piece | None, pieces: tuple[Piece, ...], standing: tuple[board.Body, ...]) -> _Near:
    x, y = start
    box = (x - reach, y - reach, x + reach, y + reach)
    lo_x, lo_y, hi_x, hi_y = x - reach - MARGIN, y - reach - MARGIN, x + reach + MARGIN, y + reach + MARGIN

    def meets(piece: Piece) -> bool:
        x0, y0, x1, y1 = piece.box
        return not (hi_x < x0 or lo_x > x1 or hi_y < y0 or lo_y > y1)

    ids = {piece.id for piece in terrain if meets(piece)} | ({here.id} if here is not None else set())
    reached = []
    for body in standing:
        room = radius + body.radius
        bx, by = body.at
        if lo_x - room <= bx <= hi_x + room and lo_y - room <= by <= hi_y + room:
            reached.append(body)
    return _Near(box=box, tall=tuple(entry for entry in tall if entry[0].id in ids),
                 walls=tuple(piece for piece in pieces if meets(piece)), bodies=tuple(reached))


def _within(box: tuple[float, float, float, float], p: Point) -> bool:
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


Mover = _Mover
"""What one unit's move in one window shares across its sampled ends (`decision_mover`)."""


@last_args  # a decision's sampled ends are all one unit's move (rulesets/memo.py)
def _mover(state: State, unit: Unit, window: Window) -> _Mover:
    start = position(unit)
    free = ignores_terrain(unit)
    scale = kind(unit).scale
    tall = () if free else _climbable(state, scale, has(unit, "ag_harness"))
    aim, away = find(state, window.keep_sight), find(state, window.away_from)
    aim = aim if aim is not None and aim.at is not None else None
    away = away if away is not None and away.at is not None else None
    return _Mover(unit=unit, window=window, start=start, stuck=stuck(unit, window), free=free, reach=allowance(unit, window),
                  scale=scale, radius=kind(unit).base, tall=tall, here=piece_at(state, start) if tall else None, aim=aim,
                  away=away, locate=locator(state), walls=walls(state), bodies=bodies(state),
                  aim_end=sighted(state, aim) if aim is not None else None, sight=sight_lines(state),
                  bound=window.must or away is not None or aim is not None)


def _breaches(state: State, mover: _Mover, to: Point, level: int, path: tuple[Point, ...]) -> Iterator[Problem]:
    unit, start = mover.unit, mover.start
    moved = board.distance(start, to)
    if mover.stuck and (moved > board.EPS or path):
        yield Problem("abilities.kill_zone", f"{unit.id} cannot move (Kill Zone)")
        return
    there = mover.locate(to)
    yield from _ground_problems(state, mover, to, level, path, there, moved)
    yield from _through_units(mover.bodies, unit, mover.radius, start, to, path, mover.free)
    yield from _window_problems(mover, to, level, there)


def _ground_problems(state: State, mover: _Mover, to: Point, level: int, path: tuple[Point, ...], there: Piece | None, moved: float) -> Iterator[Problem]:
    """`_breaches`' rules that read the table, the unit and the window alone (after Kill
    Zone): off the table, climbing, distance, standing halfway up, impassable terrain."""
    unit, start = mover.unit, mover.start
    yield from _table_problems(to, path)
    if mover.tall:
        cost, climbed = _climbing(mover.tall, mover.scale, mover.here, start, unit.level, there, to, level, path, mover.window.forced)
    else:
        cost, climbed = 0, []
    if climbed and has(unit, "need_for_speed"):
        yield Problem("abilities.need_for_speed", f"{unit.id} may not climb terrain (Need for Speed): it would climb {', '.join(climbed)}")
    limit = mover.reach - cost
    if moved > limit + 1e-9:
        why = f" ({mover.reach:g}\" less {cost}\" climbing {', '.join(climbed)})" if cost else ""
        yield Problem("movement.distance", f"{unit.id} ends {moved:.2f}\" from where it started; it may move up to {limit:g}\"{why}")
    if level not in ((0,) if there is None else there.heights()):  # `heights_at`, the piece already found
        yield Problem("climbing.halfway", _stand_message(state, to, level))
    yield from _through_walls(mover.walls, unit, start, to, path, mover.free)


def _ground_allows(mover: _Mover, to: Point, level: int, path: tuple[Point, ...], there: Piece | None, moved: float, near: _Near | None) -> bool:
    """`_ground_problems` finds nothing, as a yes or no: the same questions of the same
    numbers, without a generator per rule or a message (a move's sampled ends ask it by the
    dozen; `tests/frontier/test_quick_refusals.py` holds the two together). `near`: the
    mover's pieces in reach (`_Near`), for a straight move ending in its box."""
    if not missions.on_table(to) or (path and not all(map(missions.on_table, path))):
        return False
    unit = mover.unit
    cost = 0
    tall, pieces = (mover.tall, mover.walls) if near is None else (near.tall, near.walls)
    if tall:  # (no piece to climb: no cost, nothing climbed)
        cost, climbed = _climbing(tall, mover.scale, mover.here, mover.start, unit.level, there, to, level, path, mover.window.forced)
        if climbed and has(unit, "need_for_speed"):
            return False
    if moved > mover.reach - cost + 1e-9:
        return False
    if level not in ((0,) if there is None else there.heights()):
        return False
    return not pieces or _walls_clear(pieces, mover.start, to, path, mover.free)


def _table_problems(to: Point, path: tuple[Point, ...]) -> Iterator[Problem]:
    if not path and missions.on_table(to):
        return  # the one point of most moves, without the list
    off = [p for p in (*path, to) if not missions.on_table(p)]
    if off:
        yield Problem("movement.table", f"{off[0]} is off the table")


def _stand_message(state: State, to: Point, level: int) -> str:
    found = piece_at(state, to)
    if found is None:
        return f"nothing at {to} stands {level} high: a unit in the open stands at height 0"
    return (f"{found.label or found.id} has no level at height {level} (it has {', '.join(map(str, found.heights()))}): "
            "a unit may not stop halfway up")


def _terrain_problems(state: State, unit: Unit, start: Point, to: Point, path: tuple[Point, ...], free: bool) -> Iterator[Problem]:
    """"Units may not move through impassable terrain" (nor stop in it)."""
    return _through_walls(walls(state), unit, start, to, path, free)


def _through_walls(pieces: tuple[Piece, ...], unit: Unit, start: Point, to: Point, path: tuple[Point, ...], free: bool) -> Iterator[Problem]:
    points = (start, *path, to)
    lo_x, lo_y, hi_x, hi_y = _box(points)
    for piece in pieces:
        x0, y0, x1, y1 = piece.box
        if hi_x < x0 - board.EPS or lo_x > x1 + board.EPS or hi_y < y0 - board.EPS or lo_y > y1 + board.EPS:
            continue  # the move's box is more than EPS off the piece's: it neither ends in it (`inside`) nor enters it
        if board.inside(to, piece.outline):
            yield Problem("terrain.impassable", f"{unit.id} may not end its move in {piece.label or piece.id} (impassable)")
        elif not free and board.path_enters(points, piece.outline):
            yield Problem("terrain.impassable", f"{unit.id} may not move through {piece.label or piece.id} (impassable)")


def _walls_clear(pieces: tuple[Piece, ...], start: Point, to: Point, path: tuple[Point, ...], free: bool) -> bool:
    """`_through_walls` finds nothing, as a yes or no (the same tests, piece by piece)."""
    points = (start, *path, to)
    lo_x, lo_y, hi_x, hi_y = _box(points)
    for piece in pieces:
        x0, y0, x1, y1 = piece.box
        if hi_x < x0 - board.EPS or lo_x > x1 + board.EPS or hi_y < y0 - board.EPS or lo_y > y1 + board.EPS:
            continue
        if board.inside(to, piece.outline) or (not free and board.path_enters(points, piece.outline)):
            return False
    return True


def _unit_problems(state: State, unit: Unit, start: Point, to: Point, path: tuple[Point, ...], free: bool) -> Iterator[Problem]:
    """"It may not move through other units (Friendly or otherwise)", nor end on one."""
    return _through_units(bodies(state), unit, kind(unit).base, start, to, path, free)


def _through_units(standing: tuple[board.Body, ...], unit: Unit, radius: float, start: Point, to: Point, path: tuple[Point, ...], free: bool) -> Iterator[Problem]:
    points = (start, *path, to)
    lo_x, lo_y, hi_x, hi_y = _box(points)
    tx, ty = to
    for other in standing:  # every unit on the table, with its base radius
        if other.id == unit.id:
            continue
        room = radius + other.radius - SLACK
        ox, oy = at = other.at
        if abs(ox - tx) < room and abs(oy - ty) < room and board.distance(to, at) < room:
            # (further than `room` along one axis is further than `room`: hypot never falls below either side)
            yield Problem("movement.through-units", f"{unit.id} would end on top of {other.id}")
        elif free or ox < lo_x - room or ox > hi_x + room or oy < lo_y - room or oy > hi_y + room:
            continue  # further than `room` from the move's bounding box: from the whole move
        elif board.path_point_distance(points, at) < room:
            yield Problem("movement.through-units", f"{unit.id} may not move through {other.id}")


def _units_clear(standing: tuple[board.Body, ...], unit_id: str, radius: float, start: Point, to: Point, path: tuple[Point, ...], free: bool) -> bool:
    """`_through_units` finds nothing, as a yes or no (the same tests, unit by unit)."""
    points = (start, *path, to)
    lo_x, lo_y, hi_x, hi_y = _box(points)
    tx, ty = to
    for other in standing:
        if other.id == unit_id:
            continue
        room = radius + other.radius - SLACK
        ox, oy = at = other.at
        if abs(ox - tx) < room and abs(oy - ty) < room and board.distance(to, at) < room:
            return False
        if free or ox < lo_x - room or ox > hi_x + room or oy < lo_y - room or oy > hi_y + room:
            continue
        if board.path_point_distance(points, at) < room:
            return False
    return True


def _window_problems(mover: _Mover, to: Point, level: int, there: Piece | None) -> Iterator[Problem]:
    """What the move's action or reaction asks of where it ends (`there`: the piece at `to`)."""
    yield from _window_reach_problems(mover, to)
    aim = mover.aim
    if aim is not None and mover.aim_end is not None and board.distance(to, mover.aim_end.at) <= 10 + board.EPS \
            and mover.sight(_end_at(mover, to, level, there), mover.aim_end, mover.bodies) is not None:  # `sees(state, unit, aim, a_at=to, a_level=level)`
        yield Problem("actions.fight_through", f"after its move {mover.unit.id} must have line of sight to {aim.id}")


def _window_reach_problems(mover: _Mover, to: Point) -> Iterator[Problem]:
    """What the move's action or reaction asks of where it ends, by distances alone: Slalom's
    "must move", Fall Back's "further from", Fight Through's "within 10"" (its line of sight
    is `_window_problems`' own)."""
    start = mover.start
    if mover.window.must and board.distance(start, to) <= board.EPS:
        yield Problem("abilities.slalom", f"{mover.unit.id} must move (Slalom)")
    away = mover.away
    if away is not None and away.at is not None and board.distance(to, away.at) <= board.distance(start, away.at) + board.EPS:
        yield Problem("reactions.fall_back", f"Fall Back must end further from {away.id} than it started")
    aim = mover.aim
    if aim is not None and aim.at is not None:
        reach = board.distance(to, aim.at)
        if reach > 10 + board.EPS:
            yield Problem("actions.fight_through", f'after its move {aim.id} must be within 10"; it is {reach:.1f}" away')


def _window_reach_allows(mover: _Mover, to: Point) -> bool:
    """`_window_reach_problems` finds nothing, as a yes or no (the same distances)."""
    start = mover.start
    if mover.window.must and board.distance(start, to) <= board.EPS:
        return False
    away = mover.away
    if away is not None and away.at is not None and board.distance(to, away.at) <= board.distance(start, away.at) + board.EPS:
        return False
    aim = mover.aim
    return aim is None or aim.at is None or board.distance(to, aim.at) <= 10 + board.EPS


def _sight_allows(mover: _Mover, to: Point, level: int, there: Piece | None) -> bool:
    """`_window_problems` finds nothing once `_window_reach_allows` has said yes: Fight
    Through's line of sight from where the move ends (asked only within 10")."""
    aim_end = mover.aim_end
    return (mover.aim is None or aim_end is None or board.distance(to, aim_end.at) > 10 + board.EPS
            or mover.sight(_end_at(mover, to, level, there), aim_end, mover.bodies) is None)


# --- what a move does besides moving ---------------------------------------------------------


def fall(unit: Unit, drop: int) -> str | None:
    """frontier.md, Falling: None (no penalty), `shaken` or `destroyed` for a drop of `drop` scale.

    "equal or smaller scale ... no penalties; greater than its scale but less than double its
    scale then it is shaken; equal or greater than double its scale then it is destroyed."
    """
    scale = kind(unit).scale
    if drop <= scale:
        return None
    return "destroyed" if drop >= 2 * scale else "shaken"


def fallen(state: State, unit: Unit, start: Point, z0: int, to: Point, z1: int) -> int:
    """How far a unit moved off terrain drops (0 if it stayed on it or did not go down)."""
    here, there = piece_at(state, start), piece_at(state, to)
    if z0 <= 0 or z1 >= z0:
        return 0
    if here is not None and there is not None and here.id == there.id:
        return 0  # still in (or on) the same piece: it went down inside, not off it
    return z0 - z1


def in_contact(params: Params, a: Unit, at: Point, b: Unit) -> bool:
    """Base contact: bases touching, within the table's measuring slack."""
    return b.at is not None and board.distance(at, b.at) <= kind(a).base + kind(b).base + params.base_contact


def tokens_reached(state: State, unit: Unit, path: tuple[Point, ...]) -> list[str]:
    """Mines and knife missiles of the other side the unit came within 5" of on its way."""
    hit = []
    for t in state.tokens:
        mine = t.kind in ("mine", "knife_missile") and t.owner is not None and t.owner != unit.side
        if mine and board.path_point_distance(path, t.at) <= TOKEN_REACH + board.EPS:
            hit.append(t.id)
    return hit


def victims_of_token(state: State, owner: str, path: tuple[Point, ...]) -> list[Unit]:
    """Enemy units a token passing along `path` comes within 5" of, nearest its start first."""
    found = [u for u in on_board(state) if u.side != owner and board.path_point_distance(path, position(u)) <= TOKEN_REACH + board.EPS]
    return sorted(found, key=lambda u: (board.distance(path[0], position(u)), u.id))


class Push(NamedTuple):
    """Where Repulsor Field sends a unit and whether it collided."""

    unit: str
    to: Point
    level: int
    collided: str | None


def repulse(state: State, captain: Unit) -> list[Push]:
    """Repulsor Field: "Every unit within 5" is moved 5" directly away from this unit. If this
    would cause a unit to collide with anything of an equal or higher scale then that unit is
    shaken." Every push is worked out from where units stood before the field fired; a unit
    stops where it would collide (terrain it could not stand in at its height, a unit of its
    scale or more, the table edge)."""
    centre = position(captain)
    pushes = []
    for unit in on_board(state):
        if unit.id == captain.id or cannot_move(unit):
            continue
        start = position(unit)
        if board.distance(centre, start) > NEAR + board.EPS:
            continue
        aim = board.toward(centre, start, board.distance(centre, start) + NEAR) if board.distance(centre, start) > board.EPS else board.polar(start, 0, NEAR)
        pushes.append(_push(state, unit, start, aim))
    return pushes


def _push(state: State, unit: Unit, start: Point, aim: Point) -> Push:
    scale = kind(unit).scale
    stop, what = 1.0, None
    home = piece_at(state, start)
    for piece in state.terrain:
        if home is not None and piece.id == home.id:
            continue
        if piece.scale < scale or piece.scale <= unit.level or (piece.enterable() and unit.level == 0 and not piece.impassable()):
            continue
        t = board.first_entry(start, aim, piece.outline)
        if t is not None and t < stop:
            stop, what = t, piece.label or piece.id
    reach = board.distance(start, aim)
    radius = kind(unit).base
    for other in on_board(state):
        if other.id == unit.id or kind(other).scale + other.level < scale + unit.level:
            continue
        t = _contact_along(start, aim, position(other), radius + kind(other).base)
        if t is not None and t < stop:
            stop, what = t, other.id
    t_edge = _edge_along(start, aim)
    if t_edge < stop:
        stop, what = t_edge, "the table edge"
    end = board.toward(start, aim, max(0.0, stop * reach - (SLACK if what else 0.0)))
    if what == "the table edge":
        what = None  # the edge stops it, but is not "anything of an equal or higher scale"
    level = unit.level if (home is not None and board.inside(end, home.outline)) else _landing(state, end, unit.level)
    return Push(unit=unit.id, to=end, level=level, collided=what)


def _landing(state: State, p: Point, height: int) -> int:
    """The height a unit pushed to p comes down at: the highest level there not above where it was."""
    levels = [h for h in heights_at(state, p) if h <= height]
    return max(levels) if levels else 0


def _contact_along(a: Point, b: Point, c: Point, room: float) -> float | None:
    """First t in (0, 1] where a point moving a->b comes within `room` of c (None if never,
    or if it starts there)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    fx, fy = a[0] - c[0], a[1] - c[1]
    qa = dx * dx + dy * dy
    qb = 2 * (fx * dx + fy * dy)
    qc = fx * fx + fy * fy - room * room
    if qa < board.EPS or qc <= 0:
        return None
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return None
    t = (-qb - disc ** 0.5) / (2 * qa)
    return t if 0 <= t <= 1 else None


def _edge_along(a: Point, b: Point) -> float:
    """The t at which a->b leaves the table (1.0 if it stays on)."""
    t = 1.0
    for axis, limit in ((0, missions.WIDTH), (1, missions.HEIGHT)):
        d = b[axis] - a[axis]
        if d > board.EPS and b[axis] > limit:
            t = min(t, (limit - a[axis]) / d)
        if d < -board.EPS and b[axis] < 0:
            t = min(t, -a[axis] / d)
    return t


# --- sampling moves (legal() offers a few end points; the table may move anywhere) ------------------


def snap(p: Point) -> Point:
    """A point rounded to a hundredth of an inch and kept on the table."""
    x, y = p
    # min(max(v, 0.0), edge), without the calls (a -0.0 stays -0.0, as max keeps its first argument)
    x = 0.0 if x < 0.0 else WIDTH if x > WIDTH else x
    y = 0.0 if y < 0.0 else HEIGHT if y > HEIGHT else y
    return (round(x, 2), round(y, 2))


def sample_ends(state: State, unit: Unit, window: Window, goals: tuple[Point, ...] = (), *, directions: int = 12) -> list[tuple[Point, int]]:
    """Candidate end points (and heights) for a move: rings around the unit at its full and half
    reach, and straight toward each goal (stopping short of it). Deterministic: no dice."""
    start = position(unit)
    reach = max(allowance(unit, window) - 0.02, 0.0)
    points: list[Point] = []
    x, y = start
    for radius in (reach, reach / 2):
        points += ring(start, radius, directions)
    for goal in goals:
        d = board.distance(start, goal)
        if d > 1.5:
            points.append(board.toward(start, goal, min(reach, d - 1.2)))
    seen: set[Point] = set()
    ends: list[tuple[Point, int]] = []
    locate = locator(state)
    hypot = math.hypot
    for p in points:
        q = snap(p)
        if q in seen or hypot(x - q[0], y - q[1]) <= board.EPS:  # (`board.distance(q, start)`, without the call)
            continue
        seen.add(q)
        there = locate(q)  # `heights_at(state, q)`, the table's locator asked once
        if there is None:
            ends.append((q, 0))
        else:
            ends += [(q, h) for h in there.heights()]
    return ends


def ring(centre: Point, radius: float, directions: int) -> list[Point]:
    """`board.polar(centre, i * 360 / directions, radius)` for each of `directions` headings
    round a circle, from the kept cosines and sines (`_ring`: the same floats)."""
    x, y = centre
    return [(x + radius * c, y + radius * s) for c, s in _ring(directions)]


@functools.lru_cache(maxsize=8)
def _ring(directions: int) -> tuple[tuple[float, float], ...]:
    """The cosine and sine of each of `directions` headings round a circle, as `board.polar`
    works them out (the same floats): every sampled move asks them of the same dozen angles."""
    return tuple((math.cos(rad), math.sin(rad)) for rad in (math.radians(i * 360 / directions) for i in range(directions)))


def any_move(params: Params, state: State, unit: Unit, window: Window) -> bool:
    """Whether the unit can make some move of this window at all (for "must move")."""
    probe = replace(window, must=False)
    for radius in (allowance(unit, window) - 0.02, 2.5, 1.0, 0.5):
        for i in range(16):
            to = snap(board.polar(position(unit), i * 22.5, max(radius, 0.1)))
            for h in heights_at(state, to):
                if board.distance(to, position(unit)) > board.EPS and move_allowed(params, state, unit, probe, to, h, ()):
                    return True
    return False


def detours(state: State, unit: Unit, to: Point) -> list[tuple[Point, ...]]:
    """Paths round the first unit standing in the way of a straight move: one waypoint to
    either side of it, just clear of both bases."""
    start = position(unit)
    radius = kind(unit).base
    lo_x, hi_x = (start[0], to[0]) if start[0] <= to[0] else (to[0], start[0])
    lo_y, hi_y = (start[1], to[1]) if start[1] <= to[1] else (to[1], start[1])
    blockers = []
    for o in on_board(state):
        room = radius + kind(o).base
        ox, oy = position(o)
        if o.id == unit.id or ox < lo_x - room - MARGIN or ox > hi_x + room + MARGIN or oy < lo_y - room - MARGIN or oy > hi_y + room + MARGIN:
            continue  # an inch more than `room` off the segment's box: further than `room` from the segment
        if board.point_segment_distance((ox, oy), start, to) < room:
            blockers.append(o)
    if not blockers or board.distance(start, to) <= board.EPS:
        return []
    first = min(blockers, key=lambda o: board.distance(start, position(o)))
    dx, dy = to[0] - start[0], to[1] - start[1]
    length = board.distance(start, to)
    side = (-dy / length, dx / length)
    room = kind(unit).base + kind(first).base + 0.2
    centre = position(first)
    return [(snap((centre[0] + s * side[0] * room, centre[1] + s * side[1] * room)),) for s in (1, -1)]
