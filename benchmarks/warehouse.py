"""The warehouse at scale: sync speed from scratch and incremental, query times, size.

    python -m benchmarks.warehouse                 # 10,000 bot games (cached under .bench/)
    python -m benchmarks.warehouse --games 1000    # a quick run (writes .bench/, not BENCHMARKS.md)

Measured in one run: a full sync from scratch (events/s), the same rows inserted one by
one with DuckDB's executemany (timed on a sample, as rows/s, the baseline), an
incremental sync after 1% more games, the median time of every named query, and the
warehouse's size on disk against the JSON-lines logs. A report, not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import duckdb

from benchmarks.sections import write_section
from projections.corpus.batch import simulate
from projections.warehouse.queries import named_queries, run_named
from projections.warehouse.sync import SCHEMA, Warehouse
from projections.workspace import Workspace
from rulesets import registry

ROOT = Path(__file__).resolve().parent.parent / ".bench"
SPEC = "mortalgate@2.5"
SAMPLE_ROWS = 20_000


def corpus(games: int, extra: int) -> Path:
    """A store with `games` bot games in one batch, generated once per rules fingerprint."""
    fingerprint = registry.game("mortalgate").fingerprint
    home = ROOT / f"warehouse-{fingerprint}-{games}"
    ws = Workspace(home)
    if not (home / "batches").exists() or len(ws.matches()) < games:
        shutil.rmtree(home, ignore_errors=True)
        started = time.perf_counter()
        print(f"generating {games} games of {SPEC} ...", flush=True)
        simulate(ws, SPEC, games=games, seed=1, sync=False, progress=_every(games))
        print(f"  {time.perf_counter() - started:.0f} s", flush=True)
    extra_home = ROOT / f"warehouse-{fingerprint}-{games}-extra-{extra}"
    if not (extra_home / "batches").exists():
        shutil.rmtree(extra_home, ignore_errors=True)
        simulate(Workspace(extra_home), SPEC, games=extra, seed=2, sync=False)
    return home


def _every(total: int) -> Callable[[int, int], None]:
    step = max(total // 20, 1)

    def report(done: int, _: int) -> None:
        if done % step == 0 or done == total:
            print(f"  {done}/{total}", flush=True)

    return report


def folder_size(path: Path) -> int:
    """Bytes of every file below a folder."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def executemany_rate(warehouse: Warehouse) -> float:
    """Rows per second when the same rows go in one by one (the naive way)."""
    source = warehouse.connect(sandboxed=False)
    rows = source.execute(f"SELECT * FROM events LIMIT {SAMPLE_ROWS}").fetchall()
    source.close()
    con = duckdb.connect()
    con.execute(SCHEMA)
    marks = ", ".join("?" * len(rows[0]))
    started = time.perf_counter()
    con.executemany(f"INSERT INTO events VALUES ({marks})", rows)
    return len(rows) / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    extra = max(args.games // 100, 1)
    source = corpus(args.games, extra)
    work = ROOT / "warehouse-run"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(source, work)
    ws = Workspace(work)
    warehouse = Warehouse(ws)
    Warehouse(Workspace(ROOT / "warmup")).sync()  # imports (pandas via pyarrow) outside the timing

    started = time.perf_counter()
    full = warehouse.sync()
    full_s = time.perf_counter() - started
    con = warehouse.connect(sandboxed=False)
    rows = sum(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("events", "steps", "violations", "matches", "seats", "rosters"))  # type: ignore[index]
    con.close()
    naive = executemany_rate(warehouse)

    again = time.perf_counter()
    noop = warehouse.sync()
    noop_s = time.perf_counter() - again

    shutil.copytree(ROOT / f"warehouse-{registry.game('mortalgate').fingerprint}-{args.games}-extra-{extra}" / "batches",
                    work / "batches", dirs_exist_ok=True)
    os.utime(work / "batches")
    started = time.perf_counter()
    more = warehouse.sync()
    more_s = time.perf_counter() - started
    copy_started = time.perf_counter()
    shutil.copyfile(warehouse.path, work / "copy.duckdb")
    copy_s = time.perf_counter() - copy_started

    timings = {}
    for name in named_queries():
        runs = []
        for _ in range(5):
            t = time.perf_counter()
            run_named(warehouse, name)
            runs.append(time.perf_counter() - t)
        timings[name] = statistics.median(runs)

    logs = folder_size(work / "batches")
    db = warehouse.path.stat().st_size
    sync_rows = rows / full_s
    lines = [
        "## Warehouse (`make bench-warehouse`)",
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.warehouse --games {args.games}`"
        f" on {os.cpu_count()} cores: {full.matches} bot games of {SPEC} (heuristic bots, one simulation batch),"
        f" {full.events:,} events, {rows:,} warehouse rows.",
        "",
        "| figure | value | ratio (same run) | target | result |",
        "|---|---|---|---|---|",
        f"| full sync from scratch | {full.events / full_s:,.0f} events/s ({full_s:.1f} s, {sync_rows:,.0f} rows/s) | "
        f"{sync_rows / naive:.1f}x executemany | >= 20x | {'pass' if sync_rows / naive >= 20 else 'FAIL'} |",
        f"| baseline: executemany, one row at a time ({SAMPLE_ROWS:,}-row sample of `events`) | {naive:,.0f} rows/s | baseline | | |",
        f"| re-sync with nothing new | {noop_s:.2f} s | {noop_s / full_s:.3f} of the full sync | no-op | {'pass' if noop.events == 0 else 'FAIL'} |",
        f"| incremental sync after {more.new} more games ({more.events:,} events, {more.events / full.events:.1%}) | {more_s:.2f} s |"
        f" {more_s / full_s:.3f} of the full sync for {more.events / full.events:.3f} of the events | proportional to new events | "
        f"{'pass' if more_s / full_s < 5 * more.events / full.events + copy_s / full_s else 'FAIL'} |",
        f"| of which publishing the read replica (a file copy, O(warehouse size)) | {copy_s:.2f} s | | | |",
        f"| warehouse size on disk | {db / 1e6:,.0f} MB | {db / logs:.2f} of the JSON-lines logs ({logs / 1e6:,.0f} MB) | | |",
    ]
    for name, seconds in timings.items():
        lines.append(f"| query `{name}`, median of 5 | {seconds * 1000:,.0f} ms | | < 1 s | {'pass' if seconds < 1 else 'FAIL'} |")
    lines += ["", "The incremental sync replays only the new games' events; its remaining cost is fixed per sync "
              "(reading checkpoints, one transaction) plus publishing the replica, which is a copy of the whole file."]
    text = "\n".join(lines)
    print(text)
    target = Path(__file__).resolve().parent.parent / "BENCHMARKS.md" if args.games >= 10_000 else ROOT / "BENCHMARKS-warehouse.md"
    write_section("warehouse", text, target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
