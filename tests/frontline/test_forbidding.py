"""Every rule that forbids a player's action because of a building's, a worker's or a
research's state is named by its own rule at the first event that breaks it, and what
follows from that one mistake gives no second finding.

Each case is a whole log (line 0, action rounds, the table's frontline moves) audited as a
designer audits a playtest (`projections.read.audit.audit`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import msgspec
import pytest

from events.base import Event
from projections.read.audit import audit
from rulesets.frontline.events import (
    BuildingBuilt,
    BuildingDestroyed,
    FrontlineMoved,
    ResearchStarted,
    RoundEnded,
    TrainingStarted,
    WorkersMoved,
)
from tests.frontline.scenario import RULESET, P, R, started


def game(races: dict[str, str], *rounds: Sequence[Event]) -> list[Event]:
    """A log: line 0, then each action round's events (each by the seat whose round it is);
    every round but the last ends with RoundEnded and the frontline move the rules give."""
    events: list[Event] = [started(races)]
    state = RULESET.setup(P, events[0])
    for i, actions in enumerate(rounds):
        done = [msgspec.structs.replace(a, by=state.current) for a in actions]
        if i < len(rounds) - 1:
            done.append(RoundEnded(by=state.current))
        for event in done:
            state = RULESET.apply(P, state, event)
        if i < len(rounds) - 1:
            moved = next(e for e in RULESET.legal(P, state) if isinstance(e, FrontlineMoved))
            state = RULESET.apply(P, state, moved)
            done.append(moved)
        events += done
    return events


def findings(events: Sequence[Event]) -> list[tuple[int, str]]:
    """(seq, rule) of every error and warning the audit names."""
    numbered = [msgspec.structs.replace(e, seq=i) for i, e in enumerate(events)]
    return [(v.seq, v.rule) for v in audit(numbered, R).violations if v.severity != "info"]


HUMAN_A = {"a": "human", "b": "orc"}
ORC_B = HUMAN_A
SKIP: list[Event] = []
MILITIA_CALLED = game(HUMAN_A, [BuildingBuilt(building="blacksmith", area="A4")], SKIP, SKIP, SKIP,
                      [ResearchStarted(tech="call_to_arms", building="blacksmith-1")], SKIP, [WorkersMoved(count=2, origin="gold", to="militia")], SKIP,
                      [WorkersMoved(count=2, origin="militia", to="gold")])
"""a (human) researches Call to Arms, calls 2 gold workers to militia, then sends them back to the gold mine."""
BURROWS = game(ORC_B, SKIP, [BuildingBuilt(building="burrow", area="B4"), BuildingBuilt(building="war_mill", area="B4")], SKIP, SKIP, SKIP,
               [ResearchStarted(tech="battle_stations", building="war_mill-1")], SKIP, [WorkersMoved(count=2, origin="gold", to="burrow-1")])
"""b (orc) researches Battle Stations and shelters 2 gold workers in its burrow."""


class Case(NamedTuple):
    rule_of: str
    """The forbidding rule, in words (the test's id)."""
    clean: list[Event]
    breaks: Event
    after: Sequence[Event]
    rule: str


CASES = [
    Case("a building does one task at a time", game(HUMAN_A, [TrainingStarted(unit="worker", building="base-1")]),
         TrainingStarted(by="a", unit="worker", building="base-1"), [RoundEnded(by="a")], "frontline/train.one-task"),
    Case("research needs a war mill or blacksmith", game(HUMAN_A, SKIP),
         ResearchStarted(by="a", tech="reinforced_buildings", building="base-1"), [RoundEnded(by="a")], "frontline/research.war-mill"),
    Case("a building being built does nothing yet", game(HUMAN_A, [BuildingBuilt(building="barracks", area="A4")]),
         TrainingStarted(by="a", unit="footman", building="barracks-1"), [RoundEnded(by="a")], "frontline/build.time"),
    Case("a burrow being built shelters no one", [*BURROWS, BuildingBuilt(by="b", building="burrow", area="B4")],
         WorkersMoved(by="b", count=1, origin="gold", to="burrow-2"), [RoundEnded(by="b")], "frontline/build.time"),
    Case("militia need Call to Arms", game(HUMAN_A, SKIP),
         WorkersMoved(by="a", count=2, origin="gold", to="militia"), [RoundEnded(by="a")], "frontline/militia.research"),
    Case("militia take an extra round going back to work", MILITIA_CALLED,
         WorkersMoved(by="a", count=3, origin="gold", to="lumber"), [RoundEnded(by="a")], "frontline/militia.return"),
    Case("burrows need Battle Stations", game(ORC_B, SKIP, [BuildingBuilt(building="burrow", area="B4")], SKIP, SKIP),
         WorkersMoved(by="b", count=1, origin="gold", to="burrow-1"), [RoundEnded(by="b")], "frontline/burrow.research"),
    Case("workers in a destroyed burrow die with it", [*BURROWS, BuildingDestroyed(by="b", building="burrow-1")],
         WorkersMoved(by="b", count=2, origin="burrow-1", to="gold"), [RoundEnded(by="b")], "frontline/burrow.destroyed"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.rule_of for c in CASES])
def test_a_forbidding_rule_is_named_at_the_first_event_that_breaks_it(case: Case) -> None:
    assert findings(case.clean) == []
    assert findings([*case.clean, case.breaks, *case.after]) == [(len(case.clean), case.rule)]


def test_militia_moved_on_early_are_where_the_table_put_them() -> None:
    """The table moved on militia still going back to work: the replay follows it, so moving
    them again from where the table put them is no second finding."""
    early = WorkersMoved(by="a", count=3, origin="gold", to="lumber")
    again = WorkersMoved(by="a", count=5, origin="lumber", to="gold")
    assert findings([*MILITIA_CALLED, early, again, RoundEnded(by="a")]) == [(len(MILITIA_CALLED), "frontline/militia.return")]
