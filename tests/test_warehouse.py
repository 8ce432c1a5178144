"""The warehouse: tables that match the logs, incremental sync, named analyses, a sandbox."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import msgspec
import pyarrow.parquet as pq
import pytest

from events.shared import Retracted
from projections.read.audit import audit
from projections.warehouse.export import export_parquet
from projections.warehouse.queries import QueryError, run_named, run_sql
from projections.warehouse.sync import Warehouse
from projections.workspace import Workspace
from tests.mortalgate import golden

GOLDEN = [*(f"mortalgate-{v}" for v in golden.VERSIONS), "mortalgate-mistakes"]


def store_with(tmp_path: Path, names=GOLDEN) -> Workspace:  # type: ignore[no-untyped-def]
    ws = Workspace(tmp_path / "store")
    for name in names:
        ws.import_log(golden.log_path(name).read_bytes(), where=name)
    return ws


@pytest.fixture(scope="module")
def synced(tmp_path_factory: pytest.TempPathFactory) -> Warehouse:
    ws = store_with(tmp_path_factory.mktemp("wh"))
    warehouse = Warehouse(ws)
    warehouse.sync()
    return warehouse


def rows(warehouse: Warehouse, sql: str) -> list[tuple]:
    return run_sql(warehouse, sql).rows


def test_every_event_and_match_is_in_the_tables(synced: Warehouse) -> None:
    ws = synced.ws
    for match_id in ws.matches():
        events = list(ws.events(match_id))
        report = audit(events, ws.rules_of(match_id))
        count, voided = rows(synced, f"SELECT count(*), count(*) FILTER (WHERE voided) FROM events WHERE match_id = '{match_id}'")[0]
        assert (count, voided) == (len(events), len(report.retracted))
        winner, errors, agrees = rows(synced, f"SELECT winner, violations, result_agrees FROM matches WHERE match_id = '{match_id}'")[0]
        assert winner == report.result.computed.winner  # type: ignore[union-attr]
        assert errors == len(report.errors) and agrees == report.result.agrees
        found = rows(synced, f"SELECT seq, rule, severity FROM violations WHERE match_id = '{match_id}' ORDER BY seq, rule")
        assert found == sorted((v.seq, v.rule, v.severity) for v in report.violations)


def test_steps_hold_each_metric_change(synced: Warehouse) -> None:
    ws = synced.ws
    rules = ws.rules_of("golden-2.5")
    expected = 0
    last: dict[str, float] = {}
    for step in ws.replay("golden-2.5", audit=False):
        for name, value in rules.ruleset.metrics(rules.params, step.state).items():
            expected += last.get(name) != value
            last[name] = value
    assert rows(synced, "SELECT count(*) FROM steps WHERE match_id = 'golden-2.5'")[0][0] == expected


def test_a_second_sync_changes_nothing(synced: Warehouse) -> None:
    report = synced.sync()
    assert report.events == 0 and report.unchanged == report.matches == len(GOLDEN)


def table_dump(warehouse: Warehouse) -> dict[str, list]:
    out = {}
    for table, order in [("matches", "match_id"), ("seats", "match_id, seat"), ("rosters", "match_id, side, piece"),
                         ("events", "match_id, seq"), ("steps", "match_id, seq, metric"), ("places", "ALL"),
                         ("violations", "match_id, seq, rule"), ("notes", "match_id, note_id")]:
        out[table] = rows(warehouse, f"SELECT * EXCLUDE (synced_at) FROM {table} ORDER BY {order}" if table == "matches"
                          else f"SELECT * FROM {table} ORDER BY {order}")
    return out


def test_an_incremental_sync_replays_only_new_events_and_equals_a_rebuild(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    lines = golden.log_path("mortalgate-2.5").read_bytes().splitlines(keepends=True)
    ws.import_log(b"".join(lines[:200]), where="first half")
    warehouse = Warehouse(ws)
    assert warehouse.sync().events == 200
    tail = [msgspec.structs.replace(e, prev="") for e in golden.read_log("mortalgate-2.5")[200:]]
    ws.append_events("golden-2.5", tail)
    ws.notes.add("golden-2.5", from_seq=10, author="ana", text="a long pause", tags=("question",))
    report = warehouse.sync()
    assert (report.events, report.extended, report.new, report.notes) == (len(tail), 1, 0, 1)
    copy = tmp_path / "copy"
    shutil.copytree(ws.home, copy, ignore=shutil.ignore_patterns("warehouse*"))
    scratch = Warehouse(Workspace(copy))
    scratch.sync()
    assert table_dump(warehouse) == table_dump(scratch)


def test_a_store_synced_with_every_line_copied_drops_the_copy_and_syncs_on(tmp_path: Path) -> None:
    """A warehouse written when the events table still kept each line (`detail`), as main's
    code before this change wrote it: the next sync drops that column once, rebuilds what
    the new rules fingerprint asks for, extends what grew, and leaves the same tables a
    sync from scratch does."""
    ws = Workspace(tmp_path / "store")
    lines = golden.log_path("mortalgate-2.5").read_bytes().splitlines(keepends=True)
    ws.import_log(b"".join(lines[:200]), where="first half")
    ws.import_log(golden.log_path("mortalgate-mistakes").read_bytes(), where="mistakes")
    warehouse = Warehouse(ws)
    warehouse.sync()
    old = duckdb.connect(str(warehouse.path))
    old.execute("ALTER TABLE events ADD COLUMN detail VARCHAR")  # the layout before: each line stored again
    old.execute("UPDATE events SET detail = '{}'")
    old.execute("UPDATE checkpoints SET fingerprint = 'rules before' WHERE match_id <> 'golden-2.5'")
    old.close()
    ws.append_events("golden-2.5", [msgspec.structs.replace(e, prev="") for e in golden.read_log("mortalgate-2.5")[200:]])
    report = warehouse.sync()
    assert report.extended == 1 and [why for _, why in report.rebuilt] == ["the rules changed since the last sync"]
    assert "detail" not in [name for name, *_ in rows(warehouse, "DESCRIBE events")]
    copy = tmp_path / "copy"
    shutil.copytree(ws.home, copy, ignore=shutil.ignore_patterns("warehouse*"))
    scratch = Warehouse(Workspace(copy))
    scratch.sync()
    assert table_dump(warehouse) == table_dump(scratch)
    assert warehouse.sync().unchanged == 2


def test_a_log_changed_underneath_is_projected_whole_and_said(tmp_path: Path) -> None:
    ws = store_with(tmp_path, ["mortalgate-2.5", "mortalgate-2.1"])
    warehouse = Warehouse(ws)
    warehouse.sync()
    path = ws.store.log_path("golden-2.5")
    data = bytearray(path.read_bytes())
    at = data.rindex(b'"reason":"') + len(b'"reason":"')
    data[at] = ord("X")  # edit the last line in place (same file)
    with open(path, "r+b") as f:
        f.write(data)
    report = warehouse.sync()
    assert [m for m, _ in report.rebuilt] == ["golden-2.5"] and "changed since the last sync" in report.rebuilt[0][1]
    replaced = path.with_name("x.tmp")  # an editor's save: a new file in its place
    replaced.write_bytes(bytes(data))
    os.replace(replaced, path)
    assert "replaced" in warehouse.sync().rebuilt[0][1]
    middle = data.index(b'"type":"TurnStarted"', len(data) // 2)
    hero = data.index(b'"hero":"', middle) + len(b'"hero":"')
    data[hero] = ord(chr(data[hero]).upper())  # a byte deep inside: only --verify reads the whole chain
    with open(path, "r+b") as f:
        f.write(data)
    assert warehouse.sync().rebuilt == []
    kept = rows(warehouse, "SELECT count(*) FROM events WHERE match_id = 'golden-2.5'")
    report = warehouse.sync(verify=True)  # found, and the previous rows are kept
    assert report.rebuilt == [] and [m for m, _ in report.failed] == ["golden-2.5"]
    assert "does not verify, its previous rows are kept" in report.failed[0][1]
    assert rows(warehouse, "SELECT count(*) FROM events WHERE match_id = 'golden-2.5'") == kept


def test_an_undo_reaching_before_the_last_sync_rebuilds_the_match(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    ws.new_match("mortalgate@2.5", {"red": "a", "blue": "b"}, match_id="m")
    ws.append("m", b'{"type":"DraftRolled","red":3,"blue":1}\n{"type":"HeroPicked","by":"red","hero":"drexir"}\n')
    warehouse = Warehouse(ws)
    warehouse.sync()
    assert rows(warehouse, "SELECT count(*) FROM violations")[0][0] == 1
    ws.append_events("m", [Retracted(target_seq=2, reason="too early")])
    report = warehouse.sync()
    assert report.rebuilt and "reaches back" in report.rebuilt[0][1]
    assert rows(warehouse, "SELECT count(*) FROM violations")[0][0] == 0
    assert rows(warehouse, "SELECT voided FROM events WHERE seq = 2")[0][0] is True


def test_a_removed_match_leaves_the_warehouse(tmp_path: Path) -> None:
    ws = store_with(tmp_path, ["mortalgate-2.5", "mortalgate-2.1"])
    warehouse = Warehouse(ws)
    warehouse.sync()
    ws.store.log_path("golden-2.1").unlink()
    assert warehouse.sync().removed == 1
    assert rows(warehouse, "SELECT DISTINCT match_id FROM events") == [("golden-2.5",)]


# --- named analyses, checked against the Python API on the same logs -----------------------


def test_game_length_counts_events_and_turns_per_version(synced: Warehouse) -> None:
    result = run_named(synced, "game_length", {"source": "simulation"})
    by_version = {r["version"]: r for r in result.records()}
    log = list(synced.ws.events("golden-2.1"))
    rules = synced.ws.rules_of("golden-2.1")
    final = list(synced.ws.replay("golden-2.1", audit=False))[-1]
    assert by_version["2.1"]["matches"] == 1 and by_version["2.1"]["median_events"] == len(log)
    assert by_version["2.1"]["median_turns"] == rules.ruleset.progress(rules.params, final.state).turn
    assert by_version["2.1"]["median_minutes"] is None  # bot games run on a simulated clock: no minutes reported


def test_side_win_rates_give_wilson_intervals(synced: Warehouse) -> None:
    records = run_named(synced, "side_win_rates", {"version": "2.5"}).records()
    blue = next(r for r in records if r["side"] == "blue")
    assert (blue["matches"], blue["wins"]) == (2, 2)  # the golden 2.5 game and the mistakes game
    assert blue["win_rate"] == 1.0 and blue["low95"] == pytest.approx(0.342, abs=0.001) and blue["high95"] == 1.0
    assert any(r["side"] == "(first turn)" for r in records)


def test_violations_per_100_events_by_rule(synced: Warehouse) -> None:
    records = run_named(synced, "violations_by_rule").records()
    assert {r["rule"] for r in records} == {"mortalgate/combat.range", "mortalgate/combat.line-of-sight",
                                             "mortalgate/combat.hit", "mortalgate/movement.occupied"}
    events = len(list(synced.ws.events("mortalgate-mistakes")))
    assert records[0]["per_100_events"] == round(100 / events, 3)


def test_pacing_uses_the_recorded_times(synced: Warehouse) -> None:
    records = run_named(synced, "pacing").records()
    turns = next(r for r in records if r["unit"] == "turn")
    assert turns["median_s"] > 0 and turns["p90_s"] >= turns["median_s"]
    assert {r["phase"] for r in records if r["unit"] == "phase"} >= {"movement", "combat"}


def test_pick_win_rates_cover_every_hero(synced: Warehouse) -> None:
    records = run_named(synced, "pick_win_rates", {"version": "2.5"}).records()
    assert len(records) == 8 and all(r["picks"] == 2 for r in records)
    expected: dict[str, int] = {}
    for name in ("mortalgate-2.5", "mortalgate-mistakes"):
        events = golden.read_log(name)
        winner = audit(events, golden.golden_rules(name)).result.computed.winner  # type: ignore[union-attr]
        for e in events:
            if type(e).__name__ == "HeroPicked":
                expected[e.hero] = expected.get(e.hero, 0) + (e.by == winner)  # type: ignore[attr-defined]
    assert {r["piece"]: r["wins"] for r in records} == expected


def test_lead_changes_and_draws(synced: Warehouse) -> None:
    leads = {r["version"]: r for r in run_named(synced, "lead_changes").records()}
    assert set(leads) == set(golden.VERSIONS)
    draws = run_named(synced, "draw_rate").records()
    assert all(r["draws"] == 0 and r["finished"] == r["matches"] for r in draws)


def test_match_outcomes_count_lead_changes_and_half_time_comebacks_per_match(synced: Warehouse) -> None:
    """The per-match rows the verdicts count agree with the score metric replayed directly."""
    [row] = run_named(synced, "match_outcomes", {"version": "2.1"}).records()
    rules = synced.ws.rules_of(row["match_id"])
    scores = [rules.ruleset.metrics(rules.params, step.state)["score"] for step in synced.ws.replay(row["match_id"], audit=False)]
    leads = [s > 0 for s in scores if s != 0]
    assert row["lead_changes"] == sum(a != b for a, b in itertools.pairwise(leads))
    half = scores[(row["events"]) // 2]
    first_listed_won = row["winner"] == row["first_listed"]
    assert row["comeback"] == ((first_listed_won and half < 0) or (not first_listed_won and half > 0))
    assert row["median_turn_seconds"] is None  # a bot game: no wall-clock pacing
    assert set(row["sides"]) == {"red", "blue"} and len(row["picks"]) == 8


def test_comebacks_are_not_just_matches_with_a_lead_change(synced: Warehouse) -> None:
    per_version = run_named(synced, "lead_changes").records()
    outcomes = run_named(synced, "match_outcomes").records()
    for r in per_version:
        mine = [o for o in outcomes if o["version"] == r["version"] and o["finished"]]
        assert r["comebacks"] == sum(o["comeback"] for o in mine)
        assert r["matches_with_lead_change"] == sum(o["lead_changes"] > 0 for o in mine)
    assert any(r["comebacks"] != r["matches_with_lead_change"] for r in per_version)


def test_parameters_are_typed_so_a_version_that_looks_like_a_number_stays_text(synced: Warehouse) -> None:
    as_text = run_named(synced, "side_win_rates", {"version": "2.5"}).records()
    assert as_text and {r["version"] for r in as_text} == {"2.5"}
    with pytest.raises(QueryError, match="query match_outcomes: parameter bots must be true or false, got 'maybe'"):
        run_named(synced, "match_outcomes", {"bots": "maybe"})
    [human] = run_named(synced, "match_outcomes", {"bots": "false"}).records()  # the golden logs are bot games
    assert human["match_id"] == "mortalgate-mistakes" and human["median_turn_seconds"] > 0


def test_unknown_query_or_parameter_is_one_clear_line(synced: Warehouse) -> None:
    with pytest.raises(QueryError, match="unknown query 'nope'; named queries: "):
        run_named(synced, "nope")
    with pytest.raises(QueryError, match="has no parameter 'colour'"):
        run_named(synced, "game_length", {"colour": "red"})


@pytest.mark.parametrize("sql", [
    "SELECT * FROM read_csv('/etc/passwd')",
    "COPY matches TO '/tmp/tabletape-leak.csv'",
    "ATTACH '/tmp/tabletape-other.db' AS other",
    "DELETE FROM matches",
    "CREATE TABLE x AS SELECT 1",
    "SET enable_external_access = true",
    "INSTALL httpfs",
])
def test_the_sql_box_cannot_touch_files_or_change_anything(synced: Warehouse, sql: str) -> None:
    with pytest.raises(QueryError):
        run_sql(synced, sql)
    assert not Path("/tmp/tabletape-leak.csv").exists()


def test_parquet_export_reads_back_partitioned(synced: Warehouse, tmp_path: Path) -> None:
    written = export_parquet(synced, tmp_path / "parquet")
    events = pq.read_table(written["events"])
    assert events.num_rows == rows(synced, "SELECT count(*) FROM events")[0][0]
    assert (written["events"] / "ruleset=mortalgate" / "version=2.5").is_dir()
    detail = {(r["match_id"], r["seq"]): r["detail"] for r in events.select(["match_id", "seq", "detail"]).to_pylist()}
    for match_id in synced.ws.matches():  # each row's line, read back from the log (the warehouse keeps no copy)
        lines = [line.decode() for line in synced.ws.store.lines(match_id)]
        assert [detail[(match_id, seq)] for seq in range(len(lines))] == lines
    con = duckdb.connect()
    count = con.execute(f"SELECT count(*) FROM read_parquet('{written['matches']}/**/*.parquet', hive_partitioning=true)").fetchone()
    assert count == (len(GOLDEN),)


READER = """
import sys, time, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
print(con.execute("SELECT count(*) FROM events").fetchone()[0], flush=True)
sys.stdin.readline()
print(con.execute("SELECT count(*) FROM events").fetchone()[0], flush=True)
"""


def test_a_sync_neither_waits_for_nor_breaks_an_open_reader(tmp_path: Path) -> None:
    ws = store_with(tmp_path, ["mortalgate-2.5"])
    warehouse = Warehouse(ws)
    warehouse.sync()
    reader = subprocess.Popen([sys.executable, "-c", READER, str(warehouse.replica)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert reader.stdout is not None and reader.stdin is not None
    before = int(reader.stdout.readline())
    ws.import_log(golden.log_path("mortalgate-2.1").read_bytes())
    assert warehouse.sync(wait=5).new == 1  # the reader holds the old replica open
    reader.stdin.write("\n")
    reader.stdin.flush()
    assert int(reader.stdout.readline()) == before  # it kept its consistent snapshot
    assert reader.wait(timeout=10) == 0
    assert rows(warehouse, "SELECT count(DISTINCT match_id) FROM events")[0][0] == 2


def test_an_unreadable_log_is_reported_and_the_others_still_sync(tmp_path: Path) -> None:
    ws = store_with(tmp_path, ["mortalgate-2.5", "mortalgate-2.1"])
    path = ws.store.log_path("golden-2.1")
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([*lines[:5], b'{"type":"HeroFlew"}\n', *lines[6:]]))
    report = Warehouse(ws).sync()
    assert report.new == 1 and [m for m, _ in report.failed] == ["golden-2.1"]
    assert "unknown event type 'HeroFlew'" in report.failed[0][1] and ":6:" in report.failed[0][1]


def test_an_incremental_sync_of_new_batches_new_logs_and_grown_logs_equals_a_sync_from_scratch(tmp_path: Path) -> None:
    from projections.corpus.batch import simulate

    ws = store_with(tmp_path, ["mortalgate-2.5", "mortalgate-mistakes"])
    simulate(ws, "mortalgate@2.5", games=3, seed=1, workers=1, sync=False)
    warehouse = Warehouse(ws)
    first = warehouse.sync()
    assert (first.new, first.failed) == (5, [])
    simulate(ws, "mortalgate@2.5", games=2, seed=2, workers=1, sync=False)
    ws.import_log(golden.log_path("mortalgate-2.1").read_bytes(), where="2.1")
    grown = ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, title="a live table").match_id
    ws.notes.add("golden-2.5", from_seq=3, author="ana", text="why here?", tags=("question",))
    report = warehouse.sync()
    assert (report.new, report.extended, report.unchanged, report.rebuilt, report.notes) == (4, 0, 5, [], 1)
    ws.append_events(grown, [msgspec.structs.replace(e, prev="") for e in golden.read_log("mortalgate-2.5")[1:40]])
    assert warehouse.sync().extended == 1
    copy = tmp_path / "copy"
    shutil.copytree(ws.home, copy, ignore=shutil.ignore_patterns("warehouse*"))
    scratch = Warehouse(Workspace(copy))
    assert scratch.sync().new == 9
    assert table_dump(warehouse) == table_dump(scratch)
    assert rows(warehouse, "SELECT count(*) FROM checkpoints") == rows(scratch, "SELECT count(*) FROM checkpoints") == [(9,)]


def test_only_a_log_that_can_grow_keeps_a_state_to_resume_from(tmp_path: Path) -> None:
    from projections.corpus.batch import simulate

    ws = store_with(tmp_path, ["mortalgate-2.5"])
    simulate(ws, "mortalgate@2.5", games=2, seed=1, workers=1, sync=False)
    warehouse = Warehouse(ws)
    warehouse.sync()
    kept = rows(warehouse, "SELECT m.batch IS NOT NULL, octet_length(c.state) > 0 FROM checkpoints c "
                           "JOIN matches m USING (match_id) ORDER BY m.batch NULLS FIRST")
    assert kept == [(False, True), (True, False), (True, False)]


def test_a_grown_log_whose_checkpoint_kept_no_state_is_projected_whole_and_said(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    lines = golden.log_path("mortalgate-2.5").read_bytes().splitlines(keepends=True)
    ws.import_log(b"".join(lines[:200]), where="first half")
    warehouse = Warehouse(ws)
    warehouse.sync()
    old = duckdb.connect(str(warehouse.path))
    old.execute("UPDATE checkpoints SET state = ''::BLOB, metrics = ''")  # as a batched match's seam is kept
    old.close()
    ws.append_events("golden-2.5", [msgspec.structs.replace(e, prev="") for e in golden.read_log("mortalgate-2.5")[200:]])
    report = warehouse.sync()
    assert (report.extended, report.rebuilt) == (0, [("golden-2.5", "no state was kept to go on from")])
    copy = tmp_path / "copy"
    shutil.copytree(ws.home, copy, ignore=shutil.ignore_patterns("warehouse*"))
    scratch = Warehouse(Workspace(copy))
    scratch.sync()
    assert table_dump(warehouse) == table_dump(scratch)


def test_a_sync_that_finds_nothing_new_leaves_the_published_replica_as_it_is(synced: Warehouse) -> None:
    before = synced.replica.stat()
    assert synced.sync().events == 0
    after = synced.replica.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert rows(synced, "SELECT count(*) FROM matches") == [(len(GOLDEN),)]


def test_a_replica_deleted_by_hand_comes_back_with_the_next_sync(tmp_path: Path) -> None:
    warehouse = Warehouse(store_with(tmp_path, ["mortalgate-2.5"]))
    warehouse.sync()
    warehouse.replica.unlink()
    assert warehouse.sync().events == 0
    assert rows(warehouse, "SELECT count(*) FROM matches") == [(1,)]


def test_a_sync_stopped_before_it_published_is_published_by_the_next_with_nothing_new(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = store_with(tmp_path, ["mortalgate-2.5"])
    warehouse = Warehouse(ws)
    warehouse.sync()
    ws.import_log(golden.log_path("mortalgate-2.1").read_bytes(), where="2.1")
    real_replace = os.replace

    def killed(source: object, target: object) -> None:
        if str(target) == str(warehouse.replica):
            raise KeyboardInterrupt  # stopped after writing the primary, before publishing
        real_replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        warehouse.sync()
    monkeypatch.setattr(os, "replace", real_replace)
    assert rows(warehouse, "SELECT count(*) FROM matches") == [(1,)]  # readers still see the last publish
    assert warehouse.sync().events == 0  # the primary has it all already
    assert rows(warehouse, "SELECT count(*) FROM matches") == [(2,)]


def test_a_replica_published_under_another_schema_is_published_again(tmp_path: Path) -> None:
    warehouse = Warehouse(store_with(tmp_path, ["mortalgate-2.5"]))
    warehouse.sync()
    stamp = tmp_path / "store" / "warehouse.published"
    identity, schema = stamp.read_text().split(" schema ")
    stamp.write_text(f"{identity} schema {'0' * len(schema)}")  # as an older tabletape left it
    before = warehouse.replica.stat().st_ino
    assert warehouse.sync().events == 0
    assert warehouse.replica.stat().st_ino != before
    assert stamp.read_text().split(" schema ")[1] == schema
