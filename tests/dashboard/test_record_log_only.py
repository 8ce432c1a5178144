"""Recording a log-only match on the Record page: a seat, then what it did."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from projections.workspace import Workspace
from rulesets.freeform import ActionTaken, DiceRolled, ScoreChanged, TurnPassed
from tests.dashboard.test_record import last, panel, start


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty store the page opens through $TABLETAPE_HOME."""
    monkeypatch.setenv("TABLETAPE_HOME", str(tmp_path / "store"))
    return tmp_path / "store"


def button(at: AppTest, label: str) -> Any:
    """The one button with this label."""
    [found] = [b for b in at.button if b.label == label]
    return found


def ok(at: AppTest) -> AppTest:
    assert not at.exception and not at.error, [e.value for e in at.error]
    return at


def _earlier_match(home: Path, title: str) -> None:
    """A log-only match of the same designer game played before, with its own verbs."""
    ws = Workspace(home)
    earlier = ws.new_match("freeform", {"red": "cy", "blue": "di"}, title=title)
    ws.append_events(earlier.match_id, [ActionTaken(by="red", verb="trades"), ActionTaken(by="blue", verb="trades")])
    other = ws.new_match("freeform", {"red": "cy"}, title="another game")
    ws.append_events(other.match_id, [ActionTaken(by="red", verb="flies")])


def test_a_log_only_event_takes_two_taps_a_seat_and_what_it_did(home: Path) -> None:
    _earlier_match(home, "thursday playtest")
    at, ws, match_id = start(home, "freeform@1")
    labels = [b.label for b in at.button]
    assert "trades" in labels and "flies" not in labels  # the verbs of this designer game only
    ok(button(at, "trades").click().run())
    assert last(ws, match_id) == ActionTaken(seq=1, at=last(ws, match_id).at, by="red", verb="trades", prev=last(ws, match_id).prev)
    ok(at.button_group(key="rec_log_seat_1").set_value("blue").run())  # tap 1: the seat (a tap reruns the page)
    ok(button(at, "+1").click().run())  # tap 2: what it did
    written = last(ws, match_id)
    assert isinstance(written, ScoreChanged) and (written.by, written.seat, written.delta) == ("blue", "blue", 1)
    ok(button(at, "Pass the turn (red)").click().run())
    assert isinstance(last(ws, match_id), TurnPassed) and last(ws, match_id).by == "red"
    assert "Pass the turn (blue)" in [b.label for b in at.button]  # the seat follows the turn


def test_a_new_verb_is_offered_again_after_it_is_used(home: Path) -> None:
    at, ws, match_id = start(home, "freeform@1")
    at.text_input(key="rec_new_verb_0").input("builds")
    ok(at.run())
    ok(button(at, "Record").click().run())
    written = last(ws, match_id)
    assert isinstance(written, ActionTaken) and (written.by, written.verb) == ("red", "builds")
    assert "builds" in [b.label for b in at.button]


def test_the_dice_pad_writes_the_faces_tapped(home: Path) -> None:
    at, ws, match_id = start(home, "freeform@1")
    at.number_input(key="rec_log_dice_0_count").set_value(2)
    at.button_group(key="rec_log_dice_0_sides").set_value(6)
    ok(at.run())
    at.button_group(key="rec_log_dice_0_2d6_0").set_value(3)
    at.button_group(key="rec_log_dice_0_2d6_1").set_value(5)
    ok(at.run())
    ok(button(at, "Record the roll: ana rolls 2d6: 3 + 5 = 8").click().run())
    written = last(ws, match_id)
    assert isinstance(written, DiceRolled) and (written.by, written.dice, written.faces) == ("red", "2d6", (3, 5))
    assert panel(at)["latest"][0][1] == "ana rolls 2d6: 3 + 5 = 8"  # in the panel beside the state


def test_a_score_of_any_number_is_added(home: Path) -> None:
    at, ws, match_id = start(home, "freeform@1")
    at.number_input(key="rec_points_0").set_value(7)
    ok(at.run())
    ok(button(at, "Add").click().run())
    written = last(ws, match_id)
    assert isinstance(written, ScoreChanged) and (written.seat, written.delta) == ("red", 7)
    ok(button(at, "-1").click().run())
    assert panel(at)["latest"][0][1] == "ana scores -1 (6)"
