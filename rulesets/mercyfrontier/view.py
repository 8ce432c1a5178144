"""What a Mercy Frontier state looks like, and the numbers analytics read from it.

The board is a grid of the 3 x 5 tiles' spaces: covered tiles as covered cells, resource
nodes, each tile as a region of its controller, buildings, workers and mercenary tokens as
pieces (a token bigger than one space also as a region of the spaces it covers). Off the
board: the mercenary row, each player's contract cards with their health, the discard pile
and the relics held. A covered tile's face is not decided until it is uncovered (a chance
step), so nothing on the table is hidden from either seat: every seat sees the same board.
"""

from __future__ import annotations

import functools

from rulesets.mercyfrontier import board
from rulesets.mercyfrontier.components import RELICS
from rulesets.mercyfrontier.params import Params
from rulesets.mercyfrontier.state import (
    State,
    card_of,
    controller,
    known,
    relics_held,
    spaces_of,
)
from rulesets.mercyfrontier.table import (
    DECK,
    DECK_FACE,
    MARKET,
    building_id,
    contract_faces,
    contracts_row,
    face_name,
    faces,
    tile_name,
    worker_drawn,
    worker_id,
)
from rulesets.protocol import Place, Progress
from rulesets.view import BoardView, CardRow, Cell, Panel, Piece, Region, space_name


def view(params: Params, state: State, seat: str | None) -> BoardView:
    """The board, the cards off it and the players' purses; the same for every seat."""
    return BoardView(
        geometry="grid", width=board.width(params), height=board.height(params),
        cells=_cells(params, state), pieces=_pieces(params, state), regions=_regions(params, state),
        rows=_rows(params, state), panels=_panels(params, state), seat=seat,
        note="Open information: a covered tile's face is decided when it is uncovered, so every seat sees the same board.",
    )


def _cells(params: Params, state: State) -> tuple[Cell, ...]:
    """Covered tiles' spaces and resource nodes (`biofuel node`): one cell kind each, so the
    legend names each once."""
    cells = [Cell(col=c, row=r, kind="covered tile", label=f"covered tile {tile_name(params, t.pos)}") for t in state.tiles
             if t.face is None for c, r in board.tile_spaces(params, t.pos)]
    cells += [Cell(col=at[0], row=at[1], kind=f"{resource} node", label=f"{resource} node") for at, resource in state.nodes]
    return tuple(cells)


def _regions(params: Params, state: State) -> tuple[Region, ...]:
    """Each seat's territory (the uncovered tiles it controls) and the spaces a big token
    covers. No label is printed on the board (it sat over the pieces of the row above):
    tile names and faces are in the Tiles panel."""
    regions = []
    for t in state.tiles:
        owner = controller(params, state, t.pos)
        if t.face is not None and owner is not None:
            regions.append(Region(id=f"tile-{t.pos[0]}-{t.pos[1]}", kind="territory", side=owner,
                                  cells=board.tile_spaces(params, t.pos)))
    for m in state.mercs:
        if m.at is not None and known(m.card) and card_of(m.card).size > 1:
            size = card_of(m.card).size
            regions.append(Region(id=f"token-{m.card}", kind="token", side=m.owner, cells=board.footprint(m.at, size)))
    return tuple(regions)


BUILDING_LABELS = {"base": "Ba", "refinery": "Rf", "outpost": "Op"}
"""Two letters on a building block (the tooltip names it in full); beacons are `Bc`."""


def _pieces(params: Params, state: State) -> tuple[Piece, ...]:
    """Buildings, workers (a worker on a building is a badge of that building, not a second
    piece on the same square) and mercenary tokens."""
    pieces = []
    for b in state.buildings:
        name = f"refinery ({b.resource})" if b.kind == "refinery" else b.kind.replace("-", " ")
        workers = tuple(f"worker of {p.seat}" for p in state.players for s in p.placed if s == b.at)
        pieces.append(Piece(id=building_id(b), label=BUILDING_LABELS.get(b.kind, "Bc"), side=b.owner, x=b.at[0], y=b.at[1],
                            health=(1, 1), badges=("building", *workers), detail=f"{name} at {space_name('grid', *b.at)}"))
    for p in state.players:
        pieces += [Piece(id=worker_id(p.seat, i), label="W", side=p.seat, x=s[0], y=s[1], health=(1, 1), badges=("worker",),
                         detail=f"worker at {space_name('grid', *s)}")
                   for i, s in enumerate(p.placed) if worker_drawn(state, s) == worker_id(p.seat, i)]
    for m in state.mercs:
        if m.at is None or not known(m.card):
            continue
        card = card_of(m.card)
        middle = (card.size - 1) / 2
        pieces.append(Piece(id=m.card, label=card.name, side=m.owner, x=m.at[0] + middle, y=m.at[1] + middle,
                            health=(m.health, card.health), badges=(card.rarity, f"{card.size}x{card.size}", *card.abilities),
                            detail=f"attack {card.attack}, health {m.health}/{card.health}, top-left {space_name('grid', *m.at)}"))
    return tuple(pieces)


def _rows(params: Params, state: State) -> tuple[CardRow, ...]:
    """The mercenary row (tapped to hire), the deck (tapped to sweep), each seat's contract
    cards (tapped to place a token) and relics, the discard pile."""
    rows = [CardRow(id=MARKET, label="mercenary row (tap to hire)", owner=None, cards=tuple(faces(state.market).values())),
            CardRow(id=DECK, label="mercenary deck (tap to sweep the row)", owner=None, cards=(DECK_FACE,))]
    for seat in state.seats:
        rows.append(CardRow(id=contracts_row(seat), label=f"{seat} mercenary zones", owner=seat,
                            cards=tuple(contract_faces(state, seat).values())))
        held = tuple(RELICS[r].name if r in RELICS else r for r in relics_held(params, state, seat))
        rows.append(CardRow(id=f"relics-{seat}", label=f"{seat} relics", owner=seat, cards=held))
    rows.append(CardRow(id="discard", label="mercenary discard pile", owner=None, cards=tuple(faces(state.discard).values())))
    return tuple(rows)


def _panels(params: Params, state: State) -> tuple[Panel, ...]:
    purses = Panel(title="Resources", rows=tuple((p.seat, p.resources.text()) for p in state.players))
    workers = Panel(title="Workers", rows=tuple((p.seat, f"{p.workers} (+{p.fresh} next turn), {len(p.placed)} placed") for p in state.players))
    lost = Panel(title="Buildings destroyed", rows=tuple((p.seat, f"{p.lost} / {params.buildings_to_win}") for p in state.players))
    now = progress(params, state)
    turn = Panel(title="Turn", rows=(("turn", str(state.turn)), ("priority", state.priority), ("phase", now.phase), ("to act", now.actor or "-"),
                                     ("deck", str(len(state.deck)))))
    tiles = Panel(title="Tiles", rows=tuple(
        (tile_name(params, t.pos), face_name(t.face or "covered") + (f", {owner}" if (owner := controller(params, state, t.pos)) else "")
         + (f", relic {RELICS[t.relic].name if t.relic in RELICS else t.relic}" if t.relic else ""))
        for t in state.tiles))
    return purses, workers, lost, turn, tiles


def metrics(params: Params, state: State) -> dict[str, float]:
    """Per-step numbers: resources, workers, mercenaries on the board and buildings lost.

    `score` is the first seat's buildings destroyed less the second's: positive while the
    first seat (the oldest player) leads on the building count. Asked after every event by
    the warehouse sync, so the mercenaries are read once for every seat and the names are
    made once per seat.
    """
    out: dict[str, float] = {"turn": state.turn, "deck": len(state.deck)}
    fielded = [m.owner for m in state.mercs if m.at is not None]
    lost: dict[str, int] = {}
    for p in state.players:
        resources, working, mercs, lost_name = _metric_names(p.seat)
        out[resources] = p.resources.total()
        out[working] = p.workers + p.fresh
        out[mercs] = fielded.count(p.seat)
        out[lost_name] = lost[p.seat] = p.lost
    first, second = (lost.get(seat, 0) for seat in state.seats[:2]) if len(state.seats) >= 2 else (0, 0)
    out["score"] = float(second - first)
    return out


@functools.cache
def _metric_names(seat: str) -> tuple[str, str, str, str]:
    """A seat's metric names, made once per seat rather than once per event."""
    return f"resources_{seat}", f"workers_{seat}", f"mercs_{seat}", f"lost_{seat}"


def places(params: Params, before: State, after: State, event: object) -> tuple[Place, ...]:
    """Where mercenaries die: every space the token of a mercenary that left the board
    covered (defeated in combat, Combat 3.b.ii, or trampled, Movement 2.b.i)."""
    kept = {m.card for m in after.mercs}
    return tuple(Place(what="mercenary died", col=c, row=r) for m in before.mercs
                 if m.at is not None and m.card not in kept for c, r in (spaces_of(m) if known(m.card) else (m.at,)))


def progress(params: Params, state: State) -> Progress:
    """Turn (a round is one turn of both players), phase or pending step, and who acts."""
    if state.pending:
        pending = state.pending[0]
        return Progress(turn=state.turn, round=state.turn, phase=pending.kind, actor=pending.seat or None)
    return Progress(turn=state.turn, round=state.turn, phase=state.phase, actor=state.actor)
