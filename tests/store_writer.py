"""Test helper run as a subprocess by tests/test_store_faults.py: a real writer to kill.

    python tests/store_writer.py append HOME MATCH COUNT
        Create MATCH if it is missing, then append COUNT single events. Each returned seq
        is printed (and flushed) only after `append` returned, so a printed seq is an
        acknowledged write that must survive a SIGKILL. A torn tail the store set aside
        is printed as `torn <quarantined_to> <size>` before the seq of that append.
        With STORE_WRITER_SLOW=<seconds> every write is split in two with a sleep in
        between, so a kill lands mid-line and leaves a torn final line.

    python tests/store_writer.py batch HOME MATCH TAG SIZES
        Create MATCH if it is missing, then append batches of the comma-separated SIZES
        in turn until killed, the events of batch k tagged `TAG-k i/size`. After each append returns it
        prints `acked TAG-k FIRST LAST`. With STORE_WRITER_AIM=<where>:<k> the writer
        prints `aimed` and sleeps at that point of batch k, so the kill lands exactly
        there: `mid` (half the batch's bytes written), `commit` (every byte written and
        fsynced, the end anchor not yet moved).

    python tests/store_writer.py import HOME MATCH EVENTS
        Import a log of EVENTS lines as MATCH; after the first chunk of its temp file is
        written, print `aimed` and stall, so a kill leaves the temp file behind.

    python tests/store_writer.py race HOME MATCH LINES NAME GO
        Print `ready`, wait for the file GO to exist (so every racer starts together),
        then loop: read last(), append one event with that expected seq, until the log
        holds LINES lines. Prints {"successes": s, "conflicts": c} as JSON. Any error but
        ConflictError escapes, so the exit status is non-zero.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from events import anchor, journal
from events.errors import ConflictError
from events.shared import MatchStarted, Ruled
from events.store import FileStore

PADDING = "x" * 200
"""Makes lines a few hundred bytes long, so half a line is a realistic torn tail."""


def slow_write_all(pause: float):
    """A writer that stalls mid-line: half the bytes, a sleep, the rest."""
    original = journal._write_all

    def write_all(fd: int, data: bytes | bytearray) -> None:
        half = len(data) // 2
        original(fd, data[:half])
        time.sleep(pause)
        original(fd, data[half:])

    return write_all


def ensure_match(store: FileStore, match_id: str) -> None:
    """Create the match unless an earlier (killed) writer already did; line 0 is acked too."""
    if not store.exists(match_id):
        started = store.create(MatchStarted(match_id=match_id, ruleset="faults", version="1", seats={"w": "writer"}))
        print(started.seq, flush=True)


def append_loop(home: str, match_id: str, count: int) -> None:
    """Append single events, printing each acknowledged seq."""
    store = FileStore(Path(home))
    ensure_match(store, match_id)
    seq, reported = store.last(match_id)[0], 0
    for n in range(count):
        [written] = store.append(match_id, [Ruled(rule="fault", decision=f"{PADDING} {n}", by="w")], expected_seq=seq)
        for torn in store.torn_tails[reported:]:
            print(f"torn {torn.quarantined_to} {torn.size}", flush=True)
        reported = len(store.torn_tails)
        seq = written.seq
        print(seq, flush=True)


def aim_at(where: str, batch: int, current: list[int]) -> None:
    """Stall at `where` of batch number `batch` (see the module docstring)."""
    original_write, original_commit = journal._write_all, anchor.write_in_place

    def stall(pause: bool) -> None:
        if pause:
            print("aimed", flush=True)
            time.sleep(60)

    def write_all(fd: int, data: bytes | bytearray) -> None:
        if where == "mid" and current[0] == batch and len(data) > 1:
            half = len(data) // 2
            original_write(fd, data[:half])
            stall(True)
        original_write(fd, data)

    def commit(fd: int, end: anchor.Anchor) -> None:
        stall(where == "commit" and current[0] == batch)
        original_commit(fd, end)

    journal._write_all = write_all  # type: ignore[assignment]
    anchor.write_in_place = commit  # type: ignore[assignment]


def batches(home: str, match_id: str, tag: str, sizes: str) -> None:
    """Append whole batches, printing each acknowledged one."""
    store = FileStore(Path(home))
    ensure_match(store, match_id)
    current = [-1]
    if aim := os.environ.get("STORE_WRITER_AIM"):
        where, batch = aim.split(":")
        aim_at(where, int(batch), current)
    seq = store.last(match_id)[0]
    for k, size in enumerate(itertools.cycle(int(n) for n in sizes.split(","))):
        current[0] = k
        events = [Ruled(rule="fault", decision=f"{tag}-{k} {i}/{size} {PADDING}", by="w") for i in range(size)]
        written = store.append(match_id, events, expected_seq=seq)
        seq = written[-1].seq
        print(f"acked {tag}-{k} {written[0].seq} {seq}", flush=True)


def stalled_import(home: str, match_id: str, count: int) -> None:
    """Import a large log, stalling after its first chunk is in the temp file."""
    from events.codec import LogCodec, encode_chained
    from events.store import import_log

    original = journal._write_all

    def write_all(fd: int, data: bytes | bytearray) -> None:
        original(fd, data)
        print("aimed", flush=True)
        time.sleep(60)

    started = MatchStarted(seq=0, match_id=match_id, ruleset="faults", version="1", seats={"w": "writer"})
    events = [started, *(Ruled(seq=n, rule="fault", decision=f"{PADDING} {n}") for n in range(1, count))]
    data = b"".join(line + b"\n" for line in encode_chained(events))
    journal._write_all = write_all  # type: ignore[assignment]
    import_log(FileStore(Path(home)), match_id, data, lambda header: LogCodec(()))


def race(home: str, match_id: str, lines: int, name: str, go: str) -> None:
    """Append against other racers with optimistic concurrency, counting wins and losses."""
    store = FileStore(Path(home))
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.001)
    successes = conflicts = 0
    while (seq := store.last(match_id)[0]) < lines - 1:
        try:
            store.append(match_id, [Ruled(rule="race", decision=f"{name} {successes}", by=name)], expected_seq=seq)
            successes += 1
        except ConflictError:
            conflicts += 1
    print(json.dumps({"successes": successes, "conflicts": conflicts}), flush=True)


def main(argv: list[str]) -> None:
    if pause := os.environ.get("STORE_WRITER_SLOW"):
        journal._write_all = slow_write_all(float(pause))  # type: ignore[assignment]
    mode, *args = argv
    if mode == "append":
        append_loop(args[0], args[1], int(args[2]))
    elif mode == "batch":
        batches(args[0], args[1], args[2], args[3])
    elif mode == "import":
        stalled_import(args[0], args[1], int(args[2]))
    elif mode == "race":
        race(args[0], args[1], int(args[2]), args[3], args[4])
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
