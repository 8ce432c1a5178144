"""Record a golden game again on the Record page, in a real browser, by taps and dice alone.

For each event of the golden log the driver asks `projections.record.tapplan.plan` what a person
taps to record it in the position the page shows (the page is built from the same
functions), taps exactly that in Chromium, and waits for the board to show the new
position. It never types an event: the board, the picker, the off-board buttons and the
dice pad are all it touches. What it measures is what a designer waits for and does:
taps per recorded event, and the time from the tap that makes an event to the updated
board on screen.

    python -m benchmarks.record_browser            # every game, both sizes, into BENCHMARKS.md
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from benchmarks.speed import code_tree
from events.base import Event
from events.shared import MatchStarted
from projections.read.replay import Fold
from projections.record.recording import same_event
from projections.record.tapplan import Plan, plan
from projections.record.taps import tap_map
from projections.workspace import Workspace
from rulesets.registry import Rules

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIZES = {"laptop": (1400, 900), "tablet": (1024, 768)}
FIRST_VISITS = 7
"""New browsers opening the 2,000-event match at each size, each in turn with one opening Streamlit's
least page: a first visit swings by a few tenths of a second on a shared machine."""
ROOT = Path(__file__).parents[1]
GOLDEN = {
    "mortalgate": ROOT / "tests/mortalgate/golden/mortalgate-2.5.jsonl",
    "frontier": ROOT / "tests/frontier/golden/frontier-sabotage.jsonl",
    "mercenarium": ROOT / "tests/mercenarium/golden/mercenarium-2p.jsonl",
    "mercyfrontier": ROOT / "tests/mercyfrontier/golden/mercyfrontier-accelerated.jsonl",
    "frontline": ROOT / "tests/frontline/golden/frontline-orc-human.jsonl",
}
"""One golden bot game per game: the shortest clean one."""


@dataclass
class Recording:
    """What recording one game by taps took."""

    game: str
    size: str
    events: int = 0
    recorded: int = 0
    """Events the table made (not the ones the recorder wrote because the rules force them)."""
    taps: list[int] = field(default_factory=list)
    """Taps per recorded event."""
    move_taps: list[int] = field(default_factory=list)
    """Taps per recorded event made on the board (moves, attacks, placements)."""
    waits_ms: list[float] = field(default_factory=list)
    """From the tap that makes an event to the new board on screen, timed in the page: the
    click's own time to the frame that shows the board of the new position."""
    driver_ms: list[float] = field(default_factory=list)
    """The same wait as the driver sees it, from Playwright's click call to its finding the
    new board (its own round trips to the browser included)."""
    seconds: float = 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def dashboard(home: Path, *, timeout: float = 120, streamlit: Sequence[str] = (), code: Path | None = None) -> Iterator[str]:
    """`tabletape dashboard` on a free port over `home` (an empty store is filled with the
    demo first, within `timeout` seconds); yields its URL once it answers. `streamlit`
    options, when given, serve the app as `tabletape dashboard` does with those options
    last (a baseline run of a store already filled). `code`, when given, is the tree whose
    code serves (a baseline commit extracted by `benchmarks.speed.code_tree`)."""
    from dashboard.cli.commands import streamlit_command

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "TABLETAPE_HOME"}
    tabletape = Path(sys.executable).with_name("tabletape")
    command = [str(tabletape), "--home", str(home), "dashboard", "--port", str(port)]
    if streamlit:
        command, env = streamlit_command(port, "127.0.0.1", *streamlit), {**env, "TABLETAPE_HOME": str(home.resolve())}
    if code is not None:
        env["PYTHONPATH"] = str(code)
        if not streamlit:  # that tree's own command line, wherever its layout keeps it
            cli = "dashboard.cli" if (code / "dashboard" / "cli.py").exists() else "dashboard.cli.commands"
            command = [sys.executable, "-c", f"from {cli} import main; main()", *command[1:]]
    with serving(command, port, env=env, cwd=code, timeout=timeout) as url:
        yield url


@contextmanager
def serving(command: Sequence[str], port: int, *, env: dict[str, str], cwd: Path | None = None, timeout: float = 120) -> Iterator[str]:
    """A Streamlit server started by `command` on `port`; yields its URL once it answers and
    stops it (and whatever it started) at the end."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True,
                               cwd=cwd)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + timeout
        while not _healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{' '.join(command[:4])} did not come up")
            time.sleep(0.2)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextmanager
def floor_app() -> Iterator[str]:
    """Streamlit's least page (`benchmarks/floor_app.py`), served with the dashboard's options;
    yields its URL."""
    from dashboard.cli.commands import streamlit_command

    port = free_port()
    command = streamlit_command(port, "127.0.0.1")
    command[command.index("run") + 1] = str(ROOT / "benchmarks" / "floor_app.py")
    with serving(command, port, env=dict(os.environ)) as url:
        yield url


def floor_first_paint(url: str, size: str, *, choices: bool = False) -> float:
    """Baseline: seconds from a new browser's navigation to the floor page's component on
    screen, on the page's clock: what a first visit to any Streamlit page costs here now
    (`choices`: with Replay's row of choice boxes above it)."""
    with chromium(SIZES[size]) as page:
        page.goto(url + ("?choices=1" if choices else ""))
        drawn = page.locator('.tt-floor[data-drawn="0"]')
        drawn.wait_for(state="attached", timeout=120_000)
        return float(drawn.get_attribute("data-drawn-at") or "nan") / 1000


def floor_taps(size: str, count: int) -> list[float]:
    """Baseline: `count` taps on Streamlit's least fragment (`benchmarks/floor_app.py`: a line
    of text and a component that stamps its redraw), each from the click to the new value on
    screen, on the page's clock: what any tap costs in Streamlit on this machine now."""
    with floor_app() as url, chromium(SIZES[size]) as page:
        page.add_init_script(TAP_CLOCK)
        page.goto(url)
        page.locator('.tt-floor[data-drawn="0"]').wait_for(timeout=120_000)
        waits = []
        for seq in range(1, count + 1):
            page.locator(".tt-floor button").click()
            floor = page.locator(f'.tt-floor[data-drawn="{seq}"]')
            floor.wait_for(state="attached")
            waits.append(float(floor.get_attribute("data-drawn-at") or "nan") - float(page.evaluate("window.__ttTapAt")))
        return waits


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "_stcore/health", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@contextmanager
def chromium(size: tuple[int, int]) -> Iterator[Any]:
    """A page of Debian's Chromium at `size` (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": size[0], "height": size[1]}, has_touch=True)
            page.set_default_timeout(30_000)
            yield page
        finally:
            browser.close()


def read_golden(path: Path, ws: Workspace) -> tuple[Rules, list[Event]]:
    """A golden game's rules and its events as the same bots play its seed, seats and options
    under the rules as they are now. A golden file recorded before a rule was fixed may hold
    a move the rules now refuse, and no table taps a refused move by accident."""
    from events.codec import read_header
    from projections.corpus.simulate import play

    started = read_header(path.read_bytes().splitlines()[0], where=str(path))
    rules = ws.rules_of_header(started)
    events = play(rules, dict(started.seats), seed=started.seed or 0, bot="heuristic", match_id=started.match_id,
                  options=dict(started.options))
    return rules, [msgspec.structs.replace(events[0], title=started.title), *events[1:]]


def start_match(ws: Workspace, rules: Rules, golden: Sequence[Event], match_id: str) -> None:
    """Line 0 as the golden game had it (seats and options); the rest is tapped."""
    first = golden[0]
    assert isinstance(first, MatchStarted)
    ws.new_match(rules.spec, dict(first.seats), options=dict(first.options), match_id=match_id,
                 title=f"recorded by taps: {first.title}", source="playtest")


def record(page: Any, url: str, ws: Workspace, rules: Rules, golden: Sequence[Event], match_id: str,
           *, size: str, limit: int | None = None, shots: Path | None = None, start: int = 1, strict: bool = True,
           widgets: bool = False) -> Recording:
    """Record `golden` (or `limit` events of it) on the Record page by taps alone, from
    `start` (the events before it are stored as they are). `strict`: every target must be in
    view without a scroll; else each is scrolled to first (code laid out for a taller screen)."""
    done = Recording(game=rules.ruleset.name, size=size)
    began = time.perf_counter()
    if start > 1:
        ws.append_events(match_id, golden[1:start])
    page.add_init_script(TAP_CLOCK)
    fold = Fold(rules, audit=False)
    step = fold.first(golden[0])  # type: ignore[arg-type]
    open_playtest(page, url, match_id, panel=not widgets)
    plans: list[Plan] = []
    state_before: list[Any] = []
    for event in golden[1:]:
        state_before.append(step.state)
        plans.append(plan(rules, step.state, event))
        step = fold(step, event)
    _wait_seq(page, _settled(plans, start - 1))
    stop = len(plans) if limit is None else min(len(plans), start - 1 + limit)
    for index in range(start - 1, stop):
        how, seq = plans[index], index + 1
        done.events += 1
        if how.kind == "not-legal":
            raise AssertionError(f"seq {seq} {type(golden[seq]).__name__} cannot be recorded by taps")
        if how.kind == "forced":
            continue
        done.recorded += 1
        done.taps.append(len(how.taps))
        if how.kind == "board":
            done.move_taps.append(len(how.taps))
        started = _perform(page, rules, state_before[index], golden[seq], how, seq, look=in_view if strict else scroll_to,
                           controls=WidgetControls if widgets else PanelControls)
        _wait_seq(page, _settled(plans, seq), f"{type(golden[seq]).__name__} by taps {[(t.where, t.what) for t in how.taps]}")
        done.driver_ms.append((time.perf_counter() - started) * 1000)
        done.waits_ms.append(_painted(page, _settled(plans, seq)))
        if shots is not None and seq in (1, len(plans) // 2):
            page.screenshot(path=str(shots / f"record-{done.game}-{size}-{seq}.png"), full_page=True)
    done.seconds = time.perf_counter() - began
    recorded = list(ws.events(match_id))
    end = len(golden) if stop >= len(plans) else _settled(plans, stop) + 1  # a game may be shorter than `limit`
    for want, got in zip(golden[1:end], recorded[1:], strict=False):
        if not same_event(want, got):
            raise AssertionError(f"seq {want.seq}: recorded {got!r}, the golden log has {want!r}")
    if len(recorded) != end:
        raise AssertionError(f"recorded {len(recorded)} lines, the golden log has {end}")
    return done


def open_playtest(page: Any, url: str, match_id: str, *, panel: bool = True) -> None:
    """Continue `match_id` on the Record page and stand at the page's top, as a person does
    once the board and its panel are up (Continue sits at the foot of the start form, and
    the browser keeps the scroll it was tapped at). `panel=False`: a page whose panel is
    Streamlit's widgets (the baseline's code), up once the board is."""
    page.goto(url + f"record?match={match_id}")
    page.get_by_role("button", name="Continue").click()
    page.locator(".tt-board .panel .head" if panel else ".tt-board svg.tabletape-board").wait_for()
    page.evaluate("() => document.querySelector('[data-testid=stMain]')?.scrollTo(0, 0)")


def _settled(plans: Sequence[Plan], seq: int) -> int:
    """The last seq on the page after the table's event `seq` and what the rules then force."""
    while seq < len(plans) and plans[seq].kind == "forced":
        seq += 1
    return seq


def _wait_seq(page: Any, seq: int, after: str = "") -> None:
    """Wait for the board at `seq`; if it never comes, say where the page stands instead
    (a rare time-out under load left only Playwright's 'waiting for locator' to go on)."""
    try:
        page.locator(f'.tt-board[data-seq="{seq}"]').wait_for()
    except Exception as late:
        shown = page.locator(".tt-board").first.get_attribute("data-seq", timeout=1000) if page.locator(".tt-board").count() else None
        errors = page.locator('[data-testid="stException"]').all_inner_texts()
        raise AssertionError(f"the board never reached seq {seq}{' after ' + after if after else ''}: it shows seq {shown}; "
                             f"exceptions on the page: {errors or 'none'} ({type(late).__name__})") from late


def _idle(page: Any) -> None:
    """Wait until the app has no run in flight, as a person waits for the page to settle
    before the next tap: a click that lands while a fragment is still rerunning can be
    dropped by Streamlit when that rerun redraws the button."""
    page.wait_for_function("() => document.querySelector('[data-testid=\"stApp\"]')"
                           "?.getAttribute('data-test-script-state') === 'notRunning'", timeout=90_000)


TAP_CLOCK = "window.addEventListener('click', () => { window.__ttTapAt = performance.now(); }, true);"
"""Stamps every click with the page's clock as it happens (capture phase, before any handler)."""


def _painted(page: Any, seq: int) -> float:
    """Milliseconds from the last click to the frame that showed the board at `seq`, both read
    from the page's own clock (the board component stamps `data-drawn-at` once painted)."""
    board = page.locator(f'.tt-board[data-drawn="{seq}"]')
    board.wait_for(state="attached")
    drawn = float(board.get_attribute("data-drawn-at") or "nan")
    return drawn - float(page.evaluate("window.__ttTapAt"))


def in_view(page: Any, target: Any, what: str) -> None:
    """Fail unless the middle of `target` (a finger's width of it) is on screen, below the
    sticky header, as the page stands: the driver never scrolls, so every tap of an event is
    made on one screen, as on a tablet held in two hands."""
    box = target.bounding_box()
    if box is None:
        raise AssertionError(f"{what} is not drawn")
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    header = page.locator('[data-testid="stHeader"]').bounding_box()
    top = header["y"] + header["height"] if header else 0
    pad_x, pad_y = min(box["width"], FINGER) / 2, min(box["height"], FINGER) / 2
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if not (pad_x <= x <= width - pad_x and top + pad_y <= y <= height - pad_y):
        raise AssertionError(f"{what} is out of view at {width} x {height}: its middle is at ({x:.0f}, {y:.0f}), "
                             f"the screen below the header spans y {top:.0f}-{height}")


FINGER = 16
"""Pixels of a target around its middle that must be on screen for a finger to land on it."""


def scroll_to(page: Any, target: Any, what: str) -> None:
    """Scroll `target` into the middle of the screen, as a person does on a page taller than it."""
    target.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")


class PanelControls:
    """Where the Record page's presses are: the panel the board component draws beside the
    board, each press a button with its `data-act`."""

    def __init__(self, page: Any, seq: int) -> None:
        self.panel = page.locator(f'.tt-board[data-seq="{seq - 1}"] .panel')

    def pick(self, index: int) -> Any:
        return self.panel.locator(f'button[data-act="pick"][data-index="{index}"]')

    def button(self, index: int) -> Any:
        return self.panel.locator(f'button[data-act="button"][data-index="{index}"]')

    def choose(self, page: Any, look: Callable[[Any, Any, str], None], index: int, words: str) -> Any:
        """Choose from the long list of choices; returns its Record."""
        box = self.panel.locator('select[data-choose="button"]')
        look(page, box, "the list of choices")
        box.select_option(str(index))
        return self.panel.locator('button[data-act="button"]')

    def part(self, compose: int, index: int) -> Any:
        return self.panel.locator(f'button[data-act="part"][data-compose="{compose}"][data-index="{index}"]')

    def chosen(self, compose: int, done: int) -> Any:
        return self.panel.locator(f'button[data-act="unpart"][data-compose="{compose}"][data-index="{done}"]')

    def face(self, die: str, face: str) -> Any:
        return self.panel.locator(f".faces[data-die={_css(die)}] button[data-face={_css(face)}]")

    def lit(self, die: str) -> Any:
        return self.panel.locator(f".faces[data-die={_css(die)}] [aria-pressed=true]")

    def record(self, page: Any, compose: int) -> Any:
        """Record: drawn by the panel once the roll is narrowed to one outcome (or the
        composition's last part)."""
        record = self.panel.locator(f'button[data-act="roll"], button[data-act="end"], '
                                    f'button[data-act="compose"][data-compose="{compose}"]').first
        record.wait_for()
        return record


class WidgetControls:
    """The same presses on the Record page as the baseline's code draws it: Streamlit widgets
    beside the board, found by their keys."""

    def __init__(self, page: Any, seq: int) -> None:
        self.page, self.at = page, seq - 1

    def pick(self, index: int) -> Any:
        return self.page.locator(f".st-key-rec_pick_{self.at}_{index} button")

    def button(self, index: int) -> Any:
        return self.page.locator(f".st-key-rec_button_{self.at}_{index} button")

    def choose(self, page: Any, look: Callable[[Any, Any, str], None], index: int, words: str) -> Any:
        box = page.locator(f".st-key-rec_choose_{self.at}")
        look(page, box, "the choice box")
        box.click(force=True)
        page.keyboard.type(words)
        page.keyboard.press("Enter")
        return page.locator(f".st-key-rec_button_chosen_{self.at} button")

    def part(self, compose: int, index: int) -> Any:
        return self.page.locator(f".st-key-rec_part_{self.at}_{compose}_{index} button")

    def chosen(self, compose: int, done: int) -> Any:
        return self.page.locator(f".st-key-rec_chosen_{self.at}_{compose}_{done}")

    def face(self, die: str, face: str) -> Any:
        from dashboard.app.state import die_key

        return self.page.locator(f".st-key-rec_die_{self.at}_{die_key(die)}").get_by_role("radio", name=face, exact=True)

    def lit(self, die: str) -> Any:
        from dashboard.app.state import die_key

        return self.page.locator(f".st-key-rec_die_{self.at}_{die_key(die)} [aria-checked=true]")

    def record(self, page: Any, compose: int) -> Any:
        """Record, drawn by the rerun the last tap started, which is over before a person
        taps again."""
        record = page.locator(f".st-key-rec_record_roll_{self.at} button, .st-key-rec_record_end_{self.at} button, "
                              f".st-key-rec_compose_{self.at}_{compose} button").first
        record.wait_for()
        _idle(page)
        return record


Controls = type[PanelControls] | type[WidgetControls]


def _perform(page: Any, rules: Rules, state: Any, event: Event, how: Plan, seq: int,
             *, look: Callable[[Any, Any, str], None] = in_view, controls: Controls = PanelControls) -> float:
    """Tap what `how` says, each target first looked at with `look` (by default: it must be
    in view without a scroll), the presses beside the board found by `controls` (the
    baseline's page: `WidgetControls`); returns the time of the tap that makes the event."""

    def _tap(target: Any, what: str) -> None:
        look(page, target, what)
        target.click(force=True)

    board = page.locator(".tt-board")
    press = controls(page, seq)
    last = time.perf_counter()
    legal = list(rules.ruleset.legal(rules.params, state)) if how.kind in ("board", "button", "compose") else []
    taps = tap_map(rules, state, legal)
    for number, tap in enumerate(how.taps):
        final = number == len(how.taps) - 1
        last = time.perf_counter()
        if tap.where == "board":
            spot = board.locator(f'[data-key="{tap.what}"]').last
            look(page, spot, f"the board's {tap.what}")
            last = time.perf_counter()
            spot.click(force=True)
            if not final and how.taps[number + 1].where == "board":
                board.locator(f'.sel[data-key="{tap.what}"]').first.wait_for()  # picked, as a person sees it lit
        elif tap.where == "pick":
            source, target = _touch_of(taps, event)
            index = next(i for i, c in enumerate(taps.at(source, target)) if same_event(c.event, event))
            _tap(press.pick(index), f"the picker's {tap.what!r}")
        elif tap.where == "button":
            buttons = taps.buttons()
            index = next(i for i, c in enumerate(buttons) if same_event(c.event, event))
            if len(buttons) <= 8:
                _tap(press.button(index), f"the button {tap.what!r}")
            else:
                record = press.choose(page, look, index, tap.what)
                last = time.perf_counter()
                _tap(record, "Record")
        elif tap.where == "part":
            made = taps.composes[tap.compose]
            index = next(i for i, part in enumerate(made.parts) if part.value == tap.what)
            done = sum(1 for t in how.taps[:number] if t.where == "part")
            _tap(press.part(tap.compose, index), f"{made.title}: {tap.what}")
            if not final:  # the part shows in the choice so far before the next tap, as a person sees it
                press.chosen(tap.compose, done).wait_for()
        elif tap.where == "die":
            _tap(press.face(tap.die, tap.what), f"the face {tap.what} of {tap.die}")
            if not final:
                press.lit(tap.die).wait_for()  # as a person sees it lit
        elif tap.where == "record":
            record = press.record(page, tap.compose)
            last = time.perf_counter()
            _tap(record, f"Record the {tap.what}")
    return last


def _css(text: str) -> str:
    """`text` as a quoted CSS attribute value."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _touch_of(taps: Any, event: Event) -> tuple[str | None, str | None]:
    choice = next(c for c in taps.choices if same_event(c.event, event))
    return choice.touch.source, choice.touch.target


def summary(runs: Sequence[Recording]) -> list[str]:
    """Markdown rows: per game and size, taps per event and the wait for the board."""
    rows = ["| game | size | events | recorded by the table | taps/event median (max) | board taps median (max) | "
            "tap to board on screen p50 / p95 ms | the driver's round trip p50 / p95 ms |",
            "|---|---|---|---|---|---|---|---|"]
    for run in runs:
        rows.append(f"| {run.game} | {run.size} | {run.events} | {run.recorded} | {statistics.median(run.taps) if run.taps else 0:g} ({max(run.taps, default=0)}) | "
                    f"{statistics.median(run.move_taps) if run.move_taps else 0:g} ({max(run.move_taps, default=0)}) | "
                    f"{_p(run.waits_ms, .5):.0f} / {_p(run.waits_ms, .95):.0f} | {_p(run.driver_ms, .5):.0f} / {_p(run.driver_ms, .95):.0f} |")
    return rows


def replay_steps(page: Any, url: str, match_id: str, steps: int) -> tuple[list[float], list[float]]:
    """The Replay page's Next button: from the tap to the next event's board on screen, timed
    in the page and by the driver."""
    page.add_init_script(STEP_CLOCK)
    open_replay(page, url, match_id)
    painted, driver = [], []
    for seq in range(1, steps + 1):
        began = time.perf_counter()
        page.get_by_role("button", name="Next ▶").click()
        wait_drawn(page, seq)
        driver.append((time.perf_counter() - began) * 1000)
        painted.append(step_painted(page, seq))
    return painted, driver


def reruns(page: Any, count: int) -> list[float]:
    """Baseline: the Record page rerun with nothing written (the Ruling mode opened: this
    code reruns the page, the form beside the board; the baseline's its fragment), from the
    tap to the form on screen."""
    waits = []
    mode = page.locator(".st-key-rec_mode")
    for _ in range(count):
        began = time.perf_counter()
        mode.get_by_role("radio", name="Ruling").click()
        page.locator(".st-key-rec_decision").wait_for()
        waits.append((time.perf_counter() - began) * 1000)
        mode.get_by_role("radio", name="Play").click()
        page.locator(".st-key-rec_decision").wait_for(state="detached")
    return waits


def _p(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


BASELINE = "7c27cba"
"""The code before the tablet layout, the choices made by pointing and the board's frame sent
once: served from its own extracted tree, the baseline of the same run."""

# --- scrubbing on Replay: the board in the browser ------------------------------------------

STEP_CLOCK = ("for (const kind of ['keydown', 'pointerdown', 'click']) "
              "window.addEventListener(kind, () => { window.__ttTapAt = performance.now(); }, true);")
"""Stamps every key, press and click with the page's clock as it happens (capture phase)."""


def open_replay(page: Any, url: str, match_id: str) -> None:
    """Replay of `match_id`, once its board component has drawn an event."""
    page.goto(url + f"replay?match={match_id}")
    page.locator(".tt-scrub[data-drawn]").wait_for(timeout=120_000)


def wait_all_frames(page: Any, timeout: float = 300_000) -> None:
    """Wait until the browser holds every frame of the match."""
    page.wait_for_function("() => { const r = [...document.querySelectorAll('*')].map(e => e.shadowRoot).filter(Boolean)"
                           ".map(s => s.querySelector('.tt-scrub')).find(Boolean);"
                           " return r && r.dataset.total && r.dataset.have === r.dataset.total; }", timeout=timeout)


def drawn_since_opened(page: Any) -> float:
    """Seconds from the page's navigation to its first board on screen, on the page's clock
    (the first board's own stamp: the page draws the board again once what lies below it
    arrives, and that redraw may come before the driver reads)."""
    return float(page.locator(".tt-scrub[data-first-drawn-at]").get_attribute("data-first-drawn-at") or "nan") / 1000


def pick_match(page: Any, match_id: str) -> None:
    """Choose `match_id` in Replay's Match box, as a designer does, and wait for its board."""
    box = page.locator(".st-key-replay-match")
    box.get_by_role("combobox").click()
    box.get_by_role("combobox").fill(match_id)
    page.get_by_role("option", name=match_id).first.click()
    page.wait_for_function("id => { const r = [...document.querySelectorAll('*')].map(e => e.shadowRoot).filter(Boolean)"
                           ".map(s => s.querySelector('.tt-scrub')).find(Boolean);"
                           " return r && r.dataset.id.startsWith(id + '|') && Number(r.dataset.drawnAt) > window.__ttTapAt; }",
                           arg=match_id, timeout=120_000)


def wait_drawn(page: Any, seq: int) -> None:
    """Wait until the board at `seq` is on screen."""
    page.locator(f'.tt-scrub[data-drawn="{seq}"]').wait_for(state="attached")


def step_painted(page: Any, seq: int) -> float:
    """Milliseconds from the last key, press or click to the frame that showed the board at
    `seq`, both on the page's own clock."""
    root = page.locator(f'.tt-scrub[data-drawn="{seq}"]')
    root.wait_for(state="attached")
    return float(root.get_attribute("data-drawn-at") or "nan") - float(page.evaluate("window.__ttTapAt"))


PAGE_DRAG = """([root, frames]) => new Promise((done) => {
  const slider = root.querySelector('.slider'), last = Number(slider.max), drawn = [];
  new MutationObserver(() => drawn.push([performance.now(), Number(root.dataset.drawn)]))
    .observe(root, { attributes: true, attributeFilter: ['data-drawn'] });
  let k = 0;
  const move = () => {
    slider.value = String(Math.round(last * k / frames));
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    if (++k <= frames) requestAnimationFrame(move); else setTimeout(() => done(drawn), 300);
  };
  requestAnimationFrame(move);
})"""
"""A finger dragging the thumb from the first event to the last: one input event per frame the
browser paints (what a touch screen delivers), in the page, so the driver's own speed plays
no part; resolves to the boards that reached the screen, with the page's clock."""


DRAWN_LOG = """root => { window.__ttDrawn = []; new MutationObserver(() => window.__ttDrawn.push([performance.now(), Number(root.dataset.drawn)]))
  .observe(root, { attributes: true, attributeFilter: ['data-drawn'] }); }"""
"""Logs every board the component puts on screen, with the page's clock."""


def drag_slider(page: Any, begin: float, end: float, *, steps: int) -> list[int]:
    """Drag the slider's thumb from `begin` to `end` (fractions of its length) in `steps`
    moves, as a finger does; the events whose boards reached the screen on the way, in order."""
    root = page.locator(".tt-scrub")
    root.evaluate(DRAWN_LOG)
    box = page.locator(".tt-scrub .slider").bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 8 + (box["width"] - 16) * begin, y)
    page.mouse.down()
    page.mouse.move(box["x"] + 8 + (box["width"] - 16) * end, y, steps=steps)
    page.mouse.up()
    page.wait_for_timeout(300)
    return [int(seq) for _, seq in page.evaluate("window.__ttDrawn")]


@dataclass
class Scrub:
    """The board in the browser, measured on one page size."""

    keys: list[float] = field(default_factory=list)
    nexts: list[float] = field(default_factory=list)
    slider: list[float] = field(default_factory=list)
    drag_boards_per_s: float = 0.0
    drag_boards: int = 0
    drag_seconds: float = 0.0
    finger_boards_per_s: float = 0.0
    finger_boards: int = 0
    finger_seconds: float = 0.0
    first_board: list[float] = field(default_factory=list)
    first_board_page: list[float] = field(default_factory=list)
    floor_first: list[float] = field(default_factory=list)
    """Streamlit's least page opened in a new browser, in turn with `first_board_page`."""
    floor_choices_first: list[float] = field(default_factory=list)
    """The same page with Replay's row of choice boxes above its component."""
    reopened: list[float] = field(default_factory=list)
    picked: list[float] = field(default_factory=list)
    all_frames_s: float = 0.0
    memory_mb: float = 0.0
    memory_frames: int = 0
    loads: dict[str, float] = field(default_factory=dict)


def long_matches(ws: Workspace) -> dict[int, str]:
    """MortalGate random-bot games under a variant where Grace never decides, cut at 500,
    2,000 and 10,000 events: a match of each length (made once per store)."""
    from benchmarks.corpus import VARIANT, VARIANT_TOML
    from projections.corpus.demo import save_events
    from projections.corpus.simulate import play

    (ws.home / "variants").mkdir(parents=True, exist_ok=True)
    (ws.home / "variants" / f"{VARIANT}.toml").write_text(VARIANT_TOML, encoding="utf-8")
    rules = ws.rules(f"mortalgate@{VARIANT}")
    made = {}
    for length in (500, 2_000, 10_000):
        match_id = f"scrub-{length}"
        if not ws.store.exists(match_id):
            seed, events = 0, []
            while len(events) < length:  # the first seed whose game lasts that long
                seed += 1
                events = play(rules, rules.ruleset.example_seats, seed=seed, bot="random", match_id=match_id, max_events=length,
                              audit=False)
            save_events(ws, events)
        made[length] = match_id
    return made


def _load() -> float:
    return os.getloadavg()[0]


def scrub(url: str, floor: str, matches: dict[int, str], size: str, *, steps: int) -> Scrub:
    """Step by key, Next and slider on the 500-event match; drag its slider across; open
    the 2,000-event match (first board, and every frame in the page), each new browser in
    turn with one opening Streamlit's least page at `floor`; open the 10,000-event match,
    wait for all its frames and read the page's memory."""
    figures = Scrub()
    with chromium(SIZES[size]) as page:
        page.add_init_script(STEP_CLOCK)
        open_replay(page, url, matches[500])
        wait_all_frames(page)
        figures.loads["steps"] = _load()
        for seq in range(1, steps + 1):
            page.keyboard.press("ArrowRight")
            figures.keys.append(step_painted(page, seq))
        for seq in range(steps + 1, 2 * steps + 1):
            page.get_by_role("button", name="Next ▶").click()
            figures.nexts.append(step_painted(page, seq))
        box = page.locator(".tt-scrub .slider").bounding_box()
        total = int(page.locator(".tt-scrub").get_attribute("data-total") or 0)
        for k in range(steps):
            fraction = 0.05 + 0.9 * ((k * 37) % steps) / steps  # points spread along the track
            before = page.locator(".tt-scrub").get_attribute("data-drawn")
            page.mouse.click(box["x"] + 8 + (box["width"] - 16) * fraction, box["y"] + box["height"] / 2)
            page.wait_for_function("b => { const r = [...document.querySelectorAll('*')].map(e => e.shadowRoot).filter(Boolean)"
                                   ".map(s => s.querySelector('.tt-scrub')).find(Boolean); return r.dataset.drawn !== b; }", arg=before)
            seq = int(page.locator(".tt-scrub").get_attribute("data-drawn") or 0)
            figures.slider.append(step_painted(page, seq))
        figures.loads["drag"] = _load()
        drawn = drag_slider(page, 0.0, 1.0, steps=240)
        times = page.evaluate("window.__ttDrawn")
        figures.drag_boards = len(times)
        figures.drag_seconds = (times[-1][0] - times[0][0]) / 1000 if len(times) > 1 else 0.0
        figures.drag_boards_per_s = (len(times) - 1) / figures.drag_seconds if figures.drag_seconds else 0.0
        assert drawn and drawn[-1] == total - 1, f"the drag ended at {drawn[-1:]} of {total - 1}"
        figures.loads["finger"] = _load()
        root = page.locator(".tt-scrub")
        times = root.evaluate(f"root => ({PAGE_DRAG})([root, 240])")
        figures.finger_boards = len(times)
        figures.finger_seconds = (times[-1][0] - times[0][0]) / 1000 if len(times) > 1 else 0.0
        figures.finger_boards_per_s = (len(times) - 1) / figures.finger_seconds if figures.finger_seconds else 0.0
    for _ in range(FIRST_VISITS):
        figures.floor_first.append(floor_first_paint(floor, size))
        figures.floor_choices_first.append(floor_first_paint(floor, size, choices=True))
        with chromium(SIZES[size]) as page:
            figures.loads["first"] = _load()
            began = time.perf_counter()
            open_replay(page, url, matches[2_000])
            figures.first_board.append(time.perf_counter() - began)
            figures.first_board_page.append(drawn_since_opened(page))
            wait_all_frames(page)
            figures.all_frames_s = time.perf_counter() - began
    with chromium(SIZES[size]) as page:
        page.add_init_script(STEP_CLOCK)
        open_replay(page, url, matches[500])
        for _ in range(3):  # the same tab opens the match again: the browser holds the dashboard's scripts
            open_replay(page, url, matches[2_000])
            figures.reopened.append(drawn_since_opened(page))
        figures.loads["reopened"] = _load()
        for _ in range(3):  # chosen in the Match box of an open Replay page
            open_replay(page, url, matches[500])
            pick_match(page, matches[2_000])
            figures.picked.append(step_painted(page, int(page.locator(".tt-scrub").get_attribute("data-drawn") or 0)) / 1000)
        figures.loads["picked"] = _load()
    with chromium(SIZES[size]) as page:
        open_replay(page, url, matches[10_000])
        wait_all_frames(page, timeout=900_000)
        figures.loads["memory"] = _load()
        cdp = page.context.new_cdp_session(page)
        cdp.send("HeapProfiler.collectGarbage")
        figures.memory_mb = cdp.send("Runtime.getHeapUsage")["usedSize"] / 1e6
        figures.memory_frames = int(page.locator(".tt-scrub").get_attribute("data-have") or 0)
    return figures


def old_replay_steps(page: Any, url: str, match_id: str, steps: int) -> tuple[list[float], list[float]]:
    """Baseline: the Replay page's Next as it was at `BASELINE`, a Streamlit round trip per
    step, from the click to the next event's board on screen (the old board component's own
    stamp), timed in the page and by the driver."""
    page.add_init_script(TAP_CLOCK)
    page.goto(url + f"replay?match={match_id}")
    page.get_by_text("Event 0 of").first.wait_for(timeout=120_000)
    painted, driver = [], []
    for seq in range(1, steps + 1):
        began = time.perf_counter()
        page.get_by_role("button", name="Next", exact=True).click()
        page.get_by_text(f"Event {seq} of").first.wait_for()
        _wait_seq(page, seq)
        driver.append((time.perf_counter() - began) * 1000)
        painted.append(_painted(page, seq))
    return painted, driver


def old_first_board(url: str, match_id: str, size: str) -> float:
    """Baseline: seconds from opening the old Replay page to its first board on screen."""
    with chromium(SIZES[size]) as page:
        began = time.perf_counter()
        page.goto(url + f"replay?match={match_id}")
        page.locator('.tt-board[data-drawn="0"]').wait_for(state="attached", timeout=120_000)
        return time.perf_counter() - began


def scrub_section(home: Path, *, steps: int, sizes: Sequence[str]) -> str:
    """Measure the board in the browser at each size and the old round-trip Next on the same
    store, and say it as BENCHMARKS.md's section."""
    ws = Workspace(home)
    began = time.perf_counter()
    matches = long_matches(ws)
    with dashboard(home) as url, floor_app() as floor:
        now = {size: scrub(url, floor, matches, size, steps=steps) for size in sizes}
    with dashboard(home, code=code_tree(BASELINE)) as url:
        with chromium(SIZES["tablet"]) as page:
            old_load = _load()
            old, _ = old_replay_steps(page, url, matches[500], steps)
        old_first = [old_first_board(url, matches[2_000], "tablet") for _ in range(3)]
        old_first_load = _load()
    minutes = (time.perf_counter() - began) / 60
    lines = [
        "## Scrubbing on Replay: the board in the browser (`make bench-record`)", "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.record_browser --only-scrub` "
        f"(also the end of `make bench-record`) in {minutes:.1f} min, Debian's Chromium driven by Playwright over MortalGate "
        "random-bot games under a variant where Grace never decides (`benchmarks/corpus.py`), cut at 500, 2,000 and 10,000 "
        "events. A step's time is read on the page's own clock, from the key, press or click to the frame after the board "
        "component drew the event (what a person waits for). The load average (1 min) of this shared 2-core machine is "
        "beside each figure. A drag that moves the thumb once per painted frame gets a board on every move, so its boards "
        "per second are the frame rate Chromium kept at that load.", "",
        "| measure | " + " | ".join(f"{size} {SIZES[size][0]} x {SIZES[size][1]}" for size in sizes) + " | target |",
        "|---|" + "---|" * len(sizes) + "---|",
    ]

    def row(name: str, cell: Any, target: str) -> str:
        return f"| {name} | " + " | ".join(cell(now[size]) for size in sizes) + f" | {target} |"

    def pcts(samples: Sequence[float], load: float) -> str:
        return f"p50 {_p(samples, .5):.0f} ms, p95 {_p(samples, .95):.0f} ms ({len(samples)}; load {load:.1f})"

    lines += [
        row("arrow key -> board on screen", lambda f: pcts(f.keys, f.loads["steps"]), "p95 <= 30 ms"),
        row("Next -> board on screen", lambda f: pcts(f.nexts, f.loads["steps"]), "p95 <= 30 ms"),
        row("slider tapped -> board on screen", lambda f: pcts(f.slider, f.loads["steps"]), "p95 <= 30 ms"),
        row("dragging the slider across 500 events, a move each painted frame", lambda f: f"{f.finger_boards_per_s:.0f} boards/s "
            f"({f.finger_boards} boards in {f.finger_seconds:.1f} s; load {f.loads['finger']:.1f})", ">= 30 boards/s"),
        row("the same by Playwright's mouse (240 moves, as fast as the driver sends them)", lambda f: f"{f.drag_boards_per_s:.0f} "
            f"boards/s ({f.drag_boards} boards in {f.drag_seconds:.1f} s; load {f.loads['drag']:.1f})", ""),
        row("2,000-event match opened in a new browser (its first visit: Streamlit's scripts loaded too) -> first board, "
            "on the page's clock", lambda f: f"median {statistics.median(f.first_board_page):.2f} s, worst "
            f"{max(f.first_board_page):.2f} s ({len(f.first_board_page)} opens; load {f.loads['first']:.1f})", "<= 1.5 s"),
        row("the same, by the driver's clock (its browser start excluded)", lambda f: f"median {statistics.median(f.first_board):.2f} s,"
            f" worst {max(f.first_board):.2f} s", ""),
        row("Streamlit's least page (`benchmarks/floor_app.py`) opened in a new browser, in turn with the above -> its "
            "component on screen, page's clock", lambda f: f"median {statistics.median(f.floor_first):.2f} s, worst "
            f"{max(f.floor_first):.2f} s", ""),
        row("the same page with Replay's row of three choice boxes and a toggle above its component", lambda f: f"median "
            f"{statistics.median(f.floor_choices_first):.2f} s, worst {max(f.floor_choices_first):.2f} s", ""),
        row("2,000-event match opened again in the same tab (a link to it) -> first board, page's clock", lambda f: f"median "
            f"{statistics.median(f.reopened):.2f} s, worst {max(f.reopened):.2f} s (3 opens; load {f.loads['reopened']:.1f})",
            "<= 1.5 s"),
        row("2,000-event match chosen in an open Replay's Match box -> its first board", lambda f: f"median "
            f"{statistics.median(f.picked):.2f} s, worst {max(f.picked):.2f} s (3 choices; load {f.loads['picked']:.1f})",
            "<= 1.5 s"),
        row("2,000-event match: opened -> every frame in the page", lambda f: f"{f.all_frames_s:.1f} s", ""),
        row("10,000-event match, every frame held: page's JS heap", lambda f: f"{f.memory_mb:.0f} MB ({f.memory_frames:,} frames; "
            f"load {f.loads['memory']:.1f})", "reported"),
        "",
        f"Baseline, same run and store: Replay's Next as it was at {BASELINE} (a Streamlit round trip per step, served from "
        f"that commit's files), tablet size: Next -> board on screen on the 500-event match {pcts(old, old_load)}; "
        f"the 2,000-event match opened -> first board median {statistics.median(old_first):.2f} s, worst {max(old_first):.2f} s "
        f"(3 opens; load {old_first_load:.1f}).",
    ]
    return "\n".join(lines)
BASELINE_GAMES = ("mortalgate", "frontline")


Stepping = Callable[[Any, str, str, int], tuple[list[float], list[float]]] | None
"""How Next is timed on a serving's Replay: its page, URL, match and steps to painted and
driver milliseconds."""


@dataclass
class Figures:
    """One serving's measures, all games together."""

    runs: list[Recording] = field(default_factory=list)
    reruns: list[float] = field(default_factory=list)
    steps: list[float] = field(default_factory=list)
    step_driver: list[float] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def taps(self) -> list[float]:
        return [w for run in self.runs for w in run.waits_ms]

    def driver(self) -> list[float]:
        return [w for run in self.runs for w in run.driver_ms]


def after_setup(rules: Rules, golden: Sequence[Event]) -> int:
    """The seq after the last choice made by pointing or card dealt (planned differently
    before the baseline): where a baseline recording starts, the same in both codes."""
    fold = Fold(rules, audit=False)
    step = fold.first(golden[0])  # type: ignore[arg-type]
    start = 1
    for event in golden[1:]:
        how = plan(rules, step.state, event)
        if how.kind == "compose" or (how.kind == "dice" and how.taps[-1].where != "record"):
            start = event.seq + 1
        step = fold(step, event)
    return start


def measure(url: str, ws: Workspace, sizes: Sequence[str], games: Sequence[str], *, limit: int | None, steps: int, tag: str,
            baseline: bool = False, stepping: Stepping = None, widgets: bool = False) -> Figures:
    """Record `games` by taps at `sizes`, open the Ruling tab ten times after each, and step
    through one recorded match on Replay. `baseline`: from after the set-up (`after_setup`),
    each target scrolled to (the baseline's layout is not the tablet's). `stepping`: how Next is
    timed on that code's Replay (`replay_steps` unless given). `widgets`: that code's Record page
    draws its panel as Streamlit widgets."""
    figures = Figures()
    for size in sizes:
        with chromium(SIZES[size]) as page:
            for game in games:
                rules, events = read_golden(GOLDEN[game], ws)
                match_id = f"{game}-{size}{tag}"
                start_match(ws, rules, events, match_id)
                try:
                    start = after_setup(rules, events) if baseline else 1
                    figures.runs.append(record(page, url, ws, rules, events, match_id, size=size, limit=limit, start=start,
                                               strict=not baseline, widgets=widgets))
                    figures.reruns += reruns(page, 10)
                except Exception as error:  # one game's failure is reported, the others still measured
                    figures.failed.append(f"{game} at {size}{tag}: {str(error).splitlines()[0]}")
            try:
                painted, driver = (stepping or replay_steps)(page, url, f"{games[0]}-{size}{tag}", steps)
                figures.steps += painted
                figures.step_driver += driver
            except Exception as error:
                figures.failed.append(f"Replay steps at {size}{tag}: {str(error).splitlines()[0]}")
    return figures


def main() -> None:
    """Record every game's golden game by taps at both sizes, then step through one on
    Replay; then the same for two games with this code and with the baseline commit's, from
    after their set-up; write the figures into BENCHMARKS.md."""
    import argparse
    import tempfile

    from benchmarks.sections import write_section

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="record only the first N events of each game")
    parser.add_argument("--steps", type=int, default=60, help="Next taps on the Replay page")
    parser.add_argument("--baseline-limit", type=int, default=60, help="events of each baseline game")
    parser.add_argument("--baseline", default=BASELINE, help="the commit whose code is the baseline")
    parser.add_argument("--only-scrub", action="store_true", help="measure only scrubbing on Replay (its own section)")
    parser.add_argument("--scrub-steps", type=int, default=60, help="steps of each kind on the 500-event match")
    args = parser.parse_args()
    if args.only_scrub:
        text = scrub_section(Path(tempfile.mkdtemp()) / "store", steps=args.scrub_steps, sizes=list(SIZES))
        print(text)
        write_section("scrub", text)
        return
    load_before = os.getloadavg()[0]
    began = time.perf_counter()
    home = Path(tempfile.mkdtemp()) / "store"
    ws = Workspace(home)
    with dashboard(home) as url:
        now = measure(url, ws, list(SIZES), list(GOLDEN), limit=args.limit, steps=args.steps, tag="")
        same = measure(url, ws, ["tablet"], BASELINE_GAMES, limit=args.baseline_limit, steps=args.steps // 2, tag="-again",
                       baseline=True)
    load_between = os.getloadavg()[0]
    with dashboard(home, code=code_tree(args.baseline)) as url:
        before = measure(url, ws, ["tablet"], BASELINE_GAMES, limit=args.baseline_limit, steps=args.steps // 2, tag="-baseline",
                         baseline=True, stepping=old_replay_steps if args.baseline == BASELINE else None, widgets=True)
    floor = floor_taps("tablet", 60)
    minutes = (time.perf_counter() - began) / 60
    command = "python -m benchmarks.record_browser" + (f" --limit {args.limit}" if args.limit else "")
    move = [n for run in now.runs for n in run.move_taps] or [0]
    waits, driver = now.taps(), now.driver()

    def ratio(a: Sequence[float], b: Sequence[float]) -> str:
        return f"{_p(a, .5) / max(_p(b, .5), 1e-9):.2f}x at p50, {_p(a, .95) / max(_p(b, .95), 1e-9):.2f}x at p95"

    lines = [
        "## Recording by taps and stepping on Replay, in the real browser (`make bench-record`)", "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `{command}` (also `make bench-record`) in "
        f"{minutes:.1f} min: Debian's Chromium driven by Playwright records each game's golden bot game again on the "
        "Record page by taps and dice-pad presses alone (the log must come out equal, event for event), at a laptop's "
        f"1400 x 900 and a tablet's 1024 x 768, every target in view with no scroll (the run fails otherwise). Load average (1 min): "
        f"{load_before:.2f} before, {load_between:.2f} before the baseline, {os.getloadavg()[0]:.2f} after.",
        "",
        "*Tap to board on screen* is timed in the page, on its own clock: from the click event to the frame after the "
        "board component has drawn the new position (what a person waits for). *The driver's round trip* is the same "
        "wait from Playwright's side, its own calls to the browser included.",
        "", *summary(now.runs), "",
        f"- board taps per move, attack or placement, all games and sizes: median {statistics.median(move):g}, max {max(move)} "
        "(target: median at most 2)",
        f"- tap that makes an event -> new board on screen, all games and sizes ({len(waits)} taps): p50 {_p(waits, .5):.0f} ms, "
        f"p95 {_p(waits, .95):.0f} ms (target p95 at most 100 ms on a quiet machine); the driver's round trip p50 {_p(driver, .5):.0f} ms, p95 {_p(driver, .95):.0f} ms",
        f"- the Ruling mode opened, nothing written (a rerun of the page, driver's round trip, {len(now.reruns)} taps): "
        f"p50 {_p(now.reruns, .5):.0f} ms, p95 {_p(now.reruns, .95):.0f} ms",
        f"- Replay page, Next -> the next event's board on screen ({len(now.steps)} taps): p50 {_p(now.steps, .5):.0f} ms, "
        f"p95 {_p(now.steps, .95):.0f} ms (target p95 < 250 ms); the driver's round trip p50 {_p(now.step_driver, .5):.0f} ms, "
        f"p95 {_p(now.step_driver, .95):.0f} ms",
        "",
        f"Baseline, same run: {', '.join(BASELINE_GAMES)} at the tablet size ({args.baseline_limit} events each from after the "
        f"set-up, each target scrolled to) and {args.steps // 2} Next taps, recorded once more with this code and once with the "
        f"code of `{args.baseline}` (extracted with `git archive`, served from its own tree):",
        "",
        f"| measure | this code p50 / p95 ms | `{args.baseline}` p50 / p95 ms | ratio |",
        "|---|---|---|---|",
        f"| tap to board on screen ({len(same.taps())} / {len(before.taps())} taps) | {_p(same.taps(), .5):.0f} / {_p(same.taps(), .95):.0f} | "
        f"{_p(before.taps(), .5):.0f} / {_p(before.taps(), .95):.0f} | {ratio(same.taps(), before.taps())} |",
        f"| Replay Next to board on screen ({len(same.steps)} / {len(before.steps)} taps) | {_p(same.steps, .5):.0f} / {_p(same.steps, .95):.0f} | "
        f"{_p(before.steps, .5):.0f} / {_p(before.steps, .95):.0f} | {ratio(same.steps, before.steps)} |",
        f"| the Ruling mode opened, nothing written ({len(same.reruns)} / {len(before.reruns)}) | {_p(same.reruns, .5):.0f} / {_p(same.reruns, .95):.0f} | "
        f"{_p(before.reruns, .5):.0f} / {_p(before.reruns, .95):.0f} | {ratio(same.reruns, before.reruns)} |",
        "",
        f"Streamlit's floor, same run: a tap on the least fragment Streamlit reruns (`benchmarks/floor_app.py`: a line of text "
        f"and a component that stamps its redraw, served with the dashboard's options) to its new value on screen, tablet "
        f"size, {len(floor)} taps: p50 {_p(floor, .5):.0f} ms, p95 {_p(floor, .95):.0f} ms. The Record page's tap to board, "
        f"all games and sizes, is {ratio(waits, floor)} of it.",
    ]
    lines += [f"- NOT RECORDED: {line}" for line in now.failed + same.failed + before.failed]
    text = "\n".join(lines)
    print(text)
    write_section("record", text)
    if args.limit is None:
        scrubbed = scrub_section(Path(tempfile.mkdtemp()) / "store", steps=args.scrub_steps, sizes=list(SIZES))
        print(scrubbed)
        write_section("scrub", scrubbed)


if __name__ == "__main__":
    main()
