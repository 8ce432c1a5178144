"""The Compare page, driven through its widgets: the rule diff, a re-audit under another
version, cohort statistics from the warehouse, and a simulation batch with progress."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from projections import batch
from projections.demo import save_events
from projections.simulate import play
from projections.workspace import Workspace

VARIANTS = ("race4", "race8")
PAGE = str(Path(__file__).parents[2] / "dashboard" / "pages" / "compare.py")


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
    assert "Altar capture worth 2 Grace; victory at 20 Grace." in texts(at)


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


def test_cohorts_come_from_the_warehouse_with_charts(at: AppTest) -> None:
    summary = table(at, "n_a")
    events = summary[summary["measure"] == "events"].iloc[0]
    assert (events["n_a"], events["n_b"]) == (2, 2)
    assert events["mean_a"] < events["mean_b"]
    charts = at.get("vega_lite_chart")
    assert len(charts) >= 3  # lengths, win rates with intervals, pacing
    choose(at, "Matches", "playtests")
    at.run()
    assert "The warehouse has no finished matches of mortalgate@race4 or mortalgate@race8 from playtests" in at.info[0].value


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
    choose(at, "Version A", "2.1")
    choose(at, "Version B", "2.5")
    at.run()
    at.number_input(key="cmp_games").set_value(1)
    at.number_input(key="cmp_seed").set_value(7)
    at.button(key="cmp_simulate").click().run()
    assert not at.exception, at.exception
    assert reported[-1] == (2, 2)  # one game of each version, reported as they finish
    [bar] = at.get("progress")
    assert (bar.proto.value, bar.proto.text) == (100, "done")
    rows = table(at, "significant")
    assert {"events", "turns"} <= set(rows["measure"])
    assert "mortalgate@2.1 against mortalgate@2.5" in texts(at)
    assert len(Workspace(tmp_path / "store").matches()) == 2
    summary = table(at, "n_a")  # the cohorts tab now reads the simulated games too
    assert not summary.empty
