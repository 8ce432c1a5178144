"""`legal` remembers what it works out from parts of a side (its buildings, purse, rounds,
techs) for the decisions after it, and the worker moves by where the workers are: a
position that shares some parts with the one before must still get exactly the actions
`check` accepts there, in order."""

from __future__ import annotations

from events.base import Event
from rulesets.frontline.cards import BUILDINGS
from rulesets.frontline.events import BuildingBuilt, TrainingStarted, WorkersMoved
from tests.frontline.scenario import RULESET, P, add_buildings, building, change, fresh, play, the


def accepted(state: object) -> list[Event]:
    """The candidates `check` accepts: what `legal` must be."""
    return [e for e in RULESET.candidates(P, state) if not RULESET.check(P, state, e)]


def test_a_worker_move_keeps_the_other_actions_and_moves_the_workers_offered() -> None:
    state = change(fresh(), "a", gold=9, lumber=9)
    before = RULESET.legal(P, state)
    moved = play(state, WorkersMoved(by="a", count=1, origin="gold", to="lumber"))
    after = RULESET.legal(P, moved)
    assert after == accepted(moved)
    assert [e for e in after if not isinstance(e, WorkersMoved)] == [e for e in before if not isinstance(e, WorkersMoved)]
    assert WorkersMoved(by="a", count=1, origin="lumber", to="gold") in after


def test_a_purse_changed_alone_changes_what_is_affordable() -> None:
    rich = change(fresh(), "a", gold=9, lumber=9)
    assert any(isinstance(e, BuildingBuilt) for e in RULESET.legal(P, rich))
    poor = change(rich, "a", gold=0, lumber=0)  # the same buildings, rounds and techs: only the purse differs
    assert the(poor, "a").buildings is the(rich, "a").buildings
    assert RULESET.legal(P, poor) == accepted(poor)
    assert not any(isinstance(e, BuildingBuilt | TrainingStarted) for e in RULESET.legal(P, poor))


def test_a_round_later_a_building_stands_and_trains() -> None:
    state = add_buildings(change(fresh(), "a", gold=9, lumber=9), "a", building("barracks", "A4", ready=2))
    assert not any(isinstance(e, TrainingStarted) and e.building == "barracks-1" for e in RULESET.legal(P, state))
    later = change(state, "a", rounds=2)  # the same buildings tuple, one round on: it now stands
    assert RULESET.legal(P, later) == accepted(later)
    assert any(isinstance(e, TrainingStarted) and e.building == "barracks-1" for e in RULESET.legal(P, later))


def test_a_burrow_takes_workers_once_researched_and_only_as_many_as_its_room() -> None:
    state = add_buildings(change(fresh({"a": "orc", "b": "human"}), "a", gold=9, lumber=9), "a", building("burrow", "A4"))
    assert not any(isinstance(e, WorkersMoved) and e.to == "burrow-1" for e in RULESET.legal(P, state))
    researched = change(state, "a", techs=("battle_stations",))
    assert RULESET.legal(P, researched) == accepted(researched)
    into = [e for e in RULESET.legal(P, researched) if isinstance(e, WorkersMoved) and e.to == "burrow-1"]
    room = BUILDINGS["burrow"].room
    assert into and all(e.count <= room for e in into)
    full = change(researched, "a", workers=(("burrow-1", room), ("gold", 3)))
    assert RULESET.legal(P, full) == accepted(full)
    assert not any(isinstance(e, WorkersMoved) and e.to == "burrow-1" for e in RULESET.legal(P, full))
