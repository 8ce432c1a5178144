"""Recording a playtest at the table: what may be written next, as a form, and the checks.

The recorder never invents moves: every choice it offers comes from the ruleset's own
`legal` (and, at a chance step, `chance`), grouped by event type and narrowed field by
field (seat, then the event's fields in order), so any complete choice is one legal
event. A table may still insist on a move the rules refuse: `draft` builds any event of
the game from typed values, and `problems` says what it breaks before it is written.
Works for every registered game through the Ruleset protocol alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from events.base import ENVELOPE, STAMPED, Event, same_event
from events.errors import LogFormatError
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from projections.read.audit import judge, outcome_of
from projections.read.replay import Step, advance, replay
from projections.read.words import words
from projections.workspace import Workspace
from rulesets.protocol import Violation
from rulesets.registry import Rules

TABLE_EVENTS = (MatchEnded, Ruled)
"""Shared events that record what the table said; the rules do not check them."""
NOT_DRAFTED = ("MatchStarted", "Retracted", "MatchEnded", "Ruled")
"""Written by their own buttons and forms (start, undo, result, ruling), not the free form."""
WHERE = "the event form"
FORCED_LIMIT = 200
"""At most this many forced events are written after one decision (a guard: a game whose
rules loop on a single legal event must not hang the recorder)."""


@dataclass(frozen=True)
class Offer:
    """The legal events of one type now, and the fields a person picks them by."""

    type_name: str
    events: list[Event]
    fields: list[str]
    """`by` and the event's own fields whose values differ or are not left at a default."""
    extras: list[str] = field(default_factory=list)
    """At a chance step, optional fields every outcome leaves at None: what the table may
    state beside the dice (MortalGate's `hit`, `damage`); left blank, the rules decide."""
    chance: bool = False


def offers(rules: Rules, state: Any) -> list[Offer]:
    """The events that are legal now grouped by type, in the order the ruleset lists them."""
    ruleset, params = rules.ruleset, rules.params
    outcomes = ruleset.chance(params, state)
    events = [e for e, _ in outcomes] if outcomes is not None else list(ruleset.legal(params, state))
    grouped: dict[str, list[Event]] = {}
    for event in events:
        grouped.setdefault(type(event).__name__, []).append(event)
    return [_offer(name, group, chance=outcomes is not None) for name, group in grouped.items()]


def _offer(name: str, events: list[Event], *, chance: bool) -> Offer:
    kind = type(events[0])
    own = [f for f in msgspec.structs.fields(kind) if f.name not in ENVELOPE]
    extras = [f.name for f in own if chance and f.default is None and all(getattr(e, f.name) is None for e in events)]
    fields = ["by", *(f.name for f in own if f.name not in extras)]
    return Offer(type_name=name, events=events, fields=fields, extras=extras, chance=chance)


def forced(rules: Rules, state: Any) -> Event | None:
    """The one event the rules allow now, when the table has no choice: the next hero's
    turn starting, an empty phase ending, a die with one face. None at a real decision,
    at a chance step with several outcomes, and once the rules say the game is over."""
    ruleset, params = rules.ruleset, rules.params
    if ruleset.outcome(params, state) is not None:
        return None
    outcomes = ruleset.chance(params, state)
    if outcomes is not None:
        return outcomes[0][0] if len(outcomes) == 1 else None
    legal = iter(ruleset.legal(params, state))
    only = next(legal, None)
    return only if only is not None and next(legal, None) is None else None


def values(events: Sequence[Event], name: str) -> list[Any]:
    """The distinct values of field `name` among `events`, first seen first (numbers sorted)."""
    seen: dict[bytes, Any] = {}
    for event in events:
        value = getattr(event, name)
        seen.setdefault(msgspec.json.encode(value), value)
    found = list(seen.values())
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in found):
        found.sort()
    return found


def keep(events: Sequence[Event], name: str, value: Any) -> list[Event]:
    """The events whose field `name` has `value`."""
    key = msgspec.json.encode(value)
    return [e for e in events if msgspec.json.encode(getattr(e, name)) == key]


def stated(event: Event, given: Mapping[str, str]) -> Event:
    """`event` with what the table stated in its extra fields (JSON or plain words)."""
    changes = {name: parse_value(text) for name, text in given.items() if text.strip()}
    if not changes:
        return event
    raw = {**msgspec.to_builtins(event), **changes}
    return _decode(type(event), raw)


def parse_value(text: str) -> Any:
    """A typed value from a form: JSON if it reads as JSON (`true`, `4`, `[1, 2]`), else text."""
    try:
        return json.loads(text)
    except ValueError:
        return text.strip()


def as_text(value: Any) -> str:
    """A value as a form shows it (the inverse of `parse_value`); None is blank."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(msgspec.to_builtins(value))


def draftable(rules: Rules) -> list[str]:
    """Every event type of the game a person may enter by hand (the shared Ruled and
    MatchEnded have their own forms; MatchStarted and Retracted their own buttons)."""
    return [kind.__name__ for kind in rules.ruleset.events if kind.__name__ not in NOT_DRAFTED]


def template(rules: Rules, type_name: str, legal: Sequence[Offer] = ()) -> dict[str, Any]:
    """Starting values for the free form: a legal event of that type if there is one, else
    each field's default or an empty value of its type."""
    for offer in legal:
        if offer.type_name == type_name:
            return {k: v for k, v in msgspec.to_builtins(offer.events[0]).items() if k not in ENVELOPE and k != "type"}
    kind = rules.ruleset.codec.by_name[type_name]
    return {f.name: f.default if f.default is not msgspec.NODEFAULT else _empty(f.type)
            for f in msgspec.structs.fields(kind) if f.name not in ENVELOPE}


def template_json(rules: Rules, type_name: str, legal: Sequence[Offer] = ()) -> str:
    """`template` as the JSON text the free form starts from."""
    return json.dumps(template(rules, type_name, legal))


def _empty(annotation: Any) -> Any:
    info = msgspec.inspect.type_info(annotation)
    if isinstance(info, msgspec.inspect.UnionType):
        info = next((t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)), info.types[0])
    if isinstance(info, msgspec.inspect.LiteralType):
        return info.values[0]
    if isinstance(info, msgspec.inspect.IntType | msgspec.inspect.FloatType):
        return 0
    if isinstance(info, msgspec.inspect.BoolType):
        return False
    if isinstance(info, msgspec.inspect.StrType):
        return ""
    if isinstance(info, msgspec.inspect.DictType):
        return {}
    if isinstance(info, msgspec.inspect.NoneType):
        return None
    return []


def draft(rules: Rules, type_name: str, by: str | None, fields_json: str) -> Event:
    """An event of any type of the game from a JSON object of its fields; one-line errors."""
    if type_name not in draftable(rules):
        raise LogFormatError(WHERE, None, f"{type_name!r} cannot be entered here; types: {', '.join(draftable(rules))}", field="type")
    try:
        fields = json.loads(fields_json or "{}")
    except json.JSONDecodeError as error:
        raise LogFormatError(WHERE, None, f"the fields are not JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    if not isinstance(fields, dict):
        raise LogFormatError(WHERE, None, "the fields must be one JSON object, like {\"hero\": \"drexir\"}")
    clash = sorted(set(fields) & (ENVELOPE | {"type"}))
    if clash:
        raise LogFormatError(WHERE, None, f"{clash[0]!r} is set by the recorder, not in the fields", field=clash[0])
    return _decode(rules.ruleset.codec.by_name[type_name], {**fields, "by": by})


def _decode(kind: type[Event], raw: dict[str, Any]) -> Event:
    """One event from plain values; a wrong value names its field."""
    raw = {k: v for k, v in raw.items() if k not in STAMPED}
    try:
        return msgspec.convert({**raw, "type": kind.__name__}, type=kind)
    except msgspec.ValidationError as error:
        message, _, path = str(error).partition(" - at `$.")
        where = path.rstrip("`") or None
        raise LogFormatError(WHERE, None, f"{kind.__name__}: {message}", field=where) from None


def ruling(rule: str, decision: str, applies_to: int | None, *, last_seq: int) -> Ruled:
    """A table ruling, refused if it names no rule, decides nothing or points outside the log."""
    if not rule.strip():
        raise LogFormatError(WHERE, None, "a ruling names the rule it settles (e.g. mortalgate/combat.range)", field="rule")
    if not decision.strip():
        raise LogFormatError(WHERE, None, "a ruling says what the table decided", field="decision")
    if applies_to is not None and not 1 <= applies_to <= last_seq:
        raise LogFormatError(WHERE, None, f"applies to seq {applies_to}, outside the events 1..{last_seq}", field="applies_to")
    return Ruled(rule=rule.strip(), decision=decision.strip(), applies_to=applies_to)


def result(winner: str | None, *, draw: bool = False, reason: str = "") -> MatchEnded:
    """What the table declares at the end: a winning side, a draw, or None for abandoned."""
    return MatchEnded(winner=None if draw else winner, draw=draw, reason=reason.strip())


def parse_seats(text: str) -> dict[str, str]:
    """Seats from `seat = player` lines, in seating order; a bad line is named."""
    seats: dict[str, str] = {}
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        seat, sep, player = line.partition("=")
        if not sep or not seat.strip():
            raise LogFormatError("seats", line_no, f"write `seat = player`, not {line.strip()!r}")
        if seat.strip() in seats:
            raise LogFormatError("seats", line_no, f"seat {seat.strip()!r} is listed twice")
        seats[seat.strip()] = player.strip() or seat.strip()
    if not seats:
        raise LogFormatError("seats", None, "name at least one seat (`seat = player`, one a line)")
    return seats


def sides(rules: Rules, started: MatchStarted) -> list[str]:
    """The sides a result may name: teams where the game has them, else the seats."""
    side_of = rules.ruleset.seat_side
    return list(dict.fromkeys(side_of(seat) if side_of else seat for seat in started.seats))


@dataclass
class Live:
    """A match being recorded: its rules, the step after its last line, and what broke so far."""

    match_id: str
    rules: Rules
    step: Step
    events: list[Event]
    violations: dict[int, tuple[Violation, ...]]
    rulings: dict[int, Ruled]
    voided: set[int] = field(default_factory=set)
    """Seqs a Retracted voided."""
    said: dict[int, str] = field(default_factory=dict)
    """Each event in words, read in the state it was played in (seq -> words)."""

    @classmethod
    def open(cls, ws: Workspace, match_id: str) -> Live:
        """Fold the whole log once; later lines come in through `refresh`."""
        rules = ws.rules_of(match_id)
        steps = replay(ws.events(match_id), rules)
        first = next(steps)
        live = cls(match_id=match_id, rules=rules, step=first, events=[], violations={}, rulings={})
        for step in (first, *steps):
            live._take(step)
        return live

    def refresh(self, ws: Workspace) -> Live:
        """Fold the lines written since (by this page or another recorder)."""
        for event in ws.tail(self.match_id, self.last_seq):
            self._take(advance(self.rules, self.step, event))
        return self

    def _take(self, step: Step) -> None:
        before = self.step.state if self.events else None
        self.said[step.event.seq] = words(self.rules, before, step.event)
        self.step = step
        self.events.append(step.event)
        if step.voided is not None:
            self.voided.add(step.voided)
            self.violations.pop(step.voided, None)
            self.rulings.pop(step.voided, None)
        if step.violations:
            self.violations[step.event.seq] = step.violations
        if isinstance(step.event, Ruled):
            self.rulings[step.event.seq] = step.event

    @property
    def started(self) -> MatchStarted:
        """Line 0."""
        first = self.events[0]
        assert isinstance(first, MatchStarted)
        return first

    @property
    def state(self) -> Any:
        """The game state now."""
        return self.step.state

    @property
    def last_seq(self) -> int:
        """Seq of the last line written: what the next append expects."""
        return self.step.event.seq

    @property
    def in_force(self) -> int | None:
        """Seq of the latest event an undo would void; None if nothing is left to undo."""
        return self.step.undo.seq if self.step.undo is not None else None

    def findings(self) -> list[Violation]:
        """Every violation still standing, oldest first; those the table ruled on as info."""
        ruled = {(r.applies_to, r.rule): r for r in self.rulings.values() if r.applies_to is not None}
        out = []
        for seq in sorted(self.violations):
            for v in self.violations[seq]:
                if (r := ruled.get((seq, v.rule))) is not None:
                    v = msgspec.structs.replace(v, severity="info", message=f"ruled by the table (seq {r.seq}: {r.decision}): {v.message}")
                out.append(v)
        return out

    def problems(self, event: Event) -> list[Violation]:
        """What writing `event` now would break (empty: the rules accept it)."""
        seq = self.last_seq + 1
        if isinstance(event, MatchEnded):
            check = judge(event, outcome_of(self.rules, self.state, event))
            return [] if check.agrees else [Violation(seq=seq, rule="core/result", message=check.message, severity="warning")]
        if isinstance(event, (*TABLE_EVENTS, Retracted, MatchStarted)):
            return []
        stamped = msgspec.structs.replace(event, seq=seq)
        return list(self.rules.ruleset.check(self.rules.params, self.state, stamped))

    def undo(self, reason: str = "") -> Retracted:
        """The Retracted that voids the latest event in force."""
        if self.in_force is None:
            raise LogFormatError(WHERE, None, "nothing to undo: no event is in force")
        return Retracted(target_seq=self.in_force, reason=reason.strip())

    def with_forced(self, events: Sequence[Event]) -> list[Event]:
        """`events` followed by what the rules then force (the next turn starting, an empty
        phase passing), so the table records only what it decided and rolled."""
        step = self.step
        for offset, event in enumerate(events, start=1):
            step = advance(self.rules, step, msgspec.structs.replace(event, seq=self.last_seq + offset), audit=False)
        out = list(events)
        while len(out) - len(events) < FORCED_LIMIT and (implied := forced(self.rules, step.state)) is not None:
            out.append(implied)
            step = advance(self.rules, step, msgspec.structs.replace(implied, seq=self.last_seq + len(out)), audit=False)
        return out

    def was_forced(self, seq: int, before: Any) -> bool:
        """Whether the event at `seq` was the only thing the rules allowed in `before`."""
        only = forced(self.rules, before)
        return only is not None and same_event(only, self.events[seq])

    def undo_all(self, reason: str = "") -> list[Retracted]:
        """One tap of Undo: void the latest decision and the forced events written after it
        (newest first), so the board is back where the table last chose."""
        out: list[Retracted] = []
        node = self.step.undo
        while node is not None:
            out.append(Retracted(target_seq=node.seq, reason=reason.strip()))
            if not self.was_forced(node.seq, node.before):
                break
            node = node.below
        if not out:
            raise LogFormatError(WHERE, None, "nothing to undo: no event is in force")
        return out

    def write(self, ws: Workspace, events: Iterable[Event], *, expected_seq: int) -> list[Event]:
        """Append after `expected_seq` (the last seq the form was built on), then refresh.

        A stale form (somebody wrote in between) gets ConflictError and writes nothing.
        """
        written = ws.append_events(self.match_id, list(events), expected_seq=expected_seq, where=WHERE)
        self.refresh(ws)
        return written
