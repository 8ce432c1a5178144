"""One table mistake, one finding: how many follow-on findings an injected mistake costs, per game,
and how many of two independent mistakes in one log the audit still names (recall).

Every game's golden logs and the shipped demo playtests are mutated (`projections.corpus.mutations`:
an event dropped, written twice, two swapped, an impossible die, a borrowed illegal move, an
action out of turn, a pending roll skipped) and re-audited; a follow-on is a new error or
warning at any event other than the mistake's own. Target per game: median 0, p95 <= 1.
Then pairs of mistakes, 8 to 48 events apart on different pieces, each named when alone
(`projections.corpus.mutations.recalls`): recall is the share of them the audit names with the other
one in the log. Target per game: at least 99%.

    python -m benchmarks.cascade [--mutations 1000] [--pairs 1000] [--games frontier,mortalgate]
"""

from __future__ import annotations

import argparse
import platform
import time
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime

import msgspec
import numpy as np

from benchmarks.logs import read_logs
from benchmarks.report import Figure, document
from benchmarks.sections import write_section
from projections.corpus.mutations import KINDS, Cascade, Recall, Subject, cascades, recalls


def subjects() -> dict[str, list[Subject]]:
    """Game name -> its logs, each ready to mutate."""
    out: dict[str, list[Subject]] = defaultdict(list)
    for game, rules, events in read_logs():
        out[game].append(Subject(events, rules))
    return dict(out)


def summary(found: Sequence[Cascade]) -> dict[str, float]:
    """Median, p95 (with a bootstrap 95% interval), max and mean follow-ons; how many went unseen."""
    values = np.array([c.follow_on for c in found], dtype=float)
    rng = np.random.default_rng(0)
    boot = np.quantile(rng.choice(values, size=(1000, len(values))), 0.95, axis=1)
    return {"n": len(values), "median": float(np.median(values)), "p95": float(np.quantile(values, 0.95)),
            "p95_low": float(np.quantile(boot, 0.025)), "p95_high": float(np.quantile(boot, 0.975)),
            "max": float(values.max()), "mean": float(values.mean()),
            "unseen": sum(1 for c in found if c.at_site == 0 and c.follow_on == 0)}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutations", type=int, default=1000, help="per game")
    parser.add_argument("--games", default="", help="comma-separated; default every game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", type=int, default=200,
                        help="per game, how many of the mutations are also audited following the log literally")
    parser.add_argument("--pairs", type=int, default=1000, help="per game, logs with two independent mistakes (0: none)")
    parser.add_argument("--no-write", action="store_true", help="print only, leave BENCHMARKS.md alone")
    args = parser.parse_args(argv)
    wanted = [g for g in args.games.split(",") if g]
    figures: list[Figure] = []
    kinds_rows = ["| game | " + " | ".join(KINDS) + " |", "|---|" + "---|" * len(KINDS)]
    worst_rows: list[str] = []
    measure_rows = ["| game | p95 | p95 with the first new finding counted as a follow-on | mean counted so | mistakes shown only later |",
                    "|---|---|---|---|---|"]
    recall_rows = ["| game | pairs | mistakes named | recall | follow-ons per mistake (median / p95 / max) | time |",
                   "|---|---|---|---|---|---|"]
    missed_rows: list[str] = []
    for game, logs in subjects().items():
        if wanted and game not in wanted:
            continue
        began = time.perf_counter()
        found = cascades(logs, args.mutations, seed=args.seed, baseline=args.baseline)
        took = time.perf_counter() - began
        s = summary(found)
        paired = [c for c in found if c.literal is not None]
        literal = summary([msgspec.structs.replace(c, follow_on=c.literal or 0) for c in paired]) if paired else None
        now = summary(paired) if paired else None
        before = summary([msgspec.structs.replace(c, follow_on=c.follow_on + c.shown_later) for c in found])
        print(f"{game}: {s['n']:.0f} mutations of {len(logs)} logs in {took:.0f} s: median {s['median']:g}, "
              f"p95 {s['p95']:g} [{s['p95_low']:g}, {s['p95_high']:g}], max {s['max']:g}, mean {s['mean']:.2f}", flush=True)
        figures.append(Figure(
            name=f"{game}: follow-on findings per mistake (median / p95 [95% CI] / max; mean)",
            value=f"{s['median']:g} / {s['p95']:.1f} [{s['p95_low']:.1f}-{s['p95_high']:.1f}] / {s['max']:g}; {s['mean']:.2f}",
            ratio=(f"baseline (the same {literal['n']:.0f} mutations, log followed literally): mean {literal['mean']:.2f}, "
                   f"p95 {literal['p95']:.1f}; resync: mean {now['mean']:.2f} ({now['mean'] / literal['mean']:.2f}x), "  # type: ignore[index]
                   f"p95 {now['p95']:.1f}. n={s['n']:.0f} over {len(logs)} logs; {s['unseen']} unseen; {took:.0f} s"  # type: ignore[index]
                   if literal and literal["mean"] else f"n={s['n']:.0f} over {len(logs)} logs; {s['unseen']} unseen; {took:.0f} s"),
            target="median 0, p95 <= 1", passed=s["median"] == 0 and s["p95"] <= 1))
        measure_rows.append(f"| {game} | {s['p95']:g} | {before['p95']:g} | {before['mean']:.2f} | "
                            f"{sum(c.shown_later for c in found)} |")
        by_kind: dict[str, list[int]] = defaultdict(list)
        for c in found:
            by_kind[c.kind].append(c.follow_on)
        cells = [f"{np.mean(by_kind[k]):.2f} (n={len(by_kind[k])}, max {max(by_kind[k])})" if by_kind[k] else "-" for k in KINDS]
        kinds_rows.append(f"| {game} | " + " | ".join(cells) + " |")
        for c in sorted(found, key=lambda c: -c.follow_on)[:3]:
            spread = sorted({r.split(" ", 1)[1] for r in c.follow_rules})
            worst_rows.append(f"- {game}, {c.what}: {c.follow_on} follow-ons ({', '.join(spread[:4])})")
        if args.pairs:
            figures.append(_recall(game, logs, args, recall_rows, missed_rows))
    markdown = document(
        title="Cascades: follow-on findings per table mistake (`make bench-cascade`)",
        heading=[f"`python -m benchmarks.cascade --mutations {args.mutations} --baseline {args.baseline} --pairs {args.pairs}`, "
                 f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
                 f"Python {platform.python_version()}. Golden and demo logs mutated once each "
                 "(projections/corpus/mutations.py) and re-audited; a follow-on is a new error or warning at an event other "
                 "than where the mistake shows (its own events, or the first new finding after them if the rules accept it there). Unseen: the audit reported nothing at all (a swap of two independent moves)."],
        figures=figures,
        sections=[("Mean follow-ons by kind of mistake", "\n".join(kinds_rows)),
                  ("Where a mistake shows (the measure)",
                   "A mistake the rules accept at its own events shows first where play depends on it; that first new "
                   "finding names it and is not a follow-on. The same mutations with that finding counted as a "
                   "follow-on, for comparison:\n\n" + "\n".join(measure_rows)),
                  ("The worst mutations measured", "\n".join(worst_rows)),
                  ("Two independent mistakes in one log (recall)",
                   "Each log gets two mistakes (kinds taken in turn for each), the second 8 to 48 events after the "
                   "first (while the first one's readings are still carried) and about other pieces (the events "
                   "touched share no name: card, hero, unit), each named when alone. A mistake is named when the "
                   "audit of the log with both reports a new finding where it showed alone. Follow-ons: new "
                   "findings where neither showed, per mistake.\n\n" + "\n".join(recall_rows)
                   + ("\n\nMistakes not named:\n\n" + "\n".join(missed_rows[:12]) if missed_rows else ""))],
    )
    print(markdown)
    if not args.no_write:
        write_section("cascade", markdown)


def _recall(game: str, logs: list[Subject], args: argparse.Namespace, rows: list[str], missed: list[str]) -> Figure:
    """The pairs of one game: its figure, its row of the recall table, the mistakes it missed."""
    began = time.perf_counter()
    found: list[Recall] = recalls(logs, args.pairs, seed=args.seed)
    took = time.perf_counter() - began
    mistakes = 2 * len(found)
    named = sum(sum(r.named) for r in found)
    share = named / mistakes if mistakes else 0.0
    per = np.array([r.follow_on / 2 for r in found], dtype=float)
    print(f"{game}: {len(found)} pairs in {took:.0f} s: {named} of {mistakes} mistakes named ({share:.2%}), "
          f"follow-ons per mistake median {np.median(per):g}, p95 {np.quantile(per, 0.95):g}", flush=True)
    rows.append(f"| {game} | {len(found)} | {named} of {mistakes} | {share:.2%} | {np.median(per):g} / "
                f"{np.quantile(per, 0.95):g} / {per.max():g} | {took:.0f} s |")
    for r in found:
        for which, ok in enumerate(r.named):
            if not ok:
                missed.append(f"- {game}: {r.what[which]} (with {r.what[1 - which]})")
    return Figure(name=f"{game}: two independent mistakes in one log, share named (recall)",
                  value=f"{share:.2%} ({named} of {mistakes})",
                  ratio=f"n={len(found)} pairs over {len(logs)} logs; follow-ons per mistake median {np.median(per):g}, "
                        f"p95 {np.quantile(per, 0.95):g}; {took:.0f} s",
                  target=">= 99%", passed=share >= 0.99)


if __name__ == "__main__":
    main()
