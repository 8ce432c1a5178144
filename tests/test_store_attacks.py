"""Attacks on the store, each through the command line (or the Python API), as a
hostile user or a crashing machine would make them: out-of-range values, links, torn
tails, cut and edited ends, one bad file among many, deep JSON, runaway SQL."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from projections.warehouse.sql_limits import WORKER
from projections.warehouse.sync import Warehouse
from projections.workspace import Workspace
from tests.cli_support import lines, run

DRAFT = [{"type": "DraftRolled", "red": 5, "blue": 2}, {"type": "DraftChoiceMade", "by": "red", "team": "red", "choice": "first_pick"}]
DEEP = "[" * 5000 + "]" * 5000


def snapshot(home: Path) -> dict[str, bytes]:
    """Every file under a folder and its bytes."""
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file() and not p.is_symlink()}


def new(home: Path, match_id: str, *extra: str) -> None:
    code, _, err = run(home, "new", "--ruleset", "mortalgate@2.5", "--seats", "red=ana,blue=ben", "--id", match_id, *extra)
    assert code == 0, err


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A store with two matches, m1 (3 lines) and m2 (1 line)."""
    home = tmp_path / "store"
    new(home, "m1")
    assert run(home, "append", "m1", stdin=lines(*DRAFT))[0] == 0
    new(home, "m2")
    return home


def log_from_elsewhere(tmp_path: Path, match_id: str) -> Path:
    """A log file of a match recorded in another store."""
    other = tmp_path / f"other-{match_id}"
    new(other, match_id)
    path = tmp_path / f"{match_id}.jsonl"
    path.write_bytes((other / "logs" / f"{match_id}.jsonl").read_bytes())
    return path


def header_line(**fields: object) -> bytes:
    started = {"type": "MatchStarted", "seq": 0, "prev": "", "match_id": "big", "ruleset": "mortalgate", "version": "2.5",
               "seats": {"red": "a", "blue": "b"}, **fields}
    return json.dumps(started).encode() + b"\n"


# -- values the warehouse cannot store ------------------------------------------------------


@pytest.mark.parametrize(("fields", "field", "says"), [
    ({"seed": 2**64}, "seed", "does not fit in a signed 64-bit integer"),
    ({"seed": -(2**63) - 1}, "seed", "does not fit"),
    ({"options": {"points": 10**30}}, "options.points", "does not fit"),
    ({"options": {"deep": json.loads("[" * 40 + "]" * 40)}}, "options.deep", "nested more than"),
])
def test_an_import_with_a_value_out_of_range_is_refused_naming_file_line_and_field(home: Path, tmp_path: Path, fields, field, says) -> None:
    path = tmp_path / "big.jsonl"
    path.write_bytes(header_line(**fields))
    before = snapshot(home)
    code, _, err = run(home, "import", str(path))
    assert code == 2 and f"{path}:1: " in err and says in err and f"(field {field})" in err and err.count("\n") == 1
    assert snapshot(home) == before


def test_append_refuses_an_integer_past_64_bits_and_an_unknown_field(home: Path) -> None:
    before = snapshot(home)
    code, _, err = run(home, "append", "m1", "--event", json.dumps({"type": "Ruled", "rule": "r", "decision": "d", "applies_to": 2**64}))
    assert code == 2 and "--event:1: " in err and "(field applies_to)" in err
    code, _, err = run(home, "append", "m1", "--event", json.dumps({"type": "Retracted", "tagret_seq": 2, "target_seq": 2}))
    assert code == 2 and "Retracted has no field 'tagret_seq'" in err
    assert snapshot(home) == before


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", str(2**64), "1e999"])
def test_new_refuses_an_option_that_is_not_a_storable_number(tmp_path: Path, value: str) -> None:
    code, _, err = run(tmp_path, "new", "--ruleset", "mortalgate@2.5", "--seats", "red=a,blue=b", "--option", f"x={value}")
    assert code == 2 and "--option x" in err and "Traceback" not in err
    assert not (tmp_path / "logs").exists()


def test_a_log_with_a_seed_past_64_bits_already_in_the_store_fails_alone_in_sync(home: Path) -> None:
    (home / "logs" / "big.jsonl").write_bytes(header_line(seed=2**64))  # written before the boundary existed
    code, out, err = run(home, "sync")
    assert code == 1 and "synced 3 matches (2 new" in out
    assert "unreadable big:" in err and "(field seed)" in err
    code, out, _ = run(home, "query", "--sql", "SELECT count(*) AS n FROM matches", "--format", "json")
    assert code == 0 and json.loads(out) == [{"n": 2}]


# -- links ----------------------------------------------------------------------------------


def test_a_log_that_is_a_link_is_reported_and_never_read_or_written(home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b'{"type":"MatchStarted","seq":0,"prev":"","match_id":"x"}\n{"half')
    (home / "logs" / "x.jsonl").symlink_to(outside)
    code, out, err = run(home, "list")
    assert code == 0 and "m1" in out and "x.jsonl: a symbolic link: not followed" in err
    for args in (["append", "x", "--event", '{"type":"Ruled","rule":"r","decision":"d"}'], ["repair", "x"], ["verify", "x"]):
        code, _, err = run(home, *args)
        assert code != 0 and "symbolic link" in err, args
    run(home, "sync")
    assert outside.read_bytes().endswith(b'{"half') and not (home / "quarantine").exists()


def test_a_quarantine_folder_that_is_a_link_is_never_written_through(home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (home / "quarantine").symlink_to(outside)
    with open(home / "logs" / "m1.jsonl", "ab") as log:
        log.write(b'{"type":"Ruled","se')
    code, _, err = run(home, "repair", "m1")
    assert code == 1 and "quarantine is a symbolic link" in err
    assert list(outside.iterdir()) == [] and (home / "logs" / "m1.jsonl").read_bytes().endswith(b'{"type":"Ruled","se')


@pytest.mark.parametrize("name", ["warehouse.duckdb", "warehouse.read.duckdb", "warehouse.lock", "warehouse.read.duckdb.tmp"])
def test_warehouse_files_that_are_links_are_never_written_through(home: Path, tmp_path: Path, name: str) -> None:
    outside = tmp_path / "victim"
    outside.write_bytes(b"precious")
    (home / name).symlink_to(outside)
    code, _, err = run(home, "sync")
    assert code == 2 and "symbolic link" in err and outside.read_bytes() == b"precious"


def test_a_logs_folder_that_is_a_link_is_reported(tmp_path: Path) -> None:
    real = tmp_path / "real"
    new(real, "m1")
    home = tmp_path / "store"
    home.mkdir()
    (home / "logs").symlink_to(real / "logs")
    code, out, err = run(home, "list")
    assert out == "" and "logs is a symbolic link" in err
    code, _, err = run(home, "new", "--ruleset", "mortalgate@2.5", "--seats", "red=a,blue=b", "--id", "m9")
    assert code == 2 and "symbolic link" in err and not (real / "logs" / "m9.jsonl").exists()


# -- torn tails and the end anchor ------------------------------------------------------------


@pytest.mark.parametrize("command", [["list"], ["verify", "m1"], ["replay", "m1"], ["export", "m1"], ["sync"], ["audit", "m1"]])
def test_every_command_that_meets_a_torn_tail_says_so_once_and_leaves_it(home: Path, command: list[str]) -> None:
    log = home / "logs" / "m1.jsonl"
    whole = log.read_bytes()
    log.write_bytes(whole + b'{"type":"Ruled","seq":3,"rul')
    _, _, err = run(home, *command)
    assert err.count("m1.jsonl: ends in 28 bytes of an interrupted write") == 1, err
    assert "tabletape repair m1" in err and log.read_bytes() == whole + b'{"type":"Ruled","seq":3,"rul'


def test_repair_sets_a_torn_tail_aside_and_says_where(home: Path) -> None:
    log = home / "logs" / "m1.jsonl"
    whole = log.read_bytes()
    log.write_bytes(whole + b'{"type":"Ruled"')
    code, _, err = run(home, "append", "m1", "--event", '{"type":"Ruled","rule":"r","decision":"d"}')
    assert code == 2 and "interrupted write" in err and log.read_bytes() == whole + b'{"type":"Ruled"'
    code, out, _ = run(home, "repair", "m1")
    assert code == 0 and "15 bytes of an interrupted write set aside to" in out and log.read_bytes() == whole
    [quarantined] = (home / "quarantine").iterdir()
    assert quarantined.read_bytes() == b'{"type":"Ruled"'


def test_a_last_line_that_lost_its_newline_is_kept(home: Path) -> None:
    new(home, "ended")
    assert run(home, "append", "ended", "--event", '{"type":"MatchEnded","winner":"red","reason":"conceded"}')[0] == 0
    log = home / "logs" / "ended.jsonl"
    os.truncate(log, log.stat().st_size - 1)  # truncate -s -1
    code, out, err = run(home, "replay", "ended", "--format", "json")
    assert code == 0 and json.loads(out)["event"]["type"] == "MatchEnded" and "interrupted" not in err
    code, out, _ = run(home, "verify", "ended")
    assert code == 0 and "final newline" in out
    assert run(home, "repair", "ended")[1].strip() == "ended: the last line's newline restored"


@pytest.mark.parametrize("damage", ["cut the last line", "cut three lines", "edit the last line", "rewrite the chain"])
def test_verify_and_sync_verify_find_a_damaged_end_and_sync_keeps_the_previous_rows(home: Path, damage: str) -> None:
    assert run(home, "sync")[0] == 0
    log = home / "logs" / "m1.jsonl"
    kept = log.read_bytes().splitlines(keepends=True)
    if damage == "cut the last line":
        log.write_bytes(b"".join(kept[:-1]))
    elif damage == "cut three lines":
        log.write_bytes(b"".join(kept[:-3]) if len(kept) > 3 else kept[0])
    elif damage == "edit the last line":
        log.write_bytes(b"".join(kept[:-1]) + kept[-1].replace(b'"first_pick"', b'"last_pick"'))
    else:
        from events.chain import line_hash

        prev, forged = "", []
        for line in kept:
            raw = json.loads(line)
            raw["prev"], raw["at"] = prev, "2020-01-01T00:00:00Z"
            forged.append(json.dumps(raw, separators=(",", ":")).encode())
            prev = line_hash(forged[-1])
        log.write_bytes(b"".join(line + b"\n" for line in forged))
    code, _, err = run(home, "verify", "m1")
    assert code == 2 and "anchor" in err
    code, out, err = run(home, "sync", "--verify")
    assert code == 1 and "unreadable m1" in err and "its previous rows are kept" in err
    code, out, _ = run(home, "query", "--sql", "SELECT count(*) AS n FROM events WHERE match_id = 'm1'", "--format", "json")
    assert json.loads(out) == [{"n": 3}]


# -- racing appends and sync ------------------------------------------------------------------


def test_sync_while_writers_append_never_reports_tampering(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    ws.new_match("mortalgate@2.5", {"red": "a", "blue": "b"}, match_id="live")
    writer = Path(__file__).with_name("store_writer.py")
    procs = [subprocess.Popen([sys.executable, str(writer), "batch", str(ws.home), "live", f"w{n}", "1,3,50"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for n in range(2)]
    try:
        warehouse, reports = Warehouse(ws), []
        time.sleep(0.3)
        for _ in range(8):
            reports.append(warehouse.sync())
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
    assert [r.rebuilt for r in reports] == [[]] * 8, [r.rebuilt for r in reports if r.rebuilt]
    assert sum(r.extended for r in reports) >= 3 and all(not r.failed for r in reports)


# -- one bad file among many -----------------------------------------------------------------


def test_a_synced_log_whose_last_line_became_unreadable_does_not_stop_sync(home: Path) -> None:
    assert run(home, "sync")[0] == 0
    log = home / "logs" / "m1.jsonl"
    data = log.read_bytes()
    log.write_bytes(data[: data.rindex(b'"seq"')] + b'"sXq"' + data[data.rindex(b'"seq"') + 5:])
    new(home, "m3")
    code, out, err = run(home, "sync")
    assert code == 1 and "1 new" in out and "unreadable m1" in err


def test_a_folder_named_like_a_log_and_a_corrupt_manifest_do_not_stop_anything(home: Path, tmp_path: Path) -> None:
    (home / "logs" / "folder.jsonl").mkdir()
    manifest = home / "batches" / "b1" / "manifest.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_bytes(b'{"batch_id": "b1", "parts": ')
    code, out, err = run(home, "list")
    assert code == 0 and "m1" in out and "m2" in out
    assert "folder.jsonl: not a file" in err and f"{manifest}: damaged manifest" in err
    new(home, "m3")
    code, _, err = run(home, "import", str(log_from_elsewhere(tmp_path, "fresh")))
    assert code == 0, err
    code, out, _ = run(home, "sync")
    assert code == 0 and "synced 4 matches" in out


def test_sync_names_the_matches_it_removed(home: Path) -> None:
    run(home, "sync")
    (home / "logs" / "m2.jsonl").unlink()
    code, out, _ = run(home, "sync")
    assert code == 0 and "1 removed" in out and "removed m2: its log is gone" in out


def test_a_bad_variant_file_does_not_break_the_ruleset_list(home: Path) -> None:
    (home / "variants").mkdir()
    (home / "variants" / "good.toml").write_text('extends = "mortalgate@2.5"\ntitle = "good"\n[params]\n')
    (home / "variants" / "bad.toml").write_text("extends = [unclosed")
    code, out, err = run(home, "rulesets")
    assert code == 0 and "mortalgate@good" in out and "bad.toml: not a readable TOML file" in err


# -- no input reaches a traceback ------------------------------------------------------------


def test_json_nested_thousands_deep_is_one_line_everywhere(home: Path, tmp_path: Path) -> None:
    before = snapshot(home)
    code, _, err = run(home, "append", "m1", "--event", '{"type":"Ruled","rule":"r","decision":' + DEEP + "}")
    assert code == 2 and "nested too deeply" in err and err.count("\n") == 1
    deep_log = tmp_path / "deep.jsonl"
    deep_log.write_bytes(header_line()[:-2] + b',"options":{"x":' + DEEP.encode() + b"}}\n")
    code, _, err = run(home, "import", str(deep_log))
    assert code == 2 and "nested too deeply" in err and err.count("\n") == 1
    code, _, err = run(home, "new", "--ruleset", "mortalgate@2.5", "--seats", "red=a,blue=b", "--option", f"x={DEEP}")
    assert code == 2 and "nested too deeply" in err
    assert snapshot(home) == before


def test_a_bom_is_named_as_a_bom(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + header_line())
    code, _, err = run(home, "import", str(path))
    assert code == 2 and "byte order mark (BOM)" in err and f"{path}:1:" in err


@pytest.mark.parametrize("sql", ["", ";", " ;\n; "])
def test_an_empty_sql_statement_is_one_line(home: Path, sql: str) -> None:
    run(home, "sync")
    code, _, err = run(home, "query", "--sql", sql)
    assert code == 2 and err.strip() == "error: --sql: no statement given"


def test_query_json_is_valid_json_with_every_column(home: Path) -> None:
    run(home, "sync")
    code, out, _ = run(home, "query", "--sql", "SELECT 'nan'::DOUBLE AS x, 'inf'::DOUBLE AS x, 1 AS n", "--format", "json")
    assert code == 0 and json.loads(out) == [{"x": None, "x_2": None, "n": 1}]


# -- SQL limits --------------------------------------------------------------------------------

RUNAWAY = "SELECT count(*) FROM range(1000000) a, range(1000000) b"
"""10^12 rows: hours without a limit."""


def test_sql_stops_at_the_time_limit(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run(home, "sync")
    monkeypatch.setenv("TABLETAPE_SQL_SECONDS", "1")
    started = time.monotonic()
    code, _, err = run(home, "query", "--sql", RUNAWAY)
    assert code == 2 and "stopped after 1 s, the time limit (TABLETAPE_SQL_SECONDS)" in err
    assert time.monotonic() - started < 20  # stopped, not finished


def test_sql_stops_at_the_memory_limit(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run(home, "sync")
    monkeypatch.setenv("TABLETAPE_SQL_MEMORY", "20MB")
    code, _, err = run(home, "query", "--sql", "SELECT length(list(range)) FROM range(50000000)")
    assert code == 2 and "memory" in err.lower() and err.count("\n") == 1


def test_sql_stops_at_the_row_limit(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run(home, "sync")
    monkeypatch.setenv("TABLETAPE_SQL_ROWS", "10")
    code, _, err = run(home, "query", "--sql", "SELECT * FROM range(11)")
    assert code == 2 and "more than 10 rows" in err
    assert run(home, "query", "--sql", "SELECT * FROM range(10)")[0] == 0


def has_thread(pid: int, name: str) -> bool:
    """Whether the process has a thread of that OS name (/proc/PID/task/TID/comm)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            if (task / "comm").read_text(encoding="utf-8").strip() == name:
                return True
        except OSError:  # the thread ended while we looked
            continue
    return False


def at_a_terminal() -> None:
    """Ctrl+C as a person at a terminal has it. A suite started in the background
    (`make test &`, nohup, some CI runners) inherits SIGINT ignored, and Python then
    leaves it ignored: the query would run on to its time limit (exit 2, not 130)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_running_query(home: Path) -> None:
    run(home, "sync")
    proc = subprocess.Popen([sys.executable, "-m", "dashboard.cli.commands", "--home", str(home), "query", "--sql", RUNAWAY],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=Path(__file__).parents[1],
                            preexec_fn=at_a_terminal)
    try:
        deadline = time.monotonic() + 300  # starting the command line takes seconds, far more on a busy machine
        while not has_thread(proc.pid, WORKER):  # the query's thread: Ctrl+C now lands on a running query
            assert proc.poll() is None and time.monotonic() < deadline, "the query never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=90)  # the query runs for hours: any exit within this is the interrupt
    finally:
        if proc.poll() is None:  # a failed wait above: leave no query running for hours
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and err.decode().splitlines()[-1:] == ["aborted"] and b"Traceback" not in err


# -- killed imports ----------------------------------------------------------------------------


def test_the_temp_file_of_a_killed_import_is_cleared_by_the_next_import(home: Path, tmp_path: Path) -> None:
    writer = Path(__file__).with_name("store_writer.py")
    proc = subprocess.Popen([sys.executable, str(writer), "import", str(home), "big-import", "20000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"aimed\n"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    [temp] = (home / "logs").glob(".*.tmp")
    assert temp.stat().st_size > 0 and not (home / "logs" / "big-import.jsonl").exists()
    os.utime(temp, (time.time() - 60, time.time() - 60))  # a minute later
    assert run(home, "import", str(log_from_elsewhere(tmp_path, "again")))[0] == 0
    assert list((home / "logs").glob(".*.tmp")) == []


def test_a_temp_file_a_live_writer_holds_is_never_cleared(home: Path) -> None:
    import fcntl

    from events.store import FileStore

    temp = home / "logs" / ".m9.jsonl.0badc0de.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # an import still writing
        os.utime(temp, (time.time() - 60, time.time() - 60))
        assert FileStore(home).remove_dead_temps() == [] and temp.exists()
    finally:
        os.close(fd)
    assert FileStore(home).remove_dead_temps() == [temp] and not temp.exists()


def test_the_upload_path_refuses_deep_json_and_big_numbers_as_typed_errors(tmp_path: Path) -> None:
    """The Matches page's upload calls `Workspace.import_log` and shows a TabletapeError
    as one line; anything else would be a traceback on the page."""
    from events.errors import LogFormatError

    ws = Workspace(tmp_path / "store")
    for data, says in [(header_line()[:-2] + b',"options":{"x":' + DEEP.encode() + b"}}\n", "nested too deeply"),
                       (header_line(seed=2**64), "(field seed)"), (b"\xef\xbb\xbf" + header_line(), "BOM")]:
        with pytest.raises(LogFormatError, match=re.escape(says)):
            ws.import_log(data, where="upload.jsonl")
    assert ws.matches() == []
