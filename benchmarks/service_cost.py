"""The service's own cost, measured so the shared disk cancels out.

    python -m benchmarks.service_cost                       # 8 clients, 5 rounds of 6 s
    python -m benchmarks.service_cost --clients 4 --rounds 3 --seconds 4

Each client appends to a match of its own (no 409s: every request is an append that
lands). Per round, at the same concurrency and on the same disk, one after the other:

- the store's own appends: `clients` threads in one process, each appending one event
  at a time to its own match with `Workspace.append_events` (fsyncs as the service does);
- the same through HTTP: a real `tabletape serve` process (uvicorn, one worker) and
  `clients` threads, each with its own HTTP client and match;

and the ratio HTTP / store of that round; the figure is the median of the rounds' ratios
(the disk's fsync time swings between rounds, not within one). The server's CPU per
request is read from /proc.

Group commit: what sharing fsyncs would give, measured at the disk alone. `clients`
threads each write an append's two writes (the lines, then the end anchor) to files of
their own and fsync each (as the store does), against the same writes acknowledged by one
committer thread that makes them durable together with one `syncfs` per group. The ratio
is an upper bound of what group commit could give the store (the rest of an append's work
is left out).
"""

from __future__ import annotations

import argparse
import ctypes
import os
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
    _client_loop,
    _cpu_seconds,
    _drafts,
    _free_port,
    _start_server,
    _store,
    check,
)
from dashboard.service.client import Client
from events.base import Event
from events.tokens import Tokens
from projections.corpus.simulate import play
from projections.workspace import Workspace


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


def http_round(home: Path, moves: list[dict[str, object]], clients: int, seconds: float) -> tuple[float, float, list[Tally]]:
    """(appends/s, server CPU seconds per request, tallies) of one HTTP round."""
    port = _free_port()
    server = _start_server(home, port)
    try:
        url = f"http://127.0.0.1:{port}"
        token, _ = Tokens(home).issue("write", label="service cost")
        studio = Client(url, token)
        ids = [studio.start("mortalgate@endless", SEATS, match_id=f"own-{i}").match_id for i in range(clients)]
        tallies = [Tally() for _ in range(clients)]
        until = time.monotonic() + seconds
        threads = [threading.Thread(target=_client_loop, args=(Client(url, token), ids[i], moves, until, tallies[i]))
                   for i in range(clients)]
        cpu_before, began = _cpu_seconds(server.pid), time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - began
        cpu = _cpu_seconds(server.pid) - cpu_before
    finally:
        server.terminate()
        server.wait(timeout=10)
    requests = sum(len(t.won_ms) + sum(t.refusals.values()) for t in tallies)
    return sum(len(t.won_ms) for t in tallies) / elapsed, cpu / max(requests, 1), tallies


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
    args = parser.parse_args()
    rounds: list[dict[str, float]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tabletape-service-cost-") as tmp:
        log = play(Workspace(_store(Path(tmp) / "rules")).rules("mortalgate@endless"), SEATS, seed=11,
                   max_events=args.events, audit=False)
        moves = [{}, *_drafts(log[1:])]
        lost = duplicated = refused = 0
        for number in range(args.rounds):
            store, store_cpu = store_round(_store(Path(tmp) / f"store-{number}"), log, args.clients, args.seconds)
            home = _store(Path(tmp) / f"http-{number}")
            http, cpu, tallies = http_round(home, moves, args.clients, args.seconds)
            found = check(home, tallies, moves)
            lost, duplicated = lost + found["lost"], duplicated + found["duplicated"]
            refused += sum(sum(t.refusals.values()) for t in tallies)
            single = fsync_round(Path(tmp) / f"fsync-{number}", args.clients, args.seconds / 2, grouped=False)
            grouped = fsync_round(Path(tmp) / f"group-{number}", args.clients, args.seconds / 2, grouped=True)
            rounds.append({"store": store, "http": http, "ratio": http / store, "cpu_ms": cpu * 1000, "store_cpu_ms": store_cpu * 1000,
                           "single": single, "grouped": grouped, "gain": grouped / single})
            print(f"round {number + 1}: store {store:,.0f}/s, http {http:,.0f}/s ({http / store:.2f}), "
                  f"{cpu * 1000:.2f} ms CPU per request ({store_cpu * 1000:.2f} ms per store append); fsync each {single:,.0f}/s, grouped {grouped:,.0f}/s", flush=True)

    def med(key: str) -> float:
        return statistics.median(r[key] for r in rounds)

    ratios = ", ".join(f"{r['ratio']:.2f}" for r in rounds)
    gains = ", ".join(f"{r['gain']:.2f}" for r in rounds)
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    command = f"python -m benchmarks.service_cost --clients {args.clients} --rounds {args.rounds} --seconds {args.seconds:g}"
    lines = [
        "## The service's own cost (`python -m benchmarks.service_cost`)", "",
        f"Measured {when} by `{command}` ({time.perf_counter() - started:.0f} s, load average {os.getloadavg()[0]:.1f}"
        f" on {os.cpu_count()} cores): {args.clients} clients, each appending one event at a time to a match of its own"
        " (MortalGate, every append audited live), so no request loses a race. Each round measures the store's own appends"
        " (as many threads, each on its own match, in one process) and then the same through a real `tabletape serve`"
        " process on the same disk; the ratio is taken per round and the median reported.", "",
        "| figure | value | per round | target | result |",
        "|---|---|---|---|---|",
        f"| HTTP appends / store appends, same concurrency, same round (median) | **{med('ratio'):.2f}** | {ratios} | >= 0.8 |"
        f" {'pass' if med('ratio') >= 0.8 else 'FAIL'} |",
        f"| HTTP appends/s (median) | {med('http'):,.0f} | | | |",
        f"| store appends/s (median) | {med('store'):,.0f} | | | |",
        f"| server CPU per request (median) | {med('cpu_ms'):.2f} ms | {med('cpu_ms') / med('store_cpu_ms'):.1f}x the store's"
        f" CPU per append ({med('store_cpu_ms'):.2f} ms, its threads' share of this process) | | |",
        f"| lost / duplicated / refused requests, all rounds | {lost} / {duplicated} / {refused} | | 0 / 0 / 0 |"
        f" {'pass' if not (lost or duplicated or refused) else 'FAIL'} |",
        f"| group commit at the disk: bare appends/s, two fsyncs each (median) | {med('single'):,.0f} | | | |",
        f"| group commit at the disk: bare appends/s, one syncfs per group (median) | {med('grouped'):,.0f} | | | |",
        f"| what group commit would give the disk side (grouped / fsync each) | {med('gain'):.2f}x | {gains} | | |",
    ]
    report = "\n".join(lines)
    print(report)
    write_section("service-cost", report)


if __name__ == "__main__":
    main()
