"""What the resynchronising audit costs: audited replay of clean logs and of logs with mistakes,
this code against earlier commits, measured in the same run.

    python -m benchmarks.audit_speed [--games 4] [--repeat 3] [--baseline f9b011d]

Each code is run in a process of its own (a baseline is a commit extracted with `git archive`
into .bench/, as `benchmarks.speed` does), in turns, `--repeat` times; each figure is the
median over processes of CPU seconds (in a process: every log replayed once untimed, then each
mode timed twice, in the order audit, literal, literal, audit, the faster kept), so the ratio
holds on a machine shared with other work.
Clean logs: every game's bot games (both bots), audited. Logs with mistakes: every golden and
demo log, audited (where the resync does its work: only refused events pay for it).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from benchmarks.report import Figure, document
from benchmarks.sections import write_section
from benchmarks.speed import code_tree, measured_in

ROOT = Path(__file__).resolve().parent.parent
BASELINES = ("f9b011d",)
"""The code before the resync readings of 2026-11-24 (the resync's baseline)."""


def clean_logs(games: int) -> list[tuple[str, list]]:
    """Every game's bot games, both bots (seeds as `benchmarks.speed`), with the rules name."""
    from projections.corpus.batch import game_seed
    from projections.corpus.simulate import play
    from rulesets import registry

    out = []
    for name in registry.built_in():
        ruleset = registry.game(name)
        rules = registry.resolve(name)
        for bot in ruleset.bots:
            for i in range(games):
                log = play(rules, ruleset.example_seats, seed=game_seed(2, i), bot=bot, match_id=f"r-{i}")
                out.append((name, [msgspec.structs.replace(log[0], fingerprint=""), *log[1:]]))
    return out


def mistake_logs() -> list[tuple[str, list]]:
    """Every golden and demo log (played mistakes, rulings, undos), with its ruleset version."""
    from benchmarks.logs import read_logs

    return [(f"{rules.ruleset.name}@{rules.version}", events) for _, rules, events in read_logs()]


def measure_here(games: int) -> dict[str, object]:
    """CPU seconds and events of the audited replay of both sets of logs, in this process's code:
    as it audits, and following each log literally after a refused event (`resync=False`)."""
    from collections import deque

    import rulesets
    from projections.read.replay import replay
    from rulesets import registry

    out: dict[str, object] = {"code": str(Path(rulesets.__file__).parent.parent)}
    for label, logs in (("clean", clean_logs(games)), ("mistakes", mistake_logs())):
        resolved = [(registry.resolve(name), log) for name, log in logs]
        for rules, log in resolved:  # warm-up: imports and the rules' memos are not what is measured
            deque(replay(log, rules), maxlen=0)
        timed: dict[str, list[float]] = {"": [], " literal": []}
        events = 0
        for mode, resync in (("", True), (" literal", False), (" literal", False), ("", True)):  # neither goes first only
            started = time.process_time()
            events = sum(sum(1 for _ in replay(log, rules, resync=resync)) for rules, log in resolved)
            timed[mode].append(time.process_time() - started)
        for mode, cpus in timed.items():
            out[label + mode] = {"events": events, "cpu": min(cpus)}
    return out


def measure(rev: str, games: int) -> dict[str, object]:
    """The measurement under the code of `rev` ('HEAD': this checkout), in a process of its own."""
    return measured_in(ROOT if rev == "HEAD" else code_tree(rev), "benchmarks.audit_speed", f"measure_here({games})")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="bot games per game and bot")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", default=",".join(BASELINES))
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    revs = ["HEAD", *[r for r in args.baseline.split(",") if r]]
    runs: dict[str, list[dict[str, object]]] = {rev: [] for rev in revs}
    for _ in range(args.repeat):
        for rev in revs:
            runs[rev].append(measure(rev, args.games))

    def cpu(rev: str, label: str) -> tuple[float, int]:
        values = [run[label] for run in runs[rev]]
        return statistics.median(v["cpu"] for v in values), values[0]["events"]  # type: ignore[index]

    figures = []
    for label, what in (("clean", f"clean bot games ({args.games} per game and bot)"), ("mistakes", "golden and demo logs (with mistakes)")):
        here, events = cpu("HEAD", label)
        literal, _ = cpu("HEAD", label + " literal")
        ratios = [f"this code following the log literally (resync=False): {events / literal:,.0f} events/s, "
                  f"the audit {literal / here:.2f}x its speed"]
        for rev in revs[1:]:
            base, base_events = cpu(rev, label)
            same = "" if base_events == events else f" ({base_events:,} events)"
            ratios.append(f"{rev}: {base_events / base:,.0f} events/s{same}, this code {base / here:.2f}x its speed")
        clean = label == "clean"
        figures.append(Figure(name=f"audited replay of {what}: events/s (CPU, median of {args.repeat} processes)",
                              value=f"{events / here:,.0f} ({events:,} events, {here:.2f} s)", ratio="; ".join(ratios),
                              target="no slower than before (ratios >= 0.95)" if clean else "",
                              passed=min([literal / here, *(cpu(r, label)[0] / here for r in revs[1:])]) >= 0.95 if clean else None))
        print(figures[-1], flush=True)
    markdown = document(
        title="Audit speed with the resynchronising audit (`python -m benchmarks.audit_speed`)",
        heading=[f"`python -m benchmarks.audit_speed --games {args.games} --repeat {args.repeat} --baseline {args.baseline}`, "
                 f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}. Each code in its own process, "
                 "in turns; CPU seconds of the process (each mode timed twice after an untimed pass, the faster kept; "
                 "median over processes), so the ratios hold on a shared machine. Baselines: "
                 + ", ".join(f"`{r}`" for r in revs[1:]) + " (f9b011d: before the resync readings of 2026-11-24), "
                 "and this code with the resync off, in the same process."],
        figures=figures, sections=[])
    print(markdown)
    if not args.no_write:
        write_section("audit-speed", markdown)


if __name__ == "__main__":
    main()
