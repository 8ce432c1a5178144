"""Who stands where, kept per units tuple, answers as the plain walk over the units did.

`state.find` and `state.on_board` are asked dozens of times per candidate; they now read an
index built once per units tuple (`memo.last_one`: states that share the tuple share it).
These tests hold both to the plain walk at every state of seeded games, in a game's order
(so the index is reused, and rebuilt when a unit changes), and on a table's mistake. An event
that changes one unit carries the indexes known for the tuple before over to the new tuple
(`state.replace_unit`); the audited replay, which asks them of every state before and after
each change, holds those carried indexes to the plain walk too.
"""

from __future__ import annotations

import msgspec

from projections.corpus.simulate import play
from projections.read.replay import replay
from rulesets.frontier import board
from rulesets.frontier.state import (
    State,
    Unit,
    bodies,
    destroyed_points,
    find,
    kind,
    on_board,
    replace_unit,
)
from tests.frontier.scenario import P, R, put

replace = msgspec.structs.replace


def _plain_find(state: State, unit_id: str | None) -> Unit | None:
    return next((u for u in state.units if u.id == unit_id), None) if unit_id is not None else None


def _plain_on_board(state: State, side: str | None = None) -> list[Unit]:
    return [u for u in state.units if u.status == "board" and u.at is not None and (side is None or u.side == side)]


def test_units_are_found_and_listed_on_the_table_as_by_the_plain_walk() -> None:
    asked = 0
    for bot, seed in (("random", 3), ("heuristic", 4)):
        log = play(R, R.ruleset.example_seats, seed=seed, bot=bot)
        state = R.ruleset.setup(P, log[0])
        for event in log[1:]:
            state = R.ruleset.apply(P, state, event)
            for side in (None, *state.seats, "nobody"):
                assert list(on_board(state, side)) == _plain_on_board(state, side)
            for unit_id in [u.id for u in state.units] + ["nobody", None]:
                assert find(state, unit_id) is _plain_find(state, unit_id)
                asked += 1
    assert asked > 1000


def test_a_table_that_gave_two_units_one_id_finds_the_first() -> None:
    first, second = put("stalker_team", (5.0, 5.0)), put("stalker_team", (9.0, 9.0))
    state = State(seats=("p1", "p2"), mission="assault", points=100, stage="play", units=(first, replace(second, id=first.id)))
    assert find(state, first.id) is first
    assert list(on_board(state, "p1")) == [first, replace(second, id=first.id)]


def _plain_bodies(state: State) -> list[board.Body]:
    return [board.Body(u.id, u.at, kind(u).base, kind(u).scale + u.level) for u in _plain_on_board(state)]  # type: ignore[arg-type]


def _plain_destroyed(state: State, seat: str) -> int:
    return sum(kind(u).points for u in state.units if u.status == "destroyed" and u.side == seat)


def _same_as_the_plain_walk(state: State) -> None:
    for side in (None, *state.seats):
        assert list(on_board(state, side)) == _plain_on_board(state, side)
    for unit_id in [u.id for u in state.units] + ["nobody"]:
        assert find(state, unit_id) is _plain_find(state, unit_id)
    assert list(bodies(state)) == _plain_bodies(state)
    for seat in state.seats:
        assert destroyed_points(state, seat) == _plain_destroyed(state, seat)


def test_the_indexes_carried_from_one_units_tuple_to_the_next_answer_as_the_plain_walk() -> None:
    changed = 0
    for bot, seed in (("random", 5), ("heuristic", 6), ("heuristic", 7)):
        log = play(R, R.ruleset.example_seats, seed=seed, bot=bot)
        before = None
        for step in replay(log, R, audit=True):
            assert not step.violations
            _same_as_the_plain_walk(step.state)
            changed += before is not None and step.state.units is not before.units
            before = step.state
    assert changed > 100


def test_a_unit_moved_set_up_or_taken_off_leaves_the_indexes_as_the_plain_walk() -> None:
    first, second = put("stalker_team", (5.0, 5.0)), put("stalker_team", (9.0, 9.0))
    waiting = replace(put("stalker_team", (1.0, 1.0), side="p2", n=3), status="roster", at=None)
    state = State(seats=("p1", "p2"), mission="assault", points=100, stage="play",
                  units=(second, waiting, first, replace(second, id=first.id)))  # a table's mistake: two units of one id
    changes = (replace(first, at=(7.0, 7.0)), replace(first, status="destroyed", at=None), replace(first, shaken=True),
               replace(waiting, status="board", at=(20.0, 20.0)), replace(waiting, status="reserve"))
    for changed in changes:
        _same_as_the_plain_walk(state)  # the indexes of the tuple before are known
        after = replace_unit(state, changed)
        _same_as_the_plain_walk(after)
    _same_as_the_plain_walk(state)
    set_up = replace_unit(state, replace(waiting, status="board", at=(20.0, 20.0)))
    _same_as_the_plain_walk(set_up)
    _same_as_the_plain_walk(replace_unit(set_up, replace(waiting, status="destroyed")))  # p2's one unit gone: none of p2 stands


def test_a_unit_set_up_stands_in_its_place_among_its_sides_units() -> None:
    waiting = replace(put("stalker_team", (1.0, 1.0), side="p2", n=1), status="roster", at=None)
    units = (put("stalker_team", (5.0, 5.0)), waiting, put("stalker_team", (30.0, 20.0), side="p2", n=2))
    state = State(seats=("p1", "p2"), mission="assault", points=100, stage="play", units=units)
    _same_as_the_plain_walk(state)
    set_up = replace_unit(state, replace(waiting, status="board", at=(20.0, 20.0)))
    _same_as_the_plain_walk(set_up)
    assert [u.id for u in on_board(set_up, "p2")] == ["p2/stalker_team-1", "p2/stalker_team-2"]
