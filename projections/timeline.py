"""Scrubbing: the state at any event of a match in at most K applies.

The Timeline folds the log once and keeps the cursor every K events; a cursor is a few
references (states share structure), so snapshots cost little and `state_at` is a
snapshot plus at most K-1 applies.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.base import Event
from events.shared import MatchStarted
from projections.replay import Cursor, Step, advance, start
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
        self._snapshots: list[Cursor] = []
        self._build()

    def _build(self) -> None:
        cursor, problems = start(self.rules, self.events[0], audit=self.audit)  # type: ignore[arg-type]
        self._snapshots.append(cursor)
        self.violations.append(problems)
        for event in self.events[1:]:
            cursor, problems, voided = advance(self.rules, cursor, event, audit=self.audit)
            self.violations.append(problems)
            if voided is not None:
                self.voided[event.seq] = voided
            if event.seq % self.every == 0:
                self._snapshots.append(cursor)

    def __len__(self) -> int:
        return len(self.events)

    @property
    def last_seq(self) -> int:
        """Seq of the last event."""
        return len(self.events) - 1

    def state_at(self, seq: int) -> Step:
        """The step at event `seq` (the state after it); at most `every` applies."""
        if not 0 <= seq < len(self.events):
            raise IndexError(f"seq {seq} is outside this log (0..{self.last_seq})")
        cursor = self._snapshots[seq // self.every]
        for event in self.events[(seq // self.every) * self.every + 1 : seq + 1]:
            cursor, _, _ = advance(self.rules, cursor, event, audit=False)
        return Step(self.events[seq], cursor.state, self.violations[seq], self.voided.get(seq))
