"""What may happen next: the decisions a player may take, and the dice a chance step may show.

Frontier is continuous: a unit may end a move anywhere within reach, a token may go
anywhere. `legal` does not enumerate that; it samples a few deterministic candidates
(rings around a unit, straight lines toward what matters: markers, enemies, evac edges)
and keeps only those `rules.check` finds nothing wrong with, so `legal` can never offer
a move the audit would flag. The table itself may record any point.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import product
from typing import Any

import msgspec

from events.base import Event
from rulesets.frontier import abilities, board, missions, movement, rolls, units
from rulesets.frontier.board import Point
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
from rulesets.frontier.params import Params
from rulesets.frontier.rules import (
    check,
    decision_mover,
    declared_refused,
    declaring_seat,
    deploy_refused,
    deploy_units_allow,
    marker_refused,
    move_refused,
    outcome,
    reaction_refused,
    still_placeable,
    unit_deploying,
    zone_levels,
)
from rulesets.frontier.state import (
    NEAR,
    REACTIONS,
    Piece,
    State,
    Unit,
    Window,
    army_of,
    bodies,
    current_wave,
    designated,
    enemies_of,
    evac_distance,
    evac_edges,
    faction_of,
    find,
    gap,
    has,
    heights_at,
    kind,
    layout,
    marker,
    on_board,
    position,
    role_of,
    seat_of,
    sees,
    sight_between,
    sight_lines,
    sighted,
    units_by_id,
)
from rulesets.frontier.state import piece as terrain_piece
from rulesets.frontier.terrain import STANDARD, spots
from rulesets.frontier.timing import chance_pending, front, reactive_seat, settled
from rulesets.memo import last_state
from rulesets.outcomes import Uniform
from rulesets.view import Compose, Part


def chance(params: Params, state: State) -> Sequence[tuple[Event, float]] | None:
    """At a chance step, every outcome with its probability; None at a decision. An action's
    roll is `Uniform`: every face of both sides' dice, each event made when read."""
    if state.stage == "roles" and state.roll_winner is None:
        die = params.role_die
        a, b = state.seats[0], state.seats[-1]
        return [(RolesRolled(rolls={a: x, b: y}), 1 / die ** 2) for x in range(1, die + 1) for y in range(1, die + 1)]
    turn = state.turn
    if state.stage != "play" or turn is None or not chance_pending(turn):
        return None
    if turn.nanites is not None:
        return [(NanitesRolled(value=v), 1 / 6) for v in range(1, 7)]
    if turn.tests:
        unit = find(state, turn.tests[0])
        if unit is None or unit.at is None:
            return [(DisciplineTested(unit=turn.tests[0], dice=(6,)), 1.0)]
        spec = rolls.discipline_test(params, state, unit)
        faces = list(product(range(1, spec.die + 1), repeat=spec.number))
        return [(DisciplineTested(unit=unit.id, dice=f), 1 / len(faces)) for f in faces]
    specs = rolls.action_rolls(params, state)
    if specs is None:
        return [(ActionRolled(active=(1,), reactive=(1,)), 1.0)]
    mine, theirs = specs
    return Uniform(_action_faces(mine.die, mine.number, theirs.die, theirs.number), _rolled)


@lru_cache(maxsize=64)
def _action_faces(die: int, number: int, their_die: int, their_number: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every face of both sides' dice, ours first: they depend on the dice alone (a few sizes
    and counts), so a game's hundred rolls share a handful of tuples. Each face is equally
    likely, so the step is `Uniform` (rulesets/outcomes.py): the simulator draws one outcome
    from its running totals and makes that one event, instead of summing up to 10,000 weights
    at every roll (`1 / n` is the weight `1 / (ours * theirs)` was, so the same draws)."""
    ours = list(product(range(1, die + 1), repeat=number))
    their = list(product(range(1, their_die + 1), repeat=their_number))
    return tuple((a, r) for a in ours for r in their)


def _rolled(faces: tuple[tuple[int, ...], tuple[int, ...]]) -> ActionRolled:
    return ActionRolled(active=faces[0], reactive=faces[1])


def legal(params: Params, state: State) -> list[Event]:
    """Every sampled event that may come next and that the rules accept."""
    outcomes = chance(params, state)
    if outcomes is not None:
        return [event for event, _ in outcomes]
    if state.stage == "play" and outcome(params, state) is not None:
        return []
    if state.stage == "terrain":
        return list(_set_up(params, state))
    if state.stage == "play":
        return list(_play(params, state, accepted=True))
    if state.stage == "deployment":
        return list(_deployment(params, state, accepted=True))
    return [event for event in _candidates(params, state) if not _refused(params, state, event)]


def _refused(params: Params, state: State, event: Event) -> bool:
    """Whether `check` finds anything wrong with a proposal. Where one rule refuses every
    proposal of a kind at this decision, it is asked alone (once per decision: its sight lines
    are remembered): an Ambush while an enemy sees the commando ("if this unit is out of line
    of sight of enemy units"), which `check` would refuse point by point. A sampled move
    stops at the first rule it breaks (`rules.move_refused`); a unit set up is asked what
    depends on the unit once, then each point (`rules.deploy_refused`); a declared action
    likewise asks the decision once, then the unit and its target (`rules.declared_refused`),
    a reaction the decision once, then the unit and its requirements (`rules.reaction_refused`),
    and a mission marker set up the step once, then its point (`rules.marker_refused`)."""
    kind_ = type(event)
    refused = _REFUSED.get(kind_)  # (by the event's very type: no event class is subclassed)
    if refused is not None:
        return refused(params, state, event)
    if isinstance(event, AbilityUsed) and event.ability == "ambush" and (
            event.unit in _ambushers_in_sight(params, state) or _ambush_point_watched(state, event)):
        return True
    return bool(check(params, state, event))


_REFUSED: dict[type, Callable[[Params, State, Any], bool]] = {
    UnitMoved: move_refused, UnitDeployed: deploy_refused, ActionDeclared: declared_refused,
    ReactionDeclared: reaction_refused, MarkerPlaced: marker_refused}
"""`_refused`'s yes or no per event type, where one is kept apart from `check`."""


def _ambush_point_watched(state: State, event: AbilityUsed) -> bool:
    """An Ambush place further than 15" or that one enemy sees ("anywhere within 15" that is
    also out of line of sight"): `check` refuses it whatever else it finds, so the other
    enemies' lines to it are not traced (most places are seen; each line to a new place is
    new geometry). The same questions `abilities.check` asks; any other place is checked."""
    unit = find(state, event.unit)
    if unit is None or unit.at is None or len(event.points) != 1:
        return False
    at = event.points[0]
    if board.distance(at, position(unit)) > 15 + board.EPS:
        return True
    # `sees(state, enemy, unit, b_at=at, b_level=event.level)` for each enemy, the commando's end put there found once
    there, lines, standing = sighted(state, unit, at, event.level), sight_lines(state), bodies(state)
    return any(lines(sighted(state, enemy), there, standing) is None for enemy in enemies_of(state, unit))


@last_state  # asked by each of a decision's two dozen Ambush points (rulesets/memo.py)
def _ambushers_in_sight(params: Params, state: State) -> frozenset[str]:
    """The units on the table with Ambush that an enemy sees (`abilities.spotters`)."""
    return frozenset(u.id for u in on_board(state) if has(u, "ambush") and abilities.spotters(state, u))


_SET_UPS: dict[tuple[object, ...], tuple[Event, ...]] = {}
SET_UPS_KEPT = 256


def _set_up(params: Params, state: State) -> tuple[Event, ...]:
    """The set-up's legal events, kept per table. While the board is set up they depend on
    the seats and the pieces on the table alone (rules.py's terrain checks read nothing
    else), and every bot game lays the same standard table in the same order: so a bot
    game's set-up costs lookups after the first game, not some 800 checked placements at
    each of its fourteen positions. Pure values in, pure values out; a bounded memo."""
    key = (state.seats, state.terrain)
    found = _SET_UPS.get(key)
    if found is None:
        before = _SET_UPS.get((state.seats, state.terrain[:-1])) if state.terrain else None
        if before is None:
            found = tuple(event for event in _terrain(state) if not check(params, state, event))
        else:
            found = _one_piece_more(params, state, before)
        if len(_SET_UPS) >= SET_UPS_KEPT:
            _SET_UPS.clear()
        _SET_UPS[key] = found
    return found


def _one_piece_more(params: Params, state: State, before: tuple[Event, ...]) -> tuple[Event, ...]:
    """The set-up's legal events once one more piece is down, from those of the table before
    it (`before`, in `_terrain`'s order): the new piece's own placements go; every other
    placement or move stays legal unless it overlaps the new piece (`rules.still_placeable`);
    the moves of the new piece and the agreement are checked afresh. A piece is only ever
    added, so nothing refused before becomes legal."""
    new = state.terrain[-1]
    kept: list[Event] = []
    for event in before:
        if isinstance(event, TerrainPlaced) and event.piece != new.id and still_placeable(new, event, event.outline):
            kept.append(event)
        elif isinstance(event, TerrainMoved):
            moving = terrain_piece(state, event.piece)
            if moving is not None and still_placeable(new, event, board.moved_to(moving.outline, event.to)):
                kept.append(event)
    fresh = (*_moves_of(state, new), TerrainAgreed(by=state.seats[0]))
    return (*kept, *(event for event in fresh if not check(params, state, event)))


def candidates(params: Params, state: State) -> Iterator[Event]:
    """Every event proposed at a decision before the rules filter it (the contract's reference)."""
    if chance(params, state) is None and not (state.stage == "play" and outcome(params, state) is not None):
        yield from _candidates(params, state)


def _candidates(params: Params, state: State) -> Iterator[Event]:
    if state.stage == "terrain":
        yield from _terrain(state)
    elif state.stage == "roles":
        if state.roll_winner is not None:
            yield from (RoleChosen(by=state.roll_winner, role=r) for r in missions.ROLES)
    elif state.stage == "selection":
        yield from _selection(state)
    elif state.stage == "deployment":
        yield from _deployment(params, state)
    else:
        yield from _play(params, state)


# --- setup ------------------------------------------------------------------------------------


def _terrain(state: State) -> Iterator[Event]:
    """While the board is set up: each standard piece not on the table, where the standard
    table has it and at the sample points (terrain.POINTS); each piece on the table moved to
    those points; and the agreement. A table taken whole from an earlier match is written
    by the recorder in one append (projections.record.tables), not chosen here."""
    placed = {t.id for t in state.terrain}
    seat = state.seats[0]
    for standard in STANDARD:
        if standard.piece not in placed:
            yield msgspec_replace(standard, by=seat)
            for to in spots(standard.outline):
                yield msgspec_replace(standard, by=seat, outline=board.moved_to(standard.outline, to))
    for piece in state.terrain:
        yield from _moves_of(state, piece)
    yield TerrainAgreed(by=seat)


def _moves_of(state: State, piece: Piece) -> Iterator[Event]:
    """A piece on the table moved to each sample point."""
    return (TerrainMoved(by=state.seats[0], piece=piece.id, to=to) for to in spots(piece.outline))


def msgspec_replace(event: Event, **changes: object) -> Event:
    """An event with some fields changed (the standard table's pieces get their seat)."""
    return msgspec.structs.replace(event, **changes)


def selection_order(state: State) -> list[str]:
    """Seats in the order they choose: the attacker first."""
    return sorted(state.seats, key=lambda s: s != state.attacker)


def _selection(state: State) -> Iterator[Event]:
    order = selection_order(state)
    needs_faction = [s for s in order if faction_of(state, s) is None]
    if needs_faction:
        seat = needs_faction[0]
        agreed = dict(state.agreed_factions).get(seat)
        yield from (FactionChosen(by=seat, faction=f) for f in units.FACTIONS if agreed in (None, f))
        return
    for seat in order:
        if army_of(state, seat) is None:
            agreed_army = dict(state.agreed_armies).get(seat)
            faction = faction_of(state, seat) or ""
            options = [agreed_army] if agreed_army is not None else army_options(faction, state.points)
            yield from (ArmySelected(by=seat, units=army) for army in options)
            return


def compose(params: Params, state: State) -> tuple[Compose, ...]:
    """The army of the seat choosing now, built unit by unit: "select units from that faction
    up to the point limit for the mission" (frontier.md, Setting up a game). `legal` offers
    a dozen ready lists for the bots; a table points at any army the points allow."""
    if state.stage != "selection" or any(faction_of(state, s) is None for s in state.seats):
        return ()
    seat = next((s for s in selection_order(state) if army_of(state, s) is None), None)
    faction = units.FACTIONS.get(faction_of(state, seat) or "") if seat is not None else None
    if seat is None or faction is None:
        return ()
    parts = tuple(Part(value=t, words=f"{units.UNITS[t].points} pts · {units.UNITS[t].name}", cost=units.UNITS[t].points)
                  for t in faction.units)
    return (Compose(title=f"{seat}'s army ({faction.name}, up to {state.points} points)", template=ArmySelected(by=seat, units=()),
                    field="units", parts=parts, repeats=True, budget=state.points,
                    hint="tap a unit to add it; tap it in the army to take it out"),)


def army_options(faction: str, points: int) -> list[tuple[str, ...]]:
    """A dozen armies of a faction within the limit: one of each type in each rotation of the
    printed order, and each type doubled up; as many units as fit."""
    types = units.FACTIONS[faction].units if faction in units.FACTIONS else ()
    out: list[tuple[str, ...]] = []
    for lead in range(len(types)):
        order = types[lead:] + types[:lead]
        for doubled in (False, True):
            picks = [order[0]] * (2 if doubled else 1)
            total = sum(units.UNITS[t].points for t in picks)
            if total > points:
                continue
            for t in order[1:]:
                if total + units.UNITS[t].points <= points:
                    picks.append(t)
                    total += units.UNITS[t].points
            army = tuple(picks)
            if army not in out:
                out.append(army)
    return out


# --- deployment ---------------------------------------------------------------------------------


def _deployment(params: Params, state: State, *, accepted: bool = False) -> Iterator[Event]:
    """The set-up's candidates. With `accepted`, only those the rules accept (`legal`): a
    unit's points are tested where they are made (`_unit_points`), anything else is asked
    of `_refused`."""
    events = _deployment_events(params, state, accepted)
    if not accepted:
        return events
    return (event for event in events if type(event) is UnitDeployed or not _refused(params, state, event))


def _deployment_events(params: Params, state: State, accepted: bool) -> Iterator[Event]:
    wave = current_wave(state)
    seat = seat_of(state, wave.role) if wave else None
    if wave is None or seat is None:
        return
    mine = state.defender_edges if wave.role == "defender" else state.attacker_edges
    if wave.edge == "long" and not mine:
        yield from (EdgeChosen(by=seat, edges=(e,)) for e in missions.LONG_EDGES)
        return
    if wave.edge == "corner" and not mine:
        yield from (EdgeChosen(by=seat, edges=pair) for pair in missions.corners())
        return
    if wave.marker is not None and marker(state, wave.marker) is None:
        yield from (MarkerPlaced(by=seat, marker=wave.marker, point=p) for p in _marker_points(wave.marker))
        return
    roster = [u for u in state.units if u.side == seat and u.status == "roster"]
    if wave.scope == "half" and not _split(state, seat):
        yield DeploymentDone(by=seat)  # never strand half of a unit type: "within 5" of all other units of the same type"
    if roster and wave.scope != "none":
        zone = missions.zone(state.mission, wave.zone, layout(state))
        for unit in _next_to_deploy(state, seat, roster, wave.scope == "half"):
            yield from _unit_points(params, state, seat, unit, zone, accepted)
            yield from _reserve(state, unit, seat)


def _unit_points(params: Params, state: State, seat: str, unit: Unit, zone: missions.Zone, accepted: bool) -> Iterator[Event]:
    """A unit set up at each sampled point and height. With `accepted`, only where the rules
    accept it: what its set-up asks whatever the point is asked once (`rules.unit_deploying`),
    then each point's heights that the zone and the ground allow (`rules.zone_levels`,
    remembered per table) and the other units there (`rules.deploy_units_allow`): what
    `rules.deploy_refused` asks of each event, without making the events it refuses."""
    if not accepted:
        for p in _deploy_points(state, unit, zone):
            yield from (UnitDeployed(by=seat, unit=unit.id, point=p, level=h) for h in heights_at(state, p))
        return
    problems, ready = unit_deploying(params, state, seat, unit.id)
    if problems or ready is None or ready.half:
        return
    levels_at = zone_levels(state, ready.zone)  # `rules.deploy_levels` in the unit's zone
    for p in _deploy_points(state, unit, zone):
        levels = levels_at(p)  # `heights_at`'s heights that the zone and ground allow, in order
        if levels and deploy_units_allow(p, ready):  # (the other units' answer reads the point alone: asked once, not per height)
            for h in levels:
                yield UnitDeployed(by=seat, unit=unit.id, point=p, level=h)


def _next_to_deploy(state: State, seat: str, roster: list[Unit], half: bool) -> list[Unit]:
    """The unit to set up next: the first on the roster; in a "up to 50%" step, the first of each
    type whose whole group still fits (a type is never split across steps)."""
    if not half:
        return roster[:1]
    limit = 0.5 * sum(kind(u).points for u in state.units if u.side == seat)
    down = {u.type for u in on_board(state, seat)}
    committed = sum(kind(u).points for u in on_board(state, seat)) + sum(kind(u).points for u in roster if u.type in down)
    out, seen = [], set()
    for unit in roster:
        if unit.type in seen:
            continue
        seen.add(unit.type)
        group = sum(kind(u).points for u in roster if u.type == unit.type)
        if unit.type in down or committed + group <= limit:
            out.append(unit)
    return out


def _split(state: State, seat: str) -> bool:
    """Whether some unit type of the seat is partly set up (the rest could not join it later)."""
    down = {u.type for u in on_board(state, seat)}
    return any(u.status == "roster" and u.type in down for u in state.units if u.side == seat)


def _grid(x0: float, y0: float, x1: float, y1: float, step: float) -> list[Point]:
    out = []
    x = x0
    while x <= x1 + 1e-9:
        y = y0
        while y <= y1 + 1e-9:
            out.append((round(x, 2), round(y, 2)))
            y += step
        x += step
    return out


def _marker_points(kind_: str) -> list[Point]:
    if kind_ == "strong_point":
        return _grid(4, 3, 40, 27, 6)
    return [(x, y) for x in (2.0, 5.0, 8.0, 36.0, 39.0, 42.0) for y in (5.0, 10.0, 15.0, 20.0, 25.0)]


def _deploy_points(state: State, unit: Unit, zone: missions.Zone) -> list[Point]:
    """A spread of points in the zone; around the unit's own type if one is already down."""
    kin = [u for u in on_board(state, unit.side) if u.type == unit.type]
    if kin:
        cx = sum(position(u)[0] for u in kin) / len(kin)
        cy = sum(position(u)[1] for u in kin) / len(kin)
        return [movement.snap(p) for r in (1.2, 2.2, 3.2, 4.2) for p in movement.ring((cx, cy), r, 8)]  # every 45 degrees
    return list(_zone_points(zone))


@lru_cache(maxsize=64)
def _zone_points(zone: missions.Zone) -> tuple[Point, ...]:
    """Two dozen points spread over a zone: they depend on the zone alone (a mission has a few),
    so every unit of every game set up first of its type there is offered the same ones."""
    points: list[Point] = []
    for rect in zone.rects:
        points += _grid(rect.x0 + 1, rect.y0 + 1, rect.x1 - 1, rect.y1 - 1, 3)
    points = [p for p in points if zone.contains(p)]
    if len(points) > 24:
        stride = len(points) / 24
        points = [points[int(i * stride)] for i in range(24)]
    return tuple(points)


def _reserve(state: State, unit: Unit, seat: str) -> Iterator[Event]:
    if has(unit, "orbital_drop"):
        yield UnitReserved(by=seat, unit=unit.id)
    if has(unit, "infiltration"):
        enemy = "defender" if role_of(state, seat) == "attacker" else "attacker"
        zone = missions.deployment_zone(state.mission, enemy, layout(state))
        spots = [p for p in _grid(4, 3, 40, 27, 6) if not zone.contains(p)]
        if len(spots) >= 3:
            yield UnitReserved(by=seat, unit=unit.id, tokens=(spots[0], spots[len(spots) // 2], spots[-1]))


# --- play -----------------------------------------------------------------------------------------------


def _play(params: Params, state: State, *, accepted: bool = False) -> Iterator[Event]:
    """Play's candidates; with `accepted`, only those the rules accept (`legal`): a move's
    ends and open fire's targets are tested where they are made (`_move_window`,
    `_declarations`), anything else is asked of `_refused`."""
    turn = state.turn
    if turn is None:
        return
    window = front(turn)
    if window is not None:
        if window.kind == "move":
            yield from _move_window(params, state, window, accepted=accepted)
        else:
            yield from _kept(params, state, _window(params, state, window), accepted)
        return
    act = turn.activation
    if act is not None and act.phase == "react":
        yield from _kept(params, state, _reactions(params, state), accepted)
        return
    if not settled(turn):
        return
    seat = turn.seat
    if turn.step == "strategic":
        yield from _kept(params, state, _strategic(params, state, seat), accepted)
        if not any(on_board(state, seat)):
            yield from _kept(params, state, (Passed(by=seat, step="strategic"),), accepted)
    yield from _declarations(params, state, seat, accepted=accepted)
    yield from _kept(params, state, _at_any_point(state, seat), accepted)
    standing = on_board(state, seat)
    if standing and all(movement.cannot_move(unit) for unit in standing):  # a unit that can move may advance (readings.py, turn.no-action)
        yield from _kept(params, state, (Passed(by=seat, step="action"),), accepted)


def _kept(params: Params, state: State, events: Iterable[Event], accepted: bool) -> Iterable[Event]:
    """The events, or with `accepted` those `_refused` lets through."""
    return (event for event in events if not _refused(params, state, event)) if accepted else events


def goals(state: State, unit: Unit) -> tuple[Point, ...]:
    """Points worth moving toward or away from: markers, the nearest enemies, the nearest evac edge."""
    out: list[Point] = [t.at for t in state.tokens if t.kind in ("strong_point", "target", "vip")]
    here = position(unit)
    foes = sorted(enemies_of(state, unit), key=lambda e: board.distance(here, position(e)))
    out += [position(e) for e in foes[:2]]
    edges = evac_edges(state, unit.side)
    if edges:
        nearest = min(edges, key=lambda e: missions.edge_distance(e, here))
        out.append(_edge_point(nearest, here))
    return tuple(out)


def _edge_point(edge: str, p: Point) -> Point:
    return {"south": (p[0], 0.0), "north": (p[0], missions.HEIGHT), "west": (0.0, p[1]), "east": (missions.WIDTH, p[1])}[edge]


def _move_window(params: Params, state: State, window: Window, *, accepted: bool = False) -> Iterator[Event]:
    """A move window's candidates: sampled ends, ways round a unit in the way, and passing.
    With `accepted`, only those the rules accept (`legal`): a move's ends are tested where
    they are sampled (`movement.mover_allows` with the decision's mover, what
    `rules.move_refused` asks of each), so a refused end makes no event and no dispatch;
    passing is asked of `check` as before."""
    seat = window.seat
    unit = find(state, window.unit)
    if unit is None or unit.at is None:
        return
    aims = goals(state, unit)
    away = find(state, window.away_from)
    if away is not None and away.at is not None:
        aims = (*aims, board.toward(away.at, unit.at, board.distance(away.at, unit.at) + 10))
    ends = movement.sample_ends(state, unit, window, aims)
    aim = find(state, window.keep_sight)
    if aim is not None and aim.at is not None:
        ends += fight_through_ends(state, unit, aim, window)
    mover = decision_mover(params, state, seat, unit.id) if accepted else None
    moving = mover is not None or not accepted  # (an accepted move needs a mover: none, every end is refused)
    allows = movement.mover_allows
    for to, h in dict.fromkeys(ends):
        if moving and (mover is None or allows(mover, to, h, ())):
            yield UnitMoved(by=seat, unit=unit.id, to=to, level=h)
    reach = movement.allowance(unit, window)
    for goal in aims:  # a way round a unit standing between the mover and what it moves toward
        to = movement.snap(board.toward(unit.at, goal, min(reach - 0.02, max(board.distance(unit.at, goal) - 1.2, 0.0))))
        for path in movement.detours(state, unit, to):
            if moving and (mover is None or allows(mover, to, 0, path)):
                yield UnitMoved(by=seat, unit=unit.id, to=to, path=path)
    passed = Passed(by=seat, step="move", unit=unit.id)
    if not accepted or not _refused(params, state, passed):
        yield passed


def _window(params: Params, state: State, window: Window) -> Iterator[Event]:
    seat = window.seat
    if window.kind == "move":
        yield from _move_window(params, state, window)
    elif window.kind == "strong_point" and window.origin is not None:
        for i in range(24):
            p = board.polar(window.origin, i * 15, 15)
            if missions.on_table(p):
                yield MarkerPlaced(by=seat, marker="strong_point", point=(round(p[0], 3), round(p[1], 3)))
    elif window.kind == "autoguns":
        for enemy in on_board(state):
            if enemy.side != seat and enemy.id != window.target and window.origin and board.distance(position(enemy), window.origin) <= NEAR:
                yield ActionDeclared(by=seat, unit=window.unit or "", action="open_fire", target=enemy.id)
        yield Passed(by=seat, step="follow_up")
    elif window.kind == "demolition":
        yield AbilityUsed(by=seat, unit=window.unit or "", ability="unscheduled_demolition")
        yield Passed(by=seat, step="follow_up")
    else:
        for unit in on_board(state, seat):
            if unit.id != window.unit:
                yield ActionDeclared(by=seat, unit=unit.id, action="open_fire", target=window.target)
        yield Passed(by=seat, step="follow_up")


def _reactions(params: Params, state: State) -> Iterator[Event]:
    turn = state.turn
    act = turn.activation if turn else None
    seat = reactive_seat(state)
    active = find(state, act.unit) if act else None
    if act is None or seat is None or active is None or active.at is None:
        return
    for unit in on_board(state, seat):
        for reaction in REACTIONS.get(act.action, ()):
            if reaction in ("firefight", "take_cover", "fall_back") and unit.id != act.target:
                continue
            if reaction in ("flank", "counter_attack") and gap(unit, active) > params.engagement_range:
                continue
            if reaction in ("overwatch", "firefight") and gap(unit, active) < params.engagement_range:
                continue
            yield ReactionDeclared(by=seat, unit=unit.id, reaction=reaction)
    yield Passed(by=seat, step="reaction")
    target = find(state, act.target)
    for unit in on_board(state, seat):
        if target is not None and unit.id == target.id:
            for ability in ("ghost_field", "experimental_holtzmann_field", "escape_plan"):
                if _unused(unit, ability):
                    yield AbilityUsed(by=seat, unit=unit.id, ability=ability)
        if _unused(unit, "holofield") and target is not None:
            yield AbilityUsed(by=seat, unit=unit.id, ability="holofield")
        if _unused(unit, "experimental_targeting_system") and gap(unit, active) >= params.engagement_range:
            yield AbilityUsed(by=seat, unit=unit.id, ability="experimental_targeting_system")
    yield from _at_any_point(state, seat)


def _unused(unit: Unit, ability: str) -> bool:
    return has(unit, ability) and ability not in unit.used


def _at_any_point(state: State, seat: str) -> Iterator[Event]:
    """Abilities the text lets a unit use "at any point" (offered at the seat's own decisions);
    a unit whose type has none of them (`AT_ANY_POINT`, most types) is passed by."""
    for unit in on_board(state, seat):
        if AT_ANY_POINT.isdisjoint(units.ABILITY_IDS.get(unit.type, ())):
            continue
        if _unused(unit, "flame_units"):
            for enemy in enemies_of(state, unit):
                if gap(unit, enemy) <= NEAR:
                    yield AbilityUsed(by=seat, unit=unit.id, ability="flame_units", target=enemy.id)
        if _unused(unit, "repulsor_field") and any(gap(unit, e) <= NEAR for e in enemies_of(state, unit)):
            yield AbilityUsed(by=seat, unit=unit.id, ability="repulsor_field")
        if _unused(unit, "freedom_fighters") and unit.shaken:
            yield AbilityUsed(by=seat, unit=unit.id, ability="freedom_fighters")


AT_ANY_POINT = frozenset({"flame_units", "repulsor_field", "freedom_fighters"})
"""The abilities `_at_any_point` offers: a unit whose type has none of them offers none."""


def _strategic(params: Params, state: State, seat: str) -> Iterator[Event]:
    role = role_of(state, seat)
    mine = list(on_board(state, seat))
    yield from _objectives(params, state, seat, role, mine)
    for unit in mine:
        yield from _strategic_abilities(state, seat, unit)
    for unit in state.units:
        if unit.side == seat and unit.status == "reserve":
            yield from _from_reserve(state, seat, unit)
    for t in state.tokens:
        if t.kind == "knife_missile" and t.owner == seat:
            for p in _toward_enemies(state, seat, t.at, NEAR):
                yield TokenMoved(by=seat, token=t.id, to=p)


def _objectives(params: Params, state: State, seat: str, role: str | None, mine: list[Unit]) -> Iterator[Event]:
    for kind_, make in (("strong_point", StrongPointSeized), ("target", ChargePlaced)):
        found = marker(state, kind_)
        if found is not None and role == "attacker":
            for unit in mine:
                if board.distance(position(unit), found.at) <= NEAR:
                    yield make(by=seat, unit=unit.id)
    if state.mission == "sabotage" and state.charges:
        if role == "attacker":
            yield ChargesDetonated(by=seat)
        target = marker(state, "target")
        for unit in mine if role == "defender" and target else ():
            if target is not None and board.distance(position(unit), target.at) <= NEAR:
                yield ChargeDefused(by=seat, unit=unit.id)
    vip = marker(state, "vip")
    if vip is not None and role == "attacker":
        escort = next((u for u in mine if board.distance(position(u), vip.at) <= NEAR), None)
        if escort is not None:
            for p in _vip_steps(state, seat, vip.at):
                yield VipEscorted(by=seat, unit=escort.id, to=p)


def _vip_steps(state: State, seat: str, at: Point) -> list[Point]:
    """Where the VIP may go: toward the attacker's evac edge (touching it if in reach), and around."""
    points = [board.polar(at, a, 10) for a in range(0, 360, 45)]
    for edge in evac_edges(state, seat):
        target = _edge_point(edge, at)
        d = board.distance(at, target)
        points.append(board.toward(at, target, min(10.0, d)) if d > 0 else target)
    return [movement.snap(board.toward(at, p, min(10.0, board.distance(at, p)) - 0.01)) if board.distance(at, p) > 10 else movement.snap(p) for p in points]


def _toward_enemies(state: State, seat: str, at: Point, reach: float) -> list[Point]:
    foes = sorted((u for u in on_board(state) if u.side != seat), key=lambda u: board.distance(at, position(u)))
    points = [board.toward(at, position(u), min(reach - 0.01, board.distance(at, position(u)))) for u in foes[:2]]
    points += [board.polar(at, a, reach - 0.5) for a in (0, 90, 180, 270)]
    return [movement.snap(p) for p in points]


STRATEGIC_ABILITIES = frozenset({"knife_missile", "experimental_nanites", "stim_packs", "forward_maggots", "neural_trojan",
                                 "self_destruct", "target_designator", "focus_fire", "ambush", "minefield"})
"""The abilities `_strategic_abilities` offers: a unit whose type has none of them offers none."""


def _strategic_abilities(state: State, seat: str, unit: Unit) -> Iterator[Event]:
    """A unit's strategic abilities; its friends within 5" and its enemies are listed only for
    an ability that offers one of them (most units have none)."""
    if STRATEGIC_ABILITIES.isdisjoint(units.ABILITY_IDS.get(unit.type, ())):
        return
    if _unused(unit, "knife_missile"):
        for p in _toward_enemies(state, seat, position(unit), NEAR):
            yield AbilityUsed(by=seat, unit=unit.id, ability="knife_missile", points=(p,))
    for ability in ("experimental_nanites", "stim_packs"):
        if _unused(unit, ability):
            friends = [u for u in on_board(state, seat) if gap(unit, u) <= NEAR]
            yield from (AbilityUsed(by=seat, unit=unit.id, ability=ability, target=f.id) for f in friends)
    for ability in ("forward_maggots", "neural_trojan", "self_destruct"):
        if _unused(unit, ability):
            yield AbilityUsed(by=seat, unit=unit.id, ability=ability)
    if has(unit, "target_designator"):
        for foe in enemies_of(state, unit):
            if not designated(state, foe) and sees(state, unit, foe):
                yield AbilityUsed(by=seat, unit=unit.id, ability="target_designator", target=foe.id)
    if _unused(unit, "focus_fire"):
        yield from (AbilityUsed(by=seat, unit=unit.id, ability="focus_fire", target=f.id) for f in enemies_of(state, unit) if designated(state, f))
    if _unused(unit, "ambush"):
        for radius in (8.0, 14.0):
            for p in movement.ring(position(unit), radius, 12):  # every 30 degrees
                yield AbilityUsed(by=seat, unit=unit.id, ability="ambush", points=(movement.snap(p),))
    if _unused(unit, "minefield"):
        ring = [movement.snap(p) for p in movement.ring(position(unit), 8, 12)]
        for i in range(0, 12, 2):
            yield AbilityUsed(by=seat, unit=unit.id, ability="minefield", points=(ring[i], ring[(i + 3) % 12]))


def _from_reserve(state: State, seat: str, unit: Unit) -> Iterator[Event]:
    if has(unit, "orbital_drop"):
        spots = [board.polar(position(e), a, 3.5) for e in on_board(state) if e.side != seat for a in (0, 120, 240)]
        spots += _grid(6, 5, 38, 25, 8)
        for p in spots:
            q = movement.snap(p)
            for h in heights_at(state, q):
                yield AbilityUsed(by=seat, unit=unit.id, ability="orbital_drop", points=(q,), level=h)
    if has(unit, "infiltration"):
        for t in state.tokens:
            if t.kind == "infiltration" and t.id.startswith(f"{unit.id}:"):
                for h in heights_at(state, t.at):
                    yield AbilityUsed(by=seat, unit=unit.id, ability="infiltration", points=(t.at,), level=h)


def _declarations(params: Params, state: State, seat: str, *, accepted: bool = False) -> Iterator[Event]:
    """Step 2: every unit and action (targets pre-filtered by distance; `check` decides).
    With `accepted`, only those the rules accept: where `rules.declared_refused` asks the
    decision once (`rules.declaring_seat`), open fire's targets are tested where they are
    made, with its questions (the seat, the unit and the target as found by id, then
    `abilities.open_fire_allowed`), so a refused target makes no event (most are refused:
    no line of sight); anything else is asked of `_refused`."""
    declaring = declaring_seat(params, state) if accepted else None
    events = _declared(params, state, seat, declaring)
    if not accepted:
        return events
    return (event for event in events
            if (declaring is not None and type(event) is ActionDeclared and event.action in _TESTED_IN_PLACE) or not _refused(params, state, event))


_TESTED_IN_PLACE = frozenset({"open_fire", "advance", "bug_out"})
"""The actions `_declared` tests where it makes them when it has a declaring seat (it yields only
those `declared_refused` lets through), so `_declarations` does not ask `_refused` of them."""


def _declared(params: Params, state: State, seat: str, declaring: str | None) -> Iterator[ActionDeclared | AbilityUsed]:
    """`_declarations`' events; with a `declaring` seat, its open fire, advance and bug out only
    where allowed (`declared_refused`'s questions: the seat, the unit found by id on the table
    and the seat's, then open fire's target, range and sight, advance's Kill Zone (it has no
    target), bug out's evac distance), with none every candidate. A unit's declared abilities
    are looked for only among those its type has (`_DECLARED_ABILITIES`)."""
    engagement = params.engagement_range
    sees_standing = sight_between(state)  # the decision's lines, asked of one closure
    by_id = units_by_id(state)  # `find`, the units tuple's index asked once
    for unit in on_board(state, seat):
        reach = _fight_through_reach(params, unit)  # the unit's alone: asked once, not per enemy
        shooter = by_id.get(unit.id) if declaring is not None else None
        firing = declaring is None or (seat == declaring and shooter is not None and shooter.side == seat and shooter.status == "board")
        if firing and (shooter is None or not movement.cannot_move(shooter)):  # (`declared_refused` of an advance: the seat, the unit, Kill Zone)
            yield ActionDeclared(by=seat, unit=unit.id, action="advance")
        for foe in enemies_of(state, unit):
            away = gap(unit, foe)
            if away >= engagement and firing and (shooter is None or _open_fire_at(state, shooter, by_id.get(foe.id), (unit, foe, away), sees_standing)):
                yield ActionDeclared(by=seat, unit=unit.id, action="open_fire", target=foe.id)
            if away <= reach and _can_fight_through(params, state, unit, foe, away, sees_standing):
                yield ActionDeclared(by=seat, unit=unit.id, action="fight_through", target=foe.id)
        if firing and (shooter is None or not evac_distance(state, shooter) > engagement + board.EPS):  # (`declared_refused` of a bug out)
            yield ActionDeclared(by=seat, unit=unit.id, action="bug_out")
        used = unit.used
        for ability in _DECLARED_ABILITIES.get(unit.type, ()):  # `_unused(unit, ability)` of the four, by the type's own
            if ability not in used:
                yield AbilityUsed(by=seat, unit=unit.id, ability=ability)


_DECLARED_ABILITIES: dict[str, tuple[str, ...]] = {
    type_: tuple(a for a in ("experimental_targeting_system", "override_safety_parameters", "jump_packs", "ghost_field") if a in ids)
    for type_, ids in units.ABILITY_IDS.items()}
"""The abilities a unit may declare at its action (in that order) that each unit type has (`has`):
most types have none, so a declaration asks no `has` of them."""


def _open_fire_at(state: State, shooter: Unit, target: Unit | None, measured: tuple[Unit, Unit, float],
                  sees_standing: Callable[[Unit, Unit], bool]) -> bool:
    """`rules.declared_refused`'s target questions of an open fire (`target`: the unit found by
    the target's id), answered yes. Where the shooter and the target are the very units whose
    gap the caller measured (`measured`: the two and their `gap`), `abilities.open_fire_allowed`'s
    questions are asked with that gap and the decision's lines (`sees_standing`); otherwise (a
    table's duplicate id) as `check` asks them."""
    if target is None or target.status != "board" or target.side == shooter.side:
        return False
    unit, foe, away = measured
    if shooter is not unit or target is not foe or shooter.at is None or target.at is None:
        return abilities.open_fire_allowed(state, shooter, target)
    if away < 10 - board.EPS:
        return False
    return (shooter.type == "specialist" and designated(state, target)) or sees_standing(shooter, target)


def _can_fight_through(params: Params, state: State, unit: Unit, foe: Unit, away: float | None = None,
                       sees_standing: Callable[[Unit, Unit], bool] | None = None) -> bool:
    """Fight Through is offered only if a first move (sampled) can bring the target within 10" and sight.
    `away`: the two units' `gap`, when the caller has measured it; `sees_standing`: the
    decision's `sees` (`state.sight_between`), when the caller has it."""
    if away is None:
        away = gap(unit, foe)
    if away > _fight_through_reach(params, unit):
        return False
    if away <= params.engagement_range and (sees(state, unit, foe) if sees_standing is None else sees_standing(unit, foe)):
        return True
    if movement.cannot_move(unit):  # Kill Zone: no first move brings the target in
        return False
    window = _first_move_window(params, unit, foe)
    ends, grounds = _fight_through_grounds(params, state, unit, foe)
    for i, (to, h) in enumerate(ends):  # an end the table refuses is passed by; the first the units allow too offers it
        ground = grounds[i]
        if ground is None:
            ground = grounds[i] = movement.ground_allowed(state, unit, window, to, h)
        if ground and movement.units_allow(state, unit, window, to, h):
            return True
    return False


def _fight_through_reach(params: Params, unit: Unit) -> float:
    """The furthest a target may stand for Fight Through to be offered: within 10" after the
    longest first move the unit has (further, no sampled first move can bring it within 10")."""
    return params.engagement_range + movement.allowance_of(unit, _first_move_inches(params, unit))


_GROUNDS: dict[tuple[object, ...], tuple[Params, tuple[Piece, ...], tuple[tuple[Point, int], ...], list[bool | None]]] = {}
GROUNDS_KEPT = 4096


def _fight_through_grounds(params: Params, state: State, unit: Unit, foe: Unit) -> tuple[tuple[tuple[Point, int], ...], list[bool | None]]:
    """Fight Through's sampled first moves, each with whether the table allows it
    (`movement.ground_allowed`; None until asked: the offer stops at the first end the units
    allow too, and most ends it reaches are its first), kept per table and per what they read
    of the two units (where they stand, their type, and what the unit has primed; the window
    follows from these and the params): a turn's declarations ask them again while the two
    stand still and other units move or change (more than half the time); what the units
    standing decide (`movement.units_allow`) is asked each time. Params and table by identity
    (frozen values, each checked on a hit), the units by value; a bounded memo of pure answers."""
    key = (id(params), id(state.terrain), unit.id, unit.type, unit.at, unit.level, unit.primed, foe.id, foe.type, foe.at, foe.level)
    found = _GROUNDS.get(key)
    if found is not None and found[0] is params and found[1] is state.terrain:
        return found[2], found[3]
    ends = tuple(fight_through_ends(state, unit, foe, _first_move_window(params, unit, foe)))
    grounds: list[bool | None] = [None] * len(ends)
    if len(_GROUNDS) >= GROUNDS_KEPT:
        _GROUNDS.clear()
    _GROUNDS[key] = (params, state.terrain, ends, grounds)
    return ends, grounds


def _first_move_window(params: Params, unit: Unit, foe: Unit) -> Window:
    return Window(kind="move", seat=unit.side, unit=unit.id, purpose="fight_through",
                  allowance=_first_move_inches(params, unit), keep_sight=foe.id)


def _first_move_inches(params: Params, unit: Unit) -> float:
    """Fight Through's first move ("Keen to Impress": 7" instead of the usual 5")."""
    return 7.0 if has(unit, "keen_to_impress") else params.short_move


def fight_through_ends(state: State, unit: Unit, foe: Unit, window: Window) -> list[tuple[Point, int]]:
    """Fight Through's first move: straight at the target and 25 degrees either side, as far as it may go."""
    here, there = position(unit), position(foe)
    reach = movement.allowance(unit, window)
    step = min(reach - 0.02, max(gap(unit, foe) - kind(unit).base - kind(foe).base - 0.1, 0.0))
    heading = _angle(here, there)
    ends = []
    for turn in (0.0, 25.0, -25.0):
        to = movement.snap(board.polar(here, heading + turn, step))
        ends += [(to, h) for h in heights_at(state, to)]
    return ends


def _angle(a: Point, b: Point) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
