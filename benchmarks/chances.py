"""Win chances along a human MortalGate playtest: rollouts per second against plain
simulation, on local processes and a Dask LocalCluster, and the time 200 rollouts per turn
start would take at that rate.

    python -m benchmarks.chances                  # the figures for BENCHMARKS.md
    python -m benchmarks.chances --rollouts 4     # fewer rollouts per point (writes .bench/)

Each curve is played from an empty result cache. A report, not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path

from benchmarks.sections import write_section
from projections.corpus.chances import CACHE_FOLDER, Chances, chances
from projections.corpus.demo import import_playtests
from projections.corpus.simulate import play
from projections.workspace import Workspace
from rulesets import registry

ROOT = Path(__file__).resolve().parent.parent / ".bench" / "chances"
MATCH = "playtest-2026-03-05-cafe"
"""The café playtest: MortalGate 2.5 between two people, 387 events, 141 turn starts."""
TARGET_ROLLOUTS = 200
TARGET_SECONDS = 60.0
READING = [
    "Reading the figures: a rollout plays only the rest of a game, so rollouts per second run above plain games per",
    "second; events per second compare the cost of a move (a rollout keeps no log and checks nothing: what remains is",
    "the bots' choices and the rules' `legal` and `apply`, most of it MortalGate's move generation). The target is",
    "out of reach by that cost alone: every turn start of this playtest is one hero's activation, so 200 rollouts per",
    "turn start are 28,200 games of a few hundred heuristic moves each. The same curve asked again is read from the",
    "result cache at once. Other work shared the 2 cores during the run: compare the ratios, not the absolute rates.",
]


def fresh_curve(ws: Workspace, rollouts: int, *, workers: int | None = None, scheduler: str | None = None) -> Chances:
    """The curve played out, not read from the cache."""
    shutil.rmtree(ws.home / CACHE_FOLDER, ignore_errors=True)
    return chances(ws, MATCH, rollouts=rollouts, workers=workers, scheduler=scheduler)


def plain_simulation(games: int) -> tuple[float, float]:
    """Heuristic MortalGate games on one process, as `simulate` plays them: (games/s, events/s)."""
    rules = registry.resolve("mortalgate@2.5")
    started, events = time.perf_counter(), 0
    for seed in range(games):
        events += len(play(rules, rules.ruleset.example_seats, seed=seed, bot="heuristic"))
    seconds = time.perf_counter() - started
    return games / seconds, events / seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=20, help="Rollouts per turn start (the target is 200).")
    parser.add_argument("--games", type=int, default=30, help="Plain simulation games for the baseline.")
    args = parser.parse_args()
    shutil.rmtree(ROOT, ignore_errors=True)
    ws = Workspace(ROOT / "store")
    import_playtests(ws)
    games_per_s, events_per_s = plain_simulation(args.games)
    local = fresh_curve(ws, args.rollouts, workers=2)
    points = len(local.points)
    rows = ["## Win chances (`make bench-chances`)", "",
            f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.chances "
            f"--rollouts {args.rollouts}` on {os.cpu_count()} cores: the café playtest ({local.last_seq + 1} events, "
            f"{points} decision points at turn starts, {local.bot} bots), played from an empty cache.", "",
            "| figure | rollouts | value | ratio (same run) |", "|---|---|---|---|",
            f"| plain simulation, mortalgate@2.5 heuristic, 1 process | {args.games} games | {games_per_s:.2f} games/s "
            f"({events_per_s:,.0f} events/s) | baseline |",
            _row("chances, 2 local processes", local, games_per_s, events_per_s) + " |"]
    try:
        from distributed import LocalCluster
    except ImportError:
        rows.append("| chances, Dask | | not measured: the `distributed` package is not installed | |")
    else:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=":0", silence_logs=50) as cluster:
            dask = fresh_curve(ws, args.rollouts, scheduler=cluster.scheduler_address)
        rows.append(_row("chances, Dask LocalCluster, 2 worker processes", dask, games_per_s, events_per_s)
                    + f"; {dask.seconds / local.seconds:.2f}x the time of 2 local processes |")
    whole = local.seconds * TARGET_ROLLOUTS / args.rollouts
    minute = local.moves / local.seconds * TARGET_SECONDS
    needed = local.moves * TARGET_ROLLOUTS / args.rollouts
    rows += ["", f"At that rate, {TARGET_ROLLOUTS} rollouts per turn start ({points * TARGET_ROLLOUTS:,} games, about "
             f"{needed:,.0f} moves) take about {whole:,.0f} s on 2 local processes, against a target of "
             f"{TARGET_SECONDS:.0f} s, which holds about {minute:,.0f} moves.", "", *READING]
    text = "\n".join(rows)
    print(text)
    target = ROOT.parent / "BENCHMARKS-chances.md" if args.rollouts < 20 else Path(__file__).resolve().parent.parent / "BENCHMARKS.md"
    write_section("chances", text, target)
    return 0


def _row(label: str, found: Chances, games_per_s: float, events_per_s: float) -> str:
    rate, moves = found.games / found.seconds, found.moves / found.seconds
    return (f"| {label} | {found.rollouts} per point, {found.games:,} in all ({found.moves // found.games:,} events each) "
            f"| {found.seconds:.1f} s, {rate:.1f} rollouts/s ({moves:,.0f} events/s) "
            f"| {rate / games_per_s:.1f}x plain games/s, {moves / events_per_s:.1f}x plain events/s on 1 process")


if __name__ == "__main__":
    raise SystemExit(main())
