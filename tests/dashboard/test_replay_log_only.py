"""Replaying a log-only match: its events in words, the scores as a table and over time."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from projections.workspace import Workspace
from rulesets.freeform import DiceRolled, ScoreChanged, TurnPassed
from tests.dashboard.conftest import ask, board_frames

PAGE = str(Path(__file__).parents[2] / "dashboard" / "app" / "pages" / "replay.py")


@pytest.fixture
def dice_race(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """A store holding one log-only match: a roll, three score changes, a pass."""
    home = tmp_path / "store"
    monkeypatch.setenv("TABLETAPE_HOME", str(home))
    ws = Workspace(home)
    match_id = ws.new_match("freeform", {"red": "ana", "blue": "ben"}, title="Dice Race").match_id
    ws.append_events(match_id, [DiceRolled(by="red", dice="2d6", faces=(3, 5)), ScoreChanged(seat="red", delta=8),
                                TurnPassed(by="red"), ScoreChanged(seat="blue", delta=4), ScoreChanged(seat="blue", total=12)])
    return home, match_id


def test_the_scores_of_a_log_only_match_are_kept_after_every_event(dice_race: tuple[Path, str]) -> None:
    home, match_id = dice_race
    curves = Workspace(home).timeline(match_id).curves()
    assert curves["score.red"] == [0, 0, 8, 8, 8, 8]
    assert curves["score.blue"] == [0, 0, 0, 0, 4, 12]
    assert curves["score"] == [0, 0, 8, 8, 4, -4]  # red's lead over blue: a lead change at the end


def test_replay_shows_a_log_only_match_in_words_its_scores_and_their_chart(dice_race: tuple[Path, str]) -> None:
    _, match_id = dice_race
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["match_id"] = match_id
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    [chart] = at.get("arrow_vega_lite_chart") + at.get("vega_lite_chart")
    assert chart is not None
    assert sorted(board_frames(at)) == [0]  # the board the page opens on; the browser asks for the rest
    shown = ask(at, 0)
    assert shown[5]["said"] == "ben is set to 12" and shown[1]["said"] == "ana rolls 2d6: 3 + 5 = 8"
    # the state as a table: the view of every game without a board
    assert "<tr><th>scores</th><td>{&quot;red&quot;:8,&quot;blue&quot;:12}</td></tr>" in shown[5]["board"]
