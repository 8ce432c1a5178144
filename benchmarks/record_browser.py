"""Record a golden game again on the Record page, in a real browser, by taps and dice alone.

For each event of the golden log the driver asks `projections.tapplan.plan` what a person
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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from events.base import Event
from events.shared import MatchStarted
from projections.recording import same_event
from projections.replay import Fold
from projections.tapplan import Plan, plan
from projections.taps import tap_map
from projections.workspace import Workspace
from rulesets.registry import Rules

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIZES = {"laptop": (1400, 900), "tablet": (1024, 768)}
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
def dashboard(home: Path, *, timeout: float = 120, streamlit: Sequence[str] = ()) -> Iterator[str]:
    """`tabletape dashboard` on a free port over `home` (an empty store is filled with the
    demo first, within `timeout` seconds); yields its URL once it answers. `streamlit`
    options, when given, serve the app as `tabletape dashboard` does with those options
    last (a baseline run of a store already filled)."""
    from dashboard.cli import streamlit_command

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "TABLETAPE_HOME"}
    tabletape = Path(sys.executable).with_name("tabletape")
    command = [str(tabletape), "--home", str(home), "dashboard", "--port", str(port)]
    if streamlit:
        command, env = streamlit_command(port, "127.0.0.1", *streamlit), {**env, "TABLETAPE_HOME": str(home.resolve())}
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + timeout
        while not _healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the dashboard did not come up")
            time.sleep(0.2)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


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
    from projections.simulate import play

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
           *, size: str, limit: int | None = None, shots: Path | None = None) -> Recording:
    """Record `golden` (or its first `limit` events) on the Record page by taps alone."""
    done = Recording(game=rules.ruleset.name, size=size)
    began = time.perf_counter()
    page.add_init_script(TAP_CLOCK)
    page.goto(url + f"record?match={match_id}")
    page.get_by_role("button", name="Continue").click()
    fold = Fold(rules, audit=False)
    step = fold.first(golden[0])  # type: ignore[arg-type]
    boardless = not rules.ruleset.view(rules.params, step.state, None).has_board
    plans: list[Plan] = []
    state_before: list[Any] = []
    for event in golden[1:]:
        state_before.append(step.state)
        plans.append(plan(rules, step.state, event))
        step = fold(step, event)
    wait = (lambda seq, after="": _wait_store(page, ws, match_id, seq, after)) if boardless else (lambda seq, after="": _wait_seq(page, seq, after))
    wait(_settled(plans, 0))
    for index, how in enumerate(plans[:limit]):
        seq = index + 1
        done.events += 1
        if how.kind == "not-legal":
            raise AssertionError(f"seq {seq} {type(golden[seq]).__name__} cannot be recorded by taps")
        if how.kind == "forced":
            continue
        done.recorded += 1
        done.taps.append(len(how.taps))
        if how.kind == "board":
            done.move_taps.append(len(how.taps))
        started = _perform(page, rules, state_before[index], golden[seq], how, seq)
        wait(_settled(plans, seq), f"{type(golden[seq]).__name__} by taps {[(t.where, t.what) for t in how.taps]}")
        done.driver_ms.append((time.perf_counter() - started) * 1000)
        if not boardless:  # the board stamps when it painted; a state shown as tables does not
            done.waits_ms.append(_painted(page, _settled(plans, seq)))
        if shots is not None and seq in (1, len(plans) // 2):
            page.screenshot(path=str(shots / f"record-{done.game}-{size}-{seq}.png"), full_page=True)
    done.seconds = time.perf_counter() - began
    recorded = list(ws.events(match_id))
    end = len(golden) if limit is None or limit >= len(plans) else _settled(plans, limit) + 1  # a game may be shorter
    for want, got in zip(golden[1:end], recorded[1:], strict=False):
        if not same_event(want, got):
            raise AssertionError(f"seq {want.seq}: recorded {got!r}, the golden log has {want!r}")
    if len(recorded) != end:
        raise AssertionError(f"recorded {len(recorded)} lines, the golden log has {end}")
    return done


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


def _wait_store(page: Any, ws: Workspace, match_id: str, seq: int, after: str = "", *, deadline: float = 90) -> None:
    """For a game with no board (its state shown as tables, which carry no seq): wait until
    the log holds `seq`, then for the page's run that wrote it to end."""
    give_up = time.monotonic() + deadline
    while ws.store.last(match_id)[0] < seq:
        if time.monotonic() > give_up:
            errors = page.locator('[data-testid="stException"]').all_inner_texts()
            raise AssertionError(f"the log never reached seq {seq}{' after ' + after if after else ''}: it holds "
                                 f"{ws.store.last(match_id)[0]}; exceptions on the page: {errors or 'none'}")
        time.sleep(0.05)
    _idle(page)


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


def _perform(page: Any, rules: Rules, state: Any, event: Event, how: Plan, seq: int) -> float:
    """Tap what `how` says; returns the time of the tap that makes the event."""
    board = page.locator(".tt-board")
    last = time.perf_counter()
    legal = list(rules.ruleset.legal(rules.params, state)) if how.kind in ("board", "button") else []
    taps = tap_map(rules, state, legal)
    for tap in how.taps:
        last = time.perf_counter()
        if tap.where == "board":
            spot = board.locator(f'[data-key="{tap.what}"]').last
            spot.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")  # as a person scrolls to it
            last = time.perf_counter()
            spot.click(force=True)
            if tap is not how.taps[-1] and how.taps[how.taps.index(tap) + 1].where == "board":
                board.locator(f'.sel[data-key="{tap.what}"]').first.wait_for()  # picked, as a person sees it lit
        elif tap.where == "pick":
            source, target = _touch_of(taps, event)
            index = next(i for i, c in enumerate(taps.at(source, target)) if same_event(c.event, event))
            page.locator(f".st-key-rec_pick_{seq - 1}_{index} button").click()
        elif tap.where == "button":
            buttons = taps.buttons()
            index = next(i for i, c in enumerate(buttons) if same_event(c.event, event))
            if len(buttons) <= 8:
                page.locator(f".st-key-rec_button_{seq - 1}_{index} button").click()
            else:
                box = page.locator(f".st-key-rec_choose_{seq - 1}")
                box.click()
                page.keyboard.type(tap.what)
                page.keyboard.press("Enter")
                last = time.perf_counter()
                page.locator(f".st-key-rec_button_chosen_{seq - 1} button").click()
        elif tap.where == "die":
            from dashboard.state import die_key

            face = page.locator(f".st-key-rec_die_{seq - 1}_{die_key(tap.die)}").get_by_role("radio", name=tap.what, exact=True)
            face.click()
            page.locator(f".st-key-rec_die_{seq - 1}_{die_key(tap.die)} [aria-checked=true]").wait_for()  # as a person sees it lit
        elif tap.where == "record":
            record = page.locator(f".st-key-rec_record_roll_{seq - 1} button, .st-key-rec_record_end_{seq - 1} button").first
            record.wait_for()  # drawn by the rerun the last tap started,
            _idle(page)  # which is over before a person taps again
            last = time.perf_counter()
            record.click()
    return last


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
    page.add_init_script(TAP_CLOCK)
    page.goto(url + f"replay?match={match_id}")
    page.get_by_text("Event 0 of").first.wait_for()
    painted, driver = [], []
    for seq in range(1, steps + 1):
        began = time.perf_counter()
        page.get_by_role("button", name="Next", exact=True).click()
        page.get_by_text(f"Event {seq} of").first.wait_for()
        _wait_seq(page, seq)
        driver.append((time.perf_counter() - began) * 1000)
        painted.append(_painted(page, seq))
    return painted, driver


def reruns(page: Any, count: int) -> list[float]:
    """Baseline: the Record page's fragment rerun with nothing written (the Ruling tab
    opened), from the tap to its form on screen."""
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


BASELINE = ("--runner.postScriptGC", "true")
"""The same code served with Streamlit's own collection of every generation after each run
(its default, and what `tabletape dashboard` ran with before): the baseline of the same run."""
BASELINE_GAMES = ("mortalgate", "frontline")


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


def measure(url: str, ws: Workspace, sizes: Sequence[str], games: Sequence[str], *, limit: int | None, steps: int, tag: str) -> Figures:
    """Record `games` by taps at `sizes`, open the Ruling tab ten times after each, and step
    through one recorded match on Replay."""
    figures = Figures()
    for size in sizes:
        with chromium(SIZES[size]) as page:
            for game in games:
                rules, events = read_golden(GOLDEN[game], ws)
                match_id = f"{game}-{size}{tag}"
                start_match(ws, rules, events, match_id)
                try:
                    figures.runs.append(record(page, url, ws, rules, events, match_id, size=size, limit=limit))
                    figures.reruns += reruns(page, 10)
                except Exception as error:  # one game's failure is reported, the others still measured
                    figures.failed.append(f"{game} at {size}{tag}: {str(error).splitlines()[0]}")
            try:
                painted, driver = replay_steps(page, url, f"{games[0]}-{size}{tag}", steps)
                figures.steps += painted
                figures.step_driver += driver
            except Exception as error:
                figures.failed.append(f"Replay steps at {size}{tag}: {str(error).splitlines()[0]}")
    return figures


def main() -> None:
    """Record every game's golden game by taps at both sizes, then step through one on
    Replay; then the same for two games on the baseline serving; write the figures into
    BENCHMARKS.md."""
    import argparse
    import tempfile

    from benchmarks.sections import write_section

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="record only the first N events of each game")
    parser.add_argument("--steps", type=int, default=60, help="Next taps on the Replay page")
    parser.add_argument("--baseline-limit", type=int, default=60, help="events of each baseline game")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    began = time.perf_counter()
    home = Path(tempfile.mkdtemp()) / "store"
    ws = Workspace(home)
    with dashboard(home) as url:
        now = measure(url, ws, list(SIZES), list(GOLDEN), limit=args.limit, steps=args.steps, tag="")
        same = measure(url, ws, ["tablet"], BASELINE_GAMES, limit=args.baseline_limit, steps=args.steps // 2, tag="-again")
    with dashboard(home, streamlit=BASELINE) as url:
        before = measure(url, ws, ["tablet"], BASELINE_GAMES, limit=args.baseline_limit, steps=args.steps // 2, tag="-baseline")
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
        f"1400 x 900 and a tablet's 1024 x 768. Load average (1 min): {load_before:.2f} before, {os.getloadavg()[0]:.2f} after.",
        "",
        "*Tap to board on screen* is timed in the page, on its own clock: from the click event to the frame after the "
        "board component has drawn the new position (what a person waits for). *The driver's round trip* is the same "
        "wait from Playwright's side, its own calls to the browser included.",
        "", *summary(now.runs), "",
        f"- board taps per move, attack or placement, all games and sizes: median {statistics.median(move):g}, max {max(move)} "
        "(target: median at most 2)",
        f"- tap that makes an event -> new board on screen, all games and sizes ({len(waits)} taps): p50 {_p(waits, .5):.0f} ms, "
        f"p95 {_p(waits, .95):.0f} ms (target p95 < 300 ms); the driver's round trip p50 {_p(driver, .5):.0f} ms, p95 {_p(driver, .95):.0f} ms",
        f"- the Record page's fragment rerun with nothing written (the Ruling tab opened, driver's round trip, {len(now.reruns)} taps): "
        f"p50 {_p(now.reruns, .5):.0f} ms, p95 {_p(now.reruns, .95):.0f} ms",
        f"- Replay page, Next -> the next event's board on screen ({len(now.steps)} taps): p50 {_p(now.steps, .5):.0f} ms, "
        f"p95 {_p(now.steps, .95):.0f} ms (target p95 < 250 ms); the driver's round trip p50 {_p(now.step_driver, .5):.0f} ms, "
        f"p95 {_p(now.step_driver, .95):.0f} ms",
        "",
        f"Baseline, same run: {', '.join(BASELINE_GAMES)} at the tablet size (first {args.baseline_limit} events each) and "
        f"{args.steps // 2} Next taps, recorded once more with this serving and once with Streamlit's collection of every "
        "generation of garbage after each run left on (its default; the dashboard ran with it before):",
        "",
        "| measure | this serving p50 / p95 ms | with Streamlit's post-run collection p50 / p95 ms | ratio |",
        "|---|---|---|---|",
        f"| tap to board on screen ({len(same.taps())} / {len(before.taps())} taps) | {_p(same.taps(), .5):.0f} / {_p(same.taps(), .95):.0f} | "
        f"{_p(before.taps(), .5):.0f} / {_p(before.taps(), .95):.0f} | {ratio(same.taps(), before.taps())} |",
        f"| Replay Next to board on screen ({len(same.steps)} / {len(before.steps)} taps) | {_p(same.steps, .5):.0f} / {_p(same.steps, .95):.0f} | "
        f"{_p(before.steps, .5):.0f} / {_p(before.steps, .95):.0f} | {ratio(same.steps, before.steps)} |",
        f"| fragment rerun, nothing written ({len(same.reruns)} / {len(before.reruns)}) | {_p(same.reruns, .5):.0f} / {_p(same.reruns, .95):.0f} | "
        f"{_p(before.reruns, .5):.0f} / {_p(before.reruns, .95):.0f} | {ratio(same.reruns, before.reruns)} |",
    ]
    lines += [f"- NOT RECORDED: {line}" for line in now.failed + same.failed + before.failed]
    text = "\n".join(lines)
    print(text)
    if args.limit is None:
        write_section("record", text)


if __name__ == "__main__":
    main()
