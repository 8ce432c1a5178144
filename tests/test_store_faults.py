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

import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from events import anchor
from events.codec import LogCodec, decode_drafts
from events.errors import TabletapeError
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


AIMS = ("mid", "commit", "random", "random")
"""Where a round's kill lands: inside a batch's bytes, between the last byte and the
commit of the end anchor, or wherever a random delay puts it."""


class KillRound:
    """One writer appending batches, killed with SIGKILL, and what it acknowledged."""

    def __init__(self, home: Path, match_id: str, tag: str, sizes: list[int], aim: str, delay: float):
        env = {} if aim == "random" else {"STORE_WRITER_AIM": f"{aim}:{len(sizes) - 1}"}
        proc = subprocess.Popen([sys.executable, str(WRITER), "batch", str(home), match_id, tag, ",".join(map(str, sizes))],
                                bufsize=0, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **env})
        seen = self._until(proc, b"aimed") if aim != "random" else b""
        if aim == "random":
            time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL, err.decode()
        complete = (seen + out).split(b"\n")[:-1]  # a half-printed last line was never acked
        self.acked = {line.split()[1].decode(): int(line.split()[3]) - int(line.split()[2]) + 1
                      for line in complete if line.startswith(b"acked ")}
        self.created = b"0" in complete

    @staticmethod
    def _until(proc: subprocess.Popen[bytes], word: bytes) -> bytes:
        """Read the writer's output until it says `word` (it then stalls there)."""
        assert proc.stdout is not None
        seen = b""
        while not seen.endswith(word + b"\n"):
            line = proc.stdout.readline()
            assert line, f"writer died: {proc.stderr.read().decode() if proc.stderr else ''}"
            seen += line
        return seen


class Tally(Counter[str]):
    """Figures of a run of kills: kills, acknowledged events and batches, partial batches
    found (must stay 0), torn tails left and torn tails reported (must be equal)."""

    def line(self) -> str:
        return ", ".join(f"{key} {value:,}" for key, value in sorted(self.items()))


class _Decision(msgspec.Struct):
    decision: str = ""


_DECISION = msgspec.json.Decoder(_Decision)


def batches_in(home: Path, match_id: str) -> tuple[Counter[str], dict[str, int]]:
    """Events per batch tag in the log as a fresh reader sees it, and each tag's size
    (every event says `tag i/size`)."""
    found: Counter[str] = Counter()
    sizes: dict[str, int] = {}
    for line in FileStore(home).lines(match_id):
        decision = _DECISION.decode(line).decision
        if decision:
            tag, index = decision.split()[:2]
            found[tag] += 1
            sizes[tag] = int(index.split("/")[1])
    return found, sizes


def kill_rounds(tmp_path: Path, rounds: int, seed: int) -> Tally:
    """Kill batch writers `rounds` times; after each kill check the log as readers and the
    CLI see it, then repair it through the CLI so the next writer can go on."""
    rng, tally = random.Random(seed), Tally()
    home, expected = tmp_path / "home", dict[str, int]()
    for number in range(rounds):
        match_id = f"killed-{number // 20}"  # a fresh log every 20 kills keeps each check short
        if number % 20 == 0:
            expected = {}
        aim = AIMS[number % len(AIMS)] if number % 20 else "random"
        sizes = [rng.choice((1, 1, 7, 300, 2000, 20_000)) for _ in range(rng.randint(1, 3))]
        kill = KillRound(home, match_id, f"r{number}", sizes, aim, delay=rng.uniform(0.0, 0.25 if number % 20 else 0.15))
        tally["kills"] += 1
        tally[f"kills aimed {aim}"] += 1
        if not FileStore(home).exists(match_id):
            assert number % 20 == 0 and not kill.created and not kill.acked
            continue
        expected.update(kill.acked)
        tally["acknowledged batches"] += len(kill.acked)
        tally["acknowledged events"] += sum(kill.acked.values())
        found, sizes = batches_in(home, match_id)
        tally["partial batches found"] += sum(1 for tag, count in found.items() if count != sizes[tag])
        assert all(found[tag] == size for tag, size in expected.items()), "an acknowledged batch is missing or cut"
        torn = torn_bytes(home, match_id)
        if torn:
            tally["torn tails left"] += 1
            code, out, err = run_cli(home, "list")
            tally["torn tails reported"] += err.count(f"{match_id}.jsonl: ends in {torn} bytes of an interrupted write")
            assert code == 0 and "not part of the log" in err and match_id in out
            code, out, err = run_cli(home, "repair", match_id)
            assert code == 0 and "set aside" in out, err
            assert torn_bytes(home, match_id) == 0
        assert FileStore(home).verify(match_id).ok
    assert tally["partial batches found"] == 0
    assert tally["torn tails reported"] == tally["torn tails left"]
    return tally


def torn_bytes(home: Path, match_id: str) -> int:
    """Bytes of the log past its anchored end."""
    path = FileStore(home).log_path(match_id)
    found = anchor.read(path).anchor
    assert found is not None
    return path.stat().st_size - found.end


def run_cli(home: Path, *args: str) -> tuple[int, str, str]:
    from tests.cli_support import run

    return run(home, *args)


def test_sigkilled_batch_writers_never_leave_part_of_a_batch_and_every_torn_tail_is_reported(tmp_path: Path) -> None:
    tally = kill_rounds(tmp_path, rounds=12, seed=20261123)
    print(f"\nSIGKILL sample: {tally.line()}")
    assert tally["torn tails left"] >= 4, tally.line()


@pytest.mark.slow
def test_hundreds_of_aimed_kills_leave_no_partial_batch(tmp_path: Path) -> None:
    tally = kill_rounds(tmp_path, rounds=int(os.environ.get("TABLETAPE_KILLS", "300")), seed=485)
    print(f"\nSIGKILL run: {tally.line()}")


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
