"""The README's run command, and the dashboard end to end in a real browser.

`tabletape dashboard` fills an empty store with the demo (bot games of every game and
version, the shipped playtests and their notes), syncs the warehouse, prints the URL and
becomes the Streamlit server, bound to 127.0.0.1 unless --host says otherwise.

The browser test starts that server on a free port over a temporary store and drives
Debian's Chromium with Playwright (never a downloaded browser): it drags the board's slider
to an event, picks it for a note, adds one there, reloads, and finds the note; it saves a
screenshot of every page in tests/artifacts/.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from benchmarks.record_browser import CHROMIUM_ARGS
from benchmarks.record_browser import dashboard as running_dashboard
from dashboard.cli import commands as cli
from events.errors import LogFormatError
from projections.corpus.demo import DEMO_DIR, import_notes, import_playtests, playtest_logs
from projections.workspace import Workspace
from rulesets import registry
from tests.dashboard.conftest import PLAYABLE

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).parents[1] / "artifacts"
CAFE = "playtest-2026-03-05-cafe"


# --- the run command (no browser) -----------------------------------------------------------


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.pass_context
def _entry(ctx: click.Context) -> None:
    cli.main(list(ctx.args))


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], dict[str, str]]]:
    """What `tabletape dashboard` would exec, captured instead of run."""
    calls: list[tuple[list[str], dict[str, str]]] = []
    monkeypatch.setattr(cli, "_serve", lambda command, env: calls.append((command, env)))
    return calls


def test_dashboard_fills_an_empty_store_prints_the_url_and_binds_localhost(tmp_path: Path, served: list[Any]) -> None:
    home = tmp_path / "store"
    result = CliRunner().invoke(_entry, ["--home", str(home), "dashboard", "--port", "8765"])
    assert result.exit_code == 0, result.output
    assert "tabletape dashboard: http://localhost:8765/" in result.stdout
    ws = Workspace(home)
    games = {ws.header(m).ruleset for m in ws.matches() if ws.header(m).source == "simulation"}
    assert games == set(PLAYABLE)
    versions = {(ws.header(m).ruleset, ws.header(m).version) for m in ws.matches()}
    assert {(g, v) for g in PLAYABLE for v in registry.game(g).versions} <= versions
    assert {p.name.removesuffix(".jsonl") for p in playtest_logs()} <= set(ws.matches())
    assert len(ws.notes.list(CAFE)) == 5
    assert (home / "warehouse.read.duckdb").exists()
    [(command, env)] = served
    assert command[command.index("--server.address") + 1] == "127.0.0.1"
    assert command[command.index("--server.port") + 1] == "8765"
    assert command[command.index("run") + 1].endswith("dashboard/app/serve.py")
    assert env["TABLETAPE_HOME"] == str(home.resolve())
    again = CliRunner().invoke(_entry, ["--home", str(home), "dashboard"])
    assert "filled" not in again.stdout and "http://localhost:8501/" in again.stdout


def test_host_flag_exposes_the_server_and_a_bad_port_is_one_line(tmp_path: Path, served: list[Any]) -> None:
    home = tmp_path / "store"
    import_playtests(Workspace(home))
    result = CliRunner().invoke(_entry, ["--home", str(home), "dashboard", "--host", "0.0.0.0", "--port", "9000"])
    assert "http://0.0.0.0:9000/  (exposed" in result.stdout
    assert served[0][0][served[0][0].index("--server.address") + 1] == "0.0.0.0"
    bad = CliRunner().invoke(_entry, ["--home", str(home), "dashboard", "--port", "70000"])
    assert bad.exit_code == 2 and "70000 is not in the range 1<=x<=65535" in bad.output
    assert len(served) == 1


def test_a_log_the_warehouse_cannot_read_is_reported_and_the_server_still_starts(tmp_path: Path, served: list[Any]) -> None:
    home = tmp_path / "store"
    import_playtests(Workspace(home))
    (home / "logs" / "broken.jsonl").write_bytes(b"not json\n")
    result = CliRunner().invoke(_entry, ["--home", str(home), "dashboard"])
    assert result.exit_code == 0
    assert "warning: the warehouse is not up to date: " in result.stderr and "broken.jsonl:1" in result.stderr
    assert len(served) == 1


def test_shipped_playtests_hold_mistakes_rulings_an_undo_and_human_pacing(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    stored = import_playtests(ws)
    assert len(stored) >= 3
    rules: set[str] = set()
    for match_id in stored:
        report = ws.audit(match_id)
        rules |= {v.rule for v in report.violations}
        events = list(ws.events(match_id))
        gaps = [(b.at - a.at).total_seconds() for a, b in itertools.pairwise(events) if a.at and b.at]
        assert len(set(gaps)) > 20 and max(gaps) > 300  # uneven, with a break or a long ruling
        assert ws.header(match_id).source == "playtest"
    kinds = {type(e).__name__ for m in stored for e in ws.events(m)}
    assert {"Retracted", "Ruled", "MatchEnded"} <= kinds
    assert {"mortalgate/combat.range", "mortalgate/combat.hit", "mortalgate/combat.line-of-sight",
            "mortalgate/movement.points", "mortalgate/altars.contested"} <= rules
    assert any(not ws.audit(m).result.agrees for m in stored)  # the table declared the wrong winner once
    tags = {t for m in stored for n in ws.notes.list(m, include_removed=True) for t in n.tags}
    assert tags == {"balance", "confusing rule", "bug", "highlight", "question"}


def test_a_bad_note_file_is_refused_with_its_line_and_nothing_is_written(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    log = DEMO_DIR / f"{CAFE}.jsonl"
    ws.import_log(log.read_bytes(), where=str(log))
    lines = (DEMO_DIR / f"{CAFE}.notes.jsonl").read_bytes().splitlines()
    bad = json.loads(lines[1])
    bad["to_seq"] = 9999
    with pytest.raises(LogFormatError, match=r"notes.jsonl:2: note covers events .*outside match"):
        import_notes(ws, CAFE, b"\n".join([lines[0], json.dumps(bad).encode()]), where="notes.jsonl")
    with pytest.raises(LogFormatError, match=r"x:1: NoteReplied names note 'nope'"):
        import_notes(ws, CAFE, b'{"type":"NoteReplied","note_id":"nope","reply_id":"r1","author":"a","text":"t"}\n', where="x")
    assert ws.notes.list(CAFE) == ()


# --- the browser ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`tabletape dashboard --port <free>` over a fresh store; yields its URL."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("/usr/bin/chromium is missing: `make test` installs it (apt-get install chromium)")
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    with running_dashboard(tmp_path_factory.mktemp("e2e") / "store", timeout=180) as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Debian's Chromium through Playwright, with a fresh profile."""
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1500, "height": 1100},
        )
        yield context
        context.close()


def _settled(page: Any, heading: str) -> None:
    """Wait until the page shows its heading and Streamlit has finished running the script."""
    page.get_by_role("heading", name=heading, exact=True).wait_for(timeout=90_000)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=90_000)
    page.wait_for_timeout(300)


def _shoot(page: Any, name: str) -> Path:
    """A picture of the whole page: Streamlit scrolls inside its main block, so the window
    is made as tall as that block for the shot."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    size = page.viewport_size
    height = page.evaluate("() => (document.querySelector('[data-testid=\"stMain\"]') || document.body).scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": min(max(int(height), size["height"]), 8000)})
    page.wait_for_timeout(500)
    page.screenshot(path=str(path))
    page.set_viewport_size(size)
    return path


def test_scrub_annotate_reload_and_find_the_note_then_screenshot_every_page(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server)
    _settled(page, "Matches")
    page.get_by_text(CAFE).first.wait_for(state="attached")  # the grid draws on a canvas
    _shoot(page, "1-matches")

    page.goto(f"{server}replay?match={CAFE}")
    _settled(page, "Replay")
    page.locator(".tt-scrub[data-drawn]").wait_for(timeout=60_000)
    slider = page.locator(".tt-scrub .slider").bounding_box()
    page.mouse.move(slider["x"] + 8, slider["y"] + slider["height"] / 2)
    page.mouse.down()
    page.mouse.move(slider["x"] + 8 + (slider["width"] - 16) * 0.4, slider["y"] + slider["height"] / 2, steps=8)
    page.mouse.up()
    seq = int(page.locator(".tt-scrub .slider").input_value())  # where the drag let go
    page.locator(f'.tt-scrub[data-drawn="{seq}"]').wait_for()
    assert page.locator(".tt-scrub .said").inner_text().startswith(f"Event {seq} of 386: ")
    assert 100 < seq < 200
    assert page.locator("svg.tabletape-board g.piece").count() > 0
    page.get_by_role("button", name="Note or branch here").click()
    page.get_by_text(f"Add a note on event {seq}").wait_for(timeout=60_000)
    _settled(page, "Replay")

    text = f"Browser note at event {seq}: this charge felt too strong"
    form = page.locator('[data-testid="stForm"]').filter(has_text="Add a note on event")
    form.get_by_label("Your name").fill("e2e")
    form.get_by_label("Note").fill(text)
    form.get_by_role("button", name="Add note").click()
    page.get_by_text(re.compile(rf"Note n[0-9a-f]+ added on event {seq}\.")).wait_for(timeout=60_000)
    _shoot(page, "2-replay")

    page.reload()
    _settled(page, "Replay")
    page.get_by_text(text).wait_for(timeout=60_000)
    assert page.get_by_text(f"e2e on event {seq}").count() == 1
    assert CAFE in page.url  # the reload kept the match in the URL

    for heading, path in (("Record", "record"), ("Compare", "compare"), ("Explore", "explore"), ("Rulebook", "rulebook")):
        if not (Path(cli.__file__).parents[1] / "app" / "pages" / f"{path}.py").exists():
            continue
        page.goto(f"{server}{path}")
        _settled(page, heading)
        assert page.locator('[data-testid="stException"]').count() == 0, f"{heading} shows an exception"
        _shoot(page, f"3-{path}")
    page.close()


def _cohorts(browser: Any, server: str, heading: str, *, game: str | None = None) -> Any:
    """The Compare page's Cohorts tab (of `game`, else the default), drawn down to `heading`
    with no exception on the page."""
    page = browser.new_page()
    page.goto(f"{server}compare")
    _settled(page, "Compare")
    if game is not None:
        page.locator('[data-testid="stSelectbox"]').filter(has_text="Game").click()
        page.get_by_role("option", name=game).click()
        _settled(page, "Compare")
    page.get_by_role("tab", name="Cohorts").click()
    page.get_by_text(heading).wait_for(timeout=90_000)
    _settled(page, "Compare")
    assert page.locator('[data-testid="stException"]').count() == 0
    return page


def test_compare_cohorts_draw_the_forest_plot_and_board_heatmaps_in_the_browser(server: str, browser: Any) -> None:
    """The demo's bot games of MortalGate 2.1 and 2.5: verdicts as a forest plot, lengths,
    and where heroes fall and altars change hands on the board, in a real browser."""
    page = _cohorts(browser, server, "Where heroes fall", game="MortalGate")  # games are listed by name
    assert page.get_by_text("mortalgate@2.1 (A) vs mortalgate@2.5 (B), bot games").count() >= 1
    assert page.locator("svg.tabletape-board polygon.heat").count() > 0
    assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 3  # forest plot, histogram, survival
    _shoot(page, "4-compare-cohorts")
    page.close()


def test_compare_draws_where_mercenaries_die_on_mercy_frontiers_board_in_the_browser(server: str, browser: Any) -> None:
    """The demo's Mercy Frontier bot games (accelerated vs current): the heatmap's boards
    are drawn from the warehouse's places, one per version, with nothing owned on them."""
    page = _cohorts(browser, server, "Where mercenaries die", game="Mercy Frontier")
    assert page.get_by_text("mercyfrontier@accelerated (A) vs mercyfrontier@current (B), bot games").count() >= 1
    boards = page.locator("svg.tabletape-board").filter(has_text="games)")
    assert boards.count() == 2
    tips = page.eval_on_selector_all("svg.tabletape-board polygon.heat title", "found => found.map(t => t.textContent)")
    assert all(re.fullmatch(r"mercenary died at \d+,\d+: [\d.]+ per 100 games", t) for t in tips), tips
    _shoot(page, "4-compare-mercyfrontier")
    page.close()


def test_replay_buttons_show_their_whole_labels_on_a_tablet_screen(server: str, browser: Any) -> None:
    """At 1024 x 768 every stepping button of Replay reads in full: a label cut to "Next
    violati…" leaves a designer guessing what the button does."""
    page = browser.new_page()
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{server}replay?match={CAFE}")
    _settled(page, "Replay")
    page.get_by_role("button", name="Next violation").wait_for()
    cut = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stButton"] button')].filter(b => {
        const label = b.querySelector('.stMarkdownEllipsis') || b;
        const shown = label.getBoundingClientRect().width;
        const style = label.style.cssText;
        label.style.cssText = 'width: max-content; max-width: none; flex: none';
        const whole = label.getBoundingClientRect().width;
        label.style.cssText = style;
        return whole > shown + 0.01;  // any overflow at all is drawn as an ellipsis
    }).map(b => b.innerText.split('\\n').pop())""")
    page.close()
    assert cut == [], f"labels cut at 1024 px: {cut}"
