"""What a Frontier state looks like: the table to scale, terrain, zones, units, tokens and the
last action's line of sight or path; and the numbers analytics keeps per step.

Everything on the table is open. The one secret is the army selection: "they should then
keep their unit selection a secret until both players have picked their units" (Faction
and Unit Selection), so a seat's view leaves out the other army until both have chosen.
"""

from __future__ import annotations

from rulesets.frontier import board, missions, units
from rulesets.frontier.params import Params
from rulesets.frontier.rules import victory
from rulesets.frontier.state import (
    State,
    Unit,
    army_of,
    army_points,
    attacker_losses,
    current_wave,
    defender,
    designated,
    destroyed_points,
    evac_edges,
    faction_of,
    find,
    kind,
    layout,
    marker,
    on_board,
    role_of,
    seat_of,
    starting_points,
)
from rulesets.frontier.table import (
    IN_RESERVE,
    TERRAIN_ROW,
    TO_DEPLOY,
    at,
    levels_words,
    unit_name,
    whose,
)
from rulesets.frontier.terrain import palette_names
from rulesets.frontier.timing import chance_pending, front, reactive_seat
from rulesets.memo import last_one
from rulesets.protocol import Place, Progress
from rulesets.view import BoardView, CardRow, Line, Panel, Piece, Region

SECRET = "Unit selection is secret until both players have chosen; everything else on the table is open."
HANDLE_ABOVE = 1.3
"""Inches above a terrain piece's centre its handle is drawn while the board is set up, so
it does not cover the piece's name."""
TOKEN_LABELS = {"strong_point": "strong point", "target": "target", "vip": "VIP", "knife_missile": "knife missile", "mine": "mine", "infiltration": "infiltration token"}


def view(params: Params, state: State, seat: str | None) -> BoardView:
    """The table as a seat sees it (seat None: everything, the other army included)."""
    return BoardView(
        geometry="inches", width=missions.WIDTH, height=missions.HEIGHT,
        pieces=(*_units(state), *_tokens(state), *_handles(state)), regions=(*_terrain(state), *_zones(state)),
        lines=tuple(Line(kind=t.kind, points=t.points, clear=t.clear, label=_trace_label(state, t.label)) for t in state.trace),
        rows=_rows(state), panels=_panels(params, state, seat), seat=seat, note=SECRET,
    )


def _trace_label(state: State, label: str) -> str:
    """The last action's line or path named by units, not ids: `Techy → Patrol Drone`."""
    if " -> " in label:
        shooter, _, target = label.partition(" -> ")
        return f"{unit_name(state, shooter)} → {unit_name(state, target)}"
    return unit_name(state, label) if find(state, label) else label


def _rows(state: State) -> tuple[CardRow, ...]:
    """Units off the table that a table taps to place: while deploying, the seat's units
    still to set up (tap one, then where it goes); in play, units held in reserve (tap one,
    then where it drops or infiltrates)."""
    out = []
    if state.stage == "terrain":
        placed = {t.id for t in state.terrain}
        waiting = tuple(name for piece_id, name in palette_names().items() if piece_id not in placed)
        if waiting:
            out.append(CardRow(id=TERRAIN_ROW, label="Standard terrain not on the table (tap one, then where its centre goes)", owner=None, cards=waiting))
    wave = current_wave(state)
    deploying = seat_of(state, wave.role) if wave is not None else None
    for seat in state.seats:
        waiting = tuple(unit_name(state, u.id) for u in state.units if u.side == seat and u.status == "roster")
        if seat == deploying and waiting:
            out.append(CardRow(id=f"{TO_DEPLOY}-{seat}", label=f"{seat}'s units to set up (tap one, then where it goes)", owner=seat, cards=waiting))
        reserve = tuple(unit_name(state, u.id) for u in state.units if u.side == seat and u.status == "reserve")
        if reserve:
            out.append(CardRow(id=f"{IN_RESERVE}-{seat}", label=f"{seat}'s units in reserve", owner=seat, cards=reserve))
    return tuple(out)


def _terrain(state: State) -> list[Region]:
    """Each piece at its scale (the region's height), its name on the table and its rules per
    level after the dash (the drawing keeps them for the tooltip)."""
    out = []
    for piece in state.terrain:
        levels = levels_words(piece.levels)
        label = f"{piece.label or piece.id}" + (f" - {levels}" if levels else "")
        out.append(Region(id=piece.id, kind="terrain", label=label, points=piece.outline, height=float(piece.scale)))
    return out


def _handles(state: State) -> list[Piece]:
    """While the board is set up, a handle at the centre of each terrain piece: tap or drag
    it, then tap where its centre goes (TerrainMoved)."""
    if state.stage != "terrain":
        return []
    out = []
    for t in state.terrain:
        x, y = board.centroid(t.outline)
        # just above the centre, where the piece's name is printed
        out.append(Piece(id=f"terrain:{t.id}", label=t.label or t.id, side=None, x=x, y=max(y - HANDLE_ABOVE, 0.6),
                         detail="tap (or drag), then tap where its centre goes, to move it"))
    return out


def _zones(state: State) -> list[Region]:
    """Deployment areas (while setting up) and every side's evac edges."""
    out = []
    wave = current_wave(state)
    if wave is not None and wave.scope != "none":
        zone = missions.zone(state.mission, wave.zone, layout(state))
        for i, outline in enumerate(zone.outlines()):
            out.append(Region(id=f"deploy-{state.wave}-{i}", kind="deployment", label=zone.label, side=seat_of(state, wave.role), points=outline))
    for seat in state.seats:
        for edge in evac_edges(state, seat):
            strip = missions.strip(edge, 1.0)
            # no label on the table: a strip along an edge would print it over the terrain; the
            # legend names evac zones by side
            out.append(Region(id=f"evac-{seat}-{edge}", kind="evac", side=seat,
                              points=((strip.x0, strip.y0), (strip.x1, strip.y0), (strip.x1, strip.y1), (strip.x0, strip.y1))))
    return out


def _units(state: State) -> list[Piece]:
    out = []
    for unit in on_board(state):
        assert unit.at is not None
        badges = ["shaken"] if unit.shaken else []
        if designated(state, unit):
            badges.append("designated")
        if unit.ghost:
            badges.append("ghost field")
        if unit.level:
            badges.append(f"height {unit.level}")
        badges += [f"{units.ABILITY_NAMES.get(p, p)} ready" for p in unit.primed]
        entry = kind(unit)
        out.append(Piece(id=unit.id, label=unit_name(state, unit.id), side=unit.side, x=unit.at[0], y=unit.at[1], badges=tuple(badges),
                         detail=f"{whose(state, unit.id)}: scale {entry.scale}, {entry.points} pts, base {entry.base}\" radius"))
    return out


def _tokens(state: State) -> list[Piece]:
    out = []
    for t in state.tokens:
        badges = ["marker"] if t.kind in ("strong_point", "target", "vip") else ["token"]
        if t.kind == "target" and state.charges:
            badges.append(f"charges {state.charges}")
        out.append(Piece(id=f"token:{t.id}", label=TOKEN_LABELS.get(t.kind, t.kind), side=t.owner, x=t.at[0], y=t.at[1], badges=tuple(badges)))
    return out


def _army_rows(state: State, seat: str | None) -> tuple[tuple[str, str], ...]:
    revealed = all(army_of(state, s) is not None for s in state.seats)
    rows = []
    for s in state.seats:
        faction = faction_of(state, s)
        army = army_of(state, s)
        name = units.FACTIONS[faction].name if faction is not None and faction in units.FACTIONS else (faction or "not announced")
        if army is None:
            rows.append((s, f"{name}: choosing units"))
        elif seat is not None and s != seat and not revealed:
            rows.append((s, f"{name}: units chosen (secret until both have chosen)"))
        else:
            listing = ", ".join(units.UNITS[t].name if t in units.UNITS else t for t in army)
            rows.append((s, f"{name}: {listing} ({army_points(army)} pts)"))
    return tuple(rows)


def _panels(params: Params, state: State, seat: str | None) -> tuple[Panel, ...]:
    roles = tuple((s, role_of(state, s) or "-") for s in state.seats)
    mission = Panel(title="Mission", rows=(("mission", state.mission), ("points limit", str(state.points)), *roles))
    panels = [mission, Panel(title="Armies", rows=_army_rows(state, seat))]
    if state.stage == "play":
        panels.append(Panel(title="Objective", rows=_objective_rows(params, state)))
        panels.append(Panel(title="Destroyed", rows=tuple((s, f"{destroyed_points(state, s)} of {starting_points(state, s)} pts") for s in state.seats)))
        reserve = tuple((whose(state, u.id), "in reserve") for u in state.units if u.status == "reserve")
        if reserve:
            panels.append(Panel(title="Reserves", rows=reserve))
        result = victory(params, state)
        if result is not None:
            panels.append(Panel(title="Result", rows=(("attacker", result[0]), ("defender", result[1]))))
    turn = state.turn
    now = progress(params, state)
    panels.append(Panel(title="Turn", rows=(("turn", str(state.turns)), ("active", turn.seat if turn else "-"), ("step", now.phase.replace("_", " ")), ("to act", now.actor or "dice"))))
    return tuple(panels)


def _objective_rows(params: Params, state: State) -> tuple[tuple[str, str], ...]:
    lost, half = attacker_losses(params, state)
    rows = [("attacker losses", f"{lost} pts (50% is {half:g})")]
    if state.mission == "assault":
        rows.append(("strong points seized", f"{state.seized} of 2"))
    elif state.mission == "sabotage":
        rows.append(("charges", str(state.charges)))
        rows.append(("detonated", "yes" if state.detonated else "no"))
    elif state.mission == "escort":
        vip = marker(state, "vip")
        rows.append(("VIP", "evacuated" if state.vip_out else f"at {at(vip.at)}" if vip else "not placed"))
    else:
        d = defender(state)
        if d:
            rows.append(("defender destroyed", f"{destroyed_points(state, d)} of {starting_points(state, d)} pts (50% needed)"))
    return tuple(rows)


def metrics(params: Params, state: State) -> dict[str, float]:
    """Per-step numbers for analytics. `score` is the points the first seat has destroyed less the
    points it has lost (positive while the first seat leads). Asked after every event by the
    warehouse sync: what it counts of the units is counted in one pass and kept per units
    tuple, which the states after an event share until a unit changes."""
    out: dict[str, float] = {"turn": float(state.turns)}
    counted = _unit_counts(state.units)
    attacker, defender_seat = state.attacker, defender(state)
    for role, seat in (("attacker", attacker), ("defender", defender_seat)):
        if seat is None:
            continue
        destroyed, standing, shaken = counted.get(seat, _NONE)
        out[f"{role}_destroyed"], out[f"{role}_on_board"], out[f"{role}_shaken"] = float(destroyed), float(standing), float(shaken)
    first, second = state.seats[0], state.seats[-1]
    out["score"] = float(counted.get(second, _NONE)[0] - counted.get(first, _NONE)[0])
    out["seized"] = float(state.seized)
    out["charges"] = float(state.charges)
    return out


_NONE = (0, 0, 0)


@last_one
def _unit_counts(every: tuple[Unit, ...]) -> dict[str, tuple[int, int, int]]:
    """Per seat: points of its units destroyed (as `destroyed_points`), its units on the
    table (as `on_board`) and how many of those are shaken."""
    counts: dict[str, list[int]] = {}
    for u in every:
        if u.status == "destroyed":
            counts.setdefault(u.side, [0, 0, 0])[0] += kind(u).points
        elif u.status == "board" and u.at is not None:
            mine = counts.setdefault(u.side, [0, 0, 0])
            mine[1] += 1
            mine[2] += bool(u.shaken)
    return {seat: (a, b, c) for seat, (a, b, c) in counts.items()}


def places(params: Params, before: State, after: State, event: object) -> tuple[Place, ...]:
    """Where units are destroyed: the inch (rounded) each stood on when it went from the
    table to `destroyed` (Bug Out and Self Destruct are not destruction)."""
    was = {u.id: u.at for u in before.units if u.status == "board" and u.at is not None}
    return tuple(Place(what="unit destroyed", col=round(x), row=round(y)) for u in after.units
                 if u.status == "destroyed" and u.id in was for x, y in (was[u.id],))


def roster(params: Params, state: State) -> tuple[tuple[str, str], ...]:
    """(seat, faction) and (seat, unit type) for every unit each side brought."""
    out = [(seat, faction) for seat, faction in state.factions]
    for seat, army in state.armies:
        out += [(seat, t) for t in army]
    return tuple(out)


def progress(params: Params, state: State) -> Progress:
    """Turn, round (each player takes one turn a round), step and the seat to decide."""
    rnd = (state.turns + 1) // 2
    if state.stage == "terrain":
        return Progress(turn=0, round=0, phase="terrain", actor=state.seats[0])
    if state.stage == "roles":
        return Progress(turn=0, round=0, phase="roles", actor=state.roll_winner)
    if state.stage == "selection":
        order = sorted(state.seats, key=lambda s: s != state.attacker)
        actor = next((s for s in order if faction_of(state, s) is None), None) or next((s for s in order if army_of(state, s) is None), None)
        return Progress(turn=0, round=0, phase="selection", actor=actor)
    if state.stage == "deployment":
        wave = current_wave(state)
        return Progress(turn=0, round=0, phase="deployment", actor=seat_of(state, wave.role) if wave else None)
    turn = state.turn
    if turn is None:
        return Progress(turn=state.turns, round=rnd, phase="play", actor=None)
    window = front(turn)
    if window is not None:
        return Progress(turn=state.turns, round=rnd, phase=window.purpose or window.kind, actor=window.seat)
    if chance_pending(turn):
        return Progress(turn=state.turns, round=rnd, phase="roll", actor=None)
    act = turn.activation
    if act is not None and act.phase == "react":
        return Progress(turn=state.turns, round=rnd, phase="reaction", actor=reactive_seat(state))
    return Progress(turn=state.turns, round=rnd, phase=turn.step, actor=turn.seat)
