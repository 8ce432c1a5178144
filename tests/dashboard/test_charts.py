"""The charts of a comparison and of a query: whole-turn bins shared by both versions, every
finished game counted once, one histogram per version so the colours never blend, and no
title or label cut short."""

from __future__ import annotations

from typing import Any

import pandas as pd

from dashboard.app.charts import COLOURS, bars, forest, length_bins, lengths
from projections.stats import verdicts
from projections.stats.balance import BalanceReport


def rows(turns: list[int], unfinished: int = 0) -> list[dict[str, Any]]:
    return [{"turns": t, "finished": True} for t in turns] + [{"turns": 500, "finished": False}] * unfinished


def test_bins_are_whole_turns_and_at_most_twenty() -> None:
    assert list(length_bins([3, 4, 4])) == [3, 4, 5]
    wide = length_bins(list(range(300, 351)))
    assert len(wide) - 1 <= 20 and all(int(w) == w and w >= 1 for w in (wide[1:] - wide[:-1]))
    assert wide[0] == 300 and wide[-1] > 350


def test_each_version_has_its_own_histogram_in_its_own_colour_over_the_same_bins() -> None:
    a, b = rows([300, 305, 310, 318, 319], unfinished=2), rows([301, 302, 340])
    histogram, _ = lengths(a, b, "A", "B")
    spec = histogram.to_dict()
    assert "facet" in spec and spec["spec"]["encoding"]["color"]["scale"]["range"] == list(COLOURS)
    data = histogram.data
    counted = data.groupby("version")["matches"].sum().to_dict()
    assert counted == {"A": 5, "B": 3}  # finished games only, each once
    assert (data[data.version == "A"]["from"].tolist() == data[data.version == "B"]["from"].tolist())
    between = data[(data.version == "A") & (data["from"] < 320)]["matches"].sum()
    assert between == 5  # the five games between 300 and 320 turns are five, not one


def panels(report: BalanceReport) -> list[dict[str, Any]]:
    return list(forest(report).to_dict()["vconcat"])


def test_the_forest_plot_titles_each_unit_in_words_and_cuts_no_name_short() -> None:
    seat = verdicts.rates_verdict("seat_balance", "?", "blue's win rate", (30, 60), (40, 60), fair=0.5)
    rule = verdicts.rule_verdict("mercyfrontier/mercenaries.purchase-without-resources", (3, 900), (9, 900), (60, 60))
    flat = verdicts.means_verdict("lead_changes", "?", "lead changes per game", "per match", [0, 0, 0], [0, 0, 0], detectable=0.5)
    report = BalanceReport(a="mercyfrontier@accelerated", b="mercyfrontier@current", kind="bots",
                           verdicts=verdicts.holm([seat, rule, flat]), games=(60, 60))
    found = {p["layer"][1]["encoding"]["x"]["axis"]["title"]: p for p in panels(report)}
    assert list(found) == ["points: current minus accelerated", "per 100 events: current minus accelerated",
                           "per game: current minus accelerated"]  # the game said once, in the heading
    for panel in found.values():
        for layer in panel["layer"][1:]:
            assert layer["encoding"]["y"]["axis"]["labelLimit"] == 0 and layer["encoding"]["x"]["axis"]["titleLimit"] == 0
        low, high = panel["layer"][1]["encoding"]["x"]["scale"]["domain"]
        assert low == -high and high > 0  # no change in the middle, even where every game had none


def test_each_histogram_is_named_above_it_in_full() -> None:
    histogram, _ = lengths(rows([300, 305]), rows([301]), "mercyfrontier@accelerated", "mercyfrontier@current")
    header = histogram.to_dict()["facet"]["row"]["header"]
    assert (header["labelAngle"], header["labelOrient"], header["labelLimit"]) == (0, "top", 0)


def test_query_bars_name_each_bar_by_what_varies_and_say_the_rest_once() -> None:
    frame = pd.DataFrame({"ruleset": ["mercyfrontier"] * 3, "version": ["playtest-3", "playtest-3", "current"],
                          "side": ["orange", None, "yellow"], "win_rate": [0.5, 0.25, 0.75]})
    chart = bars(frame, "win_rate", ["ruleset", "version", "side"])
    assert chart.data["label"].tolist() == ["playtest-3 · orange", "playtest-3 · ", "current · yellow"]
    assert chart.to_dict()["title"]["text"] == ["win_rate by version · side", "ruleset: mercyfrontier"]
    single = bars(frame.head(1), "win_rate", ["ruleset", "version"])
    assert single.data["label"].tolist() == ["mercyfrontier · playtest-3"]  # one row: its name is all there is


def test_query_bars_of_nothing_but_zeros_read_as_zero_on_a_plain_axis() -> None:
    frame = pd.DataFrame({"version": ["accelerated", "current"], "draw_rate": [0.0, 0.0]})
    axis = bars(frame, "draw_rate", ["version"]).to_dict()["encoding"]["x"]
    assert axis["scale"]["domain"] == [0, 1] and axis["axis"]["format"] == "~g"
    some = bars(frame.assign(draw_rate=[0.0, 0.25]), "draw_rate", ["version"]).to_dict()["encoding"]["x"]
    assert "domain" not in some["scale"] and some["scale"]["zero"] is True  # the data decides the span


def test_query_bars_carry_the_rates_interval_where_the_result_gives_it() -> None:
    frame = pd.DataFrame({"side": ["orange", "yellow"], "win_rate": [0.53, 0.47], "low95": [0.36, 0.30], "high95": [0.70, 0.64]})
    spec = bars(frame, "win_rate", ["side"]).to_dict()
    rule = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "rule")
    assert (rule["encoding"]["x"]["field"], rule["encoding"]["x2"]["field"]) == ("low", "high")
    assert "95% interval" in spec["title"]["text"][0]
    wins = bars(frame, "low95", ["side"]).to_dict()  # the interval's own columns are plain bars
    assert "layer" not in wins
