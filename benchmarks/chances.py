"""Win chances along a human MortalGate playtest at 200 rollouts per turn start: the time
on 2 local processes and on a Dask LocalCluster of 2 workers, rollouts per second against
plain simulation in the same run, and how far the bounded-horizon curve lies from the
curve played to the end.

    python -m benchmarks.chances                    # the figures for BENCHMARKS.md
    python -m benchmarks.chances --full-rollouts 4  # a quick look (writes .bench/)

Each curve is played from an empty result cache, its model fit included. A report, not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path

from benchmarks.sections import write_section
from projections.corpus.chances import CACHE_FOLDER, Chances, chances
from projections.corpus.demo import import_playtests, save_events
from projections.corpus.simulate import play
from projections.workspace import Workspace
from rulesets import registry

ROOT = Path(__file__).resolve().parent.parent / ".bench" / "chances"
MATCH = "playtest-2026-03-05-cafe"
"""The café playtest: MortalGate 2.5 between two people, 387 events, 141 turn starts."""
TARGET_ROLLOUTS = 200
TARGET_SECONDS = 60.0
HORIZON = 2
PRECISION = 5.0
BIAS_SEEDS = (11, 12)
"""Seeded heuristic MortalGate games whose curves are also played to the end, for the bias."""
READING = [
    "Reading the figures: the fast curve plays each game 2 rounds ahead, scores where it stopped with a model of the",
    "game's metrics and roster, and stops at a turn start once its 95% interval is within 5 points (most take 25 games,",
    "not 200); its time includes the model's fit. That interval is rollout noise only; the model's error is the bias",
    "table, whose reference carries its own noise (its half-width). Fitted on games from the start, the model reads the",
    "human match as more open than the bots' play from its positions finds it; fitted on games played on from the",
    "match's own turn starts (`--fit match`) it stays within the reference's noise. Rates leave the fit out; events per",
    "second compare a move's cost. Load average (1 min) of the shared 2-core machine beside each figure.",
]


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def fresh_curve(ws: Workspace, match_id: str, rollouts: int, *, horizon: int | None, precision: float | None,
                workers: int | None = None, scheduler: str | None = None, fit: str = "rules") -> tuple[Chances, str]:
    """The curve played out from an empty cache (model included), and the load as it ended."""
    shutil.rmtree(ws.home / CACHE_FOLDER, ignore_errors=True)
    found = chances(ws, match_id, rollouts=rollouts, workers=workers, scheduler=scheduler, horizon=horizon,
                    precision=precision, fit=fit)
    return found, _load()


def plain_simulation(games: int) -> tuple[float, float, str]:
    """Heuristic MortalGate games on one process, as `simulate` plays them: (games/s, events/s, load)."""
    rules = registry.resolve("mortalgate@2.5")
    started, events = time.perf_counter(), 0
    for seed in range(games):
        events += len(play(rules, rules.ruleset.example_seats, seed=seed, bot="heuristic"))
    seconds = time.perf_counter() - started
    return games / seconds, events / seconds, _load()


def bias(full: Chances, fast: Chances) -> tuple[float, float, float]:
    """Mean absolute difference in points between two curves of the same match (first
    seat, points the game was not over at), the largest, and the full curve's mean 95% half-width."""
    a = {c.seq: c for c in full.curve() if c.seat == full.seats[0]}
    b = {c.seq: c for c in fast.curve() if c.seat == fast.seats[0]}
    open_ = [p.seq for p in full.points if not p.exact]
    gaps = [abs(a[s].chance - b[s].chance) * 100 for s in open_]
    half = [(a[s].high - a[s].low) * 50 for s in open_]
    return sum(gaps) / len(gaps), max(gaps), sum(half) / len(half)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="Plain simulation games for the baseline.")
    parser.add_argument("--full-rollouts", type=int, default=20,
                        help="Rollouts per turn start of the curves played to the end (the bias's reference).")
    args = parser.parse_args()
    began = time.perf_counter()
    shutil.rmtree(ROOT, ignore_errors=True)
    ws = Workspace(ROOT / "store")
    import_playtests(ws)
    rules = registry.resolve("mortalgate@2.5")
    bots = [save_events(ws, play(rules, rules.ruleset.example_seats, seed=s, bot="heuristic", match_id=f"bot-{s}"))
            for s in BIAS_SEEDS]
    games_per_s, events_per_s, plain_load = plain_simulation(args.games)
    local, local_load = fresh_curve(ws, MATCH, TARGET_ROLLOUTS, horizon=HORIZON, precision=PRECISION, workers=2)
    points = len(local.points)
    verdict = "pass" if local.seconds <= TARGET_SECONDS else "FAIL"
    rows = ["## Win chances (`make bench-chances`)", "",
            f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.chances "
            f"--full-rollouts {args.full_rollouts}` on {os.cpu_count()} cores, shared with other work: the café playtest "
            f"({local.last_seq + 1} events, {points} decision points at turn starts, {local.bot} bots), each curve "
            f"played from an empty result cache.", "",
            "| figure | games | time | rate | against plain simulation (same run) |", "|---|---|---|---|---|",
            f"| plain simulation, mortalgate@2.5 heuristic, 1 process | {args.games} games | | {games_per_s:.2f} games/s "
            f"({events_per_s:,.0f} events/s; {plain_load}) | baseline |",
            _row(f"**target: {TARGET_ROLLOUTS} per turn start, {HORIZON} rounds ahead, stop at ±{PRECISION:g} points, "
                 f"2 local processes** ({verdict}: <= {TARGET_SECONDS:.0f} s)", local, local_load, games_per_s, events_per_s)]
    mine, mine_load = fresh_curve(ws, MATCH, TARGET_ROLLOUTS, horizon=HORIZON, precision=PRECISION, workers=2, fit="match")
    rows.append(_row("the same, the model fitted on this match (`--fit match`), 2 local processes", mine, mine_load,
                     games_per_s, events_per_s))
    try:
        from distributed import LocalCluster
    except ImportError:
        rows.append("| the same on Dask | | not measured: the `distributed` package is not installed | | |")
    else:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=":0", silence_logs=50) as cluster:
            dask, dask_load = fresh_curve(ws, MATCH, TARGET_ROLLOUTS, horizon=HORIZON, precision=PRECISION,
                                          scheduler=cluster.scheduler_address)
        rows.append(_row("the same on a Dask LocalCluster, 2 worker processes", dask, dask_load, games_per_s,
                         events_per_s, f"; {dask.seconds / local.seconds:.2f}x the time of 2 local processes"))
    bias_rows = []
    for match_id in [MATCH, *bots]:
        full, full_load = fresh_curve(ws, match_id, args.full_rollouts, horizon=None, precision=None, workers=2)
        fast = local if match_id == MATCH else fresh_curve(ws, match_id, TARGET_ROLLOUTS, horizon=HORIZON,
                                                            precision=PRECISION, workers=2)[0]
        near = mine if match_id == MATCH else fresh_curve(ws, match_id, TARGET_ROLLOUTS, horizon=HORIZON,
                                                           precision=PRECISION, workers=2, fit="match")[0]
        if match_id == MATCH:
            whole = full.seconds * TARGET_ROLLOUTS / args.full_rollouts
            rows.append(_row(f"played to the end, {args.full_rollouts} per turn start, 2 local processes", full, full_load,
                             games_per_s, events_per_s, f"; {TARGET_ROLLOUTS} per turn start would take about {whole:,.0f} s"))
        mean, worst, half = bias(full, fast)
        near_mean, near_worst, _ = bias(full, near)
        bias_rows.append(f"| {match_id} ({full.last_seq + 1} events, {len(full.points)} turn starts) | {mean:.1f} | "
                         f"{worst:.0f} | {near_mean:.1f} | {near_worst:.0f} | {half:.1f} |")
    rows += ["", f"Bias: each match's curve played to the end ({args.full_rollouts} games per turn start, the reference) "
             f"against the fast curve above ({HORIZON} rounds ahead then scored, stopping at ±{PRECISION:g} points), first "
             "seat's chance, turn starts where the game was not over.", "",
             "| match | model fitted on rules: mean absolute difference (points) | largest | model fitted on the match: "
             "mean absolute difference | largest | the reference's own mean 95% half-width (points) |",
             "|---|---|---|---|---|---|", *bias_rows, "", *READING, "",
             f"The whole run took {time.perf_counter() - began:,.0f} s."]
    text = "\n".join(rows)
    print(text)
    target = (ROOT.parent / "BENCHMARKS-chances.md" if args.full_rollouts < 20
              else Path(__file__).resolve().parent.parent / "BENCHMARKS.md")
    write_section("chances", text, target)
    return 0


def _row(label: str, found: Chances, load: str, games_per_s: float, events_per_s: float, more: str = "") -> str:
    playing = found.seconds - found.fit_seconds  # the rollouts' own time: the model's fit is said apart
    rate, moves = found.games / playing, found.moves / playing
    fit = f", {found.fit_seconds:.1f} s of it fitting the model on {found.model_games} games" if found.model_games else ""
    return (f"| {label} | {found.games:,} ({found.moves // max(found.games, 1):,} events each) "
            f"| {found.seconds:.1f} s{fit} ({load}) | {rate:.1f} rollouts/s ({moves:,.0f} events/s) "
            f"| {rate / games_per_s:.1f}x plain games/s, {moves / events_per_s:.1f}x plain events/s on 1 process{more} |")


if __name__ == "__main__":
    raise SystemExit(main())
