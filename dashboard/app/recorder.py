"""One designer recording one match: what the board and its panel show, and what a tap or a
press on them writes.

The Record page draws it, and so does the dashboard's tap route (`dashboard.app.tap_route`):
a tap reaches the store and comes back as the new board in one HTTP round trip, without
waiting for a Streamlit rerun of the page. Both go through the same `Recorder`, found by
its token in `RECORDERS`; its lock lets one of them at a time read or write the match.
Everything a tap changes lives here rather than in `st.session_state`, which the route
cannot reach: the picker open, the refusal shown, the parts of a composition tapped so far,
the message of the last write, and the caches of the position (its tap map and panel).

`version` counts what the recorder did; the board's data carries it, so the browser keeps a
board the route drew over an older one Streamlit draws again.
"""

from __future__ import annotations

import secrets
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from dashboard.app.table_choice import lay_or_clear, table_choice
from dashboard.board.scrub import state_table
from dashboard.board.svg import board_layers, card_rows_html
from dashboard.board.tapboard import board_data
from events.base import Event
from events.errors import TabletapeError
from projections.read.audit import tally
from projections.record import dice, recording
from projections.record.recording import Live
from projections.record.taps import TapMap, refused, tap_map, with_refused
from projections.workspace import Workspace
from rulesets.levels import lacks
from rulesets.view import BoardView, Compose, key_position, space_name

RECENT = 8
STATUS_ROWS = 5
"""Rows of each of the view's first panels in the status strip (the whole panel is on Replay)."""
IN_TURN_LINE = frozenset({"turn", "round", "phase", "to act"})
"""Panel rows the strip's turn line already gives."""
MAX_BUTTONS = 8
"""More off-board choices than this are one picker (a turn order of four heroes is 24)."""
TAP_PATH = "/tabletape/tap"
"""Where the dashboard's server takes a tap or a press and answers with the new board."""

RECORDERS: weakref.WeakValueDictionary[str, Recorder] = weakref.WeakValueDictionary()
"""Token -> the recorder of a live browser session (held by its session state, gone with it)."""


class Recorder:
    """The recording of `live` in one browser session."""

    def __init__(self, ws: Workspace, live: Live) -> None:
        self.ws, self.live = ws, live
        self.token = secrets.token_urlsafe(18)
        self.lock = threading.RLock()
        self.version = 0
        self.message: tuple[str, str] | None = None
        self.pick: tuple[int, str | None, str | None] | None = None  # (seq, source, target) of a tap several actions share
        self.refusal: tuple[int, str | None, str | None] | None = None  # (seq, source, target) of a tap the rules refuse
        self.composing: dict[str, tuple[str, ...]] = {}  # a composition's title -> the parts tapped so far
        self.to_replay = False
        self.play = True  # the page shows Play (the panel's parts), not a form built on one seq
        self.cache: dict[str, Any] = {}  # read once per match or per position: the tables to lay, the tap map, the panel
        RECORDERS[self.token] = self

    # --- writing ------------------------------------------------------------------------

    def say(self, kind: str, text: str) -> None:
        """The message of the last write, shown until the next one."""
        self.message = (kind, text)

    def write(self, events: Sequence[Event], expected: int, problems: int = 0, *, insisted: bool = False,
              forced: bool = False) -> bool:
        """Append (with what the rules then force, for a decision) unless the rules refuse and the
        table has not insisted; say what was written, in words. True when something was written."""
        with self.lock:
            return self._write(events, expected, problems, insisted=insisted, forced=forced)

    def _write(self, events: Sequence[Event], expected: int, problems: int, *, insisted: bool, forced: bool) -> bool:
        live = self.live
        if problems and not insisted:
            self.say("error", "not written: the rules refuse this event; tick 'the table insists' to record it anyway")
            return False
        batch = live.with_forced(events) if forced else list(events)
        try:
            written = live.write(self.ws, batch, expected_seq=expected)
        except TabletapeError as error:
            self.say("error", f"not written: {error}")
            live.refresh(self.ws)
            return False
        self.pick = None
        self.version += 1
        said = "; ".join(live.said.get(e.seq, type(e).__name__) for e in written[: len(events)])
        more = len(written) - len(events)
        tail = f" (+{more} the rules imply)" if more > 0 else ""
        self.say("warning" if problems else "success",
                 f"recorded: {said}{tail}" + (" — against the rules (the audit will show it)" if problems else ""))
        return True

    def open(self) -> None:
        """First write what the rules force before anyone decides (a first turn with one possible hero)."""
        implied = self.live.with_forced([])
        if implied:
            self.write(implied, self.live.last_seq)

    def taps(self, *, refusals: bool = False) -> TapMap:
        """The tap map of the position now (once per position: the press and the draw share it).
        `refusals`: with the events the rules refuse placed too, worked out only once a tap
        lands where nothing legal is made (the board sends such a tap anyway)."""
        live, rules = self.live, self.live.rules
        key = (live.match_id, live.last_seq)
        cached = self.cache.get("taps")
        if cached is None or cached[0] != key:
            legal = [] if rules.ruleset.chance(rules.params, live.state) is not None else list(rules.ruleset.legal(rules.params, live.state))
            cached = (key, tap_map(rules, live.state, legal), None)
            self.cache["taps"] = cached
        if not refusals:
            taps: TapMap = cached[1]
            return taps
        full: TapMap | None = cached[2]
        if full is None:
            full = with_refused(rules, live.state, cached[1], refused(rules, live.state))
            self.cache["taps"] = (key, cached[1], full)
        return full

    # --- a tap, a press -----------------------------------------------------------------

    def tap(self, tap: Any) -> None:
        """A tap on the board made an event: write it, or open the picker when several share it."""
        if not isinstance(tap, dict):
            return
        with self.lock:
            if not self._begin(tap, "tap again on the board"):
                return
            live = self.live
            source, target = tap.get("source"), tap.get("target")
            choices = self.taps().at(source, target)
            if len(choices) == 1:
                self.write([choices[0].event], live.last_seq, forced=True)
            elif choices:
                self.pick = (live.last_seq, source, target)
            elif self.taps(refusals=True).refused_at(source or None, target):
                self.refusal = (live.last_seq, source or None, target)
            else:
                self.say("warning", self._why_not(source or None, target))

    def act(self, act: Any) -> None:
        """A press on the panel: handled here, in one place, through the one write; a panel
        built on an older seq (another recorder wrote first) writes nothing."""
        if not isinstance(act, dict):
            return
        with self.lock:
            if not self._begin(act, "press again on the panel"):
                return
            handler = ACTS.get(str(act.get("act")))
            if handler is None:
                self.say("error", f"not written: the panel sent {act.get('act')!r}, which the page does not know")
                return
            handler(self, act)

    def _begin(self, sent: dict[str, Any], again: str) -> bool:
        """A tap or a press begins: the match as it is now, the last message gone. False (said)
        when the board it was made on has moved on (another recorder wrote first)."""
        self.live.refresh(self.ws)
        self.version += 1
        self.message = None
        if sent.get("seq") != self.live.last_seq:
            self.say("warning", f"the board had moved on (another recorder wrote first): {again} as it is now")
            return False
        return True

    def _why_not(self, source: str | None, target: str | None) -> str:
        """Why a tap on something not lit made nothing, naming what was tapped as the board does."""
        rules = self.live.rules
        view = rules.ruleset.view(rules.params, self.live.state, None)
        there = _named(view, target)
        if source and source != target:
            return f"nothing the rules allow takes {_named(view, source)} to {there}: tap a lit place, or another piece"
        return f"{there} cannot be tapped now: nothing the rules allow starts or ends there; tap a lit piece, card or space"

    def nth(self, items: Sequence[Any], act: dict[str, Any], key: str = "index") -> Any:
        """The item a press names by number, or None (said) when there is no such item."""
        index = act.get(key)
        if not isinstance(index, int) or not 0 <= index < len(items):
            self.say("error", f"not written: the panel sent {act.get('act')} number {index!r}, and there are {len(items)}")
            return None
        return items[index]

    def written(self, choice: Any) -> None:
        """A choice of the tap map pressed: its event, then what the rules force."""
        if choice is not None:
            self.write([choice.event], self.live.last_seq, forced=True)

    def insist(self, event: Event) -> None:
        """The table plays a refused event: written as it was made, then what the rules force."""
        self.refusal = None
        self.write([event], self.live.last_seq, len(self.live.problems(event)), insisted=True, forced=True)

    def chosen(self, made: Compose) -> tuple[str, ...]:
        return self.composing.get(made.title, ())

    def add_part(self, made: Compose, value: str) -> None:
        """A part tapped: added, or why not in words; the last of a fixed number writes the event."""
        chosen = self.chosen(made)
        why = made.left(chosen).get(value)
        if why:
            self.say("warning", f"not added: {why}")
            return
        self.composing[made.title] = chosen = (*chosen, value)
        if made.size is not None and len(chosen) == made.size:
            self.record_composed(made)

    def record_composed(self, made: Compose) -> None:
        """The event the parts tapped make, written if the rules accept it; the parts are kept if not."""
        event = made.make(self.chosen(made))
        problems = self.live.problems(event)
        if problems:
            self.say("error", f"not written: {'; '.join(v.message for v in problems)}")
            return
        if self.write([event], self.live.last_seq, forced=True):
            self.composing[made.title] = ()

    # --- what the board and its panel show ----------------------------------------------

    def board(self, *, known_frame: str | None = None) -> dict[str, Any]:
        """The board component's data now: the board with what can be tapped lit and the panel
        beside it (a game with no board: its state as tables in the board's place). The
        route hands it to the browser as it is; the page through `tap_board`."""
        with self.lock:
            live, rules = self.live, self.live.rules
            taps = self.taps()
            panel = self._panel(taps)
            view = rules.ruleset.view(rules.params, live.state, None)
            meta = {"version": self.version, "route": {"url": TAP_PATH, "token": self.token}, "resync": not self.play}
            if not view.has_board:
                return board_data(None, "", {}, seq=live.last_seq, hints=None, panel=panel, still=state_table(view)) | meta
            targets = {t for ts in taps.sources().values() for t in ts if t} | set(taps.direct())
            spots = [k for k in targets if view.geometry == "inches" and key_position(k) is not None]
            hints = {"source": "Tap a lit piece, card or space." if taps.sources() or taps.direct() else "",
                     "target": "Tap where it goes, or whom it targets; tap another piece to switch."}
            return board_data(board_layers(view, spots=spots, rows=False, legend="below"), card_rows_html(view), taps.board_data(),
                              seq=live.last_seq, hints=hints, panel=panel, known_frame=known_frame) | meta

    def _panel(self, taps: TapMap) -> dict[str, Any]:
        """The panel's data now: the position's (once per position, like the tap map) with the
        message of the last write, and in Play the picker, a refusal or the compositions."""
        live = self.live
        key = (live.match_id, live.last_seq)
        cached = self.cache.get("panel")
        if cached is None or cached[0] != key:
            cached = (key, self._position(taps))
            self.cache["panel"] = cached
        position: dict[str, Any] = cached[1]
        parts: list[dict[str, Any]] = []
        if self.play:
            open_ = self._pick_part(taps) or self._refused_part()
            if open_ is not None and not position["dice"]:
                parts = [open_]
            else:
                lead = [p for p in position["play"] if p["kind"] in ("ended", "dice", "table", "clear")]
                rest = [p for p in position["play"] if p not in lead]
                composes = [] if lead and lead[0]["kind"] in ("ended", "dice") else self._compose_parts(taps)
                parts = [*lead, *composes, *rest]
        return {"head": position["head"], "message": self.message, "parts": parts,
                "undo": position["undo"], "latest": position["latest"], "audit": position["audit"]}

    def _position(self, taps: TapMap) -> dict[str, Any]:
        """What the panel shows of one position (the picker, a refusal and a composition in
        progress are added on each draw)."""
        live, rules = self.live, self.live.rules
        play: list[dict[str, Any]] = []
        outcomes = rules.ruleset.chance(rules.params, live.state)
        ended = _ended(live)
        if ended is not None:
            play.append(ended)
        elif outcomes is not None:
            play.append(_dice_part(live, [e for e, _ in outcomes]))
        else:
            play.extend(table_choice(self.ws, live, self.cache))
            if not taps.choices:
                why = lacks(rules.ruleset, "pickers") or "The rules allow nothing now"
                play.append({"kind": "info", "text": f"{why}. Record what the table did under Any event, a ruling, or the result."})
            if (buttons := _buttons_part(taps)) is not None:
                play.append(buttons)
        return {"head": _head(live), "play": play, "undo": _undo_words(live), "latest": _latest(live), "audit": _audit(live),
                "dice": outcomes is not None and ended is None}

    def _pick_part(self, taps: TapMap) -> dict[str, Any] | None:
        """After a tap several actions share: their names, to press one."""
        if not self.pick or self.pick[0] != self.live.last_seq:
            return None
        return {"kind": "pick", "choices": [c.touch.words for c in taps.at(self.pick[1], self.pick[2])]}

    def _refused_part(self) -> dict[str, Any] | None:
        """After a tap on something the rules refuse: the rule and the reason, and one more press
        to record it anyway (the audit will show it)."""
        shown, live = self.refusal, self.live
        if not shown or shown[0] != live.last_seq:
            return None
        choices = self.taps(refusals=True).refused_at(shown[1], shown[2])
        return {"kind": "refused", "choices": [[live_words(live, c.event), [[v.rule, v.message] for v in live.problems(c.event)]]
                                               for c in choices]}

    def _compose_parts(self, taps: TapMap) -> list[dict[str, Any]]:
        """Each choice made by pointing: its parts, what was tapped so far in order under them (a
        press on one takes it out), and Record where the number of parts is the table's."""
        out = []
        for index, made in enumerate(taps.composes):
            chosen = self.chosen(made)
            words = {p.value: p.words for p in made.parts}
            record = None if made.size is not None else (f"Record: {live_words(self.live, made.make(chosen))}" if chosen else "")
            out.append({"kind": "compose", "index": index, "title": made.title, "hint": made.hint,
                        "spent": f" · {made.spent(chosen)} of {made.budget} points" if made.budget is not None else "",
                        "parts": [p.words for p in made.parts], "chosen": [words.get(v, v) for v in chosen], "record": record})
        return out


def recorder(token: Any) -> Recorder | None:
    """The recorder a browser's board was handed the token of (None: no such session here)."""
    return RECORDERS.get(token) if isinstance(token, str) else None


# --- the panel's parts, from the position alone ----------------------------------------------


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


def outcome(live: Live) -> tuple[str, Event | None] | None:
    """When the rules say the game is over: the result in words, and the MatchEnded to record
    (None once the table has declared one)."""
    rules = live.rules
    decided = rules.ruleset.outcome(rules.params, live.state)
    if decided is None:
        return None
    said = "a draw" if decided.draw else f"{decided.winner} won"
    declared = any(type(e).__name__ == "MatchEnded" and e.seq not in live.voided for e in live.events)
    event = None if declared else recording.result(decided.winner, draw=decided.draw, reason=decided.reason)
    return f"By the rules the game is over: {said} ({decided.reason}).", event


def _ended(live: Live) -> dict[str, Any] | None:
    ended = outcome(live)
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


def live_words(live: Live, event: Event) -> str:
    """An event in words in the position the page shows."""
    return recording.words(live.rules, live.state, event)


def _named(view: BoardView, key: str | None) -> str:
    """A tap key in words: a piece's label, a space's name on the board's edges, a card's face."""
    kind, _, rest = (key or "").partition(":")
    if kind == "piece":
        return next((p.label or p.id for p in view.pieces if p.id == rest), rest)
    if kind == "card":
        return rest.partition(":")[2]
    position = key_position(key or "")
    return space_name(view.geometry, *position) if position is not None else "that"


# --- what each press of the panel does ----------------------------------------------------


def _act_pick(rec: Recorder, act: dict[str, Any]) -> None:
    if rec.pick:
        rec.written(rec.nth(rec.taps().at(rec.pick[1], rec.pick[2]), act))


def _act_insist(rec: Recorder, act: dict[str, Any]) -> None:
    shown = rec.refusal
    if shown and (choice := rec.nth(rec.taps(refusals=True).refused_at(shown[1], shown[2]), act)) is not None:
        rec.insist(choice.event)


def _act_roll(rec: Recorder, act: dict[str, Any]) -> None:
    rules = rec.live.rules
    outcomes = rules.ruleset.chance(rules.params, rec.live.state)
    if outcomes is not None and (event := rec.nth([e for e, _ in outcomes], act)) is not None:
        rec.write([event], rec.live.last_seq, forced=True)


def _act_undo(rec: Recorder, act: dict[str, Any]) -> None:
    if rec.live.in_force is not None:
        rec.write(rec.live.undo_all(), rec.live.last_seq)


def _act_end(rec: Recorder, act: dict[str, Any]) -> None:
    ended = outcome(rec.live)
    if ended is not None and ended[1] is not None:
        rec.write([ended[1]], rec.live.last_seq)


def _act_part(rec: Recorder, act: dict[str, Any]) -> None:
    made = rec.nth(rec.taps().composes, act, "compose")
    if made is not None and (part := rec.nth(made.parts, act)) is not None:
        rec.add_part(made, part.value)


def _act_unpart(rec: Recorder, act: dict[str, Any]) -> None:
    made = rec.nth(rec.taps().composes, act, "compose")
    if made is not None and rec.nth(chosen := rec.chosen(made), act) is not None:
        rec.composing[made.title] = chosen[:act["index"]] + chosen[act["index"] + 1:]


def _act_compose(rec: Recorder, act: dict[str, Any]) -> None:
    made = rec.nth(rec.taps().composes, act, "compose")
    if made is not None and rec.chosen(made):
        rec.record_composed(made)


def _act_lay(rec: Recorder, act: dict[str, Any]) -> None:
    lay_or_clear(rec.ws, rec.live, "lay", act.get("index"), rec.cache, rec.write, rec.say)


def _act_clear(rec: Recorder, act: dict[str, Any]) -> None:
    lay_or_clear(rec.ws, rec.live, "clear", None, rec.cache, rec.write, rec.say)


def _act_replay(rec: Recorder, act: dict[str, Any]) -> None:
    rec.to_replay = True


ACTS: dict[str, Callable[[Recorder, dict[str, Any]], None]] = {
    "button": lambda rec, act: rec.written(rec.nth(rec.taps().buttons(), act)),
    "pick": _act_pick,
    "unpick": lambda rec, act: setattr(rec, "pick", None),
    "insist": _act_insist,
    "unrefuse": lambda rec, act: setattr(rec, "refusal", None),
    "roll": _act_roll,
    "undo": _act_undo,
    "end": _act_end,
    "replay": _act_replay,
    "part": _act_part,
    "unpart": _act_unpart,
    "compose": _act_compose,
    "lay": _act_lay,
    "clear": _act_clear,
}
"""What each press of the panel does (`act` -> handler(recorder, act))."""
