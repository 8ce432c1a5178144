"""Simulation speed: games per second per core for each game's bots, the scaling from 1 to
2 local workers, and what the Dask path costs against local processes on this machine.

    python -m benchmarks.simulation               # the figures for BENCHMARKS.md
    python -m benchmarks.simulation --quick       # fewer games (writes .bench/)

Every figure is one batch timed end to end (play, encode, write the batch), without the
warehouse sync. A report, not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path

from benchmarks.sections import write_section
from projections.corpus.batch import BatchReport, simulate
from projections.workspace import Workspace
from rulesets import registry

ROOT = Path(__file__).resolve().parent.parent / ".bench" / "simulation"


def timed(spec: str, games: int, *, bot: str, workers: int | None = None, scheduler: str | None = None,
          seed: int = 1) -> BatchReport:
    """One fresh batch in a fresh store."""
    home = ROOT / f"{spec}-{bot}-{workers}-{'dask' if scheduler else 'local'}-{games}".replace("@", "_")
    shutil.rmtree(home, ignore_errors=True)
    return simulate(Workspace(home), spec, games=games, seed=seed, bot=bot, workers=workers, scheduler=scheduler, sync=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    per_core = 10 if args.quick else 60
    scaling = 40 if args.quick else 240
    rows = ["## Simulation (`make bench-simulation`)", "",
            f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.simulation"
            f"{' --quick' if args.quick else ''}` on {os.cpu_count()} cores, seed 1.", "",
            "| figure | games | value | ratio (same run) |", "|---|---|---|---|"]
    for name in registry.built_in():
        spec = f"{name}@{registry.game(name).newest}"
        for bot in registry.game(name).bots:
            report = timed(spec, per_core, bot=bot, workers=1)
            rows.append(f"| {spec}, {bot} bots, 1 process | {per_core} | {report.games / report.seconds:.2f} games/s per core "
                        f"({report.events / report.seconds:,.0f} events/s, {report.events // report.games:,} events/game) | |")
    spec = "mortalgate@2.5"
    one = timed(spec, scaling, bot="heuristic", workers=1)
    two = timed(spec, scaling, bot="heuristic", workers=2)
    rows.append(f"| {spec}, 1 local process | {scaling} | {one.games / one.seconds:.2f} games/s | baseline |")
    rows.append(f"| {spec}, 2 local processes | {scaling} | {two.games / two.seconds:.2f} games/s | {one.seconds / two.seconds:.2f}x 1 process |")
    try:
        from distributed import LocalCluster
    except ImportError:
        rows.append("| Dask | | not measured: the `distributed` package is not installed | |")
    else:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=":0", silence_logs=50) as cluster:
            dask = timed(spec, scaling, bot="heuristic", scheduler=cluster.scheduler_address)
        rows.append(f"| {spec}, Dask LocalCluster, 2 worker processes | {scaling} | {dask.games / dask.seconds:.2f} games/s | "
                    f"{dask.seconds / two.seconds:.2f}x the time of 2 local processes |")
    text = "\n".join(rows)
    print(text)
    target = ROOT.parent / "BENCHMARKS-simulation.md" if args.quick else Path(__file__).resolve().parent.parent / "BENCHMARKS.md"
    write_section("simulation", text, target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
