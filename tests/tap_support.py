"""Recording a golden log by taps: how many taps each recorded event takes, and whether
every board tap is drawn in the view of the seat that makes it.

`python -m tests.tap_support mercenarium mercyfrontier` prints, per golden log, the median
and maximum taps per recorded (non-forced) event: the figure issue 13 asks for, from the
same `projections.tapplan.plan` the Record page is built from.
"""

from __future__ import annotations

import importlib
import statistics
import sys
from collections.abc import Iterator
from dataclasses import dataclass

from events.base import Event
from events.shared import MatchStarted
from projections.replay import Fold
from projections.tapplan import Plan, plan
from rulesets import registry
from rulesets.registry import Rules
from rulesets.view import BoardView, key_position


@dataclass(frozen=True)
class Recorded:
    """One event of a log as the Record page would record it, in the state before it."""

    event: Event
    state: object
    plan: Plan


def rules_of(events: list[Event]) -> Rules:
    """The rules a log was played under (its MatchStarted's game, version and overrides)."""
    first = events[0]
    assert isinstance(first, MatchStarted), "a log starts with MatchStarted"
    return registry.rules_for_log(first.ruleset, first.version, dict(first.params), None)


def recorded(rules: Rules, events: list[Event]) -> Iterator[Recorded]:
    """Every event after MatchStarted with the plan that records it."""
    first = events[0]
    assert isinstance(first, MatchStarted), "a log starts with MatchStarted"
    fold = Fold(rules, audit=False)
    step = fold.first(first)
    for event in events[1:]:
        yield Recorded(event, step.state, plan(rules, step.state, event))
        step = fold(step, event)


def drawn(view: BoardView) -> set[str]:
    """The tap keys a view draws: its pieces and its visible cards."""
    return {f"piece:{p.id}" for p in view.pieces} | {f"card:{r.id}:{c}" for r in view.rows for c in r.cards}


def undrawn_taps(rules: Rules, step: Recorded) -> list[str]:
    """Board taps of a plan that the acting seat's own view does not draw (a space key is
    always drawable: the board draws every square)."""
    seat = step.event.by
    view = rules.ruleset.view(rules.params, step.state, seat)
    shown = drawn(view)
    return [t.what for t in step.plan.taps if t.where == "board" and t.what not in shown and key_position(t.what) is None]


def tap_counts(steps: list[Recorded]) -> dict[str, list[int]]:
    """Taps per recorded event, by kind of plan: board (taps and picks), button, dice (faces
    and Record), end; forced events are written by the recorder and take none."""
    counts: dict[str, list[int]] = {}
    for step in steps:
        if step.plan.kind != "forced":
            counts.setdefault(step.plan.kind, []).append(len(step.plan.taps))
    return counts


def summary(counts: dict[str, list[int]]) -> str:
    """`board 142 events: median 2, max 2; dice 20: median 2, max 2; all 163: ...`."""
    every = [n for taps in counts.values() for n in taps]
    parts = [f"{kind} {len(taps)}: median {statistics.median(taps):g}, max {max(taps)}" for kind, taps in sorted(counts.items())]
    parts.append(f"all {len(every)}: median {statistics.median(every):g}, max {max(every)}" if every else "all 0")
    return "; ".join(parts)


def main(games: list[str]) -> None:
    """Print the tap counts of every golden log of the named games but the mistakes logs."""
    for game in games:
        golden = importlib.import_module(f"tests.{game}.golden")
        for path in sorted(golden.HERE.glob("*.jsonl")):
            if "mistakes" in path.stem:
                continue
            events = golden.read_log(path.stem)
            steps = list(recorded(rules_of(events), events))
            forced = sum(s.plan.kind == "forced" for s in steps)
            print(f"{path.stem}: {summary(tap_counts(steps))} ({forced} forced, written by the recorder)")


if __name__ == "__main__":
    main(sys.argv[1:])
