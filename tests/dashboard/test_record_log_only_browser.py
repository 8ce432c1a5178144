"""The log-only pad on the Record page in Chromium: a seat, then what it did, by taps."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from benchmarks import record_browser as driver
from projections.workspace import Workspace
from rulesets.freeform import ActionTaken, ScoreChanged


@pytest.fixture(scope="module", autouse=True)
def chromium_present() -> None:
    if not Path(driver.CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("/usr/bin/chromium is missing: `make test` installs it (apt-get install chromium)")
        pytest.skip("Debian's chromium is not installed (make test installs it)")


def _written(ws: Workspace, match_id: str, count: int, deadline: float = 180) -> list:
    """The match's events once it has `count` of them (polled with a generous deadline)."""
    until = time.monotonic() + deadline
    while time.monotonic() < until:
        events = list(ws.events(match_id))
        if len(events) >= count:
            return events
        time.sleep(0.2)
    raise AssertionError(f"{match_id} never reached {count} events: {list(ws.events(match_id))}")


def test_a_seat_and_a_score_or_a_verb_are_two_taps_on_a_tablet(tmp_path: Path) -> None:
    home = tmp_path / "store"
    ws = Workspace(home)
    earlier = ws.new_match("freeform", {"red": "cy", "blue": "di"}, title="Dice Race").match_id
    ws.append_events(earlier, [ActionTaken(by="red", verb="trades")])
    match_id = ws.new_match("freeform", {"red": "ana", "blue": "ben"}, title="Dice Race").match_id
    with driver.dashboard(home) as url, driver.chromium(driver.SIZES["tablet"]) as page:
        page.goto(url + f"record?match={match_id}")
        page.get_by_role("button", name="Continue").click()
        page.get_by_role("button", name="Pass the turn (red)").wait_for(timeout=180_000)  # a loaded machine is slow to draw
        page.get_by_role("radio", name="blue (ben)").click()
        page.get_by_role("button", name="Pass the turn (blue)").wait_for(timeout=180_000)
        page.get_by_role("button", name="+1", exact=True).click()
        score = _written(ws, match_id, 2)[-1]
        assert isinstance(score, ScoreChanged) and (score.seat, score.delta) == ("blue", 1)
        page.get_by_role("button", name="Pass the turn (red)").wait_for(timeout=180_000)  # the next seq's pad
        page.get_by_role("button", name="trades", exact=True).click()
        action = _written(ws, match_id, 3)[-1]
        assert isinstance(action, ActionTaken) and (action.by, action.verb) == ("red", "trades")
