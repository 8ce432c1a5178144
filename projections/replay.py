"""Folding a log through its ruleset, one event at a time, in constant memory.

`advance` is the whole fold: a pure function from a `Cursor` (the game state plus a
bounded, structure-shared undo stack for `Retracted`) and one event to the next cursor.
`replay` streams it over a log; `Timeline` keeps cursors every K events to scrub.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import msgspec

from events.base import Event
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from rulesets.protocol import Violation
from rulesets.registry import Rules

UNDO_WINDOW = 512
"""How many of the latest events a Retracted can still void (consecutive undos).
Deeper undo chains are reported, not guessed: no table undoes hundreds of moves."""


class Undo(NamedTuple):
    """One entry of the persistent undo stack: the state before event `seq`."""

    seq: int
    before: Any
    below: Undo | None
    depth: int


def push(stack: Undo | None, seq: int, before: Any) -> Undo:
    """Push, trimming to the newest UNDO_WINDOW entries once the stack doubles that."""
    if stack is not None and stack.depth >= 2 * UNDO_WINDOW:
        stack = _trim(stack, UNDO_WINDOW)
    return Undo(seq, before, stack, 1 if stack is None else stack.depth + 1)


def _trim(stack: Undo, keep: int) -> Undo:
    """A copy of the top `keep` entries (amortised O(1) per push; old snapshots keep theirs)."""
    items: list[tuple[int, Any]] = []
    node: Undo | None = stack
    while node is not None and len(items) < keep:
        items.append((node.seq, node.before))
        node = node.below
    rebuilt: Undo | None = None
    for depth, (seq, before) in enumerate(reversed(items), start=1):
        rebuilt = Undo(seq, before, rebuilt, depth)
    assert rebuilt is not None
    return rebuilt


class Cursor(NamedTuple):
    """Everything the fold carries: the state after the last event, and what undo needs."""

    state: Any
    undo: Undo | None
    seq: int


class Step(msgspec.Struct, frozen=True, gc=False):
    """One event and the state after it, with the rules it broke (empty without audit)."""

    event: Event
    state: Any
    violations: tuple[Violation, ...] = ()
    voided: int | None = None
    """For a Retracted: the seq it voided."""


def start(rules: Rules, started: MatchStarted, *, audit: bool = True) -> tuple[Cursor, tuple[Violation, ...]]:
    """The cursor after line 0, and any problem with its seats or options."""
    ruleset = rules.ruleset
    state = ruleset.setup(rules.params, started)
    problems: list[Violation] = []
    if audit:
        problems = [Violation(seq=0, rule=f"{ruleset.name}/setup.seats", message=m) for m in ruleset.validate_start(rules.params, started)]
        if started.fingerprint and started.fingerprint != ruleset.fingerprint:
            problems.append(Violation(
                seq=0, rule="core/rules-changed", severity="info",
                message=f"recorded under rules {started.fingerprint}; replayed under {ruleset.fingerprint}: "
                        "the rules code or data changed since, so this replay may differ from the game played",
            ))
    return Cursor(state, None, 0), tuple(problems)


def advance(rules: Rules, cursor: Cursor, event: Event, *, audit: bool = True) -> tuple[Cursor, tuple[Violation, ...], int | None]:
    """Fold one event: (next cursor, violations, seq voided by a Retracted or None)."""
    if isinstance(event, Retracted):
        return _retract(rules, cursor, event)
    if isinstance(event, MatchStarted):
        problem = Violation(seq=event.seq, rule="core/log.match-started", message="MatchStarted may only be line 0")
        return Cursor(cursor.state, cursor.undo, event.seq), (problem,), None
    ruleset = rules.ruleset
    undo = push(cursor.undo, event.seq, cursor.state)
    if isinstance(event, (MatchEnded, Ruled)):
        return Cursor(cursor.state, undo, event.seq), (), None
    problems = tuple(ruleset.check(rules.params, cursor.state, event)) if audit else ()
    try:
        state = ruleset.apply(rules.params, cursor.state, event)
    except Exception as error:  # an illegal event may break a best-effort apply; a legal one must not
        if not problems and audit:
            raise
        state = cursor.state
        problems += (Violation(seq=event.seq, rule="core/replay.unplayable", severity="warning",
                               message=f"the board could not follow this event ({type(error).__name__}); the state is kept as it was"),)
    return Cursor(state, undo, event.seq), problems, None


def _retract(rules: Rules, cursor: Cursor, event: Retracted) -> tuple[Cursor, tuple[Violation, ...], int | None]:
    """"Retracted voids the latest not-yet-retracted event" (ARCHITECTURE, The log)."""
    top = cursor.undo
    if top is None or top.seq != event.target_seq:
        latest = "none" if top is None else str(top.seq)
        problem = Violation(seq=event.seq, rule="core/retract.not-latest",
                            message=f"Retracted names seq {event.target_seq}, but the latest event still in force is {latest}")
        return Cursor(cursor.state, cursor.undo, event.seq), (problem,), None
    return Cursor(top.before, top.below, event.seq), (), top.seq


def replay(events: Iterable[Event], rules: Rules, *, audit: bool = True) -> Iterator[Step]:
    """Stream a log (line 0 first) as Steps; memory stays flat however long the log."""
    iterator = iter(events)
    started = next(iterator, None)
    if not isinstance(started, MatchStarted):
        raise ValueError("a log starts with MatchStarted")
    cursor, problems = start(rules, started, audit=audit)
    yield Step(started, cursor.state, problems)
    for event in iterator:
        cursor, problems, voided = advance(rules, cursor, event, audit=audit)
        yield Step(event, cursor.state, problems, voided)
