"""The ending is asked of every state an audit reaches: what it reads of the armies and the
losses is worked out once per armies and units tuple, not once per event."""

from __future__ import annotations

import pytest

from projections.read.audit import audit
from rulesets.frontier import state as frontier_state
from rulesets.frontier.events import ArmySelected
from tests.frontier import golden


def test_an_ambush_audit_sums_each_army_once_not_once_per_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ambush's objective is half the defender's starting points, asked after every event."""
    name = "frontier-ambush"
    events = golden.read_log(name)
    summed: list[tuple[str, ...]] = []
    plain = frontier_state.army_points

    def counted(types: tuple[str, ...]) -> int:
        summed.append(types)
        return plain(types)

    monkeypatch.setattr(frontier_state, "army_points", counted)
    report = audit(events, golden.golden_rules(name))
    assert report.errors == ()
    selections = sum(1 for e in events if isinstance(e, ArmySelected))
    # each armies tuple (one more per selection) sums each of its armies once
    assert len(summed) <= selections * (selections + 1) // 2, (len(summed), len(events))
