"""How long the balance verdicts take on synthetic cohorts (`python -m benchmarks.verdicts`).

Baseline, same run: the length verdict's bootstrap drawing scipy's Kaplan-Meier curve for
every resample (what the fast path replaces when no game is censored). Writes its own
section of BENCHMARKS.md.
"""

from __future__ import annotations

import time
from unittest import mock

import numpy as np

from benchmarks.sections import write_section
from projections.stats import verdicts


def _cohort(rng: np.random.Generator, n: int, blue: float) -> list[dict[str, object]]:
    return [{"match_id": f"m{i}", "source": "simulation", "seed": i, "finished": True,
             "winner": "blue" if rng.random() < blue else "red", "first_side": "red", "sides": ["blue", "red"],
             "picks": [{"side": "blue", "piece": "hawk"}, {"side": "red", "piece": "wolf"}],
             "turns": int(rng.integers(80, 320)), "events": 600, "lead_changes": int(rng.poisson(2)),
             "comeback": bool(rng.random() < 0.2), "broken": [], "median_turn_seconds": None} for i in range(n)]


def _seconds(call: object) -> float:
    started = time.perf_counter()
    call()  # type: ignore[operator]
    return time.perf_counter() - started


def main() -> None:
    """Time every verdict and the length verdict with and without the fast median, per size."""
    rng = np.random.default_rng(1)
    rows = ["| games per version | every verdict | length verdict | length, curve per resample (baseline) | ratio |",
            "|---|---|---|---|---|"]
    for n in (100, 500, 2000):
        a, b = _cohort(rng, n, 0.5), _cohort(rng, n, 0.55)
        la, lb = [(r["turns"], r["finished"]) for r in a], [(r["turns"], r["finished"]) for r in b]
        every = _seconds(lambda a=a, b=b: verdicts.verdicts(a, b))
        fast = _seconds(lambda la=la, lb=lb: verdicts.length_verdict(la, lb))
        with mock.patch.object(verdicts, "_median_only", lambda t, f: verdicts.median_length(t, f).value):
            slow = _seconds(lambda la=la, lb=lb: verdicts.length_verdict(la, lb))
        rows.append(f"| {n:,} | {every:.2f} s | {fast:.2f} s | {slow:.2f} s | {slow / fast:.0f}x faster |")
    body = "\n".join(["## Balance verdicts (`python -m benchmarks.verdicts`)", "",
                      f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on synthetic cohorts (no censoring), one run;"
                      " 400 bootstrap resamples for the length interval.", "", *rows])
    write_section("verdicts", body)
    print(body)


if __name__ == "__main__":
    main()
