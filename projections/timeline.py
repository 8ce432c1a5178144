"""Scrubbing: the state at any event of a match in at most K applies.

The Timeline folds the log once and keeps every K-th Step; a Step is a few references
(states share structure), so snapshots cost little and `state_at` is a snapshot plus at
most K-1 applies.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import msgspec

from events.base import Event
from events.shared import MatchStarted, Retracted
from projections.replay import Fold, Step, replay
from projections.words import words
from rulesets.protocol import Violation
from rulesets.registry import Rules

DEFAULT_EVERY = 64


class Timeline:
    """Random access to the states of one log; also keeps every event's violations."""

    def __init__(self, events: Sequence[Event], rules: Rules, *, every: int = DEFAULT_EVERY, audit: bool = True) -> None:
        if not events or not isinstance(events[0], MatchStarted):
            raise ValueError("a log starts with MatchStarted")
        self.events = events
        self.rules = rules
        self.every = every
        self.audit = audit
        self.violations: list[tuple[Violation, ...]] = []
        self.voided: dict[int, int] = {}
        """Retracted seq -> the seq it voided."""
        self.said: list[str] = []
        """Each event in words, read in the state before it (`projections.words`)."""
        self._snapshots: list[Step] = []
        # Undo stacks share structure, so snapshots holding them would keep every state of
        # the match alive; only a log with a Retracted in it needs them.
        keep_undo = any(isinstance(event, Retracted) for event in events)
        before = None
        for step in replay(events, rules, audit=audit):
            self.said.append(words(rules, before, step.event))
            before = step.state
            self.violations.append(step.violations)
            if step.voided is not None:
                self.voided[step.event.seq] = step.voided
            if step.event.seq % every == 0:
                self._snapshots.append(step if keep_undo else msgspec.structs.replace(step, undo=None))

    def __len__(self) -> int:
        return len(self.events)

    @property
    def last_seq(self) -> int:
        """Seq of the last event."""
        return len(self.events) - 1

    def curves(self) -> dict[str, list[float | None]]:
        """Each of the game's metrics (`Ruleset.metrics`) after every event, in seq order:
        how the score went, for a chart where the game draws no board (None where a metric
        is not given yet). Folded again on each call: a page asks once per match."""
        metrics, params = self.rules.ruleset.metrics, self.rules.params
        rows = [metrics(params, step.state) for step in replay(self.events, self.rules, audit=False)]
        names = list(dict.fromkeys(name for row in rows for name in row))
        return {name: [row.get(name) for row in rows] for name in names}

    def steps(self, start: int, stop: int) -> Iterator[Step]:
        """The steps of events `start` up to `stop` (exclusive), each equal to `state_at`'s,
        folded once from one snapshot per stretch of `every` events rather than once each."""
        if not 0 <= start <= stop <= len(self.events):
            raise IndexError(f"events {start}..{stop} are outside this log (0..{self.last_seq})")
        seq = start
        while seq < stop:
            block = (seq // self.every) * self.every
            end = min(block + self.every, stop)
            step = self._snapshots[seq // self.every]
            # As in `state_at`: a stretch with a finding in it is folded with the checks (a
            # fold with them gives the same states as one without up to the first finding).
            flagged = self.audit and (bool(step.resync) or any(self.violations[block:end]))
            fold = Fold(self.rules, audit=flagged)
            for at in range(block, end):
                if at > block:
                    step = fold(step, self.events[at])
                if at >= seq:
                    yield Step(step.event, step.state, self.violations[at], self.voided.get(at), step.undo)
            seq = end

    def state_at(self, seq: int) -> Step:
        """The step at event `seq` (the state after it); at most `every` applies."""
        if not 0 <= seq < len(self.events):
            raise IndexError(f"seq {seq} is outside this log (0..{self.last_seq})")
        start = (seq // self.every) * self.every
        step = self._snapshots[seq // self.every]
        # A refused event lets the next one resynchronise the replay (`Step.resync`), which
        # takes the checks: only a stretch with a finding in it is folded with them.
        flagged = self.audit and (bool(step.resync) or any(self.violations[start : seq + 1]))
        fold = Fold(self.rules, audit=flagged)
        for event in self.events[start + 1 : seq + 1]:
            step = fold(step, event)
        return Step(step.event, step.state, self.violations[seq], self.voided.get(seq), step.undo)
