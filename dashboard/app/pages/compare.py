"""Compare: two versions of a game side by side.

The rule diff (params with provenance, the changes between them), one log re-audited under
the other version with the first event where they part ways, a paired simulation of both
with a progress bar, and the balance verdicts of both cohorts from the warehouse (bot
games and human playtests apart): a forest plot of the differences with their intervals,
length histograms and survival curves in two distinct colours. The verdicts lead in plain
sentences (seat balance first); the statistics behind them are one click away.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboard.app.charts import COLOURS, colours, forest, lengths
from dashboard.app.state import match_picker, show_error, show_svg, warehouse, workspace
from dashboard.board.heatmap import Places, counts, heatmap_svg, per_hundred, places_of, titles
from events.errors import TabletapeError
from projections.corpus.batch import compare_versions
from projections.read.rulediff import Entry, rule_diff
from projections.stats.balance import BalanceReport, cohort, compare_cohorts
from projections.stats.verdicts import DETECT, plain
from projections.warehouse.catalog import signature
from projections.warehouse.queries import run_named
from projections.warehouse.sync import Warehouse
from projections.workspace import Workspace
from rulesets.levels import lacks
from rulesets.protocol import Outcome

KINDS = {"bot games": "bots", "human playtests": "humans"}
"""Cohorts are one kind or the other, never pooled."""
SIMULATION = "cmp_simulation"
REAUDIT = "cmp_reaudit_result"
CHANCE_ROLLOUTS = 50
"""Games the bots play on from each turn start when a comparison asks for win chances (the CLI's default)."""


def _versions(ws: Workspace) -> tuple[str, str, str] | None:
    """Game, version A and version B as chosen by the user (specs `game@version`); None
    when the game has nothing to compare or the same version is chosen twice."""
    games = ws.rulesets()
    game = st.selectbox("Game", games, format_func=lambda g: g["title"], key="cmp_game")
    ids = [v["id"] for v in game["versions"]] + [v["id"] for v in game["variants"]]
    if len(ids) < 2:
        st.info(f"{game['title']} has one version ({ids[0]}) and no designer variant, so there is nothing to compare "
                f"it with. Add a variant: a TOML file in {ws.home / 'variants'} with `extends = \"{game['name']}@{ids[0]}\"` "
                "and a [params] table.")
        return None
    left, right = st.columns(2)
    a = left.selectbox("Version A", ids, index=max(len(game["versions"]) - 2, 0), key=f"cmp_a_{game['name']}")
    b = right.selectbox("Version B", ids, index=max(len(game["versions"]) - 1, 1), key=f"cmp_b_{game['name']}")
    if a == b:
        st.info(f"Version A and B are both {a}: choose two different versions or variants.")
        return None
    return game["name"], f"{game['name']}@{a}", f"{game['name']}@{b}"


def _changelog(title: str, entries: list[Entry]) -> None:
    st.markdown(f"**{title}**")
    if not entries:
        st.caption("no changelog")
    for e in entries:
        st.markdown(f"- {e.version}: {e.text} ({', '.join(f'`{r}`' for r in e.rules)})")


def _diff(ws: Workspace, a: str, b: str) -> None:
    """Params side by side with where each value comes from, and the changelogs."""
    try:
        diff = rule_diff(ws, a, b)
    except TabletapeError as error:
        show_error(error)
        return
    only_changed = st.toggle("Only params that differ", value=True, key="cmp_only_changed")
    rows = diff.changed if only_changed else diff.params
    st.caption(f"{len(diff.changed)} of {len(diff.params)} params differ between {a} and {b}")
    st.dataframe(pd.DataFrame([{"param": r.name, a: r.a, f"source {a}": r.source_a, b: r.b, f"source {b}": r.source_b,
                                "differs": r.changed, f"note {a}": r.note_a, f"note {b}": r.note_b} for r in rows]),
                 hide_index=True, key="cmp_params")
    if diff.between:
        _changelog(f"Every change on the way from {a} to {b}", diff.between)
    else:
        st.caption(f"{a} and {b} share their base version: only the params above differ.")


def _outcome(outcome: Outcome | None) -> str:
    if outcome is None:
        return "not over"
    return "a draw" if outcome.draw else f"{outcome.winner} won ({outcome.reason})"


def _reaudit(ws: Workspace, a: str, b: str) -> None:
    """One log under its own rules and under another version (B, or A for a log of B):
    violations, the result check and the first event where the two part ways."""
    match_id = match_picker("Log to re-audit", key="cmp_match")
    if match_id is None:
        return
    try:
        own = ws.rules_of(match_id)
        game = own.ruleset.name
        specs = [f"{game}@{v['id']}" for g in ws.rulesets() if g["name"] == game for v in (*g["versions"], *g["variants"])]
        other = b if own.spec != ws.rules(b).spec else a
        specs.sort(key=lambda s: s != other)
        against = st.selectbox("Re-audit under", specs, key=f"cmp_against_{match_id}_{other}")
        if st.button("Re-audit", key="cmp_reaudit", type="primary"):
            st.session_state[REAUDIT] = (match_id, against, ws.audit(match_id, against=against), ws.compare(match_id, own.spec, against))
    except TabletapeError as error:
        show_error(error)
        return
    done = st.session_state.get(REAUDIT)
    if done is None or done[:2] != (match_id, against):
        return
    _, _, report, comparison = done
    st.markdown(f"**{match_id}** was recorded under `{own.spec}`; under `{against}`: "
                f"{report.tally.text()} ({comparison.violations_a} rule violations under its own rules). {report.result.message}.")
    first = comparison.first
    if first is None:
        st.success(f"{own.spec} and {against} agree on every one of the {comparison.events} events.")
    else:
        st.warning(f"First divergence at seq {first.seq} ({first.event_type}).")
        rows = [{"under": own.spec, "rule": v.rule, "message": v.message} for v in first.only_a]
        rows += [{"under": against, "rule": v.rule, "message": v.message} for v in first.only_b]
        rows += [{"under": "both", "rule": f"metric {name}", "message": f"{va:g} under {own.spec}, {vb:g} under {against}"}
                 for name, (va, vb) in first.metrics.items()]
        if first.outcomes:
            rows += [{"under": own.spec, "rule": "outcome", "message": first.outcomes[0]},
                     {"under": against, "rule": "outcome", "message": first.outcomes[1]}]
        st.dataframe(pd.DataFrame(rows), hide_index=True, key="cmp_divergence")
    change = "changes" if comparison.outcome_changes else "stays the same"
    st.markdown(f"Outcome under {own.spec}: {_outcome(comparison.outcome_a)} · under {against}: "
                f"{_outcome(comparison.outcome_b)} — the outcome {change}.")
    if report.violations:
        st.dataframe(pd.DataFrame([{"seq": v.seq, "rule": v.rule, "severity": v.severity, "message": v.message}
                                   for v in report.violations]), hide_index=True, key="cmp_violations")


def _frame(wh: Warehouse, name: str, params: dict[str, Any]) -> pd.DataFrame:
    result = run_named(wh, name, params)
    return pd.DataFrame(result.rows, columns=result.columns)


def show_report(report: BalanceReport, key: str) -> None:
    """A comparison, led by what a designer reads without statistics: the seat balance in one
    plain sentence, then one for each other measure that changed; the forest plot below, and
    the statistics (table, Holm-corrected p, effect sizes, games needed) one click away."""
    if not report.verdicts:
        st.markdown(f"**{report.heading()}**")
        st.caption("no verdict: no finished games in one of the cohorts")
        return
    first, *others = plain(report.verdicts, report.a, report.b)
    st.markdown(f"**{first}**")
    for line in others:
        st.markdown(line)
    st.caption(report.heading())
    st.markdown("**Each measure's change** (95% interval)")  # short: the chart's toolbar hovers over its right end
    st.altair_chart(forest(report), key=f"{key}_forest")
    with st.expander("The statistics: intervals, Holm-corrected p-values, effect sizes and games needed"):
        st.dataframe(pd.DataFrame(report.rows()), hide_index=True, key=f"{key}_table")
        for line in report.sentences():
            st.markdown(f"- {line}")
        if report.stored:
            st.caption(report.stored)
        st.markdown(report.conclusion())


@st.cache_data(show_spinner="Weighing the evidence...", max_entries=16)
def _report(home: str, store: tuple[Any, ...], a: str, b: str, kind: str, detect: float, branches: bool = False) -> BalanceReport:
    """The verdicts of both cohorts, once per state of the store (its signature is in the key)."""
    ws = Workspace(home)
    return compare_cohorts(ws, a, b, kind=kind, wh=Warehouse(ws), detect=detect, branches=branches)


def _cohorts(ws: Workspace, game: str, a: str, b: str, detect: float) -> None:
    """Both versions' matches of one kind from the warehouse: every verdict, lengths, pacing."""
    kind = KINDS[st.radio("Matches", list(KINDS), horizontal=True, key="cmp_kind")]
    branches = st.checkbox("Count what-if branches", key="cmp_branches",
                           help="A branch is a line a designer tried from a match's event, not a game a table chose: left out unless asked.")
    va, vb = ws.rules(a).version, ws.rules(b).version
    try:
        wh = warehouse()
        rows_a, rows_b = cohort(wh, game, va, kind=kind, branches=branches), cohort(wh, game, vb, kind=kind, branches=branches)
        report = _report(str(ws.home), signature(ws), a, b, kind, detect, branches)
        pacing = _frame(wh, "pacing", {"ruleset": game, "source": None}) if kind == "humans" else pd.DataFrame()
    except TabletapeError as error:
        show_error(error)
        return
    if not any(r["finished"] for r in rows_a) or not any(r["finished"] for r in rows_b):
        label = "bot games" if kind == "bots" else "human playtests"
        st.info(f"The warehouse needs finished {label} of both {a} ({len(rows_a)} games) and {b} ({len(rows_b)} games): "
                "record some, import logs, or simulate a batch.")
        return
    show_report(report, "cmp_cohort")
    histogram, survival = lengths(rows_a, rows_b, a, b)
    st.markdown("**Length of finished games** (shared bins)")
    st.altair_chart(histogram, key="cmp_histogram")
    st.markdown("**Games still running after each turn** (Kaplan-Meier; unfinished games censored, 95% band)")
    st.altair_chart(survival, key="cmp_survival")
    if (places := places_of(game, ws.rules(a).ruleset)) is not None:
        _heatmaps(ws, wh, (a, b), (rows_a, rows_b), kind, places)
    if kind == "humans":
        phases = pacing[(pacing["unit"] == "phase") & pacing["version"].isin([va, vb])] if not pacing.empty else pacing
        st.markdown("**Pacing** (median seconds per phase at the table)")
        if phases.empty:
            st.caption("no timed playtests")
        else:
            st.altair_chart(alt.Chart(phases).mark_bar().encode(
                x=alt.X("median_s:Q", title="median seconds"), y=alt.Y("phase:N", axis=alt.Axis(labelLimit=0)),
                yOffset="version:N", color=alt.Color("version:N", scale=colours(va, vb))), key="cmp_pacing")


def _heatmaps(ws: Workspace, wh: Warehouse, specs: tuple[str, str], cohorts: tuple[list[dict[str, Any]], list[dict[str, Any]]],
              kind: str, places: Places) -> None:
    """Each version's board shaded where things happen (per 100 games, one scale for
    both), A in blue and B in orange."""
    drawn = []
    for spec, rows in zip(specs, cohorts, strict=True):
        rules = ws.rules(spec)
        found = run_named(wh, places.query, {**places.params, "version": rules.version, "bots": kind == "bots"}).records()
        view = rules.ruleset.view(rules.params, ws.state_at(rows[0]["match_id"], 0).state, None)  # the board as set up
        drawn.append((spec, view, found, len(rows)))
    for what, title in titles(places, (row for _, _, found, _ in drawn for row in found)).items():
        rates = [per_hundred(counts(places, found, what, view), games) for _, view, found, games in drawn]
        top = max((rate for r in rates for rate in r.values()), default=0.0)
        st.markdown(f"**{title}** (per 100 games; the darker, the more often)")
        for column, (spec, view, _, games), rate, colour in zip(st.columns(2), drawn, rates, COLOURS, strict=True):
            with column:
                show_svg(heatmap_svg(view, rate, colour=colour, top=top, what=what, title=f"{spec} ({games} games)"))


def _simulate(ws: Workspace, game: str, a: str, b: str, detect: float) -> None:
    """Seeded bot games of both versions from the same seeds, and the verdicts of those games."""
    ruleset = ws.rules(a).ruleset
    bots = list(ruleset.bots)
    if not bots:
        st.info(f"{lacks(ruleset, 'simulate') or game + ' has no bots'}: nothing to simulate with.")
        return
    left, mid, right = st.columns(3)
    games = left.number_input("Games per version", min_value=1, max_value=5000, value=20, step=10, key="cmp_games")
    seed = mid.number_input("Seed", min_value=0, value=1, step=1, key="cmp_seed")
    bot = right.selectbox("Bot", bots, index=bots.index(ruleset.default_bot) if ruleset.default_bot in bots else 0, key="cmp_bot")
    left, mid, right = st.columns(3)
    workers = left.number_input("Worker processes", min_value=1, max_value=64, value=1, step=1, key="cmp_workers")
    chances = mid.number_input("Games per version with win chances", min_value=0, max_value=5000, value=0, step=1,
                               key="cmp_chances", help="Adds how early games are decided and how often the likely winner "
                               "changes: bots play games on from each turn start of each (this takes a while).")
    rollouts = right.number_input("Games played on from each turn start", min_value=1, max_value=2000,
                                  value=CHANCE_ROLLOUTS, step=10, key="cmp_chance_rollouts", disabled=not chances)
    if st.button(f"Simulate {a} and {b}", key="cmp_simulate", type="primary"):
        bar = st.progress(0.0, text="starting...")

        def progress(done: int, total: int) -> None:
            bar.progress(done / max(total, 1), text=f"{done} of {total} games")

        try:
            st.session_state[SIMULATION] = compare_versions(ws, a, b, games=int(games), seed=int(seed), bot=bot,
                                                            workers=int(workers), progress=progress, detect=detect,
                                                            chances=int(chances), chance_rollouts=int(rollouts))
        except TabletapeError as error:
            show_error(error)
            return
        bar.progress(1.0, text="done")
    result: BalanceReport | None = st.session_state.get(SIMULATION)
    if result is not None and (result.a, result.b) == (ws.rules(a).spec, ws.rules(b).spec):
        show_report(result, "cmp_simulated")


def _detect() -> float:
    """The change in a rate the designer wants to be able to see (the CLI's `--detect`): the
    verdicts' "games needed" advice is about a change of this size."""
    points = st.number_input("Smallest change worth detecting (points of a rate)", min_value=1, max_value=50,
                             value=round(DETECT * 100), step=1, key="cmp_detect",
                             help="How many games each version needs is worked out for a change in a win rate this large.")
    return points / 100


def main() -> None:
    """Render the page."""
    st.title("Compare")
    ws = workspace()
    chosen = _versions(ws)
    if chosen is None:
        return
    game, a, b = chosen
    detect = _detect()
    # Simulate runs before Cohorts, so the cohorts drawn after a simulation include its games.
    diff, reaudit, simulate, cohorts = st.tabs(["Rule diff", "Re-audit a log", "Simulate", "Cohorts"])
    with diff:
        _diff(ws, a, b)
    with reaudit:
        _reaudit(ws, a, b)
    with simulate:
        _simulate(ws, game, a, b, detect)
    with cohorts:
        _cohorts(ws, game, a, b, detect)


main()
