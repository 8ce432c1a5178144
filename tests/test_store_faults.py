"""Faults that really happen to a store: writers killed mid-write, writers racing each
other, and arbitrary bytes from outside. Real processes, real signals, real files."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from events.codec import LogCodec, decode_drafts
from events.errors import TabletapeError
from events.journal import Journal
from events.shared import MatchStarted, Ruled
from events.store import FileStore, import_log

WRITER = Path(__file__).with_name("store_writer.py")
CODEC = LogCodec(())
"""Only the shared events (MatchStarted, Retracted, MatchEnded, Ruled)."""


def snapshot(home: Path) -> dict[str, bytes]:
    """Every file under the store folder (hidden temp files too) and its bytes."""
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


def spawn(*args: str, slow: float | None = None) -> subprocess.Popen[bytes]:
    """Start tests/store_writer.py; stdout unbuffered, so reading a line early never
    swallows later lines that `communicate` would otherwise not see."""
    env = {"STORE_WRITER_SLOW": str(slow)} if slow else {}
    return subprocess.Popen(
        [sys.executable, str(WRITER), *args],
        bufsize=0,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **env},
    )


# -- SIGKILL --------------------------------------------------------------------------


class KillRound:
    """One writer started, killed with SIGKILL, and what it acknowledged before dying."""

    def __init__(self, home: Path, match_id: str, *, slow: float | None, delay: float, wait_for_ack: bool):
        proc = spawn("append", str(home), match_id, "1000000", slow=slow)
        early = self._first_ack(proc) if wait_for_ack else b""
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=20)
        assert proc.returncode == -signal.SIGKILL, err.decode()
        complete = (early + out).split(b"\n")[:-1]  # a half-printed last line was never acked
        self.acked = [int(line) for line in complete if line.isdigit()]
        self.torn_reports = [line.decode().split() for line in complete if line.startswith(b"torn ")]

    @staticmethod
    def _first_ack(proc: subprocess.Popen[bytes]) -> bytes:
        """Read until the first acknowledged seq, so the kill lands among appends."""
        assert proc.stdout is not None
        seen = b""
        while not seen.rstrip(b"\n").rsplit(b"\n", 1)[-1].isdigit():
            line = proc.stdout.readline()
            assert line, f"writer died: {proc.stderr.read().decode() if proc.stderr else ''}"
            seen += line
        return seen


def complete_part(log: Path) -> tuple[bytes, bytes]:
    """The log's bytes up to its last newline, and the torn bytes after it."""
    raw = log.read_bytes()
    cut = raw.rfind(b"\n") + 1
    return raw[:cut], raw[cut:]


def check_intact(complete: bytes, scratch: Path) -> int:
    """Verify a copy of the complete lines (a copy, so a torn tail is left for the store)."""
    scratch.write_bytes(complete)
    report = Journal(scratch, quarantine=scratch.parent / "q").verify()
    assert report.ok, report.message
    return report.lines


def quarantined(home: Path) -> list[bytes]:
    folder = home / "quarantine"
    return [p.read_bytes() for p in folder.iterdir()] if folder.is_dir() else []


def set_aside_now(store: FileStore, match_id: str, how: str, torn: bytes) -> None:
    """Have the store set the torn tail aside (by recover() or by a reader) and check it."""
    count = len(store.torn_tails)
    if how == "recover":
        report = store.recover(match_id)
    else:
        list(store.lines(match_id))
        report = store.torn_tails[-1] if len(store.torn_tails) > count else None
    assert report is not None and report.size == len(torn)
    assert Path(report.quarantined_to).read_bytes() == torn
    assert Path(report.quarantined_to).parent == store.home / "quarantine"
    assert not store.log_path(match_id).read_bytes().endswith(torn)


def test_sigkilled_writers_lose_no_acknowledged_seq_and_torn_tails_are_set_aside(tmp_path: Path) -> None:
    rng = random.Random(20261121)
    home, match_id = tmp_path / "home", "killed"
    store = FileStore(home)
    last_complete, pending, ways = -1, b"", Counter[str]()
    rounds = 25
    for number in range(rounds):
        slow = 0.01 if number % 5 in (1, 3) else None
        first = number == 0  # killed anywhere, even before or while creating the match
        kill = KillRound(
            home, match_id, slow=slow, wait_for_ack=not first,
            delay=rng.uniform(0.0, 0.3) if first else rng.uniform(0.02, 0.12) if slow else rng.uniform(0.1, 0.5),
        )
        if pending:  # the previous torn tail was left for this writer's first append
            assert pending in quarantined(home)
            assert any(Path(path).read_bytes() == pending for _, path, _ in kill.torn_reports)
            pending = b""
        log = store.log_path(match_id)
        if not log.exists():
            assert first and kill.acked == []
            continue
        assert kill.acked == list(range(last_complete + 1, last_complete + 1 + len(kill.acked)))
        complete, torn = complete_part(log)
        lines = check_intact(complete, tmp_path / "scratch.jsonl")
        assert not kill.acked or kill.acked[-1] <= lines - 1 <= kill.acked[-1] + 1  # at most one unacked line
        last_complete = lines - 1
        if torn:
            how = ("recover", "reader", "next writer")[sum(ways.values()) % 3]
            ways[how] += 1
            if how == "next writer":
                pending = torn
            else:
                set_aside_now(store, match_id, how, torn)
                assert log.read_bytes() == complete
    if pending:
        set_aside_now(store, match_id, "recover", pending)
    assert store.verify(match_id).ok and store.matches() == [match_id]
    assert sum(ways.values()) >= 5 and len(ways) == 3, f"too few torn tails provoked: {ways}"


# -- racing writers -------------------------------------------------------------------


def test_racing_writers_never_interleave_and_every_loser_gets_a_conflict(tmp_path: Path) -> None:
    home, match_id, lines, racers = tmp_path / "home", "race", 400, 5
    store = FileStore(home)
    store.create(MatchStarted(match_id=match_id, ruleset="faults", version="1", seats={}))
    go = tmp_path / "go"
    procs = {f"w{n}": spawn("race", str(home), match_id, str(lines), f"w{n}", str(go)) for n in range(racers)}
    for proc in procs.values():
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
    go.touch()
    results = {}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err.decode()  # anything but ConflictError would escape
        results[name] = json.loads(out.splitlines()[-1])
    log = [json.loads(line) for line in store.lines(match_id)]
    assert [line["seq"] for line in log] == list(range(lines))
    assert store.verify(match_id).ok
    assert store.log_path(match_id).read_bytes().count(b"\n") == lines
    written = Counter(line["by"] for line in log[1:])
    assert {name: result["successes"] for name, result in results.items() if result["successes"]} == dict(written)
    assert sum(result["successes"] for result in results.values()) == lines - 1
    decisions = [line["decision"] for line in log[1:]]
    assert len(set(decisions)) == len(decisions)  # no line written twice
    assert sum(result["conflicts"] for result in results.values()) > 0


# -- arbitrary input ------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
"""Any JSON value at all."""

event_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["MatchStarted", "Retracted", "MatchEnded", "Ruled", "HeroMoved", ""])},
    optional={
        "seq": st.integers(-2, 20) | st.integers(),
        "at": st.datetimes().map(lambda d: d.isoformat() + "Z") | st.text(max_size=5) | st.none(),
        "by": st.none() | st.text(max_size=4),
        "prev": st.text(max_size=16),
        "target_seq": st.integers() | st.text(max_size=3),
        "reason": st.text(max_size=8) | json_values,
        "rule": st.text(max_size=8),
        "decision": st.text(max_size=8),
        "winner": st.none() | st.text(max_size=4),
        "draw": st.booleans() | json_values,
        "match_id": st.sampled_from(["imported", "../x", ""]),
        "ruleset": st.text(max_size=5),
        "version": st.text(max_size=5),
        "seats": st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2) | json_values,
        "options": json_values,
    },
)
"""Objects shaped like shared events, with plausible and implausible field values."""

json_lines = st.lists(st.one_of(event_like, json_values), max_size=5).map(
    lambda values: b"\n".join(json.dumps(value).encode() for value in values)
)
arbitrary_input = st.one_of(st.binary(max_size=300), json_lines)

FAST = settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def seeded(tmp_path: Path) -> FileStore:
    """A store with one match of 5 lines; examples share it, so every refusal must leave it as it was."""
    store = FileStore(tmp_path / "home")
    store.create(MatchStarted(match_id="m", ruleset="faults", version="1", seats={"a": "Ann"}))
    store.append("m", [Ruled(rule="r", decision=str(n)) for n in range(4)], expected_seq=0)
    return store


@FAST
@given(data=arbitrary_input, offset=st.sampled_from([0, 0, 0, -1, 1, -9]))
def test_arbitrary_input_to_append_raises_only_typed_errors_and_changes_nothing(seeded: FileStore, data: bytes, offset: int) -> None:
    before = snapshot(seeded.home)
    try:
        events = decode_drafts(data, CODEC)
        seeded.append("m", events, expected_seq=seeded.last("m")[0] + offset)
    except TabletapeError as error:
        assert "\n" not in str(error)
        assert snapshot(seeded.home) == before
    else:
        assert seeded.verify("m").ok


def test_invalid_utf8_inside_a_draft_string_is_a_typed_error(seeded: FileStore) -> None:
    before = snapshot(seeded.home)
    with pytest.raises(TabletapeError):
        decode_drafts(b'{"type":"Ruled","rule":"\x80","decision":"d"}', CODEC)
    assert snapshot(seeded.home) == before


def check_import(store: FileStore, match_id: str, data: bytes) -> None:
    """Import must succeed with a verifying log, or raise a typed error and touch nothing."""
    before = snapshot(store.home) if store.home.exists() else {}
    try:
        import_log(store, match_id, data, lambda header: CODEC)
    except TabletapeError as error:
        assert "\n" not in str(error)
        assert (snapshot(store.home) if store.home.exists() else {}) == before
    else:
        assert store.verify(match_id).ok
        store.log_path(match_id).unlink()  # make room for the next example


@FAST
@given(data=arbitrary_input)
def test_arbitrary_bytes_imported_as_a_whole_log_raise_only_typed_errors_and_change_nothing(seeded: FileStore, data: bytes) -> None:
    check_import(seeded, "imported", data)


@FAST
@example(edits=[("flip", 2, 0x80)])  # invalid UTF-8 inside a JSON string
@given(edits=st.lists(st.tuples(st.sampled_from(["flip", "drop", "insert", "drop line", "swap lines"]), st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=3))
def test_a_damaged_copy_of_a_real_log_is_imported_whole_or_not_at_all(seeded: FileStore, tmp_path: Path, edits) -> None:
    source = snapshot(seeded.home)
    data = bytearray(seeded.log_path("m").read_bytes())
    for op, where, byte in edits:
        lines = bytes(data).split(b"\n")
        index = where % max(len(data), 1)
        if op == "flip" and data:
            data[index] = byte
        elif op == "drop" and data:
            del data[index]
        elif op == "insert":
            data.insert(index, byte)
        elif op == "drop line":
            del lines[where % len(lines)]
            data = bytearray(b"\n".join(lines))
        elif op == "swap lines":
            i, j = where % len(lines), (where + 1) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
    target = FileStore(tmp_path / "other")
    check_import(target, "m", bytes(data))
    assert snapshot(seeded.home) == source  # the source store is never touched


def test_an_undamaged_copy_is_imported_byte_for_byte(seeded: FileStore, tmp_path: Path) -> None:
    target = FileStore(tmp_path / "other")
    import_log(target, "m", seeded.log_path("m").read_bytes(), lambda header: CODEC)
    assert target.log_path("m").read_bytes() == seeded.log_path("m").read_bytes()
