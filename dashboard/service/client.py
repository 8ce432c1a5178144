"""A typed Python client of `tabletape serve` (standard library HTTP + msgspec).

Answers are decoded into the same Structs the Python API returns (AuditReport, Note,
SeatView...), and events into their game's own event types, so code written against a
local `Workspace` reads the same against a server across the room:

    client = Client("http://studio:8600", token="tt_...")
    match = client.start("mortalgate@2.5", {"red": "ana", "blue": "ben"})
    done = client.append(match.match_id, [{"type": "DraftRolled", "red": 4, "blue": 2}], expected_seq=0)
    for batch in client.follow(match.match_id):   # new events and findings, as anyone appends
        ...

Every refusal is a `ServiceError` carrying the server's one-line message, its field and
status; a stale expected seq is a `StaleSeq` with the match's current last seq.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeVar

import msgspec

from dashboard.service.wire import Health, MatchSummary, Verified
from events.base import Event
from events.errors import TabletapeError
from events.notes import Note
from events.shared import MatchStarted
from projections.read.audit import AuditReport
from projections.read.branches import Family, Parting
from projections.read.compare import Comparison
from projections.read.rulenotes import RuleNotes
from projections.record.live import Appended, SeatView
from rulesets import registry
from rulesets.protocol import Violation

T = TypeVar("T")


class ServiceError(TabletapeError):
    """The service refused a request: its one-line message, the field it names, the status."""

    def __init__(self, status: int, message: str, field: str | None = None) -> None:
        super().__init__(f"{status}: {message}")
        self.status, self.message, self.field = status, message, field


class StaleSeq(ServiceError):
    """409: someone appended first; `last_seq` is where the match is now. Nothing was written."""

    def __init__(self, status: int, message: str, last_seq: int) -> None:
        super().__init__(status, message)
        self.last_seq = last_seq


class _RawAppended(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    events: list[msgspec.Raw]
    findings: list[Violation]
    last_seq: int


class Client:
    """One service, one token; thread-safe (every call is its own request)."""

    def __init__(self, url: str, token: str | None = None, *, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self._games: dict[str, str] = {}

    # --- rules and matches -----------------------------------------------------------

    def health(self) -> Health:
        """Whether the service is up (needs no token)."""
        return self._call("GET", "/health", into=Health)

    def rulesets(self) -> list[dict[str, Any]]:
        """Every game with its versions and the store's variants."""
        return self._call("GET", "/rulesets", into=list[dict[str, Any]])

    def rules(self, spec: str) -> dict[str, Any]:
        """A version's params with provenance, changelog and readings."""
        return self._call("GET", f"/rulesets/{_q(spec)}", into=dict[str, Any])

    def schema(self, game: str) -> dict[str, Any]:
        """JSON Schema of a game's events."""
        return self._call("GET", f"/games/{_q(game)}/schema", into=dict[str, Any])

    def matches(self) -> list[MatchSummary]:
        """Every match in the store."""
        return self._call("GET", "/matches", into=list[MatchSummary])

    def match(self, match_id: str) -> MatchSummary:
        """A match's header in brief and its last seq."""
        summary = self._call("GET", f"/matches/{_q(match_id)}", into=MatchSummary)
        self._games[match_id] = summary.ruleset
        return summary

    def start(self, ruleset: str, seats: Mapping[str, str], *, title: str = "", options: Mapping[str, Any] | None = None,
              match_id: str | None = None) -> MatchStarted:
        """Start a match; its line 0 as stored."""
        body = {"ruleset": ruleset, "seats": dict(seats), "title": title, "options": dict(options or {}), "match_id": match_id}
        started = self._call("POST", "/matches", body, into=MatchStarted)
        self._games[started.match_id] = started.ruleset
        return started

    # --- events --------------------------------------------------------------------

    def append(self, match_id: str, events: Sequence[Event | Mapping[str, Any]], *, expected_seq: int) -> Appended:
        """Append events (typed or as JSON objects) after `expected_seq`; the stored events
        and their findings. StaleSeq if the match moved on (nothing written)."""
        drafts = [msgspec.to_builtins(e) if isinstance(e, Event) else dict(e) for e in events]
        return self._appended(match_id, self._call("POST", f"/matches/{_q(match_id)}/events",
                                                   {"expected_seq": expected_seq, "events": drafts}, into=_RawAppended))

    def events(self, match_id: str, *, after: int = -1) -> Appended:
        """Events with seq > `after` and their live findings."""
        return self._appended(match_id, self._call("GET", f"/matches/{_q(match_id)}/events?after={after}", into=_RawAppended))

    def state(self, match_id: str, *, at: int | None = None, seat: str | None = None) -> SeatView:
        """The state at `at` (default: the last) as `seat` saw it."""
        return self._call("GET", f"/matches/{_q(match_id)}/state" + _query(at=at, seat=seat), into=SeatView)

    def follow(self, match_id: str, *, after: int | None = None, seat: str | None = None) -> Iterator[Appended | SeatView]:
        """Follow a match live: each batch of new events (with findings) as it lands, or
        with a seat, that seat's view after each change. Runs until the caller stops;
        ServiceError if the token is revoked meanwhile."""
        request = self._request("GET", f"/matches/{_q(match_id)}/stream" + _query(after=after, seat=seat))
        with self._open(request, timeout=None) as response:
            for kind, data in _sse(response):
                if kind == "events":
                    yield self._appended(match_id, msgspec.json.decode(data, type=_RawAppended))
                elif kind == "view":
                    yield msgspec.json.decode(data, type=SeatView)
                elif kind == "error":  # the token stopped working while the stream ran
                    refusal = json.loads(data)
                    raise ServiceError(int(refusal.get("status", 401)), str(refusal.get("error", "the stream was closed")))

    # --- reading and checking --------------------------------------------------------

    def audit(self, match_id: str, *, against: str | None = None) -> AuditReport:
        """Every broken rule and the result check, under its version or `against`."""
        return self._call("GET", f"/matches/{_q(match_id)}/audit" + _query(against=against), into=AuditReport)

    def compare(self, match_id: str, a: str, b: str) -> Comparison:
        """The match under two versions: first disagreement and outcome change."""
        return self._call("GET", f"/matches/{_q(match_id)}/compare" + _query(a=a, b=b), into=Comparison)

    def verify(self, match_id: str) -> Verified:
        """The hash chain check."""
        return self._call("GET", f"/matches/{_q(match_id)}/verify", into=Verified)

    def export(self, match_id: str) -> bytes:
        """The match's log exactly as stored."""
        with self._open(self._request("GET", f"/matches/{_q(match_id)}/export")) as response:
            return response.read()

    # --- what-if branches -------------------------------------------------------------

    def branch(self, match_id: str, at: int, *, new_id: str | None = None, title: str = "") -> MatchStarted:
        """Start a what-if branch holding the match's events up to `at`; its line 0."""
        body = {"at": at, "match_id": new_id, "title": title}
        started = self._call("POST", f"/matches/{_q(match_id)}/branches", body, into=MatchStarted)
        self._games[started.match_id] = started.ruleset
        return started

    def family(self, match_id: str) -> Family:
        """The match's parent (if it is a branch) and its branches."""
        return self._call("GET", f"/matches/{_q(match_id)}/branches", into=Family)

    def parting(self, match_id: str, other: str) -> Parting:
        """Where two lines of play part, and what each did next."""
        return self._call("GET", f"/matches/{_q(match_id)}/parting" + _query(other=other), into=Parting)

    # --- notes -----------------------------------------------------------------------

    def notes(self, match_id: str, *, include_removed: bool = False) -> list[Note]:
        """The match's notes."""
        return self._call("GET", f"/matches/{_q(match_id)}/notes" + _query(all="true" if include_removed else None), into=list[Note])

    def add_note(self, match_id: str, *, from_seq: int, author: str, text: str, to_seq: int | None = None,
                 tags: Sequence[str] = (), rule: str | None = None) -> Note:
        """Pin a note to an event or a range."""
        body = {"from_seq": from_seq, "to_seq": to_seq, "author": author, "text": text, "tags": list(tags), "rule": rule}
        return self._call("POST", f"/matches/{_q(match_id)}/notes", body, into=Note)

    def reply(self, match_id: str, note_id: str, *, author: str, text: str) -> Note:
        """Answer a note."""
        return self._call("POST", f"/matches/{_q(match_id)}/notes/{_q(note_id)}/replies", {"author": author, "text": text}, into=Note)

    def edit_note(self, match_id: str, note_id: str, *, author: str, text: str | None = None,
                  tags: Sequence[str] | None = None, rule: str | None = None) -> Note:
        """Change a note's text, tags or rule."""
        body = {"author": author, "text": text, "tags": None if tags is None else list(tags), "rule": rule}
        return self._call("PATCH", f"/matches/{_q(match_id)}/notes/{_q(note_id)}", body, into=Note)

    def remove_note(self, match_id: str, note_id: str, *, author: str, reason: str = "") -> Note:
        """Withdraw a note."""
        return self._call("DELETE", f"/matches/{_q(match_id)}/notes/{_q(note_id)}" + _query(author=author, reason=reason), into=Note)

    def notes_on_rule(self, rule: str, *, version: str | None = None, branches: bool = False) -> RuleNotes:
        """Every note about `rule` across matches, by version, beside the audit's findings of it."""
        return self._call("GET", "/notes" + _query(rule=rule, version=version, branches="true" if branches else None), into=RuleNotes)

    # --- analyses --------------------------------------------------------------------

    def queries(self) -> list[dict[str, Any]]:
        """The named analyses."""
        return self._call("GET", "/queries", into=list[dict[str, Any]])

    def query(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """Rows of a named analysis, one dict per row."""
        return self._call("GET", f"/queries/{_q(name)}" + _query(**params), into=list[dict[str, Any]])

    # --- plumbing --------------------------------------------------------------------

    def _appended(self, match_id: str, raw: _RawAppended) -> Appended:
        """Events decoded with their game's own codec (an event type is per game)."""
        game = self._games.get(match_id) or self.match(match_id).ruleset
        codec = registry.game(game).codec
        events = [codec.decode(bytes(line), where=f"{self.url} {match_id}") for line in raw.events]
        return Appended(match_id=raw.match_id, events=events, findings=raw.findings, last_seq=raw.last_seq)

    def _call(self, method: str, path: str, body: Any = None, *, into: type[T]) -> T:
        with self._open(self._request(method, path, body)) as response:
            return msgspec.json.decode(response.read(), type=into)

    def _request(self, method: str, path: str, body: Any = None) -> urllib.request.Request:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = msgspec.json.encode(body)
            headers["Content-Type"] = "application/json"
        return urllib.request.Request(self.url + path, data=data, method=method, headers=headers)

    def _open(self, request: urllib.request.Request, *, timeout: float | None = -1.0) -> Any:
        """Send; an HTTP error becomes ServiceError with the server's own message."""
        try:
            return urllib.request.urlopen(request, timeout=self.timeout if timeout == -1.0 else timeout)
        except urllib.error.HTTPError as error:
            raise _service_error(error) from None


def _service_error(error: urllib.error.HTTPError) -> ServiceError:
    try:
        body = json.loads(error.read() or b"{}")
    except ValueError:
        body = {}
    message = body.get("error") or error.reason
    if error.code == 409 and isinstance(body.get("last_seq"), int):
        return StaleSeq(error.code, message, body["last_seq"])
    return ServiceError(error.code, message, body.get("field"))


def _sse(response: Any) -> Iterator[tuple[str, bytes]]:
    """(event type, data) of each Server-Sent Events message."""
    kind, data = "message", b""
    for raw in response:
        line = raw.rstrip(b"\r\n")
        if not line:
            if data:
                yield kind, data
            kind, data = "message", b""
        elif line.startswith(b"event:"):
            kind = line[6:].strip().decode()
        elif line.startswith(b"data:"):
            data += line[5:].lstrip()


def _q(part: str) -> str:
    return urllib.parse.quote(part, safe="@")


def _query(**params: Any) -> str:
    given = {k: v for k, v in params.items() if v is not None}
    return "?" + urllib.parse.urlencode(given) if given else ""
