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
from projections.corpus.simulate import play
from projections.workspace import Workspace
from rulesets import registry
from tests.plugin_support import examples_installed

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
    return _taps(ws, url, rules, events, f"taps-{game}-{size}-{limit or 'all'}", size, limit)


def _taps(ws: Workspace, url: str, rules: Any, events: list, match_id: str, size: str, limit: int | None) -> driver.Recording:
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


@pytest.mark.parametrize("game", ["pig", "gofish"])
def test_the_opening_of_an_example_game_installed_as_a_designer_would_is_recorded_by_taps(store: Any, game: str) -> None:
    """examples/pig (a die) and examples/gofish (cards dealt and drawn), found through their
    entry points: a seeded game of their random bot tapped from the buttons and the pad."""
    examples_installed()
    ws, url, _ = store
    rules = registry.resolve(game)
    events = play(rules, dict(rules.ruleset.example_seats), seed=1)
    run = _taps(ws, url, rules, events, f"taps-{game}", "tablet", OPENING)
    assert run.recorded > 0


@pytest.mark.slow
@pytest.mark.parametrize("size", list(driver.SIZES))
@pytest.mark.parametrize("game", list(driver.GOLDEN))
def test_a_whole_golden_game_is_recorded_by_taps(store: Any, game: str, size: str) -> None:
    run = _record(store, game, size, None)
    assert run.events == len(store[2][game][1]) - 1


@pytest.mark.parametrize(("kind", "rule"), [("AttackDeclared", None), ("HeroMoved", "mortalgate/movement.points")])
def test_a_tap_the_rules_refuse_says_why_and_the_table_can_insist(store: Any, kind: str, rule: str | None) -> None:
    """An attack out of range or sight, or a move past the hero's movement, is not lit, but
    tapping it shows the rule and the reason, and one more tap records it; the audit then
    names that rule."""
    from projections.read.replay import Fold
    from projections.record.recording import same_event
    from projections.record.taps import refused, tap_map

    ws, url, golden = store
    rules, events = golden["mortalgate"]
    fold = Fold(rules, audit=False)
    step = fold.first(events[0])
    found = None
    for index, event in enumerate(events[1:], start=1):
        if rules.ruleset.chance(rules.params, step.state) is None:
            taps = tap_map(rules, step.state, list(rules.ruleset.legal(rules.params, step.state)), refused(rules, step.state))
            wrong = [c for c in taps.refused if type(c.event).__name__ == kind and c.touch.source == taps.preselected()
                     and not taps.at(c.touch.source, c.touch.target)]
            if wrong:
                shared = taps.refused_at(wrong[0].touch.source, wrong[0].touch.target)
                found = (index, wrong[0], shared.index(wrong[0]))
                break
        step = fold(step, event)
    assert found is not None, f"the golden game never offers a {kind} the rules refuse"
    index, choice, offered = found
    match_id = f"taps-refused-{kind}"
    driver.start_match(ws, rules, events, match_id)
    ws.append_events(match_id, events[1:index])
    with driver.chromium(driver.SIZES["laptop"]) as page:
        page.goto(url + f"record?match={match_id}")
        page.get_by_role("button", name="Continue").click()
        page.locator(f'.tt-board[data-seq="{index - 1}"]').wait_for()
        assert page.locator(f'.tt-board .lit[data-key="{choice.touch.target}"]').count() == 0  # not offered
        page.locator(f'.tt-board [data-key="{choice.touch.target}"]').last.click(force=True)
        page.get_by_text("The rules refuse:").first.wait_for()
        problems = [v.rule for v in rules.ruleset.check(rules.params, step.state, choice.event) if v.severity != "info"]
        assert problems and page.get_by_text(problems[0]).count() > 0
        assert rule is None or rule in problems
        page.locator(f".st-key-rec_insist_{index - 1}_{offered} button").click()
        page.locator(f'.tt-board[data-seq="{index}"]').wait_for()
    written = list(ws.events(match_id))[index]
    assert same_event(written, choice.event)
    assert problems[0] in {v.rule for v in ws.audit(match_id).errors if v.seq == index}


def test_a_frontier_table_is_laid_in_one_tap_and_its_pieces_moved_by_a_tap_and_by_a_drag(store: Any) -> None:
    """The standard table in one tap beside the board; then a piece tapped and a spot tapped,
    and a piece dragged onto a spot: each is one TerrainMoved in the log."""
    from projections.read.replay import replay
    from projections.record.recording import same_event
    from rulesets.frontier.events import TerrainMoved
    from rulesets.view import piece_key, space_key

    ws, url, golden = store
    rules = golden["frontier"][0]
    match_id = "taps-frontier-terrain"
    ws.new_match(rules.spec, {"p1": "ana", "p2": "ben"}, match_id=match_id, source="playtest")
    ARTIFACTS.mkdir(exist_ok=True)
    with driver.chromium(driver.SIZES["tablet"]) as page:
        page.goto(url + f"record?match={match_id}")
        page.get_by_role("button", name="Continue").click()
        page.locator('.tt-board[data-seq="0"]').wait_for()
        page.get_by_role("button", name="Lay this table (13 pieces)").click()
        page.locator('.tt-board[data-seq="13"]').wait_for()
        page.screenshot(path=str(ARTIFACTS / "record-frontier-terrain-tablet.png"))
        hab = page.locator(f'.tt-board [data-key="{piece_key("terrain:ruined-hab")}"]')
        hab.click(force=True)
        page.locator(f'.tt-board .sel[data-key="{piece_key("terrain:ruined-hab")}"]').wait_for()
        page.locator(f'.tt-board .spot.lit[data-key="{space_key(10, 22)}"]').click(force=True)
        page.locator('.tt-board[data-seq="14"]').wait_for()
        state = [s.state for s in replay(ws.events(match_id), rules, audit=False)][-1]
        drag = next(e for e in rules.ruleset.legal(rules.params, state) if isinstance(e, TerrainMoved) and e.piece == "swamp")
        start = page.locator(f'.tt-board [data-key="{piece_key("terrain:swamp")}"]').bounding_box()
        end = page.locator(f'.tt-board .spot[data-key="{space_key(*drag.to)}"]').bounding_box()
        page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
        page.mouse.down()
        page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
        page.mouse.up()
        page.locator('.tt-board[data-seq="15"]').wait_for()
        page.screenshot(path=str(ARTIFACTS / "record-frontier-terrain-moved-tablet.png"))
    moves = list(ws.events(match_id))[14:]
    assert same_event(moves[0], TerrainMoved(by="p1", piece="ruined-hab", to=(10.0, 22.0)))
    assert same_event(moves[1], drag)
    assert not ws.audit(match_id).errors


def test_a_tap_on_what_cannot_be_tapped_says_why_and_writes_nothing(store: Any) -> None:
    """While heroes are drafted, a hex of the map makes nothing: the page names it and says
    so, on a tablet, with the hex in view below the sticky header."""
    from rulesets.view import space_key, space_name

    ws, url, golden = store
    rules, events = golden["mortalgate"]
    match_id = "taps-why-not"
    driver.start_match(ws, rules, events, match_id)
    ws.append_events(match_id, events[1:3])  # the draft roll and its choice: heroes to pick
    with driver.chromium(driver.SIZES["tablet"]) as page:
        driver.open_playtest(page, url, match_id)
        page.locator('.tt-board[data-seq="2"]').wait_for()
        hex_ = page.locator(f'.tt-board [data-key="{space_key(10, 12)}"]').first
        driver.in_view(page, hex_, "a hex of the map")
        hex_.click(force=True)
        page.get_by_text(f"{space_name('hex-even-q', 10, 12)} cannot be tapped now").wait_for()
    assert len(list(ws.events(match_id))) == 3
