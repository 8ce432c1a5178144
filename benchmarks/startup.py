"""What a command costs before and beside its work: the CPU seconds of `tabletape` verbs run
as a person runs them, this code against the code before (a commit extracted with `git
archive` into .bench/, as `benchmarks.speed` does), measured in the same run.

    python -m benchmarks.startup [--baseline 58b9743] [--events 40000]

Each figure is one fresh process's user + system CPU seconds (`os.wait4`), the least of
several runs, so the figures hold on a machine shared with other work; Python's bytecode
cache is on (filled by a first untimed run), as for an installed tabletape, except in the
two figures that say so:
- `--help`, `list`, `new` and `append --event` on a store with nothing else in it (least of 5);
- `replay LONG --at 100`, summary and JSON, on a random-bot log of `--events` events (least of 3);
- `simulate mortalgate@2.5 --games 40 --workers 1` into a fresh store (least of 2).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.corpus import VARIANT_TOML
from benchmarks.sections import write_section
from benchmarks.speed import code_tree

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".bench" / "startup"
BASELINE = "58b9743"
"""The code before verbs loaded only what they use and replay folded only up to --at."""
RUN = ("import sys\ntry:\n    from dashboard.cli.commands import main\n"
       "except ModuleNotFoundError:  # a baseline laid out before dashboard/cli/\n    from dashboard.cli.commands import main\n"
       "main(sys.argv[1:])")
APPEND = '{"type": "DraftRolled", "red": 5, "blue": 2}'


def cpu_of(tree: Path, args: Sequence[str], *, cached: bool = True) -> float:
    """CPU seconds of one `tabletape args...` process running the code in `tree`; `cached`:
    with Python's bytecode cache, as an installed tabletape runs (else every module it
    imports is compiled from its source first)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env["PYTHONPATH"] = str(tree)
    if not cached:  # an empty cache folder, never written: every module is compiled
        (SCRATCH / "no-pycache").mkdir(parents=True, exist_ok=True)
        env |= {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(SCRATCH / "no-pycache")}
    child = subprocess.Popen([sys.executable, "-c", RUN, *args], cwd=tree, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} in {tree} failed: {err.decode()[-400:]}")
    return usage.ru_utime + usage.ru_stime


def code_of(tree: Path) -> Path:
    """Where a process with `tree` on its path imports the command line from."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", "import dashboard as d; print(d.__file__)"], cwd=tree, env=env,
                         check=True, capture_output=True, text=True).stdout
    return Path(out.strip()).parent.parent


def long_log(home: Path, events: int) -> str:
    """A random-bot MortalGate log of `events` events (Grace never decides), imported whole,
    as `benchmarks.corpus` makes its long log."""
    from projections.corpus.simulate import play
    from projections.workspace import Workspace

    (home / "variants").mkdir(parents=True, exist_ok=True)
    (home / "variants" / "bench-long.toml").write_text(VARIANT_TOML)
    ws = Workspace(home)
    rules = ws.rules("mortalgate@bench-long")
    for seed in range(10):  # the first seed whose game is still going after `events` events
        log = play(rules, rules.ruleset.example_seats, seed=seed, bot="random", match_id="long", max_events=events)
        if len(log) == events:
            break
    else:
        raise SystemExit(f"no random-bot game of seeds 0..9 lasts {events:,} events")
    codec = rules.ruleset.codec
    return ws.import_log(b"".join(codec.encode(event) + b"\n" for event in log)).match_id


def measure(tree: Path, name: str, events: int, long_home: Path) -> dict[str, float]:
    """Every figure for the code in `tree` (its stores under .bench/startup/NAME)."""
    home = SCRATCH / name
    figures: dict[str, float] = {}

    def least(label: str, runs: int, args: Sequence[str], fresh: Path | None = None, cached: bool = True) -> None:
        times = []
        for _ in range(runs):
            if fresh is not None:
                shutil.rmtree(fresh, ignore_errors=True)
            times.append(cpu_of(tree, args, cached=cached))
        figures[label] = min(times)

    empty, one = home / "empty", home / "one"
    shutil.rmtree(empty, ignore_errors=True)
    new = ["--home", str(empty), "new", "--ruleset", "mortalgate@2.5", "--seats", "red=ana,blue=ben", "--id", "m1"]
    for args in (["--home", str(empty), "--help"], new, ["--home", str(long_home), "replay", "long", "--at", "100"]):
        cpu_of(tree, args)  # fills the bytecode cache of every module the figures load
    shutil.rmtree(empty, ignore_errors=True)
    least("--help", 5, ["--home", str(empty), "--help"])
    least("list", 5, ["--home", str(empty), "list"])
    least("new", 5, new, fresh=empty)
    figures["append --event"] = min(_append_once(tree, one) for _ in range(5))
    least(f"replay --at 100 ({events:,}-event log)", 3, ["--home", str(long_home), "replay", "long", "--at", "100"])
    least(f"replay --at 100 --format json ({events:,}-event log)", 3,
          ["--home", str(long_home), "replay", "long", "--at", "100", "--format", "json"])
    least("--help, no bytecode cache", 5, ["--home", str(empty), "--help"], cached=False)
    least("new, no bytecode cache", 5, new, fresh=empty, cached=False)
    sims = home / "sim"
    least("simulate mortalgate@2.5 --games 40 --workers 1 (fresh store)", 2,
          ["--home", str(sims), "simulate", "mortalgate@2.5", "--games", "40", "--workers", "1"], fresh=sims)
    return figures


def _append_once(tree: Path, home: Path) -> float:
    """`append --event` onto a match holding line 0 alone (the store made again first)."""
    shutil.rmtree(home, ignore_errors=True)
    cpu_of(tree, ["--home", str(home), "new", "--ruleset", "mortalgate@2.5", "--seats", "red=ana,blue=ben", "--id", "m1"])
    return cpu_of(tree, ["--home", str(home), "append", "m1", "--event", APPEND])


def _children_cpu() -> float:
    """CPU seconds of every process this run has waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare against")
    parser.add_argument("--events", type=int, default=40_000, help="length of the log replayed at event 100")
    args = parser.parse_args()
    began = _children_cpu()
    long_home = SCRATCH / "long"
    shutil.rmtree(long_home, ignore_errors=True)
    long_log(long_home, args.events)
    base_tree = code_tree(args.baseline)
    for tree in (base_tree, ROOT):
        if code_of(tree) != tree:
            raise SystemExit(f"a process with {tree} on its path ran the code in {code_of(tree)}")
    before = measure(base_tree, "baseline", args.events, long_home)
    after = measure(ROOT, "here", args.events, long_home)
    rows = ["## Startup and early replay (`make bench-startup`)", "",
            f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.startup` on "
            f"{os.cpu_count()} cores ({platform.python_implementation()} {platform.python_version()}), "
            f"in {_children_cpu() - began:.0f} CPU s. CPU seconds (user + system) of one `tabletape` process, "
            "least of 5 runs (replay: 3, simulate: 2), with Python's bytecode cache as an installed tabletape "
            "runs, and without it for two (every import compiled from source first); the baseline is commit "
            f"`{args.baseline}` run in the same benchmark run. Target: `--help`, `list`, `new`, `append --event` within 0.3 s.", "",
            f"| command | {args.baseline} (CPU s) | this code (CPU s) | before / after |", "|---|---|---|---|"]
    for label, was in before.items():
        now = after[label]
        rows.append(f"| `{label}` | {was:.2f} | {now:.2f} | {was / now:.2f} |")
    rows += ["", "`simulate` on a fresh store neither loads the statistics (statsmodels, scipy, pandas) nor builds "
             "the warehouse: the first `query` or the dashboard builds it; a warehouse already built is synced "
             "incrementally at the end."]
    text = "\n".join(rows)
    print(text)
    write_section("startup", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
