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

The panel beside the board (the status strip, the message of the last write, the dice pad,
the picker, the refused event, the off-board actions, the compositions, the table to lay,
the end of the game, Undo, the latest events and the audit so far) is plain data drawn by
the board component itself, in a fragment of its own: a tap or a press reruns that one
element, and every press comes back to `_on_act`. Streamlit draws only the mode control,
Close, and beside the board (its panel then under it) the forms of the other modes and the
log pad of a game with no rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from dashboard.app import state as shared
from dashboard.app.state import warehouse, workspace
from dashboard.app.table_choice import lay_or_clear, table_choice
from dashboard.board.scrub import state_table
from dashboard.board.svg import board_layers, card_rows_html
from dashboard.board.tapboard import tap_board
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
PANEL = "rec_panel"
"""(match, seq) -> what the panel shows of that position: built once per position."""
PAGE_SEQ = "rec_page_seq"
"""The last seq the page (its forms) was built on."""
TO_REPLAY = "rec_to_replay"
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


# --- the panel beside the board: plain data the board component draws ----------------------


def _head(live: Live) -> dict[str, Any]:
    """The match's title, then whose turn and which phase, the score and what decides the
    game: the strip at the top of the panel (each value to its headline; the whole panel in
    its tooltip)."""
    rules, started = live.rules, live.started
    progress = rules.ruleset.progress(rules.params, live.state)
    view = rules.ruleset.view(rules.params, live.state, None)
    panels = view.panels[:3]
    rows = [[(label, value) for label, value in p.rows if label not in IN_TURN_LINE][:STATUS_ROWS] for p in panels]
    return {"title": started.title or "Playtest", "match": f"{rules.spec} · " + ", ".join(f"{s}: {p}" for s, p in started.seats.items()),
            "turn": f"turn {progress.turn} · round {progress.round} · {progress.phase}", "actor": progress.actor,
            "panels": [[p.title, ", ".join(f"{label} {headline(value)}" for label, value in kept)] for p, kept in zip(panels, rows, strict=True)],
            "whole": "\n\n".join(f"{p.title}: " + ", ".join(f"{label} {value}" for label, value in p.rows) for p in panels)}


def headline(value: str) -> str:
    """A panel's value up to its first detail (a colon, a semicolon, a bracket): the strip above
    the board stays a line or two on a tablet; the tooltip and Replay show the whole of it
    ("workers 10: gold 6; returning 1 to gold" reads "workers 10")."""
    cut = min((i for i in (value.find(": "), value.find("; "), value.find(" (")) if i > 0), default=len(value))
    return value[:cut] + (" …" if cut < len(value) else "")


def _latest(live: Live) -> list[list[Any]]:
    """The last few events in words, newest first: seq, words, struck (a Retracted voided it), broke a rule."""
    return [[e.seq, live.said.get(e.seq, type(e).__name__), e.seq in live.voided, e.seq in live.violations]
            for e in live.events[-RECENT:][::-1]]


def _audit(live: Live) -> list[Any] | None:
    """The audit so far: its tally and the last findings that are not mere notes."""
    findings = [v for v in live.findings() if v.severity != "info"]
    if not findings:
        return None
    return [tally(live.findings()).text(), [[v.seq, v.rule, v.message] for v in findings[-10:]]]


def _undo_words(live: Live) -> str | None:
    """Undo's words: what one tap takes back (None: nothing to undo)."""
    if live.in_force is None:
        return None
    return f"Undo: {live.said.get(live.undo_all()[-1].target_seq, '')}"


def _outcome(live: Live) -> tuple[str, Event | None] | None:
    """When the rules say the game is over: the result in words, and the MatchEnded to record
    (None once the table has declared one)."""
    rules = live.rules
    outcome = rules.ruleset.outcome(rules.params, live.state)
    if outcome is None:
        return None
    said = "a draw" if outcome.draw else f"{outcome.winner} won"
    declared = any(type(e).__name__ == "MatchEnded" and e.seq not in live.voided for e in live.events)
    event = None if declared else recording.result(outcome.winner, draw=outcome.draw, reason=outcome.reason)
    return f"By the rules the game is over: {said} ({outcome.reason}).", event


def _ended(live: Live) -> dict[str, Any] | None:
    ended = _outcome(live)
    if ended is None:
        return None
    said, event = ended
    record = f"Record the result: {said.partition(': ')[2].partition(' (')[0]}" if event is not None else None
    return {"kind": "ended", "said": said, "record": record, "note": "The table saw it otherwise? Declare its result under Result."}


def _dice_part(live: Live, outcomes: list[Event]) -> dict[str, Any]:
    """One set of faces per die the rules call for, every outcome as the faces it shows, and
    what each means in words: the browser narrows the outcomes as faces are tapped and shows
    the roll's meaning before Record (a one-die deal of cards: the card tapped is recorded)."""
    pad = dice.dice(outcomes)
    faces = [[str(f) for f in die.faces] for die in pad]
    shown = [dice.faces_of(e) for e in outcomes]
    one_tap = dice.one_tap(pad)
    return {"kind": "dice", "asked": live.said.get(live.last_seq, ""), "oneTap": one_tap,
            "dice": [[die.name, f] for die, f in zip(pad, faces, strict=True)],
            "outcomes": [[die.faces.index(flat.get(die.name, dice.MISSING)) for die in pad] for flat in shown],
            "meanings": [] if one_tap else [live_words(live, e) for e in outcomes]}


def _buttons_part(taps: TapMap) -> dict[str, Any] | None:
    """Actions the board cannot show ('end the turn') in the game's words; more than a
    handful are one list and Record."""
    choices = taps.buttons()
    if not choices:
        return None
    return {"kind": "buttons", "choices": [c.touch.words for c in choices], "list": len(choices) > MAX_BUTTONS}


def _position(ws: Workspace, live: Live, taps: TapMap) -> dict[str, Any]:
    """What the panel shows of one position, built once per position (the picker, a refusal
    and a composition in progress are added on each render)."""
    rules = live.rules
    play: list[dict[str, Any]] = []
    outcomes = rules.ruleset.chance(rules.params, live.state)
    ended = _ended(live)
    if ended is not None:
        play.append(ended)
    elif outcomes is not None:
        play.append(_dice_part(live, [e for e, _ in outcomes]))
    else:
        play.extend(table_choice(ws, live))
        if not taps.choices:
            why = lacks(rules.ruleset, "pickers") or "The rules allow nothing now"
            play.append({"kind": "info", "text": f"{why}. Record what the table did under Any event, a ruling, or the result."})
        if (buttons := _buttons_part(taps)) is not None:
            play.append(buttons)
    return {"head": _head(live), "play": play, "undo": _undo_words(live), "latest": _latest(live), "audit": _audit(live),
            "dice": outcomes is not None and ended is None}


def _panel(ws: Workspace, live: Live, taps: TapMap, *, play: bool) -> dict[str, Any]:
    """The panel's data now: the position's (cached per match and seq, like the tap map) with
    the message of the last write, and in Play the picker, a refusal or the compositions."""
    key = (live.match_id, live.last_seq)
    cached = st.session_state.get(PANEL)
    if cached is None or cached[0] != key:
        cached = (key, _position(ws, live, taps))
        st.session_state[PANEL] = cached
    position: dict[str, Any] = cached[1]
    parts: list[dict[str, Any]] = []
    if play:
        open_ = _pick_part(live, taps) or _refused_part(live)
        if open_ is not None and not position["dice"]:
            parts = [open_]
        else:
            lead = [p for p in position["play"] if p["kind"] in ("ended", "dice", "table", "clear")]
            rest = [p for p in position["play"] if p not in lead]
            composes = [] if lead and lead[0]["kind"] in ("ended", "dice") else _compose_parts(live, taps)
            parts = [*lead, *composes, *rest]
    return {"head": position["head"], "message": st.session_state.pop(MESSAGE, None), "parts": parts,
            "undo": position["undo"], "latest": position["latest"], "audit": position["audit"]}


# --- play: the board, the picker, the refused, the compositions ------------------------------


def _board(live: Live, taps: TapMap, panel: dict[str, Any]) -> None:
    """The board with what can be tapped lit, the panel beside it (a game with no board: its
    state as tables in the board's place)."""
    rules = live.rules
    view = rules.ruleset.view(rules.params, live.state, None)
    if not view.has_board:
        tap_board(None, "", {}, seq=live.last_seq, hints=None, key=BOARD, on_tap=_on_tap, panel=panel, on_act=_on_act,
                  still=state_table(view))
        return
    targets = {t for ts in taps.sources().values() for t in ts if t} | set(taps.direct())
    spots = [k for k in targets if view.geometry == "inches" and key_position(k) is not None]
    hints = {"source": "Tap a lit piece, card or space." if taps.sources() or taps.direct() else "",
             "target": "Tap where it goes, or whom it targets; tap another piece to switch."}
    tap_board(board_layers(view, spots=spots, rows=False, legend="below"), card_rows_html(view), taps.board_data(), seq=live.last_seq, hints=hints,
              key=BOARD, on_tap=_on_tap, panel=panel, on_act=_on_act)


def _pick_part(live: Live, taps: TapMap) -> dict[str, Any] | None:
    """After a tap several actions share: their names, to press one."""
    pick = st.session_state.get(PICK)
    if not pick or pick[0] != live.last_seq:
        return None
    return {"kind": "pick", "choices": [c.touch.words for c in taps.at(pick[1], pick[2])]}


def _refused_part(live: Live) -> dict[str, Any] | None:
    """After a tap on something the rules refuse: the rule and the reason, and one more press
    to record it anyway (the audit will show it)."""
    shown = st.session_state.get(REFUSED)
    if not shown or shown[0] != live.last_seq:
        return None
    choices = _taps(live, refusals=True).refused_at(shown[1], shown[2])
    return {"kind": "refused", "choices": [[live_words(live, c.event), [[v.rule, v.message] for v in live.problems(c.event)]] for c in choices]}


def _insist(ws: Workspace, live: Live, event: Event) -> None:
    """The table plays a refused event: written as it was made, then what the rules force."""
    st.session_state.pop(REFUSED, None)
    st.session_state[INSIST_TAP] = True
    _write(ws, live, [event], live.last_seq, len(live.problems(event)), INSIST_TAP, forced=True)


def live_words(live: Live, event: Event) -> str:
    """An event in words in the position the page shows."""
    return recording.words(live.rules, live.state, event)


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


def _compose_parts(live: Live, taps: TapMap) -> list[dict[str, Any]]:
    """Each choice made by pointing: its parts, what was tapped so far in order under them (a
    press on one takes it out), and Record where the number of parts is the table's."""
    out = []
    for index, made in enumerate(taps.composes):
        chosen = _chosen(live, made)
        words = {p.value: p.words for p in made.parts}
        record = None if made.size is not None else (f"Record: {live_words(live, made.make(chosen))}" if chosen else "")
        out.append({"kind": "compose", "index": index, "title": made.title, "hint": made.hint,
                    "spent": f" · {made.spent(chosen)} of {made.budget} points" if made.budget is not None else "",
                    "parts": [p.words for p in made.parts], "chosen": [words.get(v, v) for v in chosen], "record": record})
    return out


def _on_act() -> None:
    """A press on the panel: handled here, in one place, through the page's one write; a panel
    built on an older seq (another recorder wrote first) writes nothing."""
    live: Live | None = st.session_state.get(LIVE)
    act = (st.session_state.get(BOARD) or {}).get("act")
    if live is None or not isinstance(act, dict):
        return
    ws = workspace()
    live.refresh(ws)
    if act.get("seq") != live.last_seq:
        _say("warning", "the board had moved on (another recorder wrote first): press again on the panel as it is now")
        return
    handler = ACTS.get(str(act.get("act")))
    if handler is None:
        _say("error", f"not written: the panel sent {act.get('act')!r}, which the page does not know")
        return
    handler(ws, live, act)


def _nth(items: Sequence[Any], act: dict[str, Any], key: str = "index") -> Any:
    """The item a press names by number, or None (said) when there is no such item."""
    index = act.get(key)
    if not isinstance(index, int) or not 0 <= index < len(items):
        _say("error", f"not written: the panel sent {act.get('act')} number {index!r}, and there are {len(items)}")
        return None
    return items[index]


def _written(ws: Workspace, live: Live, choice: Any) -> None:
    """A choice of the tap map pressed: its event, then what the rules force."""
    if choice is not None:
        _write(ws, live, [choice.event], live.last_seq, 0, None, forced=True)


def _act_pick(ws: Workspace, live: Live, act: dict[str, Any]) -> None:
    pick = st.session_state.get(PICK)
    if pick:
        _written(ws, live, _nth(_taps(live).at(pick[1], pick[2]), act))


def _act_insist(ws: Workspace, live: Live, act: dict[str, Any]) -> None:
    shown = st.session_state.get(REFUSED)
    if shown and (choice := _nth(_taps(live, refusals=True).refused_at(shown[1], shown[2]), act)) is not None:
        _insist(ws, live, choice.event)


def _act_roll(ws: Workspace, live: Live, act: dict[str, Any]) -> None:
    outcomes = live.rules.ruleset.chance(live.rules.params, live.state)
    if outcomes is not None and (event := _nth([e for e, _ in outcomes], act)) is not None:
        _write(ws, live, [event], live.last_seq, 0, None, forced=True)


def _act_undo(ws: Workspace, live: Live, act: dict[str, Any]) -> None:
    if live.in_force is not None:
        _write(ws, live, live.undo_all(), live.last_seq, 0, None)


def _act_end(ws: Workspace, live: Live, act: dict[str, Any]) -> None:
    ended = _outcome(live)
    if ended is not None and ended[1] is not None:
        _write(ws, live, [ended[1]], live.last_seq, 0, None)


def _act_part(ws: Workspace, live: Live, act: dict[str, Any]) -> None:
    made = _nth(_taps(live).composes, act, "compose")
    if made is not None and (part := _nth(made.parts, act)) is not None:
        _part(ws, live, made, part.value)


def _act_unpart(ws: Workspace, live: Live, act: dict[str, Any]) -> None:
    made = _nth(_taps(live).composes, act, "compose")
    if made is not None and _nth(chosen := _chosen(live, made), act) is not None:
        _keep(live, made, chosen[:act["index"]] + chosen[act["index"] + 1:])


def _act_compose(ws: Workspace, live: Live, act: dict[str, Any]) -> None:
    made = _nth(_taps(live).composes, act, "compose")
    if made is not None and _chosen(live, made):
        _record_composed(ws, live, made)


ACTS: dict[str, Any] = {
    "button": lambda ws, live, act: _written(ws, live, _nth(_taps(live).buttons(), act)),
    "pick": _act_pick,
    "unpick": lambda ws, live, act: st.session_state.pop(PICK, None),
    "insist": _act_insist,
    "unrefuse": lambda ws, live, act: st.session_state.pop(REFUSED, None),
    "roll": _act_roll,
    "undo": _act_undo,
    "end": _act_end,
    "replay": lambda ws, live, act: st.session_state.__setitem__(TO_REPLAY, True),
    "part": _act_part,
    "unpart": _act_unpart,
    "compose": _act_compose,
    "lay": lambda ws, live, act: lay_or_clear(ws, live, "lay", act.get("index"), _write, _say),
    "clear": lambda ws, live, act: lay_or_clear(ws, live, "clear", None, _write, _say),
}
"""What each press of the panel does (`act` -> handler(ws, live, act))."""


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
def _beside() -> None:
    """The board and the panel beside it: one element, in a fragment of its own, so a tap or a
    press reruns it alone. A write made here while a form of the page (another mode, the log
    pad) was built on the seq before reruns the page, so the form is built on the new one."""
    ws = workspace()
    live: Live | None = st.session_state.get(LIVE)
    if live is None:
        st.rerun()
        return
    live.refresh(ws)
    play = st.session_state.get(MODE) == MODES[0] and live.rules.ruleset.name != freeform.NAME
    if not play and st.session_state.get(PAGE_SEQ) != live.last_seq:
        st.rerun(scope="app")
    taps = _taps(live)
    _board(live, taps, _panel(ws, live, taps, play=play))
    if st.session_state.pop(TO_REPLAY, False):
        shared.select_match(live.match_id)
        st.switch_page("pages/replay.py")


def _recording(ws: Workspace, live: Live) -> None:
    """A match being recorded: the mode and Close, then the board with the panel beside it; or,
    for a mode other than Play (or the log pad of a game with no rules), the board with its
    panel under it and the form beside."""
    live.refresh(ws)
    st.session_state[PAGE_SEQ] = live.last_seq
    modes, close = st.columns([6, 1], vertical_alignment="center")
    mode = modes.segmented_control("Record", MODES, key=MODE, label_visibility="collapsed") or MODES[0]
    if close.button("Close", key="rec_close"):
        del st.session_state[LIVE]
        st.rerun()
    form = FORMS.get(mode if mode != "Play" or live.rules.ruleset.name != freeform.NAME else "log")
    if form is None:
        _beside()
        return
    board, beside = st.columns([3, 2], gap="small")
    with beside:
        form(ws, live)
    with board:
        _beside()


FORMS = {"Any event": _free, "Ruling": _ruling, "Result": _result, "log": _log_pad}
"""The Streamlit forms drawn beside the board (which then has its panel under it): the modes
other than Play, and Play's log pad for a game with no rules."""


def main() -> None:
    """Render the page."""
    ws = workspace()
    st.session_state.setdefault(MODE, MODES[0])
    live: Live | None = st.session_state.get(LIVE)
    if live is None:
        st.title("Record")
        _start(ws)
        return
    _recording(ws, live)


main()
