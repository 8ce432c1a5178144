"""Coverage of the balance verdicts' 95% intervals with real bot cohorts (bounded).

Two cohorts of the same rules (MortalGate 2.5 and a designer variant that changes
nothing), played from different seeds, so every true difference is zero: a well-calibrated
verdict's interval of the difference covers 0 about 95% of the time and calls "no clear
change" (Holm) about 95% or more of the time. Run: `python -m benchmarks.coverage [PAIRS]
[GAMES]`; it prints one line per measure.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from projections.corpus.batch import simulate
from projections.stats.balance import compare_cohorts
from projections.warehouse.sync import Warehouse
from projections.workspace import Workspace


def main(pairs: int = 20, games: int = 30) -> None:
    """Play `pairs` pairs of cohorts of `games` games each and print the coverage per measure."""
    home = Path(tempfile.mkdtemp(prefix="tabletape-coverage-"))
    (home / "variants").mkdir(parents=True)
    (home / "variants" / "same.toml").write_text('extends = "mortalgate@2.5"\ntitle = "2.5 unchanged"\n[params]\nplayers_max = 8\n')
    ws = Workspace(home)
    covered: dict[str, list[bool]] = {}
    quiet: list[bool] = []
    for k in range(pairs):
        a = simulate(ws, "mortalgate@2.5", games=games, seed=k, workers=1, sync=False)
        b = simulate(ws, "mortalgate@same", games=games, seed=10_000 + k, workers=1, sync=False)
        Warehouse(ws).sync()
        report = compare_cohorts(ws, "mortalgate@2.5", "mortalgate@same", kind="bots",
                                 batches=((a.batch_id,), (b.batch_id,)))
        for v in report.verdicts:
            if v.key in ("seat_balance", "first_player", "length", "lead_changes", "comebacks"):
                covered.setdefault(v.key, []).append(v.difference.low <= 0 <= v.difference.high)
        quiet.append(not report.significant())
    for key, hits in covered.items():
        print(f"{key}: interval covers the true 0 in {sum(hits)}/{len(hits)} = {sum(hits) / len(hits):.0%}")
    print(f"no measure called significant (Holm): {sum(quiet)}/{len(quiet)} = {sum(quiet) / len(quiet):.0%}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
