"""Record a golden game of every game again on the Record page, in Chromium, by taps alone.

The driver (`benchmarks.record_browser`) taps only what the page shows: pieces, spaces and
cards on the board, the picker's words, the off-board buttons, the dice pad's faces and
Record. The recorded log must equal the golden one event for event (apart from times and
hashes). The default run records the opening of each game on a 1024 x 768 tablet; the
`slow` run records every golden game whole at both sizes (`make test-slow`).
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from benchmarks import record_browser as driver
from dashboard.app.recorder import TAP_PATH
from projections.corpus.simulate import play
from projections.record.recording import same_event
from projections.record.recording import words as rules_words
from projections.record.taps import tap_map
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
    """Record by taps; every event the table made went through the tap route, which answered
    each tap with the new board (no tap fell back to a rerun of the page)."""
    driver.start_match(ws, rules, events, match_id)
    ARTIFACTS.mkdir(exist_ok=True)
    outside: list[str] = []
    answered: list[int] = []
    with driver.chromium(driver.SIZES[size]) as page:
        page.on("request", lambda request: outside.append(request.url) if not request.url.startswith(url) and
                not request.url.startswith(("data:", "blob:")) else None)
        page.on("response", lambda response: answered.append(response.status) if response.url == url + TAP_PATH.lstrip("/") else None)
        run = driver.record(page, url, ws, rules, events, match_id, size=size, limit=limit, shots=ARTIFACTS)
    assert outside == [], f"the page loaded from outside the machine: {outside[:3]}"
    assert len(answered) >= run.recorded and set(answered) <= {200}, f"{run.recorded} events, the tap route answered {answered}"
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


@pytest.mark.parametrize(("body", "status", "said"), [
    (b"{", 400, "tap: the body is not JSON"),
    (b'{"token": "t", "move": {}}', 400, 'tap: send {"token", "tap": {...}} or {"token", "act": {...}}'),
    (b'{"token": "no such token", "tap": {"source": null, "target": "hex:0,0", "seq": 1}}', 404,
     "tap: no recording open in this dashboard has that token (reload the page)"),
    (b" " * 80_000, 413, "tap: the body is 80000 bytes, more than the 65536 a tap may be"),
])
def test_the_tap_route_refuses_what_is_not_a_tap_of_an_open_recording_in_one_line(store: Any, body: bytes, status: int,
                                                                                said: str) -> None:
    ws, url, _ = store
    before = {m: ws.export(m) for m in ws.matches()}
    request = urllib.request.Request(url + TAP_PATH.lstrip("/"), data=body, method="POST", headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=60)
    assert refused.value.code == status
    assert refused.value.read().decode().startswith(said)
    assert {m: ws.export(m) for m in ws.matches()} == before


def test_a_tap_sent_without_its_length_is_read_only_up_to_the_limit(store: Any) -> None:
    import http.client
    from urllib.parse import urlsplit

    ws, url, _ = store
    before = {m: ws.export(m) for m in ws.matches()}
    where = urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
    connection.request("POST", TAP_PATH, body=iter([b" " * 40_000] * 5), headers={"Content-Type": "application/json"},
                       encode_chunked=True)
    answer = connection.getresponse()
    assert answer.status == 413
    assert answer.read().decode() == "tap: the body is more than the 65536 bytes a tap may be"
    connection.close()
    assert {m: ws.export(m) for m in ws.matches()} == before


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
        page.locator(f'.tt-board[data-seq="{index - 1}"] .panel button[data-act="insist"][data-index="{offered}"]').click()
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


# --- the panel beside the board: presses in the browser ------------------------------------


def _panel(page: Any, seq: int) -> Any:
    """The panel of the board at `seq`."""
    return page.locator(f'.tt-board[data-seq="{seq}"] .panel')


@contextmanager
def _opened(store: Any, rules: Any, events: list, upto: int, match_id: str, size: str = "tablet") -> Iterator[Any]:
    """`events` up to seq `upto` stored as a playtest, continued on the Record page."""
    ws, url, _ = store
    driver.start_match(ws, rules, events, match_id)
    ws.append_events(match_id, events[1:upto + 1])
    with driver.chromium(driver.SIZES[size]) as page:
        driver.open_playtest(page, url, match_id)
        page.locator(f'.tt-board[data-seq="{upto}"] .panel .head').wait_for()
        yield page


def _plans(store: Any, game: str) -> tuple[Any, list, list[tuple[Any, Any]]]:
    """`game`'s golden game: its rules, its events, and for each event after line 0 the state
    before it and how it is recorded by taps."""
    from projections.read.replay import Fold
    from projections.record.tapplan import plan

    rules, events = store[2][game]
    fold = Fold(rules, audit=False)
    step = fold.first(events[0])
    out: list[tuple[Any, Any]] = [(None, None)]
    for event in events[1:]:
        out.append((step.state, plan(rules, step.state, event)))
        step = fold(step, event)
    return rules, events, out


def _first(store: Any, game: str, wanted: Callable[[Any], bool]) -> tuple[Any, list, int, Any, Any]:
    """The first event of `game`'s golden game whose plan is `wanted`: rules, events, its seq,
    the state before it and its plan."""
    rules, events, plans = _plans(store, game)
    seq = next((n for n, (_, how) in enumerate(plans) if how is not None and wanted(how)), None)
    if seq is None:
        raise AssertionError(f"{game}'s golden game has no such event")
    return rules, events, seq, plans[seq][0], plans[seq][1]


def _settled(page: Any, seq: int) -> None:
    """Wait for the board after the event at `seq` (and what the rules then force)."""
    page.locator(f'.tt-board[data-seq="{seq}"]').or_(page.locator(f'.tt-board[data-seq="{seq + 1}"]')).first.wait_for()


def test_a_dice_pad_narrows_in_the_browser_and_records_the_roll_it_means_then_a_button(store: Any) -> None:
    """Faces tapped narrow the outcomes on the page (nothing is written), the roll's meaning
    shows before Record, and Record writes it; then an off-board choice is one press."""
    ws, _, golden = store
    rules, events = golden["mortalgate"]
    with _opened(store, rules, events, 0, "panel-dice") as page:
        pad = _panel(page, 0)
        driver.in_view(page, pad.locator('.faces[data-die="red"] button[data-face="5"]'), "red's 5")
        pad.locator('.faces[data-die="red"] button[data-face="5"]').click()
        pad.get_by_text("Tap one face per die (6 outcomes still possible).").wait_for()
        pad.locator('.faces[data-die="blue"] button[data-face="2"]').click()
        pad.get_by_text("draft roll: red 5, blue 2: red wins the roll").wait_for()
        assert ws.store.last("panel-dice")[0] == 0  # the pad narrowed in the browser: nothing sent yet
        pad.locator('button[data-act="roll"]').click()
        after = _panel(page, 1)
        after.get_by_text("recorded: draft roll: red 5, blue 2").wait_for()
        rolled = list(ws.events("panel-dice"))[1]
        assert (type(rolled).__name__, rolled.red, rolled.blue) == ("DraftRolled", 5, 2)
        after.get_by_role("button", name="red takes the first turn").click()
        page.locator('.tt-board[data-seq="2"]').wait_for()
    chosen = list(ws.events("panel-dice"))[2]
    assert (type(chosen).__name__, chosen.team, chosen.choice) == ("DraftChoiceMade", "red", "first_turn")


def test_what_the_rules_force_is_written_with_the_roll_and_one_undo_takes_both_back(store: Any) -> None:
    ws, _, _ = store
    rules, events, plans = _plans(store, "mortalgate")
    seq = next(n for n in range(1, len(plans) - 1) if plans[n][1].kind == "dice" and len(plans[n][1].taps) > 1
               and plans[n + 1][1].kind == "forced")
    with _opened(store, rules, events, seq - 1, "panel-undo") as page:
        driver._perform(page, rules, plans[seq][0], events[seq], plans[seq][1], seq)
        settled = _panel(page, seq + 1)
        settled.get_by_text("the rules imply").wait_for()
        written = list(ws.events("panel-undo"))
        assert same_event(written[seq], events[seq]) and same_event(written[seq + 1], events[seq + 1])
        undo = settled.locator('button[data-act="undo"]')
        driver.in_view(page, undo, "Undo")
        assert undo.inner_text() == f"Undo: {rules_words(rules, plans[seq][0], events[seq])}"
        undo.click()
        _panel(page, seq + 3).locator(".faces").first.wait_for()  # the pad is back for the same roll
    retracted = list(ws.events("panel-undo"))[-2:]
    assert [(type(e).__name__, e.target_seq) for e in retracted] == [("Retracted", seq + 1), ("Retracted", seq)]
    assert not ws.audit("panel-undo").errors


def test_a_tap_several_actions_share_opens_a_picker_in_the_games_words(store: Any) -> None:
    ws, _, _ = store
    game = next(g for g in driver.GOLDEN if _has(store, g, lambda how: any(t.where == "pick" for t in how.taps)))
    rules, events, seq, _state, how = _first(store, game, lambda how: any(t.where == "pick" for t in how.taps))
    board_taps = [t for t in how.taps if t.where == "board"]
    match_id = "panel-picker"
    with _opened(store, rules, events, seq - 1, match_id) as page:
        def tap_board() -> None:
            for number, tap in enumerate(board_taps):
                page.locator(f'.tt-board [data-key="{tap.what}"]').last.click(force=True)
                if number < len(board_taps) - 1:
                    page.locator(f'.tt-board .sel[data-key="{tap.what}"]').first.wait_for()

        tap_board()
        panel = _panel(page, seq - 1)
        panel.get_by_text("Which one?").wait_for()
        panel.locator('button[data-act="unpick"]').click()
        panel.get_by_text("Which one?").wait_for(state="detached")
        tap_board()
        words = next(t.what for t in how.taps if t.where == "pick")
        choice = panel.get_by_role("button", name=words, exact=True)
        driver.in_view(page, choice, f"the picker's {words!r}")
        choice.click()
        _settled(page, seq)
    assert same_event(list(ws.events(match_id))[seq], events[seq])


def _has(store: Any, game: str, wanted: Callable[[Any], bool]) -> bool:
    try:
        _first(store, game, wanted)
    except AssertionError:
        return False
    return True


def test_a_press_made_on_a_board_another_recorder_moved_on_is_a_conflict_not_a_second_line(store: Any) -> None:
    ws, _, golden = store
    rules, events = golden["mortalgate"]
    with _opened(store, rules, events, 0, "panel-race") as page:
        pad = _panel(page, 0)
        pad.locator('.faces[data-die="red"] button[data-face="5"]').click()
        pad.locator('.faces[data-die="blue"] button[data-face="2"]').click()
        ws.append("panel-race", '{"type": "DraftRolled", "red": 6, "blue": 1}')  # another recorder, same match
        pad.locator('button[data-act="roll"]').click()
        now = _panel(page, 1)
        now.get_by_text("the board had moved on").wait_for()
        now.get_by_role("button", name="red takes the first pick").wait_for()  # the board as it is now
    written = list(ws.events("panel-race"))
    assert len(written) == 2 and (written[1].red, written[1].blue) == (6, 1)


def test_the_end_of_the_game_is_one_press_to_record_and_one_into_replay(store: Any) -> None:
    ws, _url, golden = store
    rules, events = golden["mortalgate"]
    assert type(events[-1]).__name__ == "MatchEnded"
    last = len(events) - 2
    with _opened(store, rules, events, last, "panel-end") as page:
        panel = _panel(page, last)
        panel.get_by_text("By the rules the game is over").wait_for()
        record = panel.locator('button[data-act="end"]')
        driver.in_view(page, record, "Record the result")
        record.click()
        _panel(page, last + 1).locator('button[data-act="replay"]').click()
        page.wait_for_url("**/replay**")
    assert same_event(list(ws.events("panel-end"))[-1], events[-1])


def test_a_card_of_a_deal_is_recorded_by_its_tap_alone(store: Any) -> None:
    ws, _, _ = store
    rules, events, seq, state, how = _first(store, "mercenarium", lambda how: how.kind == "dice" and len(how.taps) == 1)
    with _opened(store, rules, events, seq - 1, "panel-deal") as page:
        panel = _panel(page, seq - 1)
        panel.locator(".faces").first.wait_for()
        assert panel.locator('button[data-act="roll"]').count() == 0  # no Record: the card says it all
        driver._perform(page, rules, state, events[seq], how, seq)
        _settled(page, seq)
    assert same_event(list(ws.events("panel-deal"))[seq], events[seq])


def test_a_turn_order_is_made_by_pressing_the_heroes_first_to_act_first(store: Any) -> None:
    ws, _, _ = store
    rules, events, seq, state, how = _first(store, "mortalgate", lambda how: how.kind == "compose")
    with _opened(store, rules, events, seq - 1, "panel-order") as page:
        panel = _panel(page, seq - 1)
        assert panel.locator("select").count() == 0  # no list of 24 orders
        first = how.taps[0]
        part = panel.locator(f'button[data-act="part"][data-compose="{first.compose}"]')
        made = tap_map(rules, state, list(rules.ruleset.legal(rules.params, state))).composes[first.compose]
        index = next(i for i, p in enumerate(made.parts) if p.value == first.what)
        part.nth(index).click()
        panel.locator(f'button[data-act="unpart"][data-compose="{first.compose}"]').first.wait_for()
        part.nth(index).click()  # the same hero again: not added, and why
        panel.get_by_text("is already number 1").wait_for()
        assert len(list(ws.events("panel-order"))) == seq
        for number, tap in enumerate(how.taps[1:], start=1):  # the rest in the order the table wants
            part.nth(next(i for i, p in enumerate(made.parts) if p.value == tap.what)).click()
            if number < len(how.taps) - 1:
                panel.locator(f'button[data-act="unpart"][data-compose="{first.compose}"][data-index="{number}"]').wait_for()
        _settled(page, seq)
    assert same_event(list(ws.events("panel-order"))[seq], events[seq])
    assert not ws.audit("panel-order").errors


def test_a_frontier_army_is_built_unit_by_unit_within_the_missions_points(store: Any) -> None:
    from rulesets.frontier import units
    from rulesets.frontier.events import ArmySelected
    from rulesets.frontier.moves import army_options

    ws, _, _ = store
    rules, events, seq, state, _ = _first(store, "frontier", lambda how: how.kind == "compose")
    event = events[seq]
    assert isinstance(event, ArmySelected)
    faction = units.FACTIONS[units.UNITS[event.units[0]].faction]
    cheapest = min(faction.units, key=lambda t: units.UNITS[t].points)
    over = max(faction.units, key=lambda t: units.UNITS[t].points)
    label = {t: f"{units.UNITS[t].points} pts · {units.UNITS[t].name}" for t in faction.units}
    fits = state.points // units.UNITS[cheapest].points
    with _opened(store, rules, events, seq - 1, "panel-army") as page:
        panel = _panel(page, seq - 1)
        for n in range(fits):  # the same unit as often as the points allow: no preset list does that
            panel.locator('button[data-act="part"]').get_by_text(label[cheapest], exact=True).click()
            panel.locator(f'button[data-act="unpart"][data-index="{n}"]').wait_for()
        panel.get_by_text(f"{fits * units.UNITS[cheapest].points} of {state.points} points").wait_for()
        panel.locator('button[data-act="part"]').get_by_text(label[over], exact=True).click()
        panel.get_by_text("not added").wait_for()
        panel.locator('button[data-act="unpart"][data-index="0"]').click()  # taken out again
        panel.locator(f'button[data-act="unpart"][data-index="{fits - 1}"]').wait_for(state="detached")
        assert len(list(ws.events("panel-army"))) == seq
        panel.locator('button[data-act="compose"]').click()
        _settled(page, seq)
    written = list(ws.events("panel-army"))[seq]
    assert isinstance(written, ArmySelected) and written.units == (cheapest,) * (fits - 1)
    assert written.units not in army_options(faction.id, state.points)
    assert not ws.audit("panel-army").errors


def test_a_frontier_table_is_cleared_whole_and_an_earlier_matchs_laid_in_one_press(store: Any) -> None:
    from rulesets.frontier.events import TerrainAgreed, TerrainMoved, TerrainPlaced
    from tests.frontier.test_setup import HOUSE, SWAMP

    ws, url, golden = store
    rules = golden["frontier"][0]
    ws.new_match(rules.spec, {"p1": "ana", "p2": "ben"}, match_id="panel-last-week", title="at Ana's")
    ws.append_events("panel-last-week", [HOUSE, SWAMP, TerrainMoved(by="p1", piece="house", to=(23.0, 20.0)), TerrainAgreed(by="p1")])
    match_id = "panel-table"
    ws.new_match(rules.spec, {"p1": "ana", "p2": "ben"}, match_id=match_id, source="playtest")
    with driver.chromium(driver.SIZES["tablet"]) as page:
        driver.open_playtest(page, url, match_id)
        _panel(page, 0).get_by_role("button", name="Lay this table (13 pieces)").click()
        _panel(page, 13).get_by_text("recorded: the standard table laid, 13 pieces").wait_for()
        _panel(page, 13).get_by_role("button", name="Clear the table (13 pieces)").click()
        panel = _panel(page, 26)
        panel.locator('select[data-choose="table"]').wait_for()
        shown = panel.locator('select[data-choose="table"] option').all_inner_texts()
        assert any(o.startswith("panel-last-week · ") for o in shown), shown
        panel.locator('select[data-choose="table"]').select_option(label=next(o for o in shown if o.startswith("panel-last-week · ")))
        panel.get_by_role("button", name="Lay this table (2 pieces)").click()
        page.locator('.tt-board[data-seq="28"]').wait_for()
    written = list(ws.events(match_id))
    assert [getattr(e, "target_seq", None) for e in written[14:27]] == list(range(13, 0, -1))
    assert [(e.piece, e.outline) for e in written[27:] if isinstance(e, TerrainPlaced)] == [
        ("house", ((20.0, 17.0), (26.0, 17.0), (26.0, 23.0), (20.0, 23.0))), ("swamp", SWAMP.outline)]
    assert not ws.audit(match_id).errors


def test_a_form_beside_the_board_is_built_again_after_an_undo_pressed_on_the_panel(store: Any) -> None:
    """Any event's form stands beside the board (its panel under it); an Undo pressed on the
    panel reruns the page, so the form then writes after the undo, not into a conflict."""
    ws, _, _ = store
    rules, events, plans = _plans(store, "mortalgate")
    seq = next(n for n in range(20, len(plans) - 1) if plans[n + 1][1].kind == "board")  # nothing forced to write on opening
    with _opened(store, rules, events, seq, "panel-form") as page:
        page.locator(".st-key-rec_mode").get_by_role("radio", name="Any event").click()
        page.get_by_role("button", name="Record this event").wait_for()
        undo = _panel(page, seq).locator('button[data-act="undo"]')
        undo.click()
        undone = _panel(page, seq + 1).or_(_panel(page, seq + 2))
        undone.get_by_text("recorded: undo of event").wait_for()
        after = ws.store.last("panel-form")[0]
        page.get_by_role("button", name="Record this event").click()
        _panel(page, after + 1).get_by_text("recorded:").wait_for()
    written = list(ws.events("panel-form"))
    assert len(written) == after + 2 and type(written[after]).__name__ == "Retracted"
