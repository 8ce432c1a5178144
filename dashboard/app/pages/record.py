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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from dashboard.app import state as shared
from dashboard.app.state import die_key, warehouse, workspace
from dashboard.app.table_choice import table_choice
from dashboard.board.svg import board_layers, card_rows_html
from dashboard.board.tapboard import show_state, tap_board
from events.base import Event
from events.errors import TabletapeError
from projections.read.audit import tally
from projections.record import dice, recording
from projections.record.recording import Live
from projections.record.taps import TapMap, refused, tap_map, with_refused
from projections.warehouse.catalog import MatchFilter, list_matches
from projections.workspace import Workspace
from rulesets import freeform
from rulesets.levels import lacks
from rulesets.protocol import Violation
from rulesets.view import BoardView, Compose, key_position, space_name

LIVE = "rec_live"
MESSAGE = "rec_message"
PICK = "rec_pick"
"""(seq, source, target) of a tap that several actions share: the picker is open."""
INSIST_TAP = "rec_insist_tap"
REFUSED = "rec_refused"
"""(seq, source, target) of a tap on something the rules refuse: the page says why."""
TAPS = "rec_taps"
"""(match, seq) -> TapMap: the legal events of the position, computed once per position."""
BOARD = "rec_board"
MODE = "rec_mode"
MODES = ("Play", "Any event", "Ruling", "Result")
RECENT = 8
STATUS_ROWS = 5
"""Rows of each of the view's first panels in the status strip (the whole panel is on Replay)."""
IN_TURN_LINE = frozenset({"turn", "round", "phase", "to act"})
"""Panel rows the strip's turn line already gives."""
MAX_BUTTONS = 8
"""More off-board choices than this are one picker (a turn order of four heroes is 24)."""
VERBS = "rec_verbs"
"""(match, the verbs of its designer's game in its other matches): read once per match."""
COMPOSING = "rec_composing"
"""(match, composition title) -> the parts tapped so far: kept while the board moves on."""
PART_COLUMNS = 2
"""Parts of a composition per row in the panel beside the board (narrow on a tablet)."""
SIDES = (4, 6, 8, 10, 12, 20)
"""The dice a table most often throws, for the log-only dice pad."""


def _say(kind: str, text: str) -> None:
    """Keep a message for the next render (callbacks run before the page draws)."""
    st.session_state[MESSAGE] = (kind, text)


def _write(ws: Workspace, live: Live, events: Sequence[Event], expected: int, problems: int, insist_key: str | None,
           *, forced: bool = False) -> None:
    """Append (with what the rules then force, for a decision) unless the rules refuse and the
    table has not insisted; say what was written, in words."""
    if problems and not (insist_key and st.session_state.get(insist_key)):
        _say("error", "not written: the rules refuse this event; tick 'the table insists' to record it anyway")
        return
    batch = live.with_forced(events) if forced else list(events)
    try:
        written = live.write(ws, batch, expected_seq=expected)
    except TabletapeError as error:
        _say("error", f"not written: {error}")
        live.refresh(ws)
        return
    st.session_state.pop(PICK, None)
    if insist_key:
        st.session_state[insist_key] = False
    said = "; ".join(live.said.get(e.seq, type(e).__name__) for e in written[: len(events)])
    more = len(written) - len(events)
    tail = f" (+{more} the rules imply)" if more > 0 else ""
    _say("warning" if problems else "success", f"recorded: {said}{tail}" + (" — against the rules (the audit will show it)" if problems else ""))


def _taps(live: Live, *, refusals: bool = False) -> TapMap:
    """The tap map of the position now (cached per match and last seq: the callback and the
    render share it). `refusals`: with the events the rules refuse placed too, worked out
    only once a tap lands where nothing legal is made (the board sends such a tap anyway)."""
    key = (live.match_id, live.last_seq)
    cached = st.session_state.get(TAPS)
    rules = live.rules
    if cached is None or cached[0] != key:
        legal = [] if rules.ruleset.chance(rules.params, live.state) is not None else list(rules.ruleset.legal(rules.params, live.state))
        cached = (key, tap_map(rules, live.state, legal), None)
        st.session_state[TAPS] = cached
    if not refusals:
        taps: TapMap = cached[1]
        return taps
    full: TapMap | None = cached[2]
    if full is None:
        full = with_refused(rules, live.state, cached[1], refused(rules, live.state))
        st.session_state[TAPS] = (key, cached[1], full)
    return full


def _on_tap() -> None:
    """A tap on the board made an event: write it, or open the picker when several share it."""
    live: Live | None = st.session_state.get(LIVE)
    tap = (st.session_state.get(BOARD) or {}).get("tap")
    if live is None or not tap:
        return
    ws = workspace()
    live.refresh(ws)
    if tap.get("seq") != live.last_seq:
        _say("warning", "the board had moved on (another recorder wrote first): tap again on the board as it is now")
        return
    taps = _taps(live)
    source, target = tap.get("source"), tap.get("target")
    choices = taps.at(source, target)
    if len(choices) == 1:
        _write(ws, live, [choices[0].event], live.last_seq, 0, None, forced=True)
    elif choices:
        st.session_state[PICK] = (live.last_seq, source, target)
    elif _taps(live, refusals=True).refused_at(source or None, target):
        st.session_state[REFUSED] = (live.last_seq, source or None, target)
    else:
        _say("warning", _why_not(live, source or None, target))


def _why_not(live: Live, source: str | None, target: str | None) -> str:
    """Why a tap on something not lit made nothing, naming what was tapped as the board does."""
    rules = live.rules
    view = rules.ruleset.view(rules.params, live.state, None)
    there = _named(view, target)
    if source and source != target:
        return f"nothing the rules allow takes {_named(view, source)} to {there}: tap a lit place, or another piece"
    return f"{there} cannot be tapped now: nothing the rules allow starts or ends there; tap a lit piece, card or space"


def _named(view: BoardView, key: str | None) -> str:
    """A tap key in words: a piece's label, a space's name on the board's edges, a card's face."""
    kind, _, rest = (key or "").partition(":")
    if kind == "piece":
        return next((p.label or p.id for p in view.pieces if p.id == rest), rest)
    if kind == "card":
        return rest.partition(":")[2]
    position = key_position(key or "")
    return space_name(view.geometry, *position) if position is not None else "that"


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
    live = Live.open(ws, match_id)
    implied = live.with_forced([])
    if implied:
        try:
            live.write(ws, implied, expected_seq=live.last_seq)
        except TabletapeError as error:
            _say("error", f"not written: {error}")
    st.session_state[LIVE] = live
    st.rerun()


# --- always in view ------------------------------------------------------------------------


def _status(live: Live, title: str) -> None:
    """The match's title, then whose turn and which phase, the score and what decides the
    game, in one strip."""
    rules = live.rules
    progress = rules.ruleset.progress(rules.params, live.state)
    view = rules.ruleset.view(rules.params, live.state, None)
    turn = f"**turn {progress.turn}** · round {progress.round} · {progress.phase}" + (f" · to act: **{progress.actor}**" if progress.actor else "")
    panels = view.panels[:3]
    rows = [[(label, value) for label, value in p.rows if label not in IN_TURN_LINE][:STATUS_ROWS] for p in panels]
    short = [f"**{p.title}** " + ", ".join(f"{label} {headline(value)}" for label, value in kept) for p, kept in zip(panels, rows, strict=True)]
    whole = [f"{p.title}: " + ", ".join(f"{label} {value}" for label, value in p.rows) for p in panels]
    st.markdown(f"{title}  \n" + " &nbsp;|&nbsp; ".join([turn, *short]), help="\n\n".join(whole) or None)


def headline(value: str) -> str:
    """A panel's value up to its first detail (a colon, a semicolon, a bracket): the strip above
    the board stays a line or two on a tablet; the tooltip and Replay show the whole of it
    ("workers 10: gold 6; returning 1 to gold" reads "workers 10")."""
    cut = min((i for i in (value.find(": "), value.find("; "), value.find(" (")) if i > 0), default=len(value))
    return value[:cut] + (" …" if cut < len(value) else "")


def _recent(live: Live) -> None:
    """The last few events in words, newest first, and the audit so far."""
    st.markdown("**Latest**")
    lines = []
    for event in live.events[-RECENT:][::-1]:
        struck = "~~" if event.seq in live.voided else ""
        broke = " ⚠" if event.seq in live.violations else ""
        lines.append(f"{event.seq}. {struck}{live.said.get(event.seq, type(event).__name__)}{struck}{broke}")
    st.markdown("\n".join(f"- {line}" for line in lines))
    findings = [v for v in live.findings() if v.severity != "info"]
    if findings:
        with st.expander(f"Audit so far: {tally(live.findings()).text()}"):
            for v in findings[-10:]:
                st.markdown(f"- event {v.seq} · `{v.rule}`: {v.message}")


# --- play: the board, the picker, the dice pad, the buttons ----------------------------------


def _board(live: Live, taps: TapMap) -> None:
    """The board with what can be tapped lit (at a chance step or at the end, only drawn)."""
    rules = live.rules
    view = rules.ruleset.view(rules.params, live.state, None)
    if not view.has_board:
        show_state(view)
        return
    targets = {t for ts in taps.sources().values() for t in ts if t} | set(taps.direct())
    spots = [k for k in targets if view.geometry == "inches" and key_position(k) is not None]
    hints = {"source": "Tap a lit piece, card or space." if taps.sources() or taps.direct() else "",
             "target": "Tap where it goes, or whom it targets; tap another piece to switch."}
    tap_board(board_layers(view, spots=spots, rows=False, legend="below"), card_rows_html(view), taps.board_data(), seq=live.last_seq, hints=hints,
              key=BOARD, on_tap=_on_tap)


def _picker(ws: Workspace, live: Live, taps: TapMap) -> bool:
    """After a tap several actions share, their names as buttons; True while it is open."""
    pick = st.session_state.get(PICK)
    if not pick or pick[0] != live.last_seq:
        return False
    choices = taps.at(pick[1], pick[2])
    st.markdown("**Which one?**")
    for index, choice in enumerate(choices):
        st.button(choice.touch.words, key=f"rec_pick_{live.last_seq}_{index}", type="primary", width="stretch",
                  on_click=_write, args=(ws, live, [choice.event], live.last_seq, 0, None), kwargs={"forced": True})
    st.button("Cancel", key="rec_pick_cancel", on_click=lambda: st.session_state.pop(PICK, None))
    return True


def _refused(ws: Workspace, live: Live) -> bool:
    """After a tap on something the rules refuse: the rule and the reason, and one more tap
    to record it anyway (the audit will show it); True while it is shown."""
    shown = st.session_state.get(REFUSED)
    if not shown or shown[0] != live.last_seq:
        return False
    for index, choice in enumerate(_taps(live, refusals=True).refused_at(shown[1], shown[2])):
        problems = live.problems(choice.event)
        lines = "\n".join(f"- `{v.rule}`: {v.message}" for v in problems)
        st.warning(f"The rules refuse: {live_words(live, choice.event)}\n{lines}")
        st.button("The table insists: record it", key=f"rec_insist_{live.last_seq}_{index}", type="primary", width="stretch",
                  on_click=_insist, args=(ws, live, choice.event))
    st.button("Cancel", key="rec_refused_cancel", on_click=lambda: st.session_state.pop(REFUSED, None))
    return True


def _insist(ws: Workspace, live: Live, event: Event) -> None:
    """The table plays a refused event: written as it was made, then what the rules force."""
    st.session_state.pop(REFUSED, None)
    st.session_state[INSIST_TAP] = True
    _write(ws, live, [event], live.last_seq, len(live.problems(event)), INSIST_TAP, forced=True)


def live_words(live: Live, event: Event) -> str:
    """An event in words in the position the page shows."""
    return recording.words(live.rules, live.state, event)


def _dice_pad(ws: Workspace, live: Live, outcomes: list[Event]) -> None:
    """One set of faces per die the rules call for (wrapped onto as many rows as the side
    panel needs); the roll's meaning before Record."""
    rules = live.rules
    pad = dice.dice(outcomes)
    base = f"rec_die_{live.last_seq}"
    asked = live.said.get(live.last_seq, "")
    st.markdown(f"**Roll** — after: {asked}" if asked else "**Roll**")
    if dice.one_tap(pad):
        die = pad[0]
        st.segmented_control(die.name, die.faces, key=f"{base}_{die_key(die.name)}", format_func=str, wrap=True,
                             on_change=_dealt, args=(ws, live, outcomes, die.name, f"{base}_{die_key(die.name)}"))
        st.caption("Tap the card: it is recorded at once (Undo takes it back).")
        return
    picked: dict[str, Any] = {}
    for die in pad:
        faces = dice.possible(outcomes, die, picked)
        chosen = st.segmented_control(die.name, faces, key=f"{base}_{die_key(die.name)}", format_func=str,
                                      wrap=True)  # a deck of 45 cards in rows, not one row to scroll sideways
        if chosen is not None:
            picked[die.name] = chosen
    left = dice.narrow(outcomes, picked)
    if len(left) != 1:
        st.caption(f"Tap one face per die ({len(left)} outcomes still possible).")
        return
    event = left[0]
    meaning = recording.words(rules, live.state, event)
    st.info(meaning)
    st.button("Record the roll", key=f"rec_record_roll_{live.last_seq}", type="primary", width="stretch",
              on_click=_write, args=(ws, live, [event], live.last_seq, 0, None), kwargs={"forced": True})


def _dealt(ws: Workspace, live: Live, outcomes: list[Event], die: str, key: str) -> None:
    """A card tapped on a one-die pad: the outcome that shows it, written at once."""
    face = st.session_state.get(key)
    left = dice.narrow(outcomes, {die: face}) if face is not None else []
    if len(left) == 1:
        _write(ws, live, left, live.last_seq, 0, None, forced=True)


def _chosen(live: Live, made: Compose) -> tuple[str, ...]:
    chosen: tuple[str, ...] = st.session_state.get(COMPOSING, {}).get((live.match_id, made.title), ())
    return chosen


def _keep(live: Live, made: Compose, chosen: tuple[str, ...]) -> None:
    st.session_state.setdefault(COMPOSING, {})[(live.match_id, made.title)] = chosen


def _part(ws: Workspace, live: Live, made: Compose, value: str) -> None:
    """A part tapped: added, or why not in words; the last of a fixed number writes the event."""
    chosen = _chosen(live, made)
    why = made.left(chosen).get(value)
    if why:
        _say("warning", f"not added: {why}")
        return
    chosen = (*chosen, value)
    _keep(live, made, chosen)
    if made.size is not None and len(chosen) == made.size:
        _record_composed(ws, live, made)


def _record_composed(ws: Workspace, live: Live, made: Compose) -> None:
    """The event the parts tapped make, written if the rules accept it; the parts are kept if not."""
    event = made.make(_chosen(live, made))
    problems = live.problems(event)
    if problems:
        _say("error", f"not written: {'; '.join(v.message for v in problems)}")
        return
    before = live.last_seq
    _write(ws, live, [event], before, 0, None, forced=True)
    if live.last_seq > before:
        _keep(live, made, ())


def _compose(ws: Workspace, live: Live, taps: TapMap) -> None:
    """Each choice made by pointing: its parts as buttons, what was tapped so far in order
    under them (a tap on one takes it out), and Record where the number of parts is the table's."""
    for index, made in enumerate(taps.composes):
        chosen = _chosen(live, made)
        spent = f" · {made.spent(chosen)} of {made.budget} points" if made.budget is not None else ""
        st.markdown(f"**{made.title}**: {made.hint}{spent}")
        words = {p.value: p.words for p in made.parts}
        grid = st.columns(PART_COLUMNS)
        for n, part in enumerate(made.parts):
            grid[n % PART_COLUMNS].button(part.words, key=f"rec_part_{live.last_seq}_{index}_{n}", width="stretch",
                                          on_click=_part, args=(ws, live, made, part.value))
        # What was tapped goes under the parts, so they stay where the finger expects them.
        if chosen:
            row = st.columns(min(len(chosen), 4))
            for n, value in enumerate(chosen):
                row[n % len(row)].button(f"{n + 1}. {words.get(value, value)} ✕", key=f"rec_chosen_{live.last_seq}_{index}_{n}", width="stretch",
                                         help="take it out", on_click=_keep, args=(live, made, chosen[:n] + chosen[n + 1:]))
        if made.size is None:
            st.button(f"Record: {live_words(live, made.make(chosen))}" if chosen else "Record (nothing tapped yet)",
                      key=f"rec_compose_{live.last_seq}_{index}", type="primary", width="stretch", disabled=not chosen,
                      on_click=_record_composed, args=(ws, live, made))


def _buttons(ws: Workspace, live: Live, taps: TapMap) -> None:
    """Actions the board cannot show ('end the turn'), as buttons in the game's words."""
    choices = taps.buttons()
    if not choices:
        return
    if len(choices) <= MAX_BUTTONS:
        for index, choice in enumerate(choices):
            st.button(choice.touch.words, key=f"rec_button_{live.last_seq}_{index}", width="stretch",
                      on_click=_write, args=(ws, live, [choice.event], live.last_seq, 0, None), kwargs={"forced": True})
        return
    index = st.selectbox("Choose", list(range(len(choices))), format_func=lambda i: choices[i].touch.words, key=f"rec_choose_{live.last_seq}")
    chosen = choices[index or 0]
    st.button("Record", key=f"rec_button_chosen_{live.last_seq}", type="primary", on_click=_write,
              args=(ws, live, [chosen.event], live.last_seq, 0, None), kwargs={"forced": True})


def _ended(ws: Workspace, live: Live) -> bool:
    """When the rules say the game is over: the result, one tap to record it, one into Replay."""
    rules = live.rules
    outcome = rules.ruleset.outcome(rules.params, live.state)
    if outcome is None:
        return False
    said = "a draw" if outcome.draw else f"{outcome.winner} won"
    st.success(f"By the rules the game is over: {said} ({outcome.reason}).")
    declared = any(type(e).__name__ == "MatchEnded" and e.seq not in live.voided for e in live.events)
    if not declared:
        event = recording.result(outcome.winner, draw=outcome.draw, reason=outcome.reason)
        st.button(f"Record the result: {said}", key=f"rec_record_end_{live.last_seq}", type="primary", width="stretch",
                  on_click=_write, args=(ws, live, [event], live.last_seq, 0, None))
        st.caption("The table saw it otherwise? Declare its result under Result.")
    if st.button("Open in Replay", key="rec_to_replay", width="stretch"):
        shared.select_match(live.match_id)
        st.switch_page("pages/replay.py")
    return True


def _undo(ws: Workspace, live: Live) -> None:
    """One tap: take back the last decision and the steps it forced."""
    if live.in_force is None:
        st.button("Undo", key="rec_undo", disabled=True, width="stretch")
        return
    events = live.undo_all()
    target = events[-1].target_seq
    st.button(f"Undo: {live.said.get(target, '')}", key="rec_undo", width="stretch", help="Writes Retracted for it (and for what it forced)",
              on_click=_write, args=(ws, live, events, live.last_seq, 0, None))


def _log_pad(ws: Workspace, live: Live) -> None:
    """A game without rules in code: tap a seat (whose turn it is, unless tapped), then what
    it did - a verb used before, a score change or the turn passing - and it is written; or
    throw dice on the pad."""
    state = live.state
    seats = list(live.started.seats)
    seat = st.segmented_control("Seat", seats, default=state.actor, key=f"rec_log_seat_{live.last_seq}",
                                format_func=lambda s: f"{s} ({live.started.seats[s]})") or state.actor
    if seat is None:
        return

    def record(event: Event) -> None:
        _write(ws, live, [event], live.last_seq, 0, None)

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


def _play(ws: Workspace, live: Live, taps: TapMap) -> None:
    """The panel beside the board in play: the picker, the dice pad, the off-board actions."""
    rules = live.rules
    if rules.ruleset.name == freeform.NAME:
        _log_pad(ws, live)
        return
    if _ended(ws, live):
        return
    outcomes = rules.ruleset.chance(rules.params, live.state)
    if outcomes is not None:
        _dice_pad(ws, live, [e for e, _ in outcomes])
        return
    if _picker(ws, live, taps) or _refused(ws, live):
        return
    table_choice(ws, live, _write, _say)
    _compose(ws, live, taps)
    if not taps.choices:
        why = lacks(rules.ruleset, "pickers") or "The rules allow nothing now"
        st.info(f"{why}. Record what the table did under Any event, a ruling, or the result.")
    _buttons(ws, live, taps)


# --- the table's own word: any event, a ruling, a result -----------------------------------


def _problems(problems: Sequence[Violation], insist_key: str) -> None:
    """Warn before writing an illegal event; the table may insist."""
    lines = "\n".join(f"- `{v.rule}`: {v.message}" for v in problems)
    st.warning(f"The rules refuse this event:\n{lines}")
    st.checkbox("The table insists: record it anyway", key=insist_key)


def _free(ws: Workspace, live: Live) -> None:
    """Any event of the game, typed by hand: checked first, written only if the table insists."""
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


# --- the page ------------------------------------------------------------------------------


@st.fragment
def _recording() -> None:
    """A match being recorded: status, board, the panel beside it, the latest events. A
    fragment, so a tap reruns this and not the page around it."""
    ws = workspace()
    live: Live | None = st.session_state.get(LIVE)
    if live is None:
        st.rerun()
        return
    live.refresh(ws)
    started = live.started
    head, close = st.columns([6, 1], vertical_alignment="center")
    with head:  # one block: the board starts as high as the strip allows
        _status(live, f"**{started.title or 'Playtest'}** · {live.rules.spec} · " + ", ".join(f"{s}: {p}" for s, p in started.seats.items()))
    if close.button("Close", key="rec_close"):
        del st.session_state[LIVE]
        st.rerun()
    message = st.session_state.pop(MESSAGE, None)
    taps = _taps(live)
    left, right = st.columns([3, 2], gap="small")
    with left:
        _board(live, taps)
    with right:
        if message and message[0] == "success":
            st.markdown(f":green[✓ {message[1]}]")  # one line, not a box: the pads below stay on a tablet's screen
        elif message:
            getattr(st, message[0])(message[1])
        mode = st.segmented_control("Record", MODES, key=MODE, label_visibility="collapsed") or MODES[0]
        if mode == "Play":
            _play(ws, live, taps)
        elif mode == "Any event":
            _free(ws, live)
        elif mode == "Ruling":
            _ruling(ws, live)
        else:
            _result(ws, live)
        _undo(ws, live)
        _recent(live)


def main() -> None:
    """Render the page."""
    ws = workspace()
    st.session_state.setdefault(MODE, MODES[0])
    if st.session_state.get(LIVE) is None:
        st.title("Record")
        _start(ws)
        return
    _recording()


main()
