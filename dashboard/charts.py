"""Charts of a version comparison (Altair specs built from verdicts and cohort rows).

Version A is always blue and B orange (Okabe-Ito colours: distinct for colour-blind
readers too), so every chart of a comparison reads the same way.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import numpy as np
import pandas as pd

from projections import verdicts
from projections.balance import BalanceReport

COLOURS = ("#0072B2", "#E69F00")
"""Version A blue, version B orange."""


def colours(a: str, b: str) -> alt.Scale:
    """A in blue, B in orange."""
    return alt.Scale(domain=[a, b], range=list(COLOURS))


def forest(report: BalanceReport) -> alt.Chart:
    """Each verdict's difference B - A with its 95% interval, one panel per unit (rates in
    points, lengths in turns, ...); a significant one (Holm) is drawn solid."""
    scale = {"rate": 100.0}
    frame = pd.DataFrame([{"measure": v.key, "unit": "rate (points)" if v.unit == "rate" else v.unit,
                           "difference": v.difference.value * scale.get(v.unit, 1.0),
                           "low": v.difference.low * scale.get(v.unit, 1.0), "high": v.difference.high * scale.get(v.unit, 1.0),
                           "p (Holm)": verdicts.show_p(v.p_adjusted),
                           "verdict": "differs (Holm, 5%)" if v.significant else "no clear change"}
                          for v in report.verdicts if all(map(pd.notna, (v.difference.low, v.difference.high)))])
    base = alt.Chart(frame).encode(y=alt.Y("measure:N", sort=None, title=None, axis=alt.Axis(labelLimit=0)),
                                   color=alt.Color("verdict:N", scale=alt.Scale(domain=["differs (Holm, 5%)", "no clear change"],
                                                                                range=["#D55E00", "#7F7F7F"])))
    rules = base.mark_rule(strokeWidth=2).encode(x=alt.X("low:Q", title=f"{report.b} minus {report.a} (95% interval)"), x2="high:Q")
    points = base.mark_point(filled=True, size=70).encode(x="difference:Q", tooltip=list(frame.columns))
    zero = alt.Chart(frame).mark_rule(strokeDash=[4, 4], color="black").encode(x=alt.datum(0))
    return alt.layer(zero, rules, points).facet(row=alt.Row("unit:N", title=None)).resolve_scale(x="independent", y="independent")


def lengths(rows_a: list[dict[str, Any]], rows_b: list[dict[str, Any]], a: str, b: str) -> tuple[alt.Chart, alt.Chart]:
    """Finished games by length in shared bins (a histogram), and the Kaplan-Meier share of
    games still running after each turn (unfinished games censored), A blue and B orange."""
    finished = {a: [r["turns"] for r in rows_a if r["finished"]], b: [r["turns"] for r in rows_b if r["finished"]]}
    every = [t for ts in finished.values() for t in ts]
    edges = np.histogram_bin_edges(every, bins=min(20, max(len(set(every)), 1))) if every else np.array([0, 1])
    bars = pd.DataFrame([{"version": name, "from": lo, "to": hi, "matches": int(count)}
                         for name, ts in finished.items()
                         for lo, hi, count in zip(edges[:-1], edges[1:], np.histogram(ts, bins=edges)[0], strict=True)])
    histogram = alt.Chart(bars).mark_bar(opacity=0.55, binSpacing=0).encode(
        x=alt.X("from:Q", title="turns", bin="binned", axis=alt.Axis(tickMinStep=1, format="d")), x2="to:Q", y=alt.Y("matches:Q", stack=None),
        color=alt.Color("version:N", scale=colours(a, b)), tooltip=["version", "from", "to", "matches"])
    curves = []
    for name, rows in ((a, rows_a), (b, rows_b)):
        if any(r["finished"] for r in rows):
            times, still, low, high = verdicts.survival([r["turns"] for r in rows], [bool(r["finished"]) for r in rows])
            curves += [{"version": name, "turns": t, "still running": s, "low": lo, "high": hi}
                       for t, s, lo, hi in zip([0.0, *times], [1.0, *still], [1.0, *low], [1.0, *high], strict=True)]
    frame = pd.DataFrame(curves, columns=["version", "turns", "still running", "low", "high"])
    colour = alt.Color("version:N", scale=colours(a, b))
    band = alt.Chart(frame).mark_area(opacity=0.15, interpolate="step-after").encode(x="turns:Q", y="low:Q", y2="high:Q", color=colour)
    line = alt.Chart(frame).mark_line(interpolate="step-after").encode(
        x=alt.X("turns:Q", axis=alt.Axis(tickMinStep=1, format="d")), y=alt.Y("still running:Q", title="share of games still running", scale=alt.Scale(domain=[0, 1])),
        color=colour, tooltip=["version", "turns", "still running"])
    return histogram, band + line
