"""Replay's board in Chromium: keys, buttons, a drag and autoplay redraw in the browser alone.

The dashboard runs over a store of the shipped playtests and a Mercenarium bot game (hidden
hands); Playwright drives Debian's Chromium and listens to the page's websocket, so a step
that asked the server anything would show as a message sent.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks import record_browser as driver
from dashboard.app.state import CHOICE_ROW, CHOICE_ROW_HEIGHT
from projections.corpus.demo import import_playtests, save_events
from projections.corpus.simulate import play
from projections.workspace import Workspace
from rulesets import registry
from rulesets.view import card_key

ARTIFACTS = Path(__file__).parents[1] / "artifacts"
CAFE = "playtest-2026-03-05-cafe"
HANDS = "hands"
"""A Mercenarium bot game: every seat holds cards the others must not see."""


@pytest.fixture(scope="module", autouse=True)
def chromium_present() -> None:
    if not Path(driver.CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("/usr/bin/chromium is missing: `make test` installs it (apt-get install chromium)")
        pytest.skip("Debian's chromium is not installed (make test installs it)")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Workspace, str]]:
    home = tmp_path_factory.mktemp("scrub") / "store"
    ws = Workspace(home)
    import_playtests(ws)
    rules = registry.resolve("mercenarium")
    save_events(ws, play(rules, rules.ruleset.example_seats, seed=3, match_id=HANDS, max_events=120))
    with driver.dashboard(home) as url:
        yield ws, url


@pytest.fixture
def page(served: tuple[Workspace, str]) -> Iterator[Any]:
    with driver.chromium(driver.SIZES["tablet"]) as page:
        yield page


def sent_to_server(page: Any) -> list[str]:
    """Every message the page sends the server from now on (reruns, widget changes)."""
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload)[:80])))
    return sent


def test_keys_buttons_and_next_violation_redraw_the_board_without_asking_the_server(served: Any, page: Any) -> None:
    ws, url = served
    sent = sent_to_server(page)
    driver.open_replay(page, url, CAFE)
    page.get_by_text("Findings (4 rule violations").wait_for()  # drawn below once the board is on screen
    driver.wait_all_frames(page)
    asked = len(sent)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    driver.wait_drawn(page, 2)
    page.get_by_role("button", name="Next ▶").click()
    driver.wait_drawn(page, 3)
    page.get_by_role("button", name="◀ Previous").click()
    driver.wait_drawn(page, 2)
    page.get_by_role("button", name="⚠ Next violation").click()
    driver.wait_drawn(page, 158)
    said = ws.timeline(CAFE).said
    assert page.locator(".tt-scrub .said").inner_text() == f"Event 158 of 386: {said[158]}"
    assert "mortalgate/combat.range" in page.locator(".tt-scrub .found").inner_text()
    page.keyboard.press("End")
    driver.wait_drawn(page, 386)
    page.get_by_role("button", name="⚠ Next violation").click()
    page.get_by_text("No violation after event 386.").wait_for()
    page.keyboard.press("Home")
    driver.wait_drawn(page, 0)
    assert sent[asked:] == [], "a step asked the server"


def test_a_page_opened_at_its_own_address_finds_the_server_at_the_first_try(served: Any, page: Any) -> None:
    _, url = served
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    driver.open_replay(page, url, CAFE)  # /replay?match=...: a link followed, or a reload
    assert [u for u in asked if "_stcore/health" in u] == [url + "_stcore/health"]  # not /replay/_stcore/ first
    with urllib.request.urlopen(url + "favicon.png") as served_file:  # Streamlit's own files still answer
        assert served_file.headers["Content-Type"] == "image/png"


def test_the_page_keeps_the_dashboards_room_above_the_board_and_the_choices_row(served: Any, page: Any) -> None:
    _, url = served
    driver.open_replay(page, url, CAFE)
    main = page.locator("[data-testid='stMainBlockContainer']")
    assert main.evaluate("e => getComputedStyle(e).paddingTop") == "56px"  # 3.5rem: the page style took
    row = page.locator(f".st-key-{CHOICE_ROW}")
    assert row.evaluate("e => getComputedStyle(e).minHeight") == f"{CHOICE_ROW_HEIGHT}px"


def test_dragging_the_slider_draws_the_boards_along_the_way(served: Any, page: Any) -> None:
    _, url = served
    sent = sent_to_server(page)
    driver.open_replay(page, url, CAFE)
    driver.wait_all_frames(page)
    asked = len(sent)
    drawn = driver.drag_slider(page, 0.0, 0.6, steps=40)
    assert len(set(drawn)) >= 10, drawn  # the board followed the drag, not only where it ended
    assert drawn == sorted(drawn) and 200 < drawn[-1] < 260
    assert sent[asked:] == [], "the drag asked the server"


def test_the_first_board_shows_before_the_whole_match_has_arrived_and_the_rest_follows(served: Any, page: Any) -> None:
    _, url = served
    driver.open_replay(page, url, CAFE)
    first = page.locator(".tt-scrub").get_attribute("data-first-have")  # what it held at its first board
    assert first is not None and 0 < int(first) < 387
    driver.wait_all_frames(page)
    page.keyboard.press("End")
    driver.wait_drawn(page, 386)


def test_autoplay_steps_on_its_own_and_pauses(served: Any, page: Any) -> None:
    _, url = served
    driver.open_replay(page, url, CAFE)
    page.locator(".tt-scrub .speed").select_option(label="faster (0.2 s)")
    page.get_by_role("button", name="▶ Play").click()
    page.locator(".tt-scrub").evaluate("(root, n) => new Promise((done) => { const look = () => Number(root.dataset.drawn) >= n"
                                       " ? done(true) : setTimeout(look, 20); look(); })", 3)
    page.get_by_role("button", name="❚❚ Pause").click()
    stopped = int(page.locator(".tt-scrub").get_attribute("data-seq"))  # type: ignore[arg-type]
    page.wait_for_timeout(600)
    assert int(page.locator(".tt-scrub").get_attribute("data-seq")) == stopped  # type: ignore[arg-type]


def test_note_this_event_points_the_note_form_at_the_event_on_the_board(served: Any, page: Any) -> None:
    _, url = served
    driver.open_replay(page, url, CAFE)
    page.get_by_role("button", name="⚠ Next violation").click()
    driver.wait_drawn(page, 158)
    page.get_by_role("button", name="✎ Note or branch here").click()
    page.get_by_text("Add a note on event 158").wait_for()


def test_a_seat_view_holds_no_card_of_another_hand_in_the_page_or_its_data(served: Any, page: Any) -> None:
    """Seen by one Mercenarium seat, with every frame of the match in the browser: no frame's
    board, hands, words or findings, and nothing in the page's markup, names a card another
    seat held hidden at that event."""
    ws, url = served
    seat = next(iter(ws.header(HANDS).seats))
    driver.open_replay(page, url, HANDS)
    page.locator('[data-testid="stSelectbox"]').filter(has_text="Seen by").click()
    page.get_by_role("option", name=f"seat {seat} (").click()
    page.locator(f'.tt-scrub[data-id="{HANDS}||{seat}|0"]').wait_for()
    driver.wait_all_frames(page)
    held = page.locator(".tt-scrub").evaluate("root => JSON.stringify(root._frames)")
    frames = json.loads(held)
    timeline = ws.timeline(HANDS)
    rules = timeline.rules
    hidden_somewhere = set()
    for frame in frames:
        state = timeline.state_at(frame["seq"]).state
        seen = {c for row in rules.ruleset.view(rules.params, state, seat).rows for c in row.cards}
        hidden = {card_key(row.id, c) for row in rules.ruleset.view(rules.params, state, None).rows
                  if row.owner not in (None, seat) for c in row.cards if c not in seen}
        hidden_somewhere |= hidden
        assert not [key for key in hidden if key in json.dumps(frame)], f"event {frame['seq']} holds a hidden card"
    assert hidden_somewhere, "no seat held a hidden card: nothing was tested"
    page.get_by_role("button", name="Last").click()
    last = timeline.last_seq
    driver.wait_drawn(page, last)
    state = timeline.state_at(last).state
    seen = {c for row in rules.ruleset.view(rules.params, state, seat).rows for c in row.cards}
    hidden = {card_key(row.id, c) for row in rules.ruleset.view(rules.params, state, None).rows
              if row.owner not in (None, seat) for c in row.cards if c not in seen}
    markup = page.content() + page.locator(".tt-scrub").evaluate("root => root.getRootNode().innerHTML")
    assert hidden and not [key for key in hidden if key in markup]
    if ARTIFACTS.is_dir():
        page.screenshot(path=str(ARTIFACTS / "replay-seat-tablet.png"))


def test_a_turning_points_link_opens_the_board_at_its_event(served: Any, page: Any) -> None:
    _, url = served
    page.goto(url + f"replay?match={CAFE}&at=158")  # as a turning point links it
    driver.wait_drawn(page, 158)


def test_branch_here_starts_a_what_if_match_from_the_event_the_board_stands_on(served: Any, page: Any) -> None:
    ws, url = served
    driver.open_replay(page, url, CAFE)
    page.get_by_role("button", name="⚠ Next violation").click()
    driver.wait_drawn(page, 158)
    page.get_by_role("button", name="✎ Note or branch here").click()
    page.get_by_role("button", name="Branch here (event 158)").click()
    page.get_by_text("started from event 158").wait_for(timeout=60_000)  # what the page says once it is made
    branches = [m for m in ws.matches() if ws.header(m).branch_of == CAFE]
    assert len(branches) == 1 and ws.header(branches[0]).branch_at == 158
    driver.wait_drawn(page, 158)  # the branch opens where it left its parent
