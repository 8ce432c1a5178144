"""What the store's fold cache saves, each figure beside a baseline from the same run.

    python -m benchmarks.cache            # the figures, into BENCHMARKS.md (`make bench-cache`)
    python -m benchmarks.cache --quick    # smaller corpus and logs, printed only

- first append after a restart: a new process opens the store and appends one event to a
  long MortalGate match through `LiveMatches` (what `tabletape serve` runs); timed is the
  append call alone, in that process. Baseline: the same with the cache folder deleted.
- `audit --all` of an unchanged store, twice on 2 processes: the first run folds and keeps
  each audit, the second reads them back.
- sync from scratch on 2 processes, where every audit is kept (the logs then fold with
  `apply` alone), against one core's audited replay of the same corpus, and against the
  same sync with no audit kept.
- the Timeline's memory (`tracemalloc`, what the Timeline holds once built) at a long log's
  10k, 100k and 1M-event prefixes, this code against `--baseline` (extracted with `git
  archive`, run in its own process); and `state_at` latency over 1,000 random seqs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

from benchmarks.sections import write_section
from benchmarks.speed import BENCH, REPORT, ROOT, _cpu, _warm_up, code_tree, corpus

BASELINE = "7c27cba"
"""The code before the fold cache and the byte-kept Timeline."""
GAMES = 300
LONG = (10_000, 100_000, 1_000_000)


def long_store(events: int) -> Path:
    """A store holding one random-bot MortalGate game cut at `events` (made once)."""
    from benchmarks import corpus as bench_corpus
    from projections.workspace import Workspace
    from rulesets import registry

    home = BENCH / f"cache-long-{registry.game('mortalgate').fingerprint}-{events}"
    if (home / "done").exists():
        return home
    shutil.rmtree(home, ignore_errors=True)
    (home / "variants").mkdir(parents=True)
    (home / "variants" / f"{bench_corpus.VARIANT}.toml").write_text(bench_corpus.VARIANT_TOML)
    bench_corpus._init_worker(str(home))
    for seed in range(bench_corpus.LONG_SEEDS):
        _, data, count, _ = bench_corpus._play((seed, bench_corpus.LONG_BOT, "long", events))
        if count == events:
            Workspace(home).import_log(data + b"\n", match_id="long")
            (home / "done").touch()
            return home
    raise SystemExit(f"no seed gave a {events:,}-event game")


_APPEND = """
import json, sys, time
from projections.record.live import LiveMatches
from projections.workspace import Workspace
from rulesets import registry
began = time.perf_counter()
registry.game("mortalgate").codec  # the game's code and its decoder: loaded once per process, whatever the cache holds
imported = time.perf_counter() - began
live = LiveMatches(Workspace(sys.argv[1]))
last = live.ws.store.last("long")[0]
began, cpu = time.perf_counter(), time.process_time()
live.append("long", [{"type": "Ruled", "rule": "bench/none", "decision": "a ruling no rule reads"}], expected_seq=last)
print(json.dumps([time.perf_counter() - began, time.process_time() - cpu, imported]))
"""


Appends = dict[str, list[float]]


def first_appends(home: Path, rounds: int) -> Appends:
    """Wall and CPU seconds of the first append in a new process once the game is loaded:
    without a cache, then with the fold the one before kept, alternating; and the loading."""
    out: Appends = {"cold": [], "cold cpu": [], "kept": [], "kept cpu": [], "loading": []}

    def run(kind: str) -> None:
        done = subprocess.run([sys.executable, "-c", _APPEND, str(home)], check=True, capture_output=True, text=True, cwd=ROOT)
        wall, cpu, loading = json.loads(done.stdout.strip().splitlines()[-1])
        out[kind].append(wall)
        out[f"{kind} cpu"].append(cpu)
        out["loading"].append(loading)

    for _ in range(rounds):
        shutil.rmtree(home / "cache", ignore_errors=True)
        run("cold")
        run("kept")
    return out


def corpus_figures(games: int, rounds: int = 3) -> dict[str, float]:
    """audit --all twice, one core's audited replay, and sync from scratch on 2 processes
    with and without the audits kept: wall seconds, and (`NAME cpu`) CPU seconds of every
    process taking part, each the least of `rounds` rounds that take turns, so that every
    figure meets the machine as the others do (a figure against another measured minutes
    apart on a shared machine moves by half). One untimed pass first pays for what only the
    first pays (`benchmarks.speed._warm_up`)."""
    from projections.warehouse.parallel import audit_all
    from projections.warehouse.sync import Warehouse, parallel_sync
    from projections.workspace import Workspace

    home = corpus(games)
    ws = Workspace(home)
    out: dict[str, float] = {}

    def timed(name: str, run: object) -> None:
        began, cpu = time.perf_counter(), _cpu()
        run()  # type: ignore[operator]
        wall, cpu = time.perf_counter() - began, _cpu() - cpu
        out[name] = min(out.get(name, wall), wall)
        out[f"{name} cpu"] = min(out.get(f"{name} cpu", cpu), cpu)

    def sync() -> None:
        for name in ("warehouse.duckdb", "warehouse.read.duckdb"):
            (home / name).unlink(missing_ok=True)
        parallel_sync(Warehouse(ws), workers=2)

    def replay_all() -> None:
        for match_id in ws.matches():
            deque(ws.replay(match_id, audit=True), maxlen=0)

    _warm_up(ws)
    for _ in range(rounds):
        shutil.rmtree(home / "cache", ignore_errors=True)
        timed("replay", replay_all)
        timed("sync, nothing kept", sync)
        shutil.rmtree(home / "cache", ignore_errors=True)
        timed("audit --all, first", lambda: audit_all(ws, workers=2))
        timed("audit --all, again", lambda: audit_all(ws, workers=2))
        timed("sync, audits kept", sync)
    out["events"] = sum(1 for match_id in ws.matches() for _ in ws.store.lines(match_id))
    return out


_MEMORY = """
import gc, json, random, sys, time, tracemalloc
from projections.workspace import Workspace
ws = Workspace(sys.argv[1])
ws.timeline("long")  # warm: imports and tables the first fold loads
gc.collect()
tracemalloc.start()
began = time.perf_counter()
timeline = ws.timeline("long")
built = time.perf_counter() - began
gc.collect()
held = tracemalloc.get_traced_memory()[0]
tracemalloc.stop()
rng = random.Random(2)
seqs = [rng.randrange(len(timeline)) for _ in range(1100)]
waits = []
for i, seq in enumerate(seqs):
    began = time.perf_counter()
    timeline.state_at(seq)
    if i >= 100:
        waits.append(time.perf_counter() - began)
waits.sort()
print(json.dumps({"events": len(timeline), "held": held, "median": waits[len(waits) // 2], "p99": waits[int(len(waits) * 0.99)],
                  "code": __import__("projections").__file__}))
"""


def timeline_memory(home: Path, code: Path) -> dict[str, float]:
    """What a Timeline of the match `long` holds, built by the code in `code` (no kept Timeline)."""
    shutil.rmtree(home / "cache", ignore_errors=True)
    env = dict(os.environ, PYTHONPATH=str(code))
    done = subprocess.run([sys.executable, "-c", _MEMORY, str(home)], check=True, capture_output=True, text=True, cwd=code, env=env)
    measured: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    shutil.rmtree(home / "cache", ignore_errors=True)
    return measured


def corpus_rows(work: dict[str, float], games: int) -> list[str]:
    """The section's rows of `corpus_figures`. The syncs are given twice: in wall seconds, and in
    CPU seconds of every process (the writer and both workers) against one core's audited replay,
    where on idle cores their rate is at most replay CPU / sync CPU x 2 processes, as
    `benchmarks.speed` reads its corpus table."""
    first, again = work["audit --all, first"], work["audit --all, again"]
    replay, kept_sync, cold_sync = work["replay"], work["sync, audits kept"], work["sync, nothing kept"]
    lines = [f"| `audit --all` of an unchanged store, {games} games, 2 processes | {first:.2f} s (first run) | "
             f"{again:.3f} s (second run) | {first / again:.0f}x | 20x |",
             f"| sync from scratch on 2 processes, {games} games ({work['events']:,.0f} events), wall | {replay:.2f} s (one "
             f"core's audited replay) | {kept_sync:.2f} s (audits kept) | {replay / kept_sync:.2f}x | |",
             f"| the same sync with no audit kept, wall | {replay:.2f} s | {cold_sync:.2f} s | {replay / cold_sync:.2f}x | |"]
    replay = work["replay cpu"]
    return lines + [f"| {name}, CPU of every process: on idle cores (replay CPU / sync CPU x 2) | {replay:.2f} s CPU | "
            f"{work[key + ' cpu']:.2f} s CPU | {2 * replay / work[key + ' cpu']:.2f}x | {target} |"
            for name, key, target in (("sync on 2 processes, audits kept", "sync, audits kept", "1.6x"),
                                      ("sync on 2 processes, no audit kept", "sync, nothing kept", ""))]


def replace_corpus_rows(text: str, rows: list[str], note: str) -> str:
    """The section with its corpus rows (`audit --all` and the syncs) measured again, every other
    row as it was; `note` says when and how."""
    kept = [line for line in text.splitlines() if not line.startswith(CORPUS_ROWS)]
    table_end = next(i for i, line in enumerate(kept) if line.startswith("| Timeline memory"))
    out = [*kept[:table_end], *rows, *kept[table_end:]]
    while (said := next((i for i, line in enumerate(out) if line.startswith(("The three corpus rows", "The corpus rows"))), None)) is not None:
        end = next((i for i in range(said, len(out)) if not out[i].strip()), len(out))
        del out[said:end + 1]  # the paragraph that said how they were measured before
    end = next(i for i, line in enumerate(out) if line.startswith("Baseline code:"))
    out.insert(end, note)
    out.insert(end + 1, "")
    return "\n".join(out) + "\n"


CORPUS_ROWS = ("| `audit --all` of an unchanged store", "| sync from scratch on 2 processes", "| the same sync with no audit kept",
               "| sync on 2 processes, ")
"""How the corpus rows of the section begin (what `--corpus-only` measures again)."""


def report(appends: dict[int, Appends], work: dict[str, float], memory: list[tuple[int, dict, dict | None]],
           games: int, baseline: str) -> str:
    """The section's markdown."""
    ms = lambda seconds: f"{seconds * 1000:,.1f} ms"  # noqa: E731
    load = os.getloadavg()
    lines = [
        "## The fold cache (`make bench-cache`)",
        "",
        f"`python -m benchmarks.cache`, {time.strftime('%Y-%m-%d', time.gmtime())}, 2 cores shared with other work "
        f"(load average at the end {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}): every figure is noisy, the ratios less so. "
        "See the module's docstring for what each measures.",
        "",
        "| figure | baseline (same run) | with the cache | ratio | target |",
        "|---|---|---|---|---|",
    ]
    med = statistics.median
    for events, taken in appends.items():
        cold, kept = med(taken["cold"]), med(taken["kept"])
        lines.append(f"| first append after a restart, {events:,}-event match, wall (median of {len(taken['cold'])}) | "
                     f"{ms(cold)} (cache deleted) | {ms(kept)} | {cold / kept:.0f}x | within 50 ms |")
        cold, kept = med(taken["cold cpu"]), med(taken["kept cpu"])
        lines.append(f"| the same, CPU of that process | {ms(cold)} | {ms(kept)} | {cold / kept:.0f}x | |")
    lines += corpus_rows(work, games)
    for events, here, base in memory:
        before = f"{base['held'] / base['events']:,.0f} B/event ({base['held'] / 1e6:,.0f} MB)" if base else "not measured"
        ratio = f"{base['held'] / here['held']:.1f}x less" if base else ""
        lines.append(f"| Timeline memory, {events:,} events | {before} | {here['held'] / here['events']:,.0f} B/event "
                     f"({here['held'] / 1e6:,.1f} MB) | {ratio} | at most 150 B/event |")
        base_wait = f"{base['median'] * 1000:.3f} / {base['p99'] * 1000:.3f} ms" if base else "not measured"
        lines.append(f"| state_at median / p99, {events:,} events | {base_wait} | {here['median'] * 1000:.3f} / "
                     f"{here['p99'] * 1000:.3f} ms | | O(1); p99 under 20 ms |")
    imports = [seconds for taken in appends.values() for seconds in taken["loading"]]
    lines += ["", f"Baseline code: `{baseline}` (`git archive`, its own process). The first append is timed inside the new "
              "process once the game's code and its log decoder are loaded (start-up excluded; loading MortalGate's took a median of "
              f"{ms(statistics.median(imports))} more in those processes, which write no bytecode caches, with or without "
              "the cache); with the cache it reads the log's bytes once to check that the kept fold still describes "
              "them, decodes the kept fold, folds the new event and keeps the fold again."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="A 60-game corpus and logs up to 100k events; printed only.")
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--rounds", type=int, default=7,
                        help="rounds of the first appends and of the corpus figures (each figure the least or median of its rounds)")
    parser.add_argument("--corpus-only", action="store_true",
                        help="measure the corpus rows (audit --all, the syncs) again and replace only them in BENCHMARKS.md")
    args = parser.parse_args()
    games = 60 if args.quick else GAMES
    if args.corpus_only:
        load = os.getloadavg()[0]
        work = corpus_figures(games, args.rounds)
        rows = corpus_rows(work, games)
        print("\n".join(rows))
        note = (f"The corpus rows were measured again on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by "
                f"`python -m benchmarks.cache --corpus-only --rounds {args.rounds}` (load average {load:.1f} before, {os.getloadavg()[0]:.1f} after): "
                "wall seconds on a machine shared with other work say little about what two processes give, so the syncs "
                "are also given in CPU seconds of every process, as the corpus table of 'Speed where designers wait' reads them. "
                f"Sync on 2 processes with the audits kept: {2 * work['replay cpu'] / work['sync, audits kept cpu']:.2f}x one core's "
                f"audited replay on idle cores (target 1.6x), {work['replay'] / work['sync, audits kept']:.2f}x in wall seconds here.")
        if not args.quick:
            section = REPORT.read_text().split("<!-- begin cache -->\n", 1)[1].split("<!-- end cache -->", 1)[0]
            write_section("cache", replace_corpus_rows(section, rows, note))
        return
    sizes = [size for size in LONG if not args.quick or size <= 100_000]
    appends = {10_000: first_appends(long_store(10_000), args.rounds)}
    print(f"first appends: {appends}", flush=True)
    work = corpus_figures(games, args.rounds)
    print(f"corpus: {work}", flush=True)
    base_code = code_tree(args.baseline)
    memory: list[tuple[int, dict, dict | None]] = []
    for size in sizes:
        home = long_store(size)
        here = timeline_memory(home, ROOT)
        base = timeline_memory(home, base_code)
        memory.append((size, here, base))
        print(f"timeline {size:,}: {here} against {base}", flush=True)
    text = report(appends, work, memory, games, args.baseline)
    print(text)
    if not args.quick:
        write_section("cache", text)


if __name__ == "__main__":
    main()
