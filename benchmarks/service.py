"""Load on `tabletape serve`: many tables appending to the same matches at once.

    python -m benchmarks.service                 # 50 clients, 10 matches, 20 s
    python -m benchmarks.service --clients 20 --matches 5 --seconds 10

A real server process (uvicorn, one worker) over a fresh store; `clients` threads, each
with its own HTTP client, append one event at a time to one of `matches` matches,
passing the last seq they know. A client that loses the race gets 409 with the current
last seq and tries again from there, the way a table's script would. Every match replays
the same long legal bot game, so each append is the next real move.

Checked after the run, from the logs on disk: every acknowledged append is in its log
at the seq it was acknowledged with and holds the event sent (0 lost), no seq was
acknowledged twice and each log holds exactly its acknowledged events (0 duplicated),
every refused request was a 409 (every loser a 409), and every hash chain verifies.

Baseline, same run, same disk: the store's own append rate (`Workspace.append_events`
with the expected seq, one event per append, fsync) from one thread in this process,
measured before and after the load (the disk is shared; the mean is the baseline).
A report, not a timed test.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from benchmarks.measure import median, percentile
from benchmarks.sections import write_section
from dashboard.service.client import Client, ServiceError, StaleSeq
from events.base import Event
from events.tokens import Tokens
from projections.corpus.simulate import play
from projections.workspace import Workspace

VARIANT = 'extends = "mortalgate@1.5"\ntitle = "a game that does not end (load test)"\n[params]\ngrace_to_win = 100000\n'
SEATS = {"red": "ana", "blue": "ben"}


@dataclass
class Tally:
    """What one client saw: acknowledged (match, seq) pairs, latencies, refusals."""

    acked: list[tuple[str, int]] = field(default_factory=list)
    won_ms: list[float] = field(default_factory=list)
    lost_ms: list[float] = field(default_factory=list)
    refusals: Counter[int] = field(default_factory=Counter)


def _drafts(events: list[Event]) -> list[dict[str, Any]]:
    return [{k: v for k, v in msgspec.to_builtins(e).items() if k not in ("seq", "at", "prev")} for e in events]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_server(home: Path, port: int, code: Path | None = None, workers: int | None = None) -> subprocess.Popen[bytes]:
    """`tabletape serve` over `home`, once it answers; `code`: a baseline commit's tree serves
    instead, on the dependencies it declared (uvloop, which uvicorn would pick up by itself,
    hidden unless it is one); `workers`: its `--workers` (None: its default)."""
    env, first = dict(os.environ), ""
    if code is not None:
        env["PYTHONPATH"] = str(code)
        if '"uvloop' not in (code / "pyproject.toml").read_text():
            first = "import sys; sys.modules['uvloop'] = None; "
    more = ["--workers", str(workers)] if workers is not None else []
    server = subprocess.Popen([sys.executable, "-c", first + "from dashboard.cli.commands import main; main()", "--home",
                               str(home), "serve", "--port", str(port), *more], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              env=env, cwd=code)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the service did not start: {server.communicate()[1].decode()}")


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of a process and every process it started (Linux
    /proc): what the server itself spent, in however many processes it serves, whatever
    else the shared machine runs."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(_cpu_seconds(child) for child in children(pid))


def children(pid: int) -> list[int]:
    """The processes `pid` started that still run (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError):  # ended meanwhile
                continue
    return found


def _client_loop(client: Client, match_id: str, moves: list[dict[str, Any]], until: float, tally: Tally) -> None:
    """Append the match's next move until the deadline; after a 409, go on from its last seq."""
    known = 0
    while time.monotonic() < until and known + 1 < len(moves):
        began = time.perf_counter()
        try:
            done = client.append(match_id, [moves[known + 1]], expected_seq=known)
        except StaleSeq as stale:
            tally.lost_ms.append((time.perf_counter() - began) * 1000)
            tally.refusals[stale.status] += 1
            known = stale.last_seq
            continue
        except ServiceError as error:
            tally.refusals[error.status] += 1
            continue
        tally.won_ms.append((time.perf_counter() - began) * 1000)
        tally.acked.append((match_id, done.last_seq))
        known = done.last_seq


def _store(home: Path) -> Path:
    """A fresh store with the endless variant every match is played under."""
    (home / "variants").mkdir(parents=True)
    (home / "variants" / "endless.toml").write_text(VARIANT)
    return home


def store_rate(home: Path, log: list[Event], seconds: float, matches: int) -> float:
    """Appends/s of the store itself: one thread, one event per append, round robin."""
    ws = Workspace(home)
    ids = []
    for i in range(matches):
        started = ws.new_match("mortalgate@endless", SEATS, match_id=f"direct-{i}")
        ids.append(started.match_id)
    drafts = [msgspec.structs.replace(e, seq=-1, at=None, prev="") for e in log[1:]]
    count, last = 0, dict.fromkeys(ids, 0)
    began = time.perf_counter()
    while time.perf_counter() - began < seconds and count < len(drafts):
        match_id = ids[count % matches]
        ws.append_events(match_id, [drafts[last[match_id]]], expected_seq=last[match_id])
        last[match_id] += 1
        count += 1
    return count / (time.perf_counter() - began)


def check(home: Path, tallies: list[Tally], moves: list[dict[str, Any]]) -> dict[str, int]:
    """Lost, duplicated and broken counts from the logs on disk."""
    ws = Workspace(home)
    acked = [pair for tally in tallies for pair in tally.acked]
    duplicated = len(acked) - len(set(acked))
    lost = 0
    per_match = Counter(match_id for match_id, _ in acked)
    logs = {match_id: list(ws.events(match_id)) for match_id in per_match}
    for match_id, seq in set(acked):
        events = logs[match_id]
        sent = moves[seq]
        if seq >= len(events) or {k: v for k, v in msgspec.to_builtins(events[seq]).items() if k in sent} != sent:
            lost += 1
    extra = sum(len(logs[m]) - 1 - per_match[m] for m in per_match)
    broken = sum(not ws.verify(m).ok for m in per_match)
    return {"lost": lost, "duplicated": duplicated + max(extra, 0), "unacknowledged lines": max(extra, 0), "broken chains": broken}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--baseline-seconds", type=float, default=5.0)
    parser.add_argument("--events", type=int, default=20_000, help="Length of the bot game every match replays.")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="tabletape-service-bench-") as tmp:
        home = _store(Path(tmp) / "store")
        ws = Workspace(home)
        log = play(ws.rules("mortalgate@endless"), SEATS, seed=11, max_events=args.events, audit=False)
        moves = [{}, *_drafts(log[1:])]
        before = store_rate(_store(Path(tmp) / "before"), log, args.baseline_seconds, args.matches)

        port = _free_port()
        server = _start_server(home, port)
        try:
            url = f"http://127.0.0.1:{port}"
            token, _ = Tokens(home).issue("write", label="load test")
            studio = Client(url, token)
            ids = [studio.start("mortalgate@endless", SEATS, match_id=f"load-{i}").match_id for i in range(args.matches)]
            tallies = [Tally() for _ in range(args.clients)]
            until = time.monotonic() + args.seconds
            threads = [threading.Thread(target=_client_loop, args=(Client(url, token), ids[i % args.matches], moves, until, tallies[i]))
                       for i in range(args.clients)]
            cpu_before, began = _cpu_seconds(server.pid), time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - began
            server_cpu = _cpu_seconds(server.pid) - cpu_before
        finally:
            server.terminate()
            server.wait(timeout=10)
        result = check(home, tallies, moves)
        after = store_rate(_store(Path(tmp) / "after"), log, args.baseline_seconds, args.matches)
    baseline = (before + after) / 2

    won = [ms for t in tallies for ms in t.won_ms]
    lost_ms = [ms for t in tallies for ms in t.lost_ms]
    refusals: Counter[int] = sum((t.refusals for t in tallies), Counter())
    rate = len(won) / elapsed
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    command = f"python -m benchmarks.service --clients {args.clients} --matches {args.matches} --seconds {args.seconds:g}"
    other = {code: n for code, n in refusals.items() if code != 409}
    lines = [
        "## HTTP service under load (`make bench-service`)", "",
        f"Measured {when} by `{command}`: a real `tabletape serve` process (uvicorn, one worker,",
        f"on the same 2 shared cores as the {args.clients} client threads), {args.clients} clients appending one event at a",
        f"time to {args.matches} matches (MortalGate, every append audited live) for {elapsed:.1f} s; a loser retries from the",
        "last seq its 409 names. Checked afterwards from the logs on disk.", "",
        f"- appended over HTTP (fsync each): **{rate:,.0f} appends/s** ({len(won):,} events)",
        f"- latency of an acknowledged append: p50 {percentile(won, 50):.1f} ms, p99 {percentile(won, 99):.1f} ms "
        f"(median of a 409: {median(lost_ms) if lost_ms else 0:.1f} ms)",
        f"- races lost: {refusals[409]:,} answered 409, other refusals: {sum(other.values())} {dict(other) if other else ''}".rstrip(),
        f"- requests answered (appends and 409s): {(len(won) + refusals[409]) / elapsed:,.0f}/s; with {args.clients // args.matches} clients "
        f"racing per match most requests lose (a loser is told from the log's last line, then the check under the store's lock)",
        f"- server CPU: {server_cpu / elapsed:.2f} of a core on average, {1000 * server_cpu / max(len(won) + refusals[409], 1):.2f} ms "
        f"per request answered: one core to itself would answer about {(len(won) + refusals[409]) / max(server_cpu, 1e-9):,.0f} requests/s "
        f"(load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)",
        f"- lost: {result['lost']}, duplicated: {result['duplicated']}, broken chains: {result['broken chains']}",
        f"- the store's own append rate, same run and disk (`Workspace.append_events`, one thread, one event per append, "
        f"round robin over {args.matches} matches): {baseline:,.0f} appends/s (mean of {before:,.0f} before and {after:,.0f} after the load)",
        f"- ratio HTTP / store: **{rate / baseline:.2f}**" if baseline else "- ratio: no baseline",
    ]
    report = "\n".join(lines)
    print(report)
    write_section("service", report)
    if result["lost"] or result["duplicated"] or other:
        raise SystemExit("the load test lost, duplicated or refused appends it should not have")


if __name__ == "__main__":
    main()
