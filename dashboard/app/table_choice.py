"""Record: a Frontier table laid in one tap, the standard one or an earlier match's.

While a Frontier match's board is still empty in its terrain set-up, the panel beside the
board (drawn by the board component from the data `table_choice` gives) offers the standard table and the distinct tables earlier Frontier matches of the
store agreed (newest first, named by match, date, title and piece count). The choice is
written as that table's TerrainPlaced events in one append, through the page's own write
(the live audit applies); the pieces are then moved on the board, and "the table is set"
agrees it. The tables themselves come from `projections.record.tables`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.shared import Retracted
from projections.record.recording import Live
from projections.record.tables import GAME, EarlierTable, earlier_tables, table_events
from projections.workspace import Workspace
from rulesets.frontier.events import TerrainPlaced
from rulesets.frontier.terrain import STANDARD

TABLES = "tables"
"""Key of the recorder's cache: the earlier tables, read from the store once per match opened."""


def _tables(ws: Workspace, live: Live, cache: dict[str, Any]) -> list[EarlierTable]:
    if TABLES not in cache:
        cache[TABLES] = earlier_tables(ws, besides=live.match_id)
    tables: list[EarlierTable] = cache[TABLES]
    return tables


def _only_placed(live: Live) -> list[int]:
    """The seqs of the pieces on the table, newest first, while placing them is all the
    table has done (so it can be taken back whole); empty once anything else is in force."""
    seqs = []
    node = live.step.undo
    while node is not None:
        if not isinstance(live.events[node.seq], TerrainPlaced):
            return []
        seqs.append(node.seq)
        node = node.below
    return seqs


def _choices(ws: Workspace, live: Live, cache: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
    """The tables to take, by name: the standard one, then the earlier matches' (newest first)."""
    return [(f"the standard table · {len(STANDARD)} pieces", tuple(STANDARD)), *((t.name, tuple(t.pieces)) for t in _tables(ws, live, cache))]


def _setting_up(live: Live) -> bool:
    return live.rules.ruleset.name == GAME and getattr(live.state, "stage", None) == "terrain"


def table_choice(ws: Workspace, live: Live, cache: dict[str, Any]) -> list[dict[str, Any]]:
    """What the panel beside the board offers while a Frontier board is in its terrain
    set-up: the tables to lay while it is empty, then Clear while placing is all the table
    did. `cache`: the recorder's, kept for the match it records."""
    if not _setting_up(live):
        return []
    if live.state.terrain:
        laid = _only_placed(live)
        return [{"kind": "clear", "words": f"Clear the table ({len(laid)} piece{'s' if len(laid) > 1 else ''})"}] if laid else []
    note = ("Or tap a piece below the board, then where its centre goes. Once laid, tap a piece on the table "
            "(or drag it) and tap where it goes to move it; then tap “the table is set”.")
    return [{"kind": "table", "choices": [[name, len(pieces)] for name, pieces in _choices(ws, live, cache)], "note": note}]


def lay_or_clear(ws: Workspace, live: Live, kind: str, index: Any, cache: dict[str, Any], write: Callable[[list[Any], int], bool],
                 say: Callable[[str, str], None]) -> None:
    """A press on the panel: lay the table number `index` in one append (said in one line, not
    thirteen pieces in words), or clear what was placed; `write` is the recorder's append
    (`write(events, expected_seq)`, True once written) and `say` its message."""
    if not _setting_up(live):
        say("warning", "the table is no longer being set up: nothing was written")
        return
    if kind == "clear":
        laid = _only_placed(live)
        if laid:
            write([Retracted(target_seq=seq) for seq in laid], live.last_seq)
        return
    choices = _choices(ws, live, cache)
    if live.state.terrain or not isinstance(index, int) or not 0 <= index < len(choices):
        say("error", f"not written: there is no table number {index!r} to lay on an empty board")
        return
    name, pieces = choices[index]
    if write(table_events(pieces, live.state.seats[0]), live.last_seq):
        say("success", f"recorded: {name.split(' · ')[0]} laid, {len(pieces)} pieces. Tap a piece (or drag it), then where it goes, to move it.")
