"""Record: a live playtest at the table, one event at a time.

The form offers only what the rules call legal now (dice values at a chance step); an
event the table enters by hand is checked before it is written and kept only if the
table insists (the audit will show it). Undo writes Retracted; a ruling writes Ruled.
Every append names the last seq this form was built on, so a second recorder at the
same match gets a conflict instead of an interleaved log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from dashboard.state import warehouse, workspace
from dashboard.svg import board_svg
from events.base import Event
from events.errors import TabletapeError
from projections import recording
from projections.audit import tally
from projections.catalog import MatchFilter, list_matches
from projections.recording import Live, Offer
from projections.workspace import Workspace
from rulesets.protocol import Violation

LIVE = "rec_live"
MESSAGE = "rec_message"
RECENT = 12  # events shown in the recent-events list (a bare string would be drawn: Streamlit magic)


def _say(kind: str, text: str) -> None:
    """Keep a message for the next render (callbacks run before the page draws)."""
    st.session_state[MESSAGE] = (kind, text)


def _write(ws: Workspace, live: Live, events: Sequence[Event], expected: int, problems: int, insist_key: str | None) -> None:
    """Button callback: append unless the rules refuse and the table has not insisted."""
    if problems and not (insist_key and st.session_state.get(insist_key)):
        _say("error", "not written: the rules refuse this event; tick 'the table insists' to record it anyway")
        return
    try:
        written = live.write(ws, events, expected_seq=expected)
    except TabletapeError as error:
        _say("error", f"not written: {error}")
        live.refresh(ws)
        return
    if insist_key:
        st.session_state[insist_key] = False
    names = ", ".join(f"seq {e.seq} {type(e).__name__}" for e in written)
    _say("warning" if problems else "success", f"recorded {names}" + (" against the rules (the audit will show it)" if problems else ""))


def _start(ws: Workspace) -> None:
    """Choose game, version or variant, seats and options; start or continue a playtest."""
    st.subheader("Start a playtest")
    games = {g["name"]: g for g in ws.rulesets()}
    name = st.selectbox("Game", list(games), format_func=lambda n: games[n]["title"], key="rec_game")
    game = games[name]
    specs = {v["id"]: f"{v['id']} · {v['title']}" for v in reversed(game["versions"])}
    specs |= {v["id"]: f"{v['id']} · variant of {v['extends']}" for v in game["variants"]}
    version = st.selectbox("Version or variant", list(specs), format_func=specs.__getitem__, key=f"rec_version_{name}")
    rules = ws.rules(f"{game['name']}@{version}")
    seats_text = st.text_area("Seats (seat = player, one a line)", key=f"rec_seats_{game['name']}",
                              value="\n".join(f"{s} = {p}" for s, p in rules.ruleset.example_seats.items()))
    options: dict[str, Any] = {}
    for option in rules.ruleset.options:
        if option.choices:
            options[option.name] = st.selectbox(option.name, option.choices, index=list(option.choices).index(option.default)
                                                if option.default in option.choices else 0, help=option.help, key=f"rec_opt_{name}_{option.name}")
        else:
            text = st.text_input(option.name, value=recording.as_text(option.default), help=option.help,
                                 placeholder="blank: the rules' default", key=f"rec_opt_{name}_{option.name}")
            if text.strip():
                options[option.name] = recording.parse_value(text)
    title = st.text_input("Title", key="rec_title", placeholder="Thursday playtest, new map")
    if st.button("Start the playtest", key="rec_start", type="primary"):
        try:
            seats = recording.parse_seats(seats_text)
            started = ws.new_match(rules.spec, seats, title=title, options=options, source="playtest")
        except TabletapeError as error:
            st.error(str(error))
            return
        st.session_state[LIVE] = Live.open(ws, started.match_id)
        st.rerun()
    found = list_matches(warehouse(), MatchFilter(sources=("playtest",))).records()
    if found:
        st.subheader("Continue a playtest")
        shown = {m["match_id"]: f"{m['match_id']} · {m['game']}@{m['version']} · {m['events']} events · {m['title']}" for m in found}
        match_id = st.selectbox("Playtest", list(shown), format_func=shown.__getitem__, key="rec_continue_pick")
        if st.button("Continue", key="rec_continue") and match_id:
            st.session_state[LIVE] = Live.open(ws, match_id)
            st.rerun()


def _board(live: Live) -> None:
    """The board as the table sees it (every seat), and where the game stands."""
    rules = live.rules
    progress = rules.ruleset.progress(rules.params, live.state)
    outcome = rules.ruleset.outcome(rules.params, live.state)
    st.caption(f"turn {progress.turn} · round {progress.round} · phase {progress.phase} · to act: {progress.actor or '-'}")
    if outcome is not None:
        st.info(f"By the rules the game is over: {'a draw' if outcome.draw else outcome.winner + ' won'} ({outcome.reason}).")
    st.image(board_svg(rules.ruleset.view(rules.params, live.state, None)), width="stretch")


def _recent(live: Live) -> None:
    """The latest events, and every violation still standing."""
    st.markdown("**Latest events**")
    rows = [{"seq": e.seq, "event": type(e).__name__, "by": e.by or "", "detail": recording.summary(e), "voided": e.seq in live.voided}
            for e in live.events[-RECENT:]]
    st.dataframe(rows[::-1], hide_index=True, key="rec_recent")
    findings = live.findings()
    if findings:
        st.markdown(f"**Audit so far: {tally(findings).text()}**")
        st.dataframe([{"seq": v.seq, "rule": v.rule, "severity": v.severity, "message": v.message} for v in findings],
                     hide_index=True)


def _problems(problems: Sequence[Violation], insist_key: str) -> None:
    """Warn before writing an illegal event; the table may insist."""
    lines = "\n".join(f"- `{v.rule}`: {v.message}" for v in problems)
    st.warning(f"The rules refuse this event:\n{lines}")
    st.checkbox("The table insists: record it anyway", key=insist_key)


def _pick(name: str, options: list[Any], key: str) -> Any:
    """A selectbox over field values, shown as a person reads them."""
    index: int = st.selectbox(name, list(range(len(options))), format_func=lambda i: recording.label(options[i]), key=key) or 0
    return options[index]


def _legal(ws: Workspace, live: Live, offers: list[Offer]) -> None:
    """The events legal now, picked field by field; dice values at a chance step."""
    if not offers:
        st.info("Nothing is legal now. Declare the result, record a ruling, or undo.")
        return
    base = f"rec_{live.match_id}_{live.last_seq}"
    by_type = {o.type_name: o for o in offers}
    chosen = st.selectbox("Event", list(by_type), key=f"{base}_type",
                          format_func=lambda t: f"{t} ({len(by_type[t].events)} {'outcomes' if by_type[t].chance else 'legal'})")
    offer = by_type[chosen or offers[0].type_name]
    if offer.chance:
        st.caption("A chance step: enter what the dice (or the draw) showed.")
    remaining = offer.events
    for name in offer.fields:
        options = recording.values(remaining, name)
        if len(options) == 1:
            st.caption(f"{name}: {recording.label(options[0])}")
            pick = options[0]
        else:
            pick = _pick(name, options, f"{base}_{offer.type_name}_{name}")
        remaining = recording.keep(remaining, name, pick)
    event = remaining[0]
    stated = {name: st.text_input(f"{name} (as the table called it; blank: the rules decide)", key=f"{base}_{offer.type_name}_x_{name}")
              for name in offer.extras}
    try:
        event = recording.stated(event, stated)
    except TabletapeError as error:
        st.error(str(error))
        return
    problems = live.problems(event)
    if problems:
        _problems(problems, "rec_insist_legal")
    st.button("Record", key="rec_record_legal", type="primary", on_click=_write,
              args=(ws, live, [event], live.last_seq, len(problems), "rec_insist_legal"))


def _free(ws: Workspace, live: Live, offers: list[Offer]) -> None:
    """Any event of the game, typed by hand: checked first, written only if the table insists."""
    types = recording.draftable(live.rules)
    first = offers[0].type_name if offers and offers[0].type_name in types else types[0]
    type_name = st.selectbox("Event type", types, index=types.index(first), key=f"rec_free_type_{live.last_seq}")
    seats = ["", *live.started.seats]
    by = st.selectbox("Seat (by)", seats, format_func=lambda s: s or "the table", key="rec_free_by") or None
    fields = st.text_area("Fields (JSON)", key=f"rec_free_fields_{live.last_seq}_{type_name}",
                          value=recording.template_json(live.rules, type_name, offers))
    try:
        event = recording.draft(live.rules, type_name, by, fields)
    except TabletapeError as error:
        st.error(str(error))
        return
    problems = live.problems(event)
    if problems:
        _problems(problems, "rec_insist_free")
    else:
        st.success("The rules accept this event.")
    st.button("Record this event", key="rec_record_free", on_click=_write,
              args=(ws, live, [event], live.last_seq, len(problems), "rec_insist_free"))


def _ruling(ws: Workspace, live: Live) -> None:
    """A table ruling: which rule, what was decided, and the event it settles."""
    findings = [v for v in live.findings() if v.severity != "info"]
    latest = findings[-1] if findings else None
    rule = st.text_input("Rule id", value=latest.rule if latest else "", key=f"rec_rule_{live.last_seq}")
    decision = st.text_input("Decision", key="rec_decision", placeholder="allowed: the table plays it as written on the card")
    applies = st.number_input("Applies to seq (0: the whole game)", min_value=0, max_value=max(live.last_seq, 0), step=1,
                              value=latest.seq if latest else 0, key=f"rec_applies_{live.last_seq}")
    try:
        event = recording.ruling(rule, decision, int(applies) or None, last_seq=live.last_seq)
    except TabletapeError as error:
        st.caption(str(error))
        return
    st.button("Record the ruling", key="rec_record_ruling", on_click=_write, args=(ws, live, [event], live.last_seq, 0, None))


def _result(ws: Workspace, live: Live) -> None:
    """What the table declares at the end; the rules' own outcome is checked against it."""
    sides = recording.sides(live.rules, live.started)
    winner = st.selectbox("Winner", ["", *sides], format_func=lambda s: s or "(none: abandoned)", key="rec_winner") or None
    draw = st.checkbox("Draw", key="rec_draw")
    reason = st.text_input("Reason", key="rec_reason")
    event = recording.result(winner, draw=draw, reason=reason)
    problems = live.problems(event)
    if problems:
        _problems(problems, "rec_insist_result")
    st.button("Declare the result", key="rec_record_result", on_click=_write,
              args=(ws, live, [event], live.last_seq, len(problems), "rec_insist_result"))


def _undo(ws: Workspace, live: Live) -> None:
    """Undo writes Retracted for the latest event still in force."""
    target = live.in_force
    if target is None:
        st.caption("Nothing to undo.")
        return
    kind = type(live.events[target]).__name__
    reason = st.text_input("Why undo", key="rec_undo_reason", placeholder="misread the range")
    event = live.undo(reason)
    st.button(f"Undo seq {target} ({kind})", key="rec_undo", on_click=_write, args=(ws, live, [event], live.last_seq, 0, None))


def _recording(ws: Workspace, live: Live) -> None:
    """A match being recorded: board, forms, latest events."""
    started = live.started
    head, close = st.columns([4, 1])
    head.subheader(started.title or "Playtest")
    head.caption(f"{live.match_id} · {live.rules.spec} · " + ", ".join(f"{s}: {p}" for s, p in started.seats.items()))
    if close.button("Close", key="rec_close"):
        del st.session_state[LIVE]
        st.rerun()
    message = st.session_state.pop(MESSAGE, None)
    if message:
        getattr(st, message[0])(message[1])
    left, right = st.columns([3, 2])
    with left:
        _board(live)
    with right:
        offers = recording.offers(live.rules, live.state)
        legal, free, ruled, result, undo = st.tabs(["Legal now", "Any event", "Ruling", "Result", "Undo"])
        with legal:
            _legal(ws, live, offers)
        with free:
            _free(ws, live, offers)
        with ruled:
            _ruling(ws, live)
        with result:
            _result(ws, live)
        with undo:
            _undo(ws, live)
    _recent(live)


def main() -> None:
    """Render the page."""
    st.title("Record")
    ws = workspace()
    live: Live | None = st.session_state.get(LIVE)
    if live is None:
        _start(ws)
        return
    live.refresh(ws)
    _recording(ws, live)


main()
