"""Test helper run as a subprocess by tests/test_store_faults.py: a real writer to kill.

    python tests/store_writer.py append HOME MATCH COUNT
        Create MATCH if it is missing, then append COUNT single events. Each returned seq
        is printed (and flushed) only after `append` returned, so a printed seq is an
        acknowledged write that must survive a SIGKILL. A torn tail the store set aside
        is printed as `torn <quarantined_to> <size>` before the seq of that append.
        With STORE_WRITER_SLOW=<seconds> every write is split in two with a sleep in
        between, so a kill lands mid-line and leaves a torn final line.

    python tests/store_writer.py race HOME MATCH LINES NAME GO
        Print `ready`, wait for the file GO to exist (so every racer starts together),
        then loop: read last(), append one event with that expected seq, until the log
        holds LINES lines. Prints {"successes": s, "conflicts": c} as JSON. Any error but
        ConflictError escapes, so the exit status is non-zero.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from events import journal
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
    elif mode == "race":
        race(args[0], args[1], int(args[2]), args[3], args[4])
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
