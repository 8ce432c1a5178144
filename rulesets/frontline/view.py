"""What a Warcraft: Frontline position looks like, and the numbers analytics read from it.

The board is drawn on a grid, the first seat's half on the left with its base line at
the left edge, the second seat's on the right: one row of track grids showing each
grid's defense power as it stands (tower and research bonuses included), the frontline
as a line with a marker, each half's areas as regions, buildings on their area's sites,
and the gold mine and forest with their workers. Everything is open information: every
seat sees the same board.
"""

from __future__ import annotations

import math

from rulesets.frontline import board
from rulesets.frontline.cards import BUILDINGS, RESEARCH, UNITS
from rulesets.frontline.params import Params
from rulesets.frontline.rules import outcome, where
from rulesets.frontline.state import (
    Side,
    State,
    capacity,
    count,
    counted_forces,
    defenses,
    force,
    points,
    population,
    standing,
    workers,
)
from rulesets.protocol import Progress
from rulesets.view import BoardView, Cell, Line, Panel, Piece, Region

TRACK_ROW = 1
SITES_ROW = 2


def column(params: Params, half: int, grid: int) -> int:
    """The board column of a half's grid (grid 1 at the middle, the base line at the edge)."""
    n = len(params.track)
    return n - grid if half == 0 else n - 1 + grid


def site_rows(params: Params) -> int:
    """Rows of building sites under the track: enough for the most crowded area."""
    return max((math.ceil(a.sites / (a.last - a.first + 1)) for a in board.areas(params)), default=1)


def view(params: Params, state: State, seat: str | None) -> BoardView:
    """The whole board; `seat` changes nothing (no hidden information)."""
    n = len(params.track)
    rows = site_rows(params)
    x = n - 0.5 + state.front
    line = Line(kind="frontline", points=((x, 0.0), (x, float(SITES_ROW + rows) - 1)), label=board_where(state))
    return BoardView(
        geometry="grid", width=2 * n, height=SITES_ROW + rows, cells=_cells(params, state), pieces=_pieces(params, state),
        regions=_regions(params, state), lines=(line,), panels=_panels(params, state), seat=seat,
        note="All of Warcraft: Frontline is open information: every seat sees the same board.",
    )


def board_where(state: State) -> str:
    """`frontline 2 grid(s) into b's half` / `frontline in the middle`."""
    return f"frontline {where(state, state.front)}"


def _cells(params: Params, state: State) -> tuple[Cell, ...]:
    cells = []
    for half, owner in enumerate(state.sides):
        for grid, defense in enumerate(defenses(params, state, half), start=1):
            kind = "base line" if grid == len(params.track) else "track"
            cells.append(Cell(col=column(params, half, grid), row=TRACK_ROW, kind=kind, owner=owner.seat, label=str(defense)))
        base = board.base_area(params, half)
        cells.append(Cell(col=column(params, half, base.last), row=0, kind="gold mine", owner=owner.seat, label=str(count(owner.workers, "gold"))))
        cells.append(Cell(col=column(params, half, base.last - 1), row=0, kind="forest", owner=owner.seat, label=str(count(owner.workers, "lumber"))))
    return tuple(cells)


def _regions(params: Params, state: State) -> tuple[Region, ...]:
    out = []
    height = SITES_ROW + site_rows(params)
    for a in board.areas(params):
        holder = board.holder(a, state.front)
        who = "contested" if holder is None else f"held by {state.seats[holder]}"
        cells = tuple((column(params, a.half, g), row) for g in range(a.first, a.last + 1) for row in range(height))
        out.append(Region(id=a.id, kind="area", label=f"{a.id} ({who}, {a.sites} sites)",
                          side=state.seats[holder] if holder is not None else None, cells=cells))
    return tuple(out)


def _pieces(params: Params, state: State) -> tuple[Piece, ...]:
    pieces = []
    for s in state.sides:
        for a in board.areas(params):
            here = [b for b in s.buildings if b.area == a.id]
            width = a.last - a.first + 1
            for i, b in enumerate(here):
                card = BUILDINGS.get(b.kind)
                badges = [] if standing(s, b) else [f"ready at round {b.ready}"]
                if b.task is not None:
                    badges.append(f"{b.task.kind} {b.task.item} ready at round {b.task.ready}")
                if count(s.workers, b.id):
                    badges.append(f"{count(s.workers, b.id)} workers inside")
                pieces.append(Piece(id=f"{s.seat}:{b.id}", label=card.name if card else b.kind, side=s.seat,
                                    x=column(params, a.half, a.first + i % width), y=SITES_ROW + i // width,
                                    badges=tuple(badges), detail=f"{b.id} in {a.id}"))
    if state.front:
        half = 1 if state.front > 0 else 0
        pieces.append(Piece(id="frontline", label="Frontline", side=None, x=column(params, half, abs(state.front)), y=TRACK_ROW,
                            detail=board_where(state)))
    return tuple(pieces)


def _panels(params: Params, state: State) -> tuple[Panel, ...]:
    result = outcome(params, state)
    game = Panel(title="Game", rows=(
        ("bout", f"{state.bout} of {params.bouts}"), ("phase", state.phase), ("to act", state.current),
        ("frontline", board_where(state)), ("razed", ", ".join(state.razed) or "-"),
        ("result", result.reason if result else "-"),
    ))
    return (game, *(_side_panel(params, state, s) for s in state.sides))


def _side_panel(params: Params, state: State, s: Side) -> Panel:
    cap, used = capacity(params, s), population(s)
    places = ", ".join(f"{place} {n}" for place, n in s.workers) or "-"
    back = ", ".join(f"{r.count} to {r.to} at round {r.ready}" for r in s.returning)
    army = ", ".join(f"{UNITS[u].name if u in UNITS else u} x{n}" for u, n in s.units) or "-"
    techs = ", ".join(RESEARCH[t].name if t in RESEARCH else t for t in s.techs) or "-"
    return Panel(title=f"{s.seat} ({s.race}, half {board.HALVES[s.half]})", rows=(
        ("gold", str(s.gold)), ("lumber", str(s.lumber)),
        ("workers", f"{workers(s)}: {places}" + (f"; returning {back}" if back else "")),
        ("population", f"{used} of {cap} (the d10 dials show {max(cap - used, 0):02d} free)"),
        ("military force", str(force(params, s))), ("army", army), ("techs", techs),
        ("points", str(points(params, state, s.seat))), ("action rounds", str(s.rounds)),
    ))


def metrics(params: Params, state: State) -> dict[str, float]:
    """Per-step numbers: each seat's resources, workers, force and points, the frontline.

    `score` is the first seat's points less the second's: positive while the first seat leads.
    """
    out: dict[str, float] = {"frontline": float(state.front), "bout": float(state.bout)}
    if not state.sides:
        return out
    forces = counted_forces(params, state)
    for s, f in zip(state.sides, forces, strict=True):
        out |= {f"gold_{s.seat}": s.gold, f"lumber_{s.seat}": s.lumber, f"workers_{s.seat}": workers(s),
                f"force_{s.seat}": f, f"points_{s.seat}": points(params, state, s.seat)}
    first, second = state.seats
    out["score"] = out[f"points_{first}"] - out[f"points_{second}"]
    return out


def progress(params: Params, state: State) -> Progress:
    """Turn (action rounds begun), round (the bout), phase, and the seat to act."""
    turns = sum(s.rounds for s in state.sides)
    actor = state.current if state.phase == "action" else None
    return Progress(turn=turns, round=state.bout, phase=state.phase, actor=actor)


def roster(params: Params, state: State) -> tuple[tuple[str, str], ...]:
    """(seat, race): the one choice each player brings, for race pick and win rates."""
    return tuple((s.seat, s.race) for s in state.sides)
