"""Matches in progress: appends answered with their audit, and what followers have not seen.

A long-running process (the HTTP service) keeps, per match it has touched, its audited fold
(`projections.read.foldcache.Folded`: the step after the last line folded, and the findings so
far), so the audit of a new event costs that event, not a replay of the log. The fold is
kept in the store's cache after each append, so after a restart a match is taken up from
there, not folded again. The log stays the only source of truth: the cursor catches up from
the store's tail, so events appended by another process or the CLI are folded (and streamed) too.

Live findings are what the rules said when each event arrived; a later Retracted or
ruling changes the full audit (`Workspace.audit`), not what was said at the time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from events.base import Event
from events.batches import BatchLog
from events.codec import decode_drafts
from events.errors import ConflictError, LogFormatError, TabletapeError
from events.journal import Journal, Written
from events.shared import MatchStarted
from projections.read.foldcache import Folded, NeedsHistory, keep_audit, keep_fold
from projections.resultcache import ResultCache
from projections.workspace import Workspace
from rulesets.protocol import Progress, Violation
from rulesets.view import BoardView

KEEP_MATCHES = 256
"""Matches kept folded at once (each holds its events and one state); the least recently
used is dropped, and folded again from its log if it comes back."""

KEEP_EVERY = 256
"""Lines a live fold goes on between two copies kept in the store's cache: a restart after a
crash folds at most this many lines again (a copy on every append cost eight times the append)."""


class StaleSeqError(ConflictError):
    """The expected last seq is not the log's last seq: nothing was written."""

    def __init__(self, message: str, last_seq: int) -> None:
        super().__init__(message)
        self.last_seq = last_seq


def _stale(match_id: str, expected_seq: int, last: int) -> StaleSeqError:
    return StaleSeqError(f"expected last seq {expected_seq}, but match {match_id!r} is at {last}; nothing was written", last)


class Appended(msgspec.Struct, frozen=True, kw_only=True):
    """Events as stored, with what the rules found in them when they arrived."""

    match_id: str
    events: list[Event]
    findings: list[Violation]
    last_seq: int


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """The state at one event as one seat saw it (seat None: everything, for full tokens)."""

    match_id: str
    seq: int
    last_seq: int
    event_type: str
    seat: str | None
    progress: Progress
    view: BoardView
    state: Any = None
    """The whole state; only in a view that may see everything (it holds every hand)."""


class _Cursor:
    """One match's audited fold (the step after its last folded line, its findings), with
    a lock: several requests may catch it up at once."""

    def __init__(self, match_id: str, folded: Folded, log: Journal | BatchLog) -> None:
        self.match_id = match_id
        self.log = log  # looked up once: a log's reader is its path, and the lookup checks the file
        self.folded = folded
        self.kept = folded.events
        # Lines the copy in the store's cache holds (`Workspace.folded` kept it as folded).
        self.audited = -1
        # Lines of the audit kept in the store's cache by `put_down` (none yet).
        self.lock = threading.Lock()

    def keep(self, cache: ResultCache) -> None:
        """Keep the fold in the store's cache if it moved since the copy there."""
        if self.folded.events != self.kept and keep_fold(cache, self.match_id, self.folded):
            self.kept = self.folded.events

    def put_down(self, cache: ResultCache) -> None:
        """The match leaves this process (the service stops, or keeps others): keep its fold,
        and the audit of the lines it holds, so that the next process goes on from the fold
        and a sync or `audit` of the log as it stands reads the audit instead of checking
        every event again. Not at every copy of the fold: the log is still growing then."""
        self.keep(cache)
        if self.folded.events != self.audited:
            keep_audit(cache, self.folded.rules, self.folded.digest, self.folded)
            self.audited = self.folded.events


class LiveMatches:
    """Appends with live audit, and catch-up reads for followers, over one Workspace."""

    def __init__(self, workspace: Workspace, *, keep: int = KEEP_MATCHES, keep_every: int = KEEP_EVERY) -> None:
        self.ws = workspace
        self.keep = keep
        self.keep_every = keep_every
        self._cursors: OrderedDict[str, _Cursor] = OrderedDict()
        self._lock = threading.Lock()

    def append(self, match_id: str, drafts: Sequence[dict[str, Any]], *, expected_seq: int, where: str = "events") -> Appended:
        """Append draft events (plain JSON objects) after `expected_seq`; all or nothing.

        StaleSeqError (with the current last seq) if someone appended first.
        """
        cursor = self._cursor(match_id)  # the match looked up once: its codec and last seq are the fold's
        lines = b"\n".join(msgspec.json.encode(draft) for draft in drafts)
        events = decode_drafts(lines, cursor.folded.rules.ruleset.codec, where=where)
        if len(events) != len(drafts):
            raise LogFormatError(where, None, "every event must be a JSON object with a type", field="events")
        if expected_seq < cursor.folded.last_seq:  # logs only grow: a loser learns it without the writer's lock and fsync
            raise _stale(match_id, expected_seq, self.ws.store.last(match_id)[0])
        try:
            written = self.ws.append_events(match_id, events, expected_seq=expected_seq, where=where)
        except ConflictError as error:  # the check that counts: under the store's lock
            raise _stale(match_id, expected_seq, self.ws.store.last(match_id)[0]) from error
        last = written[-1].seq if written else expected_seq
        return Appended(match_id=match_id, events=written,
                        findings=self._findings(match_id, cursor, [event.seq for event in written], last, written),
                        last_seq=last)

    def since(self, match_id: str, after_seq: int) -> Appended:
        """Events after `after_seq` and their live findings: what a follower has not seen,
        and the log's last seq (never `after_seq` echoed: a follower ahead of the log is told
        where it is)."""
        events = self.ws.tail(match_id, after_seq)
        if not events:
            return Appended(match_id=match_id, events=[], findings=[], last_seq=self.ws.store.last(match_id)[0])
        findings = self._findings(match_id, self._cursor(match_id), [event.seq for event in events], events[-1].seq)
        return Appended(match_id=match_id, events=events, findings=findings, last_seq=events[-1].seq)

    def close(self) -> None:
        """Put every match down (the service stops): the next process takes each up from where
        this one left it, and a sync reads each one's audit."""
        with self._lock:
            cursors = list(self._cursors.values())
        for cursor in cursors:
            with cursor.lock:
                cursor.put_down(self.ws.cache)

    def _findings(self, match_id: str, cursor: _Cursor, seqs: Sequence[int], upto: int,
                  written: Written[Event] | None = None) -> list[Violation]:
        """What the rules found in the events `seqs`, once the cursor has folded up to `upto`.

        `written`: what this process's append has just written. When the cursor stands right
        before it, its lines are folded as written (the bytes the log holds for them); else
        another writer came between, and the cursor catches up from the log, these included."""
        with cursor.lock:
            if cursor.folded.last_seq < upto:
                follows = written and written[0].seq == cursor.folded.last_seq + 1
                self._catch_up(match_id, cursor, written.lines if written and follows else None)
            standing = cursor.folded.findings.standing
            return [v for seq in sorted(set(seqs)) for v in standing.get(seq, ())]

    def _catch_up(self, match_id: str, cursor: _Cursor, lines: Iterable[bytes] | None = None) -> None:
        """Fold the lines written since (`lines` if given, else read from the log); the fold
        is copied to the cache every `keep_every` lines (a copy costs far more than an
        append), when dropped, and on `close`."""
        log, folded = cursor.log, cursor.folded
        try:
            folded.read(log.tail(folded.last_seq) if lines is None else lines, folded.rules.ruleset.codec, str(log.path))
        except NeedsHistory:  # an undo reaching past what the kept fold held
            cursor.folded = self.ws.folded(match_id)
            cursor.kept = cursor.folded.events
            return
        if folded.events - cursor.kept >= self.keep_every:
            cursor.keep(self.ws.cache)

    def _cursor(self, match_id: str) -> _Cursor:
        """The match's cursor, folded from line 0 (or its kept fold) on first use."""
        with self._lock:
            cursor = self._cursors.get(match_id)
            if cursor is not None:
                self._cursors.move_to_end(match_id)
                return cursor
        cursor = _Cursor(match_id, self.ws.folded(match_id), self.ws.store.log(match_id))
        dropped: list[_Cursor] = []
        with self._lock:
            cursor = self._cursors.setdefault(match_id, cursor)
            while len(self._cursors) > self.keep:
                dropped.append(self._cursors.popitem(last=False)[1])
        for old in dropped:
            with old.lock:
                old.put_down(self.ws.cache)
        return cursor


def check_seat(ws: Workspace, match_id: str, seat: str | None) -> MatchStarted:
    """The match's header, once `seat` (if given) is known to be one of its seats."""
    header = ws.header(match_id)
    if seat is not None and seat not in header.seats:
        raise LogFormatError("seat", None, f"match {match_id!r} has no seat {seat!r}; seats: {', '.join(header.seats)}", field="seat")
    return header


def seat_view(ws: Workspace, match_id: str, seq: int | None, seat: str | None, *, sees_all: bool) -> SeatView:
    """The state at `seq` (default: the last) drawn for `seat` by the game's own `view`.

    A view that may not see everything never carries the raw state or the event (a draw
    or a hand would show in them); seat None means every seat, which needs `sees_all`.
    """
    header = check_seat(ws, match_id, seat)
    if seat is None and not sees_all:
        raise TabletapeError("a seat view needs a seat")
    last = ws.store.last(match_id)[0]
    step = ws.state_at(match_id, last if seq is None else seq)
    rules = ws.rules_of_header(header)
    params = rules.params
    return SeatView(
        match_id=match_id, seq=step.event.seq, last_seq=last, event_type=type(step.event).__name__, seat=seat,
        progress=rules.ruleset.progress(params, step.state), view=rules.ruleset.view(params, step.state, seat),
        state=step.state if sees_all and seat is None else None,
    )
