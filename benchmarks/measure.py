"""The measurements: each a small function over the corpus that returns raw numbers.

Throughput is timed around whole passes, in CPU time of this process and in wall time
(see `Speed`), with a full garbage collection before each pass so garbage left by the
previous one is not billed to the next. Latencies (`state_at`, appends) are wall time per
call: that is what a person waits, fsync included. Passes consume iterators with `deque(maxlen=0)`, the cheapest loop
Python has, so the harness adds as little as possible to what is measured, and adds the
same to the baseline and to the replay.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import statistics
import time
import tracemalloc
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import msgspec

from events.base import Event
from events.codec import LogCodec, decode_log
from events.shared import MatchStarted
from projections.read.replay import replay
from projections.read.timeline import Timeline
from projections.workspace import Workspace
from rulesets.registry import Rules

Lines = Sequence[bytes]


def median(values: Sequence[float]) -> float:
    """The median (every figure is one, of at least three runs or many calls)."""
    return statistics.median(values)


def percentile(values: Sequence[float], q: int) -> float:
    """The q-th percentile, interpolated between the two nearest samples."""
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


class Speed(NamedTuple):
    """Events per second of one pass, per CPU-second of this process and per wall-second.

    The CPU rate is the figure: other work on a shared machine delays a pass but does not
    bill it CPU time, so ratios of CPU rates hold when the load changes between passes.
    The wall rate is shown beside it; the two agree on a quiet machine.
    """

    cpu: float
    wall: float


def timed(run: Callable[[], int]) -> Speed:
    """The speed of one pass (`run` returns how many events it handled)."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    count = run()
    return Speed(count / (time.process_time() - cpu), count / (time.perf_counter() - wall))


# --- throughput over the corpus ---------------------------------------------------------


def decode_all(logs: Sequence[Lines], codec: LogCodec) -> int:
    """Baseline A, the parsing limit: the game's typed msgspec decode of every line."""
    count = 0
    for lines in logs:
        deque(map(codec.decode, lines), maxlen=0)
        count += len(lines)
    return count


def replay_all(logs: Sequence[Lines], codec: LogCodec, rules: Rules, *, audit: bool) -> int:
    """Replay every log: decode, check (with `audit`) and apply each event, streamed."""
    count = 0
    for lines in logs:
        deque(replay(decode_log(lines, codec), rules, audit=audit), maxlen=0)
        count += len(lines)
    return count


def free_rules(rules: Rules) -> Rules:
    """The same rules with a check and an apply that do nothing.

    Replaying under them leaves decode, `decode_log` and the fold's own work (the undo
    stack, a Step per event, the generators): the ceiling replay cannot pass however fast
    the rules get, which tells the fold's share of the time from the rules' share.
    """
    ruleset = dataclasses.replace(rules.ruleset, apply=_keep, check=_none)
    return msgspec.structs.replace(rules, ruleset=ruleset)


def _keep(params: object, state: object, event: Event) -> object:
    return state


def _none(params: object, state: object, event: Event) -> list[object]:
    return []


# --- random access --------------------------------------------------------------------


def latencies(call: Callable[[int], object], seqs: Sequence[int]) -> list[float]:
    """Seconds taken by each `call(seq)`, one sample per seq."""
    samples = []
    for seq in seqs:
        began = time.perf_counter()
        call(seq)
        samples.append(time.perf_counter() - began)
    return samples


def build_timeline(workspace: Workspace, match_id: str) -> tuple[Timeline, Speed]:
    """The dashboard's Timeline of one match (read, decode, audited fold) and its build speed."""
    built: list[Timeline] = []

    def build() -> int:
        built.append(workspace.timeline(match_id))
        return len(built[-1])

    speed = timed(build)
    return built[-1], speed


# --- appending ------------------------------------------------------------------------


@dataclass
class Appends:
    """Per-sample seconds of the store and of the bare disk, taken alternately."""

    single_store: list[float] = field(default_factory=list)
    single_disk: list[float] = field(default_factory=list)
    batch_store: list[float] = field(default_factory=list)
    batch_disk: list[float] = field(default_factory=list)


def appends(folder: Path, events: Sequence[Event], codec: LogCodec, *, singles: int, batch: int, batches: int) -> Appends:
    """Record `events` (a log, line 0 first) into a fresh store, timing every append.

    The store side is `Workspace.append_events` with the expected seq, as a recorder
    calls it: lock, read the last line, stamp, hash, write, fsync. The disk side, timed
    alternately in the same folder, is the floor under it: `os.write` of the same bytes
    and `os.fsync`, nothing else.
    """
    need = 1 + singles + batch * batches
    if len(events) < need:
        raise ValueError(f"appends need {need:,} events, the log has {len(events):,}")
    started = events[0]
    assert isinstance(started, MatchStarted)
    workspace = Workspace(folder)
    workspace.store.create(msgspec.structs.replace(started, match_id="bench-append", prev=""))
    out = Appends()
    fd = os.open(folder / "bare.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        last = 0
        for _ in range(singles):
            chunk = events[last + 1 : last + 2]
            out.single_store.append(_append(workspace, chunk, last))
            out.single_disk.append(_write(fd, chunk, codec))
            last += 1
        for _ in range(batches):
            chunk = events[last + 1 : last + 1 + batch]
            out.batch_store.append(_append(workspace, chunk, last))
            out.batch_disk.append(_write(fd, chunk, codec))
            last += batch
    finally:
        os.close(fd)
    assert workspace.verify("bench-append").ok
    return out


def _append(workspace: Workspace, chunk: Sequence[Event], last: int) -> float:
    began = time.perf_counter()
    workspace.append_events("bench-append", chunk, expected_seq=last)
    return time.perf_counter() - began


def _write(fd: int, chunk: Sequence[Event], codec: LogCodec) -> float:
    data = b"".join(codec.encode(event) + b"\n" for event in chunk)  # encoded outside the timing
    began = time.perf_counter()
    os.write(fd, data)
    os.fsync(fd)
    return time.perf_counter() - began


# --- memory ---------------------------------------------------------------------------


def reading(workspace: Workspace, match_id: str) -> None:
    """Only read the log's lines from the store: the reader's share of a replay's peak."""
    deque(workspace.store.lines(match_id), maxlen=0)


def peak(run: Callable[[], object]) -> int:
    """Peak bytes Python allocated while `run` ran, above what was live when it began."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        run()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def stream_replay(workspace: Workspace, match_id: str) -> None:
    """A full audited replay straight from the store, keeping nothing (what `audit` streams)."""
    deque(workspace.replay(match_id, audit=True), maxlen=0)


def load_events(workspace: Workspace, match_id: str) -> list[Event]:
    """The whole log as a list: what a Timeline holds, for contrast with streaming."""
    return list(workspace.events(match_id))
