"""compare-versions --until-decided: simulate in rounds until the chosen measures are decided.

A group-sequential design with alpha spending (Lan-DeMets, O'Brien-Fleming-like spending
function): after each round the share of the maximum games played so far, t, has used
alpha(t) = 2 - 2 Phi(z / sqrt(t)) of the 5% error budget. Each look tests at the alpha
newly spent, split evenly over the measures (Bonferroni), so the chance of any false
"differs" or "no change that matters" over every look and measure stays under 5% however
the rounds fall (testing each increment on its own is conservative but needs no boundary
tables). Early looks spend almost nothing: a round of a few games cannot decide on luck.

A measure is decided when its difference is significant at that look ("differs"), or when
the two one-sided tests of equivalence (TOST, statsmodels) put the difference inside
+-margin ("no change larger than the margin"). Every round plays both versions from the
same seeds (paired games).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from scipy import stats
from statsmodels.stats import proportion

from events.errors import TabletapeError
from projections.corpus.batch import Progress, simulate_pair, stored_where
from projections.stats.balance import BalanceReport, check_detect, compare_cohorts
from projections.stats.verdicts import Verdict, show_interval
from projections.warehouse.sync import Warehouse, parallel_sync
from projections.workspace import Workspace

ALPHA = 0.05
DECIDABLE = ("seat_balance", "first_player", "decisive", "comebacks")
"""Rate measures: the ones a round-by-round equivalence test is defined for here."""

Look = dict[str, Any]
"""One round's look: round, rounds, games (per version), alpha, decisions {measure: what},
estimates {measure: what is measured, e.g. blue's win rate, and its difference B - A with
the interval}."""
RoundProgress = Callable[[int, int, int, int], None]
"""(round, rounds, games played in this round, games in the round over both versions)."""


def spent(fraction: float, alpha: float = ALPHA) -> float:
    """The error budget used once `fraction` of the maximum games are in (O'Brien-Fleming-like)."""
    if fraction <= 0:
        return 0.0
    z = stats.norm.ppf(1 - alpha / 2)
    return float(2 - 2 * stats.norm.cdf(z / math.sqrt(min(fraction, 1.0))))


def decide(v: Verdict, level: float, margin: float) -> str | None:
    """"differs", "no change larger than the margin", or None (undecided) at this look."""
    if math.isfinite(v.p_value) and v.p_value < level:
        return "differs"
    ca, cb = (round(e.value * e.n) for e in (v.a, v.b))
    if v.a.n and v.b.n:
        tost = proportion.tost_proportions_2indep(cb, v.b.n, ca, v.a.n, -margin, margin, compare="diff")
        if float(tost.pvalue) < level:
            return f"no change larger than {margin * 100:g} points"
    return None


def until_decided(ws: Workspace, a: str, b: str, *, measures: Sequence[str], round_games: int, max_games: int,
                  margin: float, seed: int, bot: str | None = None, workers: int | None = None,
                  scheduler: str | None = None, progress: RoundProgress | None = None,
                  looked: Callable[[Look], None] | None = None, detect: float = 0.05) -> BalanceReport:
    """Play rounds of `round_games` per version (round k from seed + k) until every measure is
    decided or `max_games` per version are played; the report has every round's decisions.
    `progress` hears of each round's games as they finish, `looked` of each look's decisions."""
    unknown = [m for m in measures if m not in DECIDABLE]
    if unknown:
        raise TabletapeError(f"--measure {unknown[0]!r}: --until-decided decides {', '.join(DECIDABLE)}")
    if round_games < 1 or max_games < round_games:
        raise TabletapeError("--until-decided needs --games (per round) of at least 1 and --max-games at least --games")
    if not 0 < margin < 1:
        raise TabletapeError(f"--margin {margin}: a rate difference between 0 and 1 (0.05 is 5 points)")
    check_detect(detect)
    rounds = math.ceil(max_games / round_games)
    decided: dict[str, str] = {}
    looks: list[Look] = []
    batches: tuple[list[str], list[str]] = ([], [])
    reports = []
    report: BalanceReport | None = None
    for k in range(rounds):
        step: Progress | None = (lambda done, total, k=k: progress(k + 1, rounds, done, total)) if progress else None
        played = simulate_pair(ws, (a, b), games=round_games, seed=seed + k, bot=bot, workers=workers, scheduler=scheduler,
                               progress=step)
        reports.extend(played)
        batches[0].append(played[0].batch_id)
        batches[1].append(played[1].batch_id)
        parallel_sync(Warehouse(ws), workers=workers)
        report = compare_cohorts(ws, a, b, kind="bots", batches=batches, detect=detect)
        level = (spent((k + 1) / rounds) - spent(k / rounds)) / len(measures)
        found = {v.key: v for v in report.verdicts}
        for m in measures:
            if m in decided or m not in found:
                continue
            outcome = decide(found[m], level, margin)
            if outcome is not None:
                decided[m] = outcome
        looks.append({"round": k + 1, "rounds": rounds, "games": (k + 1) * round_games, "alpha": level,
                      "decisions": {m: decided.get(m, "undecided") for m in measures},
                      "estimates": {m: f"{found[m].measure} {show_interval(found[m].difference, found[m].unit, signed=True)}"
                                    for m in measures if m in found}})
        if looked is not None:
            looked(looks[-1])
        if all(m in decided for m in measures):
            break
    assert report is not None  # rounds >= 1
    return BalanceReport(a=report.a, b=report.b, kind=report.kind, verdicts=report.verdicts, games=report.games,
                         batches=report.batches, stored=stored_where(ws, reports), rounds=looks)
