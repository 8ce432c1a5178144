"""Recording a log by taps: each event's tap plan and words, what the seat making it sees,
and the counts.

Shared by the per-game table tests. `python -m tests.tap_support frontier mercenarium`
prints, per clean golden log, the taps per recorded (not forced) event by kind of plan and
by event type: from the same `projections.record.tapplan.plan` the Record page is built from.
"""

from __future__ import annotations

import importlib
import re
import statistics
import sys
from dataclasses import dataclass
from typing import Any

from events.base import Event
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from projections.read.replay import Fold
from projections.record.tapplan import Plan, plan
from rulesets import registry
from rulesets.registry import Rules
from rulesets.view import BoardView, key_position

REPR = re.compile(r"[\[\]{}]|\w\(|\(\(|\(-?[\d.]+, -?[\d.]+\)|None|True|False|\w_\w")
"""What a Python repr, a raw tuple or a raw id leaves in words: brackets, `Level(`, `((`,
`(6, 2)`, `None`, `war_mill`."""
TABLE_EVENTS = (MatchEnded, Retracted, Ruled)
"""Written by the page's own buttons and forms, not described by the game."""


@dataclass(frozen=True)
class Step:
    """One event of a log as the Record page would record it, in the state before it."""

    event: Event
    state: Any
    plan: Plan
    words: str


def rules_of(events: list[Event]) -> Rules:
    """The rules a log was played under (its MatchStarted's game, version and overrides)."""
    first = events[0]
    assert isinstance(first, MatchStarted), "a log starts with MatchStarted"
    return registry.rules_for_log(first.ruleset, first.version, dict(first.params), None)


def log_steps(rules: Rules, events: list[Event]) -> list[Step]:
    """Every event after the start with its tap plan and the game's words for it."""
    first = events[0]
    assert isinstance(first, MatchStarted), "a log starts with MatchStarted"
    describe = rules.ruleset.describe
    fold = Fold(rules, audit=False)
    step = fold.first(first)
    out = []
    for event in events[1:]:
        words = describe(rules.params, step.state, event) if describe and not isinstance(event, TABLE_EVENTS) else ""
        out.append(Step(event, step.state, plan(rules, step.state, event), words))
        step = fold(step, event)
    return out


def described(events: list[Event]) -> str:
    """Every event of a log in the game's words, joined by ` / `, after checking that each
    type the log holds is described, with no repr, raw id or bare type name in it."""
    told = [s for s in log_steps(rules_of(events), events) if s.words]
    assert {type(s.event).__name__ for s in told} == {type(e).__name__ for e in events[1:] if not isinstance(e, TABLE_EVENTS)}
    for s in told:
        assert not REPR.search(s.words), (s.event.seq, s.words)
        assert type(s.event).__name__ not in s.words, (s.event.seq, s.words)
    return " / ".join(s.words for s in told)


def drawn(view: BoardView) -> set[str]:
    """The tap keys a view draws: its pieces and its visible cards."""
    return {f"piece:{p.id}" for p in view.pieces} | {f"card:{r.id}:{c}" for r in view.rows for c in r.cards}


def undrawn_taps(rules: Rules, step: Step) -> list[str]:
    """Board taps of a plan that the acting seat's own view does not draw (a space key is
    always drawable: the board draws every square)."""
    view = rules.ruleset.view(rules.params, step.state, step.event.by)
    shown = drawn(view)
    return [t.what for t in step.plan.taps if t.where == "board" and t.what not in shown and key_position(t.what) is None]


def tap_counts(steps: list[Step]) -> dict[str, list[int]]:
    """Taps per recorded event by kind of plan: board (taps and picks), button, dice (faces
    and Record), end; forced events are written by the recorder and take none."""
    counts: dict[str, list[int]] = {}
    for step in steps:
        if step.plan.kind not in ("forced", "not-legal"):
            counts.setdefault(step.plan.kind, []).append(len(step.plan.taps))
    return counts


def taps(steps: list[Step]) -> dict[str, list[int]]:
    """Taps per recorded event by event type, and all together under `all`."""
    out: dict[str, list[int]] = {"all": []}
    for s in steps:
        if s.plan.kind in ("forced", "not-legal"):
            continue
        out.setdefault(type(s.event).__name__, []).append(len(s.plan.taps))
        out["all"].append(len(s.plan.taps))
    return out


def summary(steps: list[Step]) -> str:
    """`board 142: median 2, max 2; dice 20: ...; all 163: ...` and a line per event type."""
    kinds = tap_counts(steps)
    every = [n for counts in kinds.values() for n in counts]
    head = [f"{kind} {len(c)}: median {statistics.median(c):g}, max {max(c)}" for kind, c in sorted(kinds.items())]
    head.append(f"all {len(every)}: median {statistics.median(every):g}, max {max(every)}" if every else "all 0")
    lines = ["  " + "; ".join(head)]
    lines += [f"  {name}: {len(c)} events, median {statistics.median(c):g}, max {max(c)}" for name, c in taps(steps).items() if c and name != "all"]
    forced = sum(1 for s in steps if s.plan.kind == "forced")
    return "\n".join([*lines, f"  forced (written by the recorder): {forced}"])


def golden_logs(game: str) -> dict[str, list[Event]]:
    """The golden logs of `game` played clean (the mistakes logs left out), by name."""
    golden = importlib.import_module(f"tests.{game}.golden")
    names = sorted(p.stem for p in golden.HERE.glob("*.jsonl") if "mistakes" not in p.stem)
    return {name: golden.read_log(name) for name in names}


def main(games: list[str]) -> None:
    """Print the tap counts of every clean golden log of the named games."""
    for game in games:
        for name, events in golden_logs(game).items():
            print(name)
            print(summary(log_steps(rules_of(events), events)))


if __name__ == "__main__":
    main(sys.argv[1:])
