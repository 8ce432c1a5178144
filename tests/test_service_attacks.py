"""The service attacked as a hostile client would: a seat token asking for other seats'
hands on every route, a revoked token holding its stream open, bodies and headers built to
break the parser, numbers that are not quite integers, clients that send a byte at a time.

Every attack runs against a real `tabletape serve` on 127.0.0.1 (a free port, a temporary
store); the server's log must never show a traceback. The slow clients are bounded (a few
dozen sockets, loopback only) and run against a server started with one-second deadlines,
so the suite takes seconds; every wait polls with a generous deadline.
"""

from __future__ import annotations

import http.client
import json
import socket
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

from dashboard.service.client import Client, ServiceError
from events.values import INT_MAX
from projections.corpus.simulate import play
from rulesets import registry
from tests.cli_support import run
from tests.service_support import assert_no_traceback, cli_server, issue_token, start, stop

HANDS = {"red": "ana", "yellow": "cy"}
ARMIES = {"p1": "ana", "p2": "ben"}
PATIENCE = 30.0
"""Seconds any wait may take before the test fails (never reached unless something is wrong)."""


@dataclass
class Table:
    url: str
    home: Path
    log: Path
    writer: str
    reader: str
    red: str
    """red's seat token on the Mercenarium match `hands`."""

    def token(self, *args: str) -> str:
        return issue_token(self.home, *args)

    def no_traceback(self) -> None:
        assert_no_traceback(self.log)


def _drafts(spec: str, seats: dict[str, str], count: int) -> list[dict[str, Any]]:
    """A bot's game as a table would send it (the store stamps seq, at and prev)."""
    events = play(registry.resolve(spec), seats, seed=1, max_events=count + 1)[1:]
    return [{k: v for k, v in msgspec.to_builtins(e).items() if k not in ("seq", "at", "prev")} for e in events]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    home = tmp_path_factory.mktemp("attacked-store")
    log = home.parent / "attacked-server.log"
    url, server = start(cli_server(home), log)
    try:
        _, writer, _ = run(home, "token", "issue", "--scope", "write")
        _, reader, _ = run(home, "token", "issue", "--scope", "read")
        writing = Client(url, writer.strip())
        writing.start("mercenarium@1.0", HANDS, match_id="hands")
        writing.append("hands", _drafts("mercenarium@1.0", HANDS, 12), expected_seq=0)
        _, red, _ = run(home, "token", "issue", "--scope", "seat", "--match", "hands", "--seat", "red")
        yield Table(url=url, home=home, log=log, writer=writer.strip(), reader=reader.strip(), red=red.strip())
    finally:
        stop(server)
    assert "Traceback" not in log.read_text(errors="replace"), log.read_text(errors="replace")


def _ask(url: str, method: str, path: str, body: bytes | None = None, headers: dict[str, Any] | None = None,
         token: str | None = None) -> tuple[int, dict[str, Any] | None, bytes]:
    """One request as raw as a hostile client sends it: (status, JSON body or None, bytes)."""
    where = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=PATIENCE)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        sent = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})}
        if body is not None:
            sent["Content-Length"] = str(len(body))
        for name, value in sent.items():
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        if response.getheader("content-type", "").startswith("text/event-stream"):
            return response.status, None, response.readline()
        raw = response.read()
    finally:
        connection.close()
    try:
        decoded = json.loads(raw)
    except ValueError:
        decoded = None
    return response.status, decoded if isinstance(decoded, dict) else None, raw


def _refused(status: int, answer: dict[str, Any] | None, expected: int, field: str | None = None) -> str:
    """The one-line error of a refusal with the expected status (and field)."""
    assert status == expected and answer is not None, (status, answer)
    assert answer["status"] == expected and "\n" not in answer["error"] and "Traceback" not in answer["error"], answer
    if field is not None:
        assert answer.get("field") == field, answer
    return str(answer["error"])


class _Stream:
    """An open Server-Sent Events response read message by message."""

    def __init__(self, url: str, path: str, headers: dict[str, str]) -> None:
        where = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=PATIENCE)
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.deadline = time.monotonic() + PATIENCE

    def next(self) -> tuple[str, str] | None:
        """(event, data) of the next message (comments skipped), None at the end; a stream
        still open after PATIENCE (heartbeats keep a socket busy) fails the test."""
        kind, data = "message", ""
        for raw in self.response:
            assert time.monotonic() < self.deadline, "the stream is still open"
            line = raw.decode().rstrip("\r\n")
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                data += line[5:].strip()
            elif not line and data:
                return kind, data
        return None

    def close(self) -> None:
        self.connection.close()


# --- a seat token sees its own seat, on every route ----------------------------------------

SEEN_AS_RED = ["", "?seat=red", "?seat=re%64"]
SEAT_ASKS = [
    *SEEN_AS_RED, "?seat=yellow", "?seat=red&seat=yellow", "?seat=yellow&seat=red", "?seat=red&seat=red", "?seat=",
    "?seat=&seat=yellow", "?seat=%79ellow", "?seat=YELLOW", "?seat=Red", "?seat=red%20", "?se%61t=yellow",
    "?seat=red;seat=yellow", "?seat=red%00yellow", "?seat=red,yellow",
]


def _every_get_path(table: Table) -> list[str]:
    """Every GET route the service documents, its path parameters filled in."""
    with urllib.request.urlopen(table.url + "/schema/openapi.json", timeout=PATIENCE) as response:
        paths = json.loads(response.read())["paths"]
    fill = {"match_id": "hands", "note_id": "n-none", "game": "mercenarium", "spec": "mercenarium@1.0", "name": "violations_by_rule"}
    return sorted(path.format(**fill) for path, item in paths.items() if "get" in item)


def _hidden(view: dict[str, Any]) -> dict[str, list[str]]:
    return {row["id"]: row["cards"] for row in view["view"]["rows"]}


def test_a_seat_token_never_sees_another_seats_hand_on_any_route(table: Table) -> None:
    paths = _every_get_path(table)
    assert "/matches/hands/state" in paths and "/matches/hands/stream" in paths and len(paths) >= 15
    shown = 0
    for path in paths:
        for ask in SEAT_ASKS:
            target = path + ask + ("&" if ask else "?") + "after=0" if path.endswith("/stream") else path + ask
            status, answer, raw = _ask(table.url, "GET", target, token=table.red)
            if status >= 400:
                _refused(status, answer, status)
                assert status in (403, 404, 422), (target, status)
                continue
            assert status == 200, (target, status)
            if path.startswith(("/rulesets", "/games/", "/health")):  # a game's rules and schema: nothing of any match
                continue
            assert path in ("/matches/hands/state", "/matches/hands/stream") and ask in SEEN_AS_RED, target
            if path.endswith("/stream"):
                stream = _Stream(table.url, target, {"Authorization": f"Bearer {table.red}"})
                try:
                    assert stream.next() == ("ready", '{"after":0}')
                    kind, data = stream.next() or ("", "")
                finally:
                    stream.close()
                assert kind == "view", target
                view = json.loads(data)
            else:
                view = json.loads(raw)
            hands = _hidden(view)
            assert view["seat"] == "red" and view["state"] is None, target
            assert set(hands["hand-yellow"]) == {"?"} and "?" not in hands["hand-red"], target
            shown += 1
    assert shown == 2 * len(SEEN_AS_RED)  # state and stream, as red and as nobody else
    table.no_traceback()


@pytest.mark.parametrize("ask", ["?seat=red&seat=yellow", "?seat=yellow&seat=red", "?seat=", "?seat=red&seat=red"])
@pytest.mark.parametrize("route", ["state", "stream"])
def test_a_seat_given_twice_or_empty_is_refused_for_every_token(table: Table, route: str, ask: str) -> None:
    for token in (table.red, table.reader):
        status, answer, _ = _ask(table.url, "GET", f"/matches/hands/{route}{ask}", token=token)
        assert "seat" in _refused(status, answer, 422, "seat")


def test_a_seat_token_never_sees_the_other_armys_secret_choice(table: Table) -> None:
    writer = Client(table.url, table.writer)
    writer.start("frontier@1.0", ARMIES, match_id="armies")
    drafts = _drafts("frontier@1.0", ARMIES, 80)
    first = next(i for i, d in enumerate(drafts) if d["type"] == "ArmySelected")
    writer.append("armies", drafts[:first + 1], expected_seq=0)
    chooser = drafts[first]["by"]
    other = next(seat for seat in ARMIES if seat != chooser)
    token = table.token("--scope", "seat", "--match", "armies", "--seat", other)
    full = {seat: text for panel in Client(table.url, table.reader).state("armies").view.panels if panel.title == "Armies"
            for seat, text in panel.rows}
    assert "pts" in full[chooser] and "choosing" in full[other]  # one army chosen, the other not yet
    for ask in ("", f"?seat={other}"):
        status, answer, _ = _ask(table.url, "GET", f"/matches/armies/state{ask}", token=token)
        assert status == 200 and answer is not None
        armies = {seat: text for panel in answer["view"]["panels"] if panel["title"] == "Armies" for seat, text in panel["rows"]}
        assert "secret" in armies[chooser] and "pts" not in armies[chooser], armies
    for ask in (f"?seat={chooser}", f"?seat={other}&seat={chooser}", f"?seat={chooser}&seat={other}", f"?seat={chooser.upper()}"):
        for route in ("state", "stream"):
            status, answer, _ = _ask(table.url, "GET", f"/matches/armies/{route}{ask}", token=token)
            assert status in (403, 422), (route, ask, status)
            _refused(status, answer, status)


# --- a token is read from the header; `?token=` only where a browser needs it ----------------

def test_a_token_in_the_query_string_is_refused_everywhere_but_the_stream(table: Table) -> None:
    for path in _every_get_path(table):
        status, answer, _ = _ask(table.url, "GET", f"{path}?token={table.reader}")
        if path.endswith("/stream"):
            assert status == 200, path
        else:
            assert "Authorization: Bearer" in _refused(status, answer, 401), path
    status, answer, _ = _ask(table.url, "GET", f"/matches?token={table.reader}", token=table.reader)
    _refused(status, answer, 401)


# --- a stream stops when its token does -------------------------------------------------------

@pytest.mark.parametrize("scope", ["read", "seat"])
def test_a_revoked_tokens_open_stream_ends_before_the_next_event(table: Table, scope: str) -> None:
    writer = Client(table.url, table.writer)
    match_id = f"revoked-{scope}"
    writer.start("mercenarium@1.0", HANDS, match_id=match_id)
    args = ("--scope", "read") if scope == "read" else ("--scope", "seat", "--match", match_id, "--seat", "red")
    text = table.token(*args)
    stream = _Stream(table.url, f"/matches/{match_id}/stream?after=0", {"Authorization": f"Bearer {text}"})
    try:
        assert stream.status == 200 and stream.next() == ("ready", '{"after":0}')
        code, _, err = run(table.home, "token", "revoke", text.split("_")[1])
        assert code == 0, err
        writer.append(match_id, _drafts("mercenarium@1.0", HANDS, 3), expected_seq=0)
        rest = []
        while (message := stream.next()) is not None:  # the server ends it; PATIENCE bounds the wait
            rest.append(message)
    finally:
        stream.close()
    [(kind, data)] = rest
    assert kind == "error" and json.loads(data) == {"error": f"token {text.split('_')[1]} was revoked", "status": 401}
    table.no_traceback()


def test_the_python_client_reports_a_revoked_stream(table: Table) -> None:
    writer = Client(table.url, table.writer)
    writer.start("mercenarium@1.0", HANDS, match_id="revoked-client")
    text = table.token("--scope", "read")
    received: list[object] = []

    def follow() -> None:
        try:
            for batch in Client(table.url, text).follow("revoked-client", after=0):
                received.append(batch)
        except ServiceError as error:
            received.append(error)

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    writer.append("revoked-client", _drafts("mercenarium@1.0", HANDS, 1), expected_seq=0)
    deadline = time.monotonic() + PATIENCE
    while not received:  # the stream is open and has delivered: only now is the token revoked
        assert time.monotonic() < deadline, "the follower never received the first event"
        time.sleep(0.05)
    code, _, _ = run(table.home, "token", "revoke", text.split("_")[1])
    assert code == 0
    thread.join(timeout=PATIENCE)
    assert not thread.is_alive(), "the stream went on after its token was revoked"
    error = received[-1]
    assert len(received) == 2 and isinstance(error, ServiceError) and error.status == 401 and "revoked" in error.message


def test_a_token_holds_at_most_four_streams(table: Table) -> None:
    text = table.token("--scope", "read", "--label", "greedy")
    headers = {"Authorization": f"Bearer {text}"}
    streams = [_Stream(table.url, "/matches/hands/stream", headers) for _ in range(4)]
    try:
        assert [s.status for s in streams] == [200] * 4 and all(s.next() is not None for s in streams)
        status, answer, _ = _ask(table.url, "GET", "/matches/hands/stream", token=text)
        assert "at most 4" in _refused(status, answer, 429)
        assert Client(table.url, table.reader).match("hands").last_seq == 12  # other tokens are not held up
        streams.pop().close()
        deadline = time.monotonic() + PATIENCE
        while True:  # the server notices the closed connection at its next poll
            again = _Stream(table.url, "/matches/hands/stream", headers)
            if again.status == 200:
                streams.append(again)
                break
            again.close()
            assert time.monotonic() < deadline, "a closed stream's place was never freed"
            time.sleep(0.1)
    finally:
        for stream in streams:
            stream.close()


# --- malformed requests are a one-line 4xx, never a traceback ---------------------------------

DEEP_FIELD = b'{"expected_seq": 0, "event": {"type": "Recruited", "by": "red", "card": ' + b"[" * 5000 + b"]" * 5000 + b"}}"


@pytest.mark.parametrize(("body", "status", "field"), [
    (b"[" * 100_000, 400, "body"),
    (b"{" * 100_000, 400, "body"),
    (DEEP_FIELD, 400, "body"),
    (b'{"expected_seq": 0, "event": {"type": "Recruited", "by": "red", "card": ' + b"[" * 40 + b"]" * 40 + b"}}", 422, "event.card"),
    (b'{"expected_seq": 0, "event": ', 400, "body"),
    (b'{"expected_seq": 0, "event": {"type": "\xff\xfe"}}', 400, "body"),
    (b"", 422, "body"),
    (b"   ", 422, "body"),
    (b"[]", 422, "body"),
    (b"null", 422, "body"),
    (b'{"expected_seq": 0, "events": [1, 2]}', 422, "events"),
    (b'{"expected_seq": 0, "event": {"type": "Recruited", "by": "red", "card": 18446744073709551616}}', 422, "event.card"),
    (b'{"expected_seq": 12, "expected_seq": 12, "event": {"type": "Passed", "by": "red"}}', 422, "expected_seq"),
    (b'{"expected_seq": 12, "event": {"type": "Passed", "by": "red", "by": "blue"}}', 422, "event.by"),
])
def test_a_malformed_body_is_a_one_line_4xx(table: Table, body: bytes, status: int, field: str) -> None:
    got, answer, _ = _ask(table.url, "POST", "/matches/hands/events", body, token=table.writer)
    _refused(got, answer, status, field)
    assert Client(table.url, table.reader).match("hands").last_seq == 12
    table.no_traceback()


@pytest.mark.parametrize(("headers", "status"), [
    ({"Last-Event-ID": "9" * 5000}, 422),
    ({"Last-Event-ID": "5.0"}, 422),
    ({"Last-Event-ID": "-2"}, 422),
    ({"Last-Event-ID": "0x10"}, 422),
    ({"Last-Event-ID": str(INT_MAX + 1)}, 422),
    ({"Authorization": b"Bearer tt_\xff\xfe"}, 401),
    ({"Authorization": "Bearer " + "a" * 8000}, 401),
    ({"Authorization": "Basic dXNlcjpwYXNz"}, 401),
])
def test_a_malformed_header_is_a_one_line_4xx(table: Table, headers: dict[str, Any], status: int) -> None:
    token = None if "Authorization" in headers else table.reader
    got, answer, _ = _ask(table.url, "GET", "/matches/hands/stream", headers=headers, token=token)
    error = _refused(got, answer, status, "Last-Event-ID" if "Last-Event-ID" in headers else None)
    assert len(error) < 200
    table.no_traceback()


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/matches/%ff/state", 422),
    ("GET", "/matches/%00/events", 422),
    ("GET", "/matches/..%2F..%2Fetc/export", 404),
    ("GET", "/matches/" + "m" * 5000, 422),
    ("GET", "/no/such/route", 404),
    ("PUT", "/matches", 405),
    ("GET", "/matches/hands/events?after=1&after=2", 422),
    ("GET", "/matches/hands/notes?all=maybe", 422),
])
def test_a_malformed_path_or_method_is_a_one_line_4xx(table: Table, method: str, path: str, status: int) -> None:
    got, answer, _ = _ask(table.url, method, path, token=table.reader)
    _refused(got, answer, status)
    table.no_traceback()


def _raw_answer(url: str, request: bytes) -> tuple[int, dict[str, Any]]:
    """Send bytes as they are; the status and JSON body of the answer, read until the server
    closes the connection."""
    sock = _connect(url)
    try:
        sock.sendall(request)
        received = _answer_then_closed(sock)
    finally:
        sock.close()
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body)


def test_headers_past_sixteen_kilobytes_are_a_one_line_431(table: Table) -> None:
    request = (b"GET /matches/hands HTTP/1.1\r\nHost: table\r\nAuthorization: Bearer " + table.reader.encode()
               + b"\r\n" + b"".join(b"X-Padding-%d: %s\r\n" % (n, b"p" * 1000) for n in range(17)) + b"\r\n")
    status, answer = _raw_answer(table.url, request)
    assert "16 KB" in _refused(status, answer, 431)
    assert Client(table.url, table.reader).match("hands").last_seq == 12
    table.no_traceback()


@pytest.mark.parametrize("request_bytes", [b"GET /health HTTP/9.9\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
                                           b"GET /health HTTP/1.1\r\nContent-Length: x\r\n\r\n"])
def test_a_request_that_is_not_http_is_a_one_line_400(table: Table, request_bytes: bytes) -> None:
    status, answer = _raw_answer(table.url, request_bytes)
    _refused(status, answer, 400)
    table.no_traceback()


# --- integers are integers, within what a log holds ---------------------------------------------

@pytest.mark.parametrize("value", [b"12.0", b'"12"', b"12e0", b"true", b"1e30", b"1" + b"0" * 30, b"-1", str(INT_MAX + 1).encode(), b"null"])
def test_an_expected_seq_that_is_not_a_whole_number_in_range_is_refused(table: Table, value: bytes) -> None:
    body = b'{"expected_seq": ' + value + b', "events": ' + json.dumps(_drafts("mercenarium@1.0", HANDS, 13)[12:]).encode() + b"}"
    got, answer, _ = _ask(table.url, "POST", "/matches/hands/events", body, token=table.writer)
    _refused(got, answer, 422, "expected_seq")
    assert Client(table.url, table.reader).match("hands").last_seq == 12


@pytest.mark.parametrize(("body", "field"), [
    (b'{"from_seq": 0.0, "author": "ana", "text": "x"}', "from_seq"),
    (b'{"from_seq": "0", "author": "ana", "text": "x"}', "from_seq"),
    (b'{"from_seq": 0, "to_seq": "1", "author": "ana", "text": "x"}', "to_seq"),
    (b'{"from_seq": 0, "to_seq": 1e30, "author": "ana", "text": "x"}', "to_seq"),
    (b'{"from_seq": -1, "author": "ana", "text": "x"}', "from_seq"),
])
def test_a_notes_seq_that_is_not_a_whole_number_is_refused(table: Table, body: bytes, field: str) -> None:
    got, answer, _ = _ask(table.url, "POST", "/matches/hands/notes", body, token=table.writer)
    _refused(got, answer, 422, field)
    assert Client(table.url, table.reader).notes("hands") == []


@pytest.mark.parametrize("value", ["5.0", "5e0", "%2B5", "%205", "%D9%A5", "1" + "0" * 30, "0x5", "", "five", str(INT_MAX + 1)])
@pytest.mark.parametrize(("route", "name"), [("events", "after"), ("stream", "after"), ("state", "at")])
def test_an_integer_query_parameter_is_read_strictly(table: Table, route: str, name: str, value: str) -> None:
    got, answer, _ = _ask(table.url, "GET", f"/matches/hands/{route}?{name}={value}", token=table.reader)
    _refused(got, answer, 422, name)


def test_a_seq_past_the_logs_end_is_answered_with_where_the_log_is(table: Table) -> None:
    status, answer, _ = _ask(table.url, "GET", f"/matches/hands/events?after={INT_MAX}", token=table.reader)
    assert status == 200 and answer is not None and answer["events"] == [] and answer["last_seq"] == 12
    for path, headers, field in ((f"/matches/hands/stream?after={INT_MAX}", {}, "after"),
                                 ("/matches/hands/stream?after=13", {}, "after"),
                                 ("/matches/hands/stream", {"Last-Event-ID": "13"}, "Last-Event-ID")):
        got, answer, _ = _ask(table.url, "GET", path, headers=headers, token=table.reader)
        assert "last seq 12" in _refused(got, answer, 422, field)


# --- the schema pages work without the internet ----------------------------------------------

def test_the_schema_pages_fetch_nothing_from_the_internet(table: Table) -> None:
    for path in ("/schema", "/schema/"):
        status, _, raw = _ask(table.url, "GET", path)
        page = raw.decode()
        assert status == 200 and "/matches/{match_id}/stream" in page, path
        assert "<script" not in page and "://" not in page and "<link" not in page, path
    for path in ("/schema/openapi.json", "/schema/openapi.yaml"):
        status, _, raw = _ask(table.url, "GET", path)
        assert status == 200 and b"/matches/{match_id}/state" in raw, path
    for path in ("/schema/swagger", "/schema/redoc", "/schema/rapidoc", "/schema/elements", "/schema/scalar"):
        status, answer, _ = _ask(table.url, "GET", path)
        _refused(status, answer, 404)


# --- slow clients are cut off ------------------------------------------------------------------

@pytest.fixture(scope="module")
def impatient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server with one-second header and body deadlines (the defaults are 10 and 30 s;
    the keep-alive timeout stays 5 s, so a kept-alive connection meets the header deadline
    first whenever its next request's bytes come)."""
    home = tmp_path_factory.mktemp("impatient-store")
    log = home.parent / "impatient-server.log"
    code = ("import sys; from pathlib import Path; from dashboard.service.server import Limits, serve; "
            "serve(Path(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), "
            "limits=Limits(header_seconds=1, body_seconds=1))")
    url, server = start([sys.executable, "-c", code, str(home), "{port}"], log)
    try:
        yield url, home
    finally:
        stop(server)
    assert "Traceback" not in log.read_text(errors="replace"), log.read_text(errors="replace")


def _connect(url: str) -> socket.socket:
    where = urllib.parse.urlsplit(url)
    assert where.hostname == "127.0.0.1"
    return socket.create_connection(("127.0.0.1", where.port or 80), timeout=PATIENCE)


def _answer_then_closed(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (PATIENCE bounds each read)."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def test_slow_headers_and_slow_bodies_are_cut_off_while_others_are_served(impatient: tuple[str, Path]) -> None:
    url, home = impatient
    _, token, _ = run(home, "token", "issue", "--scope", "write")
    slow: list[socket.socket] = []
    try:
        for _ in range(20):  # headers that never end
            sock = _connect(url)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: table\r\n")
            slow.append(sock)
        for _ in range(20):  # a body that never arrives in full
            sock = _connect(url)
            sock.sendall(b"POST /matches HTTP/1.1\r\nHost: table\r\nContent-Type: application/json\r\n"
                         b"Authorization: Bearer " + token.strip().encode() + b"\r\nContent-Length: 1000\r\n\r\n{\"ruleset\"")
            slow.append(sock)
        keep_alive = _connect(url)  # a second request on a kept-alive connection, never finished
        keep_alive.sendall(b"GET /health HTTP/1.1\r\nHost: table\r\n\r\n")
        first = http.client.HTTPResponse(keep_alive)  # type: ignore[arg-type]  # reads exactly one answer
        first.begin()
        assert first.status == 200 and first.read()
        keep_alive.sendall(b"GET /health HTTP/1.1\r\n")
        slow.append(keep_alive)
        assert Client(url).health().status == "ok"  # served while the slow ones wait
        for sock in slow:
            answer = _answer_then_closed(sock)
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 408"), answer
            assert "took longer than 1 s" in json.loads(body)["error"]
    finally:
        for sock in slow:
            sock.close()


def test_a_client_trickling_its_headers_is_cut_off_however_often_it_sends(impatient: tuple[str, Path]) -> None:
    url, _ = impatient
    sock = _connect(url)
    sock.settimeout(0.2)
    deadline = time.monotonic() + PATIENCE
    received = b""
    try:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: table\r\nX-Slow: ")
        while time.monotonic() < deadline:
            try:  # look for the answer first, then send the next byte
                chunk = sock.recv(65536)
            except TimeoutError:
                try:
                    sock.sendall(b"a")
                except (BrokenPipeError, ConnectionResetError):
                    continue  # closed: the answer is read next time round
                continue
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
        else:
            raise AssertionError("a client sending a byte every 0.2 s kept its connection")
    finally:
        sock.close()
    assert received.startswith(b"HTTP/1.1 408"), received
