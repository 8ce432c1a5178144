"""Replay: scrub a match event by event, see the board, the state and what broke, and annotate.

The page reads the selected match, asks the cached Timeline for the step at the chosen
event and the cached audit for its violations, draws the ruleset's BoardView as SVG, and
writes notes through the Workspace's Notebook. No rules and no SQL here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import state
from dashboard.svg import board_layers, card_rows_svg, timeline_svg
from dashboard.tapboard import show_board, show_state
from events.base import Event
from events.errors import TabletapeError
from events.notes import NOTE_TAGS, Note
from projections.audit import AuditReport
from projections.timeline import Timeline
from projections.workspace import Workspace, to_builtins
from rulesets.levels import lacks
from rulesets.protocol import Violation

SEQ = "replay.seq"  # session_state key of the event the replay stands at
KEPT = "replay.at"  # the same, kept while another page is open (unshown widgets lose their keys)
AGAINST = "replay.against"  # with the match id: the rules it is read under
SEAT = "replay.seat"  # with the match id: whose eyes it is seen with
AUTOPLAY = "replay.autoplay"
FOLLOW = "replay.follow"
FOLLOW_EVERY = 1.0
"""Seconds between two looks at the log while following a match live."""
FLASH = "replay.flash"
LAND = "replay.land"  # the event to open the next match at (stepping to a branch or its parent)
NOTES_FLASH = "replay.notes_flash"
REDRAW_MS = "replay.redraw_ms"  # server time of the last redraw (the benchmark reads it)
WINDOW = 8  # events shown either side of the current one in the event list
SPEEDS = {"slow (2 s)": 2.0, "normal (1 s)": 1.0, "fast (0.5 s)": 0.5}
_ENVELOPE = frozenset({"type", "seq", "at", "by", "prev"})
_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


# --- moving through the match (button callbacks run before the rerun) ------------------------


def _go(seq: int) -> None:
    st.session_state[SEQ] = seq


def _jump(targets: Sequence[int], what: str) -> None:
    """Move to the first of `targets` after the current event, or say there is none."""
    here = st.session_state.get(SEQ, 0)
    later = [t for t in targets if t > here]
    if later:
        st.session_state[SEQ] = min(later)
    else:
        st.session_state[FLASH] = f"No {what} after event {here}."


def _step_to(match_id: str, seq: int) -> None:
    """Open another line of play (a branch, its parent) at the event where the two part."""
    state.select_match(match_id)
    st.session_state[LAND] = seq


def _branch_here(ws: Workspace, match_id: str, seq: int) -> None:
    """Start a what-if branch at this event and open it, to be played on on the Record page."""
    try:
        started = ws.branch(match_id, seq)
    except TabletapeError as error:
        st.session_state[FLASH] = f"No branch started: {error}"
        return
    _step_to(started.match_id, seq)
    st.session_state[FLASH] = (f"Branch {started.match_id} started from event {seq} of {match_id}: "
                               "record its own line on the Record page.")


def _describe(event: Event) -> str:
    """An event's own fields as `name=value` words (the envelope left out)."""
    fields = {k: v for k, v in to_builtins(event).items() if k not in _ENVELOPE and v not in (None, "", [], {})}
    return "  ".join(f"{k}={v if isinstance(v, str | int | float | bool) else json.dumps(v)}" for k, v in fields.items())


def _by_seq(report: AuditReport) -> dict[int, list[Violation]]:
    found: dict[int, list[Violation]] = {}
    for violation in report.violations:
        found.setdefault(violation.seq, []).append(violation)
    return found


# --- the page -----------------------------------------------------------------------------


def main() -> None:
    """Choose a match, the rules to read it under, whose eyes to see it with; then scrub."""
    st.title("Replay")
    ws = state.workspace()
    match_id = state.match_picker("Match", key="replay.match")
    if match_id is None:
        return
    try:
        header = ws.header(match_id)
    except TabletapeError as error:
        state.show_error(error)
        return
    own = f"{header.ruleset}@{header.version}"
    others = [f"{g['name']}@{v['id']}" for g in ws.rulesets() if g["name"] == header.ruleset
              for v in (*g["versions"], *g["variants"]) if f"{g['name']}@{v['id']}" != own]
    left, middle, right = st.columns([3, 3, 2])
    # The rules and the seat are choices about this match, so their boxes are this match's
    # (keyed by it): another match opens on its own record and the whole table. One key for
    # every match would carry a choice over where it still fits (2.0 from one MortalGate
    # match to the next), and the browser, told nothing new for an unchanged None, would
    # keep the last match's label ("as recorded (frontier@1.0)" over a MortalGate match).
    against = left.selectbox("Rules", [None, *others], key=f"{AGAINST}.{match_id}",
                             format_func=lambda spec: f"as recorded ({own})" if spec is None else f"re-read under {spec}")
    seat = middle.selectbox("Seen by", [None, *header.seats], key=f"{SEAT}.{match_id}",
                            format_func=lambda s: "the whole table (everything)" if s is None else f"seat {s} ({header.seats[s]})")
    autoplay = right.toggle("Autoplay", key=AUTOPLAY, help="Steps forward on its own; no keyboard needed.")
    follow = right.toggle("Follow live", key=FOLLOW, help="Stays on the newest event while a table records (or a digital "
                          "table posts to `tabletape serve`): new events and their findings appear as they are written.")
    speed = SPEEDS[right.selectbox("Speed", list(SPEEDS), index=1, key="replay.speed", label_visibility="collapsed")]
    try:
        timeline = state.timeline(match_id, against)
        report = state.audit(match_id, against)
    except TabletapeError as error:
        state.show_error(error)
        return
    if st.session_state.get("replay.for") != match_id:
        st.session_state["replay.for"] = match_id
        st.session_state[SEQ] = st.session_state[KEPT] = min(int(st.session_state.pop(LAND, 0)), timeline.last_seq)
    _family(ws, match_id)
    _curves(timeline)
    every = FOLLOW_EVERY if follow else speed if autoplay else None
    st.fragment(run_every=every)(_scrubber)(ws, match_id, timeline, report, seat, autoplay, follow=follow, against=against)
    if not follow:
        _violation_list(report, lacks(timeline.rules.ruleset, "audit"))
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


def _scrubber(ws: Workspace, match_id: str, timeline: Timeline, report: AuditReport, seat: str | None, autoplay: bool,
              *, follow: bool = False, against: str | None = None) -> None:
    """Everything that changes with the event: redrawn alone (a fragment) while scrubbing.
    Following a match live, it reads the log again on every run (from the cache that keeps
    one Timeline per last line) and stands on the newest event."""
    started = time.perf_counter()
    if follow:
        timeline, report = state.timeline(match_id, against), state.audit(match_id, against)
        st.session_state[SEQ] = timeline.last_seq
    last = timeline.last_seq
    seq = min(max(int(st.session_state.get(SEQ, st.session_state.get(KEPT, 0))), 0), last)
    if autoplay and seq < last:
        seq += 1
    st.session_state[SEQ] = seq
    violations = _by_seq(report)
    notes = ws.notes.list(match_id)
    note_starts = sorted({n.from_seq for n in notes})

    step = timeline.state_at(seq)
    rules = timeline.rules
    ruleset, params = rules.ruleset, rules.params
    progress = ruleset.progress(params, step.state)
    event = step.event
    opened = timeline.events[0].at
    elapsed = f" · {_clock(event.at - opened)} into the match" if event.at and opened else ""

    board, side = st.columns([3, 1])
    view = ruleset.view(params, step.state, seat)
    with board:
        if view.has_board:
            show_board(board_layers(view, rows=False), card_rows_svg(view), seq=seq, key="replay.board")
        else:
            show_state(view)
    if view.note:
        board.caption(view.note)
    with side:
        for violation in violations.get(seq, []):
            _show_violation(violation)
        if seq in set(timeline.voided.values()):
            st.warning("This event was undone later at the table (Retracted).")
        for panel in view.panels if view.has_board else ():
            st.markdown(f"**{panel.title}**  \n" + "  \n".join(f"{label}: {value}" for label, value in panel.rows))
    # The board first, the event in words and the controls under it: on a 1024 x 768 tablet the
    # board is above the fold.
    st.markdown(f"**Event {seq} of {last}: {timeline.said[seq]}** · by {event.by or 'the table'}{elapsed}  \n"
                f"turn {progress.turn} · round {progress.round} · phase {progress.phase} · to act: {progress.actor or '-'}")
    st.caption(f"`{type(event).__name__}` {_describe(event)}")
    buttons = st.columns([1, 1.1, 1, 1, 1.4, 1.2, 1.2])  # the two jumps' labels are the longest: whole at 1024 px
    buttons[0].button("First", icon=":material/first_page:", on_click=_go, args=(0,), key="replay.first", width="stretch")
    buttons[1].button("Previous", icon=":material/chevron_left:", on_click=_go, args=(max(seq - 1, 0),), key="replay.prev", width="stretch")
    buttons[2].button("Next", icon=":material/chevron_right:", on_click=_go, args=(min(seq + 1, last),), key="replay.next", width="stretch")
    buttons[3].button("Last", icon=":material/last_page:", on_click=_go, args=(last,), key="replay.last", width="stretch")
    buttons[4].button("Next violation", icon=":material/warning:", on_click=_jump, args=(sorted(violations), "violation"),
                      key="replay.next_violation", width="stretch")
    buttons[5].button("Next note", icon=":material/sticky_note_2:", on_click=_jump, args=(note_starts, "note"),
                      key="replay.next_note", width="stretch")
    if buttons[6].button("Branch here", icon=":material/call_split:", key="replay.branch", width="stretch",
                         help="What if the table had played otherwise here? A new match with this one's events up "
                         "to here, played on from this event on the Record page."):
        _branch_here(ws, match_id, seq)
        st.rerun()  # the whole page: the match picker opens the branch
    if flash := st.session_state.pop(FLASH, None):
        st.info(flash)
    st.slider("Event", 0, max(last, 1), key=SEQ, disabled=last == 0)
    st.session_state[KEPT] = seq
    worst = {s: min((v.severity for v in vs), key=_SEVERITY_ORDER.__getitem__) for s, vs in violations.items()}
    state.show_svg(timeline_svg(last, seq, violations=worst, notes=[(n.from_seq, n.to_seq) for n in notes]))
    _event_list(timeline, seq, violations)
    if st.toggle("Show the state (every field)", key="replay.inspect"):  # drawn only when asked: a state is large
        st.json(to_builtins(step.state), expanded=1)
    if follow:  # else drawn once below the fragment: it does not change with the event
        _violation_list(report, lacks(timeline.rules.ruleset, "audit"))
    _notes(ws, match_id, seq, last, notes, violations.get(seq, []))
    st.session_state[REDRAW_MS] = (time.perf_counter() - started) * 1000
    st.caption(f"Redrawn in {st.session_state[REDRAW_MS]:.0f} ms on the server.")


def _clock(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _show_violation(violation: Violation) -> None:
    text = f"`{violation.rule}`: {violation.message}"
    if violation.severity == "error":
        st.error(text, icon="⚠️")
    elif violation.severity == "warning":
        st.warning(text)
    else:
        st.info(text)


def _event_list(timeline: Timeline, seq: int, violations: dict[int, list[Violation]]) -> None:
    """The events around the current one in words, the current one marked."""
    lo, hi = max(seq - WINDOW, 0), min(seq + WINDOW, timeline.last_seq)
    undone = set(timeline.voided.values())
    st.markdown(f"**Events** {lo}-{hi} of {timeline.last_seq}")
    lines = []
    for event in timeline.events[lo:hi + 1]:
        at = event.at.strftime("%H:%M:%S") if event.at else ""
        said = timeline.said[event.seq].replace("*", "\\*")
        said = f"~~{said}~~ (undone)" if event.seq in undone else said
        broke = " · ⚠ " + ", ".join(f"`{v.rule}`" for v in violations.get(event.seq, [])) if event.seq in violations else ""
        line = f"{event.seq}. {said}{broke} <small>{at}</small>"
        lines.append(f"- ▶ **{line}**" if event.seq == seq else f"- {line}")
    st.markdown("\n".join(lines), unsafe_allow_html=True)


def _violation_list(report: AuditReport, unchecked: str | None = None) -> None:
    """Every violation of the match (after retractions and rulings) and the result check;
    `unchecked`: why no event is checked (the game has no `check`)."""
    with st.expander(f"Findings ({report.tally.text()})", expanded=False):
        if report.result.agrees:
            st.success(f"Result: {report.result.message}")
        else:
            st.error(f"Result: {report.result.message}")
        if report.violations:
            st.dataframe(pd.DataFrame([{"seq": v.seq, "severity": v.severity, "rule": v.rule, "message": v.message}
                                       for v in report.violations]), hide_index=True, width="stretch")
        else:
            st.caption(f"No event is checked: {unchecked}." if unchecked else "No rule was broken.")


# --- notes ----------------------------------------------------------------------------------


def _notes(ws: Workspace, match_id: str, seq: int, last: int, notes: Sequence[Note], here: list[Violation]) -> None:
    """The notes on this event, and the form to add one here (they change with the event)."""
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
        st.markdown(f"**Add a note on event {seq}** (or a range starting there)")
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
    with st.expander("Reply to, edit or remove a note"):
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
