"""Win chances on the Replay page: computed when asked, with a progress bar; the curve says
who played it out and what they saw, the turning points jump to where they happened, and
a second look is read from the cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from projections.workspace import Workspace
from rulesets import registry
from tests.chances_support import FORCED, FORCING, forced_game
from tests.dashboard.conftest import APP, by_label, open_replay, run_ok, texts
from tests.dashboard.test_compare import PAGE as COMPARE
from tests.dashboard.test_compare import choose, table
from tests.plugin_support import install, pig, site

__all__ = ["pig", "site"]  # fixtures


@pytest.fixture
def home(pig: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store with the Pig game decided early and a Pig match without bots, as $TABLETAPE_HOME."""
    home = tmp_path / "store"
    ws = Workspace(home)
    forced_game(ws)
    ws.new_match("pig-checked", {"a": "ana", "b": "ben"}, match_id="no-bots")
    monkeypatch.setenv("TABLETAPE_HOME", str(home))
    return home


def _open(at: AppTest) -> AppTest:
    """Open the win chances' panel, as a click on it does: its inputs are drawn then."""
    at.session_state[f"replay.chances_open.{at.session_state['replay.for']}"] = True
    return run_ok(at)


def _compute(at: AppTest) -> AppTest:
    _open(at)
    by_label(at.number_input, "Games per point").set_value(100)
    at.button(key="replay.chances_go").click()
    return run_ok(at)


def test_the_replay_page_shows_where_the_game_was_decided_and_jumps_there(home: Path) -> None:
    at = open_replay(AppTest.from_file(APP, default_timeout=120).run(), FORCED)
    assert "Decided in its first quarter" not in texts(at)  # nothing is played until asked
    shown = texts(_compute(at))
    assert "100 games played on from each turn start by random bots (seed 1); the bots saw the whole table" in shown
    assert f"Decided in its first quarter: a's chance stayed at 90% or more from event {FORCING} of 78" in shown
    assert len(at.get("arrow_vega_lite_chart")) + len(at.get("vega_lite_chart")) == 1
    [bar] = at.get("progress")
    assert (bar.proto.value, bar.proto.text) == (100, "done")
    swing = next(b for b in at.button if b.label.startswith("Event 1: events 1-17 (to turn 2)"))
    swing.click()
    run_ok(at)
    assert at.session_state["replay.seq"] == 1
    assert "read from the cache" in texts(_compute(at))


def test_a_curve_played_a_round_ahead_says_it_was_scored_by_a_model_and_how_many_games_it_took(
        home: Path, site: Path) -> None:
    install(site, {"pig-scored": "pig_levels:SCORED"}, name="pig-scored", version="0.1")
    registry.refresh()
    forced_game(Workspace(home), "pig-scored", "scored")
    at = _open(open_replay(AppTest.from_file(APP, default_timeout=120).run(), "scored"))
    by_label(at.selectbox, "Play ahead").set_value("1")
    by_label(at.number_input, "Stop at ± points").set_value(5.0)
    shown = texts(_compute(at))
    assert "up to 100 games played on from each turn start by random bots (seed 1); played 1 round ahead, then scored by a model fitted on" in shown
    assert "games played to the end from" in shown and "of this match's points" in shown  # the page fits on the match first
    assert "a turn start stopped once its 95% interval was within 5 points:" in shown
    assert any(b.label.startswith("Event 1: events 1-17 (to turn 2)") for b in at.button)  # the swing where a held 48


def test_a_turning_points_link_opens_the_replay_at_its_event(home: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["match"] = FORCED
    at.query_params["at"] = str(FORCING)
    at.run()
    at = open_replay(at, FORCED)
    assert at.session_state["replay.seq"] == FORCING


def test_a_game_without_bots_says_there_are_no_chances_and_why(home: Path) -> None:
    at = open_replay(AppTest.from_file(APP, default_timeout=60).run(), "no-bots")
    assert "No win chances: pig-checked is a level 2 game: simulate needs level 4 (its `legal` function)." in texts(at)


def test_the_compare_page_adds_how_early_games_are_decided_when_asked(home: Path) -> None:
    at = AppTest.from_file(COMPARE, default_timeout=120).run()
    choose(at, "Game", "Pig with bots")
    at.run()
    choose(at, "Version A", "short")
    choose(at, "Version B", "100")
    at.run()
    at.number_input(key="cmp_games").set_value(3)
    at.number_input(key="cmp_chances").set_value(3)
    at.run()
    at.number_input(key="cmp_chance_rollouts").set_value(2)
    at.button(key="cmp_simulate").click()
    run_ok(at)
    measures = set(table(at, "p_holm")["measure"])
    assert {"decided_when", "chance_lead_changes", "seat_balance"} <= measures
