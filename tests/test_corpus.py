"""Corpus work on every core: `sync` and `audit --all` over worker processes, one writer."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from projections.read.audit import audit
from projections.warehouse.parallel import audit_all
from projections.warehouse.sync import Warehouse, parallel_sync
from projections.workspace import Workspace
from tests.cli_support import run
from tests.mortalgate import golden

GOLDEN = [*(f"mortalgate-{v}" for v in golden.VERSIONS), "mortalgate-mistakes"]
TABLES = ("matches", "seats", "rosters", "events", "steps", "violations")


def store_with(home: Path, names: list[str] = GOLDEN) -> Workspace:
    ws = Workspace(home)
    for name in names:
        ws.import_log(golden.log_path(name).read_bytes(), where=name)
    return ws


def break_log(ws: Workspace, match_id: str) -> None:
    """Line 6 becomes an event type the game does not know."""
    path = ws.store.log_path(match_id)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([*lines[:5], b'{"type":"HeroFlew"}\n', *lines[6:]]))


def contents(path: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {table: con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall() for table in TABLES}
    finally:
        con.close()


def test_sync_on_two_processes_writes_exactly_what_one_process_writes(tmp_path: Path) -> None:
    serial, parallel = store_with(tmp_path / "serial"), store_with(tmp_path / "parallel")
    Warehouse(serial).sync()
    seen: list[tuple[int, int]] = []
    report = parallel_sync(Warehouse(parallel), workers=2, progress=lambda done, total: seen.append((done, total)))
    assert report.new == len(GOLDEN) and report.events == sum(len(list(serial.events(m))) for m in serial.matches())
    assert contents(tmp_path / "parallel" / "warehouse.read.duckdb") == contents(tmp_path / "serial" / "warehouse.read.duckdb")
    assert seen[-1] == (len(GOLDEN), len(GOLDEN))


def test_parallel_sync_is_incremental_and_reports_an_unreadable_log(tmp_path: Path) -> None:
    ws = store_with(tmp_path, ["mortalgate-2.5", "mortalgate-2.1"])
    break_log(ws, "golden-2.1")
    report = parallel_sync(Warehouse(ws), workers=2)
    assert report.new == 1 and [m for m, _ in report.failed] == ["golden-2.1"]
    assert "unknown event type 'HeroFlew'" in report.failed[0][1]
    again = parallel_sync(Warehouse(ws), workers=2)
    assert again.unchanged == 1 and again.events == 0


def test_audit_all_counts_broken_rules_like_the_audit_of_each_match(tmp_path: Path) -> None:
    ws = store_with(tmp_path)
    report = audit_all(ws, workers=2)
    expected: dict[str, int] = {}
    for match_id in ws.matches():
        for v in audit(ws.events(match_id), ws.rules_of(match_id)).violations:
            if v.severity in ("error", "warning"):
                expected[v.rule] = expected.get(v.rule, 0) + 1
    assert {r.rule: r.violations for r in report.rules} == expected and expected
    assert report.audited == len(GOLDEN) and report.events == sum(len(list(ws.events(m))) for m in ws.matches())
    counts = [r.violations for r in report.rules]
    assert counts == sorted(counts, reverse=True)


def test_audit_all_from_the_command_line_summarises_and_names_an_unreadable_log(tmp_path: Path) -> None:
    home = tmp_path / "store"
    ws = store_with(home)
    break_log(ws, "golden-2.1")
    code, out, _ = run(home, "audit", "--all", "--workers", "2")
    assert code == 1
    assert f"audited {len(GOLDEN) - 1} of {len(GOLDEN)} matches under their own rules" in out
    assert "unreadable golden-2.1:" in out and "HeroFlew" in out
    assert "mortalgate/" in out  # the table of broken rules


def test_audit_all_against_a_version_re_audits_that_game_only(tmp_path: Path) -> None:
    home = tmp_path / "store"
    store_with(home, ["mortalgate-2.5", "mortalgate-2.1"])
    code, out, _ = run(home, "audit", "--all", "--against", "mortalgate@1.5", "--format", "json", "--workers", "1")
    report = json.loads(out)
    assert report["against"] == "mortalgate@1.5" and report["audited"] == 2 and report["skipped"] == 0
    assert code == (0 if report["clean"] == 2 else 1)


@pytest.mark.parametrize("args", [["audit"], ["audit", "golden-2.5", "--all"]])
def test_audit_needs_either_a_match_or_all(tmp_path: Path, args: list[str]) -> None:
    store_with(tmp_path / "store", ["mortalgate-2.5"])
    code, _, err = run(tmp_path / "store", *args)
    assert code == 2 and "give either a MATCH_ID or --all" in err


def test_audit_all_against_an_unknown_version_fails_in_one_line(tmp_path: Path) -> None:
    store_with(tmp_path / "store", ["mortalgate-2.5"])
    code, out, err = run(tmp_path / "store", "audit", "--all", "--against", "mortalgate@9.9")
    assert code != 0 and "9.9" in err and "Traceback" not in err + out


def test_a_dask_cluster_syncs_and_re_audits_like_local_processes(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    local, remote = store_with(tmp_path / "local"), store_with(tmp_path / "dask")
    parallel_sync(Warehouse(local), workers=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0", silence_logs=50) as cluster:
        report = parallel_sync(Warehouse(remote), scheduler=cluster.scheduler_address)
        audited = audit_all(remote, scheduler=cluster.scheduler_address)
    assert report.new == len(GOLDEN) and audited.workers.startswith("dask tcp://127.0.0.1")
    assert contents(tmp_path / "dask" / "warehouse.read.duckdb") == contents(tmp_path / "local" / "warehouse.read.duckdb")
    assert audited.rules == audit_all(local, workers=1).rules


def test_an_unreachable_scheduler_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    home = tmp_path / "store"
    store_with(home, ["mortalgate-2.5"])
    code, out, err = run(home, "audit", "--all", "--scheduler", "tcp://127.0.0.1:9")
    assert code != 0 and "cannot reach the Dask scheduler" in err and "Traceback" not in out + err


ROOT = Path(__file__).resolve().parent.parent
EVERY_GAME = sorted(ROOT.glob("tests/*/golden/*.jsonl")) + sorted(p for p in (ROOT / "data" / "demo").glob("*.jsonl")
                                                                   if not p.name.endswith(".notes.jsonl"))
"""Every game's golden logs (their mistakes, undos and rulings) and the demo's table playtests."""


def replayed_rows(ws: Workspace, match_id: str) -> dict[str, list[tuple]]:
    """What the hot tables say of one match, read plainly off its replay: a row per event
    (where the game stands after it), a steps row per metric that
    changed, a places row per place the game names, and the audit's violations."""
    rules = ws.rules_of(match_id)
    ruleset, params = rules.ruleset, rules.params
    report = ws.audit(match_id)
    out: dict[str, list[tuple]] = {"events": [], "steps": [], "places": [], "violations": []}
    known: dict[str, float] = {}
    before = None
    for step in ws.replay(match_id):
        event, where = step.event, ruleset.progress(params, step.state)
        out["events"].append((match_id, event.seq, type(event).__name__, event.by, event.at, where.turn, where.round,
                              where.phase, where.actor, event.seq in report.retracted))
        for name, value in ruleset.metrics(params, step.state).items():
            if known.get(name) != value:
                known[name] = value
                out["steps"].append((match_id, event.seq, name, float(value)))
        if ruleset.places is not None and before is not None:
            out["places"] += [(match_id, event.seq, p.what, p.col, p.row) for p in ruleset.places(params, before.state, step.state, event)]
        before = step
    out["violations"] = [(match_id, v.seq, v.rule, v.severity, v.message) for v in report.violations]
    return out


def in_order(row: tuple) -> tuple:
    """Rows sorted by match and seq, then the rest as text (times compare as instants, not zones)."""
    return row[0], row[1], str(row[2:])


def test_sync_on_one_or_two_processes_writes_what_each_match_s_replay_says(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    for path in EVERY_GAME:
        ws.import_log(path.read_bytes(), where=str(path))
    expected: dict[str, list[tuple]] = {"events": [], "steps": [], "places": [], "violations": []}
    for match_id in ws.matches():
        for table, found in replayed_rows(ws, match_id).items():
            expected[table] += found
    assert {ws.header(m).ruleset for m in ws.matches()} == {"mortalgate", "frontier", "mercenarium", "mercyfrontier", "frontline", "freeform"}
    assert expected["places"] and expected["violations"] and any(row[9] for row in expected["events"])
    for workers in (1, 2):
        for name in ("warehouse.duckdb", "warehouse.read.duckdb"):
            (ws.home / name).unlink(missing_ok=True)
        parallel_sync(Warehouse(ws), workers=workers)
        con = duckdb.connect(str(ws.home / "warehouse.read.duckdb"), read_only=True)
        try:
            for table, rows in expected.items():
                synced = con.execute(f"SELECT * FROM {table}").fetchall()
                assert sorted(synced, key=in_order) == sorted(rows, key=in_order), (table, workers)
        finally:
            con.close()


def test_bot_games_whose_times_repeat_keep_each_event_s_own_time(tmp_path: Path) -> None:
    """Bot games share their recorded times (each game's clock starts at the same instant), which
    the sync converts once per distinct time: every event still gets its own."""
    from projections.corpus.batch import simulate

    ws = Workspace(tmp_path / "store")
    simulate(ws, "mortalgate@2.5", games=3, seed=4, sync=False)
    expected = sorted((row for m in ws.matches() for row in replayed_rows(ws, m)["events"]), key=in_order)
    times = [row[4] for row in expected]
    assert len(set(times)) * 2 <= len(times)  # the times repeat across the games
    parallel_sync(Warehouse(ws), workers=1)
    con = duckdb.connect(str(ws.home / "warehouse.read.duckdb"), read_only=True)
    try:
        assert sorted(con.execute("SELECT * FROM events").fetchall(), key=in_order) == expected
    finally:
        con.close()
