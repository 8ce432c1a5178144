"""Balance verdicts: "did the rule change help?" answered with intervals, tests and sample sizes.

Pure functions over the per-match rows of two cohorts (the warehouse's `match_outcomes`
view; DuckDB does the per-match aggregation). One `Verdict` per question: both estimates
with 95% intervals suited to the measure, the difference B - A with its interval, a test,
the p-value corrected (Holm) for the number of measures compared, an effect size, a plain
sentence, and how many games per version it takes to detect a change of a stated size.

The libraries, and why (docs/architecture.md, "Balance verdicts"):
- statsmodels: Wilson intervals for rates (good coverage at small n and near 0 or 1, where
  the normal approximation fails), Newcombe's interval for a difference of rates, exact
  Poisson intervals and tests for violation rates, power/sample size, Holm's correction.
- scipy: Fisher's exact test for two rates, Kaplan-Meier with censoring (`stats.ecdf`) and
  the log-rank test for game length, Welch's and the paired t-test with their intervals.

Bot cohorts and human playtests are never pooled: a cohort is one source kind, and pacing
(wall-clock time) is only measured on human logs.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from scipy import optimize, stats
from statsmodels.stats import multitest, power, proportion, rates

Numbers = Sequence[float] | np.ndarray
Flags = Sequence[bool] | np.ndarray
Row = Mapping[str, Any]
"""One row of the `match_outcomes` view."""

LEVEL = 0.95
POWER = 0.8
DETECT = 0.05
"""The change in a rate (5 points) the games-needed advice is about, unless told."""
RULES_SHOWN = 5
"""The most-broken rules get a verdict each (more would dilute the correction for little)."""


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval and the number of observations behind it."""

    value: float
    low: float
    high: float
    n: int

    @property
    def width(self) -> float:
        """How wide the interval is (what more games narrow)."""
        return self.high - self.low


@dataclass(frozen=True)
class Verdict:
    """The answer to one balance question for cohorts A and B."""

    key: str
    """Stable id: seat_balance, first_player, pick:<piece>, length, decisive, lead_changes,
    comebacks, pacing, rule:<rule id>; decided_when and chance_lead_changes (from win chances)."""
    question: str
    measure: str
    """What the numbers are, e.g. "blue's win rate"."""
    unit: str
    """"rate", "turns", "per match", "seconds" or "per 100 events": how to print them."""
    a: Estimate
    b: Estimate
    difference: Estimate
    """B minus A."""
    test: str
    p_value: float
    effect: float
    effect_name: str
    detectable: float
    """The change the sample-size advice is about (in the measure's unit)."""
    needed: int | None
    """Games per version to detect `detectable` with 80% power at the 5% level, divided by
    the number of measures once `holm` knows it (Bonferroni, which Holm's first step is:
    the verdict is only called significant after the correction, so the advice plans for
    it). None: not computable, e.g. no variation yet."""
    games: tuple[int, int]
    """Games in each cohort (the advice is compared with these)."""
    p_adjusted: float = math.nan
    """Holm-corrected over every verdict of the comparison."""
    measures: int = 1
    paired: Estimate | None = None
    """The difference from the games both cohorts played with the same seed (common random
    numbers), when there are such pairs and the measure is per game."""
    fair: float | None = None
    """The balanced value for a balance measure (a seat's fair share of wins)."""
    plan: Plan | None = field(default=None, compare=False, repr=False)
    """How `needed` is solved, so `holm` can solve it again at the corrected level."""
    missing: str = ""
    """Why the measure cannot be read for this game (no `score` metric for lead changes and
    comebacks): shown as n/a, never as 0, and left out of the Holm correction."""

    @property
    def significant(self) -> bool:
        """Whether the corrected p-value is under 5%."""
        return self.p_adjusted < 1 - LEVEL

    @property
    def narrowing(self) -> float | None:
        """How much pairing narrows the interval of the difference (0.25: a quarter narrower)."""
        if self.paired is None or self.difference.width <= 0 or not math.isfinite(self.difference.width):
            return None
        return 1 - self.paired.width / self.difference.width


# --- formatting ---------------------------------------------------------------------------


def show(value: float, unit: str, *, signed: bool = False) -> str:
    """A value as a designer reads it: rates in percent, the rest with one decimal."""
    if not math.isfinite(value):
        return "n/a"
    sign = "+" if signed else ""
    if unit == "rate":
        return f"{value * 100:{sign}.1f}%" if not signed else f"{value * 100:+.1f} points"
    return f"{value:{sign}.1f}"


def show_interval(estimate: Estimate, unit: str, *, signed: bool = False) -> str:
    """`value [low, high]`."""
    scale = 100 if unit == "rate" else 1
    low, high = (f"{x * scale:{'+' if signed else ''}.1f}" if math.isfinite(x) else "n/a" for x in (estimate.low, estimate.high))
    return f"{show(estimate.value, unit, signed=signed)} [{low}, {high}]"


def show_p(p: float) -> str:
    """A p-value to two significant digits (never a bare 0)."""
    return "n/a" if not math.isfinite(p) else ("< 0.001" if p < 0.001 else f"{p:.2g}")


def sentence(v: Verdict, a: str, b: str) -> str:
    """The verdict in one plain sentence, B first (the version under test)."""
    if v.missing:
        return f"{v.measure}: n/a under {a} and {b}: {v.missing}."
    p = show_p(v.p_adjusted)
    numbers = (f"{b} {show_interval(v.b, v.unit)} vs {a} {show_interval(v.a, v.unit)}; difference "
               f"{show_interval(v.difference, v.unit, signed=True)}; p {p if p.startswith('<') else '= ' + p} "
               f"(Holm, {v.measures} measure{'s' if v.measures != 1 else ''})")
    if not v.significant:
        head = f"no clear change in {v.measure} between {a} and {b}"
    elif v.fair is not None:
        off_b, off_a = abs(v.b.value - v.fair), abs(v.a.value - v.fair)
        how = "as unbalanced as" if math.isclose(off_a, off_b) else "less balanced than" if off_b > off_a else "more balanced than"
        head = f"{b} is {how} {a} in {v.measure}"
    else:
        head = f"{v.measure} is {'higher' if v.difference.value > 0 else 'lower'} under {b} than under {a}"
    if v.fair is None:
        return f"{head}: {numbers}."
    fair = "; ".join(f"{name} {_against_fair(e, v.fair)}" for name, e in ((b, v.b), (a, v.a)))
    return f"{head}: {numbers}. Against the fair {show(v.fair, v.unit)}: {fair}."


def _against_fair(e: Estimate, fair: float) -> str:
    """Whether one version's interval puts the measure off its fair value."""
    if not e.n:
        return "has no games"
    if e.low > fair:
        return "is above it (its interval excludes it)"
    if e.high < fair:
        return "is below it (its interval excludes it)"
    return "is within it"


def advice(v: Verdict) -> str:
    """How many games it takes, beside the verdict."""
    change = f"{v.detectable * 100:g}-point" if v.unit == "rate" else f"{v.detectable:.3g} {v.unit}"
    if v.needed is None:
        return f"no estimate yet of the games needed to detect a {change} change in {v.measure}"
    have = min(v.games)
    enough = "enough" if have >= v.needed else f"{v.needed - have} more per version"
    level = "5% level" if v.measures == 1 else f"5% level after correcting for {v.measures} measures"
    return (f"to detect a {change} change in {v.measure} you need about {v.needed} games per version "
            f"(80% power, {level}); you have {v.games[0]} and {v.games[1]}: {enough}")


# --- in plain words -------------------------------------------------------------------------

PLAIN_UNITS = {"rate": "points", "turns": "turns", "per match": "per game", "seconds": "seconds",
               "per 100 events": "per 100 events"}
"""What a change in each unit is counted in, in a plain sentence (a rate changes by points)."""


def plain(found: Sequence[Verdict], a: str, b: str) -> list[str]:
    """What a designer reads first, without statistics: the seat balance (whether decided or
    not: it is the question a rule change is usually about), then one sentence for each other
    verdict the corrected test decides, or that nothing else changes clearly. Versions of one
    game are named by their version alone ("2.5", not "mortalgate@2.5")."""
    a, b = short_names(a, b)
    seat = next((v for v in found if v.key == "seat_balance"), None)
    decided = [v for v in found if v.significant and v is not seat]
    lines = [plain_sentence(seat, a, b)] if seat is not None else []
    lines += [plain_sentence(v, a, b) for v in decided]
    missing = [v for v in found if v.missing]
    rest = len(found) - (seat is not None) - len(missing)
    if rest and not decided:
        lines.append(f"Nothing else changes clearly ({rest} other measure{'s' if rest != 1 else ''} compared)." if seat
                     else f"No measure changes clearly ({rest} compared).")
    for why in dict.fromkeys(v.missing for v in missing):
        lines.append(_capital(f"{' and '.join(v.measure for v in missing if v.missing == why)}: n/a, {why}."))
    return lines


def plain_sentence(v: Verdict, a: str, b: str) -> str:
    """One verdict in one sentence a designer reads without statistics: which way the measure
    moved under B, both values, and either that the change is real (the Holm-corrected test,
    so "with 95% confidence" holds over every measure compared) with the range its interval
    gives, or that there is no clear change, how far the interval leaves it open, and how
    many more games per version would tell (the power figure of `advice`)."""
    up, down, what = _plain_words(v)
    median = "a median of " if v.key == "length" else ""
    values = f"{median}{_plain_value(v.b.value, v.unit)} against {_plain_value(v.a.value, v.unit)} under {a}"
    low, high = v.difference.low, v.difference.high
    if not (math.isfinite(low) and math.isfinite(high) and math.isfinite(v.difference.value)):
        return _capital(f"not enough finished games yet to compare {what} between {a} and {b}.")
    between = f"between {_plain_number(low, v.unit, signed=True)} and {_plain_number(high, v.unit, signed=True)} {PLAIN_UNITS.get(v.unit, v.unit)}"
    moved = f"{up if v.difference.value > 0 else down} under {b}"
    if v.significant:
        return _capital(f"{moved}: {values}{_plain_fair(v)}; the change is real with 95% confidence and lies {between}.")
    if low > 0 or high < 0:  # the interval alone excludes no change; the correction for every measure does not
        chance = f"with {v.measures} measures compared this may be chance" if v.measures > 1 else "the test does not rule out chance"
        return _capital(f"maybe {moved}: {values}, {between}; but {chance}; {_plain_more(v)}.")
    return _capital(f"no clear change in {what} between {a} and {b}: {median}{_plain_value(v.b.value, v.unit)} under {b} against "
                    f"{_plain_value(v.a.value, v.unit)} under {a}, and the change could be anywhere {between}; {_plain_more(v)}.")


def _plain_words(v: Verdict) -> tuple[str, str, str]:
    """How the measure of a verdict reads: when it went up, when it went down, and what it is."""
    key = v.key
    if key == "seat_balance":
        side = v.measure.removesuffix("'s win rate")
        return f"{side} wins more often", f"{side} wins less often", f"how often {side} wins"
    if key == "first_player":
        return "the first player wins more often", "the first player wins less often", "how often the first player wins"
    if key.startswith("pick:"):
        piece = key.removeprefix("pick:")
        return (f"sides that pick {piece} win more often", f"sides that pick {piece} win less often",
                f"how often sides that pick {piece} win")
    if key.startswith("rule:"):
        rule = key.removeprefix("rule:")
        return f"tables break {rule} more often", f"tables break {rule} less often", f"how often tables break {rule}"
    return {"length": ("games run longer", "games are shorter", "how long games run"),
            "decisive": ("more games end with a winner", "fewer games end with a winner", "how many games end with a winner"),
            "lead_changes": ("the lead changes more often", "the lead changes less often", "how often the lead changes"),
            "comebacks": ("more games are won from behind at half time", "fewer games are won from behind at half time",
                          "how many games are won from behind at half time"),
            "pacing": ("turns take longer at the table", "turns go faster at the table", "how long turns take at the table"),
            "decided_when": ("games are decided later", "games are decided earlier", "how far into a game it is decided"),
            "chance_lead_changes": ("the likely winner changes more often", "the likely winner changes less often",
                                    "how often the likely winner changes"),
            }.get(key, (f"{v.measure} is higher", f"{v.measure} is lower", v.measure))


def _plain_number(x: float, unit: str, *, signed: bool = False) -> str:
    """A number as a designer reads it: rates in whole percent (points), the rest to one
    decimal below ten; no sign on zero and no ".0"."""
    shown = x * 100 if unit == "rate" else x
    digits = 0 if abs(shown) >= (1 if unit == "rate" else 10) else 1
    text = f"{abs(shown):.{digits}f}".removesuffix(".0")
    if text in ("0", "0.0"):
        return "0"
    return ("-" if shown < 0 else "+" if signed else "") + text


def _plain_value(x: float, unit: str) -> str:
    """One version's value with its unit ("58%", "34 turns", "0.8 per 100 events")."""
    if not math.isfinite(x):
        return "unknown"
    number = _plain_number(x, unit)
    return f"{number}%" if unit == "rate" else f"{number} {PLAIN_UNITS.get(unit, unit)}"


def _plain_fair(v: Verdict) -> str:
    """For a balance measure: whether B moved towards its fair value or away from it."""
    if v.fair is None or not (math.isfinite(v.a.value) and math.isfinite(v.b.value)):
        return ""
    off_a, off_b = abs(v.a.value - v.fair), abs(v.b.value - v.fair)
    how = "as far from" if math.isclose(off_a, off_b) else "further from" if off_b > off_a else "closer to"
    return f", {how} a fair {_plain_value(v.fair, v.unit)}"


def _plain_more(v: Verdict) -> str:
    """How many more games per version would tell (the verdict's power figure)."""
    change = f"{_plain_number(v.detectable, v.unit)} {PLAIN_UNITS.get(v.unit, v.unit)}" if math.isfinite(v.detectable) else "this size"
    if v.needed is None:
        return "there is no estimate yet of how many games would tell"
    have = min(v.games)
    if have >= v.needed:
        return f"{have} games per version would have shown a change of {change}, so any change is likely smaller"
    return f"about {v.needed - have} more games per version would tell a change of {change}"


def short_names(a: str, b: str) -> tuple[str, str]:
    """Two versions of one game by their version alone (the game is said once, elsewhere);
    anything else as given."""
    game_a, _, version_a = a.partition("@")
    game_b, _, version_b = b.partition("@")
    return (version_a, version_b) if game_a == game_b and version_a and version_b else (a, b)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- interval helpers (the libraries do the statistics) -------------------------------------


def wilson(successes: int, n: int) -> Estimate:
    """A rate with its Wilson interval (statsmodels)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    low, high = proportion.proportion_confint(successes, n, alpha=1 - LEVEL, method="wilson")
    return Estimate(successes / n, float(low), float(high), n)


def mean_interval(values: Sequence[float]) -> Estimate:
    """A mean with its t interval (scipy)."""
    x = np.asarray(values, dtype=float)
    if len(x) == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    if len(x) < 2 or np.ptp(x) == 0:
        return Estimate(float(x.mean()), float(x.mean()), float(x.mean()), len(x)) if len(x) >= 2 else Estimate(float(x[0]), -math.inf, math.inf, 1)
    ci = stats.ttest_1samp(x, 0).confidence_interval(LEVEL)
    return Estimate(float(x.mean()), float(ci.low), float(ci.high), len(x))


def _paired(pairs: Sequence[tuple[float, float]]) -> Estimate | None:
    """The mean of B - A over paired games with its paired-t interval (scipy)."""
    if len(pairs) < 3:
        return None
    a, b = (np.asarray(side, dtype=float) for side in zip(*pairs, strict=True))
    diff = b - a
    if np.ptp(diff) == 0:
        return None  # no variation in either version: pairing has nothing to narrow
    ci = stats.ttest_rel(b, a).confidence_interval(LEVEL)
    return Estimate(float(diff.mean()), float(ci.low), float(ci.high), len(diff))


@dataclass(frozen=True)
class Plan:
    """A sample-size question for statsmodels' power solvers: the test and its effect size
    (plain data, so verdicts pickle into the dashboard's cache)."""

    test: str
    """"rates" (Cohen's h, normal power), "means" (Cohen's d, t-test power) or "poisson"."""
    effect: float
    """Cohen's h or d; for "poisson", the violations per event to see doubled."""
    events_per_game: float = 1.0

    def games(self, alpha: float) -> int | None:
        """Games per version for 80% power at significance `alpha`; None where unsolvable."""
        try:
            n = float(self._solve(alpha))
        except (ValueError, RuntimeError, ZeroDivisionError, FloatingPointError):
            return None
        return math.ceil(n) if math.isfinite(n) and n > 0 else None

    def _solve(self, alpha: float) -> float:
        if self.test == "rates":
            return float(power.NormalIndPower().solve_power(effect_size=self.effect, alpha=alpha, power=POWER))
        if self.test == "means":
            return float(power.TTestIndPower().solve_power(effect_size=self.effect, alpha=alpha, power=POWER))
        base = self.effect
        events = optimize.brentq(
            lambda n: float(rates.power_poisson_diff_2indep(base, 2 * base, n, alpha=alpha).power) - POWER, 1.0, 1e9)
        return float(events) / self.events_per_game


def rates_verdict(key: str, question: str, measure: str, a: tuple[int, int], b: tuple[int, int], *,
                  detectable: float = 0.05, games: tuple[int, int] | None = None, fair: float | None = None,
                  pairs: Sequence[tuple[float, float]] = ()) -> Verdict:
    """Two rates (successes, trials): Wilson intervals, Newcombe's interval for the
    difference, Fisher's exact test, Cohen's h, and the trials needed to see `detectable`."""
    ea, eb = wilson(*a), wilson(*b)
    if ea.n and eb.n:
        low, high = proportion.confint_proportions_2indep(b[0], b[1], a[0], a[1], method="newcomb", compare="diff", alpha=1 - LEVEL)
        p = float(stats.fisher_exact([[a[0], a[1] - a[0]], [b[0], b[1] - b[0]]]).pvalue)
        effect = float(proportion.proportion_effectsize(eb.value, ea.value))
        # The change is centred on the rate seen over both cohorts (A and B on either side of
        # it), kept inside [0, 1]: stepping up from the pooled rate understated the games by
        # a fifth for blue 68.8% -> 51.2% (benchmarks/bias.py).
        base = (a[0] + b[0]) / (a[1] + b[1])
        low_end = min(max(base - detectable / 2, 0.0), 1.0 - detectable)
        h = abs(float(proportion.proportion_effectsize(low_end + detectable, low_end)))
        plan = Plan("rates", h) if h > 0 else None
    else:
        low = high = p = effect = math.nan
        plan = None
    difference = Estimate(eb.value - ea.value, float(low), float(high), ea.n + eb.n)
    return Verdict(key=key, question=question, measure=measure, unit="rate", a=ea, b=eb, difference=difference,
                   test="Fisher's exact", p_value=p, effect=effect, effect_name="Cohen's h", detectable=detectable,
                   needed=plan.games(1 - LEVEL) if plan else None, plan=plan, games=games or (a[1], b[1]),
                   fair=fair, paired=_paired(pairs))


def means_verdict(key: str, question: str, measure: str, unit: str, a: Sequence[float], b: Sequence[float], *,
                  detectable: float, games: tuple[int, int] | None = None,
                  pairs: Sequence[tuple[float, float]] = ()) -> Verdict:
    """Two means: t intervals, Welch's test and interval for the difference, Cohen's d, and
    the games needed to see `detectable` (t-test power)."""
    ea, eb = mean_interval(a), mean_interval(b)
    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    low = high = p = effect = math.nan
    plan = None
    if len(xa) >= 2 and len(xb) >= 2:
        pooled = math.sqrt(((len(xa) - 1) * xa.var(ddof=1) + (len(xb) - 1) * xb.var(ddof=1)) / (len(xa) + len(xb) - 2))
        if pooled > 0:
            welch = stats.ttest_ind(xb, xa, equal_var=False)
            ci = welch.confidence_interval(LEVEL)
            low, high, p = float(ci.low), float(ci.high), float(welch.pvalue)
            effect = (eb.value - ea.value) / pooled
            plan = Plan("means", detectable / pooled)
        else:
            low = high = eb.value - ea.value
            p = 1.0 if low == 0 else 0.0
    difference = Estimate(eb.value - ea.value, low, high, len(xa) + len(xb))
    return Verdict(key=key, question=question, measure=measure, unit=unit, a=ea, b=eb, difference=difference,
                   test="Welch's t", p_value=p, effect=effect, effect_name="Cohen's d", detectable=detectable,
                   needed=plan.games(1 - LEVEL) if plan else None, plan=plan, games=games or (len(xa), len(xb)),
                   paired=_paired(pairs))


# --- game length, censored ----------------------------------------------------------------------


def censored(turns: Numbers, finished: Flags) -> stats.CensoredData:
    """Lengths where an unfinished game only says "at least this long" (right-censored)."""
    t, f = np.asarray(turns, dtype=float), np.asarray(finished, dtype=bool)
    return stats.CensoredData(uncensored=t[f], right=t[~f])


def survival(turns: Numbers, finished: Flags) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kaplan-Meier: times, share of games still running after each, and its 95% band."""
    fit = stats.ecdf(censored(turns, finished)).sf
    with warnings.catch_warnings():  # the band is undefined where every game is over: left at 0
        warnings.simplefilter("ignore", RuntimeWarning)
        band = fit.confidence_interval(LEVEL)
    return fit.quantiles, fit.probabilities, band.low.probabilities, band.high.probabilities


def median_length(turns: Numbers, finished: Flags) -> Estimate:
    """The Kaplan-Meier median length with the interval where its 95% band crosses one half."""
    if not any(finished):
        return Estimate(math.nan, math.nan, math.nan, len(turns))
    times, sf, low, high = survival(turns, finished)

    def first_at_half(curve: np.ndarray) -> float:
        below = np.nonzero(curve <= 0.5)[0]
        return float(times[below[0]]) if len(below) else math.inf

    return Estimate(first_at_half(sf), first_at_half(low), first_at_half(high), len(turns))


def length_verdict(a: Sequence[tuple[float, bool]], b: Sequence[tuple[float, bool]], *, seed: int = 0,
                   resamples: int = 400, relative: float = 0.10) -> Verdict:
    """Median length in turns with unfinished games censored: Kaplan-Meier medians, a
    bootstrap interval for their difference, the log-rank test, the ratio of medians, and
    the games needed to see a `relative` change (t-test power on log turns)."""
    ta, fa = _split(a)
    tb, fb = _split(b)
    ea, eb = median_length(ta, fa), median_length(tb, fb)
    low = high = p = math.nan
    plan = None
    if fa.any() and fb.any():
        p = float(stats.logrank(censored(ta, fa), censored(tb, fb)).pvalue)
        rng = np.random.default_rng(seed)
        draws = []
        for _ in range(resamples):
            ia, ib = rng.integers(0, len(ta), len(ta)), rng.integers(0, len(tb), len(tb))
            if fa[ia].any() and fb[ib].any():
                draws.append(_median_only(tb[ib], fb[ib]) - _median_only(ta[ia], fa[ia]))
        finite = [d for d in draws if math.isfinite(d)]
        if finite:
            low, high = (float(q) for q in np.percentile(finite, [(1 - LEVEL) / 2 * 100, (1 + LEVEL) / 2 * 100]))
        logs = np.log(np.concatenate([ta, tb]).clip(min=1))
        if logs.std(ddof=1) > 0:
            d = math.log(1 + relative) / float(logs.std(ddof=1))
            plan = Plan("means", d)
    ratio = eb.value / ea.value if ea.value else math.nan
    difference = Estimate(eb.value - ea.value, low, high, len(ta) + len(tb))
    detectable = relative * ea.value if math.isfinite(ea.value) else math.nan
    return Verdict(key="length", question="How long does a game run (unfinished games censored)?",
                   measure="median length in turns", unit="turns", a=ea, b=eb, difference=difference,
                   test="log-rank", p_value=p, effect=ratio, effect_name="ratio of medians", detectable=detectable,
                   needed=plan.games(1 - LEVEL) if plan else None, plan=plan, games=(len(ta), len(tb)))


def _median_only(turns: np.ndarray, finished: np.ndarray) -> float:
    """The Kaplan-Meier median alone (for the bootstrap): with nothing censored it is the
    ceil(n/2)-th shortest game, which needs no curve; otherwise scipy's curve."""
    if finished.all():
        return float(np.partition(turns, (len(turns) + 1) // 2 - 1)[(len(turns) + 1) // 2 - 1])
    return median_length(turns, finished).value


def _split(games: Sequence[tuple[float, bool]]) -> tuple[np.ndarray, np.ndarray]:
    return (np.asarray([g[0] for g in games], dtype=float), np.asarray([bool(g[1]) for g in games], dtype=bool))


# --- violation rates ---------------------------------------------------------------------------


def poisson_rate(count: int, events: int) -> Estimate:
    """Violations per 100 events with the exact (Garwood) interval."""
    if events == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    low, high = rates.confint_poisson(count, events, method="exact-c", alpha=1 - LEVEL)
    return Estimate(100 * count / events, 100 * float(low), 100 * float(high), events)


def rule_verdict(rule: str, a: tuple[int, int], b: tuple[int, int], games: tuple[int, int]) -> Verdict:
    """How often one rule is broken per 100 events (counts over events played): exact
    Poisson intervals, the score test and interval for the difference of rates, the rate
    ratio, and the games needed to see the rate double."""
    ea, eb = poisson_rate(*a), poisson_rate(*b)
    low, high = rates.confint_poisson_2indep(b[0], b[1], a[0], a[1], compare="diff", method="score", alpha=1 - LEVEL)
    p = float(rates.test_poisson_2indep(b[0], b[1], a[0], a[1], compare="ratio", method="score").pvalue)
    ratio = eb.value / ea.value if ea.value else math.inf
    per_game = (a[1] + b[1]) / max(sum(games), 1)
    base = (a[0] + b[0]) / max(a[1] + b[1], 1)
    plan = Plan("poisson", base, per_game) if base > 0 else None
    difference = Estimate(eb.value - ea.value, 100 * float(low), 100 * float(high), a[1] + b[1])
    return Verdict(key=f"rule:{rule}", question=f"How often do tables break {rule}?", measure=f"{rule} per 100 events",
                   unit="per 100 events", a=ea, b=eb, difference=difference, test="Poisson score", p_value=p,
                   effect=ratio, effect_name="rate ratio", detectable=100 * base,
                   needed=plan.games(1 - LEVEL) if plan else None, plan=plan, games=games)


# --- from match rows to verdicts ------------------------------------------------------------


def _finished(rows: Iterable[Row]) -> list[Row]:
    return [r for r in rows if r["finished"]]


def _pairs(a: Iterable[Row], b: Iterable[Row], value: Callable[[Row], float | None]) -> list[tuple[float, float]]:
    """Per-game values of the games both cohorts played from the same seed."""
    by_seed = {r["seed"]: r for r in a if r.get("seed") is not None}
    out = []
    for rb in b:
        ra = by_seed.get(rb.get("seed"))
        if ra is not None:
            va, vb = value(ra), value(rb)
            if va is not None and vb is not None:
                out.append((float(va), float(vb)))
    return out


def _favoured(a: Sequence[Row], b: Sequence[Row]) -> tuple[str, int] | None:
    """The side that wins most often over both cohorts, and how many sides there are."""
    sides = sorted({s for r in (*a, *b) for s in (r["sides"] or ())})
    if not sides:
        return None
    wins = {s: sum(r["winner"] == s for r in _finished([*a, *b])) for s in sides}
    return max(sides, key=lambda s: (wins[s], s)), len(sides)


def seat_balance(a: Sequence[Row], b: Sequence[Row], *, detect: float = DETECT) -> Verdict | None:
    """Is one seat or side favoured? The most-winning side's win rate in finished games,
    against its fair share (one in the number of sides)."""
    found = _favoured(a, b)
    if found is None:
        return None
    side, count = found
    fa, fb = _finished(a), _finished(b)

    def won(r: Row) -> float | None:
        return float(r["winner"] == side) if r["finished"] else None

    return rates_verdict("seat_balance", "Is one seat or side favoured?", f"{side}'s win rate",
                         (sum(r["winner"] == side for r in fa), len(fa)), (sum(r["winner"] == side for r in fb), len(fb)),
                         fair=1 / count, games=(len(a), len(b)), pairs=_pairs(a, b, won), detectable=detect)


def first_player(a: Sequence[Row], b: Sequence[Row], *, detect: float = DETECT) -> Verdict | None:
    """Does whoever takes the first turn win too often? (fair: one in the number of sides)"""
    fa, fb = ([r for r in _finished(c) if r["first_side"] is not None] for c in (a, b))
    if not fa and not fb:
        return None
    count = max((len(r["sides"] or ()) for r in (*fa, *fb)), default=2) or 2

    def won(r: Row) -> float | None:
        return float(r["winner"] == r["first_side"]) if r["finished"] and r["first_side"] is not None else None

    return rates_verdict("first_player", "Does the first player win too often?", "the first player's win rate",
                         (sum(r["winner"] == r["first_side"] for r in fa), len(fa)),
                         (sum(r["winner"] == r["first_side"] for r in fb), len(fb)), fair=1 / count,
                         games=(len(a), len(b)), pairs=_pairs(a, b, won), detectable=detect)


def pick_balance(a: Sequence[Row], b: Sequence[Row], *, detect: float = DETECT) -> list[Verdict]:
    """Each hero, faction, race or unit: its side's win rate when it is picked."""

    def counts(rows: Sequence[Row]) -> dict[str, tuple[int, int]]:
        tally: dict[str, list[int]] = {}
        for r in _finished(rows):
            for pick in r["picks"] or ():
                entry = tally.setdefault(pick["piece"], [0, 0])
                entry[0] += r["winner"] == pick["side"]
                entry[1] += 1
        return {piece: (wins, n) for piece, (wins, n) in tally.items()}

    ca, cb = counts(a), counts(b)
    return [rates_verdict(f"pick:{piece}", f"Is {piece} too strong or too weak?", f"{piece}'s win rate when picked",
                          ca.get(piece, (0, 0)), cb.get(piece, (0, 0)), games=(len(a), len(b)), detectable=detect)
            for piece in sorted(set(ca) & set(cb))]


def decisiveness(a: Sequence[Row], b: Sequence[Row], *, detect: float = DETECT) -> Verdict:
    """How many games end with a winner (not a draw, not abandoned or cut off)."""

    def decided(r: Row) -> float:
        return float(r["winner"] is not None)

    return rates_verdict("decisive", "How many games end with a winner?", "games with a winner",
                         (sum(r["winner"] is not None for r in a), len(a)), (sum(r["winner"] is not None for r in b), len(b)),
                         pairs=_pairs(a, b, decided), detectable=detect)


NO_SCORE = "the game gives no `score` metric to read them from (its `metrics`, level 5)"
"""Why lead changes and comebacks are n/a: the warehouse reads both from the score."""


def unavailable(key: str, question: str, measure: str, unit: str, games: tuple[int, int], why: str) -> Verdict:
    """A measure the game gives nothing to read from: every figure n/a, not a 0 that reads as
    "never happens"."""
    none = Estimate(math.nan, math.nan, math.nan, 0)
    return Verdict(key=key, question=question, measure=measure, unit=unit, a=none, b=none, difference=none, test="n/a",
                   p_value=math.nan, effect=math.nan, effect_name="", detectable=math.nan, needed=None, games=games,
                   missing=why)


def _scored(rows: Iterable[Row], column: str) -> list[Row]:
    """The rows of matches the warehouse could read `column` from (their game gives a score)."""
    return [r for r in rows if r[column] is not None]


def lead_changes(a: Sequence[Row], b: Sequence[Row]) -> Verdict:
    """How often the side ahead changes in a finished game (n/a for a game without a score)."""
    fa, fb = _scored(_finished(a), "lead_changes"), _scored(_finished(b), "lead_changes")
    if not fa and not fb and (_finished(a) or _finished(b)):
        return unavailable("lead_changes", "How often does the lead change?", "lead changes per game", "per match",
                           (len(a), len(b)), NO_SCORE)
    return means_verdict("lead_changes", "How often does the lead change?", "lead changes per game", "per match",
                         [r["lead_changes"] for r in fa], [r["lead_changes"] for r in fb], detectable=0.5,
                         games=(len(a), len(b)),
                         pairs=_pairs(a, b, lambda r: r["lead_changes"] if r["finished"] else None))


def decided_when(a: Sequence[float], b: Sequence[float], *, pairs: Sequence[tuple[float, float]] = (),
                 detect: float = DETECT) -> Verdict:
    """How far into a game (its share of the game's events) the winner's chance to win, as
    bots playing the rest out measure it, stays at 90% or more; a game never decided so
    counts as decided at its end. Lower: decided earlier (a runaway leader)."""
    return means_verdict("decided_when", "How early are games decided?", "share of the game played when it is decided",
                         "rate", a, b, detectable=2 * detect, pairs=pairs)


def chance_lead_changes(a: Sequence[float], b: Sequence[float], *, pairs: Sequence[tuple[float, float]] = ()) -> Verdict:
    """How often the seat most likely to win (by the bots' rollouts) changes in a game."""
    return means_verdict("chance_lead_changes", "How often does the likely winner change?",
                         "changes of the likely winner per game", "per match", a, b, detectable=0.5, pairs=pairs)


def comebacks(a: Sequence[Row], b: Sequence[Row], *, detect: float = DETECT) -> Verdict:
    """How often the winner was behind at half time (n/a for a game without a score)."""
    won = [[r for r in _finished(c) if r["winner"] is not None] for c in (a, b)]
    da, db = (_scored(rows, "comeback") for rows in won)
    if not da and not db and any(won):
        return unavailable("comebacks", "Can a side behind at half time still win?", "comebacks (winner behind at half time)",
                           "rate", (len(a), len(b)), NO_SCORE)
    return rates_verdict("comebacks", "Can a side behind at half time still win?", "comebacks (winner behind at half time)",
                         (sum(bool(r["comeback"]) for r in da), len(da)), (sum(bool(r["comeback"]) for r in db), len(db)),
                         games=(len(a), len(b)),
                         pairs=_pairs(a, b, lambda r: float(bool(r["comeback"])) if r["finished"] and r["winner"] is not None
                                      and r["comeback"] is not None else None),
                         detectable=detect)


def pacing(a: Sequence[Row], b: Sequence[Row]) -> Verdict | None:
    """Seconds per turn at the table (each match's median): human logs only."""
    xa, xb = ([r["median_turn_seconds"] for r in c if r["source"] != "simulation" and r["median_turn_seconds"] is not None]
              for c in (a, b))
    if len(xa) < 2 or len(xb) < 2:
        return None
    return means_verdict("pacing", "Do turns take longer at the table?", "seconds per turn (median of each match)",
                         "seconds", xa, xb, detectable=10.0, games=(len(a), len(b)))


def broken_rules(a: Sequence[Row], b: Sequence[Row]) -> list[Verdict]:
    """The rules broken most often (over both cohorts), each as a rate per 100 events."""

    def counts(rows: Sequence[Row]) -> dict[str, int]:
        tally: dict[str, int] = {}
        for r in rows:
            for rule in r["broken"] or ():
                tally[rule] = tally.get(rule, 0) + 1
        return tally

    ca, cb = counts(a), counts(b)
    events_a, events_b = sum(r["events"] for r in a), sum(r["events"] for r in b)
    if not events_a or not events_b:
        return []
    top = sorted(set(ca) | set(cb), key=lambda rule: (-(ca.get(rule, 0) + cb.get(rule, 0)), rule))[:RULES_SHOWN]
    return [rule_verdict(rule, (ca.get(rule, 0), events_a), (cb.get(rule, 0), events_b), (len(a), len(b))) for rule in top]


def verdicts(a: Sequence[Row], b: Sequence[Row], *, seed: int = 0, detect: float = DETECT) -> list[Verdict]:
    """Every verdict for cohorts A and B, p-values Holm-corrected over all of them; the
    games-needed advice of the rate measures is about a change of `detect` (0.05: 5 points).

    Refuses to pool: both cohorts must be bot games, or both human logs.
    """
    if not 0 < detect < 1:
        raise ValueError(f"detect {detect}: a change in a rate between 0 and 1 (0.05 is 5 points)")
    kinds = {r["source"] == "simulation" for r in (*a, *b)}
    if len(kinds) > 1:
        raise ValueError("a cohort mixes bot games and human logs; compare bots with bots and playtests with playtests")
    found: list[Verdict | None] = [seat_balance(a, b, detect=detect), first_player(a, b, detect=detect), *pick_balance(a, b, detect=detect),
                                   length_verdict([(r["turns"], r["finished"]) for r in a], [(r["turns"], r["finished"]) for r in b], seed=seed),
                                   decisiveness(a, b, detect=detect), lead_changes(a, b), comebacks(a, b, detect=detect), pacing(a, b),
                                   *broken_rules(a, b)]
    return holm([v for v in found if v is not None])


def holm(found: Sequence[Verdict]) -> list[Verdict]:
    """The verdicts with Holm-corrected p-values (statsmodels), and the games each needs at
    the corrected level (5% over the number of measures); an untestable one counts as 1, a
    measure the game gives nothing to read from (`missing`) not at all."""
    tested = [v for v in found if not v.missing]
    raw = [v.p_value if math.isfinite(v.p_value) else 1.0 for v in tested]
    if not raw:
        return list(found)
    adjusted = iter(multitest.multipletests(raw, alpha=1 - LEVEL, method="holm")[1])
    level = (1 - LEVEL) / len(tested)
    out = []
    for v in found:
        if v.missing:
            out.append(v)
            continue
        p = next(adjusted)
        out.append(replace(v, p_adjusted=float(p) if math.isfinite(v.p_value) else math.nan, measures=len(tested),
                           needed=v.plan.games(level) if v.plan else v.needed))
    return out


def table(found: Sequence[Verdict]) -> list[dict[str, Any]]:
    """Verdicts as rows (for the CLI, CSV/JSON and the dashboard); a measure the game gives
    nothing to read from is n/a throughout."""
    def shown(e: Estimate, v: Verdict, signed: bool = False) -> str:
        return "n/a" if v.missing else show_interval(e, v.unit, signed=signed)

    return [{"measure": v.key, "a": shown(v.a, v), "n_a": v.a.n, "b": shown(v.b, v), "n_b": v.b.n,
             "difference": shown(v.difference, v, signed=True), "p_holm": show_p(v.p_adjusted),
             "effect": f"{v.effect_name} {v.effect:.2f}" if math.isfinite(v.effect) else "n/a",
             "paired_narrowing": "" if v.narrowing is None else f"{v.narrowing * 100:.0f}%" if v.narrowing > 0 else "none",
             "games_needed": v.needed if v.needed is not None else "n/a"} for v in found]
