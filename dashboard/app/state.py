"""What every dashboard page shares: the store, cached replays, and the match being looked at.

Pages import only these names (a small, stable interface; keep it so):

- `workspace()` -> the `Workspace` of `$TABLETAPE_HOME` (or `./data`), one per store.
- `warehouse()` -> the store's `Warehouse`, synced first when the store changed.
- `timeline(match_id, against=None)` -> a cached `Timeline` of the match as it is now
  (keyed by the log's last seq and hash, so an append gives a fresh one).
- `audit(match_id, against=None)` -> the cached `AuditReport` of the match as it is now.
- `frames(match_id, against, seat, start, size)` -> a cached chunk of the match's frames
  as one seat sees them, packed for Replay's board (`dashboard.board.scrub.pack`).
- `selected_match()` / `select_match(match_id)` -> the match the user is looking at; kept
  in `st.session_state` and in the page URL (`?match=...`), so a reload keeps it.
- `match_picker(label, key)` -> a selectbox over the store's matches, the latest started
  first, that follows and sets the selected match; `opening_match()` -> the match it
  would open on, without drawing it.
- `show_error(error)` -> one line in red for a `TabletapeError` (what and where).
- `show_svg(svg, where=st)` -> draw an SVG string inline (tooltips work; `st.html` drops SVG).

Caches are `st.cache_resource`: one object per key shared by every session, never copied.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.board import scrub
from events.errors import TabletapeError
from projections.read.audit import AuditReport
from projections.read.frames import frames as _frames_of
from projections.read.timeline import Timeline
from projections.warehouse.catalog import signature
from projections.warehouse.sync import SyncReport, Warehouse
from projections.workspace import Workspace, default_home

CHOICE_ROW, CHOICE_ROW_HEIGHT = "replay_row", 68
"""Replay's row of choices (its container's key) and the pixels it takes (a label over a
box): kept for it while it is not drawn yet, so the board under it does not move."""
PAGE_STYLE = ("<style>[data-testid='stMainBlockContainer'] {padding-top: 3.5rem; padding-bottom: 2rem;}"
              f" .st-key-{CHOICE_ROW} {{min-height: {CHOICE_ROW_HEIGHT}px;}}</style>")
"""What every page is drawn with: less empty space above it, so the board gets the height of
a 1024 x 768 tablet; Replay's row of choices at its height while its boxes load."""
MATCH_KEY = "match_id"
"""session_state key (and URL query parameter `match`) of the selected match."""


def _home() -> str:
    return str(default_home().resolve())


@st.cache_resource(show_spinner=False)
def _workspace(home: str) -> Workspace:
    return Workspace(home)


def workspace() -> Workspace:
    """The Workspace of the store the dashboard was started on."""
    return _workspace(_home())


@st.cache_resource(show_spinner=False, max_entries=4)
def _synced(home: str, store: tuple[Any, ...]) -> SyncReport:
    """Sync once per state of the store (the signature is part of the cache key)."""
    return Warehouse(_workspace(home)).sync()


def warehouse() -> Warehouse:
    """The store's warehouse, brought up to date first if any log or note changed."""
    ws = workspace()
    with st.spinner("Bringing the warehouse up to date..."):
        report = _synced(_home(), signature(ws))
    for match_id, problem in report.failed:
        st.warning(f"{match_id} cannot be read, so the tables show it as of the last good sync: {problem}")
    for torn in report.torn:  # bytes of an interrupted write: never shown, never removed here
        st.warning(torn)
    return Warehouse(ws)


@st.cache_resource(show_spinner=False, max_entries=8)
def _timeline(home: str, match_id: str, last: tuple[int, str], against: str | None) -> Timeline:
    return _workspace(home).timeline(match_id, against=against)


def timeline(match_id: str, against: str | None = None) -> Timeline:
    """Random access to every state of the match as it stands now (cached per last line)."""
    ws = workspace()
    with st.spinner(f"Replaying {match_id}..."):
        return _timeline(_home(), match_id, ws.store.last(match_id), against)


@st.cache_resource(show_spinner=False, max_entries=8)
def _audit(home: str, match_id: str, last: tuple[int, str], against: str | None) -> AuditReport:
    return _workspace(home).audit(match_id, against=against)


def audit(match_id: str, against: str | None = None) -> AuditReport:
    """The match's audit (violations after retractions and rulings, result check), cached."""
    ws = workspace()
    return _audit(_home(), match_id, ws.store.last(match_id), against)


@st.cache_resource(show_spinner=False, max_entries=64)
def _frames(home: str, match_id: str, last: tuple[int, str], against: str | None, seat: str | None, start: int,
            size: int) -> dict[str, Any]:
    timeline = _timeline(home, match_id, last, against)
    report = _audit(home, match_id, last, against)
    stop = min(start + size, timeline.last_seq + 1)
    return scrub.pack(_frames_of(timeline, seat, start, stop, violations=report.violations))


def frames(match_id: str, against: str | None, seat: str | None, start: int, size: int) -> dict[str, Any]:
    """Events `start` to `start + size` of the match as it stands now, as `seat` (None: the
    whole table) sees them, packed for the browser (cached per last line, so another look
    at the same stretch, or another viewer, costs nothing)."""
    ws = workspace()
    return _frames(_home(), match_id, ws.store.last(match_id), against, seat, start, size)


def selected_match() -> str | None:
    """The match the user is looking at, if it still exists."""
    chosen = st.session_state.get(MATCH_KEY) or st.query_params.get("match")
    if chosen and workspace().store.exists(chosen):
        return str(chosen)
    return None


def select_match(match_id: str | None) -> None:
    """Make `match_id` the selected match (also in the URL, so a reload keeps it)."""
    st.session_state[MATCH_KEY] = match_id
    if match_id:
        st.query_params["match"] = match_id
    elif "match" in st.query_params:
        del st.query_params["match"]


def _listed() -> tuple[list[str], str] | None:
    """The store's matches, the latest started first, and the one a picker opens on: the
    selected one, else the latest (None, said, for an empty store)."""
    if not (listed := workspace().matches()):
        st.info("The store has no matches yet: import a log on the Matches page.")
        return None
    matches = _newest_first(_home(), tuple(listed))
    return matches, selected_match() or matches[0]


def opening_match() -> str | None:
    """The match a picker opens on, selected (so the URL names it), without drawing the picker."""
    if (found := _listed()) is None:
        return None
    if st.query_params.get("match") != found[1]:
        select_match(found[1])
    return found[1]


def match_picker(label: str = "Match", *, key: str = "match_picker") -> str | None:
    """A selectbox over every match in the store; choosing one selects it everywhere."""
    if (found := _listed()) is None:
        return None
    matches, current = found
    if st.session_state.get(key) not in matches or st.session_state.get(f"{key}.follows") != current:
        st.session_state[key] = current
    chosen = st.selectbox(label, matches, key=key, format_func=_match_label)
    st.session_state[f"{key}.follows"] = chosen
    if chosen != selected_match() or st.query_params.get("match") != chosen:
        select_match(chosen)  # also after st.switch_page, which leaves the URL without it
    return chosen


@st.cache_data(show_spinner=False, max_entries=4)
def _newest_first(home: str, matches: tuple[str, ...]) -> list[str]:
    """The matches, the latest started first: a designer comes to a page for the game just
    played, as the Matches table lists it. Ids order ties (a batch's games start together)
    and logs whose first line cannot be read go last. Kept per store listing, so a header
    is read once until a match is added."""
    ws = _workspace(home)

    def started(match_id: str) -> float:
        try:
            at = ws.header(match_id).at
        except TabletapeError:
            return float("-inf")
        return at.timestamp() if at else float("-inf")

    return sorted(matches, key=started, reverse=True)  # stable: ties keep their id order


@st.cache_data(show_spinner=False, max_entries=2048)
def _label(home: str, match_id: str) -> str:
    header = _workspace(home).header(match_id)
    title = f" - {header.title}" if header.title else ""
    return f"{match_id} ({header.ruleset}@{header.version}, {header.source}){title}"


def _match_label(match_id: str) -> str:
    try:
        return _label(_home(), match_id)
    except TabletapeError:
        return match_id


def show_error(error: Exception) -> None:
    """A refused action, in one line: what and where."""
    st.error(str(error), icon=":material/block:")


def show_svg(svg: str, where: Any = st) -> None:
    """An SVG drawing inline in the page (as raw HTML in its own block, so hover tooltips work)."""
    where.markdown(f'<div class="tabletape-svg">\n{svg}\n</div>', unsafe_allow_html=True)


def die_key(name: str) -> str:
    """A die's name as part of a widget key (Streamlit turns keys into CSS classes): here,
    not in the Record page, so a test or the browser driver reads it without running a page."""
    return "".join(c if c.isalnum() else "_" for c in name)
