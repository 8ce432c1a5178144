"""`tabletape serve`: the store over HTTP, for digital tables, phones and spectators.

Litestar routes onto the same Python API as the CLI (`Workspace`, and `Live` for appends
answered with their audit and for following a match); handlers only translate HTTP to
calls and back. Every route but the health check needs a token (events/tokens.py),
checked by one guard from the access the route declares. Every error is one JSON object
`{"error": "...", "field": "...", "status": N}`; a 409 also carries `last_seq`.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

import msgspec
from anyio import to_thread
from litestar import Litestar, Request, Response, Router, delete, get, patch, post
from litestar.config.cors import CORSConfig
from litestar.connection import ASGIConnection
from litestar.datastructures import State
from litestar.di import Provide
from litestar.exceptions import (
    HTTPException,
    NotAuthorizedException,
    PermissionDeniedException,
    SerializationException,
    ValidationException,
)
from litestar.handlers import BaseRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.params import Parameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from dashboard.wire import (
    AppendEvents,
    Health,
    MatchSummary,
    NewMatch,
    NewNote,
    NewReply,
    NoteEdit,
    Verified,
)
from events.errors import (
    ConflictError,
    InvalidMatchIdError,
    LogFormatError,
    TabletapeError,
    UnknownMatchError,
    UnknownNoteError,
    UnknownRulesetError,
)
from events.notes import Note
from events.shared import MatchStarted
from events.tokens import Access, Grant, TokenError, Tokens
from projections.audit import AuditReport
from projections.compare import Comparison
from projections.live import Appended, LiveMatches, SeatView, StaleSeqError, check_seat, seat_view
from projections.workspace import Workspace

MAX_BODY = 1_000_000
"""Largest request body in bytes (a batch of a few thousand events)."""
POLL_SECONDS = 0.2
"""How often a live stream looks at the log's end (any process may have appended)."""
HEARTBEAT_SECONDS = 15.0

log = logging.getLogger("tabletape.service")


# --- access --------------------------------------------------------------------------

def _token_text(connection: ASGIConnection[Any, Any, Any, Any]) -> str:
    """The bearer token of a request (or `?token=`, for a browser's EventSource)."""
    header = connection.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value:
        return value
    return connection.query_params.get("token", "")


def authorize(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """Refuse a request its token does not allow: 401 without a valid token, 403 beyond it."""
    text = _token_text(connection)
    if not text:
        raise NotAuthorizedException("no token: send `Authorization: Bearer <token>` (tabletape token issue)")
    tokens: Tokens = connection.app.state.tokens
    try:
        grant = tokens.find(text)
    except TokenError as error:
        raise NotAuthorizedException(str(error)) from None
    access: Access = handler.opt.get("access", "read")
    match_id = connection.path_params.get("match_id")
    seat = connection.query_params.get("seat") or None
    if access == "view" and grant.scope == "seat" and seat is None:
        seat = grant.seat
    if why := grant.refusal(access, match_id, seat):
        raise PermissionDeniedException(why)
    connection.state.grant = grant


def _grant(request: Request[Any, Any, Any]) -> Grant:
    return request.state.grant


# --- rules ---------------------------------------------------------------------------

@get("/health", sync_to_thread=True)
def health(ws: Workspace) -> Health:
    """Whether the service is up (no token needed)."""
    return Health(status="ok", matches=len(ws.matches()))


@get("/rulesets", sync_to_thread=True, opt={"access": "meta"})
def rulesets(ws: Workspace) -> list[dict[str, Any]]:
    """Every game with its versions and this store's variants."""
    return ws.rulesets()


@get("/rulesets/{spec:str}", sync_to_thread=True, opt={"access": "meta"})
def rules_of_version(ws: Workspace, spec: str) -> dict[str, Any]:
    """A version's params with where each comes from, its changelog and readings."""
    return ws.describe(spec)


@get("/games/{game:str}/schema", sync_to_thread=True, opt={"access": "meta"})
def event_schema(ws: Workspace, game: str) -> dict[str, Any]:
    """JSON Schema of every line a game's logs may hold."""
    return ws.schema(game)


# --- matches -------------------------------------------------------------------------

@get("/matches", sync_to_thread=True)
def list_matches(ws: Workspace) -> list[MatchSummary]:
    """Every match in the store."""
    return [_summary(ws, match_id) for match_id in ws.matches()]


def _summary(ws: Workspace, match_id: str) -> MatchSummary:
    header = ws.header(match_id)
    return MatchSummary(match_id=match_id, ruleset=header.ruleset, version=header.version, source=header.source,
                        title=header.title, seats=dict(header.seats), last_seq=ws.store.last(match_id)[0])


@post("/matches", sync_to_thread=True, opt={"access": "start"})
def start_match(ws: Workspace, data: NewMatch) -> MatchStarted:
    """Start a match (line 0); seats and options are checked against the rules first."""
    return ws.new_match(data.ruleset, data.seats, title=data.title, options=data.options, match_id=data.match_id)


@get("/matches/{match_id:str}", sync_to_thread=True)
def match(ws: Workspace, match_id: str) -> MatchSummary:
    """A match's header and last seq."""
    return _summary(ws, match_id)


@get("/matches/{match_id:str}/events", sync_to_thread=True)
def read_events(live: LiveMatches, match_id: str, after: Annotated[int, Parameter(query="after", ge=-1)] = -1) -> Appended:
    """Events with seq > `after` (default: all) and the live audit's findings on them."""
    return live.since(match_id, after)


@post("/matches/{match_id:str}/events", sync_to_thread=True, opt={"access": "write"})
def append_events(live: LiveMatches, match_id: str, data: AppendEvents) -> Appended:
    """Append one event or a batch after `expected_seq`; answered with the stored events
    and their audit findings. 409 (nothing written) if the match moved on."""
    return live.append(match_id, data.drafts(), expected_seq=data.expected_seq)


@get("/matches/{match_id:str}/state", sync_to_thread=True, opt={"access": "view"})
def state(request: Request[Any, Any, Any], ws: Workspace, match_id: str, at: int | None = None,
          seat: str | None = None) -> SeatView:
    """The state at event `at` (default: the last) as `seat` saw it; without a seat, the
    whole state (only for a token that may see everything)."""
    grant = _grant(request)
    return seat_view(ws, match_id, at, seat or (grant.seat if grant.scope == "seat" else None), sees_all=grant.sees_all)


@get("/matches/{match_id:str}/audit", sync_to_thread=True)
def audit(ws: Workspace, match_id: str, against: str | None = None) -> AuditReport:
    """Every broken rule and the result check, under the match's version or `against`."""
    return ws.audit(match_id, against=against)


@get("/matches/{match_id:str}/compare", sync_to_thread=True)
def compare(ws: Workspace, match_id: str, a: str, b: str) -> Comparison:
    """The match under two versions of its game: first disagreement and outcome change."""
    return ws.compare(match_id, a, b)


@get("/matches/{match_id:str}/verify", sync_to_thread=True)
def verify(ws: Workspace, match_id: str) -> Verified:
    """Check the match's hash chain; the message names the first bad line."""
    report = ws.verify(match_id)
    return Verified(match_id=match_id, ok=report.ok, lines=report.lines, message=report.message)


@get("/matches/{match_id:str}/export", sync_to_thread=True, media_type="application/x-ndjson")
def export(ws: Workspace, match_id: str) -> bytes:
    """The match's log exactly as stored (JSON lines)."""
    return ws.export(match_id)


@get("/matches/{match_id:str}/stream", opt={"access": "view"})
async def follow(request: Request[Any, Any, Any], live: LiveMatches, ws: Workspace, match_id: str,
                 after: int | None = None, seat: str | None = None) -> ServerSentEvent:
    """Server-Sent Events: `events` messages (new events and their findings) as anyone
    appends them, from seq > `after` (or `Last-Event-ID`; default: from now on). A seat
    token, or `?seat=`, gets `view` messages instead: that seat's view after each change."""
    grant = _grant(request)
    watched_seat = seat or (grant.seat if grant.scope == "seat" else None)
    await to_thread.run_sync(check_seat, ws, match_id, watched_seat)  # refused here, not inside the stream
    resume = request.headers.get("last-event-id")
    start = after if after is not None else int(resume) if resume and resume.lstrip("-").isdigit() else None
    if start is None:
        start = (await to_thread.run_sync(ws.store.last, match_id))[0]
    if watched_seat is not None:
        return ServerSentEvent(_follow_view(ws, match_id, start, watched_seat))
    return ServerSentEvent(_follow_events(live, match_id, start))


async def _follow_events(live: LiveMatches, match_id: str, after: int) -> AsyncIterator[ServerSentEventMessage]:
    """New events and findings as they land in the log, whoever wrote them."""
    quiet = 0.0
    yield ServerSentEventMessage(event="ready", data=msgspec.json.encode({"after": after}).decode())
    while True:
        batch = await to_thread.run_sync(live.since, match_id, after)
        if batch.events:
            after, quiet = batch.last_seq, 0.0
            yield ServerSentEventMessage(event="events", id=after, data=msgspec.json.encode(batch).decode())
        elif (quiet := quiet + POLL_SECONDS) >= HEARTBEAT_SECONDS:
            quiet = 0.0
            yield ServerSentEventMessage(comment="still here")
        await asyncio.sleep(POLL_SECONDS)


async def _follow_view(ws: Workspace, match_id: str, after: int, seat: str) -> AsyncIterator[ServerSentEventMessage]:
    """One seat's view each time the log grows (never the events: they may show a hand)."""
    yield ServerSentEventMessage(event="ready", data=msgspec.json.encode({"after": after}).decode())
    while True:
        last = (await to_thread.run_sync(ws.store.last, match_id))[0]
        if last > after:
            after = last
            view = await to_thread.run_sync(_view_of, ws, match_id, last, seat)
            yield ServerSentEventMessage(event="view", id=after, data=msgspec.json.encode(view).decode())
        await asyncio.sleep(POLL_SECONDS)


def _view_of(ws: Workspace, match_id: str, seq: int, seat: str) -> SeatView:
    return seat_view(ws, match_id, seq, seat, sees_all=False)


# --- notes ---------------------------------------------------------------------------

@get("/matches/{match_id:str}/notes", sync_to_thread=True)
def list_notes(ws: Workspace, match_id: str, all: bool = False) -> tuple[Note, ...]:
    """The match's notes (`all=true`: removed ones too)."""
    return ws.notes.list(match_id, include_removed=all)


@post("/matches/{match_id:str}/notes", sync_to_thread=True, opt={"access": "write"})
def add_note(ws: Workspace, match_id: str, data: NewNote) -> Note:
    """Pin a note to an event or a range of events."""
    return ws.notes.add(match_id, from_seq=data.from_seq, to_seq=data.to_seq, author=data.author, text=data.text,
                        tags=data.tags, rule=data.rule)


@post("/matches/{match_id:str}/notes/{note_id:str}/replies", sync_to_thread=True, opt={"access": "write"})
def reply_note(ws: Workspace, match_id: str, note_id: str, data: NewReply) -> Note:
    """Answer a note."""
    return ws.notes.reply(match_id, note_id, author=data.author, text=data.text)


@patch("/matches/{match_id:str}/notes/{note_id:str}", sync_to_thread=True, opt={"access": "write"})
def edit_note(ws: Workspace, match_id: str, note_id: str, data: NoteEdit) -> Note:
    """Change a note's text, tags or rule (fields left out stay as they are)."""
    return ws.notes.edit(match_id, note_id, author=data.author, text=data.text, tags=data.tags, rule=data.rule)


@delete("/matches/{match_id:str}/notes/{note_id:str}", sync_to_thread=True, opt={"access": "write"}, status_code=200)
def remove_note(ws: Workspace, match_id: str, note_id: str, author: str, reason: str = "") -> Note:
    """Withdraw a note (it stays in the history)."""
    return ws.notes.remove(match_id, note_id, author=author, reason=reason)


# --- analyses ------------------------------------------------------------------------

@get("/queries", sync_to_thread=True)
def queries() -> list[dict[str, Any]]:
    """The named analyses and their parameters with defaults."""
    from projections.queries import named_queries

    return [{"name": q.name, "description": q.description, "params": {p.name: {"type": p.kind, "default": p.default} for p in q.params.values()}}
            for q in named_queries().values()]


@get("/queries/{name:str}", sync_to_thread=True)
def run_query(request: Request[Any, Any, Any], ws: Workspace, name: str) -> list[dict[str, Any]]:
    """Run a named analysis over the store as it is now (the warehouse is synced first,
    incrementally); every query parameter but `token` is a parameter of the analysis."""
    from projections.queries import run_named
    from projections.warehouse import Warehouse

    warehouse = Warehouse(ws)
    warehouse.sync()
    given = {key: value for key, value in request.query_params.items() if key != "token"}  # typed by the query's declared params
    return run_named(warehouse, name, given).records()


# --- errors --------------------------------------------------------------------------

_STATUS: tuple[tuple[type[Exception], int], ...] = (
    (StaleSeqError, 409), (ConflictError, 409), (TokenError, 403),
    (UnknownMatchError, 404), (UnknownNoteError, 404), (UnknownRulesetError, 422),
    (LogFormatError, 422), (InvalidMatchIdError, 422), (TabletapeError, 422),
)


def error_response(request: Request[Any, Any, Any], error: Exception) -> Response[dict[str, Any]]:
    """Every failure as one JSON object with a one-line message; never a traceback."""
    body: dict[str, Any]
    if isinstance(error, ValidationException):
        body = _validation(error)
    elif isinstance(error, HTTPException) and isinstance(error.__cause__, SerializationException):
        body = {"error": _one_line(f"the request body is not valid JSON: {error.detail}"), "field": "body", "status": 400}
    elif isinstance(error, HTTPException):
        body = {"error": _one_line(error.detail), "status": error.status_code}
    elif isinstance(error, TabletapeError):
        status = next(code for kind, code in _STATUS if isinstance(error, kind))
        body = {"error": _one_line(str(error)), "status": status}
        if isinstance(error, LogFormatError) and error.field:
            body["field"] = error.field
        if isinstance(error, StaleSeqError):
            body["last_seq"] = error.last_seq
    else:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        body = {"error": f"internal error ({type(error).__name__}); the server log has the details", "status": 500}
    return Response(body, status_code=body["status"])


def _validation(error: ValidationException) -> dict[str, Any]:
    """Litestar's validation detail (bad JSON, wrong type, missing or unknown field) as one
    line naming the field; `data` (Litestar's name for the whole body) becomes the field."""
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
    body: dict[str, Any] = {"error": _one_line(f"{field}: {message}" if field else message), "status": 400}
    if field:
        body["field"] = field
    return body


_NAMED_FIELD = re.compile(r"(?:unknown|missing required) field `([^`]+)`|Missing required \w+ parameter '([^']+)'")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


# --- the app -------------------------------------------------------------------------

def create_app(home: Path | str | None = None) -> Litestar:
    """The service over one store: a Workspace, its live folds and its tokens. Any origin
    may call it from a browser (a web prototype): access is the bearer token, not cookies."""
    ws = Workspace(home)
    live = LiveMatches(ws)
    guarded = Router(path="/", guards=[authorize], route_handlers=[
        rulesets, rules_of_version, event_schema, list_matches, start_match, match, read_events, append_events,
        state, audit, compare, verify, export, follow, list_notes, add_note, reply_note, edit_note, remove_note,
        queries, run_query,
    ])
    return Litestar(
        route_handlers=[health, guarded],
        dependencies={"ws": Provide(lambda: ws, sync_to_thread=False), "live": Provide(lambda: live, sync_to_thread=False)},
        state=State({"tokens": Tokens(ws.home)}),
        exception_handlers={Exception: error_response},
        request_max_body_size=MAX_BODY,
        cors_config=CORSConfig(allow_origins=["*"], allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
                               allow_methods=["GET", "POST", "PATCH", "DELETE"]),
        openapi_config=OpenAPIConfig(title="tabletape", version="0.1.0",
                                     description="Record, audit and follow tabletop playtests over HTTP."),
    )


def serve(home: Path, *, host: str, port: int) -> None:
    """Run the service in this process until stopped (uvicorn, one worker)."""
    import uvicorn

    uvicorn.run(create_app(home), host=host, port=port, log_level="warning")
