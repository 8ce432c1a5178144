"""What a sync costs beyond the events it replays, and what listing a store costs per match.

    python -m benchmarks.sync_cost                          # 2,000 and 200 bot games, 3 rounds
    python -m benchmarks.sync_cost --games 20000 --rounds 5

In CPU seconds of the process (DuckDB's threads included), so a loaded machine moves the
figures little; this code and a baseline commit (`--baseline`, extracted with `git
archive`) take turns, each in a process of its own, and each figure is the median of the
rounds. Per code and store:

- a full sync from scratch: CPU per event;
- a sync with nothing new, on the large store and on one a tenth its size: the fixed cost;
- an incremental sync after 1% more games: CPU per new event beyond that fixed cost,
  against the full sync's per event;
- `tabletape list`, the first time and again: CPU per match.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.sections import write_section
from benchmarks.speed import code_tree, measured_in

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / ".bench"
SPEC = "mortalgate@2.5"


def corpus(games: int, seed: int) -> Path:
    """A store of `games` bot games in one batch, generated once."""
    home = BENCH / f"sync-cost-{games}-{seed}"
    if not (home / "batches").exists():
        from projections.corpus.batch import simulate
        from projections.workspace import Workspace

        shutil.rmtree(home, ignore_errors=True)
        print(f"generating {games} games of {SPEC} (seed {seed}) ...", flush=True)
        simulate(Workspace(home), SPEC, games=games, seed=seed, sync=False)
    return home


def _cpu() -> float:
    return time.process_time()


def measure(large: str, small: str, extra: str) -> dict[str, object]:
    """Every figure of one code (the one on this process's path), on copies of the stores."""
    from click.testing import CliRunner

    import projections
    from dashboard.cli.commands import cli
    from projections.warehouse.sync import Warehouse
    from projections.workspace import Workspace

    figures: dict[str, object] = {"code": str(Path(projections.__file__).resolve().parent.parent)}
    with tempfile.TemporaryDirectory() as scratch:
        Warehouse(Workspace(Path(scratch) / "warmup")).sync()  # imports outside the timing
        for name, source in (("large", large), ("small", small)):
            home = Path(scratch) / name
            shutil.copytree(source, home)
            warehouse = Warehouse(Workspace(home))
            started = _cpu()
            full = warehouse.sync()
            figures[f"{name}_full_cpu"] = _cpu() - started
            figures[f"{name}_events"] = full.events
            figures[f"{name}_matches"] = full.matches
            started = _cpu()
            assert warehouse.sync().events == 0
            figures[f"{name}_noop_cpu"] = _cpu() - started
        home = Path(scratch) / "large"
        shutil.copytree(Path(extra) / "batches", home / "batches", dirs_exist_ok=True)
        warehouse = Warehouse(Workspace(home))
        started = _cpu()
        more = warehouse.sync()
        figures["more_cpu"] = _cpu() - started
        figures["more_events"] = more.events
        runner = CliRunner()
        for turn in ("list_first", "list_again"):
            started = _cpu()
            result = runner.invoke(cli, ["--home", str(home), "list"])
            figures[f"{turn}_cpu"] = _cpu() - started
            assert result.exit_code == 0, result.output
        figures["listed"] = len(result.output.splitlines())
    return figures


def _median(runs: list[dict[str, object]], key: str) -> float:
    return statistics.median(float(run[key]) for run in runs)  # type: ignore[arg-type]


def _rows(runs: list[dict[str, object]]) -> dict[str, float]:
    m = {key: _median(runs, key) for key in runs[0] if key != "code"}
    per_event = m["large_full_cpu"] / m["large_events"]
    beyond = m["more_cpu"] - m["large_noop_cpu"]
    return {
        "full_us": per_event * 1e6, "noop_large": m["large_noop_cpu"], "noop_small": m["small_noop_cpu"],
        "more_cpu": m["more_cpu"], "more_events": m["more_events"], "more_us": m["more_cpu"] / m["more_events"] * 1e6,
        "beyond_ratio": beyond / m["more_events"] / per_event, "whole_ratio": m["more_cpu"] / m["more_events"] / per_event,
        "list_first_us": m["list_first_cpu"] / m["listed"] * 1e6, "list_again_us": m["list_again_cpu"] / m["listed"] * 1e6,
        "large_matches": m["large_matches"], "small_matches": m["small_matches"], "large_events": m["large_events"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="c70bb94")
    args = parser.parse_args()
    large, small, extra = corpus(args.games, 1), corpus(args.games // 10, 3), corpus(max(args.games // 100, 1), 2)
    call = f"measure({str(large)!r}, {str(small)!r}, {str(extra)!r})"
    tree = code_tree(args.baseline)
    here: list[dict[str, object]] = []
    base: list[dict[str, object]] = []
    started, load = time.perf_counter(), os.getloadavg()[0]
    for round_no in range(args.rounds):
        print(f"round {round_no + 1}/{args.rounds}", flush=True)
        base.append(measured_in(tree, "benchmarks.sync_cost", call))
        here.append(measured_in(ROOT, "benchmarks.sync_cost", call))
    now, was = _rows(here), _rows(base)
    took = time.perf_counter() - started
    lines = [
        "## Sync's fixed cost and listing (`python -m benchmarks.sync_cost`)",
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.sync_cost --games {args.games}"
        f" --rounds {args.rounds} --baseline {args.baseline}` on {os.cpu_count()} cores ({took:.0f} s; load average {load:.1f}"
        f" before, {os.getloadavg()[0]:.1f} after): bot games of {SPEC} in"
        f" one batch ({now['large_matches']:.0f} games, {now['large_events']:,.0f} events; the small store"
        f" {now['small_matches']:.0f} games), then {now['more_events']:,.0f} events more (1%). CPU seconds of the process,"
        f" one process syncing; this code and `{args.baseline}` take turns in processes of their own, median of"
        f" {args.rounds} rounds.",
        "",
        f"| figure | this code | `{args.baseline}` (same run) | target | result |",
        "|---|---|---|---|---|",
        f"| full sync from scratch, CPU per event | {now['full_us']:.1f} us | {was['full_us']:.1f} us | | |",
        f"| sync with nothing new, {now['large_matches']:.0f} games | {now['noop_large']:.3f} s | {was['noop_large']:.3f} s"
        f" | < 0.3 s | {'pass' if now['noop_large'] < 0.3 else 'FAIL'} |",
        f"| sync with nothing new, {now['small_matches']:.0f} games | {now['noop_small']:.3f} s | {was['noop_small']:.3f} s"
        f" | no growth with the store | {now['noop_large'] / now['noop_small']:.2f}x for {now['large_matches'] / now['small_matches']:.0f}x the games"
        f" ({was['noop_large'] / was['noop_small']:.2f}x before) |",
        f"| incremental sync of 1% more games, CPU | {now['more_cpu']:.2f} s | {was['more_cpu']:.2f} s | | |",
        f"| of which per new event beyond the nothing-new cost, against a full sync's per event | {now['beyond_ratio']:.2f}x"
        f" | {was['beyond_ratio']:.2f}x | <= 1.2x | {'pass' if now['beyond_ratio'] <= 1.2 else 'FAIL'} |",
        f"| incremental sync per new event, all its cost, against a full sync's per event | {now['whole_ratio']:.2f}x"
        f" | {was['whole_ratio']:.2f}x | | |",
        f"| `tabletape list`, CPU per match, first listing (builds the header index) | {now['list_first_us']:.0f} us"
        f" | {was['list_first_us']:.0f} us | | |",
        f"| `tabletape list`, CPU per match, listing again | {now['list_again_us']:.0f} us | {was['list_again_us']:.0f} us"
        f" | | {now['list_again_us'] / was['list_again_us']:.2f}x the baseline's time |",
    ]
    text = "\n".join(lines)
    print(text)
    write_section("sync-cost", text, ROOT / "BENCHMARKS.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
