"""A designer variant of known bias, through the real verdicts (`python -m benchmarks.bias [POOL] [RESAMPLES] [STORE]`).

The variant is what a designer would write: `red3.toml` extends MortalGate 2.5 and starts
red's Grace meter at 3 (`starting_grace = [3, 0]`; the rules start both at 0). Bots play a
large pool of games of 2.5 and of red3 from the same seeds; the pool's difference in blue's
win rate stands in for the true difference (its own 95% interval is printed beside it).

Then, with the games per version the seat-balance verdict says a change of that size needs
(80% power, 5% after correcting for every measure), the pool is cut into disjoint cohorts
of that size, and, for many more cohorts, resampled with replacement (where the pool *is*
the population, so its difference is exactly the truth). For each it counts how often the
verdict calls seat balance significant (Holm) and how often the 95% interval of the
difference covers the true difference. Writes the `bias` section of BENCHMARKS.md. A STORE
that already holds the pool (a run cut short after playing it) reuses its batches.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.sections import write_section
from projections.corpus.batch import simulate
from projections.stats import verdicts
from projections.stats.balance import cohort
from projections.warehouse.sync import Warehouse
from projections.workspace import Workspace

VARIANT = 'extends = "mortalgate@2.5"\ntitle = "Red starts with 3 Grace"\n[params]\nstarting_grace = [3, 0]\n'
Row = dict[str, Any]


def blue_rate(rows: Sequence[Row]) -> float:
    """Blue's share of the finished games' wins."""
    done = [r for r in rows if r["finished"]]
    return sum(r["winner"] == "blue" for r in done) / len(done)


def truth(a: Sequence[Row], b: Sequence[Row], side: str) -> float:
    """The pool's difference B - A in `side`'s win rate (blue's or red's: two sides, no draws)."""
    difference = blue_rate(b) - blue_rate(a)
    return difference if side == "blue" else -difference


def judge(a: Sequence[Row], b: Sequence[Row], true_blue: float, detect: float) -> tuple[bool, bool, bool | None]:
    """(seat balance significant after Holm, its interval covers the truth, the paired interval covers it)."""
    seat = next(v for v in verdicts.verdicts(a, b, detect=detect) if v.key == "seat_balance")
    side = seat.measure.split("'")[0]
    true = true_blue if side == "blue" else -true_blue
    paired = None if seat.paired is None else seat.paired.low <= true <= seat.paired.high
    return seat.significant, seat.difference.low <= true <= seat.difference.high, paired


def share(flags: Sequence[bool | None]) -> str:
    """`hits/n = percent`, ignoring cohorts without the measure."""
    known = [f for f in flags if f is not None]
    return f"{sum(known)}/{len(known)} = {sum(known) / len(known):.1%}" if known else "n/a"


@dataclass(frozen=True)
class Measured:
    """One run: the pool, the truth taken from it, the stated sample size, and per kind of
    cohort (detected, interval covers the truth, paired interval covers it) for each cohort."""

    pool: int
    how: str
    blue: tuple[float, float]
    truth: float
    truth_interval: tuple[float, float]
    detect: float
    needed: int
    measures: int
    cohorts: dict[str, list[tuple[bool, bool, bool | None]]]

    def rate(self, kind: str, column: int) -> float:
        """Share of cohorts of a kind where the column (0 detected, 1 covered, 2 paired covered) holds."""
        known = [c[column] for c in self.cohorts[kind] if c[column] is not None]
        return sum(map(bool, known)) / len(known)


def measure(pool: int = 3000, resamples: int = 400, store: str | None = None) -> Measured:
    """Play the pool (or reuse it), then judge disjoint and resampled cohorts of the stated size."""
    home = Path(store) if store else Path(tempfile.mkdtemp(prefix="tabletape-bias-"))
    (home / "variants").mkdir(parents=True, exist_ok=True)
    (home / "variants" / "red3.toml").write_text(VARIANT)
    ws = Workspace(home)
    started = time.perf_counter()
    reports = [simulate(ws, spec, games=pool, seed=0, workers=1, sync=False) for spec in ("mortalgate@2.5", "mortalgate@red3")]
    simulated = time.perf_counter() - started
    wh = Warehouse(ws)
    wh.sync()
    synced = time.perf_counter() - started - simulated
    how = ("reusing a pool already played" if all(r.seconds == 0 for r in reports)
           else f"{simulated / 60:.0f} min on one worker") + f"; the warehouse sync took {synced / 60:.1f} min"
    a, b = (sorted(cohort(wh, "mortalgate", version, kind="bots", batches=[r.batch_id]), key=lambda r: r["seed"])
            for version, r in zip(("2.5", "red3"), reports, strict=True))
    true_blue = blue_rate(b) - blue_rate(a)
    whole = verdicts.rates_verdict("seat_balance", "?", "blue", (round(blue_rate(a) * len(a)), len(a)),
                                   (round(blue_rate(b) * len(b)), len(b)))
    detect = round(abs(true_blue), 2)
    seat = next(v for v in verdicts.verdicts(a, b, detect=detect) if v.key == "seat_balance")
    n = seat.needed
    assert n is not None, "no sample size for the pool's difference"
    rng = np.random.default_rng(7)
    disjoint = [(a[k * n:(k + 1) * n], b[k * n:(k + 1) * n]) for k in range(len(a) // n)]
    unpaired = [(ca, disjoint[(k + 1) % len(disjoint)][1]) for k, (ca, _) in enumerate(disjoint)] if len(disjoint) > 1 else []
    cohorts = {
        "disjoint, same seeds (as compare-versions plays)": [judge(ca, cb, true_blue, detect) for ca, cb in disjoint],
        "disjoint, different seeds": [judge(ca, cb, true_blue, detect) for ca, cb in unpaired],
        "resampled from the pool (the pool is the truth)": [
            judge([a[i] for i in rng.integers(0, len(a), n)], [b[i] for i in rng.integers(0, len(b), n)], true_blue, detect)
            for _ in range(resamples)],
    }
    return Measured(pool=pool, how=how, blue=(blue_rate(a), blue_rate(b)), truth=true_blue,
                    truth_interval=(whole.difference.low, whole.difference.high), detect=detect, needed=n,
                    measures=seat.measures, cohorts=cohorts)


def report(m: Measured) -> str:
    """The BENCHMARKS.md section."""
    rows = ["| cohorts of the stated size | seat balance detected (Holm, 5%) | 95% interval covers the true difference | paired interval covers it |",
            "|---|---|---|---|"]
    for kind, found in m.cohorts.items():
        paired = share([f[2] for f in found]) if kind.startswith("disjoint, same") else "-"
        rows.append(f"| {len(found)} {kind} | {share([f[0] for f in found])} | {share([f[1] for f in found])} | {paired} |")
    return "\n".join([
        "## A designer variant of known bias (`python -m benchmarks.bias`)", "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, one run. `red3.toml` extends MortalGate 2.5 with"
        " `starting_grace = [3, 0]` (red's Grace meter starts at 3). Heuristic bots played "
        f"{m.pool:,} games of each from the same seeds ({m.how}).",
        f"Blue's win rate: 2.5 {m.blue[0]:.1%}, red3 {m.blue[1]:.1%}; the true difference is taken as the pool's, "
        f"{m.truth * 100:+.1f} points (its own 95% interval {m.truth_interval[0] * 100:+.1f} to {m.truth_interval[1] * 100:+.1f}).",
        f"The verdict asked for {m.needed} games per version to detect a {m.detect * 100:g}-point change (80% power, 5% after"
        f" correcting for {m.measures} measures); cohorts of {m.needed}:", "", *rows])


def main(pool: int = 3000, resamples: int = 400, store: str | None = None) -> None:
    """Measure, print, and write the `bias` section of BENCHMARKS.md."""
    body = report(measure(pool, resamples, store))
    write_section("bias", body)
    print(body)


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:3]), *sys.argv[3:4])
