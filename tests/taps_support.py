"""What recording a log by taps costs: every event's tap plan and its words, and the counts.

Shared by the per-game table tests. `python -m tests.taps_support frontier` prints, per
golden log, the median and max taps per recorded (not forced) event and per event type:
the figures the tap benchmarks of issue 13 report.
"""

from __future__ import annotations

import importlib
import re
import statistics
import sys
from dataclasses import dataclass

from events.base import Event
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from projections.replay import Fold
from projections.tapplan import Plan, plan
from rulesets import registry
from rulesets.registry import Rules

REPR = re.compile(r"[\[\]{}]|\w\(|\(\(|\(-?[\d.]+, -?[\d.]+\)|None|True|False|\w_\w")
"""What a Python repr, a raw tuple or a raw id leaves in words: brackets, `Level(`, `((`,
`(6, 2)`, `None`, `war_mill`."""
TABLE_EVENTS = (MatchEnded, Retracted, Ruled)
"""Written by the page's own buttons and forms, not described by the game."""


@dataclass(frozen=True)
class Step:
    """One event of a log: how it is recorded by taps, and the game's words for it."""

    event: Event
    plan: Plan
    words: str


def steps(rules: Rules, events: list[Event]) -> list[Step]:
    """Every event after the start with its tap plan and description, read in the state before it."""
    describe = rules.ruleset.describe
    header = events[0]
    assert isinstance(header, MatchStarted)
    fold = Fold(rules, audit=False)
    step = fold.first(header)
    out = []
    for event in events[1:]:
        words = describe(rules.params, step.state, event) if describe and not isinstance(event, TABLE_EVENTS) else ""
        out.append(Step(event, plan(rules, step.state, event), words))
        step = fold(step, event)
    return out


def described(events: list[Event]) -> str:
    """Every event of a log in the game's words, joined by ` / `, after checking that each
    type the log holds is described, with no repr, raw id or bare type name in it."""
    recorded = [s for s in steps(rules_of(events), events) if s.words]
    assert {type(s.event).__name__ for s in recorded} == {type(e).__name__ for e in events[1:] if not isinstance(e, TABLE_EVENTS)}
    for s in recorded:
        assert not REPR.search(s.words), (s.event.seq, s.words)
        assert type(s.event).__name__ not in s.words, (s.event.seq, s.words)
    return " / ".join(s.words for s in recorded)


def taps(recorded: list[Step]) -> dict[str, list[int]]:
    """Taps per recorded (not forced) event, by event type, and all together under `all`."""
    out: dict[str, list[int]] = {"all": []}
    for s in recorded:
        if s.plan.kind in ("forced", "not-legal"):
            continue
        out.setdefault(type(s.event).__name__, []).append(len(s.plan.taps))
        out["all"].append(len(s.plan.taps))
    return out


def summary(recorded: list[Step]) -> str:
    """`all: 86 events, median 2, max 4; ActionDeclared: ...` (one line per event type)."""
    lines = []
    for name, counts in taps(recorded).items():
        if counts:
            lines.append(f"  {name}: {len(counts)} events, median {statistics.median(counts):g}, max {max(counts)}")
    forced = sum(1 for s in recorded if s.plan.kind == "forced")
    return "\n".join([*lines, f"  forced (written by the recorder): {forced}"])


def rules_of(events: list[Event]) -> Rules:
    """The rules a log replays under: its own game and version."""
    header = events[0]
    assert isinstance(header, MatchStarted)
    return registry.resolve(f"{header.ruleset}@{header.version}")


def golden_logs(game: str) -> dict[str, list[Event]]:
    """The golden logs of `game` played clean (the mistakes logs left out), by name."""
    golden = importlib.import_module(f"tests.{game}.golden")
    names = sorted(p.stem for p in golden.HERE.glob("*.jsonl") if "mistakes" not in p.stem)
    return {name: golden.read_log(name) for name in names}


def main(game: str) -> None:
    """Print the tap counts of every clean golden log of `game`."""
    for name, events in golden_logs(game).items():
        print(name)
        print(summary(steps(rules_of(events), events)))


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        main(arg)
