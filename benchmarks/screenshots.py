"""Screenshots of what a designer sees, for the docs: every game's Record page mid-game and
at its first choice made by pointing (a turn order, an army, a card dealt), its Replay page,
the Matches and Rulebook pages, and Compare's verdicts and Explore's chart over bot games of
Mercy Frontier, each at a laptop's and a tablet's size, and Compare's board heatmaps, in
Debian's Chromium.

    python -m benchmarks.screenshots [DIR]        # default docs/screens/

Each game's shortest clean golden game is stored as a playtest and continued on the Record
page from its middle (the board shows pieces, scores and lit targets), and opened on Replay.
For Compare, bot games of Mercy Frontier's last two versions are simulated (seeded).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.record_browser import (
    GOLDEN,
    ROOT,
    SIZES,
    chromium,
    dashboard,
    open_playtest,
    read_golden,
    start_match,
)
from events.base import Event
from projections.corpus.batch import simulate
from projections.read.replay import Fold
from projections.record.tapplan import plan
from projections.workspace import Workspace
from rulesets.registry import Rules

HEATMAP_GAMES = 30
"""Bot games per Mercy Frontier version behind the heatmap screenshot."""


def pointing(rules: Rules, events: Sequence[Event]) -> int | None:
    """The seq of the first choice the table makes by pointing (a turn order, an army, a
    card dealt), or None if the game has none."""
    fold = Fold(rules, audit=False)
    step = fold.first(events[0])  # type: ignore[arg-type]
    for event in events[1:]:
        how = plan(rules, step.state, event)
        if how.kind == "compose" or (how.kind == "dice" and len(how.taps) == 1):
            return event.seq
        step = fold(step, event)
    return None


def _shoot(page: Any, url: str, match_id: str, shot: Path) -> Path:
    """The Record page of `match_id`, continued, as it first stands."""
    open_playtest(page, url, match_id)
    page.wait_for_timeout(400)
    page.screenshot(path=str(shot))
    page.get_by_role("button", name="Close").click()
    return shot


def take(out: Path) -> list[Path]:
    """Write the screenshots into `out`; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp()) / "store"
    ws = Workspace(home)
    games = {}
    setups = []
    for game, path in GOLDEN.items():
        rules, events = read_golden(path, ws)
        start_match(ws, rules, events, game)
        middle = len(events) // 2
        while middle > 1 and type(events[middle]).__name__ in ("TurnStarted", "StepFinished"):
            middle -= 1
        ws.append_events(game, events[1:middle])
        games[game] = rules
        at = pointing(rules, events)
        if at is not None:
            start_match(ws, rules, events, f"{game}-setup")
            ws.append_events(f"{game}-setup", events[1:at])
            setups.append(game)
    made = []
    with dashboard(home) as url:
        for size, viewport in SIZES.items():
            with chromium(viewport) as page:
                for game in setups:
                    made.append(_shoot(page, url, f"{game}-setup", out / f"record-{game}-setup-{size}.png"))
                for game in games:
                    made.append(_shoot(page, url, game, out / f"record-{game}-{size}.png"))
                made += replay_shots(page, url, out, size, games)
                made += [_page(page, url + "", "Matches", out / f"matches-{size}.png"),
                         _page(page, url + "rulebook", "Rulebook", out / f"rulebook-{size}.png")]
    return made


def _page(page: Any, url: str, title: str, shot: Path) -> Path:
    """A page as it first stands, once its first table has drawn."""
    page.goto(url)
    page.get_by_role("heading", name=title, exact=True).wait_for()
    page.locator('[data-testid="stDataFrame"]').first.wait_for()
    _settled(page)
    page.screenshot(path=str(shot))
    return shot


def _settled(page: Any) -> None:
    """Wait until the script has finished and the charts have drawn."""
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')")
    page.wait_for_timeout(800)


def replay_shots(page: Any, url: str, out: Path, size: str, games: Iterable[str]) -> list[Path]:
    """Each match on Replay at its last event, as the board in the browser draws it."""
    made = []
    for game in games:
        page.goto(url + f"replay?match={game}")
        page.locator(".tt-scrub[data-drawn]").wait_for(timeout=120_000)
        page.get_by_role("button", name="Last").click()
        page.locator(".tt-scrub").evaluate("(root) => new Promise((done) => { const look = () => root.dataset.drawn === "
                                           "root.querySelector('.slider').max ? done(true) : setTimeout(look, 50); look(); })")
        page.wait_for_timeout(300)
        shot = out / f"replay-{game}-{size}.png"
        page.screenshot(path=str(shot))
        made.append(shot)
    return made


def compare_shots(out: Path) -> list[Path]:
    """Over bot games of Mercy Frontier's last two versions: the Compare page's Cohorts tab
    (the verdict in words first) and Explore's win rates of each side with their chart, at both
    sizes; and one shot of the Cohorts tab's heatmaps (where mercenaries
    die on the board)."""
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp()) / "store"
    ws = Workspace(home)
    for version in ("accelerated", "current"):
        simulate(ws, f"mercyfrontier@{version}", games=HEATMAP_GAMES, seed=1, workers=1)
    made = []
    with dashboard(home) as url:
        for size, viewport in (*SIZES.items(), ("heatmaps", (1400, 1000))):
            with chromium(viewport) as page:
                page.set_default_timeout(120_000)
                _cohorts(page, url)
                if size == "heatmaps":
                    heading = page.get_by_text("Where mercenaries die")
                    heading.evaluate("e => e.scrollIntoView({block: 'start'})")
                    page.wait_for_timeout(300)
                    made.append(out / "compare-mercyfrontier-heatmaps.png")
                    page.screenshot(path=str(made[-1]))
                    continue
                made.append(out / f"compare-mercyfrontier-{size}.png")
                page.screenshot(path=str(made[-1]))
                page.goto(url + "explore")
                page.get_by_role("heading", name="Explore", exact=True).wait_for()
                page.locator('[data-testid="stSelectbox"]').filter(has_text="Query").click()
                page.get_by_role("option", name="side win rates").click()
                page.get_by_role("button", name="Run").click()
                page.locator('[data-testid="stVegaLiteChart"]').first.wait_for()
                _settled(page)
                page.locator('[data-testid="stVegaLiteChart"]').first.evaluate("e => e.scrollIntoView({block: 'end'})")
                made.append(out / f"explore-mercyfrontier-{size}.png")
                page.screenshot(path=str(made[-1]))
    return made


def _cohorts(page: Any, url: str) -> None:
    """Compare's Cohorts tab for Mercy Frontier, once its heatmaps have drawn."""
    page.goto(url + "compare")
    page.get_by_role("heading", name="Compare", exact=True).wait_for()
    page.locator('[data-testid="stSelectbox"]').filter(has_text="Game").click()
    page.get_by_role("option", name="Mercy Frontier").click()
    page.get_by_role("tab", name="Cohorts").click()
    page.get_by_text("Where mercenaries die").wait_for()
    _settled(page)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screens"
    for path in (*take(target), *compare_shots(target)):
        print(path)
