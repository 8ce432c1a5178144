"""Balance verdicts: the numbers are the libraries' on the same counts, a bias of known size
is found at the sample size the verdict states, and the 95% intervals cover the truth about
95% of the time over repeated cohorts (cheap synthetic draws; BENCHMARKS.md, "Interval coverage", has the
measured figures)."""

from __future__ import annotations

import itertools
import json
import math
import re
from typing import Any

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from projections.stats import verdicts


def game(i: int, *, winner: str | None, turns: int = 100, finished: bool = True, source: str = "simulation",
         seed: int | None = None, lead_changes: int = 0, comeback: bool = False) -> dict[str, Any]:
    """One row of match_outcomes."""
    return {"match_id": f"m{i}", "source": source, "seed": seed if seed is not None else i, "finished": finished,
            "winner": winner if finished else None, "first_side": "red", "sides": ["blue", "red"],
            "picks": [{"side": "blue", "piece": "hawk"}, {"side": "red", "piece": "wolf"}], "turns": turns,
            "events": 3 * turns, "lead_changes": lead_changes, "comeback": comeback, "broken": [],
            "median_turn_seconds": None}


def cohort(rng: np.random.Generator, n: int, blue: float) -> list[dict[str, Any]]:
    return [game(i, winner="blue" if rng.random() < blue else "red", turns=int(rng.integers(80, 120)),
                 lead_changes=int(rng.poisson(2))) for i in range(n)]


def test_a_rate_verdict_is_wilson_newcombe_and_fisher_on_the_same_counts() -> None:
    v = verdicts.rates_verdict("x", "?", "blue's win rate", (30, 50), (42, 50))
    low, high = proportion_confint(42, 50, method="wilson")
    assert (v.b.value, v.b.low, v.b.high) == pytest.approx((0.84, low, high))
    assert v.p_value == pytest.approx(stats.fisher_exact([[30, 20], [42, 8]]).pvalue)
    assert v.difference.value == pytest.approx(0.24) and v.difference.low < 0.24 < v.difference.high
    assert v.effect == pytest.approx(2 * math.asin(math.sqrt(0.84)) - 2 * math.asin(math.sqrt(0.6)))


def test_holm_corrects_for_the_number_of_measures() -> None:
    found = verdicts.holm([verdicts.rates_verdict(f"m{i}", "?", "m", (10, 40), (10 + 4 * i, 40)) for i in range(4)])
    raw = sorted(v.p_value for v in found)
    adjusted = sorted(v.p_adjusted for v in found)
    assert adjusted[0] == pytest.approx(min(1.0, 4 * raw[0])) and all(v.measures == 4 for v in found)


def test_unfinished_games_are_censored_not_dropped() -> None:
    """Kaplan-Meier median: four finished games of 10, 20, 30, 40 turns and four cut off at
    50 (still running): half the games are over by 40, not by 20 as dropping them says."""
    length = verdicts.median_length([10, 20, 30, 40, 50, 50, 50, 50], [True] * 4 + [False] * 4)
    assert length.value == 40
    assert verdicts.median_length([10, 20, 30, 40], [True] * 4).value == 20


def test_bot_games_and_playtests_are_never_pooled() -> None:
    with pytest.raises(ValueError, match="mixes bot games and human logs"):
        verdicts.verdicts([game(0, winner="red"), game(1, winner="red", source="playtest")], [game(2, winner="blue")])


def test_a_side_favoured_more_under_b_is_called_less_balanced() -> None:
    rng = np.random.default_rng(5)
    found = {v.key: v for v in verdicts.verdicts(cohort(rng, 400, 0.5), cohort(rng, 400, 0.62))}
    seat = found["seat_balance"]
    assert seat.measure == "blue's win rate" and seat.significant
    assert "B is less balanced than A in blue's win rate" in verdicts.sentence(seat, "A", "B")
    assert "you need about" in verdicts.advice(seat)
    assert not found["lead_changes"].significant


def test_pairing_narrows_the_interval_when_paired_games_agree() -> None:
    rng = np.random.default_rng(9)
    a = cohort(rng, 200, 0.55)
    b = [dict(r, winner=r["winner"] if rng.random() < 0.9 else "red") for r in a]  # same seeds, mostly the same result
    seat = verdicts.seat_balance(a, b)
    assert seat is not None and seat.paired is not None and seat.narrowing is not None and seat.narrowing > 0.3


def test_a_known_bias_is_detected_at_the_stated_sample_size() -> None:
    """A designer variant where blue wins 60% instead of 50%: at the games per version the
    verdict says a 10-point change needs, about 80% of cohorts detect it."""
    needed = verdicts.rates_verdict("seat_balance", "?", "blue", (55, 100), (55, 100), detectable=0.10).needed
    assert needed is not None and 350 < needed < 450
    rng = np.random.default_rng(1)
    found = [verdicts.rates_verdict("s", "?", "b", (int(rng.binomial(needed, 0.5)), needed), (int(rng.binomial(needed, 0.6)), needed))
             for _ in range(300)]
    power = np.mean([v.p_value < 0.05 for v in found])
    assert 0.7 <= power <= 0.9, power


def test_the_95_percent_intervals_cover_the_true_difference_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(2)
    covered = {"rate difference": 0, "rate": 0, "mean difference": 0}
    runs = 1000
    for _ in range(runs):
        v = verdicts.rates_verdict("s", "?", "b", (int(rng.binomial(80, 0.5)), 80), (int(rng.binomial(80, 0.6)), 80))
        covered["rate difference"] += v.difference.low <= 0.1 <= v.difference.high
        covered["rate"] += v.b.low <= 0.6 <= v.b.high
        m = verdicts.means_verdict("l", "?", "m", "per match", rng.poisson(2.0, 60), rng.poisson(2.5, 60), detectable=0.5)
        covered["mean difference"] += m.difference.low <= 0.5 <= m.difference.high
    for name, hits in covered.items():
        assert 0.93 <= hits / runs <= 0.975, (name, hits / runs)


HEAD_START = 'extends = "mortalgate@2.5"\ntitle = "Red starts with {grace} Grace"\n[params]\nstarting_grace = [{grace}, 0]\n'
"""A designer variant of known bias: one rule parameter, red's Grace meter at setup."""


def test_a_grace_head_start_is_detected_at_the_games_the_verdict_asks_for(tmp_path: Any) -> None:
    """A designer writes `red6.toml` (2.5, red's Grace meter starts at 6 of 20). Blue wins
    about two games in three under 2.5; the head start hands them to red. The designer asks a
    20-game comparison how many games a 30-point change needs, runs that many from other
    seeds, and seat balance is called (after Holm) in the right direction, with the numbers
    side_win_rates gives on the same games. benchmarks/bias.py measures the detection rate
    and interval coverage of a 3-Grace head start over many cohorts (BENCHMARKS.md)."""
    from tests.cli_support import run

    home, trial = tmp_path / "store", tmp_path / "trial"  # the trial's games kept out of side_win_rates below
    for store in (home, trial):
        (store / "variants").mkdir(parents=True)
        (store / "variants" / "red6.toml").write_text(HEAD_START.format(grace=6))
    pilot = ("compare-versions", "mortalgate@2.5", "mortalgate@red6", "--workers", "1", "--detect", "0.35", "--format", "json")
    code, out, err = run(trial, *pilot, "--games", "16", "--seed", "100")
    assert code == 0, err
    needed = next(row for row in json.loads(out) if row["measure"] == "seat_balance")["games_needed"]
    assert isinstance(needed, int) and 20 < needed < 80, needed  # 35 points at 5% over ~14 measures, 80% power
    code, out, err = run(home, *pilot[:-2], "--games", str(needed), "--seed", "1")
    assert code == 0, err
    said = next(line for line in out.splitlines() if line.startswith("- Is one seat or side favoured?"))
    assert re.search(r"mortalgate@red6 is (more|less) balanced than mortalgate@2.5 in (red|blue)'s win rate", said), said
    assert f"you have {needed} and {needed}: enough" in said and "seat_balance" in out.strip().splitlines()[-1]
    side = re.search(r"in (red|blue)'s win rate", said)[1]  # type: ignore[index]
    code, out, _ = run(home, "query", "side_win_rates", "--param", "ruleset=mortalgate", "--format", "json")
    rates = {r["version"]: r["win_rate"] for r in json.loads(out) if r["side"] == "red"}
    assert rates["2.5"] < 0.5 < rates["red6"]  # the head start moved the wins toward red
    shown = rates if side == "red" else {version: 1 - rate for version, rate in rates.items()}
    assert f"mortalgate@red6 {shown['red6'] * 100:.1f}% [" in said and f"mortalgate@2.5 {shown['2.5'] * 100:.1f}% [" in said


def test_a_starting_grace_that_is_not_two_counts_is_refused_in_one_line(tmp_path: Any) -> None:
    from tests.cli_support import run

    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "odd.toml").write_text('extends = "mortalgate@2.5"\n[params]\nstarting_grace = [3]\n')
    code, _, err = run(tmp_path, "rules", "mortalgate@odd")
    assert code == 2 and "odd.toml" in err and "starting_grace" in err and len(err.strip().splitlines()) == 1


def test_a_bias_that_only_swaps_sides_is_called_as_unbalanced() -> None:
    found = verdicts.holm([verdicts.rates_verdict("seat_balance", "?", "blue's win rate", (30, 100), (70, 100), fair=0.5)])
    text = verdicts.sentence(found[0], "2.1", "2.5")
    assert text.startswith("2.5 is as unbalanced as 2.1 in blue's win rate: 2.5 70.0% [60.4, 78.1] vs 2.1 30.0% [21.9, 39.6]")
    assert "p < 0.001 (Holm, 1 measure)" in text and "2.1 is below it (its interval excludes it)" in text


def test_alpha_spending_uses_the_whole_budget_only_at_the_last_look() -> None:
    from projections.corpus.sequential import spent

    looks = [spent(k / 5) for k in range(6)]
    assert looks[0] == 0 and looks[-1] == pytest.approx(0.05) and all(b > a for a, b in itertools.pairwise(looks))
    assert looks[1] < 0.0001  # a first round of a fifth of the games cannot decide on luck


def test_a_look_decides_differs_or_no_change_within_the_margin() -> None:
    from projections.corpus.sequential import decide

    far = verdicts.rates_verdict("seat_balance", "?", "b", (200, 400), (300, 400))
    close = verdicts.rates_verdict("seat_balance", "?", "b", (1000, 2000), (1010, 2000))
    assert decide(far, 0.01, 0.05) == "differs"
    assert decide(close, 0.01, 0.05) == "no change larger than 5 points"
    assert decide(verdicts.rates_verdict("s", "?", "b", (10, 20), (12, 20)), 0.01, 0.05) is None


def test_pacing_is_measured_on_human_logs_only() -> None:
    def timed(i: int, seconds: float, source: str) -> dict[str, Any]:
        return dict(game(i, winner="red", source=source), median_turn_seconds=seconds)

    human_a = [timed(i, s, "playtest") for i, s in enumerate((40.0, 50.0, 60.0))]
    human_b = [timed(i, s, "playtest") for i, s in enumerate((70.0, 80.0, 90.0))]
    v = verdicts.pacing(human_a, human_b)
    assert v is not None and v.a.value == 50.0 and v.difference.value == 30.0
    welch = stats.ttest_ind([70, 80, 90], [40, 50, 60], equal_var=False)
    assert v.p_value == pytest.approx(welch.pvalue)
    assert verdicts.pacing([timed(i, 5.0, "simulation") for i in range(3)], [timed(i, 5.0, "simulation") for i in range(3)]) is None


def test_pairing_that_does_not_narrow_the_interval_says_none() -> None:
    """Paired games that disagree more than unpaired ones would: the table says pairing did
    not help instead of a negative narrowing."""
    rng = np.random.default_rng(3)
    a = cohort(rng, 40, 0.5)
    b = [dict(r, winner="red" if r["winner"] == "blue" else "blue") for r in a]  # every pair disagrees
    [row] = [r for r in verdicts.table([verdicts.seat_balance(a, b)]) if r["measure"] == "seat_balance"]  # type: ignore[list-item]
    assert row["paired_narrowing"] == "none"


@pytest.mark.slow
def test_a_grace_head_start_is_found_at_the_stated_size_and_covered_over_many_cohorts(tmp_path: Any) -> None:
    """benchmarks/bias.py at a small scale (800 games of each version, ~5 min): red3's
    head start is detected in most cohorts of the size the verdict asks for (80% promised by
    the normal approximation, 74% measured at full size with Fisher's test), and the
    95% interval of the difference covers the pool's difference about 95% of the time.
    BENCHMARKS.md has the full-size run."""
    from benchmarks.bias import measure

    m = measure(pool=800, resamples=200, store=str(tmp_path / "store"))
    assert m.truth < -0.1 and m.truth_interval[1] < 0  # red3 hands blue's wins to red
    resampled = "resampled from the pool (the pool is the truth)"
    assert 0.6 <= m.rate(resampled, 0) <= 1.0, m.rate(resampled, 0)  # 74% at full size; Fisher is a little conservative
    assert 0.91 <= m.rate(resampled, 1) <= 0.99, m.rate(resampled, 1)


def made(key: str = "seat_balance", *, a: float = 0.51, b: float = 0.58, low: float = 0.02, high: float = 0.12,
         p: float = 0.01, unit: str = "rate", measure: str = "blue's win rate", fair: float | None = 0.5,
         needed: int | None = 400, games: tuple[int, int] = (100, 100), measures: int = 6,
         detectable: float = 0.05) -> verdicts.Verdict:
    """A verdict with the numbers given (the plain sentences only read them)."""
    def around(x: float) -> verdicts.Estimate:
        return verdicts.Estimate(x, x - 0.05, x + 0.05, games[0])

    return verdicts.Verdict(key=key, question="?", measure=measure, unit=unit, a=around(a), b=around(b),
                            difference=verdicts.Estimate(b - a, low, high, sum(games)), test="t", p_value=p, effect=0.2,
                            effect_name="Cohen's h", detectable=detectable, needed=needed, games=games, p_adjusted=p,
                            measures=measures, fair=fair)


def test_a_real_change_in_seat_balance_says_which_way_it_moved_and_how_far_in_plain_words() -> None:
    said = verdicts.plain_sentence(made(), "2.1", "2.5")
    assert said == ("Blue wins more often under 2.5: 58% against 51% under 2.1, further from a fair 50%; "
                    "the change is real with 95% confidence and lies between +2 and +12 points.")
    fewer = verdicts.plain_sentence(made(a=0.58, b=0.46, low=-0.19, high=-0.05), "2.1", "2.5")
    assert fewer == ("Blue wins less often under 2.5: 46% against 58% under 2.1, closer to a fair 50%; "
                     "the change is real with 95% confidence and lies between -19 and -5 points.")


def test_no_clear_change_gives_the_range_still_open_and_the_games_that_would_tell() -> None:
    said = verdicts.plain_sentence(made(a=0.51, b=0.53, low=-0.04, high=0.09, p=0.6), "2.1", "2.5")
    assert said == ("No clear change in how often blue wins between 2.1 and 2.5: 53% under 2.5 against 51% under 2.1, "
                    "and the change could be anywhere between -4 and +9 points; "
                    "about 300 more games per version would tell a change of 5 points.")
    enough = verdicts.plain_sentence(made(low=-0.02, high=0.03, p=0.6, needed=80), "2.1", "2.5")
    assert enough.endswith("100 games per version would have shown a change of 5 points, so any change is likely smaller.")
    unknown = verdicts.plain_sentence(made(low=-0.02, high=0.03, p=0.6, needed=None), "2.1", "2.5")
    assert unknown.endswith("there is no estimate yet of how many games would tell.")


def test_an_interval_clear_of_zero_that_the_correction_does_not_confirm_is_a_maybe() -> None:
    said = verdicts.plain_sentence(made(low=0.01, high=0.13, p=0.2), "2.1", "2.5")
    assert said == ("Maybe blue wins more often under 2.5: 58% against 51% under 2.1, between +1 and +13 points; "
                    "but with 6 measures compared this may be chance; about 300 more games per version would tell "
                    "a change of 5 points.")


def test_a_length_verdict_speaks_in_turns() -> None:
    longer = made("length", a=30, b=34, low=1.5, high=7, unit="turns", measure="median length in turns", fair=None,
                  detectable=3)
    assert verdicts.plain_sentence(longer, "2.1", "2.5") == (
        "Games run longer under 2.5: a median of 34 turns against 30 turns under 2.1; "
        "the change is real with 95% confidence and lies between +1.5 and +7 turns.")
    shorter = made("length", a=34, b=30, low=-12, high=3, p=0.3, unit="turns", measure="median length in turns", fair=None,
                   detectable=3.4)
    assert verdicts.plain_sentence(shorter, "2.1", "2.5") == (
        "No clear change in how long games run between 2.1 and 2.5: a median of 30 turns under 2.5 against 34 turns "
        "under 2.1, and the change could be anywhere between -12 and +3 turns; "
        "about 300 more games per version would tell a change of 3.4 turns.")


def test_a_verdict_without_an_interval_says_there_are_not_enough_games() -> None:
    said = verdicts.plain_sentence(made("length", low=math.nan, high=math.nan, p=math.nan, unit="turns", fair=None),
                                   "2.1", "2.5")
    assert said == "Not enough finished games yet to compare how long games run between 2.1 and 2.5."


def test_the_plain_verdicts_lead_with_seat_balance_then_each_decided_measure() -> None:
    undecided_seat = made(low=-0.04, high=0.09, p=0.6)
    first = made("first_player", measure="the first player's win rate", a=0.5, b=0.62, low=0.03, high=0.2)
    quiet = made("decisive", measure="games with a winner", fair=None, p=0.9, low=-0.1, high=0.1)
    rule = made("rule:mortalgate/combat.hit", measure="mortalgate/combat.hit per 100 events", unit="per 100 events",
                a=0.3, b=1.2, low=0.4, high=1.5, fair=None)
    said = verdicts.plain([first, quiet, undecided_seat, rule], "mortalgate@2.1", "mortalgate@2.5")
    assert [s.split(" under ")[0] for s in said] == ["No clear change in how often blue wins between 2.1 and 2.5: 58%",
                                                    "The first player wins more often",
                                                    "Tables break mortalgate/combat.hit more often"]
    assert "1.2 per 100 events against 0.3 per 100 events under 2.1" in said[2]
    assert verdicts.plain([undecided_seat, quiet], "mortalgate@2.1", "mortalgate@2.5")[1] == \
        "Nothing else changes clearly (1 other measure compared)."
    assert "under frontier@1.0: 58% against 51% under mortalgate@2.1" in verdicts.plain([made()], "mortalgate@2.1", "frontier@1.0")[0]
