"""What a Go Fish table looks like from one seat: its own hand face up, every other hand
as card backs (`?`) and a count; books, the stock's size and the pending ask are open.
`seat=None` sees the whole table, every hand and the stock included."""

from __future__ import annotations

from gofish.rules import RANKS, State
from rulesets.view import BoardView, CardRow, Panel


def view(params: object, state: State, seat: str | None) -> BoardView:
    """The hands as `seat` saw them (None: the whole truth), the books and the stock."""
    seen = [(s, h if seat is None or seat == s else ("?",) * len(h)) for s, h in zip(state.seats, state.hands, strict=True)]
    rows = [CardRow(id=f"hand:{s}", label=f"{s} hand", owner=s, cards=cards) for s, cards in seen]
    rows += [CardRow(id=f"books:{s}", label=f"{s} books", owner=s, cards=b) for s, b in zip(state.seats, state.books, strict=True)]
    if seat is None:
        rows.append(CardRow(id="stock", label="stock", owner=None, cards=tuple(r for r, n in zip(RANKS, state.stock, strict=True) for _ in range(n))))
    table = [(s, f"{len(h)} cards, books {' '.join(b) or '-'}") for s, h, b in zip(state.seats, state.hands, state.books, strict=True)]
    table.append(("stock", f"{sum(state.stock)} cards"))
    if state.asked is not None:
        table.append(("asked", f"{state.asked.by} asked {state.asked.target} for {state.asked.rank}s"))
    hands = Panel(title="hands", rows=tuple((s, " ".join(cards)) for s, cards in seen if "?" not in cards))
    note = "every hand and the stock" if seat is None else "its own hand face up; other hands as card backs (?) and counts"
    return BoardView(geometry="grid", width=1, height=1, rows=tuple(rows), panels=(Panel(title="table", rows=tuple(table)), hands),
                     seat=seat, note=note)
