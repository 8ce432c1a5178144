"""The envelope every log line shares, flattened into each event.

A line is one flat JSON object: `type` (the tag), `seq`, `at`, `by`, `prev`, then the
event's own fields. Envelope fields have defaults so a person (or another tool) can
append a draft event with only its own fields; the store stamps the rest.
"""

from __future__ import annotations

import functools
from datetime import datetime

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True, gc=False):
    """Base of every event; the tag is the class name (`HeroMoved`)."""

    seq: int = -1
    """Position in the log, 0 for MatchStarted, no gaps; -1 in a draft the store stamps."""
    at: datetime | None = None
    """UTC time the line was recorded; kept as given when a log is imported."""
    by: str | None = None
    """Seat that did it, or None for the table / the game itself."""
    prev: str = ""
    """Short hash of the previous line's bytes, so edits, reorders and deletions show."""


ENVELOPE: frozenset[str] = frozenset(Event.__struct_fields__)
"""The fields every event carries (seq, at, by, prev): stamped by the store, except `by`."""

STAMPED: frozenset[str] = frozenset({"seq", "at", "prev"})
"""What the store stamps on a line: where and when it was written, not what was done."""


@functools.cache
def decision_fields(kind: type[Event]) -> tuple[str, ...]:
    """The fields of an event kind that say what was done (by whom included)."""
    return tuple(f for f in kind.__struct_fields__ if f not in STAMPED)


def same_event(a: Event, b: Event) -> bool:
    """The same decision on two lines: same kind and fields, apart from what the store stamps."""
    kind = type(a)
    return kind is type(b) and all(getattr(a, f) == getattr(b, f) for f in decision_fields(kind))
