"""Explore: the warehouse's named queries with their parameters, and a read-only SQL box.

Every query runs on the sandboxed replica (no files, no attaching, no writes); what it
cannot do comes back as one line.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard.app.charts import bars
from dashboard.app.state import show_error, warehouse
from events.errors import TabletapeError
from projections.warehouse.queries import NamedQuery, Result, named_queries, run_named, run_sql

RESULT = "ex_result"
SQL_RESULT = "ex_sql_result"
NO_CHART = "(no chart)"
PREFERRED = ("rate", "per_100", "median", "mean")  # charted first: rates and averages say more than counts
EXAMPLE_SQL = "SELECT ruleset, version, source, count(*) AS matches, round(avg(events), 1) AS mean_events\nFROM matches GROUP BY ALL ORDER BY ALL"


def _inputs(query: NamedQuery) -> dict[str, Any]:
    """One input per parameter, starting at its default; a blank means NULL (any). The
    query converts each to its declared type and names the one that does not fit."""
    given: dict[str, Any] = {}
    for name, param in query.params.items():
        key = f"ex_{query.name}_{name}"
        shown = "" if param.default is None else str(param.default).lower() if param.kind == "bool" else str(param.default)
        text = st.text_input(f"{name} ({param.kind})", value=shown, key=key, placeholder="NULL (any)")
        given[name] = (text or "").strip() or None
    return given


def _frame(result: Result) -> pd.DataFrame:
    return pd.DataFrame(result.rows, columns=result.columns)


def _chart(frame: pd.DataFrame, key: str) -> None:
    """A bar chart of one numeric column against the text columns, where the result has both
    (a NULL label, pacing's phase of a turn row, is blank)."""
    numeric = [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])]
    labels = [c for c in frame.columns if c not in numeric and pd.api.types.is_string_dtype(frame[c])]
    if frame.empty or not numeric or not labels or len(frame) > 500:
        return
    first = next((c for c in numeric if any(p in c for p in PREFERRED)), numeric[0])
    y = st.selectbox("Chart", [NO_CHART, *numeric], index=1 + numeric.index(first), key=key)
    if y == NO_CHART:
        return
    st.altair_chart(bars(frame, y, labels), key=f"{key}_bars")


def _named() -> None:
    """Pick a named query, set its parameters, run it: a table and a chart."""
    queries = named_queries()
    name = st.selectbox("Query", list(queries), key="ex_query", format_func=lambda n: n.replace("_", " "))
    query = queries[name]
    st.caption(query.description)
    with st.form(f"ex_form_{name}"):
        given = _inputs(query)
        run = st.form_submit_button("Run", type="primary")
    if run:
        try:
            st.session_state[RESULT] = (name, run_named(warehouse(), name, given))
        except TabletapeError as error:
            st.session_state.pop(RESULT, None)
            show_error(error)
    done = st.session_state.get(RESULT)
    if done is not None and done[0] == name:
        frame = _frame(done[1])
        st.caption(f"{len(frame)} row(s)")
        st.dataframe(frame, hide_index=True, key="ex_table")
        _chart(frame, "ex_chart")
    with st.expander("SQL of this query"):
        st.code(query.sql, language="sql")


def _sql() -> None:
    """Ad-hoc SQL, read-only: no files, no ATTACH, no writes."""
    st.caption("Tables: matches, seats, rosters, events, steps, violations, notes. Read-only: "
               "reading or writing files, attaching databases and changing data are refused.")
    sql = st.text_area("SQL", value=EXAMPLE_SQL, height=140, key="ex_sql")
    if st.button("Run SQL", key="ex_run_sql", type="primary"):
        try:
            st.session_state[SQL_RESULT] = run_sql(warehouse(), sql)
        except TabletapeError as error:
            st.session_state.pop(SQL_RESULT, None)
            show_error(error)
    result: Result | None = st.session_state.get(SQL_RESULT)
    if result is not None:
        frame = _frame(result)
        st.caption(f"{len(frame)} row(s)")
        st.dataframe(frame, hide_index=True, key="ex_sql_table")
        _chart(frame, "ex_sql_chart")


def main() -> None:
    """Render the page."""
    st.title("Explore")
    named, sql = st.tabs(["Named queries", "SQL"])
    with named:
        _named()
    with sql:
        _sql()


main()
