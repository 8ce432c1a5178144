"""What a player of a match's recording needs at every event, from one seat's eyes.

A browser that scrubs a match (the Replay page's board, later the service) is handed every
event's frame once and steps through them itself. A frame is the game's own `BoardView` for
one seat (the view hides what that seat cannot see), the event in words, where the game
stands and what broke there. `frames` reads a `Timeline` and nothing else: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import msgspec

from projections.read.timeline import Timeline
from rulesets.protocol import Violation
from rulesets.view import BoardView


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """A violation at the frame's event as a page shows it."""

    severity: str
    rule: str
    message: str
    """Empty in a seat's frames: a message may name a card the seat cannot see."""


class Frame(msgspec.Struct, frozen=True, kw_only=True):
    """One event of a match as one seat (or the whole table) sees it after the event."""

    seq: int
    view: BoardView
    said: str
    """The event in the game's words; in a seat's frames only its kind and who made it, since
    the words of a draw or a deal name the cards drawn or dealt."""
    by: str
    """Who made the event, or `the table`."""
    where: str
    """`turn 3 · round 1 · phase main · to act: red`."""
    clock: str
    """How far into the match the event was written (`0:12:05`); empty without times, or for
    an event stamped before the match started (a log put together from others)."""
    findings: tuple[Finding, ...]
    undone: bool
    """The table undid this event later (a Retracted names it)."""


def frames(timeline: Timeline, seat: str | None, start: int = 0, stop: int | None = None, *,
           violations: Iterable[Violation] | None = None) -> Iterator[Frame]:
    """The frames of events `start` up to `stop` (exclusive; None: through the last event), as
    `seat` sees them (None: the whole table). Each is read in the state `Timeline.state_at`
    gives, folded once from the nearest snapshot rather than once per event. `violations`:
    the audit's findings (`AuditReport.violations`: retracted events' dropped, the table's
    rulings applied); None takes each event's own from the fold."""
    rules = timeline.rules
    found: dict[int, list[Violation]] | None = None
    if violations is not None:
        found = {}
        for violation in violations:
            found.setdefault(violation.seq, []).append(violation)
    ruleset, params = rules.ruleset, rules.params
    undone = set(timeline.voided.values())
    opened = timeline.events[0].at
    for step in timeline.steps(start, timeline.last_seq + 1 if stop is None else stop):
        event, seq = step.event, step.event.seq
        progress = ruleset.progress(params, step.state)
        said = timeline.said[seq] if seat is None else type(event).__name__ + (f" by {event.by}" if event.by else "")
        yield Frame(
            seq=seq,
            view=ruleset.view(params, step.state, seat),
            said=said,
            by=event.by or "the table",
            where=f"turn {progress.turn} · round {progress.round} · phase {progress.phase} · to act: {progress.actor or '-'}",
            clock=_clock(int((event.at - opened).total_seconds())) if event.at and opened and event.at >= opened else "",
            findings=tuple(Finding(severity=v.severity, rule=v.rule, message=v.message if seat is None else "")
                           for v in (timeline.violations[seq] if found is None else found.get(seq, ()))),
            undone=seq in undone,
        )


def _clock(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
