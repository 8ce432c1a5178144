"""What goes over the wire between `tabletape serve` and its clients: request bodies and
the service's own answers, as msgspec Structs (Litestar validates and documents them;
the client decodes into them). Answers that are the Python API's own values (AuditReport,
Comparison, Note, SeatView, Appended) keep their own types.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from events.errors import LogFormatError
from events.values import INT_MAX

MAX_BATCH = 1000
"""Most events one append may carry."""

Seq = Annotated[int, msgspec.Meta(ge=0, le=INT_MAX)]
"""A seq as a request names it: a whole number a log can hold (the service reads request
bodies strictly, so `5.0` and `"5"` are refused, not read as 5)."""


class NewMatch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Start a match: `ruleset` is `game[@version or variant]`, seats map seat -> player."""

    ruleset: str
    seats: dict[str, str]
    title: str = ""
    options: dict[str, Any] = {}
    match_id: str | None = None


Drafts = Annotated[list[dict[str, Any]], msgspec.Meta(max_length=MAX_BATCH)]


class AppendEvents(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One `event` or a batch of `events` (draft lines: type, by and the event's fields),
    appended only if the match's last seq is still `expected_seq`."""

    expected_seq: Seq
    event: dict[str, Any] | None = None
    events: Drafts | None = None

    def drafts(self) -> list[dict[str, Any]]:
        """The events to append; exactly one of `event` and `events` must be given."""
        if (self.event is None) == (self.events is None):
            raise LogFormatError("body", None, "give either `event` (one) or `events` (a batch)", field="events")
        return [self.event] if self.event is not None else list(self.events or [])


class NewBranch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A what-if branch of the match, keeping its events up to `at`."""

    at: Seq
    match_id: str | None = None
    title: str = ""


class NewNote(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A note on event `from_seq` (to `to_seq` for a range)."""

    from_seq: Seq
    author: str
    text: str
    to_seq: Seq | None = None
    tags: list[str] = []
    rule: str | None = None


class NewReply(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An answer to a note."""

    author: str
    text: str


class NoteEdit(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Fields left out (None) stay as they are; rule "" clears the rule."""

    author: str
    text: str | None = None
    tags: list[str] | None = None
    rule: str | None = None


class MatchSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A match's header in brief, with its last seq (the next append's expected seq)."""

    match_id: str
    ruleset: str
    version: str
    source: str
    title: str
    seats: dict[str, str]
    last_seq: int


class Verified(msgspec.Struct, frozen=True, kw_only=True):
    """The hash chain check; `message` names the first bad line."""

    match_id: str
    ok: bool
    lines: int
    message: str


class Health(msgspec.Struct, frozen=True, kw_only=True):
    """The service is up; how many matches its store holds."""

    status: str
    matches: int
