"""Matches: browse and filter every match in the store, import a log, export one.

The list comes from the warehouse through `projections.warehouse.catalog` (synced first when the
store changed); an import goes through `Workspace.import_log`, which stores nothing
unless every line checks, and is answered with the log's audit (`Workspace.imported`);
an export is the log exactly as stored. A match whose game is not installed here has no
state or audit in the warehouse: it is listed below the others with the package it needs,
and its events are shown as written.
"""

from __future__ import annotations

from datetime import date

import msgspec
import pandas as pd
import streamlit as st

from dashboard.app import state
from dashboard.cli import render
from events.errors import TabletapeError
from events.shared import MatchStarted
from projections.warehouse import catalog
from projections.warehouse.catalog import MatchFilter
from projections.workspace import Workspace

MESSAGE = "matches.message"
COLUMNS = ("match_id", "game", "version", "source", "branch_of", "winner", "declared", "result_agrees", "violations", "notes",
           "events", "turns", "started_at", "title")


def main() -> None:
    """Filters, counts, the list, then import and export."""
    st.title("Matches")
    ws = state.workspace()
    _import(ws)
    if not ws.matches():
        st.info("The store is empty: import a JSON-lines log above, record a match, or run `tabletape dashboard`, "
                "which fills an empty store with demo matches.")
        return
    try:
        warehouse = state.warehouse()
        facets = catalog.facets(warehouse)
    except TabletapeError as error:
        state.show_error(error)
        return

    where = _filters(facets)
    try:
        result = catalog.list_matches(warehouse, where)
    except TabletapeError as error:
        state.show_error(error)
        return
    totals = catalog.totals(result)
    cols = st.columns(4)
    cols[0].metric("Matches", totals.matches)
    cols[1].metric("Events", f"{totals.events:,}")
    cols[2].metric("Rule violations", totals.violations)
    cols[3].metric("Notes", totals.notes)
    frame = pd.DataFrame(result.rows, columns=result.columns)
    st.dataframe(
        frame, hide_index=True, width="stretch", key="matches.table", column_order=COLUMNS,
        column_config={
            "match_id": st.column_config.TextColumn("match"),
            "started_at": st.column_config.DatetimeColumn("started", format="YYYY-MM-DD HH:mm"),
            "branch_of": st.column_config.TextColumn("branch of", help="A what-if branch: the match it left "
                                                     "(win rates and verdicts leave it out unless asked)"),
            "winner": st.column_config.TextColumn("winner (rules)"),
            "declared": st.column_config.TextColumn("declared by the table"),
            "result_agrees": st.column_config.CheckboxColumn("result agrees"),
            "violations": st.column_config.NumberColumn("violations", help="Rule errors after undos and table rulings"),
        },
    )
    with st.expander("Counts by game, version and source"):
        counts = catalog.counts(result)
        st.dataframe(pd.DataFrame(counts.rows, columns=counts.columns), hide_index=True, width="stretch")
    if result.rows:
        _open_and_export(ws, [row[0] for row in result.rows])
    _not_installed(ws, {row[0] for row in catalog.list_matches(warehouse).rows})


def _filters(facets: catalog.Facets) -> MatchFilter:
    """The filter row: game, version (of the chosen games), source, winner, dates."""
    cols = st.columns([2, 2, 2, 2, 3])
    games = cols[0].multiselect("Game", facets.games, key="matches.games", placeholder="every game")
    versions_of = [v for g in (games or facets.games) for v in facets.versions.get(g, [])]
    versions = cols[1].multiselect("Version", list(dict.fromkeys(versions_of)), key="matches.versions", placeholder="every version")
    sources = cols[2].multiselect("Source", facets.sources, key="matches.sources", placeholder="every source")
    winners = cols[3].multiselect("Winner", facets.winners, key="matches.winners", placeholder="any result",
                                  help="The winner by the rules; (none yet) is a game not finished.")
    since: date | None = None
    until: date | None = None
    if facets.first and facets.last:
        chosen = cols[4].date_input("Played between", value=(facets.first, facets.last), key="matches.dates")
        if isinstance(chosen, tuple | list) and len(chosen) == 2:
            since, until = chosen[0], chosen[1]
        elif isinstance(chosen, tuple | list) and len(chosen) == 1:
            since = chosen[0]
    return MatchFilter(games=tuple(games), versions=tuple(versions), sources=tuple(sources), winners=tuple(winners),
                       since=since, until=until)


def _open_and_export(ws: Workspace, match_ids: list[str]) -> None:
    """Pick a listed match: open it in the Replay page, or download its log."""
    st.subheader("Open or export a match")
    current = state.selected_match()
    index = match_ids.index(current) if current in match_ids else 0
    chosen = st.selectbox("Match", match_ids, index=index, key="matches.pick")
    left, right = st.columns(2)
    if left.button("Open in Replay", key="matches.open", type="primary"):
        state.select_match(chosen)
        st.switch_page("pages/replay.py")
    try:
        data = ws.export(chosen)
    except TabletapeError as error:
        state.show_error(error)
        return
    right.download_button(f"Export {chosen}.jsonl", data=data, file_name=f"{chosen}.jsonl", mime="application/x-ndjson",
                          key="matches.export", on_click="ignore")


def _not_installed(ws: Workspace, listed: set[str]) -> None:
    """Matches the warehouse could not read because their game is not installed here: each
    with what it needs (`needs the package pig 0.2`), its export, and its events as written."""
    missing = [(match_id, header, needs) for match_id in ws.matches() if match_id not in listed
               for header in (ws.header(match_id),) if (needs := ws.missing_game(header)) is not None]
    if not missing:
        return
    st.subheader("Matches whose game is not installed")
    st.caption("Listed, exported and shown as written; install the package each needs to replay, audit and compare it.")
    st.dataframe(pd.DataFrame([{"match": m, "game": h.ruleset, "version": h.version, "source": h.source, "needs": needs}
                               for m, h, needs in missing]), hide_index=True, width="stretch", key="matches.missing")
    chosen = st.selectbox("Its events", [m for m, _, _ in missing], key="matches.missing_pick")
    st.code("\n".join(render.raw_event_line(msgspec.json.decode(line)) for line in ws.store.lines(chosen)), language=None)
    st.download_button(f"Export {chosen}.jsonl", data=ws.export(chosen), file_name=f"{chosen}.jsonl",
                       mime="application/x-ndjson", key="matches.missing_export", on_click="ignore")


def _import(ws: Workspace) -> None:
    """Upload a JSON-lines log; it is stored only if every line checks, and then its audit
    is said at once (with a warning when most of its events break its rules)."""
    with st.expander("Import a JSON-lines log", expanded=not ws.matches()):
        with st.form("matches.import", clear_on_submit=True):
            upload = st.file_uploader("Log file (.jsonl)", type=["jsonl", "json", "txt", "log"], key="matches.upload")
            submitted = st.form_submit_button("Import")
        if submitted:
            if upload is None:
                st.session_state[MESSAGE] = ("error", "Choose a file to import first.")
            else:
                try:
                    started = ws.import_log(upload.getvalue(), where=upload.name)
                except TabletapeError as error:
                    st.session_state[MESSAGE] = [("error", f"Refused, nothing was stored: {error}")]
                else:
                    state.select_match(started.match_id)
                    st.session_state[MESSAGE] = _imported(ws, started, upload.name)
        for kind, text in st.session_state.pop(MESSAGE, ()):
            {"error": st.error, "warning": st.warning}.get(kind, st.success)(text)


def _imported(ws: Workspace, started: MatchStarted, name: str) -> list[tuple[str, str]]:
    """What the upload of a stored log says: where it went and its audit, with a warning
    when most of its events break its rules."""
    stored = f"Imported {name} as {started.match_id} ({started.ruleset}@{started.version}, {started.source})."
    try:
        imported = ws.imported(started)
    except TabletapeError as error:
        return [("success", stored), ("error", f"Its audit failed: {error}")]
    said = [("success", f"{stored} Audit: {imported.report.tally.text()}.")]
    if (warning := imported.warning()) is not None:
        said.append(("warning", warning[0].upper() + warning[1:]))
    return said


main()
