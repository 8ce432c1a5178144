"""Record a golden game of every game again on the Record page, in Chromium, by taps alone.

The driver (`benchmarks.record_browser`) taps only what the page shows: pieces, spaces and
cards on the board, the picker's words, the off-board buttons, the dice pad's faces and
Record. The recorded log must equal the golden one event for event (apart from times and
hashes). The default run records the opening of each game on a 1024 x 768 tablet; the
`slow` run records every golden game whole at both sizes (`make test-slow`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks import record_browser as driver
from projections.workspace import Workspace

ARTIFACTS = Path(__file__).parents[1] / "artifacts"
OPENING = 40
"""Events of each game recorded in the default run: set-up, first turns, first dice."""


@pytest.fixture(scope="module", autouse=True)
def chromium_present() -> None:
    if not Path(driver.CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("/usr/bin/chromium is missing: `make test` installs it (apt-get install chromium)")
        pytest.skip("Debian's chromium is not installed (make test installs it)")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Workspace, str, dict[str, Any]]]:
    """One store with a fresh playtest per game, and a dashboard over it."""
    home = tmp_path_factory.mktemp("taps") / "store"
    ws = Workspace(home)
    golden = {}
    for game, path in driver.GOLDEN.items():
        golden[game] = driver.read_golden(path, ws)
    with driver.dashboard(home) as url:
        yield ws, url, golden


def _record(store: tuple[Workspace, str, dict[str, Any]], game: str, size: str, limit: int | None) -> driver.Recording:
    ws, url, golden = store
    rules, events = golden[game]
    match_id = f"taps-{game}-{size}-{limit or 'all'}"
    driver.start_match(ws, rules, events, match_id)
    ARTIFACTS.mkdir(exist_ok=True)
    outside: list[str] = []
    with driver.chromium(driver.SIZES[size]) as page:
        page.on("request", lambda request: outside.append(request.url) if not request.url.startswith(url) and
                not request.url.startswith(("data:", "blob:")) else None)
        run = driver.record(page, url, ws, rules, events, match_id, size=size, limit=limit, shots=ARTIFACTS)
    assert outside == [], f"the page loaded from outside the machine: {outside[:3]}"
    return run


@pytest.mark.parametrize("game", list(driver.GOLDEN))
def test_the_opening_of_a_golden_game_is_recorded_by_taps_on_a_tablet(store: Any, game: str) -> None:
    run = _record(store, game, "tablet", OPENING)
    assert run.recorded > 0
    if run.move_taps:
        assert max(run.move_taps) <= 3


@pytest.mark.slow
@pytest.mark.parametrize("size", list(driver.SIZES))
@pytest.mark.parametrize("game", list(driver.GOLDEN))
def test_a_whole_golden_game_is_recorded_by_taps(store: Any, game: str, size: str) -> None:
    run = _record(store, game, size, None)
    assert run.events == len(store[2][game][1]) - 1
