"""Record: a Frontier table laid in one tap, the standard one or an earlier match's.

While a Frontier match's board is still empty in its terrain set-up, the panel beside the
board offers the standard table and the distinct tables earlier Frontier matches of the
store agreed (newest first, named by match, date, title and piece count). The choice is
written as that table's TerrainPlaced events in one append, through the page's own write
(the live audit applies); the pieces are then moved on the board, and "the table is set"
agrees it. The tables themselves come from `projections.tables`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from projections.recording import Live
from projections.tables import GAME, EarlierTable, earlier_tables, table_events
from projections.workspace import Workspace
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


def table_choice(ws: Workspace, live: Live, write: Callable[..., Any]) -> None:
    """The choice of a whole table, shown while a Frontier board is empty in its set-up;
    `write` is the page's append (`write(ws, live, events, expected_seq, problems, insist_key)`)."""
    state = live.state
    if live.rules.ruleset.name != GAME or getattr(state, "stage", None) != "terrain" or state.terrain:
        return
    choices = [(f"the standard table · {len(STANDARD)} pieces", STANDARD), *((t.name, t.pieces) for t in _tables(ws, live))]
    st.markdown("**Set up the table**")
    index = st.selectbox("Take the table from", range(len(choices)), format_func=lambda i: choices[i][0], key="rec_table_from")
    pieces = choices[index or 0][1]
    events = table_events(pieces, state.seats[0])
    st.button(f"Lay this table ({len(pieces)} pieces)", key=f"rec_table_lay_{live.last_seq}", type="primary", width="stretch",
              on_click=write, args=(ws, live, events, live.last_seq, 0, None))
    st.caption("Or tap a piece below the board, then where its centre goes. Once laid, tap a piece on the table "
               "(or drag it) and tap where it goes to move it; then tap “the table is set”.")
