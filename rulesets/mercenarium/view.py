"""What a Mercenarium state looks like, and what each seat may see of it.

Mercenarium hides information: hands (and the hymns in them), the deck's contents. A
seat's view shows its own hand face up and only card backs (`?`) and counts for the other
hands; the board, captures, the discard pile and a face-up Zodiac are open to all.
`seat=None` sees everything, the deck included. The view is computed from the state at
that point of the log only, so scrubbing back can never show a card drawn later.
"""

from __future__ import annotations

import functools

from rulesets.mercenarium import board, cards
from rulesets.mercenarium.params import Params
from rulesets.mercenarium.state import (
    Player,
    State,
    contract_of,
    facing,
    in_limbo,
    over_limits,
)
from rulesets.mercenarium.table import DECK, HYMNAL, PILES, captures_row, hand_row, hymns_row
from rulesets.protocol import Progress
from rulesets.view import BoardView, CardRow, Cell, Line, Panel, Piece

HIDDEN = "?"


def view(params: Params, state: State, seat: str | None) -> BoardView:
    """The board with every card by controller and orientation, the Houses, and the rows of
    cards off the board as `seat` saw them (None: the whole truth).

    A House is one cell in its seat's colour, named in its tooltip: a label printed on the
    board would cover the cards beside it, and a region over the same cell would repeat it
    in the legend."""
    size = params.board_size
    cells = []
    for colour, side_ in params.houses:
        col, row = board.house_space(side_, size)
        owner = colour if colour in state.seats else None
        cells.append(Cell(col=col, row=row, kind="house", owner=owner, label=f"{colour} House"))
    mid = size // 2
    cells.append(Cell(col=mid, row=mid, kind="centre space", label="no Mercenarium function"))
    lines: tuple[Line, ...] = ()
    if state.last is not None and len(state.last.spaces) >= 2:
        lines = (Line(kind=state.last.kind, points=tuple((float(c), float(r)) for c, r in state.last.spaces), label=state.last.seat),)
    return BoardView(
        geometry="grid", width=size, height=size, cells=tuple(cells), pieces=_pieces(params, state),
        lines=lines, rows=_rows(state, seat), panels=_panels(params, state),
        seat=seat, note=_note(seat),
    )


def _note(seat: str | None) -> str:
    if seat is None:
        return "Everything, hidden information included: every hand and the deck's contents."
    return (f"What {seat} saw: its own hand face up; other hands as card backs (?) and counts; "
            "the board, captures, discards and any face-up hymn are open to all.")


def aura_text(params: Params, card_id: str, owner: str) -> str:
    """`aura N3 E1 S0 W1 (top 3, right 1, bottom 0, left 1)`: dots by compass and by edge."""
    found = cards.card(card_id)
    if found is None:
        return ""
    if found.lord:
        return "Lord: no aura (resolves by alchemy)"
    turn = facing(params, owner)
    compass = " ".join(f"{board.compass(d)}{found.aura[board.edge_towards(turn, d)]}" for d in (0, 90, 180, 270))
    edges = ", ".join(f"{edge} {dots}" for edge, dots in zip(cards.EDGES, found.aura, strict=True))
    source = cards.AURA_SOURCES[card_id].source
    return f"aura {compass} ({edges}; {source})"


def _pieces(params: Params, state: State) -> tuple[Piece, ...]:
    pieces = []
    for p in state.board:
        found = cards.card(p.card)
        badges = []
        if (holder := contract_of(state, p.card)) is not None:
            badges.append(f"contract {holder}")
        if found is not None and found.lord:
            badges.append("lord")
        elif found is not None and found.mercenary:
            badges.append("mercenary")
        pieces.append(Piece(id=p.card, label=p.card, side=p.owner, x=p.space[0], y=p.space[1], badges=tuple(badges),
                            facing=facing(params, p.owner), detail=f"{cards.label(p.card)}; {aura_text(params, p.card, p.owner)}"))
    return tuple(pieces)


def _hand(p: Player, seat: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(non-hymn cards, hymns) as `seat` sees them: its own face up, others' as backs."""
    if seat is None or seat == p.seat:
        return p.hand, p.hymns
    return (HIDDEN,) * len(p.hand), tuple(h if h in p.face_up else HIDDEN for h in p.hymns)


def _rows(state: State, seat: str | None) -> tuple[CardRow, ...]:
    """Each seat's hand, hymns and captures (tapped to summon, sing, buy, offer), the two
    draw piles (tapped to draw or learn), the discard pile; the piles' contents for None."""
    rows = []
    for p in state.players:
        hand, hymns = _hand(p, seat)
        rows.append(CardRow(id=hand_row(p.seat), label=f"{p.seat} hand", owner=p.seat, cards=hand))
        rows.append(CardRow(id=hymns_row(p.seat), label=f"{p.seat} hymns", owner=p.seat, cards=hymns))
        rows.append(CardRow(id=captures_row(p.seat), label=f"{p.seat} captures (spent face up)", owner=p.seat,
                            cards=tuple(f"{c.card} (spent)" if c.spent else c.card for c in p.captures)))
    if state.stage == "play":
        rows.append(CardRow(id=PILES, label="draw piles (tap to draw or learn)", owner=None,
                            cards=(DECK, HYMNAL)))
    rows.append(CardRow(id="discard", label="discard pile", owner=None, cards=state.discard))
    if seat is None:
        rows.append(CardRow(id="deck", label="Singularity deck" if state.singularity else "deck", owner=None, cards=state.deck))
        rows.append(CardRow(id="hymnal", label="hymnal", owner=None, cards=state.hymnal))
    return tuple(rows)


def _panels(params: Params, state: State) -> tuple[Panel, ...]:
    captures = Panel(title="Captures", rows=tuple(
        (p.seat, f"{len(p.captures)} / {params.captures_to_win} ({sum(c.spent for c in p.captures)} spent)") for p in state.players))
    hands = Panel(title="Hands", rows=tuple((p.seat, f"{len(p.hand)} cards + {len(p.hymns)} hymn(s)") for p in state.players))
    piles = Panel(title="Piles", rows=(("Singularity deck" if state.singularity else "deck", str(len(state.deck))),
                                       ("hymnal", str(len(state.hymnal))), ("discard", str(len(state.discard)))))
    progress_ = progress(params, state)
    turn = Panel(title="Turn", rows=(("turn", str(state.turns)), ("to act", progress_.actor or "-"), ("phase", progress_.phase),
                                     ("singularity", "yes" if state.singularity else "no")))
    panels = [captures, hands, piles, turn]
    limbo = tuple((s, "in Limbo") for s in state.seats if state.stage == "play" and in_limbo(params, state, s))
    if limbo:
        panels.append(Panel(title="Limbo", rows=limbo))
    if state.contracts:
        panels.append(Panel(title="Contracts", rows=tuple((card, f"under contract to {holder}") for card, holder in state.contracts)))
    return tuple(panels)


def metrics(params: Params, state: State) -> dict[str, float]:
    """Per-step numbers for analytics: captures, cards in play and hand sizes per seat.

    `score` (for lead changes) is the first seat's captures less the best opponent's:
    positive while the first seat clockwise leads. Asked after every event by the warehouse
    sync, so the board is read once for every seat's cards in play and the names are made
    once per seat.
    """
    out: dict[str, float] = {"deck": len(state.deck), "singularity": float(state.singularity)}
    owners = [placed.owner for placed in state.board]
    counts = []
    for p in state.players:
        captured, playing, holding = _metric_names(p.seat)
        out[captured] = taken = len(p.captures)
        out[playing] = owners.count(p.seat)
        out[holding] = len(p.hand) + len(p.hymns)
        counts.append(taken)
    out["score"] = counts[0] - max(counts[1:], default=0) if counts else 0
    return out


@functools.cache
def _metric_names(seat: str) -> tuple[str, str, str]:
    """A seat's metric names, made once per seat rather than once per event."""
    return f"captures_{seat}", f"in_play_{seat}", f"hand_{seat}"


def progress(params: Params, state: State) -> Progress:
    """Turn, round (every seat acts once a round), phase and the seat to act: a pending
    decision first, then a seat over its hand limits that has not said so, then the turn."""
    if state.stage != "play":
        return Progress(turn=0, round=0, phase=state.stage, actor=None)
    round_ = (state.turns - 1) // max(len(state.seats), 1) + 1
    if state.pending:
        return Progress(turn=state.turns, round=round_, phase=state.pending[0].kind, actor=state.pending[0].seat)
    over = next((p.seat for p in state.players if p.seat not in state.noted and over_limits(params, state, p.seat)), None)
    if over is not None:
        return Progress(turn=state.turns, round=round_, phase="extras", actor=over)
    phase = "singularity" if state.singularity else "play"
    return Progress(turn=state.turns, round=round_, phase=phase, actor=state.current)
