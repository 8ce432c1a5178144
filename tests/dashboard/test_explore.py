"""The Explore page, driven through its widgets: named queries with parameters and charts,
and the read-only SQL box that refuses to touch files or change anything."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from projections.corpus.demo import save_events
from projections.corpus.simulate import play
from projections.warehouse.queries import named_queries
from projections.workspace import Workspace

PAGE = str(Path(__file__).parents[2] / "dashboard" / "app" / "pages" / "explore.py")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two short bot games (a designer variant racing to 4 Grace)."""
    home = tmp_path_factory.mktemp("explore") / "store"
    (home / "variants").mkdir(parents=True)
    (home / "variants" / "race4.toml").write_text('extends = "mortalgate@2.5"\n[params]\ngrace_to_win = 4\n')
    ws = Workspace(home)
    rules = ws.rules("mortalgate@race4")
    for seed in (1, 2):
        save_events(ws, play(rules, rules.ruleset.example_seats, seed=seed, match_id=f"race4-{seed}"))
    return home


@pytest.fixture
def at(store: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv("TABLETAPE_HOME", str(store))
    yield AppTest.from_file(PAGE, default_timeout=60).run()


def widget(widgets: Sequence[Any], label: str) -> Any:
    found = [w for w in widgets if w.label == label]
    assert len(found) == 1, f"{label!r} not unique among {[w.label for w in widgets]}"
    return found[0]


def run_query(at: AppTest, name: str, **params: str) -> None:
    """Choose a named query, fill its parameters, press Run."""
    box = widget(at.selectbox, "Query")
    box.select_index(list(named_queries()).index(name))
    at.run()
    for param, value in params.items():
        at.text_input(key=f"ex_{name}_{param}").input(value)
    next(b for b in at.button if b.label == "Run").click().run()


def test_every_named_query_is_offered_with_its_description(at: AppTest) -> None:
    assert widget(at.selectbox, "Query").options == [n.replace("_", " ") for n in named_queries()]
    assert not at.exception


def test_a_named_query_runs_with_its_parameters_and_draws_a_chart(at: AppTest) -> None:
    run_query(at, "side_win_rates", ruleset="mortalgate", version="race4")
    assert not at.exception and not at.error
    [rates] = [d.value for d in at.dataframe]
    assert set(rates["side"]) == {"red", "blue", "(first turn)"}
    assert set(rates["version"]) == {"race4"}
    assert rates.loc[rates["side"] != "(first turn)", "matches"].tolist() == [2, 2]
    assert widget(at.selectbox, "Chart").value == "win_rate"
    assert len(at.get("arrow_vega_lite_chart")) + len(at.get("vega_lite_chart")) == 1
    widget(at.selectbox, "Chart").set_value("(no chart)").run()
    assert not at.get("vega_lite_chart") and not at.get("arrow_vega_lite_chart")


def test_query_bars_say_what_every_row_shares_once_and_label_each_bar_in_full(at: AppTest) -> None:
    """One game and one version: said once above the bars, so each bar is named by its side
    alone, and no label or title is cut short."""
    run_query(at, "side_win_rates", ruleset="mortalgate", version="race4")
    [chart] = at.get("arrow_vega_lite_chart") + at.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    assert spec["title"] == {"text": ["win_rate by side (lines: 95% interval)", "ruleset: mortalgate · version: race4"],
                             "anchor": "start", "limit": 0}
    bar = spec["layer"][0]["encoding"]
    assert bar["y"]["axis"]["labelLimit"] == 0 and bar["x"]["axis"]["titleLimit"] == 0
    assert bar["x"]["title"] == "win_rate" and bar["tooltip"][0]["title"] == "side"


def test_a_parameter_narrows_the_result(at: AppTest) -> None:
    run_query(at, "game_length", ruleset="frontier-of-nothing")
    assert at.dataframe[0].value.empty
    run_query(at, "game_length", ruleset="")
    assert at.dataframe[0].value["matches"].tolist() == [2]


def test_the_sql_box_reads_the_warehouse(at: AppTest) -> None:
    at.text_area(key="ex_sql").input("SELECT match_id, events FROM matches ORDER BY match_id")
    at.button(key="ex_run_sql").click().run()
    result = at.dataframe[-1].value
    assert result["match_id"].tolist() == ["race4-1", "race4-2"]
    assert "2 row(s)" in [c.value for c in at.caption]


@pytest.mark.parametrize("sql", [
    "COPY matches TO '/tmp/tabletape-leak.csv'",
    "ATTACH '/tmp/tabletape-other.duckdb' AS other",
    "DELETE FROM matches",
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELEC nonsense",
])
def test_the_sql_box_refuses_files_attach_and_writes_in_one_line(at: AppTest, store: Path, sql: str) -> None:
    at.text_area(key="ex_sql").input(sql)
    at.button(key="ex_run_sql").click().run()
    assert not at.exception
    [error] = at.error
    assert error.value.startswith("--sql: ") and "\n" not in error.value
    assert not Path("/tmp/tabletape-leak.csv").exists() and not Path("/tmp/tabletape-other.duckdb").exists()
    at.text_area(key="ex_sql").input("SELECT count(*) AS n FROM matches")
    at.button(key="ex_run_sql").click().run()
    assert at.dataframe[-1].value["n"].tolist() == [2]


def test_a_new_match_shows_up_without_a_manual_sync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETAPE_HOME", str(tmp_path / "store"))
    ws = Workspace(tmp_path / "store")
    ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, match_id="first")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.text_area(key="ex_sql").input("SELECT count(*) AS n FROM matches")
    at.button(key="ex_run_sql").click().run()
    assert at.dataframe[-1].value["n"].tolist() == [1]
    ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, match_id="second")
    at.button(key="ex_run_sql").click().run()
    assert at.dataframe[-1].value["n"].tolist() == [2]


def test_pacing_with_its_default_inputs_draws_its_table_and_chart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Human playtests give pacing a turn row whose phase is empty: charted, not a crash."""
    from projections.corpus.demo import import_playtests

    home = tmp_path / "store"
    import_playtests(Workspace(home))
    monkeypatch.setenv("TABLETAPE_HOME", str(home))
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    run_query(at, "pacing")
    assert not at.exception and not at.error
    frame = at.dataframe[0].value
    assert "turn" in set(frame["unit"]) and frame.loc[frame["unit"] == "turn", "median_s"].gt(0).all()
    assert len(at.get("arrow_vega_lite_chart")) + len(at.get("vega_lite_chart")) == 1
