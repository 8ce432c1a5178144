"""`tabletape serve`: the store over HTTP, for digital tables, phones and spectators.

Litestar routes onto the same Python API as the CLI (`Workspace`, and `Live` for appends
answered with their audit and for following a match); handlers only translate HTTP to
calls and back. Every route but the health check needs a token (events/tokens.py),
checked by one guard from the access the route declares. Every error is one JSON object
`{"error": "...", "field": "...", "status": N}`; a 409 also carries `last_seq`.
"""

from __future__ import annotations

import asyncio
import fcntl
import html
import logging
import os
import queue
import re
import signal
import sys
import threading
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, TypeVar, Union, cast, get_args, get_origin

import msgspec
from anyio import to_thread
from litestar import Litestar, MediaType, Request, Response, Router, delete, get, patch, post
from litestar.config.cors import CORSConfig
from litestar.connection import ASGIConnection
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.exceptions import (
    ClientException,
    HTTPException,
    NotAuthorizedException,
    PermissionDeniedException,
    SerializationException,
    TooManyRequestsException,
    ValidationException,
)
from litestar.handlers import BaseRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, OpenAPIRenderPlugin, YamlRenderPlugin
from litestar.params import FromPath, FromQuery, HeaderParameter, JSONBody, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.serialization import encode_json
from litestar.types import (
    HTTPRequestEvent,
    HTTPResponseBodyEvent,
    HTTPResponseStartEvent,
    Receive,
    Scope,
    Send,
)
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from dashboard.heap import settle
from dashboard.service.wire import (
    AppendEvents,
    Health,
    MatchSummary,
    NewBranch,
    NewMatch,
    NewNote,
    NewReply,
    NoteEdit,
    Verified,
)
from events.codec import repeated_key
from events.errors import (
    ConflictError,
    InvalidMatchIdError,
    LogFormatError,
    TabletapeError,
    UnknownMatchError,
    UnknownNoteError,
    UnknownRulesetError,
)
from events.journal import open_nofollow, real_folder
from events.notes import Note
from events.shared import MatchStarted
from events.tokens import Access, Grant, TokenError, Tokens
from events.values import INT_MAX, INT_MIN, MAX_DEPTH, first_problem
from projections.corpus.chances import Curve, chances
from projections.read.audit import AuditReport
from projections.read.branches import Family, Parting
from projections.read.compare import Comparison
from projections.read.rulenotes import RuleNotes
from projections.record.live import (
    Appended,
    LiveMatches,
    SeatView,
    StaleSeqError,
    check_seat,
    seat_view,
)
from projections.workspace import Workspace

MAX_BODY = 1_000_000
"""Largest request body in bytes (a batch of a few thousand events)."""
MAX_ROLLOUTS = 2000
"""Most games one request may have played on from each point: a curve is played in the
service's own process."""
POLL_SECONDS = 0.2
"""How often a live stream looks at the log's end (any process may have appended) and at
its token (a revoked token's stream ends at the next look)."""
HEARTBEAT_SECONDS = 15.0
APPEND_THREADS = 40
"""Appends one serving process runs at once (anyio's default, which Litestar's routes use)."""

log = logging.getLogger("tabletape.service")
T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """How long a client may take to send a request and how many streams a token may hold
    open, so slow or greedy clients cannot hold the server's connections (docs/service.md)."""

    header_seconds: float = 10.0
    """From a connection being ready for a request to the end of its headers."""
    body_seconds: float = 30.0
    """From the end of the headers to the end of the body (1 MB at 33 KB/s)."""
    header_bytes: int = 16 * 1024
    """The request line and headers together (a token, a few cookies)."""
    keep_alive_seconds: int = 5
    """An idle connection between requests (uvicorn's own timeout)."""
    streams_per_token: int = 4
    """Event streams one token may have open at once (a few browser tabs)."""


# --- reading a request ---------------------------------------------------------------

def _refused(field: str, message: str) -> ValidationException:
    """A 422 naming the field, in the shape Litestar's own validation errors take."""
    return ValidationException(detail=message, extra=[{"key": field, "message": message}])


def _unreadable(message: str) -> ClientException:
    """A 400: the body could not be read as JSON at all."""
    return ClientException(detail=f"body: {message}", extra={"field": "body"})


def _once(connection: ASGIConnection[Any, Any, Any, Any], name: str) -> str | None:
    """The one value of a query parameter; given twice, the request is refused (a guard and
    a handler could otherwise each read a different one)."""
    values = connection.query_params.getall(name, [])
    if len(values) > 1:
        raise _refused(name, f"given {len(values)} times; give it once")
    return values[0] if values else None


_INTEGER = re.compile(r"-?[0-9]{1,19}")


def integer(field: str, text: str, *, low: int, high: int = INT_MAX) -> int:
    """A whole number written in decimal digits, from `low` to `high` (a log's seqs fit in a
    signed 64-bit integer, as the warehouse stores them); anything else is refused naming
    the field, never read loosely (`5.0`, `5e0`, a thousand digits)."""
    if _INTEGER.fullmatch(text) is None or not low <= int(text) <= high:
        shown = text if len(text) <= 24 else text[:24] + "..."
        raise _refused(field, f"expected a whole number from {low} to {high}, got {shown!r}")
    return int(text)


async def read_strictly(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """Check what a route takes before Litestar converts it, which is lenient (`"5"` and
    `5.0` become 5): every query parameter once, integers as `integer` reads them, and a
    body as JSON nested at most MAX_DEPTH deep whose fields have exactly their declared
    types."""
    params = handler.parsed_fn_signature.parameters
    for name in connection.query_params:
        _once(connection, name)
    for name, field in params.items():
        kwarg = field.kwarg_definition
        if not isinstance(kwarg, QueryParameter) or not _is_int(field.annotation):
            continue
        key = kwarg.name or name
        if (text := connection.query_params.get(key)) is not None:
            low, high = kwarg.ge, kwarg.le
            integer(key, text, low=INT_MIN if low is None else int(low), high=INT_MAX if high is None else int(high))
    if "data" in params and isinstance(connection, Request):
        _strict_body(await connection.body(), params["data"].annotation)


def _is_int(annotation: Any) -> bool:
    return annotation is int or (get_origin(annotation) in (Union, UnionType) and int in get_args(annotation))


def _strict_body(body: bytes, into: Any) -> Any:
    """The body as `into`, read strictly (see `read_strictly`)."""
    if not body.strip():
        raise _refused("body", "missing: send a JSON object")
    try:
        value = msgspec.json.decode(body)
    except RecursionError:
        raise _unreadable(f"nested more than {MAX_DEPTH} deep") from None
    except msgspec.DecodeError as error:
        raise _unreadable(f"the request body is not valid JSON: {error}") from None
    if problem := first_problem(value):
        raise _refused(problem[0] or "body", problem[1])
    if msgspec.json.encode(value) != msgspec.json.format(body, indent=-1) and (twice := repeated_key(body)):
        # A body that is its own compact encoding gives each key once (a dict keeps one value per
        # key): what every client built on an encoder sends, proven at a tenth of the walk's cost.
        raise _refused(twice, f"`{twice}` is given twice: send each key once")
    try:
        return msgspec.convert(value, type=into, strict=True)
    except msgspec.ValidationError as error:
        message, _, path = str(error).partition(" - at `$")
        field = path.strip("`.").split("[", 1)[0] or (named.group(1) if (named := _NAMED_FIELD.search(message)) else "body")
        raise _refused(field, message) from None


# --- access --------------------------------------------------------------------------

async def token_in_query_only_where_needed(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """`?token=` only on a route that allows it (the event stream: a browser's EventSource
    cannot set headers); on every other route, the health check and the schema pages too,
    it is refused, since query strings end up in proxies' and servers' logs. A guard is a
    coroutine: Litestar runs a plain function's guard in a worker thread, a hop per guard
    per request."""
    if _once(connection, "token") is not None and not handler.opt.get("token_in_query"):
        raise NotAuthorizedException("`?token=` is accepted only on the event stream (query strings end up in logs): "
                                     "send `Authorization: Bearer <token>`")


def _token_text(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> str:
    """The bearer token of a request (or `?token=` where the route allows it)."""
    scheme, _, value = connection.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value:
        return value
    return (_once(connection, "token") or "") if handler.opt.get("token_in_query") else ""


def authorize(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """Refuse a request its token does not allow: 401 without a valid token, 403 beyond it.

    What a request may see is decided here, from the request's one `seat` (or a seat
    token's own), and kept in `connection.state` as the only seat handlers draw for."""
    text = _token_text(connection, handler)
    if not text:
        raise NotAuthorizedException("no token: send `Authorization: Bearer <token>` (tabletape token issue)")
    tokens: Tokens = connection.app.state.tokens
    try:
        grant = tokens.find(text)
    except TokenError as error:
        raise NotAuthorizedException(str(error)) from None
    access: Access = handler.opt.get("access", "read")
    match_id = connection.path_params.get("match_id")
    seat = _once(connection, "seat")
    if seat == "":
        raise _refused("seat", "empty: name one of the match's seats, or leave `seat` out")
    if access == "view" and grant.scope == "seat" and seat is None:
        seat = grant.seat
    if why := grant.refusal(access, match_id, seat):
        raise PermissionDeniedException(why)
    connection.state.grant = grant
    connection.state.seat = seat


async def admit(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """The guard of every route but the health check: the token first (`authorize`: a
    request it does not allow learns nothing about its body), then what the route takes
    (`read_strictly`). One guard on the loop: Litestar copies the handler for each guard,
    and runs a plain function's guard in a worker thread (reading the token journal's end
    is shorter than the hop)."""
    authorize(connection, handler)
    await read_strictly(connection, handler)


def _grant(request: Request[Any, Any, Any]) -> Grant:
    return request.state.grant


def _seen_as(request: Request[Any, Any, Any],
             seat: Annotated[str | None, QueryParameter(description="The seat to see as (a seat token: its own).")] = None) -> str | None:
    """The seat `authorize` decided this request sees as. `seat` is declared here for the
    schema only: the guard has read it, once, and what it decided is what is drawn."""
    return request.state.seat


# --- what routes take ----------------------------------------------------------------
# Every parameter says where it comes from (the path, the query, a header, the body or a
# dependency): Litestar 3 no longer guesses from a parameter's name or type.

WorkspaceDep = NamedDependency[Workspace]
"""The service's store (`ws`), given to every route that reads or starts matches."""
LiveDep = NamedDependency[LiveMatches]
"""The live folds (`live`) that answer appends and follow matches."""
SeenAs = NamedDependency[str | None]
"""The seat the guard decided a request sees as (`_seen_as`)."""
MatchId = FromPath[str]
NoteId = FromPath[str]


# --- rules ---------------------------------------------------------------------------

@get("/health", sync_to_thread=True)
def health(ws: WorkspaceDep) -> Health:
    """Whether the service is up (no token needed)."""
    return Health(status="ok", matches=len(ws.matches()))


@get("/rulesets", sync_to_thread=True, opt={"access": "meta"})
def rulesets(ws: WorkspaceDep) -> list[dict[str, Any]]:
    """Every game with its versions and this store's variants."""
    return ws.rulesets()


@get("/rulesets/{spec:str}", sync_to_thread=True, opt={"access": "meta"})
def rules_of_version(ws: WorkspaceDep, spec: FromPath[str]) -> dict[str, Any]:
    """A version's params with where each comes from, its changelog and readings."""
    return ws.describe(spec)


@get("/games/{game:str}/schema", sync_to_thread=True, opt={"access": "meta"})
def event_schema(ws: WorkspaceDep, game: FromPath[str]) -> dict[str, Any]:
    """JSON Schema of every line a game's logs may hold."""
    return ws.schema(game)


# --- matches -------------------------------------------------------------------------

@get("/matches", sync_to_thread=True)
def list_matches(ws: WorkspaceDep) -> list[MatchSummary]:
    """Every match in the store."""
    return [_summary(ws, match_id) for match_id in ws.matches()]


def _summary(ws: Workspace, match_id: str) -> MatchSummary:
    header = ws.header(match_id)
    return MatchSummary(match_id=match_id, ruleset=header.ruleset, version=header.version, source=header.source,
                        title=header.title, seats=dict(header.seats), last_seq=ws.store.last(match_id)[0])


@post("/matches", sync_to_thread=True, opt={"access": "start"})
def start_match(ws: WorkspaceDep, data: JSONBody[NewMatch]) -> MatchStarted:
    """Start a match (line 0); seats and options are checked against the rules first."""
    return ws.new_match(data.ruleset, data.seats, title=data.title, options=data.options, match_id=data.match_id)


@get("/matches/{match_id:str}", sync_to_thread=True)
def match(ws: WorkspaceDep, match_id: MatchId) -> MatchSummary:
    """A match's header and last seq."""
    return _summary(ws, match_id)


After = Annotated[int, QueryParameter(ge=-1, le=INT_MAX, description="Events with seq > after (-1: all).")]


@get("/matches/{match_id:str}/events", sync_to_thread=True)
def read_events(live: LiveDep, match_id: MatchId, after: After = -1) -> Appended:
    """Events with seq > `after` (default: all) and the live audit's findings on them."""
    return live.since(match_id, after)


@post("/matches/{match_id:str}/events", sync_to_thread=True, opt={"access": "write"})
def append_events(live: LiveDep, match_id: MatchId, data: JSONBody[AppendEvents]) -> Appended:
    """Append one event or a batch after `expected_seq`; answered with the stored events
    and their audit findings. 409 (nothing written) if the match moved on."""
    return _append(live, match_id, data)


@get("/matches/{match_id:str}/state", sync_to_thread=True, opt={"access": "view"},
     dependencies={"seen_as": Provide(_seen_as, sync_to_thread=False)})
def state(request: Request[Any, Any, Any], ws: WorkspaceDep, match_id: MatchId, seen_as: SeenAs,
          at: Annotated[int | None, QueryParameter(ge=0, le=INT_MAX, description="The event (default: the last).")] = None) -> SeatView:
    """The state at event `at` (default: the last) as `seat` saw it; without a seat, the
    whole state (only for a token that may see everything)."""
    return seat_view(ws, match_id, at, seen_as, sees_all=_grant(request).sees_all)


@get("/matches/{match_id:str}/audit", sync_to_thread=True)
def audit(ws: WorkspaceDep, match_id: MatchId, against: FromQuery[str | None] = None) -> AuditReport:
    """Every broken rule and the result check, under the match's version or `against`."""
    return ws.audit(match_id, against=against)


@get("/matches/{match_id:str}/compare", sync_to_thread=True)
def compare(ws: WorkspaceDep, match_id: MatchId, a: FromQuery[str], b: FromQuery[str]) -> Comparison:
    """The match under two versions of its game: first disagreement and outcome change."""
    return ws.compare(match_id, a, b)


@post("/matches/{match_id:str}/branches", sync_to_thread=True, opt={"access": "start"})
def start_branch(ws: WorkspaceDep, match_id: MatchId, data: JSONBody[NewBranch]) -> MatchStarted:
    """Start a what-if branch: a new match holding this one's events up to `at`."""
    return ws.branch(match_id, data.at, new_id=data.match_id, title=data.title)


@get("/matches/{match_id:str}/branches", sync_to_thread=True)
def branches(ws: WorkspaceDep, match_id: MatchId) -> Family:
    """The match's parent (if it is a branch) and its branches."""
    return ws.family(match_id)


@get("/matches/{match_id:str}/parting", sync_to_thread=True)
def parting(ws: WorkspaceDep, match_id: MatchId, other: FromQuery[str]) -> Parting:
    """Where this match and `other` (a branch, its parent) part, and what each did next."""
    return ws.parting(match_id, other)


@get("/matches/{match_id:str}/chances", sync_to_thread=True)
def win_chances(ws: WorkspaceDep, match_id: MatchId,
                rollouts: Annotated[int, QueryParameter(ge=1, le=MAX_ROLLOUTS, description="Games played on from each point.")] = 200,
                every: Annotated[str, QueryParameter(description="Decision points: `turn` starts or every `event`.")] = "turn",
                bot: FromQuery[str | None] = None,
                seed: Annotated[int, QueryParameter(ge=0, le=INT_MAX)] = 1,
                horizon: Annotated[str, QueryParameter(description="Rounds played ahead before the position is scored, "
                                                              "or `full`.")] = "full",
                fit: Annotated[str, QueryParameter(description="What the scoring model is fitted on: `rules` or `match`.")] = "rules",
                precision: Annotated[float | None, QueryParameter(gt=0, le=50, description="Stop at a point once its 95% "
                                                             "interval is within this many points.")] = None) -> Curve:
    """Each seat's chance to win along the match, with 95% intervals, and its turning
    points. The bots play on from the whole table, hidden cards included, so a seat token
    may not ask (the route needs a read or write token). Played in this process (a repeat
    is read from the store's result cache); `tabletape chances` spreads a long one over
    every core or a Dask cluster."""
    return chances(ws, match_id, rollouts=rollouts, every=every, bot=bot, seed=seed, workers=1, horizon=horizon,
                   fit=fit, precision=precision).answer()


@get("/matches/{match_id:str}/verify", sync_to_thread=True)
def verify(ws: WorkspaceDep, match_id: MatchId) -> Verified:
    """Check the match's hash chain; the message names the first bad line."""
    report = ws.verify(match_id)
    return Verified(match_id=match_id, ok=report.ok, lines=report.lines, message=report.message)


@get("/matches/{match_id:str}/export", sync_to_thread=True, media_type="application/x-ndjson")
def export(ws: WorkspaceDep, match_id: MatchId) -> bytes:
    """The match's log exactly as stored (JSON lines)."""
    return ws.export(match_id)


@get("/matches/{match_id:str}/stream", opt={"access": "view", "token_in_query": True},
     dependencies={"seen_as": Provide(_seen_as, sync_to_thread=False)})
async def follow(request: Request[Any, Any, Any], live: LiveDep, ws: WorkspaceDep, match_id: MatchId, seen_as: SeenAs,
                 after: Annotated[int | None, QueryParameter(ge=-1, le=INT_MAX, description="Events with seq > after (default: from now on).")] = None,
                 last_event_id: Annotated[str | None, HeaderParameter(name="last-event-id")] = None) -> ServerSentEvent:
    """Server-Sent Events: `events` messages (new events and their findings) as anyone
    appends them, from seq > `after` (or `Last-Event-ID`; default: from now on). A seat
    token, or `?seat=`, gets `view` messages instead: that seat's view after each change.
    The token is looked at again at every poll: once it is revoked, an `error` message
    ends the stream."""
    grant = _grant(request)
    await to_thread.run_sync(check_seat, ws, match_id, seen_as)  # refused here, not inside the stream
    start, field = after, "after"
    if start is None and last_event_id is not None:
        start, field = integer("Last-Event-ID", last_event_id.strip(), low=-1), "Last-Event-ID"
    last = (await to_thread.run_sync(ws.store.last, match_id))[0]
    if start is None:
        start = last
    elif start > last:  # a follower cannot have seen events the log does not hold; it would wait for ever
        raise _refused(field, f"{start} is past match {match_id!r}'s last seq {last}")
    slot = await to_thread.run_sync(request.app.state.streams.admit, grant)
    if seen_as is not None:
        return ServerSentEvent(_follow(request.app.state.tokens, grant, slot, start, partial(_next_view, ws, match_id, seen_as)))
    return ServerSentEvent(_follow(request.app.state.tokens, grant, slot, start, partial(_next_events, live, match_id)))


class _Slot:
    """One open stream's place: a lock held on one of its token's slot files. Closed by
    the stream's end, or when it is collected (a stream dropped before it ever ran), or by
    the kernel when the process ends however it ends."""

    def __init__(self, fd: int) -> None:
        self.close = weakref.finalize(self, os.close, fd)


class OpenStreams:
    """The streams each token has open, at most `limit` at once, across every process
    serving the store: a stream holds a connection for as long as the client likes, so one
    token (a leaked one, a page reloading in a loop) must not hold them all.

    A token has `limit` slot files under `<home>/streams/`; a stream holds an exclusive
    `flock` on one of them while it runs. The lock is the count: it needs no bookkeeping
    that a crash could leave behind, since the kernel drops a dead process's locks."""

    def __init__(self, home: Path, limit: int) -> None:
        self.folder = Path(home) / "streams"
        self.limit = limit

    def admit(self, grant: Grant) -> _Slot:
        """A place for one more stream of this token, or 429 saying how many it has."""
        real_folder(self.folder)
        self.folder.mkdir(exist_ok=True)
        for slot in range(self.limit):
            fd = open_nofollow(self.folder / f"{grant.token_id}.{slot}", os.O_RDWR | os.O_CREAT)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            return _Slot(fd)
        raise TooManyRequestsException(f"token {grant.token_id} already has {self.limit} streams open "
                                       f"(at most {self.limit}); close one first")


Next = Callable[[int], tuple[int, ServerSentEventMessage | None]]


async def _follow(tokens: Tokens, grant: Grant, slot: _Slot, after: int,
                  next_message: Next) -> AsyncIterator[ServerSentEventMessage]:
    """`ready`, then each message `next_message` finds after the last seq sent, polling,
    until the token stops working (an `error` message, then the end) or the client leaves."""
    try:
        quiet = 0.0
        yield ServerSentEventMessage(event="ready", data=msgspec.json.encode({"after": after}).decode())
        while True:
            after, message = await to_thread.run_sync(next_message, after)
            try:  # after the read: what was read while the token was revoked is never sent
                await to_thread.run_sync(tokens.current, grant.token_id)
            except TokenError as error:
                yield ServerSentEventMessage(event="error", data=msgspec.json.encode({"error": str(error), "status": 401}).decode())
                return
            if message is not None:
                quiet = 0.0
                yield message
            elif (quiet := quiet + POLL_SECONDS) >= HEARTBEAT_SECONDS:
                quiet = 0.0
                yield ServerSentEventMessage(comment="still here")
            await asyncio.sleep(POLL_SECONDS)
    finally:
        slot.close()


def _next_events(live: LiveMatches, match_id: str, after: int) -> tuple[int, ServerSentEventMessage | None]:
    """New events and findings as they land in the log, whoever wrote them."""
    batch = live.since(match_id, after)
    if not batch.events:
        return after, None
    return batch.last_seq, ServerSentEventMessage(event="events", id=batch.last_seq, data=msgspec.json.encode(batch).decode())


def _next_view(ws: Workspace, match_id: str, seat: str, after: int) -> tuple[int, ServerSentEventMessage | None]:
    """One seat's view each time the log grows (never the events: they may show a hand)."""
    last = ws.store.last(match_id)[0]
    if last <= after:
        return after, None
    view = seat_view(ws, match_id, last, seat, sees_all=False)
    return last, ServerSentEventMessage(event="view", id=last, data=msgspec.json.encode(view).decode())


# --- notes ---------------------------------------------------------------------------

@get("/matches/{match_id:str}/notes", sync_to_thread=True)
def list_notes(ws: WorkspaceDep, match_id: MatchId, all: FromQuery[bool] = False) -> tuple[Note, ...]:
    """The match's notes (`all=true`: removed ones too)."""
    return ws.notes.list(match_id, include_removed=all)


@post("/matches/{match_id:str}/notes", sync_to_thread=True, opt={"access": "write"})
def add_note(ws: WorkspaceDep, match_id: MatchId, data: JSONBody[NewNote]) -> Note:
    """Pin a note to an event or a range of events."""
    return ws.notes.add(match_id, from_seq=data.from_seq, to_seq=data.to_seq, author=data.author, text=data.text,
                        tags=data.tags, rule=data.rule)


@post("/matches/{match_id:str}/notes/{note_id:str}/replies", sync_to_thread=True, opt={"access": "write"})
def reply_note(ws: WorkspaceDep, match_id: MatchId, note_id: NoteId, data: JSONBody[NewReply]) -> Note:
    """Answer a note."""
    return ws.notes.reply(match_id, note_id, author=data.author, text=data.text)


@patch("/matches/{match_id:str}/notes/{note_id:str}", sync_to_thread=True, opt={"access": "write"})
def edit_note(ws: WorkspaceDep, match_id: MatchId, note_id: NoteId, data: JSONBody[NoteEdit]) -> Note:
    """Change a note's text, tags or rule (fields left out stay as they are)."""
    return ws.notes.edit(match_id, note_id, author=data.author, text=data.text, tags=data.tags, rule=data.rule)


@delete("/matches/{match_id:str}/notes/{note_id:str}", sync_to_thread=True, opt={"access": "write"}, status_code=200)
def remove_note(ws: WorkspaceDep, match_id: MatchId, note_id: NoteId, author: FromQuery[str], reason: FromQuery[str] = "") -> Note:
    """Withdraw a note (it stays in the history)."""
    return ws.notes.remove(match_id, note_id, author=author, reason=reason)


@get("/notes", sync_to_thread=True)
def notes_on_rule(ws: WorkspaceDep, rule: FromQuery[str], version: FromQuery[str | None] = None, branches: FromQuery[bool] = False) -> RuleNotes:
    """Every note about `rule` across the matches of its game, by version, with the
    audit's findings of that rule beside them."""
    return ws.notes_on_rule(rule, version=version, branches=branches)


# --- analyses ------------------------------------------------------------------------

@get("/queries", sync_to_thread=True)
def queries() -> list[dict[str, Any]]:
    """The named analyses and their parameters with defaults."""
    from projections.warehouse.queries import named_queries

    return [{"name": q.name, "description": q.description, "params": {p.name: {"type": p.kind, "default": p.default} for p in q.params.values()}}
            for q in named_queries().values()]


@get("/queries/{name:str}", sync_to_thread=True)
def run_query(request: Request[Any, Any, Any], ws: WorkspaceDep, name: FromPath[str]) -> list[dict[str, Any]]:
    """Run a named analysis over the store as it is now (the warehouse is synced first,
    incrementally); every query parameter is a parameter of the analysis."""
    from projections.warehouse.queries import run_named
    from projections.warehouse.sync import Warehouse

    warehouse = Warehouse(ws)
    warehouse.sync()
    given = dict(request.query_params.items())  # typed by the query's declared params
    return run_named(warehouse, name, given).records()


# --- errors --------------------------------------------------------------------------

_STATUS: tuple[tuple[type[Exception], int], ...] = (
    (StaleSeqError, 409), (ConflictError, 409), (TokenError, 403),
    (UnknownMatchError, 404), (UnknownNoteError, 404), (UnknownRulesetError, 422),
    (LogFormatError, 422), (InvalidMatchIdError, 422), (TabletapeError, 422),
)


def error_response(request: Request[Any, Any, Any], error: Exception) -> Response[dict[str, Any]]:
    """Every failure as one JSON object with a one-line message; never a traceback."""
    body = error_body(error, request.method, request.url.path)
    return Response(body, status_code=body["status"])


def error_body(error: Exception, method: str, path: str) -> dict[str, Any]:
    """The one JSON object a failure is answered with, by Litestar's routes and the lean
    append route alike (`method` and `path` name the request in the log of a 500)."""
    body: dict[str, Any]
    if isinstance(error, ValidationException):
        body = _validation(error)
    elif isinstance(error, HTTPException) and isinstance(error.__cause__, SerializationException):
        body = {"error": _one_line(f"the request body is not valid JSON: {error.detail}"), "field": "body", "status": 400}
    elif isinstance(error, HTTPException):
        body = {"error": _one_line(error.detail), "status": error.status_code}
        if isinstance(error.extra, dict) and error.extra.get("field"):
            body["field"] = error.extra["field"]
    elif isinstance(error, TabletapeError):
        status = next(code for kind, code in _STATUS if isinstance(error, kind))
        body = {"error": _one_line(str(error)), "status": status}
        if isinstance(error, LogFormatError) and error.field:
            body["field"] = error.field
        if isinstance(error, StaleSeqError):
            body["last_seq"] = error.last_seq
    else:
        log.error("unexpected error on %s %s", method, path, exc_info=error)
        body = {"error": f"internal error ({type(error).__name__}); the server log has the details", "status": 500}
    return body


def _validation(error: ValidationException) -> dict[str, Any]:
    """A value that was read but is wrong (wrong type, out of range, missing or unknown
    field) as a 422 with one line naming the field; `data` (Litestar's name for the whole
    body) becomes the field `body`."""
    extra = error.extra if isinstance(error.extra, list) else []
    first = extra[0] if extra and isinstance(extra[0], dict) else {}
    message = str(first.get("message") or error.detail)
    field = first.get("key")
    if " - at `$." in message:
        message, _, path = message.partition(" - at `$.")
        field = path.rstrip("`")
    elif field in (None, "data") and (named := _NAMED_FIELD.search(message)):
        field = named.group(1) or named.group(2)
    if field == "data":
        field = "body"
        if message == "'data'":
            message = "missing: send a JSON object"
    body: dict[str, Any] = {"error": _one_line(f"{field}: {message}" if field else message), "status": 422}
    if field:
        body["field"] = field
    return body


_NAMED_FIELD = re.compile(r"(?:unknown|missing required) field `([^`]+)`|Missing required \w+ parameter '([^']+)'")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


# --- the schema pages -----------------------------------------------------------------

class EndpointsPage(OpenAPIRenderPlugin):
    """`/schema`: the endpoints on a plain page that fetches nothing. Litestar's Swagger UI
    and ReDoc pages load their scripts from a CDN, so at a table without internet they
    were blank; the schema itself is at `/schema/openapi.json` and `/schema/openapi.yaml`."""

    def __init__(self) -> None:
        super().__init__(path="/", favicon="", style="")

    def receive_router(self, router: Router) -> None:
        """A page the schema router does not serve (`/schema/swagger`, say) is a one-line
        404 like any other refusal, not Litestar's HTML page."""
        router.after_request = _one_line_not_found

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        info = openapi_schema.get("info", {})
        rows = []
        for path, item in openapi_schema.get("paths", {}).items():
            for method, operation in item.items():
                if isinstance(operation, dict):
                    about = str(operation.get("summary") or operation.get("description") or "").split("\n")[0]
                    rows.append(f"<tr><td><code>{html.escape(method.upper())} {html.escape(path)}</code></td>"
                                f"<td>{html.escape(about)}</td></tr>")
        page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(str(info.get('title', '')))} API</title></head>"
                f"<body><h1>{html.escape(str(info.get('title', '')))} {html.escape(str(info.get('version', '')))}</h1>"
                f"<p>{html.escape(str(info.get('description', '')))}</p>"
                "<p>The schema: <a href='openapi.json'>openapi.json</a>, <a href='openapi.yaml'>openapi.yaml</a>.</p>"
                f"<table>{''.join(rows)}</table></body></html>")
        return page.encode()


async def _one_line_not_found(response: Response[Any]) -> Response[Any]:
    if response.status_code != 404:
        return response
    return Response({"error": "no such page: the schema is at /schema, /schema/openapi.json and /schema/openapi.yaml",
                     "status": 404}, status_code=404, media_type=MediaType.JSON)


# --- the app -------------------------------------------------------------------------

def create_app(home: Path | str | None = None, *, limits: Limits = Limits()) -> Litestar:
    """The service over one store: a Workspace, its live folds and its tokens. Any origin
    may call it from a browser (a web prototype): access is the bearer token, not cookies."""
    ws = Workspace(home)
    live = LiveMatches(ws)
    guarded = Router(path="/", guards=[admit], route_handlers=[
        rulesets, rules_of_version, event_schema, list_matches, start_match, match, read_events, append_events,
        state, audit, compare, win_chances, start_branch, branches, parting, verify, export, follow, list_notes, notes_on_rule,
        add_note, reply_note, edit_note, remove_note,
        queries, run_query,
    ])
    return Litestar(
        route_handlers=[health, guarded],
        guards=[token_in_query_only_where_needed],
        dependencies={"ws": Provide(lambda: ws, sync_to_thread=False), "live": Provide(lambda: live, sync_to_thread=False)},
        state=State({"tokens": Tokens(ws.home), "streams": OpenStreams(ws.home, limits.streams_per_token), "live": live}),
        exception_handlers={Exception: error_response},
        on_shutdown=[live.close],
        request_max_body_size=MAX_BODY,
        cors_config=CORSConfig(allow_origins=["*"], allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
                               allow_methods=["GET", "POST", "PATCH", "DELETE"]),
        openapi_config=OpenAPIConfig(title="tabletape", version="0.1.0",
                                     description="Record, audit and follow tabletop playtests over HTTP.",
                                     render_plugins=[EndpointsPage(), JsonRenderPlugin(), YamlRenderPlugin()]),
    )


# --- the lean append route --------------------------------------------------------------

_APPEND_PATH = re.compile(r"/matches/([^/]+)/events")


class LeanAppend:
    """The service as `tabletape serve` runs it: the hot path, an append to a match,
    answered by a plain ASGI route in front of Litestar, and everything else by Litestar.

    An append costs the store about half a millisecond of CPU; Litestar's routing, guard,
    signature and response layers cost three times that. This route takes exactly
    `POST /matches/{match_id}/events` without a query string or an `Origin` (a browser's
    request gets Litestar's CORS answer), checks the token with the same `Tokens.find` and
    `Grant.refusal` as the guard and reads the body with the same strict reader under the
    same size limit. Any request it would refuse before appending is handed to Litestar
    whole (the bytes read replayed), so every such refusal is Litestar's own answer; what
    the append itself refuses (409, 404, 422) is answered with `error_body`, as Litestar's
    handler answers it: an append is never tried twice."""

    def __init__(self, app: Litestar) -> None:
        self.app = app
        self.tokens: Tokens = app.state.tokens
        self.live: LiveMatches = app.state.live
        self.hands = _Hands(APPEND_THREADS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = _APPEND_PATH.fullmatch(scope["path"]) if scope["type"] == "http" and scope.get("method") == "POST" else None
        if found is None or scope.get("query_string") or scope.get("root_path"):
            return await self.app(scope, receive, send)
        match_id = found.group(1)
        authorization, length, plain = None, None, True
        for name, value in scope["headers"]:
            if name == b"authorization":
                plain, authorization = authorization is None, value
            elif name == b"content-length":
                plain, length = length is None and value.isdigit(), value
            elif name == b"origin":
                plain = False
            if not plain:
                return await self.app(scope, receive, send)
        if (length is not None and int(length) > MAX_BODY) or not self._allows(authorization, match_id):
            return await self.app(scope, receive, send)
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            chunks.append(message.get("body", b""))
            size, more = size + len(chunks[-1]), message.get("more_body", False)
            if size > MAX_BODY:
                return await self.app(scope, _replay(b"".join(chunks), more, receive), send)
        body = b"".join(chunks)
        try:
            data: AppendEvents = _strict_body(body, AppendEvents)
        except HTTPException:
            return await self.app(scope, _replay(body, False, receive), send)
        try:
            appended = await self.hands.run(_append, self.live, match_id, data)
            answer, status = encode_json(appended), 201
        except Exception as error:
            refusal = error_body(error, "POST", scope["path"])
            answer, status = msgspec.json.encode(refusal), refusal["status"]
        start: HTTPResponseStartEvent = {"type": "http.response.start", "status": status,
                                         "headers": [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(answer))]}
        end: HTTPResponseBodyEvent = {"type": "http.response.body", "body": answer, "more_body": False}
        await send(start)
        await send(end)

    def _allows(self, authorization: bytes | None, match_id: str) -> bool:
        """Whether the guard would let this token write to this match (if not, Litestar
        answers why)."""
        scheme, _, text = (authorization or b"").decode("latin-1").partition(" ")
        if scheme.lower() != "bearer" or not text:
            return False
        try:
            return self.tokens.find(text).refusal("write", match_id) is None
        except TabletapeError:
            return False


class _Hands:
    """Threads that make appends for the event loop: an append waits for fsync, which lets
    the interpreter go, so as many run at once as Litestar's own pool would run. A call is
    one item on a queue and its answer one callback on the loop, half the CPU of
    `run_in_executor` (its executor's locks and idle count, a future chained to a future)
    on the path of every append."""

    def __init__(self, most: int) -> None:
        self._jobs: queue.SimpleQueue[tuple[asyncio.AbstractEventLoop, asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]]] = queue.SimpleQueue()
        self._most = most
        self._started = 0
        self._free = 0
        # Threads waiting for a job less jobs waiting for a thread.
        self._count = threading.Lock()

    def run(self, work: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """`work(*args)` in one of the threads; a thread is started while none is free, up to `most`."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._count:
            start = self._free <= 0 and self._started < self._most
            if start:
                self._started += 1
            else:
                self._free -= 1
        self._jobs.put((loop, future, work, args))
        if start:
            threading.Thread(target=self._work, name=f"append-{self._started}", daemon=True).start()
        return future

    def _work(self) -> None:
        # Daemon threads: the server stops only once every request it took is answered.
        while True:
            loop, future, work, args = self._jobs.get()
            try:
                result, error = work(*args), None
            except BaseException as failed:  # the request's own handler answers it
                result, error = None, failed
            loop.call_soon_threadsafe(_settle, future, result, error)
            del loop, future, work, args, result, error
            with self._count:
                self._free += 1


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """Give a future its answer, unless the request awaiting it was cancelled."""
    if future.cancelled():
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


def _append(live: LiveMatches, match_id: str, data: AppendEvents) -> Appended:
    """An append, as both the Litestar route (`append_events`) and `LeanAppend` make it."""
    return live.append(match_id, data.drafts(), expected_seq=data.expected_seq)


def _replay(body: bytes, more: bool, receive: Receive) -> Receive:
    """`receive` with the body bytes already read given back first."""
    pending: list[HTTPRequestEvent] = [{"type": "http.request", "body": body, "more_body": more}]

    async def again() -> Any:
        return pending.pop() if pending else await receive()

    return again


def served_app(home: Path | str | None = None, *, limits: Limits = Limits(), worker: bool = False) -> LeanAppend:
    """The app `tabletape serve` runs in each of its processes (`worker`: one of several,
    started by a supervising process)."""
    if worker:
        _end_with_parent()
    app = LeanAppend(create_app(home, limits=limits))
    settle()  # what the service imported stays out of the collector's walk
    return app


def _end_with_parent() -> None:
    """Ask Linux to stop this process when the one that started it dies (a serving process
    left behind by a killed `tabletape serve` would hold the port); elsewhere, nothing."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class SlowClientTimeouts(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol (httptools' parser, in C) with the deadlines and the
    header limit it lacks: its keep-alive timeout runs only between requests (and any byte
    received stops it), so a client sending its headers or body a byte at a time held its
    connection for ever, and its parser takes headers of any size. Here the headers must be
    in within `header_seconds` of the connection being ready for them and the body within
    `body_seconds` of the headers, however the bytes trickle; past that the client gets a
    one-line 408 (if nothing was answered yet) and the connection is closed. Request line
    and headers larger than `header_bytes` are a one-line 431; a request that is not HTTP
    a one-line 400."""

    header_seconds = Limits.header_seconds
    body_seconds = Limits.body_seconds
    header_bytes = Limits.header_bytes

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._stage: str | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._between = True  # the parser is between two requests
        self._in_headers = False
        self._header_size = 0
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_message_begin(self) -> None:
        self._between, self._in_headers, self._header_size = False, True, 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_headers = False
        super().on_headers_complete()
        if self.cycle is not None:
            self.cycle.transport = _OneWrite(self.transport, self.loop)  # type: ignore[assignment]

    def on_message_complete(self) -> None:
        self._between = True
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """What the parser refused (uvicorn's own answer is a line of plain text)."""
        if self._header_size > self.header_bytes:
            self._refuse(431, "Request Header Fields Too Large",
                         f"the request line and headers are larger than {self.header_bytes // 1024} KB")
        else:
            self._refuse(400, "Bad Request", "the request is not valid HTTP/1.1")

    def _count(self, size: int) -> None:
        """Refuse headers past `header_bytes` while they come (the parser would keep them all)."""
        self._header_size += size
        if self._header_size > self.header_bytes:
            raise ValueError("headers too large")  # the parser stops; uvicorn calls send_400_response

    def _stage_now(self) -> str | None:
        """What the client is sending now: its headers, its body, or nothing while we answer."""
        if not self._between:
            return "headers" if self._in_headers else "body"
        return "headers" if self.cycle is None or self.cycle.response_complete else None

    def _watch(self) -> None:
        """Start the deadline of what the client is sending now (none while we answer)."""
        stage = self._stage_now()
        if stage == self._stage:
            return
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._stage = stage
        if stage is not None and not self.transport.is_closing():
            seconds = self.header_seconds if stage == "headers" else self.body_seconds
            self._deadline = self.loop.call_later(seconds, self._too_slow, stage, seconds)

    def _too_slow(self, stage: str, seconds: float) -> None:
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
            self._refuse(408, "Request Timeout", f"the request's {stage} took longer than {seconds:g} s")
        self.transport.close()

    def _refuse(self, status: int, reason: str, message: str) -> None:
        """A one-line JSON answer, then the connection closed."""
        body = msgspec.json.encode({"error": message, "status": status})
        self.transport.write(b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\nconnection: close\r\n"
                             b"content-length: %d\r\n\r\n%s" % (status, reason.encode(), len(body), body))
        self.transport.close()


class _OneWrite:
    """A transport for one response whose writes in one turn of the event loop go out as
    one: uvicorn writes the status line and headers, then the body, and on a kept-alive
    connection each write is a system call that wakes the client, the single largest cost
    of a small answer. Held bytes are written at the end of the turn (a stream's message
    is never held longer) or at `close`."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._held:
            self._loop.call_soon(self._flush)
        self._held.append(data)

    def _flush(self) -> None:
        if self._held and not self._transport.is_closing():
            self._transport.write(b"".join(self._held))
        self._held.clear()

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def serve(home: Path, *, host: str, port: int, workers: int = 1, limits: Limits = Limits()) -> None:
    """Run the service until stopped: uvicorn on uvloop, httptools with the header and body
    deadlines of `limits`, in `workers` processes, each new connection handed by the
    supervising process to the one holding the fewest (`balance`). The store needs no
    more: appends are checked under each log's lock against the expected seq, each
    process's live folds catch up from the log, tokens are read from their journal, and
    the streams a token has open are counted by locks in the store (`OpenStreams`)."""
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE

    from dashboard.service.balance import serve_balanced

    config = uvicorn.Config(partial(served_app, home, limits=limits, worker=workers > 1), factory=True, host=host, port=port,
                            log_level="warning", http=cast("type[asyncio.Protocol]", partial(_protocol, limits)), loop="uvloop",
                            timeout_keep_alive=limits.keep_alive_seconds, workers=workers)
    if workers > 1:
        if code := serve_balanced(config):
            sys.exit(code)
        return
    server = uvicorn.Server(config)
    with suppress(KeyboardInterrupt):
        server.run()
    if not server.started:  # the port taken, say: uvicorn has logged why
        sys.exit(STARTUP_FAILURE)


def _protocol(limits: Limits, **kwargs: Any) -> SlowClientTimeouts:
    """uvicorn's protocol factory (it calls it as it would a class): `SlowClientTimeouts`
    with the deadlines of `limits`; a function, not a class made on the fly, so that it can
    be handed to a serving process."""
    protocol = SlowClientTimeouts(**kwargs)
    protocol.header_seconds, protocol.body_seconds = limits.header_seconds, limits.body_seconds
    protocol.header_bytes = limits.header_bytes
    return protocol
