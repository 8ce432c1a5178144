"""What a Warcraft: Frontline position looks like, and the numbers analytics read from it.

The board is the map folded at its middle so it reads at a laptop's width: the first
seat's half on top, the second's below, each with its base line at the left edge and the
middle of the map at the right edge, so the track runs from A's base line along the top
half to the middle, turns, and runs back along the bottom half to B's base line. Each half
shows its row of track grids (next to the fold, each grid's defense power as it stands,
tower and research bonuses included), its areas as bands of three grids with their
building sites, and in its base area the gold mine, the forest and (for humans) the
militia with their workers. The frontline is a line across the half it stands in.
Everything is open information: every seat sees the same board. While a player acts, two
card rows hold what it may build, and what it may train or research (a table taps a card,
then the site or the building).
"""

from __future__ import annotations

import functools
import math

from rulesets.frontline import board
from rulesets.frontline.board import Area
from rulesets.frontline.cards import BUILDINGS, RESEARCH, UNITS, of_race
from rulesets.frontline.params import Params
from rulesets.frontline.rules import outcome
from rulesets.frontline.state import (
    Building,
    Side,
    State,
    capacity,
    count,
    defenses,
    force,
    points,
    population,
    side,
    standing,
    workers,
)
from rulesets.memo import last_state
from rulesets.protocol import Progress
from rulesets.view import BoardView, CardRow, Cell, Line, Panel, Piece, Region

BASE_PLACES = ("gold", "lumber", "militia")
"""Worker places drawn as cells in a half's base area, after its building sites."""
PLACE_CELLS = {"gold": "gold mine", "lumber": "forest", "militia": "militia"}
"""The cell kind each worker place is drawn as."""
BUILD_ROW = "build"
"""The card row of buildings the player to act may build (tap one, then a site)."""
TRAIN_ROW = "train"
"""The card row of units and research the player to act may start (tap one, then a building)."""
NOTE = ("All of Warcraft: Frontline is open information: every seat sees the same board. The map is folded at "
        "its middle: half A on top, half B below, base lines at the left, the middle of the map at the right edge.")


def site_rows(params: Params) -> int:
    """Rows of building sites in a half: enough for the most crowded area (the base area
    also holds the gold mine, the forest and the militia)."""
    return max((math.ceil((a.sites + (len(BASE_PLACES) if a == board.base_area(params, a.half) else 0)) / (a.last - a.first + 1))
                for a in board.areas(params)), default=1)


def column(params: Params, grid: int) -> int:
    """The board column of a grid of either half: the base line at column 0 (the left
    edge), grid 1 (the middle of the map) at the right edge."""
    return len(params.track) - grid


def track_row(params: Params, half: int) -> int:
    """The row of a half's track grids: A's last row, B's first (with one row between them
    for the labels of B's areas)."""
    return site_rows(params) if half == 0 else site_rows(params) + 2


def _half_rows(params: Params, half: int) -> tuple[int, int]:
    """First and last row of a half's block (sites and track)."""
    return (0, site_rows(params)) if half == 0 else (track_row(params, 1), track_row(params, 1) + site_rows(params))


def site(params: Params, a: Area, slot: int) -> tuple[int, int]:
    """The (column, row) of site `slot` of an area, counted from its base-line end, row by
    row away from the track."""
    width = a.last - a.first + 1
    col = column(params, a.last) + slot % width
    depth = slot // width
    return (col, track_row(params, 0) - 1 - depth) if a.half == 0 else (col, track_row(params, 1) + 1 + depth)


def slots(params: Params, state: State, a: Area) -> dict[str, int]:
    """Which site each building of an area stands on (`seat:id` -> slot): the area's own
    player fills it from the base-line end, the other player (who took it) from the far end,
    so a new building never moves one already standing."""
    out: dict[str, int] = {}
    for s in state.sides:
        here = [b for b in s.buildings if b.area == a.id]
        own = s.half == a.half
        for i, b in enumerate(here):
            out[f"{s.seat}:{b.id}"] = i if own else a.sites - 1 - i
    return out


def next_site(params: Params, state: State, seat: str, area_id: str) -> tuple[int, int] | None:
    """Where a building `seat` builds in `area_id` goes: the next free site from its end."""
    a = board.area(params, area_id)
    s = side(state, seat)
    if a is None or s is None:
        return None
    mine = sum(1 for b in s.buildings if b.area == a.id)
    return site(params, a, mine if s.half == a.half else a.sites - 1 - mine)


def place_site(params: Params, half: int, place: str) -> tuple[int, int]:
    """The cell of a worker place (gold mine, forest, militia) in a half's base area."""
    base = board.base_area(params, half)
    return site(params, base, base.sites + BASE_PLACES.index(place))


def workers_id(seat: str, place: str) -> str:
    """The id of the chip counting a seat's workers in the gold mine, forest or militia (a
    table taps it to move workers from or to there)."""
    return f"{seat}:workers:{place}"


def view(params: Params, state: State, seat: str | None) -> BoardView:
    """The whole board; `seat` changes nothing (no hidden information)."""
    n = len(params.track)
    return BoardView(
        geometry="grid", width=n, height=track_row(params, 1) + site_rows(params) + 1, cells=_cells(params, state),
        pieces=_pieces(params, state), regions=_regions(params, state), lines=(_frontline(params, state),),
        rows=_rows(state), panels=_panels(params, state), seat=seat, note=NOTE,
    )


def front_words(state: State, front: int) -> str:
    """Where a signed frontline stands, in words: `2 grids into b's half`, `in the middle`."""
    if front == 0:
        return "in the middle"
    seat = state.seats[1] if front > 0 else state.seats[0]
    return f"{abs(front)} grid{'s' if abs(front) != 1 else ''} into {seat}'s half"


def board_where(state: State) -> str:
    """`frontline 2 grids into b's half` / `frontline in the middle`."""
    return f"frontline {front_words(state, state.front)}"


def _frontline(params: Params, state: State) -> Line:
    """A line across the half the frontline stands in, on the base-line side of the last
    grid pushed; in the middle, the fold at the right edge across both halves."""
    n = len(params.track)
    x = n - abs(state.front) - 0.5
    if state.front == 0:
        top, bottom = track_row(params, 0), track_row(params, 1)
    else:
        top, bottom = _half_rows(params, 1 if state.front > 0 else 0)
    return Line(kind="frontline", points=((x, top - 0.5), (x, bottom + 0.5)), label=board_where(state))


def _cells(params: Params, state: State) -> tuple[Cell, ...]:
    cells = []
    for owner in state.sides:
        half = owner.half
        for grid, defense in enumerate(defenses(params, state, half), start=1):
            kind = "base line" if grid == len(params.track) else "track"
            cells.append(Cell(col=column(params, grid), row=track_row(params, half), kind=kind, owner=owner.seat, label=str(defense)))
        for place in BASE_PLACES:
            if place == "militia" and owner.race != "human":
                continue
            col, row = place_site(params, half, place)
            cells.append(Cell(col=col, row=row, kind=PLACE_CELLS[place], owner=owner.seat, label=str(count(owner.workers, place))))
    return tuple(cells)


def _regions(params: Params, state: State) -> tuple[Region, ...]:
    out = []
    for a in board.areas(params):
        holder = board.holder(a, state.front)
        who = "contested" if holder is None else f"held by {state.seats[holder]}"
        first, last = _half_rows(params, a.half)
        cells = tuple((col, row) for col in range(column(params, a.last), column(params, a.first) + 1) for row in range(first, last + 1))
        out.append(Region(id=a.id, kind="area", label=f"{a.id} ({who}, {a.sites} sites)",
                          side=state.seats[holder] if holder is not None else None, cells=cells))
    return tuple(out)


def _pieces(params: Params, state: State) -> tuple[Piece, ...]:
    pieces = []
    for a in board.areas(params):
        where_ = slots(params, state, a)
        for s in state.sides:
            for b in s.buildings:
                if b.area == a.id:
                    col, row = site(params, a, where_[f"{s.seat}:{b.id}"])
                    pieces.append(_building(s, b, col, row))
    for s in state.sides:
        for place in BASE_PLACES:
            if place != "militia" or s.race == "human":
                col, row = place_site(params, s.half, place)
                n = count(s.workers, place)
                pieces.append(Piece(id=workers_id(s.seat, place), label=str(n), side=s.seat, x=col, y=row,
                                    detail=f"{n} worker(s) in the {PLACE_CELLS[place]}"))
    if state.front:
        half = 1 if state.front > 0 else 0
        pieces.append(Piece(id="frontline", label="Frontline", side=None, x=column(params, abs(state.front)), y=track_row(params, half),
                            detail=board_where(state)))
    return tuple(pieces)


def _building(s: Side, b: Building, col: int, row: int) -> Piece:
    card = BUILDINGS.get(b.kind)
    badges = [] if standing(s, b) else [f"ready at round {b.ready}"]
    if b.task is not None:
        badges.append(f"{b.task.kind} {b.task.item} ready at round {b.task.ready}")
    if count(s.workers, b.id):
        badges.append(f"{count(s.workers, b.id)} workers inside")
    if b.kind == "base" and count(s.workers, "idle"):
        badges.append(f"{count(s.workers, 'idle')} idle workers")
    return Piece(id=f"{s.seat}:{b.id}", label=card.name if card else b.kind, side=s.seat, x=col, y=row,
                 badges=tuple(badges), detail=f"{b.id} in {b.area}")


def _rows(state: State) -> tuple[CardRow, ...]:
    """While a player acts: the buildings of its race (tap one, then a site), and the units
    and research (tap one, then the building that starts it)."""
    s = side(state, state.current)
    if state.phase != "action" or s is None:
        return ()
    build = tuple(BUILDINGS[k].name for k in of_race(BUILDINGS, s.race))
    train = tuple(UNITS[k].name for k in of_race(UNITS, s.race))
    research = tuple(RESEARCH[k].name for k in of_race(RESEARCH, s.race))
    return (CardRow(id=BUILD_ROW, label=f"{s.seat} builds (tap a card, then a site)", owner=s.seat, cards=build),
            CardRow(id=TRAIN_ROW, label=f"{s.seat} trains or researches (tap a card, then a building)", owner=s.seat, cards=train + research))


def _panels(params: Params, state: State) -> tuple[Panel, ...]:
    result = outcome(params, state)
    game = Panel(title="Game", rows=(
        ("bout", f"{state.bout} of {params.bouts}"), ("phase", state.phase), ("to act", state.current),
        ("frontline", front_words(state, state.front)), ("razed", ", ".join(state.razed) or "-"),
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
    Asked after every event by the warehouse sync: an event changes one side and the states
    after it share the other, so each side's own counts are kept per side object (one memo
    per seating position) and the names per seat.
    """
    out: dict[str, float] = {"frontline": float(state.front), "bout": float(state.bout)}
    sides = state.sides
    if not sides:
        return out
    scored: dict[str, int] = {}
    for position, s in enumerate(sides):
        gold, lumber, workers_of, force_of, points_of = _metric_names(s.seat)
        working, strength = (_SIDE_COUNTS[position] if position < len(_SIDE_COUNTS) else _side_counts)(params, s)
        scored[s.seat] = mine = points(params, state, s.seat)
        out[gold], out[lumber], out[workers_of], out[force_of], out[points_of] = s.gold, s.lumber, working, strength, mine
    first, second = state.seats
    out["score"] = scored[first] - scored[second]
    return out


@functools.cache
def _metric_names(seat: str) -> tuple[str, str, str, str, str]:
    """A seat's metric names, made once per seat rather than once per event."""
    return f"gold_{seat}", f"lumber_{seat}", f"workers_{seat}", f"force_{seat}", f"points_{seat}"


def _side_counts(params: Params, s: Side) -> tuple[int, int]:
    """What `metrics` counts of one side alone: its workers and its force."""
    return workers(s), force(params, s)


_SIDE_COUNTS = (last_state(_side_counts), last_state(_side_counts))
"""`_side_counts` remembered per seating position: the side an event did not touch is the
same object in the state after it (rulesets/memo.py)."""


def progress(params: Params, state: State) -> Progress:
    """Turn (action rounds begun), round (the bout), phase, and the seat to act."""
    turns = sum(s.rounds for s in state.sides)
    actor = state.current if state.phase == "action" else None
    return Progress(turn=turns, round=state.bout, phase=state.phase, actor=actor)


def roster(params: Params, state: State) -> tuple[tuple[str, str], ...]:
    """(seat, race): the one choice each player brings, for race pick and win rates."""
    return tuple((s.seat, s.race) for s in state.sides)
