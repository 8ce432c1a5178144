"""Scrubbing on the Replay page: server time to redraw after the slider moves, on a
10,000-event match.

    python -m benchmarks.dashboard              # 10,000 events, 200 slider moves
    python -m benchmarks.dashboard --events 2000 --moves 50

Two measures over the same random slider positions:

- the redraw itself (what the Replay page's fragment runs after a move): Timeline
  `state_at`, the ruleset's `view`, the board and timeline SVGs, and the event window;
- the Replay page itself, driven through Streamlit's AppTest: the server time of the
  fragment a slider move reruns (measured by the page: state, board, event list, state
  inspector, violations and notes, every element serialised), and the whole rerun as
  AppTest sees it (the full script plus the harness's polling: an upper bound).

A report, not a timed test: the target is under 150 ms server time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import msgspec

from benchmarks.sections import write_section
from dashboard.board.svg import board_svg, timeline_svg
from projections.corpus.demo import save_events
from projections.corpus.simulate import play
from projections.workspace import Workspace
from rulesets import registry

TARGET_MS = 150.0
APP = str(Path(__file__).resolve().parent.parent / "dashboard" / "app" / "main.py")


def long_match(ws: Workspace, events: int) -> str:
    """A MortalGate 1.5 bot game that goes on for `events` events (Grace to win raised)."""
    rules = registry.resolve("mortalgate@1.5")
    goal = 100_000
    rules = msgspec.structs.replace(rules, params=msgspec.structs.replace(rules.params, grace_to_win=goal),
                                    overrides={"grace_to_win": goal})
    log = play(rules, {"red": "ana", "blue": "ben"}, seed=7, match_id="long", max_events=events, audit=False)
    return save_events(ws, log)


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms"


def redraw(ws: Workspace, match_id: str, positions: list[int]) -> list[float]:
    """What the fragment computes after a slider move, timed per move."""
    timeline = ws.timeline(match_id)
    rules = timeline.rules
    notes = ws.notes.list(match_id)
    times = []
    for seq in positions:
        start = time.perf_counter()
        step = timeline.state_at(seq)
        view = rules.ruleset.view(rules.params, step.state, None)
        board_svg(view)
        timeline_svg(timeline.last_seq, seq, violations={}, notes=[(n.from_seq, n.to_seq) for n in notes])
        rules.ruleset.progress(rules.params, step.state)
        [msgspec.to_builtins(e) for e in timeline.events[max(seq - 8, 0):seq + 9]]
        msgspec.to_builtins(step.state)
        times.append((time.perf_counter() - start) * 1000)
    return times


def page_reruns(home: Path, match_id: str, positions: list[int]) -> tuple[list[float], list[float]]:
    """Per slider move: the page's own redraw time, and the whole AppTest rerun."""
    from streamlit.testing.v1 import AppTest

    os.environ["TABLETAPE_HOME"] = str(home)
    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    at.session_state["match_id"] = match_id
    at.switch_page("pages/replay.py")
    at.run()
    slider = next(s for s in at.slider if s.label == "Event")
    redraws, reruns = [], []
    for seq in positions:
        slider.set_value(seq)
        start = time.perf_counter()
        at.run()
        reruns.append((time.perf_counter() - start) * 1000)
        assert not at.exception, at.exception
        slider = next(s for s in at.slider if s.label == "Event")
        assert slider.value == seq
        redraws.append(float(at.session_state["replay.redraw_ms"]))
    return redraws, reruns


def main() -> None:
    """Build the long match, then time random slider moves both ways."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    lines = ["## Dashboard scrubbing (`make bench-dashboard`)", "",
             f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.dashboard"
             f" --events {args.events} --moves {args.moves}`.", ""]
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "store"
        ws = Workspace(home)
        start = time.perf_counter()
        match_id = long_match(ws, args.events)
        last = ws.store.last(match_id)[0]
        lines.append(f"- match {match_id}: {last + 1} events, made in {time.perf_counter() - start:.1f} s")
        start = time.perf_counter()
        ws.timeline(match_id)
        lines.append(f"- Timeline build (once per match, then cached): {(time.perf_counter() - start) * 1000:.0f} ms")
        rng = random.Random(1)
        positions = [rng.randrange(last + 1) for _ in range(args.moves)]
        fragment = redraw(ws, match_id, positions)
        lines.append(f"- redraw after a slider move ({args.moves} random moves): {percentiles(fragment)}")
        redraws, reruns = page_reruns(home, match_id, positions[: max(args.moves // 2, 10)])
        lines.append(f"- Replay page redraw after a slider move, server time ({len(redraws)} moves): {percentiles(redraws)}")
        lines.append(f"- whole AppTest rerun of the page, incl. harness polling ({len(reruns)} moves): {percentiles(reruns)}")
        worst = sorted(redraws)[min(len(redraws) - 1, int(0.95 * len(redraws)))]
        lines.append(f"- target: redraw under {TARGET_MS:.0f} ms server time: {'pass' if worst < TARGET_MS else 'FAIL'} (p95 {worst:.1f} ms)")
    text = "\n".join(lines)
    print(text)
    if args.events >= 10_000:
        write_section("dashboard", text)


if __name__ == "__main__":
    main()
