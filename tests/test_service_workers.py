"""`tabletape serve --workers 2`: two processes serving one store through one port. What
one process guaranteed holds across them: no append lost or doubled, a race's loser told
409, a token's stream limit, a revocation; the lean append route refuses exactly as
Litestar's route does; and kept-alive connections are held evenly by the two."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from benchmarks.service import children
from dashboard.service.server import MAX_BODY, create_app
from projections.workspace import Workspace
from tests.cli_support import run
from tests.service_support import (
    assert_no_traceback,
    cli_server,
    free_port,
    issue_token,
    start,
    stop,
)

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads which process holds a connection from /proc")

GOLDEN = Path(__file__).parent / "mortalgate" / "golden" / "mortalgate-mistakes.jsonl"
LINES = GOLDEN.read_bytes().splitlines()
MOVES = [msgspec.json.decode(line) for line in LINES]
PATIENCE = 30.0
"""Seconds any wait may take before the test fails (never reached unless something is wrong)."""


@dataclass
class Served:
    url: str
    port: int
    home: Path
    log: Path
    server: Any
    writer: str

    def token(self, *args: str) -> str:
        return issue_token(self.home, *args)

    def workers(self) -> list[int]:
        """The serving processes: the supervisor's children that multiprocessing spawned
        (multiprocessing's resource tracker is one of its children too)."""
        return [pid for pid in children(self.server.pid) if b"spawn_main" in _cmdline(pid)]

    def holder(self, connection: http.client.HTTPConnection) -> int | None:
        """The serving process holding this connection open, or None once none does (the
        server closes a kept-alive connection idle for its keep-alive seconds)."""
        assert connection.sock is not None
        client_port = connection.sock.getsockname()[1]
        mine = _sockets_of_port(self.port, state="01", peer_port=client_port)
        holders = [pid for pid in self.workers() if _sockets_of(pid) & mine]
        assert len(holders) <= 1, holders
        return holders[0] if holders else None

    def no_traceback(self) -> None:
        assert_no_traceback(self.log)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # ended meanwhile
        return b""


def _sockets_of(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def _sockets_of_port(port: int, *, state: str | None, peer_port: int | None = None) -> set[str]:
    """Inodes of the server's TCP sockets on `port` in `state` (0A listening, 01 connected,
    None: any but listening)."""
    return {inode for inode, _ in _connections_of_port(port, state=state, peer_port=peer_port)}


def _connections_of_port(port: int, *, state: str | None, peer_port: int | None = None) -> set[tuple[str, int]]:
    """(inode, client port) of the server's TCP sockets on `port` in `state`."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, peer = int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16)
        in_state = fields[3] == state if state is not None else fields[3] != "0A"
        if local == port and in_state and (peer_port is None or peer == peer_port) and fields[9] != "0":
            found.add((fields[9], peer))
    return found


@contextmanager
def _serving(home: Path, log: Path, *, ask: bool = True) -> Iterator[Served]:
    """`tabletape serve --workers 2` over `home` (`ask`: see `start`), once both of its
    serving processes run."""
    code, writer, err = run(home, "token", "issue", "--scope", "write", "--label", "studio")
    assert code == 0, err
    url, server = start([*cli_server(home), "--workers", "2"], log, ask=ask)
    try:
        here = Served(url=url, port=int(url.rsplit(":", 1)[1]), home=home, log=log, server=server, writer=writer.strip())
        deadline = time.monotonic() + PATIENCE
        while len(here.workers()) < 2:
            assert time.monotonic() < deadline, "two serving processes never ran"
            time.sleep(0.1)
        yield here
    finally:
        stop(server)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = tmp_path_factory.mktemp("workers")
    with _serving(home, home.parent / "workers-server.log") as here:
        yield here


def _connect(served: Served) -> http.client.HTTPConnection:
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=PATIENCE)
    connection.connect()
    return connection


def _on_every_worker(served: Served, at_least: int) -> list[http.client.HTTPConnection]:
    """At least `at_least` kept-alive connections, every serving process holding one or
    more (a process not yet started takes none: opened until it has).
    Each is asked who holds it as soon as it is answered; one the server has closed since
    (idle past its keep-alive, on a loaded machine) is left out."""
    held: dict[http.client.HTTPConnection, int | None] = {}
    deadline = time.monotonic() + PATIENCE
    while len(held) < at_least or len(set(held.values()) - {None}) < len(served.workers()):
        assert time.monotonic() < deadline, "one serving process never accepted a connection"
        connection = _connect(served)
        _health([connection])
        held[connection] = served.holder(connection)
    kept = [connection for connection in held if served.holder(connection) is not None]
    for connection in set(held) - set(kept):
        connection.close()
    return kept


def _health(connections: list[http.client.HTTPConnection]) -> None:
    for connection in connections:  # accepted and answered: the connection is a worker's
        connection.request("GET", "/health")
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 200


def _post(connection: http.client.HTTPConnection, path: str, body: bytes, token: str,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any], bytes]:
    connection.request("POST", path, body=body, headers={"Authorization": f"Bearer {token}",
                                                         "Content-Type": "application/json", **(headers or {})})
    answer = connection.getresponse()
    raw = answer.read()
    return answer.status, json.loads(raw), raw


def _append(connection: http.client.HTTPConnection, match_id: str, expected: int, token: str) -> tuple[int, dict[str, Any]]:
    body = msgspec.json.encode({"expected_seq": expected, "events": [MOVES[expected + 1]]})
    status, answer, _ = _post(connection, f"/matches/{match_id}/events", body, token)
    return status, answer


def _start(served: Served, match_id: str) -> None:
    """A MortalGate match of the golden log's first line (once: tests share the store)."""
    ws = Workspace(served.home)
    if match_id not in ws.matches():
        ws.import_log(LINES[0] + b"\n", match_id=match_id)


# --- appends ----------------------------------------------------------------------------

@dataclass
class _Racer:
    connection: http.client.HTTPConnection
    acked: dict[str, list[int]] = field(default_factory=dict)
    statuses: list[int] = field(default_factory=list)
    stale: list[tuple[int, int]] = field(default_factory=list)
    """(expected seq sent, last seq answered) of every 409."""
    odd: list[dict[str, Any]] = field(default_factory=list)


def test_appends_racing_through_two_workers_lose_and_duplicate_nothing(served: Served) -> None:
    _start(served, "shared")
    racers = [_Racer(c) for c in _on_every_worker(served, 6)]  # opened last: none sits idle past its keep-alive
    rounds = 12

    def race(racer: _Racer, own: str) -> None:
        _start(served, own)
        for match_id in ("shared", own):
            known = 0
            while len(racer.acked.get(match_id, [])) < rounds and known + 1 < len(MOVES) - 1:
                status, answer = _append(racer.connection, match_id, known, served.writer)
                racer.statuses.append(status)
                if status not in (201, 409):
                    racer.odd.append(answer)
                    return
                if status == 409:
                    racer.stale.append((known, answer["last_seq"]))
                else:
                    racer.acked.setdefault(match_id, []).extend(e["seq"] for e in answer["events"])
                known = answer["last_seq"]

    threads = [threading.Thread(target=race, args=(racer, f"own-{n}")) for n, racer in enumerate(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=PATIENCE * 4)
    assert not any(thread.is_alive() for thread in threads)
    assert not [r.odd for r in racers if r.odd], [r.odd for r in racers]
    ws = Workspace(served.home)
    for match_id in ["shared", *(f"own-{n}" for n in range(len(racers)))]:
        acked = sorted(seq for r in racers for seq in r.acked.get(match_id, []))
        stored = list(ws.events(match_id))
        assert acked == list(range(1, len(stored))), match_id  # every acknowledged append stored once, nothing else
        assert [e.seq for e in stored] == list(range(len(stored)))
        assert all(type(e).__name__ == MOVES[e.seq]["type"] and e.by == MOVES[e.seq]["by"] for e in stored[1:])
    assert all(last > sent for r in racers for sent, last in r.stale)  # a loser is told where the log is
    final = ws.store.last("shared")[0]
    for connection in _on_every_worker(served, 2):  # and a stale append is a 409 whichever process answers it
        status, answer = _append(connection, "shared", 0, served.writer)
        assert (status, answer["last_seq"]) == (409, final) and "\n" not in answer["error"], answer
        connection.close()
    for racer in racers:
        racer.connection.close()
    served.no_traceback()


# --- tokens -----------------------------------------------------------------------------

def test_a_revoked_token_is_refused_by_every_worker(served: Served) -> None:
    _start(served, "revoked")
    token = served.token("--scope", "write", "--match", "revoked", "--label", "lost phone")
    connections = _on_every_worker(served, 4)
    known = 0
    for connection in connections:  # every process has read the journal and let it in
        status, answer = _append(connection, "revoked", known, token)
        assert status == 201, answer
        known = answer["last_seq"]
        connection.close()
    code, _, err = run(served.home, "token", "revoke", token.split("_")[1])
    assert code == 0, err
    connections = _on_every_worker(served, 4)  # new: the revocation may take longer than a kept-alive connection
    for connection in connections:
        status, answer = _append(connection, "revoked", known, token)
        assert status == 401 and "revoked" in answer["error"] and "\n" not in answer["error"], answer
        connection.close()
    assert Workspace(served.home).store.last("revoked")[0] == known


def _open_stream(served: Served, token: str) -> tuple[http.client.HTTPConnection, int, bytes]:
    connection = _connect(served)
    return (connection, *_stream(connection, token))


def _stream(connection: http.client.HTTPConnection, token: str) -> tuple[int, bytes]:
    """Follow the match `streamed` on `connection`: (status, the first line)."""
    connection.request("GET", "/matches/streamed/stream", headers={"Authorization": f"Bearer {token}"})
    answer = connection.getresponse()
    return answer.status, answer.readline() if answer.status == 200 else answer.read()


def _four_streams_on_both_workers(served: Served, token: str) -> list[http.client.HTTPConnection]:
    """Four open streams of `token`, held by both serving processes (with a limit kept in
    each process's memory, each would let four more in)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        streams = []
        for _ in range(4):
            connection, status, first = _open_stream(served, token)
            assert status == 200, first
            streams.append(connection)
        if len({served.holder(c) for c in streams} - {None}) == 2:
            return streams
        for connection in streams:
            connection.close()
        assert time.monotonic() < deadline, "the streams never landed on both processes"
        _wait_for_a_place(served, token)


def _wait_for_a_place(served: Served, token: str) -> None:
    """Until the token may open a stream again (a server notices a closed stream at its
    next poll of the log)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        connection, status, _ = _open_stream(served, token)
        connection.close()
        if status == 200:
            return
        assert time.monotonic() < deadline, "a closed stream's place was never freed"
        time.sleep(0.1)


def test_a_tokens_stream_limit_holds_across_workers(served: Served) -> None:
    _start(served, "streamed")
    token = served.token("--scope", "read", "--label", "greedy")
    streams = _four_streams_on_both_workers(served, token)
    try:
        for _ in range(8):  # new connections, whichever process takes them
            connection, status, answer = _open_stream(served, token)
            connection.close()
            assert status == 429 and "at most 4" in json.loads(answer)["error"], answer
        other = served.token("--scope", "read", "--label", "other table")
        connection, status, _ = _open_stream(served, other)  # other tokens are not held up
        connection.close()
        assert status == 200
    finally:
        for connection in streams:
            connection.close()
    served.no_traceback()


def test_a_killed_workers_streams_give_their_places_back(served: Served) -> None:
    _start(served, "streamed")
    token = served.token("--scope", "read", "--label", "crashing table")
    streams = _four_streams_on_both_workers(served, token)
    try:
        victim = served.holder(streams[0])
        assert victim is not None  # a stream is never idle: its server holds it
        os.kill(victim, signal.SIGKILL)  # its locks die with it; the supervisor starts another
        deadline = time.monotonic() + PATIENCE
        while victim in served.workers() or len(served.workers()) < 2:
            assert time.monotonic() < deadline, "the killed process was never replaced"
            time.sleep(0.1)
        survivors = [c for c in streams if _held_by_live(served, c)]
        opened = []
        while len(survivors) + len(opened) < 4:
            connection, status, _ = _open_stream(served, token)
            if status == 200:
                opened.append(connection)
            else:
                connection.close()
                assert time.monotonic() < deadline, "a killed process's streams kept their places"
                time.sleep(0.1)
        streams += opened
        connection, status, _ = _open_stream(served, token)
        connection.close()
        assert status == 429  # and no more than that
    finally:
        for connection in streams:
            connection.close()


def _held_by_live(served: Served, connection: http.client.HTTPConnection) -> bool:
    return served.holder(connection) is not None


# --- connections dealt evenly -------------------------------------------------------------

@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Served]:
    """A server of the test's own that no process holds a connection of: its start was
    checked with connections closed unasked, and each has been seen closed."""
    with _serving(tmp_path / "home", tmp_path / "server.log", ask=False) as here:
        _start(here, "streamed")
        _until_closed(here)
        yield here
        here.no_traceback()


def _until_closed(served: Served, client_ports: set[int] | None = None) -> None:
    """Until no serving process holds any connection (or any of `client_ports`): a process
    tells the supervisor that a connection's client left before it closes the socket."""
    deadline = time.monotonic() + PATIENCE
    while True:
        held = {port for inode, port in _connections_of_port(served.port, state=None)
                if any(inode in _sockets_of(pid) for pid in served.workers())}
        if not (held if client_ports is None else held & client_ports):
            return
        assert time.monotonic() < deadline, f"the server still holds connections from {sorted(held)}"
        time.sleep(0.05)


def _streams_opened_at_once(served: Served, tokens: list[str]) -> list[http.client.HTTPConnection]:
    """A connection per token, all opened before any asks anything, each then following a
    match (a stream is never idle: no keep-alive timeout closes it)."""
    connections = [_connect(served) for _ in tokens]
    for connection, token in zip(connections, tokens, strict=True):
        status, first = _stream(connection, token)
        assert status == 200, first
    return connections


def test_connections_opened_at_once_are_held_evenly_by_the_serving_processes(fresh: Served) -> None:
    tokens = [fresh.token("--scope", "read", "--label", f"table {n}") for n in range(2)]
    connections = _streams_opened_at_once(fresh, tokens * 4)
    try:
        held = Counter(fresh.holder(c) for c in connections)
        assert None not in held and sorted(held.values()) == [4, 4], held
    finally:
        for connection in connections:
            connection.close()


def test_a_process_whose_connections_closed_takes_the_next_ones(fresh: Served) -> None:
    tokens = [fresh.token("--scope", "read", "--label", f"table {n}") for n in range(3)]
    connections = _streams_opened_at_once(fresh, tokens[:2] * 4)
    opened: list[http.client.HTTPConnection] = []
    try:
        holders = {c: fresh.holder(c) for c in connections}
        emptied = holders[connections[0]]
        leaving = [c for c in connections if holders[c] == emptied]
        staying = [c for c in connections if holders[c] != emptied]
        assert len(leaving) == 4 and emptied is not None
        ports = {c.sock.getsockname()[1] for c in leaving if c.sock is not None}
        for connection in leaving:
            connection.close()
        _until_closed(fresh, ports)
        opened = _streams_opened_at_once(fresh, tokens[2:] * 4)
        assert [fresh.holder(c) for c in opened] == [emptied] * 4
        assert [fresh.holder(c) for c in staying] == [holders[c] for c in staying]
    finally:
        for connection in connections + opened:
            connection.close()


# --- the lean append route refuses as Litestar's route does ------------------------------

def _refusals(served: Served) -> list[tuple[str, bytes, dict[str, str], str]]:
    """(why, body, headers, token) of appends the service refuses."""
    reader = served.token("--scope", "read", "--label", "reader")
    elsewhere = served.token("--scope", "write", "--match", "shared", "--label", "other match")
    seat = served.token("--scope", "seat", "--match", "refused", "--seat", "blue", "--label", "blue")
    revoked = served.token("--scope", "write", "--label", "revoked")
    code, _, err = run(served.home, "token", "revoke", revoked.split("_")[1])
    assert code == 0, err
    good = msgspec.json.encode({"expected_seq": 0, "events": [MOVES[1]]})
    writer = served.writer
    return [
        ("no token", good, {}, ""),
        ("not a token", good, {}, "secret"),
        ("unknown token", good, {}, "tt_00000000_" + "0" * 32),
        ("revoked token", good, {}, revoked),
        ("basic scheme", good, {"Authorization": f"Basic {writer}"}, ""),
        ("token given twice", good, {"Authorization": f"Bearer {writer}, Bearer {reader}"}, ""),
        ("read-only token", good, {}, reader),
        ("another match's token", good, {}, elsewhere),
        ("seat token", good, {}, seat),
        ("empty body", b"", {}, writer),
        ("not JSON", b"{", {}, writer),
        ("a list", b"[1]", {}, writer),
        ("float seq", b'{"expected_seq": 0.0, "event": {}}', {}, writer),
        ("string seq", b'{"expected_seq": "0", "event": {}}', {}, writer),
        ("negative seq", b'{"expected_seq": -1, "event": {}}', {}, writer),
        ("huge seq", b'{"expected_seq": 99999999999999999999, "event": {}}', {}, writer),
        ("unknown field", b'{"expected_seq": 0, "event": {}, "force": true}', {}, writer),
        ("key twice", b'{"expected_seq": 0, "expected_seq": 0, "event": {}}', {}, writer),
        ("key twice, compact", b'{"expected_seq":0,"expected_seq":0,"event":{}}', {}, writer),
        ("key twice in an event, compact", b'{"expected_seq":0,"events":[{"type":"DraftRolled","red":1,"red":2,"blue":3}]}', {}, writer),
        ("deep", b'{"expected_seq": 0, "event": ' + b'{"a": ' * 200 + b"1" + b"}" * 201, {}, writer),
        ("neither event nor events", b'{"expected_seq": 0}', {}, writer),
        ("both event and events", b'{"expected_seq": 0, "event": {}, "events": []}', {}, writer),
        ("not an event", b'{"expected_seq": 0, "event": {"type": "Nonsense"}}', {}, writer),
        ("wrong expected seq", msgspec.json.encode({"expected_seq": 3, "events": [MOVES[1]]}), {}, writer),
        ("oversized body", b'{"expected_seq": 0, "event": {"x": "' + b"x" * MAX_BODY + b'"}}', {}, writer),
    ]


def test_every_refusal_of_an_append_is_the_same_one_line_answer_through_two_workers(served: Served) -> None:
    _start(served, "refused")
    _start(served, "shared")
    first = msgspec.json.encode({"expected_seq": 0, "events": [MOVES[1]]})
    refusals = _refusals(served)
    with TestClient(app=create_app(served.home)) as litestar:  # the routes as they answer by themselves
        connections = _on_every_worker(served, 2)  # opened last: an idle connection is closed after 5 s
        for why, body, headers, token in refusals:
            sent = {**({"Authorization": f"Bearer {token}"} if token else {}), "Content-Type": "application/json", **headers}
            expected = litestar.post("/matches/refused/events", content=body, headers=sent)
            assert 400 <= expected.status_code < 500, (why, expected.text)
            for connection in connections:
                connection.request("POST", "/matches/refused/events", body=body, headers=sent)
                answer = connection.getresponse()
                raw = answer.read()
                assert (answer.status, json.loads(raw)) == (expected.status_code, expected.json()), why
                assert raw.count(b"\n") == 0 and answer.getheader("content-type") == "application/json", why
                if answer.getheader("connection") == "close":
                    connection.close()
        oversized = b'{"expected_seq": 0, "event": {"x": "' + b"x" * MAX_BODY + b'"}}'
        expected = litestar.post("/matches/refused/events", content=oversized, headers={"Authorization": f"Bearer {served.writer}"})
        for connection in connections:  # sent in chunks, without a length: cut off at the limit all the same
            chunks = (oversized[start:start + 65536] for start in range(0, len(oversized), 65536))
            connection.request("POST", "/matches/refused/events", body=chunks, encode_chunked=True,
                               headers={"Authorization": f"Bearer {served.writer}", "Transfer-Encoding": "chunked"})
            answer = connection.getresponse()
            assert (answer.status, json.loads(answer.read())) == (413, expected.json())
            connection.close()
        connections = _on_every_worker(served, 2)
        assert Workspace(served.home).store.last("refused")[0] == 0  # nothing was written
        for connection in connections:  # a missing match is the same 404 too
            status, answer, _ = _post(connection, "/matches/nowhere/events", first, served.writer)
            assert (status, answer) == (404, litestar.post("/matches/nowhere/events", content=first,
                                                           headers={"Authorization": f"Bearer {served.writer}"}).json()), answer
        status, answer, _ = _post(connections[0], "/matches/refused/events", first, served.writer)
        by_litestar = litestar.post("/matches/refused/events", headers={"Authorization": f"Bearer {served.writer}"},
                                    content=msgspec.json.encode({"expected_seq": 1, "events": [MOVES[2]]}))
        assert (status, by_litestar.status_code) == (201, 201)
        assert answer["last_seq"] == 1 and by_litestar.json()["last_seq"] == 2
        assert set(answer) == set(by_litestar.json()) and answer["events"][0]["seq"] == 1
    for connection in connections:
        connection.close()
    served.no_traceback()


def test_the_served_app_is_litestars_for_every_other_request(tmp_path: Path) -> None:
    """A browser's append (an `Origin`), one with a query string: Litestar answers them,
    CORS headers and query checks included."""
    from dashboard.service.server import served_app

    Workspace(tmp_path).import_log(LINES[0] + b"\n", match_id="m1")
    code, writer, err = run(tmp_path, "token", "issue", "--scope", "write")
    assert code == 0, err
    headers = {"Authorization": f"Bearer {writer.strip()}", "Origin": "http://table.local"}
    body = msgspec.json.encode({"expected_seq": 0, "events": [MOVES[1]]})
    with TestClient(app=served_app(tmp_path)) as client:  # type: ignore[arg-type]
        answer = client.post("/matches/m1/events", content=body, headers=headers)
        assert answer.status_code == 201 and answer.headers["access-control-allow-origin"] == "*", answer.text
        answer = client.post("/matches/m1/events?token=x", content=body, headers=headers)
        assert answer.status_code == 401 and "only on the event stream" in answer.json()["error"]



def test_one_worker_serves_from_the_process_started(tmp_path: Path) -> None:
    url, server = start([*cli_server(tmp_path), "--workers", "1"], tmp_path.parent / f"{tmp_path.name}-one.log")
    try:
        listening = _sockets_of_port(int(url.rsplit(":", 1)[1]), state="0A")
        assert _sockets_of(server.pid) & listening
        assert not [pid for pid in children(server.pid) if _sockets_of(pid) & listening]
    finally:
        stop(server)


# --- the supervisor starts, restarts and stops as uvicorn's did ----------------------------

def _ended(pids: list[int]) -> bool:
    return not any(Path(f"/proc/{pid}").exists() and _cmdline(pid) for pid in pids)


def test_ctrl_c_stops_the_supervisor_and_every_serving_process_cleanly(tmp_path: Path) -> None:
    with _serving(tmp_path, tmp_path.parent / f"{tmp_path.name}-ctrl-c.log") as here:
        workers = here.workers()
        held = _on_every_worker(here, 2)  # kept-alive connections do not hold the stop up
        for pid in [here.server.pid, *workers]:  # a terminal's Ctrl+C signals its whole group
            os.kill(pid, signal.SIGINT)
        assert here.server.wait(timeout=PATIENCE) == 0
        deadline = time.monotonic() + PATIENCE
        while not _ended(workers):
            assert time.monotonic() < deadline, "a serving process outlived its supervisor"
            time.sleep(0.1)
        for connection in held:
            connection.close()
        here.no_traceback()


def test_sighup_replaces_every_serving_process_and_the_service_goes_on(tmp_path: Path) -> None:
    with _serving(tmp_path, tmp_path.parent / f"{tmp_path.name}-hup.log") as here:
        before = set(here.workers())
        os.kill(here.server.pid, signal.SIGHUP)
        _two_new_serve(here, before, time.monotonic() + PATIENCE)
        here.no_traceback()


def _core_of(pid: int) -> int | frozenset[frozenset[int]]:
    """The one core every thread of a process is kept to; else the cores each may run on."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread ended meanwhile
            found.add(frozenset(os.sched_getaffinity(int(task.name))))
    return next(iter(next(iter(found)))) if len(found) == 1 and len(next(iter(found))) == 1 else frozenset(found)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: no two to keep the processes to")
def test_each_serving_process_keeps_to_a_core_of_its_own_and_so_do_their_replacements(tmp_path: Path) -> None:
    with _serving(tmp_path, tmp_path.parent / f"{tmp_path.name}-cores.log") as here:
        first = set(here.workers())
        cores = [_core_of(pid) for pid in first]
        assert all(isinstance(core, int) for core in cores) and len(set(cores)) == 2, cores  # one each, not the same
        os.kill(here.server.pid, signal.SIGHUP)
        _two_new_serve(here, first, time.monotonic() + PATIENCE)
        assert Counter(_core_of(pid) for pid in here.workers()) == Counter(cores)
        here.no_traceback()


def _two_new_serve(here: Served, before: set[int], deadline: float) -> None:
    """Two serving processes, neither of `before`, each answer on a connection of its own."""
    while len(after := set(here.workers())) != 2 or after & before:
        assert time.monotonic() < deadline, f"not two new serving processes: {before} -> {after}"
        time.sleep(0.1)
    connections = _on_every_worker(here, 2)
    _health(connections)
    for connection in connections:
        connection.close()


def test_a_taken_port_stops_the_supervisor_with_one_line_and_uvicorns_startup_code(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [part.replace("{port}", str(port)) for part in cli_server(tmp_path)]
        done = subprocess.run([*command, "--workers", "2"], capture_output=True, text=True, timeout=PATIENCE * 2)
    assert done.returncode == 3, done
    assert "Traceback" not in done.stderr and done.stderr.strip().count("\n") == 0, done.stderr
    assert "address already in use" in done.stderr.lower()


def test_ctrl_c_while_the_serving_processes_start_ends_them_without_a_traceback(tmp_path: Path) -> None:
    log = tmp_path.parent / f"{tmp_path.name}-early.log"
    command = [part.replace("{port}", str(free_port())) for part in cli_server(tmp_path)]
    with open(log, "wb") as output:
        server = subprocess.Popen([*command, "--workers", "2"], stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + PATIENCE
        while len(workers := [p for p in children(server.pid) if b"spawn_main" in _cmdline(p)]) < 2:
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.01)
        for pid in [server.pid, *workers]:  # still importing the service: a terminal's Ctrl+C
            os.kill(pid, signal.SIGINT)
        assert server.wait(timeout=PATIENCE) == 0, log.read_text()
    finally:
        stop(server)
    assert_no_traceback(log)


def test_a_process_killed_while_sighup_replaces_it_is_replaced_once(tmp_path: Path) -> None:
    with _serving(tmp_path, tmp_path.parent / f"{tmp_path.name}-hup-kill.log") as here:
        before = set(here.workers())
        os.kill(here.server.pid, signal.SIGHUP)
        deadline = time.monotonic() + PATIENCE
        while len(here.workers()) < 4:  # the new ones started, not yet ready
            assert time.monotonic() < deadline, "SIGHUP started no new processes"
            time.sleep(0.01)
        os.kill(min(before), signal.SIGKILL)
        _two_new_serve(here, before, deadline)


def test_a_serving_process_that_stops_answering_is_replaced(tmp_path: Path) -> None:
    with _serving(tmp_path, tmp_path.parent / f"{tmp_path.name}-hung.log") as here:
        hung = here.workers()[0]
        os.kill(hung, signal.SIGSTOP)  # alive, but its health check goes unanswered
        deadline = time.monotonic() + PATIENCE
        while hung in here.workers() or len(here.workers()) < 2:
            assert time.monotonic() < deadline, "the stopped process was never replaced"
            time.sleep(0.1)
        connections = _on_every_worker(here, 2)
        _health(connections)
        for connection in connections:
            connection.close()
