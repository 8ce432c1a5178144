"""What an audit asks of every state is worked out again only for what the event changed:
the ending's armies once per armies tuple, the units' bodies once per unit object."""

from __future__ import annotations

import pytest

from projections.read.audit import audit
from projections.read.replay import replay
from rulesets.frontier import state as frontier_state
from rulesets.frontier.events import ArmySelected, UnitMoved
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


def test_a_move_measures_again_only_the_unit_it_moved() -> None:
    """Sight lines and moves read every unit's body: after a move, the bodies of the units
    it left alone are the very bodies of the state before."""
    name = "frontier-assault"
    before, kept = None, 0
    for step in replay(golden.read_log(name), golden.golden_rules(name), audit=True):
        state = step.state
        if isinstance(step.event, UnitMoved) and before is not None:
            earlier = {body.id: body for body in frontier_state.bodies(before)}
            for unit, body in zip(frontier_state.on_board(state), frontier_state.bodies(state), strict=True):
                if frontier_state.find(before, unit.id) is unit:
                    assert earlier[unit.id] is body, unit.id
                    kept += 1
        before = state
    assert kept >= 10  # units a move left alone were compared
