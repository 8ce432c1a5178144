"""The Compare page, driven through its widgets: the rule diff, a re-audit under another
version, cohort statistics from the warehouse, and a simulation batch with progress."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from statsmodels.stats.proportion import proportion_confint
from streamlit.testing.v1 import AppTest

from projections.corpus import batch
from projections.corpus.demo import save_events
from projections.corpus.simulate import play
from projections.stats import verdicts
from projections.stats.balance import compare_cohorts
from projections.workspace import Workspace

VARIANTS = ("race4", "race8")
PAGE = str(Path(__file__).parents[2] / "dashboard" / "app" / "pages" / "compare.py")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two designer variants of MortalGate 2.5 (short games: a race to 4 and to 8 Grace),
    two bot games of each; built once, the page only reads them."""
    home = tmp_path_factory.mktemp("compare") / "store"
    (home / "variants").mkdir(parents=True)
    for goal in (4, 8):
        (home / "variants" / f"race{goal}.toml").write_text(
            f'extends = "mortalgate@2.5"\ntitle = "race to {goal}"\n[params]\ngrace_to_win = {goal}\n')
    ws = Workspace(home)
    for variant in VARIANTS:
        rules = ws.rules(f"mortalgate@{variant}")
        for seed in (1, 2):
            save_events(ws, play(rules, rules.ruleset.example_seats, seed=seed, match_id=f"{variant}-{seed}"))
    return home


@pytest.fixture
def at(store: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    """The page over the shared store, with the two variants as A and B."""
    monkeypatch.setenv("TABLETAPE_HOME", str(store))
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    choose(app, "Game", "MortalGate")  # games are listed by name
    app.run()
    choose(app, "Version A", "race4")
    choose(app, "Version B", "race8")
    yield app.run()


def widget(widgets: Sequence[Any], label: str) -> Any:
    found = [w for w in widgets if w.label == label]
    assert len(found) == 1, f"{label!r} not unique among {[w.label for w in widgets]}"
    return found[0]


def choose(at: AppTest, label: str, shown: str) -> None:
    box = widget(at.selectbox, label)
    box.select_index(box.options.index(shown))


def texts(at: AppTest) -> str:
    """Everything the page wrote as markdown, warnings and successes."""
    return "\n".join(e.value for kind in (at.markdown, at.warning, at.success, at.caption) for e in kind)


def table(at: AppTest, column: str) -> Any:
    """The first table on the page with this column."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_rule_diff_shows_changed_params_with_provenance_and_changelogs(at: AppTest) -> None:
    assert not at.exception
    params = table(at, "param")
    assert list(params["param"]) == ["grace_to_win"]
    row = params.iloc[0]
    assert (row["mortalgate@race4"], row["source mortalgate@race4"], row["mortalgate@race8"]) == ("4", "variant", "8")
    at.toggle(key="cmp_only_changed").set_value(False).run()
    assert "kill_grace" in set(table(at, "param")["param"])
    choose(at, "Version A", "1.5")
    choose(at, "Version B", "2.5")
    at.run()
    grace = table(at, "param").set_index("param").loc["grace_to_win"]
    assert (grace["mortalgate@1.5"], grace["source mortalgate@1.5"], grace["mortalgate@2.5"], grace["source mortalgate@2.5"]) == ("50", "assumed", "20", "rules")
    assert texts(at).count("Altar capture worth 2 Grace; victory at 20 Grace.") == 1  # the way from 1.5 to 2.5, once


def test_reaudit_a_log_under_another_version_shows_the_first_divergence(at: AppTest, store: Path) -> None:
    choose(at, "Log to re-audit", next(o for o in widget(at.selectbox, "Log to re-audit").options if o.startswith("race4-1 ")))
    at.run()
    assert widget(at.selectbox, "Re-audit under").value == "mortalgate@race8"
    at.button(key="cmp_reaudit").click().run()
    assert not at.exception
    assert "race4-1** was recorded under `mortalgate@race4`" in texts(at)
    assert "First divergence at seq 106 (AltarCaptured)" in texts(at)  # race4 ends the game there, race8 goes on
    assert "the game goes on" in table(at, "rule").set_index("rule").loc["outcome"]["message"].tolist()
    assert "the table declared blue the winner, but by the rules the game is not over" in texts(at)
    assert "the outcome changes" in texts(at)
    choose(at, "Re-audit under", "mortalgate@1.5")
    at.run()
    at.button(key="cmp_reaudit").click().run()
    comparison = Workspace(store).compare("race4-1", "mortalgate@race4", "mortalgate@1.5")
    assert comparison.first is not None
    assert f"First divergence at seq {comparison.first.seq} ({comparison.first.event_type})." in texts(at)
    divergence = table(at, "under")
    assert set(divergence["under"]) <= {"mortalgate@race4", "mortalgate@1.5", "both"} and not divergence.empty
    choose(at, "Log to re-audit", next(o for o in widget(at.selectbox, "Log to re-audit").options if o.startswith("race8-1 ")))
    at.run()
    assert widget(at.selectbox, "Re-audit under").value == "mortalgate@race4"  # a log of B is re-audited under A


def test_cohorts_give_verdicts_that_match_a_direct_count_with_charts(at: AppTest, store: Path) -> None:
    assert not at.exception
    ws = Workspace(store)
    winners = {v: [ws.audit(f"{v}-{seed}").result.computed.winner for seed in (1, 2)] for v in VARIANTS}  # type: ignore[union-attr]
    rows = table(at, "n_a").set_index("measure")
    side = rows.index[0]
    assert side == "seat_balance"
    favoured = max(("red", "blue"), key=lambda s: (sum(w == s for ws_ in winners.values() for w in ws_), s))
    for column, variant in (("a", "race4"), ("b", "race8")):
        wins = winners[variant].count(favoured)
        low, high = proportion_confint(wins, 2, method="wilson")
        assert rows.loc["seat_balance", column] == f"{wins / 2 * 100:.1f}% [{low * 100:.1f}, {high * 100:.1f}]"
    assert (rows.loc["length", "n_a"], rows.loc["length", "n_b"]) == (2, 2)
    assert "significant differences (Holm-corrected, 5%) in nothing" in texts(at)  # two games each decide nothing
    assert "you need about" in texts(at)
    assert len(at.get("vega_lite_chart")) + len(at.get("arrow_vega_lite_chart")) >= 3  # forest, histogram, survival
    boards = [m.value for m in at.markdown if 'class="tabletape-board"' in m.value]
    assert len(boards) == 4 and "Where altars change hands" in texts(at)  # two heatmaps per version, A then B
    assert 'fill="#0072B2"' in boards[2] and 'fill="#E69F00"' in boards[3] and 'class="heat"' in boards[2] + boards[3]
    at.radio(key="cmp_kind").set_value("human playtests").run()
    assert "needs finished human playtests of both mortalgate@race4 (0 games) and mortalgate@race8 (0 games)" in at.info[0].value


def test_cohorts_lead_with_seat_balance_in_plain_words_and_keep_the_statistics_one_click_away(at: AppTest, store: Path) -> None:
    """Two games of each variant decide nothing: the page says so without statistics, how
    far the change is still open and how many more games would tell, and keeps the table,
    the Holm-corrected p-values and the sample-size advice in an expander."""
    report = compare_cohorts(Workspace(store), "mortalgate@race4", "mortalgate@race8", kind="bots")
    said = verdicts.plain(report.verdicts, report.a, report.b)
    assert said[0].startswith("No clear change in how often ") and " between race4 and race8: " in said[0]
    assert "could be anywhere between " in said[0] and "more games per version would tell a change of 5 points." in said[0]
    assert said[1:] == [f"Nothing else changes clearly ({len(report.verdicts) - 1} other measures compared)."]
    cohorts = next(t for t in at.tabs if t.label == "Cohorts")
    assert [m.value for m in cohorts.markdown[:2]] == [f"**{said[0]}**", said[1]]  # before any chart or number
    [statistics] = [e for e in cohorts.expander if e.label.startswith("The statistics")]
    assert "p_holm" in statistics.dataframe[0].value.columns and len(cohorts.dataframe) == len(statistics.dataframe)
    assert statistics.markdown[-1].value == report.conclusion()
    assert any("you need about" in m.value for m in statistics.markdown)


def test_a_single_version_game_without_variants_offers_nothing_to_compare(at: AppTest, store: Path) -> None:
    widget(at.selectbox, "Game").select_index(next(i for i, g in enumerate(Workspace(store).rulesets()) if g["name"] == "frontier"))
    at.run()
    assert not at.exception
    assert "has one version (1.0) and no designer variant" in at.info[0].value
    assert not [s for s in at.selectbox if s.label == "Version B"]


def test_a_simulation_batch_of_both_versions_reports_progress_and_the_comparison(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETAPE_HOME", str(tmp_path / "store"))
    reported: list[tuple[int, int]] = []
    real = batch.compare_versions

    def watched(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def both(done: int, total: int) -> None:
            reported.append((done, total))
            progress(done, total)
        return real(*args, progress=both, **kwargs)

    monkeypatch.setattr(batch, "compare_versions", watched)
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    choose(at, "Game", "MortalGate")  # games are listed by name
    at.run()
    choose(at, "Version A", "2.1")
    choose(at, "Version B", "2.5")
    at.run()
    at.number_input(key="cmp_games").set_value(2)
    at.number_input(key="cmp_seed").set_value(7)
    at.number_input(key="cmp_detect").set_value(20)  # the CLI's --detect 0.2
    at.button(key="cmp_simulate").click().run()
    assert not at.exception, at.exception
    assert reported[-1] == (4, 4)  # two games of each version, reported as they finish
    [bar] = at.get("progress")
    assert (bar.proto.value, bar.proto.text) == (100, "done")
    simulated = table(at, "p_holm")
    assert {"seat_balance", "first_player", "length"} <= set(simulated["measure"])
    assert "mortalgate@2.1 (A) vs mortalgate@2.5 (B), bot games: 2 and 2 games" in texts(at)
    assert "4 games stored in" in texts(at)
    assert "detect a 20-point change in" in texts(at) and "detect a 5-point" not in texts(at)
    assert len(Workspace(tmp_path / "store").matches()) == 4
    cohort = [d.value for d in at.dataframe if "n_a" in d.value.columns][-1]  # the Cohorts tab, drawn after the run
    assert cohort.set_index("measure").loc["length", "n_a"] == 2


def test_cohorts_leave_what_if_branches_out_unless_asked(store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    mine = tmp_path / "store"
    shutil.copytree(store, mine)
    ws = Workspace(mine)
    ws.branch("race4-1", ws.store.last("race4-1")[0], new_id="race4-1-again")  # the whole game: finished, a third race4 row
    monkeypatch.setenv("TABLETAPE_HOME", str(mine))
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    choose(app, "Game", "MortalGate")
    app.run()
    choose(app, "Version A", "race4")
    choose(app, "Version B", "race8")
    app.run()
    assert table(app, "n_a").set_index("measure").loc["length", "n_a"] == 2
    app.checkbox(key="cmp_branches").check().run()
    assert table(app, "n_a").set_index("measure").loc["length", "n_a"] == 3
