"""Record: a Frontier table laid in one tap, the standard one or an earlier match's.

While a Frontier match's board is still empty in its terrain set-up, the panel beside the
board offers the standard table and the distinct tables earlier Frontier matches of the
store agreed (newest first, named by match, date, title and piece count). The choice is
written as that table's TerrainPlaced events in one append, through the page's own write
(the live audit applies); the pieces are then moved on the board, and "the table is set"
agrees it. The tables themselves come from `projections.record.tables`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from events.shared import Retracted
from projections.record.recording import Live
from projections.record.tables import GAME, EarlierTable, earlier_tables, table_events
from projections.workspace import Workspace
from rulesets.frontier.events import TerrainPlaced
from rulesets.frontier.terrain import STANDARD

TABLES = "rec_tables"
"""(match id, the earlier tables listed for it): the store is read once per match opened."""


def _tables(ws: Workspace, live: Live) -> list[EarlierTable]:
    cached = st.session_state.get(TABLES)
    if cached is None or cached[0] != live.match_id:
        cached = (live.match_id, earlier_tables(ws, besides=live.match_id))
        st.session_state[TABLES] = cached
    tables: list[EarlierTable] = cached[1]
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


def _lay(ws: Workspace, live: Live, events: list[TerrainPlaced], name: str, write: Callable[..., Any], say: Callable[[str, str], None]) -> None:
    """Write the table; say so in one line (not thirteen pieces in words)."""
    before = live.last_seq
    write(ws, live, events, before, 0, None)
    if live.last_seq > before:
        say("success", f"recorded: {name} laid, {len(events)} pieces. Tap a piece (or drag it), then where it goes, to move it.")


def table_choice(ws: Workspace, live: Live, write: Callable[..., Any], say: Callable[[str, str], None]) -> None:
    """The choice of a whole table, shown while a Frontier board is empty in its set-up;
    `write` is the page's append (`write(ws, live, events, expected_seq, problems, insist_key)`)
    and `say` its message for the next render."""
    state = live.state
    if live.rules.ruleset.name != GAME or getattr(state, "stage", None) != "terrain":
        return
    if state.terrain:
        laid = _only_placed(live)
        if laid:
            st.button(f"Clear the table ({len(laid)} piece{'s' if len(laid) > 1 else ''})", key=f"rec_table_clear_{live.last_seq}", width="stretch",
                      help="Takes back every piece placed (one Retracted each), to lay another table",
                      on_click=write, args=(ws, live, [Retracted(target_seq=seq) for seq in laid], live.last_seq, 0, None))
        return
    choices = [(f"the standard table · {len(STANDARD)} pieces", STANDARD), *((t.name, t.pieces) for t in _tables(ws, live))]
    st.markdown("**Set up the table**")
    index = st.selectbox("Take the table from", range(len(choices)), format_func=lambda i: choices[i][0], key="rec_table_from")
    name, pieces = choices[index or 0]
    events = table_events(pieces, state.seats[0])
    st.button(f"Lay this table ({len(pieces)} pieces)", key=f"rec_table_lay_{live.last_seq}", type="primary", width="stretch",
              on_click=_lay, args=(ws, live, events, name.split(" · ")[0], write, say))
    st.caption("Or tap a piece below the board, then where its centre goes. Once laid, tap a piece on the table "
               "(or drag it) and tap where it goes to move it; then tap “the table is set”.")
