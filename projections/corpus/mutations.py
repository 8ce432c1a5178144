"""How far one table mistake spreads through an audit: inject a mistake, count the follow-ons.

"A physical table accepts illegal moves: apply follows the table, and one table mistake
gives one finding." This module measures that promise for any game, through the Ruleset
protocol only (`check`, `chance`, the audit): it takes a clean or annotated log, injects
one mistake a table makes (drop an event, write one twice, swap two, a die showing a face
it does not have, a move borrowed from elsewhere that is illegal here, an action out of
turn, a pending roll skipped), audits the mutated log, and counts the *follow-on*
findings: errors and warnings at events other than where the mistake shows that the
original audit did not report at that event. A mistake shows at its own events, or, if the
rules accept it there, at the first event after them with a new finding (`measure`). A
replay that follows the table gives 0.

The other side of that promise is recall: a second, independent mistake is never hidden by
the first. `recalls` puts two mistakes in one log, far apart and about other pieces, and asks
whether the audit still names each where it showed alone.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from events.base import Event
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from projections.read.audit import audit
from projections.read.replay import RESYNC_SPAN, names, replay
from rulesets.protocol import Violation
from rulesets.registry import Rules

KINDS = ("drop", "duplicate", "swap", "die", "illegal", "out-of-turn", "skip")
"""The table mistakes injected, in the order the measure reports them."""

_SHARED = (MatchStarted, MatchEnded, Retracted, Ruled)
_IGNORED_RULES = frozenset({"core/rules-changed"})
"""Findings that say nothing of the table's play (the rules code changed since)."""


class Mutation(msgspec.Struct, frozen=True, kw_only=True):
    """One injected mistake: the mutated log and which of its events are the mistake."""

    kind: str
    at: int
    """Seq (in the original log) where the mistake was made."""
    what: str
    events: tuple[Event, ...]
    origin: tuple[int | None, ...]
    """Per event of the mutated log, the seq of the original event it is (None: injected)."""
    site: frozenset[int]
    """Seqs of the mutated log where the mistake itself shows: findings there are not follow-ons."""


class Cascade(msgspec.Struct, frozen=True, kw_only=True):
    """What the audit made of one mutation."""

    kind: str
    at: int
    what: str
    at_site: int
    """New findings at the mistake's own events (1 names it; 0: the audit did not see it)."""
    follow_on: int
    """New findings anywhere else: what one mistake costs the rest of the audit."""
    follow_rules: tuple[str, ...] = ()
    """`seq rule` of each follow-on finding, to read what spread."""
    literal: int | None = None
    """Follow-ons of the same mutation when the audit follows the log literally (no resync):
    the baseline, when it was measured."""
    shown_later: bool = False
    """The mistake's own events showed nothing: the first new finding after them is where it
    shows (counted as a follow-on before 2026-11-24; `follow_on + shown_later` is that count)."""
    shown: frozenset[int] = frozenset()
    """Seqs of the mutated log where the mistake shows: its own events, or where it first showed."""


def findings(violations: Sequence[Violation]) -> dict[int, Counter[str]]:
    """Errors and warnings by seq, rule ids counted (infos and rulings make nothing illegal)."""
    found: dict[int, Counter[str]] = {}
    for v in violations:
        if v.severity in ("error", "warning") and v.rule not in _IGNORED_RULES:
            found.setdefault(v.seq, Counter())[v.rule] += 1
    return found


class Subject:
    """One log to mutate: its events, the state before each, and its own audit findings."""

    def __init__(self, events: Sequence[Event], rules: Rules, *, resync: bool = True) -> None:
        self.events = list(events)
        self.rules = rules
        self.resync = resync
        # False: audit as a literal follower of the log (the baseline the resync is measured against).
        self.before = [step.state for step in replay(self.events, rules, audit=False)]
        self.before.insert(0, None)
        self.found = findings(audit(self.events, rules, resync=resync).violations)
        pinned = {e.target_seq for e in self.events if isinstance(e, Retracted)}
        pinned |= {e.applies_to for e in self.events if isinstance(e, Ruled) and e.applies_to is not None}
        after_retract = {e.seq - 1 for e in self.events if isinstance(e, Retracted)}
        self.movable = [e.seq for e in self.events[1:]
                        if not isinstance(e, _SHARED) and e.seq not in pinned and e.seq not in after_retract]
        # Seqs a mutation may touch: game events no Retracted or Ruled refers to.

    def state_before(self, seq: int) -> Any:
        """The state the table had just before event `seq`."""
        return self.before[seq]

    def chance(self, seq: int) -> Sequence[tuple[Event, float]] | None:
        """The outcomes of the chance step that event `seq` resolves, or None at a decision."""
        rules = self.rules
        return rules.ruleset.chance(rules.params, self.state_before(seq))

    def illegal(self, seq: int, event: Event) -> bool:
        """Would the rules refuse `event` in place of event `seq`?"""
        rules = self.rules
        problems = rules.ruleset.check(rules.params, self.state_before(seq), event)
        return any(p.severity in ("error", "warning") for p in problems)


def _rebuild(kind: str, at: int, what: str, order: list[tuple[int | None, Event]], site: Sequence[int]) -> Mutation:
    """Renumber the mutated log and point Retracted/Ruled at their events' new seqs."""
    new_seq = {origin: i for i, (origin, _) in enumerate(order) if origin is not None}
    events: list[Event] = []
    for i, (_, event) in enumerate(order):
        event = msgspec.structs.replace(event, seq=i)
        if isinstance(event, Retracted):
            event = msgspec.structs.replace(event, target_seq=new_seq.get(event.target_seq, event.target_seq))
        elif isinstance(event, Ruled) and event.applies_to is not None:
            event = msgspec.structs.replace(event, applies_to=new_seq.get(event.applies_to, event.applies_to))
        events.append(event)
    return Mutation(kind=kind, at=at, what=what, events=tuple(events),
                    origin=tuple(origin for origin, _ in order), site=frozenset(site))


def _order(subject: Subject) -> list[tuple[int | None, Event]]:
    return [(e.seq, e) for e in subject.events]


def drop(subject: Subject, seq: int, rng: random.Random) -> Mutation | None:
    """The table forgot to write (or to do) an event: the next event is where it shows."""
    order = _order(subject)
    del order[seq]
    name = type(subject.events[seq]).__name__
    return _rebuild("drop", seq, f"{name} at {seq} left out", order, [seq] if seq < len(order) else [])


def skip(subject: Subject, seq: int, rng: random.Random) -> Mutation | None:
    """A pending roll or draw never made: a chance event left out."""
    if subject.chance(seq) is None:
        return None
    mutation = drop(subject, seq, rng)
    return None if mutation is None else msgspec.structs.replace(mutation, kind="skip")


def duplicate(subject: Subject, seq: int, rng: random.Random) -> Mutation | None:
    """An event written twice."""
    order = _order(subject)
    order.insert(seq + 1, (None, subject.events[seq]))
    return _rebuild("duplicate", seq, f"{type(subject.events[seq]).__name__} at {seq} written twice",
                    order, [seq + 1])


def swap(subject: Subject, seq: int, rng: random.Random) -> Mutation | None:
    """Two neighbouring events written in the wrong order."""
    if seq + 1 not in subject.movable:
        return None
    order = _order(subject)
    order[seq], order[seq + 1] = order[seq + 1], order[seq]
    a, b = (type(subject.events[s]).__name__ for s in (seq, seq + 1))
    return _rebuild("swap", seq, f"{a} at {seq} and {b} after it swapped", order, [seq, seq + 1])


def die(subject: Subject, seq: int, rng: random.Random) -> Mutation | None:
    """A die (or drawn card) the chance step cannot give: one face above the die's largest,
    or a card seen elsewhere in the log that is not among the ones that could be drawn."""
    outcomes = subject.chance(seq)
    event = subject.events[seq]
    if not outcomes or type(outcomes[0][0]) is not type(event):
        return None
    fields = [f for f in msgspec.structs.fields(event) if f.name not in ("seq", "at", "by", "prev")]
    rng.shuffle(fields)
    for field in fields:
        values = [getattr(e, field.name) for e, _ in outcomes]
        current = getattr(event, field.name)
        changed = _impossible(current, values, subject, type(event), field.name, rng)
        if changed is not None:
            mutated = msgspec.structs.replace(event, **{field.name: changed})
            order = _order(subject)
            order[seq] = (seq, mutated)
            return _rebuild("die", seq, f"{type(event).__name__}.{field.name} {current!r} -> {changed!r} at {seq}",
                            order, [seq])
    return None


def _impossible(current: Any, values: list[Any], subject: Subject, kind: type, name: str, rng: random.Random) -> Any:
    """A value of one chance field that none of the step's outcomes has, or None."""
    if len(set(map(repr, values))) < 2:
        return None
    if isinstance(current, bool):
        return None
    if isinstance(current, int):
        faces = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        return max(faces) + 1 if len(faces) == len(values) else None
    if isinstance(current, tuple) and current and all(isinstance(v, int) and not isinstance(v, bool) for v in current):
        if not all(isinstance(v, tuple) and all(isinstance(x, int) for x in v) for v in values):
            return None
        top = max(max(v) for v in values if v)
        i = rng.randrange(len(current))
        return (*current[:i], top + 1, *current[i + 1:])
    if isinstance(current, str):
        possible = set(values)
        seen = sorted({v for e in subject.events if type(e) is kind and isinstance(v := getattr(e, name), str)} - possible)
        return rng.choice(seen) if seen else None
    return None


def illegal(subject: Subject, seq: int, rng: random.Random) -> Mutation | None:
    """A decision the rules refuse here, made by the same piece: one field of the event (where
    it went, whom it hit, which card) taken from another event of its kind in the log, so the
    same unit moves where it cannot go, or the same hero attacks out of reach."""
    event = subject.events[seq]
    if subject.chance(seq) is not None:
        return None
    names = [f.name for f in msgspec.structs.fields(event) if f.name not in ("seq", "at", "by", "prev")]
    others = [e for e in subject.events if type(e) is type(event) and e.seq != seq]
    rng.shuffle(others)
    tried = 0
    for other in others:
        changed = [n for n in names if getattr(other, n) != getattr(event, n)]
        if len(changed) != 1:
            continue
        borrowed = msgspec.structs.replace(event, **{changed[0]: getattr(other, changed[0])})
        tried += 1
        if subject.illegal(seq, borrowed):
            order = _order(subject)
            order[seq] = (seq, borrowed)
            return _rebuild("illegal", seq,
                            f"{type(event).__name__}.{changed[0]} at {seq} taken from the one at {other.seq}", order, [seq])
        if tried >= 8:
            break
    return None


def out_of_turn(subject: Subject, seq: int, rng: random.Random) -> Mutation | None:
    """A seat acts before its turn: the next decision of another seat, played here as well."""
    event = subject.events[seq]
    if event.by is None or subject.chance(seq) is not None:
        return None
    for later in subject.events[seq + 1:]:
        if isinstance(later, _SHARED) or later.by is None or later.by == event.by:
            continue
        if not subject.illegal(seq, later):
            return None
        order = _order(subject)
        order.insert(seq, (None, later))
        return _rebuild("out-of-turn", seq, f"{later.by} plays {type(later).__name__} (seq {later.seq}) at {seq}",
                        order, [seq])
    return None


MUTATORS = {"drop": drop, "duplicate": duplicate, "swap": swap, "die": die, "illegal": illegal,
            "out-of-turn": out_of_turn, "skip": skip}


def _new_findings(subject: Subject, mutation: Mutation) -> dict[int, Counter[str]]:
    """Audit the mutated log: its findings by seq that the original audit did not report at
    the same original event (every finding at an injected event is new)."""
    found = findings(audit(mutation.events, subject.rules, resync=subject.resync).violations)
    new_by_seq: dict[int, Counter[str]] = {}
    for seq, rules in sorted(found.items()):
        origin = mutation.origin[seq] if seq < len(mutation.origin) else None
        new = rules - subject.found.get(origin, Counter()) if origin is not None else rules
        if new:
            new_by_seq[seq] = new
    return new_by_seq


def measure(subject: Subject, mutation: Mutation) -> Cascade:
    """Audit the mutated log and count its new findings, at the mistake and after it.

    A mistake the rules accept where it was made (a roll of workers never written, a building
    written twice that was affordable twice) shows first where play depends on it: if its own
    events show nothing, the first event after them with a new finding is where it shows, and
    that finding names the mistake; only the findings after it are follow-ons."""
    new_by_seq = _new_findings(subject, mutation)
    site = mutation.site
    shown_later = bool(new_by_seq) and not site.intersection(new_by_seq)
    if shown_later:  # the log before the mistake is unchanged: the first new finding is after it
        site = frozenset({min(new_by_seq)})
    at_site = follow_on = 0
    spread: list[str] = []
    for seq, new in new_by_seq.items():
        count = sum(new.values())
        if seq in site:
            at_site += count
        else:
            follow_on += count
            spread.extend(f"{seq} {rule}" for rule in sorted(new.elements()))
    return Cascade(kind=mutation.kind, at=mutation.at, what=mutation.what, at_site=at_site,
                   follow_on=follow_on, follow_rules=tuple(spread), shown_later=shown_later,
                   shown=frozenset(site))


def mutations(subject: Subject, rng: random.Random, kinds: Sequence[str] = KINDS) -> Iterator[Mutation]:
    """Endless mutations of one log, kinds taken in turn, positions drawn from `rng`."""
    if not subject.movable:
        return
    misses = 0
    while misses < 200 * len(kinds):
        for kind in kinds:
            mutation = MUTATORS[kind](subject, rng.choice(subject.movable), rng)
            if mutation is None:
                misses += 1
                continue
            misses = 0
            yield mutation


def cascades(subjects: Sequence[Subject], count: int, seed: int = 0,
             kinds: Sequence[str] = KINDS, *, baseline: int = 0) -> list[Cascade]:
    """`count` mutations spread over the logs in turn, each measured; the first `baseline`
    of them also by an audit that follows the log literally (`Cascade.literal`)."""
    rng = random.Random(seed)
    streams = [mutations(s, rng, kinds) for s in subjects]
    twins = [Subject(s.events, s.rules, resync=False) if baseline else s for s in subjects]
    live = list(zip(subjects, streams, twins, strict=True))
    out: list[Cascade] = []
    while len(out) < count and live:
        for entry in list(live):
            subject, stream, twin = entry
            mutation = next(stream, None)
            if mutation is None:
                live.remove(entry)
                continue
            found = measure(subject, mutation)
            if len(out) < baseline:
                found = msgspec.structs.replace(found, literal=measure(twin, mutation).follow_on)
            out.append(found)
            if len(out) >= count:
                break
    return out


PAIR_GAP = (8, RESYNC_SPAN)
"""How many events after the first mistake the second is made: far enough apart to be two
mistakes, close enough that the first one's readings are still carried, which is where a
resynchronising audit could take the second for a consequence of the first."""


class Recall(msgspec.Struct, frozen=True, kw_only=True):
    """What the audit made of two independent mistakes in one log, each named when alone."""

    kinds: tuple[str, str]
    what: tuple[str, str]
    named: tuple[bool, bool]
    """Each mistake named in the two-mistake log where it showed alone (a new finding there)."""
    follow_on: int
    """New findings where neither mistake showed alone: what the two cost the rest of the audit."""
    follow_rules: tuple[str, ...] = ()
    """`seq rule` of each follow-on finding."""


def _edit(subject: Subject, mutation: Mutation) -> tuple[int, int, list[tuple[int | None, Event]]]:
    """The mutation as one edit of the original log: its events [start, end) become `middle`
    (each with the seq of the original event it is, None where injected)."""
    original = subject.events
    changed = mutation.events
    n, m = len(original), len(changed)
    start = 0
    while start < min(n, m) and mutation.origin[start] == start and changed[start] == original[start]:
        start += 1
    tail = 0
    while tail < min(n, m) - start:
        origin = mutation.origin[m - 1 - tail]
        if origin != n - 1 - tail:
            break
        kept = original[origin]
        if not isinstance(kept, _SHARED) and msgspec.structs.replace(changed[m - 1 - tail], seq=origin) != kept:
            break
        tail += 1
    middle = [(mutation.origin[k], changed[k]) for k in range(start, m - tail)]
    return start, n - tail, middle


def combine(subject: Subject, first: Mutation, second: Mutation) -> tuple[Mutation, Callable[[int, int], int]] | None:
    """Both mutations in one log, if the first edits only events before the second's and the
    two touch different pieces; with where a seq of either mutated log (0: the first's, 1: the
    second's) is in the log with both."""
    start1, end1, middle1 = _edit(subject, first)
    start2, end2, middle2 = _edit(subject, second)
    if end1 > start2:
        return None
    started = subject.events[0]
    seats = frozenset(getattr(started, "seats", {}) or {})
    one = frozenset().union(*map(names, [e for _, e in middle1] + subject.events[start1:end1])) - seats
    two = frozenset().union(*map(names, [e for _, e in middle2] + subject.events[start2:end2])) - seats
    if one & two:
        return None
    kept: list[tuple[int | None, Event]] = [(e.seq, e) for e in subject.events]
    order = [*kept[:start1], *middle1, *kept[end1:start2], *middle2, *kept[end2:]]
    shift1, shift2 = len(middle1) - (end1 - start1), len(middle2) - (end2 - start2)

    def place(which: int, seq: int) -> int:
        if which == 1:  # the second's log has the first's events as they were: all after them moved
            return seq + shift1
        return seq + shift2 if seq >= end2 + shift1 else seq

    both = _rebuild(f"{first.kind}+{second.kind}", first.at, f"{first.what}; {second.what}", order,
                    [*(place(0, s) for s in first.site), *(place(1, s) for s in second.site)])
    return both, place


def recall(subject: Subject, first: Mutation, second: Mutation) -> Recall | None:
    """Audit the two mistakes alone and together: whether each is still named with the other
    in the log (where it showed alone), and the follow-ons of the two. None when they cannot be
    combined or either alone went unseen (no finding to look for)."""
    combined = combine(subject, first, second)
    if combined is None:
        return None
    both, place = combined
    alone = measure(subject, first), measure(subject, second)
    if not (alone[0].at_site and alone[1].at_site):
        return None
    shown = tuple(frozenset(place(which, s) for s in found.shown) for which, found in enumerate(alone))
    new_by_seq = _new_findings(subject, both)
    named = tuple(bool(places.intersection(new_by_seq)) for places in shown)
    spread = [f"{seq} {rule}" for seq, new in new_by_seq.items() if seq not in shown[0] | shown[1]
              for rule in sorted(new.elements())]
    return Recall(kinds=(first.kind, second.kind), what=(first.what, second.what),
                  named=(named[0], named[1]), follow_on=len(spread), follow_rules=tuple(spread))


def recalls(subjects: Sequence[Subject], count: int, seed: int = 0, kinds: Sequence[str] = KINDS) -> list[Recall]:
    """`count` pairs of independent mistakes (`PAIR_GAP` apart, different pieces, each named
    alone) spread over the logs in turn, kinds taken in turn for each of the two, each measured."""
    rng = random.Random(seed)
    pairs = [(a, b) for a in kinds for b in kinds]
    out: list[Recall] = []
    turn = 0
    misses = 0
    live = [s for s in subjects if len(s.movable) > PAIR_GAP[0]]
    while len(out) < count and live and misses < 200 * len(pairs) * len(live):
        subject = live[turn % len(live)]
        kind1, kind2 = pairs[(turn // len(live)) % len(pairs)]
        seq1 = rng.choice(subject.movable)
        later = [s for s in subject.movable if PAIR_GAP[0] <= s - seq1 <= PAIR_GAP[1]]
        first = MUTATORS[kind1](subject, seq1, rng)
        second = MUTATORS[kind2](subject, rng.choice(later), rng) if later and first is not None else None
        found = recall(subject, first, second) if first is not None and second is not None else None
        turn += 1
        if found is None:
            misses += 1
            continue
        misses = 0
        out.append(found)
    return out
