"""Frontier's rules: setup, the check of every event, its effect, and the outcome.

One small handler per event type for `check` and one for `apply`. `check` names every
rule an event breaks; `apply` folds the event in as the table played it, legal or not,
so a replay goes on past a table's mistake exactly as the game did. Comments cite the
passage of ../shared/rules/frontier.md each rule encodes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets.frontier import abilities, board, effects, missions, movement, rolls, units
from rulesets.frontier.events import (
    AbilityUsed,
    ActionDeclared,
    ActionRolled,
    ArmySelected,
    ChargeDefused,
    ChargePlaced,
    ChargesDetonated,
    DeploymentDone,
    DisciplineTested,
    EdgeChosen,
    FactionChosen,
    MarkerPlaced,
    NanitesRolled,
    Passed,
    ReactionDeclared,
    RoleChosen,
    RolesRolled,
    StrongPointSeized,
    TerrainAgreed,
    TerrainMoved,
    TerrainPlaced,
    TokenMoved,
    UnitDeployed,
    UnitMoved,
    UnitReserved,
    VipEscorted,
)
from rulesets.frontier.params import MISSIONS, Params
from rulesets.frontier.ruleids import RULE_IDS
from rulesets.frontier.state import (
    ACTIONS,
    NEAR,
    REACTIONS,
    TERRAIN_RULES,
    Activation,
    Piece,
    State,
    Trace,
    Turn,
    Unit,
    Window,
    army_of,
    army_points,
    attacker_losses,
    bodies,
    current_wave,
    defender,
    enemies_of,
    evac_distance,
    evac_edges,
    faction_of,
    find,
    gap,
    has,
    kind,
    layout,
    make_piece,
    marker,
    objective_done,
    on_board,
    other_seat,
    piece_at,
    position,
    replace_unit,
    role_of,
    seat_of,
    sees,
    sees_point,
    terrain_rules,
    token,
    unit_ids,
)
from rulesets.frontier.state import piece as terrain_piece
from rulesets.frontier.timing import (
    Problems,
    at_step_two,
    front,
    pending_text,
    reactive_seat,
    settled,
    strategic_problems,
    violation,
)
from rulesets.memo import last_args, last_state
from rulesets.protocol import Outcome, Violation

replace = msgspec.structs.replace
_v = violation


# --- setup --------------------------------------------------------------------------------


def _options(started: MatchStarted) -> dict[str, Any]:
    return dict(started.options or {})


def validate_start(params: Params, started: MatchStarted) -> list[str]:
    """Two players (Introduction: "Frontier is designed for two players") and valid options."""
    problems = []
    seats = list(started.seats)
    if len(seats) != 2:
        problems.append(f"Frontier is played by two players, not {len(seats)}")
    options = _options(started)
    unknown = sorted(set(options) - {"mission", "points", "factions", "armies"})
    if unknown:
        problems.append(f"unknown option(s) {', '.join(unknown)}; Frontier's options: mission, points, factions, armies")
    mission = options.get("mission", "assault")
    if mission not in MISSIONS:
        problems.append(f"mission {mission!r} is not one of {', '.join(MISSIONS)}")
    points = options.get("points", params.points)
    if points is not None and (not isinstance(points, int) or isinstance(points, bool) or points <= 0):
        problems.append(f"points must be a positive whole number, not {points!r}")
    problems += _agreed_problems(options, seats, points if isinstance(points, int) else params.points)
    return problems


def _agreed_problems(options: dict[str, Any], seats: list[str], points: int) -> list[str]:
    problems = []
    factions = options.get("factions") or {}
    armies = options.get("armies") or {}
    if not isinstance(factions, dict) or not isinstance(armies, dict):
        return ["factions and armies are {seat: ...} tables"]
    for seat, faction in factions.items():
        if seat not in seats:
            problems.append(f"factions names seat {seat!r}, which is not at the table")
        elif faction not in units.FACTIONS:
            problems.append(f"faction {faction!r} is not one of {', '.join(units.FACTIONS)}")
    for seat, army in armies.items():
        if seat not in seats or not isinstance(army, list):
            problems.append(f"armies names seat {seat!r}, which is not at the table, or gives no list")
            continue
        wrong = [t for t in army if t not in units.UNITS]
        if wrong:
            problems.append(f"armies for {seat}: no unit type {', '.join(map(str, wrong))}")
        elif army_points(tuple(army)) > points:
            problems.append(f"armies for {seat}: {army_points(tuple(army))} points is over the {points} point limit")
    return problems


def setup(params: Params, started: MatchStarted) -> State:
    """An empty table: terrain is placed first (Setup: "2. Setup the board with terrain")."""
    options = _options(started)
    points = options.get("points") or params.points
    factions = tuple(sorted((str(s), str(f)) for s, f in (options.get("factions") or {}).items()))
    armies = tuple(sorted((str(s), tuple(str(t) for t in a)) for s, a in (options.get("armies") or {}).items()))
    return State(seats=tuple(started.seats), mission=str(options.get("mission", "assault")), points=int(points),
                 agreed_factions=factions, agreed_armies=armies)


# --- helpers --------------------------------------------------------------------------------


def _by(state: State, event: Event, seat: str | None, what: str) -> Problems:
    """The event must be recorded by the seat whose decision it is."""
    if seat is not None and event.by != seat:
        return [_v(event, "turn.player", f"{what} is for {seat} to decide, not {event.by or 'an unnamed seat'}")]
    return []


def _in_play(params: Params, state: State, event: Event) -> Problems:
    if state.stage != "play" or state.turn is None:
        return [_v(event, "turn.sequence", f"{type(event).__name__} before play has begun (stage: {state.stage})")]
    if (result := outcome(params, state)) is not None:
        return [_v(event, "ending.game-over", f"the game is already over: {result.reason}")]
    return []


def _seat_ok(state: State, event: Event) -> Problems:
    if event.by not in state.seats:
        return [_v(event, "setup.seat", f"{event.by or 'no seat'} is not a seat at this table ({', '.join(state.seats)})")]
    return []


def _unit_of(state: State, event: Event, unit_id: str, seat: str | None) -> tuple[Problems, Unit | None]:
    unit = find(state, unit_id)
    if unit is None:
        return [_v(event, "units.unknown", f"no unit {unit_id!r} is in this game")], None
    if seat is not None and unit.side != seat:
        return [_v(event, "units.owner", f"{unit_id} belongs to {unit.side}, not {seat}")], unit
    return [], unit


# --- terrain and setup checks (Setup; Terrain; Faction and Unit Selection) ----------------------


def _check_terrain(params: Params, state: State, event: TerrainPlaced) -> Problems:
    if state.stage != "terrain":
        return [_v(event, "setup.order", "terrain is set up before the roll for attacker and defender (Setup, step 2)")]
    problems = []
    if any(t.id == event.piece for t in state.terrain):
        problems.append(_v(event, "terrain.piece", f"a piece called {event.piece!r} is already on the table"))
    if not board.is_simple(event.outline):
        problems.append(_v(event, "terrain.outline", "the outline must be a simple polygon of three or more corners"))
    elif not all(missions.on_table(p) for p in event.outline):
        problems.append(_v(event, "terrain.outline", 'the outline runs off the 44" x 30" table'))
    if event.scale < 0:
        problems.append(_v(event, "terrain.scale", "a terrain piece's scale is 0 or more"))
    heights = [lv.height for lv in event.levels]
    if any(not 0 <= h <= event.scale for h in heights) or len(set(heights)) != len(heights):
        problems.append(_v(event, "terrain.levels", f"levels must be distinct heights from 0 to the piece's scale ({event.scale})"))
    unknown = sorted({r for lv in event.levels for r in lv.rules} - set(TERRAIN_RULES))
    if unknown:
        problems.append(_v(event, "terrain.rules", f"unknown terrain rule(s) {', '.join(unknown)}; the rules: {', '.join(TERRAIN_RULES)}"))
    if not problems:
        problems += _overlaps(state, event, event.outline)
    return problems


def _overlaps(state: State, event: TerrainPlaced | TerrainMoved, outline: tuple[board.Point, ...]) -> Problems:
    """A warning naming the other pieces `outline` overlaps (pieces whose boxes do not meet
    are not measured)."""
    box = board.outline_box(outline)
    overlapping = [t.id for t in state.terrain if t.id != event.piece and covers(t, outline, box)]
    if overlapping:
        return [_v(event, "terrain.overlap", f"{event.piece} overlaps {', '.join(overlapping)}: where pieces overlap the first placed counts", "warning")]
    return []


def covers(piece: Piece, outline: tuple[board.Point, ...], box: tuple[float, float, float, float]) -> bool:
    """Whether a piece on the table shares some area with an outline whose bounds are `box`
    (pieces whose boxes do not meet are not measured)."""
    return board.boxes_meet(piece.box, box) and _overlap(piece.outline, outline)


def still_placeable(piece: Piece, event: TerrainPlaced | TerrainMoved, outline: tuple[board.Point, ...]) -> bool:
    """Whether a placement the rules accepted stays accepted once `piece` is put down as well:
    a new piece only adds overlaps (`_check_terrain`, `_check_terrain_moved`), with `outline`
    where the event puts its own piece; a piece of the same id is not measured against it."""
    return event.piece == piece.id or not covers(piece, outline, board.outline_box(outline))


@lru_cache(maxsize=1 << 15)
def _overlap(one: tuple[board.Point, ...], two: tuple[board.Point, ...]) -> bool:
    """Whether two outlines share some area. Pure geometry, memoised: while the table is set up
    every position asks it again of each sampled placement and each piece already down."""
    if not board.polygons_touch(one, two):
        return False
    return any(board.length_inside(a, b, two) > board.EPS for a, b in board.edges(one)) or board.inside(board.centroid(one), two)


def _check_terrain_moved(params: Params, state: State, event: TerrainMoved) -> Problems:
    """A piece moved while the table is set up (readings: terrain.move, assumed)."""
    if state.stage != "terrain":
        return [_v(event, "setup.order", "terrain is moved only while the board is set up, before it is agreed (Setup, step 2)")]
    found = terrain_piece(state, event.piece)
    if found is None:
        return [_v(event, "terrain.piece", f"no piece called {event.piece!r} is on the table to move")]
    outline = board.moved_to(found.outline, event.to)
    if not all(missions.on_table(p) for p in outline):
        return [_v(event, "terrain.outline", 'the moved piece would run off the 44" x 30" table')]
    if outline == found.outline:
        return [_v(event, "terrain.move", f"{event.piece} is already there")]
    return _overlaps(state, event, outline)


def _check_agreed(params: Params, state: State, event: TerrainAgreed) -> Problems:
    """"A board should include a mixture of terrain from scale 0 up to at least scale 3"."""
    if state.stage != "terrain":
        return [_v(event, "setup.order", "the terrain was already agreed")]
    scales = {t.scale for t in state.terrain}
    if 0 not in scales or not any(s >= 3 for s in scales):
        return [_v(event, "terrain.mixture", f"the board should have terrain from scale 0 up to at least scale 3; it has scales {sorted(scales) or 'none'}", "warning")]
    return []


def _check_roles_rolled(params: Params, state: State, event: RolesRolled) -> Problems:
    if state.stage != "roles" or state.roll_winner is not None:
        return [_v(event, "roles.roll", "the roll for attacker and defender comes once, after the terrain is agreed")]
    problems = []
    if set(event.rolls) != set(state.seats):
        problems.append(_v(event, "roles.roll", f"each seat rolls once: {', '.join(state.seats)}"))
    problems += [_v(event, "roles.roll", f"a D{params.role_die} cannot show {v}") for v in event.rolls.values() if not 1 <= v <= params.role_die]
    return problems


def _check_role_chosen(params: Params, state: State, event: RoleChosen) -> Problems:
    if state.stage != "roles" or state.roll_winner is None:
        return [_v(event, "roles.choice", "no one has won the roll for attacker and defender yet")]
    problems = _by(state, event, state.roll_winner, "the choice of attacker or defender")
    if event.role not in missions.ROLES:
        problems.append(_v(event, "roles.choice", f"the role is attacker or defender, not {event.role!r}"))
    return problems


def _check_faction(params: Params, state: State, event: FactionChosen) -> Problems:
    if state.stage != "selection":
        return [_v(event, "selection.order", "factions are chosen after the roll for attacker and defender (Setup, step 4)")]
    problems = _seat_ok(state, event)
    if faction_of(state, event.by or "") is not None:
        problems.append(_v(event, "selection.faction", f"{event.by} already announced {faction_of(state, event.by or '')}"))
    if event.faction not in units.FACTIONS:
        problems.append(_v(event, "selection.faction", f"{event.faction!r} is not a faction: {', '.join(units.FACTIONS)}"))
    agreed = dict(state.agreed_factions).get(event.by or "")
    if agreed is not None and agreed != event.faction:
        problems.append(_v(event, "setup.options", f"the match agreed {event.by} plays {agreed}"))
    return problems


def _check_army(params: Params, state: State, event: ArmySelected) -> Problems:
    """"select units from that faction up to the point limit for the mission"; factions first."""
    if state.stage != "selection":
        return [_v(event, "selection.order", "armies are chosen after the roll for attacker and defender")]
    problems = _seat_ok(state, event)
    if any(faction_of(state, s) is None for s in state.seats):
        problems.append(_v(event, "selection.order", "both players announce their faction before picking units"))
    if army_of(state, event.by or "") is not None:
        problems.append(_v(event, "selection.units", f"{event.by} already chose their units"))
    faction = faction_of(state, event.by or "")
    wrong = [t for t in event.units if t not in units.UNITS or (faction is not None and units.UNITS[t].faction != faction)]
    if wrong:
        problems.append(_v(event, "selection.faction", f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} not {faction or 'a'} unit(s)"))
    if not event.units:
        problems.append(_v(event, "selection.units", "an army has at least one unit"))
    total = army_points(event.units)
    if total > state.points:
        problems.append(_v(event, "selection.points", f"the army costs {total} points; the mission's limit is {state.points}"))
    agreed = dict(state.agreed_armies).get(event.by or "")
    if agreed is not None and sorted(agreed) != sorted(event.units):
        problems.append(_v(event, "setup.options", f"the match agreed {event.by}'s army: {', '.join(agreed)}"))
    return problems


# --- deployment checks (Setting up a game; each mission's Deployment) -------------------------------


def _wave_problems(state: State, event: Event, what: str) -> tuple[Problems, missions.Wave | None, str | None]:
    wave = current_wave(state)
    if wave is None:
        return [_v(event, "deployment.order", f"{what} outside deployment (stage: {state.stage})")], None, None
    seat = seat_of(state, wave.role)
    return _by(state, event, seat, f"this step of {state.mission}'s deployment ({wave.role})"), wave, seat


def _wave_ready(state: State, event: Event, wave: missions.Wave) -> Problems:
    if wave.edge == "long" and wave.role == "defender" and not state.defender_edges:
        return [_v(event, "deployment.order", f"the {wave.role} picks a long board edge first")]
    if wave.edge == "corner" and not state.attacker_edges:
        return [_v(event, "deployment.order", "the attacker picks two adjacent board edges first")]
    if wave.marker is not None and marker(state, wave.marker) is None:
        return [_v(event, "deployment.order", f"the {wave.marker.replace('_', ' ')} is placed first")]
    return []


def _check_edge(params: Params, state: State, event: EdgeChosen) -> Problems:
    problems, wave, _ = _wave_problems(state, event, "an edge choice")
    if wave is None:
        return problems
    if wave.edge is None or (wave.role == "defender" and state.defender_edges) or (wave.role == "attacker" and state.attacker_edges):
        return [*problems, _v(event, "deployment.edges", "no edge is to be chosen now")]
    if wave.edge == "long" and (len(event.edges) != 1 or event.edges[0] not in missions.LONG_EDGES):
        problems.append(_v(event, "deployment.edges", f"pick one long board edge: {' or '.join(missions.LONG_EDGES)}"))
    if wave.edge == "corner" and not (len(event.edges) == 2 and set(event.edges) & set(missions.LONG_EDGES) and set(event.edges) & set(missions.SHORT_EDGES)):
        problems.append(_v(event, "deployment.edges", "pick two adjacent board edges: one long (north/south) and one short (west/east)"))
    return problems


def marker_refused(params: Params, state: State, event: MarkerPlaced) -> bool:
    """Whether `check` finds anything wrong with a mission marker placed, without building its
    problems: before play, what `_check_marker` asks of the step, the seat and the marker is
    asked once per decision (`_marker_step_refused`: a set-up offers thirty points), then the
    point as a yes or no (`missions.marker_allowed`). In play it is `check`."""
    if state.stage == "play":
        return bool(check(params, state, event))
    return (_marker_step_refused(params, state, event.by, event.marker)
            or not missions.marker_allowed(state.mission, event.marker, event.point, layout(state)))


@last_args  # a decision's marker points share the step, the seat and the marker (rulesets/memo.py)
def _marker_step_refused(params: Params, state: State, by: str | None, kind_: str) -> bool:
    problems, wave = _marker_step(state, MarkerPlaced(by=by, marker=kind_, point=(0.0, 0.0)))
    return wave is None or bool(problems)


def _marker_step(state: State, event: MarkerPlaced) -> tuple[Problems, missions.Wave | None]:
    """What is wrong with a marker placed before play whatever its point (the step, the seat,
    the marker), and the step (None where the point is not then measured)."""
    problems, wave, _ = _wave_problems(state, event, "a marker")
    if wave is None:
        return problems, None
    if wave.marker != event.marker or marker(state, event.marker) is not None:
        return [*problems, _v(event, "deployment.order", f"no {event.marker} is to be placed now")], None
    if wave.edge is not None and not (state.defender_edges if wave.role == "defender" else state.attacker_edges):
        problems.append(_v(event, "deployment.order", f"the {wave.role} picks the edge first"))
    return problems, wave


def _check_marker(params: Params, state: State, event: MarkerPlaced) -> Problems:
    window = front(state.turn) if state.stage == "play" else None
    if window is not None and window.kind == "strong_point":
        return _check_new_strong_point(params, state, event, window)
    problems, wave = _marker_step(state, event)
    if wave is None:
        return problems
    problem = missions.marker_problem(state.mission, event.marker, event.point, layout(state))
    if problem:
        problems.append(_v(event, f"missions.{state.mission}.marker", problem))
    return problems


def _check_new_strong_point(params: Params, state: State, event: MarkerPlaced, window: Window) -> Problems:
    """"the defender then places a new strong point exactly 15" from the old strong point"."""
    problems = _by(state, event, window.seat, "the new strong point")
    if event.marker != "strong_point":
        problems.append(_v(event, "missions.assault.strong-point", "the defender places a new strong point now"))
    away = board.distance(event.point, window.origin or event.point)
    if abs(away - 15) > params.exact_tolerance:
        problems.append(_v(event, "missions.assault.strong-point", f'the new strong point must be exactly 15" from the old one; it is {away:.2f}"'))
    if not missions.on_table(event.point):
        problems.append(_v(event, "missions.assault.strong-point", f"{event.point} is off the table"))
    return problems


def _standing_problems(state: State, event: Event, unit: Unit, at: board.Point, level: int, rule: str) -> Problems:
    problems = []
    if not missions.on_table(at):
        return [_v(event, rule, f"{at} is off the table")]
    found = piece_at(state, at)
    if level not in ((0,) if found is None else found.heights()):  # `heights_at`, the piece already found
        problems.append(_v(event, "climbing.halfway", f"nothing at {at} stands {level} high"))
    if found is not None and found.impassable():
        problems.append(_v(event, "terrain.impassable", f"{unit.id} may not stand in {found.label or found.id} (impassable)"))
    radius, (x, y) = kind(unit).base, at
    for other in bodies(state):  # every unit on the table, with its base radius
        room = radius + other.radius - movement.SLACK
        ox, oy = other.at
        # further than `room` along one axis is further than `room` (hypot never falls below either side)
        if other.id != unit.id and abs(ox - x) < room and abs(oy - y) < room and board.distance(at, other.at) < room:
            problems.append(_v(event, "movement.through-units", f"{at} is on top of {other.id}"))
    return problems


def _check_deployed(params: Params, state: State, event: UnitDeployed) -> Problems:
    problems, ready = _deploying(state, event, measured=False)
    if ready is None:
        return problems
    return problems + _deploy_point_problems(state, event, ready)


def deploy_refused(params: Params, state: State, event: UnitDeployed) -> bool:
    """Whether `check` finds anything wrong with a unit set up: what depends on the unit alone
    (`_deploying`) is asked once per unit of a decision (legal offers two dozen points for
    each), then only where it stands."""
    problems, ready = unit_deploying(params, state, event.by, event.unit)
    return bool(problems) or ready is None or not deploy_point_allowed(state, event.point, event.level, ready)


def deploy_point_allowed(state: State, at: board.Point, level: int, ready: _Deploying) -> bool:
    """`_deploy_point_problems` finds nothing, as a yes or no: the same questions without a
    list or a message per rule (a set-up's two dozen points per unit ask it), the other
    units and the unit's kin read from `ready` (listed once per unit, not once per point)."""
    if ready.half or level not in deploy_levels(state, ready.zone, at):
        return False
    return deploy_units_allow(at, ready)


def deploy_units_allow(at: board.Point, ready: _Deploying) -> bool:
    """`deploy_point_allowed`'s questions of the other units, at a point whose zone and ground
    allow the unit: it stands on none of them, and within 5" of its kin."""
    x, y = at
    for ox, oy, room, other_at in ready.others:
        if abs(ox - x) < room and abs(oy - y) < room and board.distance(at, other_at) < room:
            return False
    return not any(board.distance(at, kin_at) > NEAR + board.EPS for kin_at in ready.kin)


DEPLOY_LEVELS_KEPT = 4096
"""Points' set-up heights kept per table (`deploy_levels`)."""


def deploy_levels(state: State, zone: missions.Zone, at: board.Point) -> tuple[int, ...]:
    """The heights at which a unit may be set up at `at` as far as the zone and the table go
    (in the zone, on the table, a level of the piece there, not impassable), in `heights_at`'s
    order: they depend on the zone, the point and the table alone, and each unit set up first
    of its type is offered the zone's same two dozen points, so they are remembered per table
    (by the zone object, kept beside its answer, and the point)."""
    return zone_levels(state, zone)(at)


def zone_levels(state: State, zone: missions.Zone) -> Callable[[board.Point], tuple[int, ...]]:
    """`deploy_levels` in one zone, to ask of a unit's points in a row (the table's memo found once)."""
    kept, zone_id = _deploy_levels_kept(None, state.terrain), id(zone)

    def levels_at(at: board.Point) -> tuple[int, ...]:
        found = kept.get((zone_id, at))
        if found is not None and found[0] is zone:
            return found[1]
        levels = _deploy_levels(state, zone, at)
        if len(kept) >= DEPLOY_LEVELS_KEPT:
            kept.clear()
        kept[(zone_id, at)] = (zone, levels)
        return levels

    return levels_at


def _deploy_levels(state: State, zone: missions.Zone, at: board.Point) -> tuple[int, ...]:
    if not zone.contains(at) or not missions.on_table(at):
        return ()
    found = piece_at(state, at)
    if found is not None and found.impassable():
        return ()
    return (0,) if found is None else found.heights()


@last_state  # one table per game (rulesets/memo.py)
def _deploy_levels_kept(params: None, terrain: tuple[Piece, ...]) -> dict[tuple[int, board.Point], tuple[missions.Zone, tuple[int, ...]]]:
    return {}


class _Deploying(NamedTuple):
    """A unit being set up, with what its set-up step asks of it whatever the point."""

    unit: Unit
    wave: missions.Wave
    zone: missions.Zone
    half: Problems
    """The 50% limit's problem, if this unit breaks it."""
    others: tuple[tuple[float, float, float, board.Point], ...] = ()
    """Every other unit on the table, as `deploy_point_allowed` measures it: x, y, the room its
    base and the unit's need (less the slack), where it stands; in `bodies`' order."""
    kin: tuple[board.Point, ...] = ()
    """Where the units of the unit's type on the table stand (its side's, in order)."""


@last_args  # a decision's candidates come unit by unit (rulesets/memo.py)
def unit_deploying(params: Params, state: State, by: str | None, unit_id: str) -> tuple[Problems, _Deploying | None]:
    return _deploying(state, UnitDeployed(by=by, unit=unit_id, point=(0.0, 0.0)), measured=True)


def _deploying(state: State, event: UnitDeployed, *, measured: bool) -> tuple[Problems, _Deploying | None]:
    """What is wrong with a unit set up whatever the point (the step, the seat, the unit), and
    what its point is measured against (None where there is nothing more to measure); the
    other units and its kin as `deploy_point_allowed` reads them only when `measured` (a
    checked set-up measures them in `_deploy_point_problems`, with the messages)."""
    problems, wave, seat = _wave_problems(state, event, "a unit set up")
    if wave is None:
        return problems, None
    owned, unit = _unit_of(state, event, event.unit, seat)
    if unit is None:
        return problems + owned, None
    problems += owned + _wave_ready(state, event, wave)
    if unit.status != "roster":
        return [*problems, _v(event, "deployment.order", f"{unit.id} is already {'on the table' if unit.status == 'board' else unit.status}")], None
    if wave.scope == "none":
        return [*problems, _v(event, "deployment.order", "no units are set up in this step")], None
    half = []
    if wave.scope == "half":
        placed = sum(kind(u).points for u in on_board(state, unit.side)) + kind(unit).points
        limit = 0.5 * army_points(army_of(state, unit.side) or ())
        if placed > limit:
            half.append(_v(event, "deployment.half", f"this step sets up up to 50% of the army's points ({limit:g}); this makes {placed}"))
    zone = missions.zone(state.mission, wave.zone, layout(state))
    if not measured:
        return problems, _Deploying(unit, wave, zone, half)
    radius = kind(unit).base
    others = tuple((other.at[0], other.at[1], radius + other.radius - movement.SLACK, other.at) for other in bodies(state) if other.id != unit.id)
    kin = tuple(position(u) for u in on_board(state, unit.side) if u.type == unit.type)
    return problems, _Deploying(unit, wave, zone, half, others, kin)


def _deploy_point_problems(state: State, event: UnitDeployed, ready: _Deploying) -> Problems:
    """What is wrong with where a unit is set up (the zone, the ground, other units), the 50%
    limit, and the unit's type, in that order."""
    unit, wave, zone = ready.unit, ready.wave, ready.zone
    problems = []
    if not zone.contains(event.point):
        problems.append(_v(event, "deployment.zone", f"{event.point} is outside the {wave.role}'s area: {zone.label}"))
    problems += _standing_problems(state, event, unit, event.point, event.level, "deployment.zone")
    problems += ready.half
    problems += _same_type(state, event, unit, event.point)
    return problems


def _same_type(state: State, event: Event, unit: Unit, at: board.Point) -> Problems:
    """"all units of the same type must be deployed within 5" of all other units of the same type"."""
    far = [u.id for u in on_board(state, unit.side) if u.type == unit.type and board.distance(at, position(u)) > NEAR + board.EPS]
    if far:
        return [_v(event, "deployment.same-type", f'{unit.id} must be set up within 5" of every other {kind(unit).name}: {", ".join(far)} {"is" if len(far) == 1 else "are"} further')]
    return []


def _check_reserved(params: Params, state: State, event: UnitReserved) -> Problems:
    """Orbital Drop / Infiltration: "Instead of deploying this unit as normal you may hold it in reserve"."""
    problems, wave, seat = _wave_problems(state, event, "a unit held in reserve")
    if wave is None:
        return problems
    owned, unit = _unit_of(state, event, event.unit, seat)
    if unit is None:
        return problems + owned
    problems += owned + _wave_ready(state, event, wave)
    if unit.status != "roster" or wave.scope == "none":
        problems.append(_v(event, "deployment.order", f"{unit.id} cannot be held in reserve now"))
    if has(unit, "orbital_drop"):
        if event.tokens:
            problems.append(_v(event, "abilities.orbital_drop", "Orbital Drop places no tokens"))
    elif has(unit, "infiltration"):
        problems += _infiltration_tokens(state, event, unit)
    else:
        problems.append(_v(event, "deployment.reserve", f"{unit.id} has no ability that holds it in reserve (Orbital Drop, Infiltration)"))
    return problems


def _infiltration_tokens(state: State, event: UnitReserved, unit: Unit) -> Problems:
    """"place 3 tokens anywhere on the battlefield outside of your enemy's deployment zone"."""
    if len(event.tokens) != 3:
        return [_v(event, "abilities.infiltration", f"Infiltration places 3 tokens, not {len(event.tokens)}")]
    enemy_role = "defender" if role_of(state, unit.side) == "attacker" else "attacker"
    zone = missions.deployment_zone(state.mission, enemy_role, layout(state))
    problems = []
    for at in event.tokens:
        if not missions.on_table(at):
            problems.append(_v(event, "abilities.infiltration", f"{at} is off the table"))
        elif zone.contains(at):
            problems.append(_v(event, "abilities.infiltration", f"{at} is inside the enemy's deployment zone"))
    return problems


def _check_done(params: Params, state: State, event: DeploymentDone) -> Problems:
    problems, wave, seat = _wave_problems(state, event, "the end of a deployment step")
    if wave is None or seat is None:
        return problems
    problems += _wave_ready(state, event, wave)
    left = [u.id for u in state.units if u.side == seat and u.status == "roster"]
    if wave.scope in ("all", "rest") and left:
        problems.append(_v(event, "deployment.all", f"the {wave.role} sets up all {'their' if wave.scope == 'all' else 'remaining'} units; not yet: {', '.join(left)}"))
    return problems


# --- turn checks (Turn Sequence; Actions and Reactions) --------------------------------------------


def _check_passed(params: Params, state: State, event: Passed) -> Problems:
    problems = _in_play(params, state, event)
    turn = state.turn
    if problems or turn is None:
        return problems
    if event.step == "strategic":
        return _by(state, event, turn.seat, "step 1") + ([] if turn.step == "strategic" and settled(turn) else
                                                          [_v(event, "turn.sequence", f"no strategic step to pass: {pending_text(turn) if not settled(turn) else 'step 1 is over'}")])
    if event.step == "reaction":
        act = turn.activation
        if act is None and _nullified(state, event.by) is not None:
            return [_nullified_problem(event)]
        if act is None or act.phase != "react":
            return [_v(event, "turn.sequence", "no action is waiting for a reaction")]
        return _by(state, event, reactive_seat(state), "the reaction")
    if event.step == "action":
        if not settled(turn):
            return [_v(event, "turn.sequence", f"no step 2 to pass: {pending_text(turn)}")]
        able = action_open(params, state, turn.seat)
        return _by(state, event, turn.seat, "step 2") + ([] if able is None else [_v(event, "turn.no-action", f"{able}: step 2 is passed only when no unit may take an action")])
    window = _window_for(turn, event.unit, ("move",)) if event.step == "move" else front(turn)
    if event.step == "follow_up" and (window is None or window.kind not in ("autoguns", "demolition", "focus_fire")):
        return [_v(event, "turn.sequence", "no follow-up is open")]
    if event.step == "move":
        if window is None:
            return [_v(event, "turn.sequence", f"{event.unit or 'no unit'} has no move to pass")]
        problems += _pass_move(params, state, event, window)
    if event.step not in ("strategic", "reaction", "move", "follow_up"):
        return [_v(event, "turn.sequence", f"nothing called {event.step!r} can be passed")]
    return problems + _by(state, event, window.seat if window else None, "this decision")


def action_open(params: Params, state: State, seat: str) -> str | None:
    """A unit of `seat` and an action it may declare in step 2, in words; None if none may
    (readings.py, turn.no-action: then the player passes step 2). A unit that can move may
    advance; one that cannot (Kill Zone) may only bug out, open fire, or fight through to an
    enemy already within line of sight and 10" (`_check_fight_through`)."""
    for unit in on_board(state, seat):
        if not movement.cannot_move(unit):
            return f"{unit.id} may advance"
        if evac_distance(state, unit) <= params.engagement_range + board.EPS:
            return f"{unit.id} may bug out"
        for foe in enemies_of(state, unit):
            if abilities.open_fire_allowed(state, unit, foe):
                return f"{unit.id} may open fire on {foe.id}"
            if gap(unit, foe) <= params.engagement_range + board.EPS and sees(state, unit, foe):
                return f"{unit.id} may fight through to {foe.id}"
    return None


def _pass_move(params: Params, state: State, event: Passed, window: Window) -> Problems:
    unit = find(state, window.unit)
    if unit is None or unit.at is None:
        return []
    if window.must and movement.any_move(params, state, unit, window):
        return [_v(event, "abilities.slalom", f"{unit.id} must move 5\" after taking cover (Slalom)")]
    if movement.cannot_move(unit):  # Kill Zone was named where the fight through was declared (`_check_fight_through`)
        return []
    aim = find(state, window.keep_sight)
    if aim is not None and aim.at is not None and (gap(unit, aim) > 10 + board.EPS or not sees(state, unit, aim)):
        return [_v(event, "actions.fight_through", f'fight through moves {unit.id} so that {aim.id} is within line of sight and within 10"; where it stands it is not')]
    return []


def _window_for(turn: Turn, unit_id: str | None, kinds: tuple[str, ...]) -> Window | None:
    """The open window for a unit: the front one, or any among a run of Forward Maggots moves."""
    for window in turn.windows:
        if window.kind in kinds and (unit_id is None or window.unit == unit_id):
            return window
        if window.purpose != "forward_maggots":
            return None
    return None


def _check_declared(params: Params, state: State, event: ActionDeclared) -> Problems:
    problems = _in_play(params, state, event)
    turn = state.turn
    if problems or turn is None:
        return problems
    fired = _autoguns_again(state, event)
    if fired is not None:
        unit = find(state, event.unit)
        limit = _v(event, "abilities.autoguns", f"{event.unit} already made Autoguns' open fire this activation: \"Only the first open fire "
                                                 "action in an activation triggers this ability\"")
        return [limit, *(_check_open_fire(params, state, event, unit) if unit is not None and unit.at is not None else [])]
    window = front(turn)
    follow = window is not None and window.kind in ("autoguns", "focus_fire")
    if follow and window is not None:
        problems += _follow_up_declared(state, event, window)
    elif not settled(turn):
        problems.append(_v(event, "turn.sequence", f"a new action while {pending_text(turn)}"))
    elif turn.activation is not None:
        problems.append(_v(event, "turn.sequence", "the active player already chose a unit and action this turn"))
    problems += _by(state, event, turn.seat, "the action")
    owned, unit = _unit_of(state, event, event.unit, turn.seat)
    problems += owned
    if unit is None:
        return problems
    if unit.status != "board":
        return [*problems, abilities.absent(event, unit, "actions.unit")]
    if event.action not in ACTIONS:
        return [*problems, _v(event, "actions.unknown", f"{event.action!r} is not an action: {', '.join(ACTIONS)}")]
    return problems + _ACTION_CHECKS[event.action](params, state, event, unit)


def _nullified(state: State, by: str | None) -> Activation | None:
    """The open fire Holofield nullified (it ended the turn), where the table then reacts to it
    before the next player did anything (Holofield: "If this results in the action being
    invalid (e.g. no line of sight) then the open fire action is nullified"): that
    activation; None elsewhere."""
    last, turn = state.last_action, state.turn
    if last is None or last.action != "open_fire" or last.won is not None or last.reaction is not None or turn is None:
        return None
    target = find(state, last.target)
    if target is None or "holofield" not in target.used or by != turn.seat or turn.step != "strategic" or not settled(turn):
        return None
    active = find(state, last.unit)
    return last if active is not None and active.status == "board" and active.side != turn.seat else None


def _nullified_problem(event: Event) -> Violation:
    return _v(event, "abilities.holofield", "Holofield made the open fire invalid and it was nullified: there is nothing to react to")


def _autoguns_again(state: State, event: ActionDeclared) -> Activation | None:
    """Autoguns' open fire, which ended the turn, where the table then has the same unit open
    fire once more before the next player did anything (Autoguns: "Only the first open fire
    action in an activation triggers this ability"): that activation; None elsewhere."""
    last, turn = state.last_action, state.turn
    if (last is None or last.shots != 2 or turn is None or event.action != "open_fire" or event.unit != last.unit
            or event.by == turn.seat or turn.step != "strategic" or not settled(turn)):
        return None
    return last


def _reopened(state: State, last: Activation, *windows: Window, activation: Activation | None = None) -> State:
    """The turn of an activation that ended, open again as the table went on with it (one more
    open fire after Autoguns', `_autoguns_again`; a reaction to an open fire Holofield
    nullified, `_nullified`): after it the turn passes again as it did."""
    turn = state.turn
    unit = find(state, last.unit)
    if turn is None or unit is None:
        return state
    reopened = Turn(seat=unit.side, number=turn.number - 1, step="action", windows=windows, activation=activation)
    return replace(state, turn=reopened, turns=state.turns - 1)


def declared_refused(params: Params, state: State, event: ActionDeclared) -> bool:
    """Whether `check` finds anything wrong with a declared action, without building its
    problems: at a settled turn (no action under way, no window, no dice; where `legal` offers
    its declarations) what `_check_declared` asks of the decision is asked once
    (`declaring_seat`), then the event's seat, unit and action, and open fire's range and
    sight as a yes or no (`abilities.open_fire_allowed`: most offered targets are refused,
    and their messages are never read). Anywhere else it is `check`."""
    seat = declaring_seat(params, state)
    if seat is None:
        return bool(check(params, state, event))
    unit = find(state, event.unit)
    if event.by != seat or unit is None or unit.side != seat or unit.status != "board":
        return True
    action = event.action
    if action == "open_fire":
        target = find(state, event.target)
        return (target is None or target.status != "board" or target.side == unit.side
                or not abilities.open_fire_allowed(state, unit, target))
    if action == "bug_out":  # `_check_bug_out`'s questions, without the message most units' bug out would get
        return bool(event.target) or evac_distance(state, unit) > params.engagement_range + board.EPS
    checks = _ACTION_CHECKS.get(action)
    return checks is None or bool(checks(params, state, event, unit))


@last_state  # asked by each of a decision's declarations (rulesets/memo.py)
def declaring_seat(params: Params, state: State) -> str | None:
    """The seat whose new action a settled turn of a game not over waits for: where
    `_check_declared`'s questions of the decision find nothing wrong with a declaration by
    it. None elsewhere (before play, a game over, something under way, no seat named)."""
    turn = state.turn
    if state.stage != "play" or turn is None or not settled(turn) or outcome(params, state) is not None:
        return None
    return turn.seat


def _follow_up_declared(state: State, event: ActionDeclared, window: Window) -> Problems:
    """Autoguns: "another open fire action against another unit within 5" of its original target";
    Focus Fire: "make an open fire action against that unit with another unit of your choice"."""
    problems = []
    if event.action != "open_fire":
        problems.append(_v(event, f"abilities.{window.kind}", f"{window.kind.replace('_', ' ')} makes an open fire action, not {event.action}"))
    if window.kind == "autoguns":
        if event.unit != window.unit:
            problems.append(_v(event, "abilities.autoguns", f"Autoguns fires again with {window.unit}"))
        target = find(state, event.target)
        if event.target == window.target:
            problems.append(_v(event, "abilities.autoguns", "Autoguns' second open fire is against another unit than the original target"))
        elif target is not None and target.at is not None and window.origin is not None and board.distance(target.at, window.origin) > NEAR + board.EPS:
            problems.append(_v(event, "abilities.autoguns", f'{target.id} is not within 5" of the original target'))
    else:
        if event.target != window.target:
            problems.append(_v(event, "abilities.focus_fire", f"Focus Fire's open fire is against {window.target}"))
        if event.unit == window.unit:
            problems.append(_v(event, "abilities.focus_fire", "Focus Fire's open fire is made with another unit than the field commander"))
    return problems


def _check_advance(params: Params, state: State, event: ActionDeclared, unit: Unit) -> Problems:
    """Advance: "Move the unit up to 10"" (a unit that cannot move may not declare it: readings.py)."""
    problems = [_v(event, "actions.advance", "advance has no target")] if event.target else []
    if movement.cannot_move(unit):
        problems += _kill_zone(event, unit, 'an advance moves the unit up to 10"')
    return problems


def _kill_zone(event: Event, unit: Unit, why: str) -> Problems:
    """Kill Zone: "This unit cannot move", named where the action or reaction that moves it is declared."""
    return [_v(event, "abilities.kill_zone", f'{unit.id} cannot move (Kill Zone: "This unit cannot move"): {why}')]


def _check_open_fire(params: Params, state: State, event: ActionDeclared, unit: Unit) -> Problems:
    """"Select a target enemy unit within line of sight and at least 10" away"."""
    target = find(state, event.target)
    if target is None or target.status != "board" or target.side == unit.side:
        return [_v(event, "open-fire.target", f"{event.target} is not an enemy unit on the table")]
    problem = abilities.open_fire_problem(state, unit, target)
    if problem is None:
        return []
    rule = "open-fire.range" if "away" in problem else "open-fire.line-of-sight"
    return [_v(event, rule, problem)]


def _check_fight_through(params: Params, state: State, event: ActionDeclared, unit: Unit) -> Problems:
    """"Move the active unit up to 5" such that a target enemy unit is within line of sight and within 10"."""
    target = find(state, event.target)
    if target is None or target.status != "board" or target.side == unit.side:
        return [_v(event, "fight-through.target", f"{event.target} is not an enemy unit on the table")]
    if movement.cannot_move(unit):  # its "up to 5"" move is no move: the target must be within 10" and sight already
        if gap(unit, target) > params.engagement_range + board.EPS or not sees(state, unit, target):
            return _kill_zone(event, unit, f'fight through needs {target.id} within line of sight and 10" where {unit.id} stands')
        return []
    reach = 10 + movement.allowance(unit, _first_move(params, unit, target, state.turn.seat if state.turn else unit.side))
    if gap(unit, target) > reach + board.EPS:
        return [_v(event, "fight-through.range", f'{target.id} is {gap(unit, target):.1f}" away: after a {reach - 10:g}" move it cannot be within 10"')]
    return []


def _check_bug_out(params: Params, state: State, event: ActionDeclared, unit: Unit) -> Problems:
    """"Must be within 10" of an evac zone"."""
    problems = [_v(event, "actions.bug_out", "bug out has no target")] if event.target else []
    away = evac_distance(state, unit)
    if away > params.engagement_range + board.EPS:
        problems.append(_v(event, "bug-out.evac", f'{unit.id} is {away:.1f}" from its nearest evac zone ({", ".join(evac_edges(state, unit.side))}); bug out needs 10"'))
    return problems


_ACTION_CHECKS: dict[str, Callable[[Params, State, ActionDeclared, Unit], Problems]] = {
    "advance": _check_advance,
    "open_fire": _check_open_fire,
    "fight_through": _check_fight_through,
    "bug_out": _check_bug_out,
}


def _first_move(params: Params, unit: Unit, target: Unit, seat: str) -> Window:
    """Fight Through's first move ("Keen to Impress": 7" instead of the usual 5")."""
    inches = 7.0 if has(unit, "keen_to_impress") else params.short_move
    return Window(kind="move", seat=seat, unit=unit.id, purpose="fight_through", allowance=inches, keep_sight=target.id)


def _check_reaction(params: Params, state: State, event: ReactionDeclared) -> Problems:
    problems = _in_play(params, state, event)
    turn = state.turn
    if problems or turn is None:
        return problems
    act = turn.activation
    if act is None and _nullified(state, event.by) is not None:
        return [_nullified_problem(event)]
    if act is None or act.phase != "react":
        return [_v(event, "turn.sequence", "no action is waiting for a reaction" if act is None or act.phase != "move" else "counter attack and fall back come after fight through's first move")]
    seat = reactive_seat(state)
    problems += _by(state, event, seat, "the reaction")
    owned, unit = _unit_of(state, event, event.unit, seat)
    active = find(state, act.unit)
    if unit is None or active is None or active.at is None:
        return problems + owned
    problems += owned
    if unit.status != "board":
        return [*problems, abilities.absent(event, unit, "reactions.unit")]
    allowed = REACTIONS.get(act.action, ())
    if event.reaction not in allowed:
        return [*problems, _v(event, "reactions.allowed", f"{act.action.replace('_', ' ')} allows {' or '.join(allowed)}, not {event.reaction}")]
    return problems + _reaction_requirements(params, state, event, act, unit, active)


def reaction_refused(params: Params, state: State, event: ReactionDeclared) -> bool:
    """Whether `check` finds anything wrong with a declared reaction, without building its
    problems: where an action waits for its reaction and its unit stands on the table
    (`reacting`, asked once per decision: a reaction decision offers one per unit and
    reaction), the event's seat, unit and reaction, then the Requirements column as a yes or
    no (`_reaction_unmet`). Anywhere else it is `check`."""
    ready = reacting(params, state)
    if ready is None:
        return bool(check(params, state, event))
    seat, act, active = ready
    if seat is not None and event.by != seat:
        return True
    unit = find(state, event.unit)
    if unit is None or (seat is not None and unit.side != seat) or unit.status != "board":
        return True
    return event.reaction not in REACTIONS.get(act.action, ()) or _reaction_unmet(params, state, event.reaction, act, unit, active)


@last_state  # asked by each of a decision's reactions (rulesets/memo.py)
def reacting(params: Params, state: State) -> tuple[str | None, Activation, Unit] | None:
    """The reactive seat, the action waiting for its reaction and that action's unit, where
    `_check_reaction`'s questions of the decision find nothing wrong (play under way, the game
    not over, an action in its react phase, its unit on the table); None elsewhere."""
    turn = state.turn
    if state.stage != "play" or turn is None or outcome(params, state) is not None:
        return None
    act = turn.activation
    if act is None or act.phase != "react":
        return None
    active = find(state, act.unit)
    if active is None or active.at is None:
        return None
    return reactive_seat(state), act, active


def _reaction_unmet(params: Params, state: State, reaction: str, act: Activation, unit: Unit, active: Unit) -> bool:
    """`_reaction_requirements` finds a problem, as a yes or no (the same questions, in order)."""
    away, reach = gap(unit, active), params.engagement_range
    return ((reaction in _MOVING_REACTIONS and movement.cannot_move(unit))
            or (reaction in ("firefight", "take_cover", "fall_back") and act.target != unit.id)
            or (reaction in ("overwatch", "flank", "firefight", "counter_attack") and not sees(state, unit, active))
            or (reaction in ("overwatch", "firefight") and away < reach - board.EPS)
            or (reaction in ("flank", "counter_attack") and away > reach + board.EPS))


_MOVING_REACTIONS = frozenset({"flank", "fall_back"})
"""Reactions whose effect is moving the reactive unit (Flank: "Move the reactive unit up to 5"";
Fall Back: "Move the reactive unit up to 5" such that it ends up further from the active unit")."""


def _reaction_requirements(params: Params, state: State, event: ReactionDeclared, act: Activation, unit: Unit, active: Unit) -> Problems:
    """The Requirements column of the reactions table."""
    reaction, away, reach = event.reaction, gap(unit, active), params.engagement_range
    rule = f"reactions.{reaction}"
    if reaction in _MOVING_REACTIONS and movement.cannot_move(unit):
        return _kill_zone(event, unit, f'{reaction.replace("_", " ")} moves the reactive unit up to 5"')
    if reaction in ("firefight", "take_cover", "fall_back") and act.target != unit.id:
        return [_v(event, rule, f"{reaction.replace('_', ' ')} is made by the target of the action, {act.target}")]
    if reaction in ("overwatch", "flank", "firefight", "counter_attack") and not sees(state, unit, active):
        return [_v(event, rule, f"{unit.id} has no line of sight to {active.id}")]
    if reaction in ("overwatch", "firefight") and away < reach - board.EPS:
        return [_v(event, rule, f'{unit.id} is {away:.1f}" from {active.id}: {reaction} needs at least {reach:g}"')]
    if reaction in ("flank", "counter_attack") and away > reach + board.EPS:
        return [_v(event, rule, f'{unit.id} is {away:.1f}" from {active.id}: {reaction.replace("_", " ")} needs it within {reach:g}"')]
    return []


def _check_rolled(params: Params, state: State, event: ActionRolled) -> Problems:
    problems = _in_play(params, state, event)
    turn = state.turn
    if problems or turn is None:
        return problems
    act = turn.activation
    if act is None or act.phase != "roll":
        last = act if act is not None and act.phase == "resolve" else state.last_action if act is None else None
        if last is not None and last.reaction is None:
            return [_v(event, "action-roll.no-reaction", f"no reaction was chosen to {last.unit}'s {last.action.replace('_', ' ')}: it automatically succeeded, no dice are rolled")]
        return [_v(event, "action-roll.order", "no action and reaction are waiting for their roll")]
    specs = rolls.action_rolls(params, state)
    if specs is None:
        return []
    mine, theirs = specs
    problems += _dice_problems(params, event, "active", mine, event.active, event.active_die, event.active_kept)
    problems += _dice_problems(params, event, "reactive", theirs, event.reactive, event.reactive_die, event.reactive_kept)
    if event.winner is not None and not problems:
        rules_winner = rolls.winner(rolls.kept(event.active, mine.keep), rolls.kept(event.reactive, theirs.keep))
        if event.winner != rules_winner:
            a, r = rolls.kept(event.active, mine.keep), rolls.kept(event.reactive, theirs.keep)
            problems.append(_v(event, "action-roll.winner", f"the table gave the roll to the {event.winner} player, but {a} against {r} is won by the {rules_winner} player (the active player wins ties)"))
    return problems


def _dice_problems(params: Params, event: Event, side: str, roll: rolls.Roll, dice: tuple[int, ...], die: int | None,
                   kept: int | None, *, rule: str = "action-roll") -> Problems:
    """Count, die size, the die kept: "roll twice and use the highest ... lowest"; never more than two."""
    problems = []
    name = f"the {side} player ({roll.unit}, {roll.kind.replace('_', ' ')})"
    if len(dice) > params.max_dice:
        problems.append(_v(event, "advantage.dice-count", f"{name} rolled {len(dice)} dice: advantage and disadvantage do not stack, never more than two dice"))
    elif len(dice) != roll.number:
        why = _why(roll)
        problems.append(_v(event, "advantage.dice-count", f"{name} rolled {len(dice)} {'die' if len(dice) == 1 else 'dice'}; the rules give {roll.number}{why}"))
    if die is not None and die not in roll.dice:
        problems.append(_v(event, f"{rule}.die", f"{name} rolled a D{die}; its {roll.attribute} rating is {' or '.join(f'D{d}' for d in roll.dice)}"))
    # a die claimed wrongly is one mistake: the faces are judged against the die the rules give
    size = die if die is not None and die in roll.dice else roll.die
    for value in dice:
        if not 1 <= value <= size:
            problems.append(_v(event, f"{rule}.die", f"a D{size} cannot show {value} ({name})"))
    if kept is not None and len(dice) == roll.number and kept != rolls.kept(dice, roll.keep):
        how = {"high": "advantage keeps the highest", "low": "disadvantage keeps the lowest", "only": "one die is rolled"}[roll.keep]
        problems.append(_v(event, "advantage.kept", f"{name} kept {kept} of {list(dice)}: {how}, {rolls.kept(dice, roll.keep)}"))
    return problems


def _why(roll: rolls.Roll) -> str:
    parts = []
    if roll.advantage:
        parts.append("advantage from " + "; ".join(roll.advantage))
    if roll.disadvantage:
        parts.append("disadvantage from " + "; ".join(roll.disadvantage))
    return f" ({', '.join(parts)})" if parts else " (no advantage or disadvantage)"


def _check_moved(params: Params, state: State, event: UnitMoved) -> Problems:
    problems, mover = _mover(params, state, event)
    if mover is None:
        return problems
    unit, window = mover
    return problems + [_v(event, p.rule, p.message) for p in movement.move_problems(params, state, unit, window, event.to, event.level, event.path)]


def move_refused(params: Params, state: State, event: UnitMoved) -> bool:
    """Whether `check` finds anything wrong with a move, stopping at the first rule it breaks
    (legal moves ask this of every sampled end; the audit asks `check` for every reason)."""
    mover = decision_mover(params, state, event.by, event.unit)
    return mover is None or not movement.mover_allows(mover, event.to, event.level, event.path)


@last_args  # a decision's sampled ends are all one unit's move (rulesets/memo.py)
def decision_mover(params: Params, state: State, by: str | None, unit_id: str) -> movement.Mover | None:
    """The move's seat and window (`_unit_mover`) and what its ends share
    (`movement.decision_mover`) in one memo a sampled end asks; None if the move is refused
    wherever it ends."""
    problems, mover = _unit_mover(params, state, by, unit_id)
    if problems or mover is None:
        return None
    unit, window = mover
    return movement.decision_mover(state, unit, window)


@last_args  # a decision's sampled ends are all one unit's move (rulesets/memo.py)
def _unit_mover(params: Params, state: State, by: str | None, unit_id: str) -> tuple[Problems, tuple[Unit, Window] | None]:
    """`_mover`, which reads only the seat and the unit of a move, asked once per decision."""
    return _mover(params, state, UnitMoved(by=by, unit=unit_id, to=(0.0, 0.0)))


def _mover(params: Params, state: State, event: UnitMoved) -> tuple[Problems, tuple[Unit, Window] | None]:
    """What is wrong with a move before where it goes, and the unit with its open move window
    (None if there is none to measure against)."""
    problems = _in_play(params, state, event)
    turn = state.turn
    if problems or turn is None:
        return problems, None
    window = _window_for(turn, event.unit, ("move",))
    if window is None:
        unit = find(state, event.unit)
        if unit is not None and unit.at is not None and movement.cannot_move(unit) and (event.path or board.distance(unit.at, event.to) > board.EPS):
            return _kill_zone(event, unit, "no move of it is open"), None
        return [_v(event, "movement.when", f"{event.unit} has no move to make now ({pending_text(turn)})")], None
    problems += _by(state, event, window.seat, f"{event.unit}'s move")
    unit = find(state, event.unit)
    if unit is None or unit.status != "board":
        return [*problems, abilities.absent(event, unit, "units.unknown") if unit is not None else _v(event, "units.unknown", f"{event.unit} is not on the table")], None
    return problems, (unit, window)


def _check_nanites(params: Params, state: State, event: NanitesRolled) -> Problems:
    if state.turn is None or state.turn.nanites is None:
        return [_v(event, "abilities.experimental_nanites", "no Experimental Nanites roll is due")]
    return [] if 1 <= event.value <= 6 else [_v(event, "abilities.experimental_nanites", f"a D6 cannot show {event.value}")]


def _check_tested(params: Params, state: State, event: DisciplineTested) -> Problems:
    turn = state.turn
    if turn is None or not turn.tests:
        return [_v(event, "abilities.neural_trojan", "no Neural Trojan test is due")]
    if event.unit != turn.tests[0]:
        return [_v(event, "abilities.neural_trojan", f"{turn.tests[0]} tests next, not {event.unit}")]
    unit = find(state, event.unit)
    if unit is None or unit.at is None:
        return []
    spec = rolls.discipline_test(params, state, unit)
    problems = _dice_problems(params, event, "tested", spec, event.dice, event.die, None, rule="abilities.neural_trojan")
    passed = rolls.kept(event.dice, spec.keep) >= 4
    if event.passed is not None and event.passed != passed and not problems:
        problems.append(_v(event, "abilities.neural_trojan", f"{rolls.kept(event.dice, spec.keep)} {'passes' if passed else 'fails'}: the test needs 4 or higher"))
    return problems


# --- strategic actions: mission objectives -------------------------------------------------------------


def _mission_unit(state: State, event: Event, unit_id: str, role: str, mission: str, what: str) -> tuple[Problems, Unit | None]:
    problems = [] if state.mission == mission else [_v(event, f"missions.{mission}", f"{what} belongs to the {mission} mission; this is {state.mission}")]
    if role_of(state, event.by or "") != role:
        problems.append(_v(event, f"missions.{mission}", f"only the {role} may {what}"))
    owned, unit = _unit_of(state, event, unit_id, event.by)
    if unit is not None and unit.status != "board":
        owned.append(_v(event, "units.unknown", f"{unit.id} is not on the table"))
        unit = None
    return problems + owned, unit


def _near_marker(state: State, event: Event, unit: Unit | None, kind_: str, rule: str) -> Problems:
    found = marker(state, kind_)
    if found is None:
        return [_v(event, rule, f"there is no {kind_.replace('_', ' ')} on the table")]
    if unit is not None and board.distance(position(unit), found.at) > NEAR + board.EPS:
        return [_v(event, rule, f'{unit.id} is {board.distance(position(unit), found.at):.1f}" from the {kind_.replace("_", " ")}; it must be within 5"')]
    return []


def _check_seized(params: Params, state: State, event: StrongPointSeized) -> Problems:
    """"When the attacker has a unit within 5" of the strong point they can seize the strong point as a strategic action"."""
    problems = strategic_problems(state, event, "seizing the strong point")
    more, unit = _mission_unit(state, event, event.unit, "attacker", "assault", "seize the strong point")
    return problems + more + _near_marker(state, event, unit, "strong_point", "missions.assault.seize")


def _check_charge(params: Params, state: State, event: ChargePlaced) -> Problems:
    """"When the attacker has a unit within 5" of the target they may place charges as a strategic action"."""
    problems = strategic_problems(state, event, "placing charges")
    more, unit = _mission_unit(state, event, event.unit, "attacker", "sabotage", "place charges")
    return problems + more + _near_marker(state, event, unit, "target", "missions.sabotage.charges")


def _check_detonated(params: Params, state: State, event: ChargesDetonated) -> Problems:
    """"Whenever there is at least one charge counter placed the attacker may perform the strategic action detonation"."""
    problems = strategic_problems(state, event, "detonation")
    if state.mission != "sabotage" or role_of(state, event.by or "") != "attacker":
        problems.append(_v(event, "missions.sabotage", "only the attacker detonates, in the sabotage mission"))
    if state.charges < 1:
        problems.append(_v(event, "missions.sabotage.detonate", "there is no charge counter on the target"))
    return problems


def _check_defused(params: Params, state: State, event: ChargeDefused) -> Problems:
    """"When the defender has a unit within 5" of the target they may perform the strategic action defuse"."""
    problems = strategic_problems(state, event, "defusing")
    more, unit = _mission_unit(state, event, event.unit, "defender", "sabotage", "defuse")
    problems += more + _near_marker(state, event, unit, "target", "missions.sabotage.defuse")
    if state.charges < 1:
        problems.append(_v(event, "missions.sabotage.defuse", "there is no charge counter to remove"))
    return problems


def _check_escorted(params: Params, state: State, event: VipEscorted) -> Problems:
    """"Whenever the attacker has a unit within 5" of the VIP and there are no enemy units within 10"
    that have line of sight to the VIP they may perform the strategic action escort. The attacker
    places the VIP anywhere within 10" of its current location"."""
    problems = strategic_problems(state, event, "escort")
    more, unit = _mission_unit(state, event, event.unit, "attacker", "escort", "escort the VIP")
    problems += more + _near_marker(state, event, unit, "vip", "missions.escort.escort")
    vip = marker(state, "vip")
    if vip is None or unit is None:
        return problems
    watchers = [e.id for e in on_board(state) if e.side != unit.side and board.distance(position(e), vip.at) <= 10 + board.EPS
                and sees_point(state, e, vip.at, params.marker_scale)]
    if watchers:
        problems.append(_v(event, "missions.escort.watched", f'{", ".join(watchers)} {"is" if len(watchers) == 1 else "are"} within 10" of the VIP with line of sight to it'))
    if board.distance(vip.at, event.to) > 10 + board.EPS:
        problems.append(_v(event, "missions.escort.distance", f'the VIP is placed within 10" of where it stands; {event.to} is {board.distance(vip.at, event.to):.1f}" away'))
    if not missions.on_table(event.to):
        problems.append(_v(event, "missions.escort.distance", f"{event.to} is off the table"))
    return problems


def _check_token_moved(params: Params, state: State, event: TokenMoved) -> Problems:
    """Knife Missile: "As a strategic action you may move this token up to 5" ignoring terrain, other models and tokens"."""
    problems = strategic_problems(state, event, "moving the knife missile")
    found = token(state, event.token)
    if found is None or found.kind != "knife_missile":
        return [*problems, _v(event, "abilities.knife_missile", f"{event.token} is not a knife missile on the table")]
    if found.owner != event.by:
        problems.append(_v(event, "abilities.knife_missile", f"{event.token} belongs to {found.owner}"))
    if board.distance(found.at, event.to) > NEAR + board.EPS:
        problems.append(_v(event, "abilities.knife_missile", f'the token moves up to 5"; {event.to} is {board.distance(found.at, event.to):.1f}" away'))
    if not missions.on_table(event.to):
        problems.append(_v(event, "abilities.knife_missile", f"{event.to} is off the table"))
    return problems


_CHECKS: dict[type, Callable[[Params, State, Any], Problems]] = {
    TerrainPlaced: _check_terrain,
    TerrainMoved: _check_terrain_moved,
    TerrainAgreed: _check_agreed,
    RolesRolled: _check_roles_rolled,
    RoleChosen: _check_role_chosen,
    FactionChosen: _check_faction,
    ArmySelected: _check_army,
    EdgeChosen: _check_edge,
    MarkerPlaced: _check_marker,
    UnitDeployed: _check_deployed,
    UnitReserved: _check_reserved,
    DeploymentDone: _check_done,
    Passed: _check_passed,
    ActionDeclared: _check_declared,
    ReactionDeclared: _check_reaction,
    ActionRolled: _check_rolled,
    UnitMoved: _check_moved,
    NanitesRolled: _check_nanites,
    DisciplineTested: _check_tested,
    StrongPointSeized: _check_seized,
    ChargePlaced: _check_charge,
    ChargesDetonated: _check_detonated,
    ChargeDefused: _check_defused,
    VipEscorted: _check_escorted,
    AbilityUsed: abilities.check,
    TokenMoved: _check_token_moved,
}


def check(params: Params, state: State, event: Event) -> list[Violation]:
    """Every rule the event breaks in this state (empty when it is legal)."""
    handler = _CHECKS.get(type(event))
    if handler is None:
        return []
    turn = state.turn
    skipped = _must_move_skipped(params, state, event) if turn is not None and turn.windows and turn.windows[0].must else None
    if skipped is not None:
        unit, state = skipped
        slalom = _v(event, "abilities.slalom", f'{unit} must move 5" after taking cover (Slalom); the table went on without its move')
        return [slalom, *handler(params, state, event)]
    return handler(params, state, event)


_NEW_STEP: frozenset[type] = frozenset({ActionDeclared, StrongPointSeized, ChargePlaced, ChargesDetonated, ChargeDefused, VipEscorted, TokenMoved})
"""Events that begin a step of a turn (a strategic action, an action): never taken while a move
of the turn before is still open."""


def _must_move_skipped(params: Params, state: State, event: Event) -> tuple[str, State] | None:
    """Where the table went on to a new step while a unit still had to move (Slalom: "it must
    move 5""), the unit and the state with that move left out: the one mistake is Slalom's,
    named there, and the event itself is judged (and applied) as the table played it, after
    the move it left out. None elsewhere (the common case: no move that must be made is open)."""
    turn = state.turn
    if turn is None or not turn.windows or not turn.windows[0].must:
        return None
    kind_ = type(event)
    if not (kind_ in _NEW_STEP or (kind_ is Passed and event.step in ("strategic", "action"))  # type: ignore[attr-defined]
            or (kind_ is AbilityUsed and event.ability in abilities.STRATEGIC)):  # type: ignore[attr-defined]
        return None
    window = turn.windows[0]
    unit = find(state, window.unit)
    if unit is None or unit.at is None or not movement.any_move(params, state, unit, window):
        return None
    return unit.id, _settle(params, _with_turn(state, windows=turn.windows[1:]))


# --- apply: setup ---------------------------------------------------------------------------------------


def _apply_terrain(params: Params, state: State, event: TerrainPlaced) -> State:
    piece = make_piece(event.piece, event.label, event.outline, event.scale, event.levels)
    return replace(state, terrain=(*state.terrain, piece))


def _apply_terrain_moved(params: Params, state: State, event: TerrainMoved) -> State:
    """The piece stands where the table put it (at any stage: the table is followed)."""
    found = terrain_piece(state, event.piece)
    if found is None:
        return state
    moved = make_piece(found.id, found.label, board.moved_to(found.outline, event.to), found.scale, found.levels)
    return replace(state, terrain=tuple(moved if t.id == found.id else t for t in state.terrain))


def _apply_agreed(params: Params, state: State, event: TerrainAgreed) -> State:
    return replace(state, stage="roles") if state.stage == "terrain" else state


def _apply_roles_rolled(params: Params, state: State, event: RolesRolled) -> State:
    """The higher roll chooses to attack or defend; a tie is rolled again (assumed)."""
    values = sorted(((v, s) for s, v in event.rolls.items() if s in state.seats), reverse=True)
    if len(values) < 2 or values[0][0] == values[1][0]:
        return state
    return replace(state, roll_winner=values[0][1])


def _apply_role_chosen(params: Params, state: State, event: RoleChosen) -> State:
    chooser = event.by if event.by in state.seats else state.roll_winner
    if chooser is None:
        return state
    attacker = chooser if event.role == "attacker" else other_seat(state, chooser)
    return replace(state, attacker=attacker, stage="selection")


def _apply_faction(params: Params, state: State, event: FactionChosen) -> State:
    if event.by is None or faction_of(state, event.by) is not None:
        return state
    return replace(state, factions=(*state.factions, (event.by, event.faction)))


def _apply_army(params: Params, state: State, event: ArmySelected) -> State:
    """Both armies chosen: they are revealed and deployment begins."""
    if event.by is None or army_of(state, event.by) is not None:
        return state
    types = tuple(t for t in event.units if t in units.UNITS)
    made = tuple(Unit(id=uid, type=t, side=event.by) for uid, t in zip(unit_ids(event.by, types), types, strict=True))
    state = replace(state, armies=(*state.armies, (event.by, event.units)), units=(*state.units, *made))
    if all(army_of(state, s) is not None for s in state.seats):
        state = _settle_deployment(replace(state, stage="deployment", wave=0))
    return state


def _apply_edge(params: Params, state: State, event: EdgeChosen) -> State:
    wave = current_wave(state)
    if wave is None:
        return state
    if wave.role == "defender":
        return replace(state, defender_edges=event.edges)
    return replace(state, attacker_edges=event.edges)


def _apply_marker(params: Params, state: State, event: MarkerPlaced) -> State:
    window = front(state.turn) if state.stage == "play" else None
    if window is not None and window.kind == "strong_point" and state.turn is not None:
        state = replace(state, turn=replace(state.turn, windows=state.turn.windows[1:]))
        return _settle(params, effects.place_token(state, "strong_point", event.by, event.point, token_id="strong_point"))
    state = effects.place_token(state, event.marker, event.by, event.point, token_id=event.marker)
    if event.marker in ("target", "vip"):
        state = replace(state, short_edge=missions.short_edge_of(event.point))
    return _settle_deployment(state)


def _apply_deployed(params: Params, state: State, event: UnitDeployed) -> State:
    unit = find(state, event.unit)
    if unit is None:
        return state
    return _settle_deployment(replace_unit(state, replace(unit, status="board", at=event.point, level=event.level)))


def _apply_reserved(params: Params, state: State, event: UnitReserved) -> State:
    unit = find(state, event.unit)
    if unit is None:
        return state
    ability = "infiltration" if has(unit, "infiltration") else "orbital_drop"
    state = replace_unit(state, replace(unit, status="reserve", used=(*unit.used, ability)))
    for i, at in enumerate(event.tokens, start=1):
        state = effects.place_token(state, "infiltration", unit.side, at, token_id=f"{unit.id}:token-{i}")
    return _settle_deployment(state)


def _apply_done(params: Params, state: State, event: DeploymentDone) -> State:
    if current_wave(state) is None:
        return state
    return _settle_deployment(replace(state, wave=state.wave + 1))


def _settle_deployment(state: State) -> State:
    """Steps that are complete pass on by themselves; after the last one, play begins."""
    while (wave := current_wave(state)) is not None:
        seat = seat_of(state, wave.role)
        left = any(u.side == seat and u.status == "roster" for u in state.units)
        marked = wave.marker is None or marker(state, wave.marker) is not None
        if marked and ((wave.scope in ("all", "rest") and not left) or wave.scope == "none"):
            state = replace(state, wave=state.wave + 1)
            continue
        break
    if state.stage == "deployment" and current_wave(state) is None:
        return _begin_play(state)
    return state


def _begin_play(state: State) -> State:
    """The first turn: the attacker's (assumed: the text does not say who goes first)."""
    first = state.attacker if state.attacker is not None else state.seats[0]
    return replace(state, stage="play", turn=Turn(seat=first, number=1), turns=1)


# --- apply: a turn -----------------------------------------------------------------------------------------


def _with_turn(state: State, **changes: Any) -> State:
    return state if state.turn is None else replace(state, turn=replace(state.turn, **changes))


def _apply_passed(params: Params, state: State, event: Passed) -> State:
    turn = state.turn
    if turn is None:
        return state
    if event.step == "strategic":
        return _settle(params, _with_turn(state, step="action"))
    if event.step == "reaction":
        nullified = _nullified(state, event.by) if turn.activation is None else None
        if nullified is not None:  # the table went on with the open fire Holofield nullified: it is followed
            state = _reopened(state, nullified, activation=replace(nullified, phase="react"))
        return _settle(params, _resolve(params, state, "active"))
    if event.step == "action":  # no unit may act (readings.py, turn.no-action): the turn passes
        return _next_turn(state) if settled(turn) else state
    if event.step == "move":
        window = _window_for(turn, event.unit, ("move",))
        if window is None:
            return state
        state = _with_turn(state, windows=tuple(w for w in turn.windows if w is not window))
        if window.purpose == "fight_through":
            state = _react_phase(state)
        return _settle(params, state)
    if turn.windows:
        state = _with_turn(state, windows=turn.windows[1:])
    return _settle(params, state)


def _react_phase(state: State) -> State:
    act = state.turn.activation if state.turn else None
    return state if act is None else _with_turn(state, activation=replace(act, phase="react"))


def _apply_declared(params: Params, state: State, event: ActionDeclared) -> State:
    fired = _autoguns_again(state, event)
    if fired is not None:  # the table's third open fire: made in the activation it follows
        shooter = find(state, fired.unit)
        state = _reopened(state, fired, Window(kind="autoguns", seat=shooter.side if shooter else "", unit=fired.unit, target=fired.target))
    turn = state.turn
    unit = find(state, event.unit)
    if turn is None or unit is None or unit.at is None:
        return state
    window = front(turn)
    follow = window is not None and window.kind in ("autoguns", "focus_fire") and event.action == "open_fire"
    if follow and window is not None:
        state = _with_turn(state, windows=turn.windows[1:])
    state = _with_turn(state, step="action")
    target = find(state, event.target)
    if target is not None and target.at is not None:
        clear = sees(state, unit, target)
        state = replace(state, trace=(Trace(kind="line-of-sight", points=(unit.at, target.at), clear=clear, label=f"{unit.id} -> {target.id}"),))
    shots = 2 if follow and window is not None and window.kind == "autoguns" else (1 if event.action == "open_fire" else 0)
    act = Activation(unit=unit.id, action=event.action, target=event.target, phase="move" if event.action == "fight_through" else "react",
                     shots=shots, focus=follow and window is not None and window.kind == "focus_fire")
    state = _with_turn(state, activation=act)
    if not follow and "hazardous" in terrain_rules(state, unit):
        state = effects.shake(state, unit.id)  # Hazardous: "Units that are activated while in hazardous terrain become shaken"
    if event.action == "fight_through" and target is not None and state.turn is not None:
        state = _with_turn(state, windows=(_first_move(params, unit, target, state.turn.seat), *state.turn.windows))
    return _settle(params, state)


def _apply_reaction(params: Params, state: State, event: ReactionDeclared) -> State:
    nullified = _nullified(state, event.by) if state.turn is not None and state.turn.activation is None else None
    if nullified is not None:  # the table reacted to the open fire Holofield nullified: it is followed
        state = _reopened(state, nullified, activation=replace(nullified, phase="react"))
    act = state.turn.activation if state.turn else None
    if act is None:
        return state
    return _with_turn(state, activation=replace(act, reaction=event.reaction, reactor=event.unit, phase="roll"))


def _apply_rolled(params: Params, state: State, event: ActionRolled) -> State:
    """The higher kept die wins, the active player on a tie; as the table said, if it said."""
    specs = rolls.action_rolls(params, state)
    act = state.turn.activation if state.turn else None
    if act is None or act.phase != "roll":
        return state
    won: str
    if event.winner is not None:
        won = event.winner
    else:
        keep_a, keep_r = (specs[0].keep, specs[1].keep) if specs else ("only", "only")
        a = event.active_kept if event.active_kept is not None else rolls.kept(event.active, keep_a)
        r = event.reactive_kept if event.reactive_kept is not None else rolls.kept(event.reactive, keep_r)
        won = rolls.winner(a, r)
    state = _spend_roll_abilities(state, act, specs)
    return _settle(params, _resolve(params, state, won))


def _spend_roll_abilities(state: State, act: Activation, specs: tuple[rolls.Roll, rolls.Roll] | None) -> State:
    """Ghost Field ends with "the resolution of the next action roll"; primed abilities that
    changed this roll are spent."""
    firepower = {s.unit for s in specs or () if s.attribute == "firepower"}
    changed = []
    for unit in state.units:
        if not (unit.primed or unit.ghost):
            continue  # nothing to spend (most units, most rolls)
        primed = tuple(p for p in unit.primed if not (p == "experimental_targeting_system" and unit.id in firepower)
                       and p not in ("experimental_holtzmann_field",))
        if unit.ghost or primed != unit.primed:
            changed.append(replace(unit, ghost=False, primed=primed))
    for unit in changed:
        state = replace_unit(state, unit)
    return state


def _resolve(params: Params, state: State, won: str) -> State:
    """frontier.md, the Effect columns: the winner resolves their action or reaction."""
    turn = state.turn
    act = turn.activation if turn else None
    if turn is None or act is None:
        return state
    state = _with_turn(state, activation=replace(act, phase="resolve", won=won))
    active, target, reactor = find(state, act.unit), find(state, act.target), find(state, act.reactor)
    if active is None or active.status != "board":
        return state
    if won == "active":
        state = _active_wins(params, state, act, active, target)
    elif reactor is not None and reactor.status == "board":
        state = _reactive_wins(params, state, act, active, reactor)
    active = find(state, act.unit)
    if active is not None and "override_safety_parameters" in active.primed and act.action == "open_fire":
        state = replace_unit(state, replace(active, primed=tuple(p for p in active.primed if p != "override_safety_parameters")))
        state = effects.shake(state, active.id)  # "After resolving the action this unit becomes shaken"
    return state


def _move_window(params: Params, state: State, seat: str, unit: Unit, purpose: str, inches: float, **extra: Any) -> State:
    """A move the rules open; none for a unit that cannot move (Kill Zone: "This unit cannot
    move"), but for the move of an advance, flank or fall back the table declared for it anyway,
    or of an overwatch against that advance (named at the declaration: the move follows the
    table, `movement.FOLLOWED_MOVES`)."""
    if movement.cannot_move(unit):
        act = state.turn.activation if state.turn else None
        if purpose not in movement.FOLLOWED_MOVES or (purpose == "overwatch" and (act is None or act.action != "advance")):
            return state
    window = Window(kind="move", seat=seat, unit=unit.id, purpose=purpose, allowance=inches, **extra)
    return _with_turn(state, windows=(*state.turn.windows, window)) if state.turn else state


def _active_wins(params: Params, state: State, act: Activation, active: Unit, target: Unit | None) -> State:
    seat = active.side
    if act.action == "advance":  # "Move the unit up to 10""
        return _move_window(params, state, seat, active, "advance", params.advance_move)
    if act.action == "open_fire":  # "Target unit becomes shaken"
        origin = target.at if target is not None else None
        state = effects.shake(state, act.target)
        if has(active, "autoguns") and act.shots == 1 and origin is not None:
            state = _with_turn(state, windows=(*state.turn.windows, Window(kind="autoguns", seat=seat, unit=active.id, target=act.target, origin=origin))) if state.turn else state
        return state
    if act.action == "fight_through":  # "Target unit becomes shaken and active unit makes an additional move up to 5""
        state = effects.shake(state, act.target)
        return _move_window(params, state, seat, active, "fight_through_additional", params.short_move)
    return effects.take_off(state, active.id, "evacuated")  # Bug Out: "removed from the board, it does not count as destroyed"


def _reactive_wins(params: Params, state: State, act: Activation, active: Unit, reactor: Unit) -> State:
    seat = reactor.side
    reaction = act.reaction
    if reaction == "overwatch":  # "The reactive player moves the active unit up to 5""
        return _move_window(params, state, seat, active, "overwatch", params.short_move, forced=True)
    if reaction == "flank":  # "Move the reactive unit up to 5""
        return _move_window(params, state, seat, reactor, "flank", params.short_move)
    if reaction in ("firefight", "counter_attack"):  # "Active unit becomes shaken"
        return effects.shake(state, active.id)
    if reaction == "take_cover":  # "No additional benefit"; Slalom: "it must move 5""
        return _move_window(params, state, seat, reactor, "slalom", params.short_move, must=True) if has(reactor, "slalom") else state
    # Fall Back: "Move the reactive unit up to 5" such that it ends up further from the active unit";
    # Escape Plan: "if successful may move an additional 5""
    inches = params.short_move + (5 if "escape_plan" in reactor.primed else 0)
    state = _move_window(params, state, seat, reactor, "fall_back", inches, away_from=active.id)
    if has(reactor, "unscheduled_demolition") and "unscheduled_demolition" not in reactor.used and state.turn is not None:
        demolition = Window(kind="demolition", seat=seat, unit=reactor.id, target=active.id)
        state = _with_turn(state, windows=(*state.turn.windows, demolition))
    return state


def _apply_moved(params: Params, state: State, event: UnitMoved) -> State:
    turn = state.turn
    unit = find(state, event.unit)
    if turn is None or unit is None or unit.status != "board":
        return state
    window = _window_for(turn, event.unit, ("move",))
    state = _with_turn(state, windows=tuple(w for w in turn.windows if w is not window))
    moved = unit.at is not None and board.distance(unit.at, event.to) > board.EPS
    state = effects.move_unit(params, state, unit.id, event.to, event.level, event.path, forced=window is not None and window.forced)
    if window is not None and window.purpose == "forward_maggots" and moved and (after := find(state, unit.id)) is not None:
        # "Any unit that moves in this manner gains advantage on advance and fight through actions this turn"
        state = replace_unit(state, replace(after, until=(*after.until, ("forward_maggots", turn.number))))
    if window is not None and window.purpose == "fight_through":
        state = _react_phase(state)
    if window is not None and window.purpose == "fall_back":
        after = find(state, unit.id)
        if after is not None and "escape_plan" in after.primed:
            state = replace_unit(state, replace(after, primed=tuple(p for p in after.primed if p != "escape_plan")))
    return _settle(params, state)


def _apply_nanites(params: Params, state: State, event: NanitesRolled) -> State:
    """"1-3 that unit gains advantage on any action roll using mobility ..., 4-6 ... assault"."""
    turn = state.turn
    if turn is None or turn.nanites is None:
        return state
    unit = find(state, turn.nanites)
    state = _with_turn(state, nanites=None)
    if unit is not None:
        state = replace_unit(state, replace(unit, nanites="mobility" if event.value <= 3 else "assault"))
    return _settle(params, state)


def _apply_tested(params: Params, state: State, event: DisciplineTested) -> State:
    """"must roll 4 or higher using their discipline or become shaken"."""
    turn = state.turn
    if turn is None or not turn.tests:
        return state
    unit = find(state, event.unit)
    state = _with_turn(state, tests=turn.tests[1:])
    if unit is None or unit.at is None:
        return _settle(params, state)
    spec = rolls.discipline_test(params, state, unit)
    passed = event.passed if event.passed is not None else rolls.kept(event.dice, spec.keep) >= 4
    if not passed:
        state = effects.shake(state, unit.id)
    return _settle(params, state)


def _strategic(state: State, name: str) -> State:
    return _with_turn(state, strategic=name, step="action")


def _apply_seized(params: Params, state: State, event: StrongPointSeized) -> State:
    """"Remove the strong point, the defender then places a new strong point exactly 15" from the old".

    Only the attacker seizes: a defender's unit "seizing" spends the strategic action the table
    let it take, but the strong point stays and the attacker's objective is not advanced."""
    unit = find(state, event.unit)
    if unit is not None and state.attacker is not None and unit.side != state.attacker:
        return _settle(params, _strategic(state, "seize"))
    old = marker(state, "strong_point")
    state = _strategic(replace(state, seized=state.seized + 1, tokens=tuple(t for t in state.tokens if t.kind != "strong_point")), "seize")
    placer = defender(state)
    if old is not None and placer is not None and state.seized < 2 and state.turn is not None:
        state = _with_turn(state, windows=(*state.turn.windows, Window(kind="strong_point", seat=placer, origin=old.at)))
    return _settle(params, state)


def _apply_charge(params: Params, state: State, event: ChargePlaced) -> State:
    return _settle(params, _strategic(replace(state, charges=state.charges + 1), "place charges"))


def _apply_detonated(params: Params, state: State, event: ChargesDetonated) -> State:
    """"Any unit within 15" of the marker becomes shaken"; the target is destroyed."""
    target = marker(state, "target")
    state = _strategic(state, "detonation")
    if target is not None:
        state = effects.shake_within(state, target.at, 15)
    state = replace(state, detonated=True, charges=0, tokens=tuple(t for t in state.tokens if t.kind != "target"))
    return _settle(params, state)


def _apply_defused(params: Params, state: State, event: ChargeDefused) -> State:
    return _settle(params, _strategic(replace(state, charges=max(state.charges - 1, 0)), "defuse"))


def _apply_escorted(params: Params, state: State, event: VipEscorted) -> State:
    """"Once the VIP is in contact with an evac zone, remove it from the board"."""
    state = _strategic(state, "escort")
    vip = marker(state, "vip")
    if vip is None or state.attacker is None:
        return _settle(params, state)
    out = any(missions.edge_distance(e, event.to) <= params.marker_radius + board.EPS for e in evac_edges(state, state.attacker))
    path = (vip.at, event.to)
    state = replace(state, trace=(Trace(kind="path", points=path, label="VIP"),))
    if out:
        state = replace(state, vip_out=True, tokens=tuple(t for t in state.tokens if t.kind != "vip"))
    else:
        state = replace(state, tokens=tuple(replace(t, at=event.to) if t.kind == "vip" else t for t in state.tokens))
    return _settle(params, state)


def _apply_token_moved(params: Params, state: State, event: TokenMoved) -> State:
    found = token(state, event.token)
    if found is None:
        return state
    state = _strategic(state, "knife missile")
    state = replace(state, tokens=tuple(replace(t, at=event.to) if t.id == event.token else t for t in state.tokens))
    return _settle(params, effects.token_moved(state, event.token, (found.at, event.to)))


def _apply_ability(params: Params, state: State, event: AbilityUsed) -> State:
    return _settle(params, abilities.apply(params, state, event))


_APPLY: dict[type, Callable[[Params, State, Any], State]] = {
    TerrainPlaced: _apply_terrain,
    TerrainMoved: _apply_terrain_moved,
    TerrainAgreed: _apply_agreed,
    RolesRolled: _apply_roles_rolled,
    RoleChosen: _apply_role_chosen,
    FactionChosen: _apply_faction,
    ArmySelected: _apply_army,
    EdgeChosen: _apply_edge,
    MarkerPlaced: _apply_marker,
    UnitDeployed: _apply_deployed,
    UnitReserved: _apply_reserved,
    DeploymentDone: _apply_done,
    Passed: _apply_passed,
    ActionDeclared: _apply_declared,
    ReactionDeclared: _apply_reaction,
    ActionRolled: _apply_rolled,
    UnitMoved: _apply_moved,
    NanitesRolled: _apply_nanites,
    DisciplineTested: _apply_tested,
    StrongPointSeized: _apply_seized,
    ChargePlaced: _apply_charge,
    ChargesDetonated: _apply_detonated,
    ChargeDefused: _apply_defused,
    VipEscorted: _apply_escorted,
    AbilityUsed: _apply_ability,
    TokenMoved: _apply_token_moved,
}


def apply(params: Params, state: State, event: Event) -> State:
    """The state after the event, as the table played it (legal or not): after a move it left
    out that had to be made (`_must_move_skipped`), the turn goes on without it."""
    handler = _APPLY.get(type(event))
    if handler is None:
        return state
    turn = state.turn
    skipped = _must_move_skipped(params, state, event) if turn is not None and turn.windows and turn.windows[0].must else None
    if skipped is not None:
        state = skipped[1]
    return handler(params, state, event)


def _settle(params: Params, state: State) -> State:
    """Close what is finished: windows of units no longer on the table; an activation with
    nothing left to resolve; then the turn passes ("Reactive player becomes active player")."""
    turn = state.turn
    if turn is None or state.stage != "play":
        return state
    windows, tests, nanites = turn.windows, turn.tests, turn.nanites  # (most turns wait on none of them)
    if windows:
        windows = tuple(w for w in windows if w.unit is None or _still_there(state, w))
    if tests:
        tests = tuple(t for t in tests if (u := find(state, t)) is not None and u.status == "board")
    if nanites is not None and ((n := find(state, nanites)) is None or n.status != "board"):
        nanites = None
    act = turn.activation
    if act is not None:
        active = find(state, act.unit)
        gone = active is None or active.status != "board"
        if gone and act.phase != "resolve":
            act = replace(act, phase="resolve", won=None)
            windows = tuple(w for w in windows if w.kind != "move" or w.purpose not in ("fight_through",))
    if windows != turn.windows or act is not turn.activation or tests != turn.tests or nanites != turn.nanites:
        state = replace(state, turn=replace(turn, windows=windows, activation=act, tests=tests, nanites=nanites))
    if act is not None and act.phase == "roll" and ((reactor := find(state, act.reactor)) is None or reactor.status != "board"):
        # the reacting unit left before the dice: no reaction is left, "the action automatically succeeds"
        return _settle(params, _resolve(params, state, "active"))
    if act is not None and act.phase == "resolve" and not windows:
        state = _end_activation(state, act)
    return state


def _still_there(state: State, window: Window) -> bool:
    unit = find(state, window.unit)
    return unit is not None and unit.status == "board"


def _end_activation(state: State, act: Activation) -> State:
    """Focus Fire's open fire returns to step 2; any other action ends the turn."""
    cleared = []
    for unit in state.units:
        if not unit.primed:
            continue
        primed = tuple(p for p in unit.primed if p not in ("experimental_holtzmann_field", "escape_plan"))
        if primed != unit.primed:
            cleared.append(replace(unit, primed=primed))
    for unit in cleared:
        state = replace_unit(state, unit)
    turn = state.turn
    assert turn is not None
    state = replace(state, last_action=act)
    if act.focus:
        return replace(state, turn=replace(turn, activation=None))
    return _next_turn(state)


def _next_turn(state: State) -> State:
    """"6. Reactive player becomes active player"."""
    turn = state.turn
    assert turn is not None
    return replace(state, turn=Turn(seat=other_seat(state, turn.seat), number=turn.number + 1), turns=state.turns + 1)


# --- ending (frontier.md, Ending the Game) -----------------------------------------------------------------

RESULTS = {
    # (objective achieved, at least 50% of the attacking force destroyed) -> (attacker, defender)
    (True, True): ("Pyrrhic Victory", "Narrow Defeat"),
    (True, False): ("Decisive Victory", "Crushing Defeat"),
    (False, True): ("Crushing Defeat", "Decisive Victory"),
    (False, False): ("Narrow Defeat", "Victory"),
}
"""The victory table, row by row."""


@last_state  # asked again of one state by legal, play and every check (rulesets/memo.py)
def outcome(params: Params, state: State) -> Outcome | None:
    """The game ends "At the start of step 2 of the turn sequence, the active player has no units on
    the board", or "At any point if the attacker has achieved their objective and at least 50% of
    the maximum points for the mission of the attacking force has been destroyed"."""
    if state.stage != "play" or state.attacker is None or state.turn is None:
        return None
    done = objective_done(params, state)
    lost, half = attacker_losses(params, state)
    heavy = lost >= half
    if done and heavy:
        return _result(state, done, heavy, lost, half, "the attacker achieved the objective and lost at least 50% of the mission's points", RULE_IDS.id("ending.objective-and-losses"))
    turn = state.turn
    if at_step_two(turn) and not any(on_board(state, turn.seat)):
        return _result(state, done, heavy, lost, half, f"{turn.seat} has no units on the board at the start of step 2", RULE_IDS.id("ending.no-units"))
    return None


def _result(state: State, done: bool, heavy: bool, lost: int, half: float, why: str, rule: str) -> Outcome:
    """Consult the victory table: the attacker wins if the objective was achieved."""
    attacker = state.attacker or ""
    defender_seat = other_seat(state, attacker)
    mine, theirs = RESULTS[(done, heavy)]
    winner = attacker if done else defender_seat
    reason = (f"{why}: attacker {attacker} {mine}, defender {defender_seat} {theirs} "
              f"(objective {'achieved' if done else 'not achieved'}; {lost} points of the attacking force destroyed, 50% is {half:g})")
    return Outcome(winner=winner, reason=reason, rule=rule)


def victory(params: Params, state: State) -> tuple[str, str] | None:
    """(attacker's outcome, defender's outcome) once the game is over."""
    result = outcome(params, state)
    if result is None:
        return None
    lost, half = attacker_losses(params, state)
    return RESULTS[(objective_done(params, state), lost >= half)]
