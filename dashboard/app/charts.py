"""Charts of a version comparison (Altair specs built from verdicts and cohort rows), and
the bars of a query's result.

Version A is always blue and B orange (Okabe-Ito colours: distinct for colour-blind
readers too), so every chart of a comparison reads the same way. No title or label is cut
short (`labelLimit=0`, `titleLimit=0`): a name cut to "mercyfrontier · pl…" names nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import numpy as np
import pandas as pd

from projections.stats import verdicts
from projections.stats.balance import BalanceReport

COLOURS = ("#0072B2", "#E69F00")
"""Version A blue, version B orange."""


def colours(a: str, b: str) -> alt.Scale:
    """A in blue, B in orange."""
    return alt.Scale(domain=[a, b], range=list(COLOURS))


PANEL_WIDTH = 520
"""Plot width of a forest panel: with the longest measure names and the legend below, it
fits a 1024-pixel screen as well as a laptop's."""


def forest(report: BalanceReport) -> alt.VConcatChart:
    """Each verdict's difference B - A with its 95% interval, one panel per unit (rates in
    points, lengths in turns, ...), each with its own axis titled in words and centred on no
    change; a significant one (Holm) is drawn in orange. Labels are never cut short."""
    scale = {"rate": 100.0}
    a, b = verdicts.short_names(report.a, report.b)
    frame = pd.DataFrame([{"measure": v.key, "unit": v.unit,
                           "difference": v.difference.value * scale.get(v.unit, 1.0),
                           "low": v.difference.low * scale.get(v.unit, 1.0), "high": v.difference.high * scale.get(v.unit, 1.0),
                           "p (Holm)": verdicts.show_p(v.p_adjusted),
                           "verdict": "a real change (Holm, 5%)" if v.significant else "no clear change"}
                          for v in report.verdicts if all(map(pd.notna, (v.difference.low, v.difference.high)))],
                         columns=["measure", "unit", "difference", "low", "high", "p (Holm)", "verdict"])
    colour = alt.Color("verdict:N", title=None, scale=alt.Scale(domain=["a real change (Holm, 5%)", "no clear change"],
                                                                range=["#D55E00", "#7F7F7F"]),
                       legend=alt.Legend(orient="bottom", labelLimit=0))
    panels = []
    for unit, part in frame.groupby("unit", sort=False):
        reach = float(np.nanmax(np.abs(part[["low", "high", "difference"]].to_numpy()), initial=0.0)) or 1.0
        title = f"{verdicts.PLAIN_UNITS.get(str(unit), unit)}: {b} minus {a}"
        x_scale = alt.Scale(domain=[-reach, reach], nice=True)
        x_axis = alt.Axis(title=title, titleLimit=0, labelLimit=0, format="~g")
        base = alt.Chart(part).encode(y=alt.Y("measure:N", sort=None, title=None, axis=alt.Axis(labelLimit=0)), color=colour)
        rules = base.mark_rule(strokeWidth=2).encode(x=alt.X("low:Q", scale=x_scale, axis=x_axis), x2="high:Q")
        points = base.mark_point(filled=True, size=70).encode(x=alt.X("difference:Q", scale=x_scale, axis=x_axis),
                                                              tooltip=list(part.columns))
        zero = alt.Chart(part).mark_rule(strokeDash=[4, 4], color="black").encode(x=alt.datum(0))
        panels.append(alt.layer(zero, rules, points).properties(width=PANEL_WIDTH))
    return alt.vconcat(*panels, spacing=24)


def length_bins(turns: list[int], most: int = 20) -> np.ndarray:
    """Whole-turn bin edges over every finished game of both versions (shared, so the two
    histograms compare): at most `most` bins, each a whole number of turns wide."""
    if not turns:
        return np.array([0, 1])
    low, high = min(turns), max(turns) + 1
    width = max(1, -(-(high - low) // most))
    return np.arange(low, high + width, width)


def lengths(rows_a: list[dict[str, Any]], rows_b: list[dict[str, Any]], a: str, b: str) -> tuple[alt.FacetChart, alt.LayerChart]:
    """Finished games by length in shared whole-turn bins (one histogram per version, one
    above the other, so the colours never blend), and the Kaplan-Meier share of games still
    running after each turn (unfinished games censored), A blue and B orange."""
    finished = {a: [r["turns"] for r in rows_a if r["finished"]], b: [r["turns"] for r in rows_b if r["finished"]]}
    edges = length_bins([t for ts in finished.values() for t in ts])
    bars = pd.DataFrame([{"version": name, "from": int(lo), "to": int(hi), "matches": int(count)}
                         for name, ts in finished.items()
                         for lo, hi, count in zip(edges[:-1], edges[1:], np.histogram(ts, bins=edges)[0], strict=True)])
    histogram = alt.Chart(bars).mark_bar(binSpacing=1).encode(
        x=alt.X("from:Q", title="turns (each bar: from its left edge up to, not including, its right)", bin="binned",
                axis=alt.Axis(tickMinStep=1, format="d", titleLimit=0)), x2="to:Q", y=alt.Y("matches:Q", title="matches"),
        color=alt.Color("version:N", scale=colours(a, b)), tooltip=["version", "from", "to", "matches"],
    ).properties(width=640, height=110).facet(  # one above the other, never blended; each named above it, in full
        row=alt.Row("version:N", title=None, sort=[a, b],
                    header=alt.Header(labelAngle=0, labelOrient="top", labelAnchor="start", labelLimit=0, labelFontWeight="bold", labelFontSize=12)))
    curves = []
    for name, rows in ((a, rows_a), (b, rows_b)):
        if any(r["finished"] for r in rows):
            times, still, low, high = verdicts.survival([r["turns"] for r in rows], [bool(r["finished"]) for r in rows])
            curves += [{"version": name, "turns": t, "still running": s, "low": lo, "high": hi}
                       for t, s, lo, hi in zip([0.0, *times], [1.0, *still], [1.0, *low], [1.0, *high], strict=True)]
    frame = pd.DataFrame(curves, columns=["version", "turns", "still running", "low", "high"])
    colour = alt.Color("version:N", scale=colours(a, b))
    band = alt.Chart(frame).mark_area(opacity=0.15, interpolate="step-after").encode(
        x="turns:Q", y="low:Q", y2="high:Q", color=alt.Color("version:N", scale=colours(a, b), legend=None))  # the lines' legend is the one in full colour
    line = alt.Chart(frame).mark_line(interpolate="step-after").encode(
        x=alt.X("turns:Q", axis=alt.Axis(tickMinStep=1, format="d")), y=alt.Y("still running:Q", title="share of games still running", scale=alt.Scale(domain=[0, 1])),
        color=colour, tooltip=["version", "turns", "still running"])
    return histogram, band + line


INTERVAL = ("low95", "high95")
"""The columns a query names its value's 95% interval by (`side_win_rates`, `pick_win_rates`)."""


def bars(frame: pd.DataFrame, value: str, labels: Sequence[str]) -> alt.Chart | alt.LayerChart:
    """One horizontal bar of `value` per row of a query's result. The text columns that are
    the same on every row are said once, in the title ("ruleset: mercyfrontier"); the others
    make up each bar's label (a NULL is blank), in full. Where the result gives the value's
    95% interval (`INTERVAL`, around every row's value), each bar carries it as a line, so a
    rate is never charted without how sure it is. The value axis starts at zero and reads in
    plain numbers; where every value is zero (no draws at all) it still spans 0 to 1, so the
    bars read as zero rather than as a single tick printed to six places."""
    text = pd.DataFrame({c: frame[c].map(lambda v: "" if v is None or v is pd.NA or v != v else str(v)) for c in labels})
    varying = [c for c in labels if text[c].nunique() > 1] or list(labels)
    same = [c for c in labels if c not in varying]
    shown = pd.DataFrame({"label": text[varying].agg(" · ".join, axis=1), "value": frame[value].to_numpy()})
    low, high = INTERVAL
    bounded = value not in INTERVAL and low in frame and high in frame and bool(
        ((frame[low] <= frame[value]) & (frame[value] <= frame[high])).all())
    if bounded:
        shown = shown.assign(low=frame[low].to_numpy(), high=frame[high].to_numpy())
    title = [f"{value} by {' · '.join(varying)}" + (" (lines: 95% interval)" if bounded else "")]
    title += [" · ".join(f"{c}: {text[c].iloc[0] or 'NULL'}" for c in same)] if same else []
    y = alt.Y("label:N", sort=None, title=None, axis=alt.Axis(labelLimit=0))
    x = alt.X("value:Q", title=value, axis=alt.Axis(titleLimit=0, format="~g"),
              scale=alt.Scale(zero=True) if shown["value"].abs().max() else alt.Scale(domain=[0, 1]))
    tooltip = [alt.Tooltip("label:N", title=" · ".join(varying)), alt.Tooltip("value:Q", title=value)]
    if bounded:
        tooltip += [alt.Tooltip("low:Q", title=low), alt.Tooltip("high:Q", title=high)]
    chart = alt.Chart(shown)
    drawn = chart.mark_bar().encode(y=y, x=x, tooltip=tooltip)
    named = alt.Title(title, anchor="start", limit=0)
    if not bounded:
        return drawn.properties(title=named)
    return alt.LayerChart(layer=[drawn, chart.mark_rule(color="black", strokeWidth=2).encode(y=y, x=alt.X("low:Q"), x2="high:Q")],
                          title=named)


def win_chances(curve: Sequence[Any]) -> alt.LayerChart:
    """Each seat's chance to win along a match (`projections.corpus.chances.Chance` rows): a line
    per seat over the events, its 95% interval as a band around it."""
    frame = pd.DataFrame([{"event": c.seq, "turn": c.turn, "seat": c.seat, "chance": c.chance, "low": c.low, "high": c.high}
                          for c in curve])
    x = alt.X("event:Q", title="event", axis=alt.Axis(format="d", tickMinStep=1))
    colour = alt.Color("seat:N", title="seat", legend=alt.Legend(orient="bottom"))
    base = alt.Chart(frame, height=240).encode(x=x, color=colour)
    band = base.mark_area(opacity=0.2, interpolate="step-after").encode(y=alt.Y("low:Q"), y2="high:Q")
    line = base.mark_line(interpolate="step-after").encode(
        y=alt.Y("chance:Q", title="chance to win", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        tooltip=["event", "turn", "seat", alt.Tooltip("chance:Q", format=".0%"), alt.Tooltip("low:Q", format=".0%"),
                 alt.Tooltip("high:Q", format=".0%")])
    return band + line
