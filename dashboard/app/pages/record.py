"""Record: a live playtest at the table, on the game's own board, at the pace of play.

The board is the interface. Tap a piece and its legal actions light up; tap where it goes
and the event is written (`projections.record.taps`, from the ruleset's own `legal` and `touch`).
A picker in the game's words appears only where several actions share the same taps. At a
chance step a dice pad shows the dice the rules call for and, before Record, what the roll
means. Steps the rules force (the next turn starting, an empty phase) are written by the
recorder itself, so the table records only what it decided and rolled; one tap of Undo
takes back the last decision and what it forced. A move the rules refuse is entered in
"Any event" and written only when the table insists. Every append names the last seq the
page was built on, so a second recorder at the same match gets a conflict, not an
interleaved log.

The board and the panel beside it (the status strip, the message of the last write, the
dice pad, the picker, the refused event, the off-board actions, the compositions, the table
to lay, the end of the game, Undo, the latest events and the audit so far) are one
component drawing plain data, which the session's `Recorder` (`dashboard.app.recorder`)
builds. A tap or a press goes to the dashboard's tap route and comes back as the new board;
where the route does not answer, it is a trigger of the component's fragment. Streamlit
draws only the mode control, Close, and beside the board (its panel then under it) the
forms of the other modes and the log pad of a game with no rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from dashboard.app import state as shared
from dashboard.app.recorder import Recorder
from dashboard.app.state import warehouse, workspace
from dashboard.board.tapboard import tap_board
from events.base import Event
from events.errors import TabletapeError
from projections.record import recording
from projections.record.recording import Live
from projections.warehouse.catalog import MatchFilter, list_matches
from projections.workspace import Workspace
from rulesets import freeform
from rulesets.protocol import Violation

RECORDER = "rec_recorder"
"""The session's `Recorder`: the match being recorded and what its board shows."""
BOARD = "rec_board"
PAGE_SEQ = "rec_page_seq"
"""The last seq the page (its forms) was built on."""
MODE = "rec_mode"
MODES = ("Play", "Any event", "Ruling", "Result")
VERBS = "rec_verbs"
"""(match, the verbs of its designer's game in its other matches): read once per match."""
SIDES = (4, 6, 8, 10, 12, 20)
"""The dice a table most often throws, for the log-only dice pad."""


def _recorder() -> Recorder | None:
    found: Recorder | None = st.session_state.get(RECORDER)
    return found


def _on_tap() -> None:
    """A tap the tap route did not take (the page was served without it): the same write."""
    rec = _recorder()
    if rec is not None:
        rec.tap((st.session_state.get(BOARD) or {}).get("tap"))


def _on_act() -> None:
    rec = _recorder()
    if rec is not None:
        rec.act((st.session_state.get(BOARD) or {}).get("act"))


def _write(rec: Recorder, events: Sequence[Event], expected: int, problems: int, insist_key: str | None) -> None:
    """A form's write: refused while the rules refuse and the form's 'the table insists' is
    not ticked; the tick is cleared once written."""
    if rec.write(events, expected, problems, insisted=bool(insist_key and st.session_state.get(insist_key))) and insist_key:
        st.session_state[insist_key] = False


# --- starting ----------------------------------------------------------------------------


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
        _open(ws, started.match_id)
    found = list_matches(warehouse(), MatchFilter(sources=("playtest",))).records()
    chosen = shared.selected_match()  # a link (?match=ID) or the match open on another page
    shown = {m["match_id"]: f"{m['match_id']} · {m['game']}@{m['version']} · {m['events']} events · {m['title']}" for m in found}
    if chosen and chosen not in shown and (branch := ws.header(chosen)).is_branch:
        # a what-if branch just started on Replay (of a playtest or a bot game): played on here
        shown = {chosen: f"{chosen} · {branch.ruleset}@{branch.version} · branch of {branch.branch_of} · {branch.title}", **shown}
    if shown:
        st.subheader("Continue a playtest")
        if chosen in shown and "rec_continue_pick" not in st.session_state:
            st.session_state["rec_continue_pick"] = chosen
        match_id = st.selectbox("Playtest", list(shown), format_func=shown.__getitem__, key="rec_continue_pick")
        if st.button("Continue", key="rec_continue") and match_id:
            _open(ws, match_id)


def _open(ws: Workspace, match_id: str) -> None:
    """Record `match_id` from here: first write what the rules force before anyone decides
    (a first turn with one possible hero), then show its board."""
    rec = Recorder(ws, Live.open(ws, match_id))
    rec.open()
    st.session_state[RECORDER] = rec
    st.rerun()


def _log_pad(rec: Recorder) -> None:
    """A game without rules in code: tap a seat (whose turn it is, unless tapped), then what
    it did - a verb used before, a score change or the turn passing - and it is written; or
    throw dice on the pad."""
    ws, live = rec.ws, rec.live
    state = live.state
    seats = list(live.started.seats)
    seat = st.segmented_control("Seat", seats, default=state.actor, key=f"rec_log_seat_{live.last_seq}",
                                format_func=lambda s: f"{s} ({live.started.seats[s]})") or state.actor
    if seat is None:
        return

    def record(event: Event) -> None:
        _write(rec, [event], live.last_seq, 0, None)

    verbs = _verbs(ws, live)
    if verbs:
        st.markdown(f"**{state.who(seat)}…**")
        columns = st.columns(min(len(verbs), 4))
        for index, verb in enumerate(verbs):
            columns[index % len(columns)].button(verb, key=f"rec_verb_{live.last_seq}_{index}", width="stretch", on_click=record,
                                                 args=(freeform.ActionTaken(by=seat, verb=verb),))
    new, add = st.columns([3, 1], vertical_alignment="bottom")
    verb = new.text_input("Another action (a verb)", key=f"rec_new_verb_{live.last_seq}", placeholder="builds, trades, attacks").strip()
    add.button("Record", key=f"rec_record_verb_{live.last_seq}", disabled=not verb, on_click=record,
               args=(freeform.ActionTaken(by=seat, verb=verb or "-"),))
    score = st.columns(4, vertical_alignment="bottom")
    for column, delta in zip(score, (1, -1), strict=False):
        column.button(f"{delta:+d}", key=f"rec_score_{delta}_{live.last_seq}", width="stretch", help=f"{seat}'s score {delta:+d}",
                      on_click=record, args=(freeform.ScoreChanged(by=seat, seat=seat, delta=delta),))
    amount = score[2].number_input("Points", value=0, step=1, key=f"rec_points_{live.last_seq}")
    score[3].button("Add", key=f"rec_score_add_{live.last_seq}", width="stretch", disabled=not amount, on_click=record,
                    args=(freeform.ScoreChanged(by=seat, seat=seat, delta=int(amount) or 1),))
    st.button(f"Pass the turn ({seat})", key=f"rec_pass_{live.last_seq}", width="stretch", type="primary",
              on_click=record, args=(freeform.TurnPassed(by=seat),))
    _log_dice(live, seat, record)


def _verbs(ws: Workspace, live: Live) -> list[str]:
    """The verbs this match used, then those of the designer's other matches of its title."""
    cached = st.session_state.get(VERBS)
    if cached is None or cached[0] != live.match_id:
        cached = (live.match_id, ws.verbs_used(live.started.title, match_id=live.match_id))
        st.session_state[VERBS] = cached
    own = list(live.state.verbs)
    return own + [v for v in cached[1] if v not in own]


def _log_dice(live: Live, seat: str, record: Any) -> None:
    """Dice count and sides, then one face per die; Record writes the roll."""
    base = f"rec_log_dice_{live.last_seq}"
    with st.expander("Dice"):
        count_at, sides_at = st.columns(2)
        count = int(count_at.number_input("Dice", min_value=1, max_value=10, value=2, step=1, key=f"{base}_count"))
        sides = sides_at.segmented_control("Sides", SIDES, default=6, key=f"{base}_sides") or 6
        faces = [st.segmented_control(f"Die {n + 1}", list(range(1, sides + 1)), key=f"{base}_{count}d{sides}_{n}")
                 for n in range(count)]
        if any(face is None for face in faces):
            st.caption("Tap one face per die.")
            return
        event = freeform.DiceRolled(by=seat, dice=f"{count}d{sides}", faces=tuple(int(f) for f in faces if f is not None))
        st.button(f"Record the roll: {recording.words(live.rules, live.state, event)}", key=f"{base}_record", type="primary",
                  width="stretch", on_click=record, args=(event,))


# --- the table's own word: any event, a ruling, a result -----------------------------------


def _problems(problems: Sequence[Violation], insist_key: str) -> None:
    """Warn before writing an illegal event; the table may insist."""
    lines = "\n".join(f"- `{v.rule}`: {v.message}" for v in problems)
    st.warning(f"The rules refuse this event:\n{lines}")
    st.checkbox("The table insists: record it anyway", key=insist_key)


def _free(rec: Recorder) -> None:
    """Any event of the game, typed by hand: checked first, written only if the table insists."""
    live = rec.live
    types = recording.draftable(live.rules)
    legal = recording.offers(live.rules, live.state)
    first = legal[0].type_name if legal and legal[0].type_name in types else types[0]
    type_name = st.selectbox("Event type", types, index=types.index(first), key=f"rec_free_type_{live.last_seq}")
    seats = ["", *live.started.seats]
    by = st.selectbox("Seat (by)", seats, format_func=lambda s: s or "the table", key="rec_free_by") or None
    fields = st.text_area("Fields (JSON)", key=f"rec_free_fields_{live.last_seq}_{type_name}",
                          value=recording.template_json(live.rules, type_name, legal))
    try:
        event = recording.draft(live.rules, type_name, by, fields)
    except TabletapeError as error:
        st.error(str(error))
        return
    st.caption(recording.words(live.rules, live.state, event))
    problems = live.problems(event)
    if problems:
        _problems(problems, "rec_insist_free")
    else:
        st.success("The rules accept this event.")
    st.button("Record this event", key="rec_record_free", on_click=_write,
              args=(rec, [event], live.last_seq, len(problems), "rec_insist_free"))


def _ruling(rec: Recorder) -> None:
    """A table ruling: which rule, what was decided, and the event it settles."""
    live = rec.live
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
    st.button("Record the ruling", key="rec_record_ruling", on_click=_write, args=(rec, [event], live.last_seq, 0, None))


def _result(rec: Recorder) -> None:
    """What the table declares at the end; the rules' own outcome is checked against it."""
    live = rec.live
    sides = recording.sides(live.rules, live.started)
    winner = st.selectbox("Winner", ["", *sides], format_func=lambda s: s or "(none: abandoned)", key="rec_winner") or None
    draw = st.checkbox("Draw", key="rec_draw")
    reason = st.text_input("Reason", key="rec_reason")
    event = recording.result(winner, draw=draw, reason=reason)
    problems = live.problems(event)
    if problems:
        _problems(problems, "rec_insist_result")
    st.button("Declare the result", key="rec_record_result", on_click=_write,
              args=(rec, [event], live.last_seq, len(problems), "rec_insist_result"))


# --- the page ------------------------------------------------------------------------------


@st.fragment
def _beside() -> None:
    """The board and the panel beside it: one element, in a fragment of its own, so a tap or a
    press the tap route did not take reruns it alone. A write made while a form of the page
    (another mode, the log pad) was built on the seq before reruns the page, so the form is
    built on the new one."""
    rec = _recorder()
    if rec is None:
        st.rerun()
        return
    with rec.lock:
        live = rec.live.refresh(rec.ws)
        rec.play = st.session_state.get(MODE) == MODES[0] and live.rules.ruleset.name != freeform.NAME
        if not rec.play and st.session_state.get(PAGE_SEQ) != live.last_seq:
            st.rerun(scope="app")
        data = rec.board()
    tap_board(data, key=BOARD, on_tap=_on_tap, on_act=_on_act)
    if rec.to_replay:
        rec.to_replay = False
        shared.select_match(live.match_id)
        st.switch_page("pages/replay.py")


def _recording(rec: Recorder) -> None:
    """A match being recorded: the mode and Close, then the board with the panel beside it; or,
    for a mode other than Play (or the log pad of a game with no rules), the board with its
    panel under it and the form beside."""
    with rec.lock:
        live = rec.live.refresh(rec.ws)
        st.session_state[PAGE_SEQ] = live.last_seq
    modes, close = st.columns([6, 1], vertical_alignment="center")
    mode = modes.segmented_control("Record", MODES, key=MODE, label_visibility="collapsed") or MODES[0]
    if close.button("Close", key="rec_close"):
        del st.session_state[RECORDER]
        st.rerun()
    form = FORMS.get(mode if mode != "Play" or live.rules.ruleset.name != freeform.NAME else "log")
    if form is None:
        _beside()
        return
    board, beside = st.columns([3, 2], gap="small")
    with beside, rec.lock:
        form(rec)
    with board:
        _beside()


FORMS = {"Any event": _free, "Ruling": _ruling, "Result": _result, "log": _log_pad}
"""The Streamlit forms drawn beside the board (which then has its panel under it): the modes
other than Play, and Play's log pad for a game with no rules."""


def main() -> None:
    """Render the page."""
    ws = workspace()
    st.session_state.setdefault(MODE, MODES[0])
    rec = _recorder()
    if rec is None:
        st.title("Record")
        _start(ws)
        return
    _recording(rec)


main()
