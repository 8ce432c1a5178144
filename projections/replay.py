"""Folding a log through its ruleset, one event at a time, in constant memory.

`advance` is the whole fold: a pure function from the previous `Step` (the game state
plus a bounded, structure-shared undo stack for `Retracted`) and one event to the next
Step. `replay` streams it over a log; `Timeline` keeps every K-th Step to scrub.
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

_TABLE_ONLY = (MatchEnded, Ruled)
"""Shared events that change what the table said, not the board."""


class Undo(NamedTuple):
    """One entry of the persistent undo stack: the state before event `seq`."""

    seq: int
    before: Any
    below: Undo | None
    depth: int


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


class Step(msgspec.Struct, frozen=True, gc=False):
    """One event and the state after it, with the rules it broke (empty without audit)."""

    event: Event
    state: Any
    violations: tuple[Violation, ...] = ()
    voided: int | None = None
    """For a Retracted: the seq it voided."""
    undo: Undo | None = None
    """What a later Retracted needs (internal to the fold)."""


def first_step(rules: Rules, started: MatchStarted, *, audit: bool = True) -> Step:
    """The step of line 0: the set-up state, and any problem with its seats or options."""
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
    return Step(started, state, tuple(problems))


def advance(rules: Rules, prev: Step, event: Event, *, audit: bool = True) -> Step:
    """Fold one event onto the previous step."""
    if isinstance(event, Retracted):
        return _retract(prev, event)
    if isinstance(event, MatchStarted):
        problem = Violation(seq=event.seq, rule="core/log.match-started", message="MatchStarted may only be line 0")
        return Step(event, prev.state, (problem,), None, prev.undo)
    stack = prev.undo
    if stack is None:
        undo = Undo(event.seq, prev.state, None, 1)
    else:
        if stack.depth >= 2 * UNDO_WINDOW:
            stack = _trim(stack, UNDO_WINDOW)
        undo = Undo(event.seq, prev.state, stack, stack.depth + 1)
    if isinstance(event, _TABLE_ONLY):
        return Step(event, prev.state, (), None, undo)
    ruleset, params = rules.ruleset, rules.params
    if not audit:
        return Step(event, ruleset.apply(params, prev.state, event), (), None, undo)
    problems = tuple(ruleset.check(params, prev.state, event))
    try:
        state = ruleset.apply(params, prev.state, event)
    except Exception as error:  # an illegal event may break a best-effort apply; a legal one must not
        if not problems:
            raise
        state = prev.state
        problems += (Violation(seq=event.seq, rule="core/replay.unplayable", severity="warning",
                               message=f"the board could not follow this event ({type(error).__name__}); the state is kept as it was"),)
    return Step(event, state, problems, None, undo)


def _retract(prev: Step, event: Retracted) -> Step:
    """"Retracted voids the latest not-yet-retracted event" (ARCHITECTURE, The log)."""
    top = prev.undo
    if top is None or top.seq != event.target_seq:
        latest = "none" if top is None else str(top.seq)
        problem = Violation(seq=event.seq, rule="core/retract.not-latest",
                            message=f"Retracted names seq {event.target_seq}, but the latest event still in force is {latest}")
        return Step(event, prev.state, (problem,), None, prev.undo)
    return Step(event, top.before, (), top.seq, top.below)


def replay(events: Iterable[Event], rules: Rules, *, audit: bool = True) -> Iterator[Step]:
    """Stream a log (line 0 first) as Steps; memory stays flat however long the log."""
    iterator = iter(events)
    started = next(iterator, None)
    if not isinstance(started, MatchStarted):
        raise ValueError("a log starts with MatchStarted")
    step = first_step(rules, started, audit=audit)
    yield step
    for event in iterator:
        step = advance(rules, step, event, audit=audit)
        yield step
