"""The service's own cost, measured so the shared disk cancels out.

    python -m benchmarks.service_cost                       # 8 clients, 5 rounds of 6 s
    python -m benchmarks.service_cost --clients 4 --rounds 3 --seconds 4 --baseline 66a93db

Each client appends to a match of its own (no 409s: every request is an append that
lands). Per round, at the same concurrency and on the same disk, one after the other:

- the store's own appends: `clients` threads in one process, each appending one event
  at a time to its own match with `Workspace.append_events` (fsyncs as the service does);
- the same through HTTP: a real `tabletape serve` (`--workers`: its serving processes,
  by default one per core) and `clients` threads, each with its own kept-alive
  connection and match;
- the same through HTTP served by the baseline commit's code (`--baseline`, extracted with
  `git archive`, run on the dependencies it declared: no uvloop), unless `--baseline ""`;

and the ratio HTTP / store of that round; the figure is the median of the rounds' ratios
(the disk's fsync time swings between rounds, not within one). The server's CPU per
request is read from /proc.

The clients cost as little as a client can, so the ratio measures the server (they share
its cores): each sends requests built once as bytes over one socket kept alive and reads
the answer's status and `last_seq` only (`_Wire`); every request waits for its answer.

Group commit (`--group-commit`): what sharing fsyncs would give, measured at the disk
alone. `clients` threads each write an append's two writes (the lines, then the end anchor)
to files of their own and fsync each (as the store does), against the same writes
acknowledged by one committer thread that makes them durable together with one `syncfs`
per group. The ratio is an upper bound of what group commit could give the store (the rest
of an append's work is left out).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import socket
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from benchmarks.sections import write_section
from benchmarks.service import (
    SEATS,
    Tally,
    _cpu_seconds,
    _drafts,
    _free_port,
    _start_server,
    _store,
    check,
)
from benchmarks.speed import code_tree
from dashboard.service.client import Client
from events.base import Event
from events.tokens import Tokens
from projections.corpus.simulate import play
from projections.workspace import Workspace

BASELINE = "66a93db"
"""The service in one process, every append through Litestar's routing and response."""


def store_round(home: Path, log: list[Event], clients: int, seconds: float) -> tuple[float, float]:
    """(appends/s, CPU seconds per append) of the store itself, `clients` threads each on
    its own match (this process does nothing else meanwhile)."""
    ws = Workspace(home)
    ids = [ws.new_match("mortalgate@endless", SEATS, match_id=f"direct-{i}").match_id for i in range(clients)]
    drafts = [msgspec.structs.replace(e, seq=-1, at=None, prev="") for e in log[1:]]
    counts = [0] * clients
    until = time.monotonic() + seconds

    def loop(i: int) -> None:
        own = Workspace(home)
        while time.monotonic() < until and counts[i] < len(drafts):
            own.append_events(ids[i], [drafts[counts[i]]], expected_seq=counts[i])
            counts[i] += 1

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(clients)]
    began, cpu = time.perf_counter(), time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.perf_counter() - began), (time.process_time() - cpu) / max(sum(counts), 1)


class _LastSeq(msgspec.Struct):
    """All a client reads of an answer (an append's and a 409's both carry it)."""

    last_seq: int


_LENGTH = re.compile(rb"\r\ncontent-length: *([0-9]+)", re.IGNORECASE)


class _Wire:
    """One connection kept alive, speaking just enough HTTP/1.1 for an append: a request
    is bytes built once but for its body, an answer is its status and its body (every
    answer of the service to an append has a Content-Length)."""

    def __init__(self, port: int, match_id: str, token: str) -> None:
        self.port = port
        self.head = (f"POST /matches/{match_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                     "Content-Type: application/json\r\nContent-Length: ").encode()
        self.sock = self._connect()
        self.unread = b""

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    def post(self, body: bytes) -> tuple[int, bytes]:
        self.sock.sendall(self.head + b"%d\r\n\r\n%s" % (len(body), body))
        data = self.unread
        while (end := data.find(b"\r\n\r\n")) < 0:
            data += self._recv()
        header, data = data[:end + 2], data[end + 4:]
        length = _LENGTH.search(header)
        if length is None:
            raise SystemExit(f"an answer without a Content-Length: {header[:200]!r}")
        size = int(length.group(1))
        while len(data) < size:
            data += self._recv()
        self.unread = data[size:]
        if b"\r\nconnection: close" in header.lower():
            self.sock.close()
            self.sock, self.unread = self._connect(), b""
        return int(header[9:12]), data[:size]

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise SystemExit("the server closed a kept-alive connection")
        return chunk

    def close(self) -> None:
        self.sock.close()


def _client_loop(wire: _Wire, match_id: str, moves: list[bytes], until: float, tally: Tally) -> None:
    """Append the match's next move until the deadline; after a 409, go on from its last seq."""
    known = 0
    try:
        while time.monotonic() < until and known + 1 < len(moves):
            began = time.perf_counter()
            status, answer = wire.post(b'{"expected_seq":%d,"events":[%s]}' % (known, moves[known + 1]))
            if status == 201:
                known = msgspec.json.decode(answer, type=_LastSeq).last_seq
                tally.won_ms.append((time.perf_counter() - began) * 1000)
                tally.acked.append((match_id, known))
            else:
                tally.refusals[status] += 1
                if status == 409:
                    tally.lost_ms.append((time.perf_counter() - began) * 1000)
                    known = msgspec.json.decode(answer, type=_LastSeq).last_seq
    finally:
        wire.close()


def http_round(home: Path, moves: list[bytes], clients: int, seconds: float,
               code: Path | None = None, workers: int | None = None) -> tuple[float, float, float, list[Tally]]:
    """(appends/s, server CPU seconds per request in all its processes, clients' CPU
    seconds per request, tallies) of one HTTP round; `code`: the tree whose code serves
    (default: this one, in `workers` processes)."""
    port = _free_port()
    server = _start_server(home, port, code, workers if code is None else None)
    try:
        token, _ = Tokens(home).issue("write", label="service cost")
        studio = Client(f"http://127.0.0.1:{port}", token)
        ids = [studio.start("mortalgate@endless", SEATS, match_id=f"own-{i}").match_id for i in range(clients)]
        wires = [_Wire(port, match_id, token) for match_id in ids]
        tallies = [Tally() for _ in range(clients)]
        until = time.monotonic() + seconds
        threads = [threading.Thread(target=_client_loop, args=(wires[i], ids[i], moves, until, tallies[i]))
                   for i in range(clients)]
        cpu_before, began, own = _cpu_seconds(server.pid), time.perf_counter(), time.process_time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed, own = time.perf_counter() - began, time.process_time() - own
        cpu = _cpu_seconds(server.pid) - cpu_before
    finally:
        server.terminate()
        server.wait(timeout=10)
    requests = max(sum(len(t.won_ms) + sum(t.refusals.values()) for t in tallies), 1)
    return sum(len(t.won_ms) for t in tallies) / elapsed, cpu / requests, own / requests, tallies


def _syncfs() -> ctypes._NamedFuncPointer:
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.syncfs


def fsync_round(folder: Path, clients: int, seconds: float, *, grouped: bool) -> float:
    """Appends/s of bare writes: each append's line and anchor written and made durable,
    by its own two fsyncs or by a shared syncfs per group."""
    folder.mkdir(parents=True, exist_ok=True)
    line, anchor = b"x" * 200 + b"\n", b"a" * 96
    counts = [0] * clients
    until = time.monotonic() + seconds
    pending: list[threading.Event] = []
    wake = threading.Condition()
    syncfs = _syncfs()

    def writer(i: int) -> None:
        log = os.open(folder / f"log-{i}", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        end = os.open(folder / f"end-{i}", os.O_WRONLY | os.O_CREAT)
        try:
            while time.monotonic() < until:
                os.write(log, line)
                if not grouped:
                    os.fsync(log)
                os.pwrite(end, anchor, 0)
                if grouped:
                    done = threading.Event()
                    with wake:
                        pending.append(done)
                        wake.notify()
                    done.wait()
                else:
                    os.fsync(end)
                counts[i] += 1
        finally:
            os.close(log)
            os.close(end)

    def committer() -> None:
        fd = os.open(folder, os.O_RDONLY)
        try:
            while time.monotonic() < until + 1 or pending:
                with wake:
                    if not pending:
                        wake.wait(timeout=0.05)
                    group = pending[:]
                    del pending[:]
                if group:
                    syncfs(fd)
                    for done in group:
                        done.set()
        finally:
            os.close(fd)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(clients)]
    keeper = threading.Thread(target=committer) if grouped else None
    began = time.perf_counter()
    if keeper:
        keeper.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    if keeper:
        keeper.join()
    return sum(counts) / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--events", type=int, default=5_000)
    parser.add_argument("--workers", type=int, default=None, help="this code's serving processes (default: serve's, one per core)")
    parser.add_argument("--baseline", default=BASELINE, help="commit whose service is measured in the same rounds (\"\": none)")
    parser.add_argument("--group-commit", action="store_true", help="also measure what group commit would give at the disk")
    args = parser.parse_args()
    tree = code_tree(args.baseline) if args.baseline else None
    rounds: list[dict[str, float]] = []
    started, loads = time.perf_counter(), [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="tabletape-service-cost-") as tmp:
        log = play(Workspace(_store(Path(tmp) / "rules")).rules("mortalgate@endless"), SEATS, seed=11,
                   max_events=args.events, audit=False)
        moves = [{}, *_drafts(log[1:])]
        sent = [msgspec.json.encode(move) for move in moves]
        lost = duplicated = refused = 0

        def served(name: str, code: Path | None) -> tuple[float, float, float]:
            nonlocal lost, duplicated, refused
            home = _store(Path(tmp) / name)
            rate, cpu, client_cpu, tallies = http_round(home, sent, args.clients, args.seconds, code, args.workers)
            found = check(home, tallies, moves)
            lost, duplicated = lost + found["lost"], duplicated + found["duplicated"]
            refused += sum(sum(t.refusals.values()) for t in tallies)
            return rate, cpu, client_cpu

        for number in range(args.rounds):
            store, store_cpu = store_round(_store(Path(tmp) / f"store-{number}"), log, args.clients, args.seconds)
            figures: dict[str, float] = {"store": store, "store_cpu_ms": store_cpu * 1000}
            sides = [("", None), ("base_", tree)] if tree is not None else [("", None)]
            for prefix, code in sides if number % 2 == 0 else sides[::-1]:  # taking turns: neither always goes first
                http, cpu, client_cpu = served(f"{prefix}http-{number}", code)
                figures |= {f"{prefix}http": http, f"{prefix}ratio": http / store, f"{prefix}cpu_ms": cpu * 1000,
                            f"{prefix}client_ms": client_cpu * 1000}
            if args.group_commit:
                single = fsync_round(Path(tmp) / f"fsync-{number}", args.clients, args.seconds / 2, grouped=False)
                grouped = fsync_round(Path(tmp) / f"group-{number}", args.clients, args.seconds / 2, grouped=True)
                figures |= {"single": single, "grouped": grouped, "gain": grouped / single}
            rounds.append(figures)
            loads.append(os.getloadavg()[0])
            print(f"round {number + 1}: store {store:,.0f}/s ({store_cpu * 1000:.2f} ms CPU per append); "
                  + "; ".join(f"{'baseline' if prefix else 'this code'} {figures[prefix + 'http']:,.0f}/s "
                              f"({figures[prefix + 'ratio']:.2f}), {figures[prefix + 'cpu_ms']:.2f} ms server CPU per request"
                              for prefix, _ in sides), flush=True)

    def med(key: str) -> float:
        return statistics.median(r[key] for r in rounds)

    def each(key: str) -> str:
        return ", ".join(f"{r[key]:.2f}" for r in rounds)

    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    workers = args.workers or os.cpu_count() or 1
    command = (f"python -m benchmarks.service_cost --clients {args.clients} --rounds {args.rounds} --seconds {args.seconds:g}"
               + (f" --workers {args.workers}" if args.workers else "") + f" --baseline {args.baseline or chr(34) * 2}")
    base = f"`{args.baseline}` (same rounds)"
    lines = [
        "## The service's own cost (`python -m benchmarks.service_cost`)", "",
        f"Measured {when} by `{command}` ({time.perf_counter() - started:.0f} s on {os.cpu_count()} cores; load average"
        f" {', '.join(f'{load:.1f}' for load in loads)} before and after each round): {args.clients} clients, each appending one"
        " event at a time to a match of its own (MortalGate, every append audited live), so no request loses a race. Each round"
        " measures the store's own appends (as many threads, each on its own match, in one process), then the same through a"
        f" real `tabletape serve` on the same disk, served by this code ({workers} serving process{'es' if workers > 1 else ''})"
        " and by the baseline's (as it serves by default; taking turns at going first); each ratio is taken against its round's store and the median reported. The clients are threads of the"
        " measuring process, each with one connection kept alive, sending requests built once as bytes and reading only the"
        " answer's status and `last_seq`: they share the server's cores, so they cost as little as a client can.", "",
        f"| figure | this code | {base if tree else 'baseline'} | target | result |",
        "|---|---|---|---|---|",
    ]

    def row(name: str, key: str, form: str, target: str = "", result: str = "") -> str:
        here = form.format(med(key))
        there = form.format(med("base_" + key)) if tree else ""
        return f"| {name} | {here} | {there} | {target} | {result} |"

    lines += [
        row("HTTP appends / store appends, same concurrency, same round (median)", "ratio", "**{:.2f}**", ">= 0.8",
            "pass" if med("ratio") >= 0.8 else "FAIL"),
        f"| ratio per round | {each('ratio')} | {each('base_ratio') if tree else ''} | | |",
        row("HTTP appends/s (median)", "http", "{:,.0f}"),
        f"| store appends/s (median) | {med('store'):,.0f} | (the same rounds) | | |",
        row("server CPU per request, all its processes (median)", "cpu_ms", "{:.2f} ms"),
        f"| the store's CPU per append (its threads' share of its process, median) | {med('store_cpu_ms'):.2f} ms | | | |",
        row("the clients' CPU per request (median)", "client_ms", "{:.2f} ms"),
        f"| lost / duplicated / refused requests, all rounds, both codes | {lost} / {duplicated} / {refused} | | 0 / 0 / 0 |"
        f" {'pass' if not (lost or duplicated or refused) else 'FAIL'} |",
    ]
    if args.group_commit:
        lines += [
            f"| group commit at the disk: bare appends/s, two fsyncs each (median) | {med('single'):,.0f} | | | |",
            f"| group commit at the disk: bare appends/s, one syncfs per group (median) | {med('grouped'):,.0f} | | | |",
            f"| what group commit would give the disk side (grouped / fsync each) | {med('gain'):.2f}x | | | |",
        ]
    report = "\n".join(lines)
    print(report)
    write_section("service-cost", report)


if __name__ == "__main__":
    main()
