"""What a Mercy Frontier state looks like, and the numbers analytics read from it.

The board is a grid of the 3 x 5 tiles' spaces: covered tiles as covered cells, resource
nodes, each tile as a region of its controller, buildings, workers and mercenary tokens as
pieces (a token bigger than one space also as a region of the spaces it covers). Off the
board: the mercenary row, each player's contract cards with their health, the discard pile
and the relics held. A covered tile's face is not decided until it is uncovered (a chance
step), so nothing on the table is hidden from either seat: every seat sees the same board.
"""

from __future__ import annotations

from rulesets.mercyfrontier import board
from rulesets.mercyfrontier.components import RELICS, card_type
from rulesets.mercyfrontier.params import Params
from rulesets.mercyfrontier.state import State, card_of, controller, known, player, relics_held
from rulesets.protocol import Progress
from rulesets.view import BoardView, CardRow, Cell, Panel, Piece, Region


def view(params: Params, state: State, seat: str | None) -> BoardView:
    """The board, the cards off it and the players' purses; the same for every seat."""
    return BoardView(
        geometry="grid", width=board.width(params), height=board.height(params),
        cells=_cells(params, state), pieces=_pieces(params, state), regions=_regions(params, state),
        rows=_rows(params, state), panels=_panels(params, state), seat=seat,
        note="Open information: a covered tile's face is decided when it is uncovered, so every seat sees the same board.",
    )


def _cells(params: Params, state: State) -> tuple[Cell, ...]:
    cells = [Cell(col=c, row=r, kind="covered", label="covered tile") for t in state.tiles if t.face is None
             for c, r in board.tile_spaces(params, t.pos)]
    cells += [Cell(col=at[0], row=at[1], kind=resource, label=f"{resource} node") for at, resource in state.nodes]
    return tuple(cells)


def _regions(params: Params, state: State) -> tuple[Region, ...]:
    regions = []
    for t in state.tiles:
        owner = controller(params, state, t.pos)
        label = t.face or "covered"
        if t.relic:
            label += f", relic {RELICS[t.relic].name}" if t.relic in RELICS else f", relic {t.relic}"
        regions.append(Region(id=f"tile-{t.pos[0]}-{t.pos[1]}", kind="tile" if t.face else "covered", label=label,
                              side=owner, cells=board.tile_spaces(params, t.pos)))
    for m in state.mercs:
        if m.at is not None and known(m.card) and card_of(m.card).size > 1:
            size = card_of(m.card).size
            regions.append(Region(id=f"token-{m.card}", kind="token", label=m.card, side=m.owner, cells=board.footprint(m.at, size)))
    return tuple(regions)


def _pieces(params: Params, state: State) -> tuple[Piece, ...]:
    pieces = [Piece(id=f"{b.kind}-{b.at[0]}-{b.at[1]}", label=b.kind if b.kind != "refinery" else f"refinery ({b.resource})",
                    side=b.owner, x=b.at[0], y=b.at[1], health=(1, 1), badges=("building",)) for b in state.buildings]
    for p in state.players:
        pieces += [Piece(id=f"worker-{p.seat}-{i}", label="worker", side=p.seat, x=s[0], y=s[1], health=(1, 1), badges=("worker",))
                   for i, s in enumerate(p.placed)]
    for m in state.mercs:
        if m.at is None or not known(m.card):
            continue
        card = card_of(m.card)
        middle = (card.size - 1) / 2
        pieces.append(Piece(id=m.card, label=card.name, side=m.owner, x=m.at[0] + middle, y=m.at[1] + middle,
                            health=(m.health, card.health), badges=(card.rarity, f"{card.size}x{card.size}", *card.abilities),
                            detail=f"attack {card.attack}, health {m.health}/{card.health}, top-left {m.at}"))
    return tuple(pieces)


def card_face(card: str) -> str:
    """`Raider 2/2 (4 cr)`: a card as the row shows it."""
    found = card_type(card)
    return f"{found.name} {found.attack}/{found.health} ({found.cost} cr)" if found else card


def _rows(params: Params, state: State) -> tuple[CardRow, ...]:
    rows = [CardRow(id="market", label="mercenary row", owner=None, cards=tuple(card_face(c) for c in state.market))]
    for seat in state.seats:
        contracts = tuple(f"{card_face(m.card)} hp {m.health}" + ("" if m.at else " (not placed)") for m in state.mercs if m.owner == seat)
        rows.append(CardRow(id=f"contracts-{seat}", label=f"{seat} mercenary zones", owner=seat, cards=contracts))
        held = tuple(RELICS[r].name if r in RELICS else r for r in relics_held(params, state, seat))
        rows.append(CardRow(id=f"relics-{seat}", label=f"{seat} relics", owner=seat, cards=held))
    rows.append(CardRow(id="discard", label="mercenary discard pile", owner=None, cards=tuple(card_face(c) for c in state.discard)))
    return tuple(rows)


def _panels(params: Params, state: State) -> tuple[Panel, ...]:
    purses = Panel(title="Resources", rows=tuple((p.seat, p.resources.text()) for p in state.players))
    workers = Panel(title="Workers", rows=tuple((p.seat, f"{p.workers} (+{p.fresh} next turn), {len(p.placed)} placed") for p in state.players))
    lost = Panel(title="Buildings destroyed", rows=tuple((p.seat, f"{p.lost} / {params.buildings_to_win}") for p in state.players))
    now = progress(params, state)
    turn = Panel(title="Turn", rows=(("turn", str(state.turn)), ("priority", state.priority), ("phase", now.phase), ("to act", now.actor or "-"),
                                     ("deck", str(len(state.deck)))))
    return purses, workers, lost, turn


def metrics(params: Params, state: State) -> dict[str, float]:
    """Per-step numbers: resources, workers, mercenaries on the board and buildings lost.

    `score` is the first seat's buildings destroyed less the second's: positive while the
    first seat (the oldest player) leads on the building count.
    """
    out: dict[str, float] = {"turn": state.turn, "deck": len(state.deck)}
    for p in state.players:
        out[f"resources_{p.seat}"] = p.resources.total()
        out[f"workers_{p.seat}"] = p.workers + p.fresh
        out[f"mercs_{p.seat}"] = sum(1 for m in state.mercs if m.owner == p.seat and m.at is not None)
        out[f"lost_{p.seat}"] = p.lost
    first, second = (player(state, s) for s in state.seats[:2]) if len(state.seats) >= 2 else (None, None)
    out["score"] = float((second.lost if second else 0) - (first.lost if first else 0))
    return out


def progress(params: Params, state: State) -> Progress:
    """Turn (a round is one turn of both players), phase or pending step, and who acts."""
    if state.pending:
        pending = state.pending[0]
        return Progress(turn=state.turn, round=state.turn, phase=pending.kind, actor=pending.seat or None)
    return Progress(turn=state.turn, round=state.turn, phase=state.phase, actor=state.actor)
