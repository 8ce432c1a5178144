"""Screenshots of what a designer sees, for the docs: every game's Record page mid-game and
its Replay page, at a laptop's and a tablet's size, in Debian's Chromium.

    python -m benchmarks.screenshots [DIR]        # default docs/screens/

Each game's shortest clean golden game is stored as a playtest and continued on the Record
page from its middle (the board shows pieces, scores and lit targets), and opened on Replay.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from benchmarks.record_browser import (
    GOLDEN,
    ROOT,
    SIZES,
    chromium,
    dashboard,
    read_golden,
    start_match,
)
from projections.workspace import Workspace


def take(out: Path) -> list[Path]:
    """Write the screenshots into `out`; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp()) / "store"
    ws = Workspace(home)
    games = {}
    for game, path in GOLDEN.items():
        rules, events = read_golden(path, ws)
        start_match(ws, rules, events, game)
        middle = len(events) // 2
        while middle > 1 and type(events[middle]).__name__ in ("TurnStarted", "StepFinished"):
            middle -= 1
        ws.append_events(game, events[1:middle])
        games[game] = rules
    made = []
    with dashboard(home) as url:
        for size, viewport in SIZES.items():
            with chromium(viewport) as page:
                for game in games:
                    page.goto(url + f"record?match={game}")
                    page.get_by_role("button", name="Continue").click()
                    page.locator(".tt-board svg.tabletape-board").wait_for()
                    page.wait_for_timeout(400)
                    page.evaluate("() => document.querySelector('[data-testid=stMain]')?.scrollTo(0, 0)")
                    shot = out / f"record-{game}-{size}.png"
                    page.screenshot(path=str(shot))
                    made.append(shot)
                    page.get_by_role("button", name="Close").click()
                    page.goto(url + f"replay?match={game}")
                    page.locator(".tabletape-board").first.wait_for()
                    page.wait_for_timeout(400)
                    shot = out / f"replay-{game}-{size}.png"
                    page.screenshot(path=str(shot))
                    made.append(shot)
    return made


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screens"
    for path in take(target):
        print(path)
