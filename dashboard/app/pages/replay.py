"""Replay: scrub a match event by event, see the board, the state and what broke, and annotate.

The browser holds the match's frames (`dashboard.board.scrub`: each event's board as the chosen
seat sees it, its words and findings) and steps through them itself; this page hands them
over in chunks, lists the findings, and writes notes through the Workspace's Notebook on the
event the designer picks. A session's first run draws the board alone; what lies below it
follows once the browser says the board is on screen. No rules and no SQL here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.app import state
from dashboard.board.scrub import CHUNK, FIRST, scrub_board
from events.errors import TabletapeError
from events.notes import NOTE_TAGS, Note
from events.shared import Retracted, Ruled
from projections.corpus.chances import DEFAULT_ROLLOUTS, EVERY, Chances, chances
from projections.read.audit import AuditReport
from projections.read.timeline import Timeline
from projections.workspace import Workspace, to_builtins
from rulesets.levels import lacks
from rulesets.protocol import Violation

SEQ = "replay.seq"  # session_state key of the event notes and the state inspector are about
AGAINST = "replay.against"  # with the match id: the rules it is read under
SEAT = "replay.seat"  # with the match id: whose eyes it is seen with
FOLLOW = "replay.follow"
FOLLOW_EVERY = 1.0
"""Seconds between two looks at the log while following a match live."""
BOARD = "replay.board"  # the board component's key: its triggers `more` and `pick`
ASKED = "replay.asked"  # (board id, first seq, size) of the frames the browser asked for last
SHOWN = "replay.shown"  # the id of the board last handed to the browser
NOTES_FLASH = "replay.notes_flash"
JUMP = "replay.jump"  # (count, seq) of the last move the page asked of the board (a turning point)
HORIZONS = ("full", "1", "2", "3")  # how far each game is played ahead: to the end, or a few rounds then scored
CHANCES = "replay.chances"  # with the match id: the win chances last computed for it
# Panels below the board drawn only while open: the page's first board waits for nothing
# it does not show (a findings table, the chances' inputs, the note forms).
FINDINGS = "replay.findings_open"
CHANCES_OPEN = "replay.chances_open"  # with the match id
CHANGE_NOTE = "replay.change_note_open"
FITS_SHOWN = {"match": "this match's own positions", "rules": "bot games from the start"}
"""The chances' scoring models (`projections.corpus.chances.FITS`) as the page names them."""
READY = "replay.ready"
"""True once the browser has drawn this session's first board: the parts below the board
(findings, notes, win chances) are drawn from then on. A first visit's board waits for none
of them: their scripts and rendering took the browser a third of a second more."""
BEHIND = "replay.behind"  # the board was just drawn: the whole page runs again to draw the rest
LAND = "replay.land"  # the event to open the next match at (stepping to a branch or its parent)
BRANCHED = "replay.branched"  # what "Branch here" says once the branch is open
ROW = (4.5, 3, 3, 2.2)
"""The row of choices' columns: the match, the rules, the seat, Follow live (its label whole at 1024 px)."""
_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


# --- what the browser asks for (callbacks run before the rerun) ----------------------------


def _more() -> None:
    """The browser wants frames it does not hold: remember which, for the board it holds."""
    asked = (st.session_state.get(BOARD) or {}).get("more")
    if asked:
        st.session_state[ASKED] = (st.session_state.get(SHOWN), int(asked["from"]), int(asked["size"]))


def _pick() -> None:
    """Notes and the state inspector follow the event the browser stands on."""
    picked = (st.session_state.get(BOARD) or {}).get("pick")
    if picked:
        st.session_state[SEQ] = int(picked["seq"])


def _shown() -> None:
    """The browser drew the first board: the page runs again and draws what lies below it."""
    if not st.session_state.get(READY):
        st.session_state[READY] = st.session_state[BEHIND] = True


def _go(seq: int) -> None:
    """Move the board to `seq` from the page (the browser steers it otherwise)."""
    count = (st.session_state.get(JUMP) or (0, 0))[0] + 1
    st.session_state[SEQ] = seq
    st.session_state[JUMP] = (count, seq)


def _step_to(match_id: str, seq: int) -> None:
    """Open another line of play (a branch, its parent) at the event where the two part."""
    state.select_match(match_id)
    st.session_state[LAND] = seq


def _branch_here(ws: Workspace, match_id: str, seq: int) -> None:
    """Start a what-if branch at this event and open it, to be played on on the Record page."""
    try:
        started = ws.branch(match_id, seq)
    except TabletapeError as error:
        st.session_state[BRANCHED] = f"No branch started: {error}"
        return
    _step_to(started.match_id, seq)
    st.session_state[BRANCHED] = (f"Branch {started.match_id} started from event {seq} of {match_id}: "
                                  "record its own line on the Record page.")


def _opened_at(last: int) -> int:
    """The event a link opens the match at (`?at=`, as a turning point links), else the first."""
    asked = st.query_params.get("at")
    return min(int(asked), last) if asked and asked.isdigit() else 0


def _by_seq(report: AuditReport) -> dict[int, list[Violation]]:
    found: dict[int, list[Violation]] = {}
    for violation in report.violations:
        found.setdefault(violation.seq, []).append(violation)
    return found


def _choices(ws: Workspace, row: Sequence[Any]) -> tuple[str | None, str | None, str | None, bool]:
    """The row of choices: the match, the rules it is read under, the seat it is seen by, and
    whether the board follows the match live."""
    picker, left, middle, right = row
    with picker:
        match_id = state.match_picker("Match", key="replay.match")
    if match_id is None:
        return None, None, None, False
    try:
        header = ws.header(match_id)
    except TabletapeError as error:
        state.show_error(error)
        return None, None, None, False
    own = f"{header.ruleset}@{header.version}"
    others = [f"{g['name']}@{v['id']}" for g in ws.rulesets() if g["name"] == header.ruleset
              for v in (*g["versions"], *g["variants"]) if f"{g['name']}@{v['id']}" != own]
    # The rules and the seat are choices about this match, so their boxes are this match's
    # (keyed by it): another match opens on its own record and the whole table. One key for
    # every match would carry a choice over where it still fits (2.0 from one MortalGate
    # match to the next), and the browser, told nothing new for an unchanged None, would
    # keep the last match's label ("as recorded (frontier@1.0)" over a MortalGate match).
    against = left.selectbox("Rules", [None, *others], key=f"{AGAINST}.{match_id}",
                             format_func=lambda spec: f"as recorded ({own})" if spec is None else f"re-read under {spec}")
    seat = middle.selectbox("Seen by", [None, *header.seats], key=f"{SEAT}.{match_id}",
                            format_func=lambda s: "the whole table (everything)" if s is None else f"seat {s} ({header.seats[s]})")
    follow = right.toggle("Follow live", key=FOLLOW, help="Stays on the newest event while a table records (or a digital "
                          "table posts to `tabletape serve`): new events and their findings appear as they are written.")
    return match_id, against, seat, follow


# --- the page -----------------------------------------------------------------------------


def main() -> None:
    """Choose a match, the rules to read it under, whose eyes to see it with; then scrub."""
    st.title("Replay")
    ws = state.workspace()
    # One row of choices, so a tablet's screen keeps the board in view below them. A first
    # visit draws the board before it (the boxes' scripts cost a new browser a quarter of a
    # second): its room is kept, and it is drawn, on the defaults the board was drawn with,
    # once the board is on screen (`state.PAGE_STYLE` keeps its height while its boxes load).
    with st.container(key=state.CHOICE_ROW):
        row = st.columns(ROW, vertical_alignment="bottom")
    if st.session_state.get(READY):
        match_id, against, seat, follow = _choices(ws, row)
    else:
        match_id, against, seat, follow = state.opening_match(), None, None, False
    if match_id is None:
        return
    try:
        timeline = state.timeline(match_id, against)
        report = state.audit(match_id, against)
    except TabletapeError as error:
        state.show_error(error)
        return
    if st.session_state.get("replay.for") != match_id:
        st.session_state["replay.for"] = match_id
        landing = st.session_state.pop(LAND, None)
        st.session_state[SEQ] = _opened_at(timeline.last_seq) if landing is None else min(int(landing), timeline.last_seq)
    if said := st.session_state.pop(BRANCHED, None):
        st.info(said)
    _family(ws, match_id)
    _curves(timeline)
    st.fragment(run_every=FOLLOW_EVERY if follow else None)(_scrubber)(ws, match_id, timeline, report, seat,
                                                                          follow=follow, against=against)
    if not st.session_state.get(READY):
        return  # drawn once the browser has drawn the board (`_shown`)
    if not follow:
        _violation_list(report, lacks(timeline.rules.ruleset, "audit"), seat=seat)
    win_chances(ws, match_id, timeline)
    _all_notes(ws, match_id)


def _family(ws: Workspace, match_id: str) -> None:
    """The match's parent and branches, each a button that opens it where the lines part."""
    family = ws.family(match_id)
    if family.parent is None and not family.children:
        return
    lines: list[tuple[str, str, int]] = []
    if family.parent is not None and family.at is not None:
        lines.append((f"Parent {family.parent} (left at event {family.at})", family.parent, family.at))
    lines += [(f"Branch {child} (from event {at})", child, at) for child, at in family.children]
    st.caption("What-if lines of this match")
    for column, (label, target, at) in zip(st.columns(min(len(lines), 4)), lines, strict=False):
        column.button(label, key=f"replay.to.{target}", on_click=_step_to, args=(target, at), width="stretch")
    for label, target, at in lines[4:]:
        st.button(label, key=f"replay.to.{target}", on_click=_step_to, args=(target, at))


def _curves(timeline: Timeline) -> None:
    """A game without a board that gives metrics (a log-only game's scores): how they went
    over the match, in a small chart above the events."""
    ruleset = timeline.rules.ruleset
    if ruleset.gives("view") or not ruleset.gives("metrics"):
        return
    curves = timeline.curves()
    if curves:
        st.caption("Over the match (by event)")
        st.line_chart(pd.DataFrame(curves).rename_axis("event"), height=180)


def _scrubber(ws: Workspace, match_id: str, timeline: Timeline, report: AuditReport, seat: str | None,
              *, follow: bool = False, against: str | None = None) -> None:
    """The board and what follows the picked event: rerun alone (a fragment) when the
    browser asks for frames or picks an event. Following a match live, it reads the log
    again on every run (from the cache that keeps one Timeline per last line)."""
    if st.session_state.pop(BEHIND, False):
        st.rerun(scope="app")  # the board is on screen: the whole page, with what lies below it
    if follow:
        timeline, report = state.timeline(match_id, against), state.audit(match_id, against)
    last = timeline.last_seq
    seq = min(max(int(st.session_state.get(SEQ, 0)), 0), last)
    if follow:
        seq = last
    st.session_state[SEQ] = seq
    # A Retracted or a Ruled changes what earlier frames say: the browser starts again.
    revision = sum(isinstance(event, Retracted | Ruled) for event in timeline.events)
    ident = f"{match_id}|{against or ''}|{seat or ''}|{revision}"
    # The frames the browser asked for, once (a later rerun, a pick, hands over a few only).
    asked = st.session_state.pop(ASKED, None)
    start, size = (asked[1], asked[2]) if asked and asked[0] == ident and asked[1] <= last else (seq, FIRST)
    st.session_state[SHOWN] = ident
    violations = _by_seq(report)
    worst = {s: min((v.severity for v in vs), key=_SEVERITY_ORDER.__getitem__) for s, vs in violations.items()}
    notes = ws.notes.list(match_id)
    scrub_board(ident=ident, total=last + 1, start=seq, chunk=state.frames(match_id, against, seat, start, min(size, CHUNK)),
                marks=worst, notes=[(n.from_seq, n.to_seq) for n in notes], follow=follow, key=BOARD,
                on_more=_more, on_pick=_pick, on_shown=_shown, ready=bool(st.session_state.get(READY)),
                jump=st.session_state.get(JUMP))
    if not st.session_state.get(READY):
        return
    if not follow and st.button(f"Branch here (event {seq})", icon=":material/call_split:", key="replay.branch",
                                help="What if the table had played otherwise here? A new match with this one's events "
                                "up to here, played on from this event on the Record page."):
        _branch_here(ws, match_id, seq)
        st.rerun()  # the whole page: the match picker opens the branch
    if seat is None and st.toggle(f"Show event {seq} and the state after it (every field)", key="replay.inspect"):
        step = timeline.state_at(seq)
        st.json({"event": to_builtins(step.event), "state": to_builtins(step.state)}, expanded=1)  # drawn only when asked
    if follow:  # else drawn once below the fragment: it does not change with the event
        _violation_list(report, lacks(timeline.rules.ruleset, "audit"), seat=seat)
    _notes(ws, match_id, seq, last, notes, violations.get(seq, []))


def _violation_list(report: AuditReport, unchecked: str | None = None, *, seat: str | None = None) -> None:
    """Every violation of the match (after retractions and rulings) and the result check;
    `unchecked`: why no event is checked (the game has no `check`). Seen by a seat, the
    messages are left out: one may name a card that seat cannot see."""
    box = st.expander(f"Findings ({report.tally.text()})", key=FINDINGS, on_change="rerun")
    with box:
        if report.result.agrees:
            st.success(f"Result: {report.result.message}")
        else:
            st.error(f"Result: {report.result.message}")
        if report.violations and box.open:  # the table is drawn once opened: the board never waits for it
            st.dataframe(pd.DataFrame([{"seq": v.seq, "severity": v.severity, "rule": v.rule}
                                       | ({"message": v.message} if seat is None else {})
                                       | {"rules text": report.passages.get(v.rule, "")} for v in report.violations]),
                         hide_index=True, width="stretch")
        elif not report.violations:
            st.caption(f"No event is checked: {unchecked}." if unchecked else "No rule was broken.")


# --- win chances ----------------------------------------------------------------------------


def win_chances(ws: Workspace, match_id: str, timeline: Timeline) -> None:
    """Each seat's chance to win along the match, played out by the game's bots when asked
    (it takes a while; a curve computed before is read from the store's cache), with the
    turning points as jumps to where they happened."""
    ruleset = timeline.rules.ruleset
    kept = f"{CHANCES}.{match_id}"
    if (missing := lacks(ruleset, "simulate")) is not None:
        st.expander("Win chances along the match").caption(f"No win chances: {missing}.")
        return
    box = st.expander("Win chances along the match", expanded=kept in st.session_state, key=f"{CHANCES_OPEN}.{match_id}",
                      on_change="rerun")
    if not box.open:  # its inputs are drawn when opened, after the board
        return
    with box:
        cols = st.columns([1, 1, 1, 1])
        rollouts = cols[0].number_input("Games per point", min_value=1, max_value=2000, value=DEFAULT_ROLLOUTS, step=50,
                                        key="replay.chances_rollouts")
        every = cols[1].selectbox("Points", EVERY, key="replay.chances_every",
                                  format_func=lambda e: "each turn start" if e == "turn" else "each event")
        bots = list(ruleset.bots)
        bot = cols[2].selectbox("Bots", bots, index=bots.index(ruleset.default_bot) if ruleset.default_bot in bots else 0,
                                key="replay.chances_bot")
        workers = cols[3].number_input("Worker processes", min_value=1, max_value=64, value=1, step=1,
                                       key="replay.chances_workers")
        cols = st.columns([1, 1, 2])
        horizon = cols[0].selectbox("Play ahead", HORIZONS, key="replay.chances_horizon",
                                    format_func=lambda h: "to the end" if h == "full" else f"{h} round{'s' if h != '1' else ''}, then score",
                                    help="Rounds each game is played before the position is scored by a model of the "
                                         "game's metrics, fitted once on simulated games; much faster than to the end.")
        precision = cols[1].number_input("Stop at ± points", min_value=0.0, max_value=50.0, value=0.0, step=1.0,
                                         key="replay.chances_precision",
                                         help="Stop playing on from a point once its 95% interval is this narrow "
                                              "(0: always play every game).")
        # On a human playtest the model fitted on the match's own positions is the one that
        # stays near curves played to the end (BENCHMARKS.md, Win chances): it comes first.
        fit = cols[2].selectbox("Scored by a model fitted on", FITS_SHOWN, key="replay.chances_fit",
                                disabled=horizon == "full", format_func=FITS_SHOWN.__getitem__,
                                help="Games played to the end from this match's own turn starts (closer on a human "
                                     "playtest, a fit per curve), or bot games from the start (fitted once per rules).")
        if st.button("Compute win chances", icon=":material/query_stats:", key="replay.chances_go"):
            bar = st.progress(0.0, text="starting...")

            def progress(done: int, total: int) -> None:
                bar.progress(done / max(total, 1), text=f"{done} of {total} games played on")

            try:
                st.session_state[kept] = chances(ws, match_id, rollouts=int(rollouts), every=every, bot=bot,
                                                 workers=int(workers), horizon=horizon, fit=fit,
                                                 precision=float(precision) or None, progress=progress)
            except TabletapeError as error:
                state.show_error(error)
                return
            bar.progress(1.0, text="done")
        found: Chances | None = st.session_state.get(kept)
        if found is not None:
            _chance_chart(found)


def _chance_chart(found: Chances) -> None:
    """The curve, what it was played with, when the game was decided, and the turning points."""
    st.caption(found.played_by + (" · read from the cache" if found.cached else f" · {found.seconds:.1f} s"))
    from dashboard.app.charts import win_chances as chart  # Altair: loaded once a curve is shown

    st.altair_chart(chart(found.curve()), width="stretch")
    for line in found.summary():
        st.markdown(line)
    swings = found.turning_points()
    if swings:
        st.markdown("**Turning points**")
    for index, swing in enumerate(swings):
        st.button(f"Event {swing.seq}: {swing.sentence()}", key=f"replay.swing.{index}", on_click=_go, args=(swing.seq,),
                  help="Go to where it happened.")


# --- notes ----------------------------------------------------------------------------------


def _notes(ws: Workspace, match_id: str, seq: int, last: int, notes: Sequence[Note], here: list[Violation]) -> None:
    """The notes on the picked event, and the form to add one there."""
    if flash := st.session_state.pop(NOTES_FLASH, None):
        st.success(flash)
    on_here = [n for n in notes if n.from_seq <= seq <= n.to_seq]
    if on_here:
        st.markdown(f"**Notes on event {seq}**")
    for note in on_here:
        _show_note(note, current=True)
    _add_note(ws, match_id, seq, last, here)


def _all_notes(ws: Workspace, match_id: str) -> None:
    """Every note of the match and the forms to reply, edit or remove: below the scrubbing
    fragment, since stepping does not change them."""
    notes = ws.notes.list(match_id)
    st.subheader(f"Notes ({len(notes)})")
    for note in notes:
        _show_note(note, current=False)
    if notes:
        _change_note(ws, match_id, notes)


def _span(note: Note) -> str:
    return f"event {note.from_seq}" if note.from_seq == note.to_seq else f"events {note.from_seq}-{note.to_seq}"


def _show_note(note: Note, *, current: bool) -> None:
    with st.container(border=True):
        tags = " ".join(f"`{t}`" for t in note.tags)
        rule = f" · rule `{note.rule}`" if note.rule else ""
        edited = " · edited" if note.edited_at else ""
        marker = ":material/location_on: " if current else ""
        st.markdown(f"{marker}**{note.author}** on {_span(note)} {tags}{rule}{edited}  \n{note.text}")
        for reply in note.replies:
            st.markdown(f"↳ **{reply.author}**: {reply.text}")


def _author() -> str:
    return str(st.session_state.get("replay.author_name", ""))


def _add_note(ws: Workspace, match_id: str, seq: int, last: int, here: list[Violation]) -> None:
    with st.form("replay.add_note", clear_on_submit=True):
        st.markdown(f"**Add a note on event {seq}** (or a range starting there; **Note or branch here** on the board picks another)")
        # The key follows the remembered name, so a cleared form offers it again.
        author = st.text_input("Your name", value=_author(), key=f"replay.note_author.{seq}.{_author()}")
        text = st.text_area("Note", key="replay.note_text", placeholder="What happened here, and what should change?")
        cols = st.columns([3, 2, 1])
        tags = cols[0].multiselect("Tags", NOTE_TAGS, key="replay.note_tags")
        suggested = here[0].rule if here else ""
        rule = cols[1].text_input("Rule id", value=suggested, key=f"replay.note_rule.{seq}",
                                  help="E.g. mortalgate/combat.line-of-sight; prefilled with the rule broken here.")
        to_seq = cols[2].number_input("Through event", min_value=seq, max_value=last, value=seq, step=1, key=f"replay.note_to.{seq}")
        if st.form_submit_button("Add note"):
            try:
                note = ws.notes.add(match_id, from_seq=seq, to_seq=int(to_seq), author=author, text=text, tags=tags, rule=rule or None)
            except TabletapeError as error:
                state.show_error(error)
            else:
                st.session_state["replay.author_name"] = author
                st.session_state[NOTES_FLASH] = f"Note {note.id} added on {_span(note)}."
                st.rerun()


def _change_note(ws: Workspace, match_id: str, notes: Sequence[Note]) -> None:
    box = st.expander("Reply to, edit or remove a note", key=CHANGE_NOTE, on_change="rerun")
    if not box.open:
        return
    with box:
        chosen = st.selectbox("Note", [n.id for n in notes], key="replay.note_pick",
                              format_func=lambda i: next(f"{n.author} on {_span(n)}: {n.text[:60]}" for n in notes if n.id == i))
        note = next(n for n in notes if n.id == chosen)
        action = st.radio("Action", ["Reply", "Edit", "Remove"], horizontal=True, key="replay.note_action")
        with st.form("replay.change_note", clear_on_submit=True):
            author = st.text_input("Your name", value=_author(), key=f"replay.change_author.{_author()}")
            kwargs: dict[str, Any] = {}
            if action == "Reply":
                kwargs["text"] = st.text_area("Reply", key="replay.reply_text")
            elif action == "Edit":
                kwargs["text"] = st.text_area("Text", value=note.text, key=f"replay.edit_text.{note.id}")
                kwargs["tags"] = st.multiselect("Tags", NOTE_TAGS, default=[t for t in note.tags if t in NOTE_TAGS], key=f"replay.edit_tags.{note.id}")
                kwargs["rule"] = st.text_input("Rule id (empty clears it)", value=note.rule or "", key=f"replay.edit_rule.{note.id}")
            else:
                kwargs["reason"] = st.text_input("Why (optional)", key="replay.remove_reason")
            if st.form_submit_button(action):
                try:
                    if action == "Reply":
                        ws.notes.reply(match_id, note.id, author=author, text=kwargs["text"])
                    elif action == "Edit":
                        ws.notes.edit(match_id, note.id, author=author, **kwargs)
                    else:
                        ws.notes.remove(match_id, note.id, author=author, reason=kwargs["reason"])
                except TabletapeError as error:
                    state.show_error(error)
                else:
                    st.session_state["replay.author_name"] = author
                    st.session_state[NOTES_FLASH] = f"{action}: done (note {note.id})."
                    st.rerun()


main()
