"""Folding a log through its ruleset, one event at a time, in constant memory.

`Fold` is the whole fold: a pure function from the previous `Step` (the game state plus a
bounded, structure-shared undo stack for `Retracted`) and one event to the next Step,
bound once to a ruleset version so the per-event path does no lookups it can do once.
`replay` streams it over a log; `Timeline` keeps every K-th Step to scrub; the warehouse
sync folds event by event with the same object; `advance` is a one-off step (the recorder).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, Generic, TypeAlias, TypeVar

import msgspec

from events.base import Event, decision_fields, same_event
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from rulesets.protocol import P, Ruleset, Violation
from rulesets.registry import Rules

S = TypeVar("S")
"""A game's state: whatever its `setup` returns and its `apply` folds. The fold never looks
inside one; it only keeps them, hands them back to the game, and tells them apart by their
encoding (`Fold._new`)."""

Apply: TypeAlias = Callable[[P, S, Event], S]
"""`Ruleset.apply` of a game with params P and state S: pure, the state after the event."""

Check: TypeAlias = Callable[[P, S, Event], list[Violation]]
"""`Ruleset.check` of that game: the rules the event breaks in the state before it."""

UNDO_WINDOW = 64
"""How many of the latest events consecutive Retracteds can always walk back. Deeper
undo chains are reported, not guessed: a table takes back a move or a few, not sixty.

Each entry keeps a state alive, so the window is the replay's working set: measured
(`benchmarks/`), 512 entries made a replay about 9% slower than 64, for undo chains
no playtest makes."""

_TRIM_AT = 4 * UNDO_WINDOW
"""The stack is cut back to the window when it reaches this depth: a cut copies the
window, so cutting rarely keeps the copy to a third of a node per event."""

_TABLE_ONLY = frozenset({MatchEnded, Ruled})
"""Shared events that change what the table said, not the board."""


class Undo(msgspec.Struct, Generic[S], frozen=True, gc=False):
    """One entry of the persistent undo stack: the state before event `seq`."""

    seq: int
    before: S
    below: Undo[S] | None
    depth: int
    event: Event | None = None
    """The event itself, so a step the table left out a few events back can be tried there."""


def _trim(stack: Undo[S], keep: int) -> Undo[S]:
    """A copy of the top `keep` entries (older snapshots keep the entries they share)."""
    items: list[tuple[int, S, Event | None]] = []
    node: Undo[S] | None = stack
    while node is not None and len(items) < keep:
        items.append((node.seq, node.before, node.event))
        node = node.below
    rebuilt: Undo[S] | None = None
    for depth, (seq, before, event) in enumerate(reversed(items), start=1):
        rebuilt = Undo(seq, before, rebuilt, depth, event)
    assert rebuilt is not None
    return rebuilt


Early: TypeAlias = tuple[Event, S, frozenset[str]]
"""A refused event, the state the table had without it (carried along), the rules it broke."""


class Guess(msgspec.Struct, Generic[S], frozen=True, gc=False):
    """A reading that guesses what a refused event really did: the same decision with one
    detail changed, one of the several the rules accept there. A guess can make an unrelated
    later mistake legal (a card "really" summoned next to where another card is later summoned
    diagonally), so only a later event about the same pieces confirms it. Any other event the
    followed state refuses and only a guess accepts is still named, as the followed state sees
    it; the replay goes on from the guess (`_follow`)."""

    state: S
    names: frozenset[str]
    """The pieces the guess is about: the names the written event and the guessed one give."""


def names(event: Event) -> frozenset[str]:
    """What a decision is about: the names its own fields give (a card, a hero, a unit, a
    building), who made it aside."""
    found: set[str] = set()
    for field in decision_fields(type(event)):
        if field == "by":
            continue
        value = getattr(event, field)
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, tuple):
            found.update(v for v in value if isinstance(v, str))
    return frozenset(found)


Reading: TypeAlias = S | Guess[S]
"""Where the table may really be after a refused event: a state, or a `Guess` at one."""


def _reading(candidate: Reading[S]) -> S:
    """The state of a reading, guessed or not."""
    return candidate.state if isinstance(candidate, Guess) else candidate


def _as(candidate: Reading[S], state: S) -> Reading[S]:
    """`state` as a reading of the same kind as `candidate` (a guess stays a guess)."""
    return Guess(state, candidate.names) if isinstance(candidate, Guess) else state


class Step(msgspec.Struct, Generic[S], frozen=True, gc=False, kw_only=True):
    """One event and the state after it, with the rules it broke (empty without audit)."""

    event: Event
    state: S
    violations: tuple[Violation, ...] = ()
    voided: int | None = None
    """For a Retracted: the seq it voided."""
    undo: Undo[S] | None = None
    """What a later Retracted needs (internal to the fold)."""
    resync: tuple[Reading[S], ...] = ()
    """After an event the rules refuse: the states the table may really have been in after
    it (the event not done, or done after a step the table left out; a `Guess` where it was
    written wrong). The next event picks the one it is legal in, so the replay resynchronises
    instead of reporting every later event (internal to the audited fold)."""
    past_end: bool = False
    """Play went on after the rules ended the game, and that was already reported once."""
    resync_left: int = 0
    """For how many more events the `resync` states are carried along (each follows every
    event legal in it), so a lost step that shows a few events later is still found."""
    early: tuple[Early[S], ...] = ()
    """The refused events that began the resync (newest first, at most two), each with the
    state without it carried along and the rules it broke where written: one may have been
    written too early (two events swapped), so a later refused event may take it as done just
    before or just after itself, where it no longer breaks those rules (internal to the
    audited fold)."""


GAME_OVER = ".game-over"
"""Every game names its "the game is already over" rule `<game>/<section>.game-over`: play the
table went on with after the end is one mistake, named at its first event only."""

RESYNC_CANDIDATES = 400
"""How many next events (legal moves or chance outcomes) are tried as a step the table left
out before a refused event. Tried only at refused events, so a clean replay never pays."""

RESYNC_SPAN = 48
"""How many events after a refused one may still resynchronise the replay to it: a step left
out often shows only when the next phase begins, and a decision written wrong only when what
it started is done (Warcraft: Frontline's research and buildings take up to three action
rounds, some 30 events, before a force or a worker shows the difference). Only the events after
a refused one pay for it: audited, the golden and demo logs took about 10% longer than with 24."""

RESYNC_OUTCOMES = 5000
"""How many outcomes of a chance step (every face of the dice rolled) are tried."""

RESYNC_KEEP = 6
"""How many resynchronised states are kept for the next event to choose from."""

RESYNC_BACK = 4
"""How many events back a step the table left out is also tried (then the events since are
folded again on top of it): a hire never written shows only when the row is refilled, three
events later, and the table's state must have had it since."""

RESYNC_BACK_CANDIDATES = 100
"""How many next events are tried at each of those earlier places."""


def _serious(problems: Iterable[Violation]) -> bool:
    """Errors and warnings make an event illegal; infos do not."""
    return any(p.severity != "info" for p in problems)


class Fold(Generic[P, S]):
    """The fold of one ruleset version, with or without the audit: `fold(prev, event)`.

    Typed over the protocol: P is the version's params and S the game's state, as its
    `Ruleset[P]` declares them; `Rules` resolves a version at run time, so a Fold made from
    one is a `Fold[Any, Any]` and the types hold inside the fold, where the states are kept."""

    __slots__ = ("_apply", "_check", "_params", "_ruleset", "_span", "audit", "resync", "rules")

    def __init__(self, rules: Rules, *, audit: bool = True, resync: bool = True) -> None:
        self.rules = rules
        self.audit = audit
        self.resync = resync
        # False: follow the log literally after a refused event (the cascade benchmark's baseline).
        self._ruleset: Ruleset[P] = rules.ruleset
        self._params: P = rules.params
        self._apply: Apply[P, S] = self._ruleset.apply
        self._check: Check[P, S] | None = self._ruleset.check if audit else None
        self._span = self._ruleset.resync_span or RESYNC_SPAN

    def first(self, started: MatchStarted) -> Step[S]:
        """The step of line 0: the set-up state, and any problem with its seats or options."""
        ruleset = self._ruleset
        state: S = ruleset.setup(self._params, started)
        problems: list[Violation] = []
        if self.audit:
            problems = [Violation(seq=0, rule=f"{ruleset.name}/setup.seats", message=m)
                        for m in ruleset.validate_start(self._params, started)]
            if started.fingerprint and started.fingerprint != ruleset.fingerprint:
                problems.append(Violation(
                    seq=0, rule="core/rules-changed", severity="info",
                    message=f"recorded under rules {started.fingerprint}; replayed under {ruleset.fingerprint}: "
                            "the rules code or data changed since, so this replay may differ from the game played",
                ))
        return Step(event=started, state=state, violations=tuple(problems))

    def __call__(self, prev: Step[S], event: Event) -> Step[S]:
        """Fold one event onto the previous step; play after the end is reported once."""
        step = self._fold(prev, event)
        if not (step.violations or prev.past_end):
            return step
        if prev.past_end:
            kept = tuple(v for v in step.violations if not v.rule.endswith(GAME_OVER))
            return msgspec.structs.replace(step, violations=kept, past_end=True)
        if any(v.rule.endswith(GAME_OVER) for v in step.violations):
            return msgspec.structs.replace(step, past_end=True)
        return step

    def applied(self, prev: Step[S], event: Event) -> Step[S]:
        """`event` applied onto the previous step and nothing more: the fold of a log whose kept
        audit says it only ever applied its events (`foldcache.follows_the_log`: nothing refused,
        nothing undone), where undo entries, checks and readings would answer nothing. The same
        states as the fold itself, without its bookkeeping per event."""
        if type(event) in _TABLE_ONLY:
            return Step(event=event, state=prev.state)
        return Step(event=event, state=self._apply(self._params, prev.state, event))

    def _fold(self, prev: Step[S], event: Event) -> Step[S]:
        """One event onto the previous step: check, apply, resynchronise."""
        kind = type(event)
        if kind is Retracted:
            return _retract(prev, event)  # type: ignore[arg-type]
        if kind is MatchStarted:
            problem = Violation(seq=event.seq, rule="core/log.match-started", message="MatchStarted may only be line 0")
            return Step(event=event, state=prev.state, violations=(problem,), undo=prev.undo)
        state = prev.state
        stack = prev.undo
        if stack is None:
            undo = Undo(event.seq, state, None, 1, event)
        else:
            if stack.depth >= _TRIM_AT:
                stack = _trim(stack, UNDO_WINDOW)
            undo = Undo(event.seq, state, stack, stack.depth + 1, event)
        if kind in _TABLE_ONLY:
            return Step(event=event, state=state, undo=undo)
        check = self._check
        if check is None:
            return Step(event=event, state=self._apply(self._params, state, event), undo=undo)
        params = self._params
        problems = tuple(check(params, state, event))
        serious = bool(problems) and _serious(problems)
        carried: tuple[Reading[S], ...] = ()
        early: tuple[Early[S], ...] = ()
        after: S | None
        if prev.resync:
            if serious:
                swapped = self._before_previous(prev.undo, event)
                resynced = _follow(self._apply, params, check, prev, event, problems, swapped)
                if resynced is not None:
                    after, found, kept = resynced
                    return Step(event=event, state=after, violations=found, undo=undo, resync=kept,
                                resync_left=prev.resync_left - 1 if kept else 0)
            if prev.resync_left > 1:
                carried = _carry(self._apply, params, check, prev.resync, event, problems)
                early = _carry_early(self._apply, params, check, prev.early, event, problems) if carried else ()
                if not serious:
                    after = _swapped(self._apply, params, check, prev, event, problems)
                    done = prev.early[0][0] if after is not None else None
                    if after is None and (again := _written_again(self._apply, params, check, prev.early, event, problems)):
                        after, done = again
                    if after is None:
                        after = self._apply(params, state, event)
                    else:  # the early event is accounted for: it is no longer early
                        early = tuple(e for e in early if e[0] is not done)
                    return Step(event=event, state=after, violations=problems, undo=undo, resync=carried,
                                resync_left=prev.resync_left - 1 if carried else 0, early=early)
        try:
            after = self._apply(params, state, event)
        except Exception as error:  # an illegal event may break a best-effort apply; a legal one must not
            if not problems:
                raise
            after = state
            problems += (Violation(seq=event.seq, rule="core/replay.unplayable", severity="warning",
                                   message=f"the board could not follow this event ({type(error).__name__}); "
                                           "the state is kept as it was"),)
        if not (serious and self.resync):
            return Step(event=event, state=after, violations=problems, undo=undo)
        # a mistake of its own that no earlier reading explains: new readings, and the earlier
        # ones it does not contradict stay (an earlier lost step may still show later)
        resync = (*self._resync(state, event, problems, prev.undo), *carried[: 4 * RESYNC_KEEP])
        broken = frozenset(p.rule for p in problems if p.severity != "info")
        return Step(event=event, state=after, violations=problems, undo=undo, resync=resync,
                    resync_left=self._span, early=((event, state, broken), *early[:1]))

    def _resync(self, state: S, event: Event, problems: tuple[Violation, ...],
                below: Undo[S] | None) -> tuple[Reading[S], ...]:
        """Where the table may really be after a refused event, each reading a state: the event
        was a stray (state unchanged); a step was left out before it (one legal move or chance
        outcome after which the event no longer breaks the rules it broke; it may still break
        others, such as a move too long after a roll never written), or, where none is, a few
        events back (`_back`); it was written wrong (the one legal event of its kind, or the
        same decision with one detail changed); or it and the event before it were written in
        the wrong order (`_before_previous`). "One table mistake gives one finding": the next
        events choose among these only if the followed state refuses them too."""
        ruleset, params, check, apply = self._ruleset, self._params, self._check, self._apply
        assert check is not None
        broken = {p.rule for p in problems if p.severity != "info"}
        missing: list[tuple[int, S]] = []
        instead: list[S] = []
        near: list[Guess[S]] = []
        compared = decision_fields(type(event))
        alike = 0
        seen: set[bytes] = set()
        outcomes = ruleset.chance(params, state)
        if outcomes is not None:  # a chance step lists every outcome: the one the table rolled is among them
            steps: Iterable[Event] = islice((e for e, _ in outcomes), RESYNC_OUTCOMES)
        else:
            steps = islice(ruleset.legal(params, state), RESYNC_CANDIDATES)
        for step in steps:
            try:
                between = apply(params, state, msgspec.structs.replace(step, seq=event.seq))
                if type(step) is type(event):
                    alike += 1
                    if _differing(step, event, compared) == 1 and len(near) < 4 * RESYNC_KEEP:
                        near.append(Guess(between, names(step) | names(event)))
                    instead.append(between)
                if len(missing) >= 4 * RESYNC_KEEP:
                    continue
                left = [p.rule for p in check(params, between, event) if p.severity != "info"]
                if broken.intersection(left):
                    continue
                after = apply(params, between, event)
            except Exception:  # a candidate the board cannot follow is no candidate
                continue
            if self._new(seen, after):
                missing.append((len(left), after))
        missing.sort(key=lambda pair: pair[0])
        # written wrong where the rules leave one choice (the hero whose turn it is), or as the
        # same decision with one detail changed (the same piece, another place): a later event
        # picks among these only where the followed state refuses it
        # no one step just before explains it cleanly: one a few events back may (`_back`), or
        # a decision written twice may never have been made twice
        explained = bool(missing) and missing[0][0] == 0
        back = () if explained else (*self._back(below, event, problems), *self._written_twice(below, event, broken))
        return (state, *(after for _, after in missing[:4 * RESYNC_KEEP]), *back, *(instead if alike == 1 else near),
                *(after for after, _ in self._before_previous(below, event)))

    def _before_previous(self, below: Undo[S] | None, event: Event) -> list[tuple[S, tuple[Violation, ...]]]:
        """The event and the one before it written in the wrong order: the state after both in
        the other order, and what the event breaks there (infos only), if the rules accept both
        in that order."""
        if below is None or below.event is None or type(below.event) in _TABLE_ONLY:
            return []
        params, check, apply = self._params, self._check, self._apply
        assert check is not None
        try:
            found = tuple(check(params, below.before, event))
            if _serious(found):
                return []
            between = apply(params, below.before, event)
            if _serious(check(params, between, below.event)):
                return []
            return [(apply(params, between, below.event), found)]
        except Exception:  # a state only guessed at may not carry these events after all
            return []

    def _back(self, below: Undo[S] | None, event: Event, problems: tuple[Violation, ...]) -> tuple[S, ...]:
        """A step left out a few events before a refused one: one legal event (or chance outcome)
        at each of the last `RESYNC_BACK` places, the events since folded again on top of it
        while the rules accept every one of them, after which `event` no longer breaks what it
        broke. Each is the state after `event` (at most `RESYNC_KEEP` per place)."""
        broken = {p.rule for p in problems if p.severity != "info"}
        tail: list[Event] = []
        out: list[S] = []
        seen: set[bytes] = set()
        node = below
        while node is not None and len(tail) < RESYNC_BACK and node.event is not None:
            tail.insert(0, node.event)
            if len(tail) > 1:  # one place back is the ordinary left-out step (`_resync`)
                out.extend(self._inserted(node.before, tail, event, broken, seen))
            node = node.below
        return tuple(out)

    def _written_twice(self, below: Undo[S] | None, event: Event, broken: set[str]) -> tuple[S, ...]:
        """An earlier decision written on two lines but made once: the rules accepted both copies
        (a worker moved twice where there were two to move), and only now an event shows the
        table had one fewer done. For the newest copy of each repeat within the undo window
        (at most `RESYNC_KEEP`), the state without it, the events since folded again on top,
        after which `event` no longer breaks what it broke."""
        out: list[S] = []
        seen: set[bytes] = set()
        tail: list[Event] = []
        tried = 0
        node = below
        while node is not None and node.event is not None and len(tail) < UNDO_WINDOW and tried < RESYNC_KEEP:
            lower = node.below
            copy = node.event
            if (lower is not None and lower.event is not None and same_event(copy, lower.event)
                    and not (tail and same_event(tail[0], copy))):
                tried += 1
                after = self._refolded(node.before, tail, event, broken)
                if after is not None and self._new(seen, after):
                    out.append(after)
            tail.insert(0, copy)
            node = lower
        return tuple(out)

    def _refolded(self, base: S, tail: list[Event], event: Event, broken: set[str]) -> S | None:
        """`tail` folded again on `base`, then `event`: the state after it, if the rules accept
        every event of `tail` there and `event` no longer breaks any of `broken`; else None."""
        params, check, apply = self._params, self._check, self._apply
        assert check is not None
        state = base
        try:
            for done in tail:
                if type(done) in _TABLE_ONLY:
                    continue
                if _serious(check(params, state, done)):
                    return None
                state = apply(params, state, done)
            if broken.intersection(p.rule for p in check(params, state, event) if p.severity != "info"):
                return None
            return apply(params, state, event)
        except Exception:  # a state only guessed at may not carry these events after all
            return None

    def _inserted(self, base: S, tail: list[Event], event: Event, broken: set[str], seen: set[bytes]) -> list[S]:
        """States after `event` where one step was done at `base`, before the events of `tail`."""
        ruleset, params, apply = self._ruleset, self._params, self._apply
        outcomes = ruleset.chance(params, base)
        steps: Iterable[Event] = (islice((e for e, _ in outcomes), RESYNC_BACK_CANDIDATES) if outcomes is not None
                                  else islice(ruleset.legal(params, base), RESYNC_BACK_CANDIDATES))
        found: list[S] = []
        for step in steps:
            try:
                state = apply(params, base, msgspec.structs.replace(step, seq=tail[0].seq))
            except Exception:  # a candidate the board cannot follow is no candidate
                continue
            after = self._refolded(state, tail, event, broken)
            if after is not None and self._new(seen, after):
                found.append(after)
                if len(found) >= RESYNC_KEEP:
                    break
        return found

    @staticmethod
    def _new(seen: set[bytes], state: object) -> bool:
        """Is this a state not seen yet? Candidates are told apart by the whole state (which
        unit did what, which card was drawn), so the one the table was in is kept."""
        mark = msgspec.msgpack.encode(state)
        if mark in seen:
            return False
        seen.add(mark)
        return True


def _differing(one: Event, other: Event, names: tuple[str, ...]) -> int:
    """How many of `names` two events of one kind disagree on."""
    return sum(1 for name in names if getattr(one, name) != getattr(other, name))


def _count(problems: Iterable[Violation]) -> int:
    return sum(1 for p in problems if p.severity != "info")


def _follow(apply: Apply[P, S], params: P, check: Check[P, S], prev: Step[S], event: Event,
            problems: tuple[Violation, ...], swapped: list[tuple[S, tuple[Violation, ...]]],
            ) -> tuple[S, tuple[Violation, ...], tuple[Reading[S], ...]] | None:
    """The reading in which `event` breaks the fewest rules, if fewer than `problems` (what it
    breaks in the followed state): the state after it, what it still breaks there, and the
    other readings that explain it as well (each with it applied), which stay candidates: one
    event may not tell two places apart, a later one may. A refused event written too early
    comes first (done just before or just after this one), so both events of a swap keep their
    effect; this event and the one before it swapped (`swapped`) comes after.

    A reading that only guesses, and that nothing about `event` confirms, comes last and does
    not clear `event`: a `Guess` (one of several details) that `event` names none of the pieces
    of, and an earlier refused event read as written more than `RESYNC_BACK` events early, about
    other pieces. "One table mistake gives one finding" must not hide a second mistake: an
    event the followed state refuses is named unless a reading about what it touches explains
    it. The replay still goes on from such a reading, so if it was right, nothing more follows."""
    least = _count(problems)
    readings: list[tuple[int, Reading[S], tuple[Violation, ...]]] = []
    about = names(event)
    unconfirmed: list[tuple[int, Reading[S], tuple[Violation, ...]]] = []
    for early in prev.early:
        refused = early[0]
        guessed = event.seq - refused.seq > RESYNC_BACK and names(refused).isdisjoint(about)
        for after, found in _late(apply, params, check, early, event):
            if guessed:  # written this far early is a guess: only an event about the same pieces confirms it
                unconfirmed.append((_count(found), after, problems))
            else:
                readings.append((_count(found), after, found))
    for candidate in prev.resync:
        state = _reading(candidate)
        found = tuple(check(params, state, event))
        if _count(found) >= least:
            continue
        try:
            reading = _as(candidate, apply(params, state, event))
        except Exception:  # a state only guessed at may not carry this event after all
            continue
        if type(candidate) is Guess and candidate.names.isdisjoint(about):
            unconfirmed.append((_count(found), reading, problems))
        else:
            readings.append((_count(found), reading, found))
    # a swap with the event before is still a mistake here: it is reported as the followed state
    # sees it, and it is taken only where no other reading explains the event as well; so is an
    # event only an unconfirmed guess fits, taken only where nothing else does
    readings.extend((_count(found), after, problems) for after, found in swapped)
    readings.extend(unconfirmed)
    readings = [r for r in readings if r[0] < least]
    if not readings:
        return None
    fewest = min(r[0] for r in readings)
    best = [r for r in readings if r[0] == fewest]
    return _reading(best[0][1]), best[0][2], tuple(r[1] for r in best[1 : 4 * RESYNC_KEEP + 1])


def _late(apply: Apply[P, S], params: P, check: Check[P, S], early: Early[S],
          event: Event) -> list[tuple[S, tuple[Violation, ...]]]:
    """`early` (a refused event, the state without it, the rules it broke) read as written too
    early: done just before `event`, or just after it, wherever it no longer breaks those rules.
    Each reading: the state after both, and what `event` breaks in it."""
    refused, without, broken = early

    def cleared(state: S) -> bool:
        return not any(p.rule in broken for p in check(params, state, refused) if p.severity != "info")

    out: list[tuple[S, tuple[Violation, ...]]] = []
    try:
        if cleared(without):
            between = apply(params, without, refused)
            found = tuple(check(params, between, event))
            out.append((apply(params, between, event), found))
    except Exception:  # a state only guessed at may not carry these events after all
        pass
    try:
        found = tuple(check(params, without, event))
        after = apply(params, without, event)
        if cleared(after):
            out.append((apply(params, after, refused), found))
    except Exception:
        pass
    return out


def _swapped(apply: Apply[P, S], params: P, check: Check[P, S], prev: Step[S], event: Event,
             problems: tuple[Violation, ...]) -> S | None:
    """Right after a refused event that the rules accept once this one is done (two events
    written in the wrong order), the state after both in the order the rules accept, if this
    one breaks no more there; else None (the followed state stands)."""
    if not prev.early or prev.early[0][0] is not prev.event:
        return None
    refused, without, _ = prev.early[0]
    try:
        if _count(check(params, without, event)) > _count(problems):
            return None
        after = apply(params, without, event)
        if _serious(check(params, after, refused)):
            return None
        return apply(params, after, refused)
    except Exception:  # a state only guessed at may not carry these events after all
        return None


def _written_again(apply: Apply[P, S], params: P, check: Check[P, S], early: tuple[Early[S], ...], event: Event,
                   problems: tuple[Violation, ...]) -> tuple[S, Event] | None:
    """A refused event written again, the same decision, where the rules accept it: it was done
    once, here (written early the first time), so the state is the one without the first
    copy with this one applied (and the first copy); else None."""
    for refused, without, _ in early:
        if not same_event(refused, event):
            continue
        try:
            if _count(check(params, without, event)) <= _count(problems):
                return apply(params, without, event), refused
        except Exception:  # a state only guessed at may not carry this event after all
            continue
    return None


def _carry_early(apply: Apply[P, S], params: P, check: Check[P, S], early: tuple[Early[S], ...], event: Event,
                 problems: tuple[Violation, ...]) -> tuple[Early[S], ...]:
    """Each state without an early event, carried over `event` while it accepts it as well as
    the followed state does."""
    kept: list[Early[S]] = []
    for refused, without, broken in early:
        try:
            if _count(check(params, without, event)) <= _count(problems):
                kept.append((refused, apply(params, without, event), broken))
        except Exception:  # a state only guessed at may not carry this event after all
            continue
    return tuple(kept)


def _carry(apply: Apply[P, S], params: P, check: Check[P, S], candidates: tuple[Reading[S], ...], event: Event,
           problems: tuple[Violation, ...]) -> tuple[Reading[S], ...]:
    """The candidate states in which `event` breaks no more rules than in the followed state,
    each with it applied."""
    kept: list[Reading[S]] = []
    most = _count(problems)
    for candidate in candidates:
        state = _reading(candidate)
        if _count(check(params, state, event)) > most:
            continue
        try:
            kept.append(_as(candidate, apply(params, state, event)))
        except Exception:  # a state only guessed at may not carry this event after all
            continue
    return tuple(kept)


def advance(rules: Rules, prev: Step[S], event: Event, *, audit: bool = True) -> Step[S]:
    """Fold one event onto the previous step (one-off; a loop keeps a `Fold`)."""
    fold: Fold[Any, S] = Fold(rules, audit=audit)
    return fold(prev, event)


def _retract(prev: Step[S], event: Retracted) -> Step[S]:
    """"Retracted voids the latest not-yet-retracted event" (ARCHITECTURE, The log)."""
    top = prev.undo
    if top is None or top.seq != event.target_seq:
        latest = "none" if top is None else str(top.seq)
        problem = Violation(seq=event.seq, rule="core/retract.not-latest",
                            message=f"Retracted names seq {event.target_seq}, but the latest event still in force is {latest}")
        return Step(event=event, state=prev.state, violations=(problem,), undo=prev.undo)
    return Step(event=event, state=top.before, voided=top.seq, undo=top.below)


def replay(events: Iterable[Event], rules: Rules, *, audit: bool = True, resync: bool = True) -> Iterator[Step[Any]]:
    """Stream a log (line 0 first) as Steps; memory stays flat however long the log."""
    iterator = iter(events)
    started = next(iterator, None)
    if not isinstance(started, MatchStarted):
        raise ValueError("a log starts with MatchStarted")
    fold: Fold[Any, Any] = Fold(rules, audit=audit, resync=resync)
    step = fold.first(started)
    yield step
    for event in iterator:
        step = fold(step, event)
        yield step
