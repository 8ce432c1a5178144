"""The file store and its journal: stamping, optimistic concurrency, match ids, reading,
the hash chain, torn tails and imports - on real files in tmp_path."""

from __future__ import annotations

import fcntl
import json
import os
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import msgspec
import pytest

from events.chain import GENESIS, line_hash
from events.codec import LogCodec
from events.errors import (
    ChainBrokenError,
    ConflictError,
    InvalidMatchIdError,
    LogFormatError,
    TabletapeError,
    TornTailError,
    UnknownMatchError,
)
from events.journal import Journal, TornTail
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from events.store import FileStore, import_log, new_match_id, validate_match_id

MATCH = "mortalgate-20261121-105312-a3f9"


def started(match_id: str = MATCH) -> MatchStarted:
    """Line 0 of a small two-seat match."""
    return MatchStarted(match_id=match_id, ruleset="mortalgate", version="2.5", seats={"red": "Ann", "blue": "Bo"})


def ruled(n: int) -> Ruled:
    """A draft event with a recognisable payload."""
    return Ruled(rule=f"rule.{n}", decision=f"decision {n}", by="red")


def snapshot(home: Path) -> dict[str, bytes]:
    """Every file under the store folder and its bytes, to prove a failure changed nothing."""
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.fixture
def store(tmp_path: Path) -> FileStore:
    return FileStore(tmp_path / "home")


@pytest.fixture
def ten(store: FileStore) -> FileStore:
    """A store holding one match of 10 lines (seqs 0..9)."""
    store.create(started())
    store.append(MATCH, [ruled(n) for n in range(1, 10)], expected_seq=0)
    return store


def log_lines(store: FileStore) -> list[bytes]:
    return store.log_path(MATCH).read_bytes().splitlines()


def write_lines(store: FileStore, lines: list[bytes]) -> None:
    store.log_path(MATCH).write_bytes(b"".join(line + b"\n" for line in lines))


# -- creating and appending -----------------------------------------------------------


def test_opening_a_store_changes_nothing_on_disk(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "home")
    assert store.matches() == []
    assert not store.exists(MATCH)
    assert not (tmp_path / "home").exists()


def test_create_writes_line_zero_with_seq_time_and_genesis_prev(store: FileStore) -> None:
    before = datetime.now(UTC)
    line0 = store.create(started())
    assert (line0.seq, line0.prev) == (0, GENESIS)
    assert line0.at is not None and before <= line0.at <= datetime.now(UTC)
    assert store.log_path(MATCH).read_bytes() == msgspec.json.encode(line0) + b"\n"
    assert store.matches() == [MATCH]


def test_create_an_existing_match_conflicts_and_writes_nothing(ten: FileStore) -> None:
    before = snapshot(ten.home)
    with pytest.raises(ConflictError, match="already exists"):
        ten.create(started())
    assert snapshot(ten.home) == before


def test_create_leaves_no_temp_files(store: FileStore) -> None:
    store.create(started())
    assert sorted(p.name for p in (store.home / "logs").iterdir()) == [f"{MATCH}.jsonl", f"{MATCH}.jsonl.end"]


def test_append_stamps_seq_at_and_prev_in_order(ten: FileStore) -> None:
    lines = log_lines(ten)
    for index, line in enumerate(lines):
        raw = json.loads(line)
        assert raw["seq"] == index
        assert raw["prev"] == (GENESIS if index == 0 else line_hash(lines[index - 1]))
        assert datetime.fromisoformat(raw["at"]).tzinfo is not None


def test_append_returns_the_events_as_written(ten: FileStore) -> None:
    seq, digest = ten.last(MATCH)
    [written] = ten.append(MATCH, [ruled(10)], expected_seq=seq)
    assert (written.seq, written.prev, written.by) == (10, digest, "red")
    assert ten.log_path(MATCH).read_bytes().endswith(b"\n" + msgspec.json.encode(written) + b"\n")


def test_append_keeps_a_given_at(ten: FileStore) -> None:
    when = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    [written] = ten.append(MATCH, [Retracted(target_seq=9, at=when)], expected_seq=9)
    assert written.at == when
    assert json.loads(log_lines(ten)[-1])["at"] == "2024-05-01T12:00:00Z"


def test_append_accepts_drafts_that_carry_their_own_correct_seq(ten: FileStore) -> None:
    written = ten.append(MATCH, [Retracted(target_seq=9, seq=10), MatchEnded(winner="red", seq=11)], expected_seq=9)
    assert [event.seq for event in written] == [10, 11]


def test_empty_batch_is_a_no_op(ten: FileStore) -> None:
    before = snapshot(ten.home)
    assert ten.append(MATCH, [], expected_seq=9) == []
    assert ten.append(MATCH, [], expected_seq=3) == []  # nothing to conflict about
    assert snapshot(ten.home) == before


def test_every_line_is_one_flat_json_object_ending_in_a_newline(ten: FileStore) -> None:
    data = ten.log_path(MATCH).read_bytes()
    assert data.endswith(b"\n") and b"\n\n" not in data
    raw = json.loads(data.splitlines()[3])
    assert raw["type"] == "Ruled" and raw["rule"] == "rule.3" and raw["by"] == "red"


def test_stale_expected_seq_conflicts_and_writes_nothing(ten: FileStore) -> None:
    before = snapshot(ten.home)
    with pytest.raises(ConflictError) as caught:
        ten.append(MATCH, [ruled(10)], expected_seq=7)
    message = str(caught.value)
    assert "\n" not in message
    assert f"{MATCH}.jsonl" in message and "expected last seq 7" in message and "last seq is 9" in message
    assert snapshot(ten.home) == before


def test_expected_seq_ahead_of_the_log_conflicts_and_writes_nothing(ten: FileStore) -> None:
    before = snapshot(ten.home)
    with pytest.raises(ConflictError):
        ten.append(MATCH, [ruled(10)], expected_seq=12)
    assert snapshot(ten.home) == before


def test_negative_expected_seq_is_refused_because_line_zero_is_written_by_create(ten: FileStore) -> None:
    before = snapshot(ten.home)
    with pytest.raises(ConflictError, match="line 0 is written by create"):
        ten.append(MATCH, [ruled(10)], expected_seq=-1)
    assert snapshot(ten.home) == before


@pytest.mark.parametrize(
    ("seqs", "line", "problem"),
    [
        ([10, 12], 2, "gap: expected 11, found 12"),
        ([10, 10], 2, "duplicate: expected 11, found 10"),
        ([11], 1, "gap: expected 10, found 11"),
        ([3], 1, "duplicate: expected 10, found 3"),
    ],
)
def test_seq_gap_or_duplicate_in_a_batch_is_refused_and_writes_nothing(
    ten: FileStore, seqs: list[int], line: int, problem: str
) -> None:
    before = snapshot(ten.home)
    with pytest.raises(LogFormatError) as caught:
        ten.append(MATCH, [Retracted(target_seq=1, seq=seq) for seq in seqs], expected_seq=9)
    assert (caught.value.line, caught.value.field) == (line, "seq")
    assert problem in str(caught.value)
    assert snapshot(ten.home) == before


def test_match_started_after_line_zero_is_refused(ten: FileStore) -> None:
    before = snapshot(ten.home)
    with pytest.raises(LogFormatError, match="MatchStarted can only be line 0"):
        ten.append(MATCH, [ruled(10), started()], expected_seq=9)
    assert snapshot(ten.home) == before


def test_appending_to_an_unknown_match_raises_and_creates_nothing(store: FileStore, tmp_path: Path) -> None:
    with pytest.raises(UnknownMatchError, match="no match 'nope'"):
        store.append("nope", [ruled(1)], expected_seq=0)
    assert not (tmp_path / "home").exists()


def test_reading_an_unknown_match_raises(store: FileStore) -> None:
    for read in (store.lines, store.last, store.verify, store.repair):
        with pytest.raises(UnknownMatchError):
            read("nope")  # type: ignore[operator]
    with pytest.raises(UnknownMatchError):
        store.tail("nope", 0)


def test_a_value_json_cannot_hold_is_a_typed_error_and_writes_nothing(ten: FileStore) -> None:
    before = snapshot(ten.home)
    with pytest.raises(LogFormatError, match="cannot be written as JSON"):
        ten.append(MATCH, [MatchEnded(reason=object())], expected_seq=9)  # type: ignore[arg-type]
    assert snapshot(ten.home) == before


# -- match ids ------------------------------------------------------------------------

BAD_IDS = ["../x", "a/b", "..", "", ".", "a..b", "/etc/passwd", ".hidden", "a\\b", "x" * 81, "abc\n", "a b", "-x", "é"]


@pytest.mark.parametrize("match_id", BAD_IDS)
def test_match_id_with_path_characters_is_refused_and_touches_nothing(store: FileStore, tmp_path: Path, match_id: str) -> None:
    with pytest.raises(InvalidMatchIdError) as caught:
        validate_match_id(match_id)
    assert repr(match_id) in str(caught.value) and "\n" not in str(caught.value)
    for call in (
        lambda: store.create(started(match_id)),
        lambda: store.append(match_id, [ruled(1)], expected_seq=0),
        lambda: store.exists(match_id),
        lambda: store.lines(match_id),
        lambda: store.import_lines(match_id, [b"{}"]),
        lambda: store.notes_journal(match_id),
    ):
        with pytest.raises(InvalidMatchIdError):
            call()
    assert not (tmp_path / "home").exists()


def test_a_match_id_that_is_not_a_string_is_refused() -> None:
    with pytest.raises(InvalidMatchIdError):
        validate_match_id(None)


@pytest.mark.parametrize("match_id", ["a", "A9", "mortalgate-20261121-105312-a3f9", "x.y_z-1", "x" * 80])
def test_plain_match_ids_are_accepted(match_id: str) -> None:
    assert validate_match_id(match_id) == match_id


def test_new_match_id_is_readable_valid_and_sorts_by_time() -> None:
    start = datetime(2026, 11, 21, 10, 53, 12, tzinfo=UTC)
    match_id = new_match_id(start, "mortalgate")
    assert match_id.startswith("mortalgate-20261121-105312-") and len(match_id.rsplit("-", 1)[1]) == 4
    later = [new_match_id(start + timedelta(seconds=s), "mortalgate") for s in (1, 60, 3600, 86400 * 40)]
    assert sorted([*later, match_id]) == [match_id, *later]
    assert validate_match_id(new_match_id(start, "Gods of the Sands / v2!" * 10)) != ""


def test_new_match_id_uses_utc() -> None:
    local = datetime(2026, 11, 21, 12, 0, 0, tzinfo=UTC).astimezone(timezone(timedelta(hours=2)))
    assert "-20261121-120000-" in new_match_id(local, "m")


def test_matches_lists_sorted_ids_and_ignores_other_files(store: FileStore) -> None:
    for match_id in ("b-2", "a-1", "c-3"):
        store.create(started(match_id))
    (store.home / "logs" / ".a-1.jsonl.1234.tmp").write_bytes(b"half")
    (store.home / "logs" / "README.txt").write_bytes(b"x")
    assert store.matches() == ["a-1", "b-2", "c-3"]


# -- reading --------------------------------------------------------------------------


def test_lines_streams_complete_lines_without_newlines(ten: FileStore) -> None:
    assert list(ten.lines(MATCH)) == log_lines(ten)
    assert all(not line.endswith(b"\n") for line in ten.lines(MATCH))


def test_lines_reads_lines_longer_than_one_chunk(store: FileStore) -> None:
    store.create(started())
    store.append(MATCH, [Ruled(rule="big", decision="x" * 3_000_000), ruled(2)], expected_seq=0)
    assert [len(line) > 3_000_000 for line in store.lines(MATCH)] == [False, True, False]
    assert store.last(MATCH)[0] == 2 and store.verify(MATCH).ok


def test_lines_stops_at_the_size_measured_at_start(ten: FileStore) -> None:
    lines = ten.lines(MATCH)
    first = next(lines)
    ten.append(MATCH, [ruled(10)], expected_seq=9)
    assert [first, *lines] == log_lines(ten)[:10]


@pytest.mark.parametrize("after_seq", [-5, -1, 0, 4, 8, 9, 10, 50])
def test_tail_returns_the_lines_after_a_seq(ten: FileStore, after_seq: int) -> None:
    assert list(ten.tail(MATCH, after_seq)) == log_lines(ten)[max(after_seq + 1, 0):]


def test_tail_skips_by_count_when_the_log_has_fewer_lines_than_its_last_seq(ten: FileStore) -> None:
    damaged = [*log_lines(ten)[:3], *log_lines(ten)[5:]]  # two lines removed; seq 9 is line 8
    write_lines(ten, damaged)
    assert list(ten.tail(MATCH, 0)) == damaged[1:]


def test_last_is_the_seq_and_hash_of_the_last_line(ten: FileStore) -> None:
    assert ten.last(MATCH) == (9, line_hash(log_lines(ten)[-1]))


def test_last_of_an_empty_or_missing_journal_is_minus_one_and_genesis(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j" / "x.jsonl")
    assert journal.last() == (-1, GENESIS) and list(journal.lines()) == [] and list(journal.tail(-1)) == []
    journal.path.parent.mkdir()
    journal.path.write_bytes(b"")
    assert journal.last() == (-1, GENESIS) and journal.verify().ok


def test_a_last_line_without_a_readable_seq_is_a_typed_error_and_writes_nothing(ten: FileStore) -> None:
    write_lines(ten, [*log_lines(ten), b"not json"])
    (ten.home / "logs" / f"{MATCH}.jsonl.end").unlink()  # no anchor: the last line is the file's
    before = snapshot(ten.home)
    with pytest.raises(LogFormatError, match="last line has no readable seq"):
        ten.append(MATCH, [ruled(10)], expected_seq=9)
    assert snapshot(ten.home) == before


# -- the hash chain -------------------------------------------------------------------


def test_verify_passes_on_an_intact_log(ten: FileStore) -> None:
    report = ten.verify(MATCH)
    assert (report.ok, report.lines, report.first_bad_line) == (True, 10, None)


def edit_byte(lines: list[bytes]) -> list[bytes]:
    """Change one character of line 5's payload (1-based): it still parses."""
    return [*lines[:4], lines[4].replace(b"decision 4", b"decision 5"), *lines[5:]]


def swap(lines: list[bytes]) -> list[bytes]:
    return [*lines[:3], lines[4], lines[3], *lines[5:]]


def delete(lines: list[bytes]) -> list[bytes]:
    return [*lines[:6], *lines[7:]]


def garble(lines: list[bytes]) -> list[bytes]:
    return [*lines[:2], lines[2][:-3], *lines[3:]]


def forge_first(lines: list[bytes]) -> list[bytes]:
    return [lines[0].replace(b'"prev":""', b'"prev":"abc"'), *lines[1:]]


@pytest.mark.parametrize(
    ("damage", "bad_line", "says"),
    [
        (edit_byte, 6, "line 6: prev does not match the hash of line 5 (edited, removed or reordered)"),
        (swap, 4, "line 4: seq is 4, expected 3"),
        (delete, 7, "line 7: seq is 7, expected 6"),
        (garble, 3, "line 3: not a JSON object with seq and prev"),
        (forge_first, 1, "line 1: prev must be empty on the first line"),
    ],
)
def test_a_broken_hash_chain_is_found_at_its_first_bad_line_and_nothing_changes(
    ten: FileStore, damage, bad_line: int, says: str
) -> None:
    write_lines(ten, damage(log_lines(ten)))
    before = snapshot(ten.home)
    report = ten.verify(MATCH)
    assert (report.ok, report.first_bad_line, report.lines) == (False, bad_line, bad_line - 1)
    assert report.message.startswith(says) and "\n" not in report.message
    assert snapshot(ten.home) == before


def test_an_edit_of_the_last_line_is_found_by_the_end_anchor(ten: FileStore) -> None:
    lines = log_lines(ten)
    lines[9] = lines[9].replace(b'"by":"red"', b'"by":"blu"')  # the last line: no line after it links to it
    write_lines(ten, lines)
    report = ten.verify(MATCH)
    assert (report.ok, report.first_bad_line) == (False, 10)
    assert "line 10 is not the line the end anchor records as the last" in report.message
    with pytest.raises(ChainBrokenError, match="not the line the end anchor records as the last"):
        ten.append(MATCH, [ruled(10)], expected_seq=9)  # never built upon


@pytest.mark.parametrize("cut", [1, 3])
def test_cutting_the_last_lines_is_found_by_the_end_anchor(ten: FileStore, cut: int) -> None:
    write_lines(ten, log_lines(ten)[:-cut])
    report = ten.verify(MATCH)
    assert not report.ok and f"the log has {10 - cut} lines" in report.message and "records 10" in report.message


def test_a_log_rewritten_with_recomputed_prev_values_is_found_by_the_end_anchor(ten: FileStore) -> None:
    lines, prev, forged = log_lines(ten), GENESIS, []
    for line in lines:
        raw = json.loads(line)
        raw["prev"] = prev
        if raw["seq"] == 4:
            raw["decision"] = "decision X"  # same length: only the hashes differ
        forged.append(msgspec.json.encode(raw))
        prev = line_hash(forged[-1])
    write_lines(ten, forged)
    assert ten.verify(MATCH).ok is False and "end anchor records" in ten.verify(MATCH).message


def test_repair_accept_anchors_a_cut_log_as_it_is(ten: FileStore) -> None:
    write_lines(ten, log_lines(ten)[:-2])
    with pytest.raises(ChainBrokenError, match="repair --accept"):
        ten.repair(MATCH)
    assert "records 10" in ten.repair(MATCH, accept=True).anchored
    assert ten.verify(MATCH).ok and ten.append(MATCH, [ruled(8)], expected_seq=7)[0].seq == 8


def test_a_log_without_an_anchor_reads_but_does_not_verify_until_repaired(ten: FileStore) -> None:
    (ten.home / "logs" / f"{MATCH}.jsonl.end").unlink()
    assert len(list(ten.lines(MATCH))) == 10
    assert "not anchored" in ten.verify(MATCH).message
    assert ten.repair(MATCH).anchored and ten.verify(MATCH).ok


# -- torn tails -----------------------------------------------------------------------

TORN = b'{"type":"Ruled","seq":10,"at":"2026-11-21T10:53:12Z","by":"red","prev":"0123'


def tear(store: FileStore, torn: bytes = TORN) -> bytes:
    """Leave a half-written final line, as a writer killed mid-write would."""
    with open(store.log_path(MATCH), "ab") as file:
        file.write(torn)
    return torn


def check_set_aside(store: FileStore, whole: bytes) -> None:
    """The torn bytes are in quarantine, reported once, and the log ends at its last newline."""
    [report] = [t for t in store.torn_tails if t.quarantined_to]
    assert report.path == str(store.log_path(MATCH)) and report.size == len(TORN)
    quarantined = Path(report.quarantined_to)
    assert quarantined.parent == store.home / "quarantine" and quarantined.name.startswith(f"{MATCH}.")
    assert quarantined.name.endswith(".torn") and quarantined.read_bytes() == TORN
    assert store.log_path(MATCH).read_bytes() == whole


def test_append_refuses_a_torn_tail_says_how_to_repair_and_changes_nothing(ten: FileStore) -> None:
    tear(ten)
    before = snapshot(ten.home)
    with pytest.raises(TornTailError, match=f"ends in {len(TORN)} bytes of an interrupted write.*tabletape repair {MATCH}"):
        ten.append(MATCH, [ruled(10)], expected_seq=9)
    assert snapshot(ten.home) == before


def test_repair_sets_aside_a_torn_tail_and_appends_go_on(ten: FileStore) -> None:
    whole = ten.log_path(MATCH).read_bytes()
    tear(ten)
    report = ten.repair(MATCH)
    assert report.torn is not None and report.torn == ten.torn_tails[-1]
    check_set_aside(ten, whole)
    assert not ten.repair(MATCH).changed and len(ten.torn_tails) == 1
    assert ten.append(MATCH, [ruled(10)], expected_seq=9)[0].seq == 10 and ten.verify(MATCH).ok


def test_readers_never_see_a_torn_tail_report_it_once_and_leave_it(ten: FileStore) -> None:
    whole = ten.log_path(MATCH).read_bytes()
    tear(ten)
    assert ten.last(MATCH)[0] == 9
    assert list(ten.lines(MATCH)) == whole.splitlines()
    assert ten.verify(MATCH).ok
    assert ten.torn_tails == [TornTail(path=str(ten.log_path(MATCH)), size=len(TORN))]
    assert ten.log_path(MATCH).read_bytes() == whole + TORN  # only repair removes bytes


def test_whole_lines_past_the_anchor_are_an_unfinished_batch_not_part_of_the_log(ten: FileStore) -> None:
    whole = ten.log_path(MATCH).read_bytes()
    unfinished = b"".join(line + b"\n" for line in log_lines(ten)[-2:])  # whole lines, never committed
    tear(ten, unfinished)
    assert list(ten.lines(MATCH)) == whole.splitlines() and ten.last(MATCH)[0] == 9
    assert ten.repair(MATCH).torn.size == len(unfinished)  # type: ignore[union-attr]


def test_readers_stop_before_a_partial_line_while_a_writer_holds_the_lock(ten: FileStore) -> None:
    whole = ten.log_path(MATCH).read_bytes()
    tear(ten)
    fd = os.open(ten.log_path(MATCH), os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a writer in the middle of its write
        assert list(ten.lines(MATCH)) == whole.splitlines()
        assert list(ten.tail(MATCH, 7)) == whole.splitlines()[8:]
        assert ten.verify(MATCH).ok
    finally:
        os.close(fd)
    assert ten.torn_tails == [] and ten.log_path(MATCH).read_bytes() == whole + TORN


def test_a_whole_last_line_without_its_newline_is_not_torn(ten: FileStore) -> None:
    path = ten.log_path(MATCH)
    whole = path.read_bytes()
    os.truncate(path, len(whole) - 1)  # `truncate -s -1`
    assert list(ten.lines(MATCH)) == whole.splitlines() and ten.last(MATCH)[0] == 9
    assert ten.verify(MATCH).ok and ten.torn_tails == []
    assert ten.append(MATCH, [ruled(10)], expected_seq=9)[0].seq == 10
    assert path.read_bytes().startswith(whole) and ten.verify(MATCH).ok


def test_repair_gives_a_whole_last_line_its_newline(ten: FileStore) -> None:
    path = ten.log_path(MATCH)
    whole = path.read_bytes()
    os.truncate(path, len(whole) - 1)
    assert ten.repair(MATCH).newline_added and path.read_bytes() == whole and ten.verify(MATCH).ok


def test_a_torn_line_zero_is_set_aside_by_repair(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "logs" / "x.jsonl")
    journal.path.parent.mkdir()
    journal.path.write_bytes(b'{"type":"MatchSta')
    report = journal.repair()
    assert report.torn is not None and report.torn.size == 17 and journal.path.read_bytes() == b""
    assert Path(report.torn.quarantined_to).parent == tmp_path / "quarantine"


def test_torn_tails_at_the_same_moment_get_distinct_quarantine_files(ten: FileStore) -> None:
    journal = ten.log_journal(MATCH)
    reports = []
    for n in range(5):
        tear(ten, TORN + str(n).encode())
        reports.append(journal.repair().torn)
    targets = {Path(report.quarantined_to) for report in reports if report}
    assert len(targets) == 5 and sorted(p.read_bytes()[-1:] for p in targets) == [b"0", b"1", b"2", b"3", b"4"]


def test_repair_of_a_missing_journal_changes_nothing(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "logs" / "x.jsonl")
    assert not journal.repair().changed and not (tmp_path / "logs").exists()


# -- the journal as a building block --------------------------------------------------


def test_a_journal_starts_with_expected_seq_minus_one(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "notes" / "x.jsonl")
    [first] = journal.append([ruled(0)], expected_seq=-1)
    assert (first.seq, first.prev) == (0, GENESIS)
    with pytest.raises(ConflictError, match="expected last seq -1, but the last seq is 0"):
        journal.append([ruled(1)], expected_seq=-1)
    assert journal.append([ruled(1)], expected_seq=0)[0].seq == 1 and journal.verify().ok


def test_a_journal_that_does_not_exist_yet_conflicts_with_a_positive_expected_seq(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "notes" / "x.jsonl")
    with pytest.raises(ConflictError, match="the file does not exist"):
        journal.append([ruled(0)], expected_seq=0)
    assert not (tmp_path / "notes").exists()


def test_bad_input_for_a_new_journal_leaves_no_file_behind(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "notes" / "x.jsonl")
    with pytest.raises(LogFormatError):
        journal.append([Retracted(target_seq=0, seq=4)], expected_seq=-1)
    assert not (tmp_path / "notes").exists()


def test_write_new_never_overwrites_an_existing_file(ten: FileStore) -> None:
    before = snapshot(ten.home)
    with pytest.raises(ConflictError, match="already exists"):
        ten.import_lines(MATCH, [b'{"seq":0}'])
    assert snapshot(ten.home) == before


def test_write_new_refuses_a_line_with_a_newline_and_leaves_nothing(store: FileStore) -> None:
    with pytest.raises(LogFormatError, match="must not contain a newline"):
        store.import_lines(MATCH, [b"{}", b"{}\n{}"])
    assert list((store.home / "logs").iterdir()) == []


# -- importing a whole log ------------------------------------------------------------


def header_codec(header: MatchStarted) -> LogCodec:
    return LogCodec(())


def exported(ten: FileStore) -> bytes:
    return ten.log_path(MATCH).read_bytes()


def test_import_log_keeps_a_chained_log_byte_for_byte(ten: FileStore, tmp_path: Path) -> None:
    other = FileStore(tmp_path / "other")
    line0 = import_log(other, MATCH, exported(ten), header_codec)
    assert line0.match_id == MATCH and line0.seq == 0
    assert other.log_path(MATCH).read_bytes() == exported(ten) and other.verify(MATCH).ok


def test_import_log_accepts_a_last_line_without_a_newline(ten: FileStore, tmp_path: Path) -> None:
    other = FileStore(tmp_path / "other")
    import_log(other, MATCH, exported(ten).rstrip(b"\n"), header_codec)
    assert other.log_path(MATCH).read_bytes() == exported(ten)


def test_import_log_chains_a_log_written_without_prev(tmp_path: Path) -> None:
    data = b"\n".join(
        [
            b'{"type":"MatchStarted","seq":0,"match_id":"imp","ruleset":"m","version":"1","seats":{}}',
            b'{"type":"Ruled","seq":1,"rule":"r","decision":"d","at":"2020-01-01T00:00:00Z"}',
            b'{"type":"MatchEnded","seq":2,"winner":"red"}',
        ]
    )
    store = FileStore(tmp_path / "home")
    import_log(store, "imp", data, header_codec)
    assert store.verify("imp").ok and store.last("imp")[0] == 2
    lines = list(store.lines("imp"))
    assert json.loads(lines[1])["at"] == "2020-01-01T00:00:00Z" and json.loads(lines[2])["at"] is None


@pytest.mark.parametrize(
    ("damage", "error", "says"),
    [
        (edit_byte, ChainBrokenError, "<input>:6: prev does not match the hash of line 5"),
        (forge_first, ChainBrokenError, "<input>:1: prev must be empty on the first line"),
        (swap, LogFormatError, "<input>:4: seq gap: expected 3, found 4"),
        (delete, LogFormatError, "<input>:7: seq gap"),
        (garble, LogFormatError, "<input>:3: "),
        (lambda lines: lines[1:], LogFormatError, "<input>:1: the first line must be MatchStarted"),
        (lambda lines: [*lines, b""], LogFormatError, "<input>:11: "),
        (lambda lines: [], LogFormatError, "<input>: empty log"),
    ],
)
def test_import_log_refuses_a_damaged_log_and_writes_nothing(
    ten: FileStore, tmp_path: Path, damage, error: type[TabletapeError], says: str
) -> None:
    data = b"".join(line + b"\n" for line in damage(exported(ten).splitlines()))
    other = FileStore(tmp_path / "other")
    with pytest.raises(error) as caught:
        import_log(other, MATCH, data, header_codec)
    assert str(caught.value).startswith(says) and "\n" not in str(caught.value)
    assert not other.home.exists()


def test_import_log_refuses_bytes_that_are_not_utf8_naming_the_line(ten: FileStore, tmp_path: Path) -> None:
    lines = exported(ten).splitlines()
    lines[3] = lines[3].replace(b"decision 3", b"decision \x80")
    other = FileStore(tmp_path / "other")
    with pytest.raises(LogFormatError, match=r"^<input>:4: not UTF-8 text \(byte 0x80\)$"):
        import_log(other, MATCH, b"\n".join(lines), header_codec)
    assert not other.home.exists()


def test_import_log_refuses_a_header_for_another_match(ten: FileStore, tmp_path: Path) -> None:
    other = FileStore(tmp_path / "other")
    with pytest.raises(LogFormatError, match="but the import is for 'elsewhere'"):
        import_log(other, "elsewhere", exported(ten), header_codec)
    assert not other.home.exists()


def test_import_log_refuses_an_existing_match(ten: FileStore) -> None:
    before = snapshot(ten.home)
    with pytest.raises(ConflictError, match="already exists"):
        import_log(ten, MATCH, exported(ten), header_codec)
    assert snapshot(ten.home) == before
