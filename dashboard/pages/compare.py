"""Compare: two versions of a game side by side.

The rule diff (params with provenance, changelogs), one log re-audited under the other
version with the first event where they part ways, cohort statistics of both versions
from the warehouse, and a simulation batch of both with a progress bar.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboard.state import match_picker, show_error, warehouse, workspace
from events.errors import TabletapeError
from projections.batch import VersionComparison, compare_versions
from projections.queries import run_named
from projections.rulediff import Entry, rule_diff
from projections.warehouse import Warehouse
from projections.workspace import Workspace
from rulesets.protocol import Outcome

SOURCES = {"every source": None, "playtests": "playtest", "simulations": "simulation", "imports": "import"}
SIMULATION = "cmp_simulation"
REAUDIT = "cmp_reaudit_result"


def _versions(ws: Workspace) -> tuple[str, str, str]:
    """Game, version A and version B as chosen by the user (specs `game@version`)."""
    games = ws.rulesets()
    game = st.selectbox("Game", games, format_func=lambda g: g["title"], key="cmp_game")
    ids = [v["id"] for v in game["versions"]] + [v["id"] for v in game["variants"]]
    left, right = st.columns(2)
    a = left.selectbox("Version A", ids, index=max(len(game["versions"]) - 2, 0), key=f"cmp_a_{game['name']}")
    b = right.selectbox("Version B", ids, index=len(game["versions"]) - 1, key=f"cmp_b_{game['name']}")
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
    left, right = st.columns(2)
    with left:
        _changelog(f"Changelog of {a}", diff.changelog_a)
    with right:
        _changelog(f"Changelog of {b}", diff.changelog_b)
    _changelog(f"Every change on the way from {a} to {b}", diff.between)


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


def _histogram(frame: pd.DataFrame) -> alt.Chart:
    """Matches by length in turns, binned, both versions overlaid."""
    return alt.Chart(frame).mark_bar(opacity=0.6).encode(
        x=alt.X("turns:Q", bin=alt.Bin(maxbins=20), title="turns"),
        y=alt.Y("sum(matches):Q", title="matches", stack=None),
        color="version:N", tooltip=["version", "turns", "matches", "mean_events"])


def _interval_chart(frame: pd.DataFrame) -> alt.Chart:
    """Win rate per side with its 95% interval, one colour per version."""
    base = alt.Chart(frame).encode(y=alt.Y("side:N", title=None), yOffset="version:N", color="version:N")
    bars = base.mark_rule(strokeWidth=2).encode(x=alt.X("low95:Q", title="win rate (95% interval)", scale=alt.Scale(domain=[0, 1])), x2="high95:Q")
    points = base.mark_point(filled=True, size=60).encode(x="win_rate:Q", tooltip=["version", "side", "matches", "wins", "win_rate", "low95", "high95"])
    return bars + points


def _cohorts(ws: Workspace, game: str, a: str, b: str) -> None:
    """Both versions' matches from the warehouse: lengths, side win rates, pacing, violations."""
    source = SOURCES[st.selectbox("Matches", list(SOURCES), key="cmp_source")]
    va, vb = ws.rules(a).version, ws.rules(b).version
    try:
        wh = warehouse()
        summary = _frame(wh, "version_comparison", {"ruleset": game, "a": va, "b": vb, "source": source})
        lengths = _frame(wh, "length_distribution", {"ruleset": game, "a": va, "b": vb, "source": source})
        wins = pd.concat([_frame(wh, "side_win_rates", {"ruleset": game, "version": v}) for v in dict.fromkeys((va, vb))])
        pacing = _frame(wh, "pacing", {"ruleset": game, "source": source})
        broken = _frame(wh, "violations_by_rule", {"ruleset": game, "source": source, "severity": "error"})
    except TabletapeError as error:
        show_error(error)
        return
    pacing, broken = (f[f["version"].isin([va, vb])] for f in (pacing, broken))
    if lengths.empty:
        st.info(f"The warehouse has no finished matches of {a} or {b}{'' if source is None else ' from ' + source + 's'}: "
                "record some, import logs, or simulate a batch below.")
        return
    st.markdown("**Version against version** (B minus A, 95% interval)")
    st.dataframe(summary, hide_index=True, key="cmp_summary")
    st.markdown("**Length distribution** (finished matches by turns)")
    st.altair_chart(_histogram(lengths))
    st.markdown("**Side win rates** with 95% intervals")
    if wins.empty:
        st.caption("no finished matches")
    else:
        st.altair_chart(_interval_chart(wins))
    st.markdown("**Pacing** (median seconds per phase, recorded times)")
    phases = pacing[pacing["unit"] == "phase"]
    if phases.empty:
        st.caption("no timed matches")
    else:
        st.bar_chart(phases, x="phase", y="median_s", color="version", stack=False)
    st.markdown("**Violations by rule** (per 100 events)")
    if broken.empty:
        st.caption("no rule broken")
    else:
        st.bar_chart(broken, x="rule", y="per_100_events", color="version", stack=False, horizontal=True)


def _simulate(ws: Workspace, game: str, a: str, b: str) -> None:
    """Seeded bot games of both versions, compared measure by measure."""
    bots = list(ws.rules(a).ruleset.bots)
    if not bots:
        st.info(f"{game} has no bots to simulate with.")
        return
    left, mid, right = st.columns(3)
    games = left.number_input("Games per version", min_value=1, max_value=5000, value=20, step=10, key="cmp_games")
    seed = mid.number_input("Seed", min_value=0, value=1, step=1, key="cmp_seed")
    bot = right.selectbox("Bot", bots, index=bots.index("heuristic") if "heuristic" in bots else 0, key="cmp_bot")
    workers = st.number_input("Worker processes", min_value=1, max_value=64, value=1, step=1, key="cmp_workers")
    if st.button(f"Simulate {a} and {b}", key="cmp_simulate", type="primary"):
        bar = st.progress(0.0, text="starting...")

        def progress(done: int, total: int) -> None:
            bar.progress(done / max(total, 1), text=f"{done} of {total} games")

        try:
            st.session_state[SIMULATION] = compare_versions(ws, a, b, games=int(games), seed=int(seed), bot=bot,
                                                            workers=int(workers), progress=progress)
        except TabletapeError as error:
            show_error(error)
            return
        bar.progress(1.0, text="done")
    result: VersionComparison | None = st.session_state.get(SIMULATION)
    if result is not None and {result.a, result.b} == {ws.rules(a).spec, ws.rules(b).spec}:
        differs = result.significant()
        st.markdown(f"**{result.a} against {result.b}**: batches {', '.join(result.batches)}. "
                    + (f"Significant differences: {', '.join(differs)}." if differs else "No significant difference."))
        st.dataframe(pd.DataFrame(result.rows), hide_index=True, key="cmp_simulated")


def main() -> None:
    """Render the page."""
    st.title("Compare")
    ws = workspace()
    game, a, b = _versions(ws)
    diff, reaudit, cohorts, simulate = st.tabs(["Rule diff", "Re-audit a log", "Cohorts", "Simulate"])
    with diff:
        _diff(ws, a, b)
    with reaudit:
        _reaudit(ws, a, b)
    with cohorts:
        _cohorts(ws, game, a, b)
    with simulate:
        _simulate(ws, game, a, b)


main()
