"""Corpus work on every core: `sync` and `audit --all` over worker processes, one writer."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from projections.audit import audit
from projections.parallel import audit_all, parallel_sync
from projections.warehouse import Warehouse
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
