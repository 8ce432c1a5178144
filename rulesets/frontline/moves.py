"""What may happen next in Warcraft: Frontline: the legal events of a state.

Candidates are generated broadly (every affordable-looking build, training, research,
worker move and destruction) and kept only if `check` finds nothing wrong, so the rules
live in one place and a bot or the recorder is never offered an illegal event. The game
has no chance step: nothing is rolled or drawn.
"""

from __future__ import annotations

from collections.abc import Iterator

from events.base import Event
from rulesets.frontline import board
from rulesets.frontline.cards import BUILDINGS, RESEARCH, UNITS, of_race
from rulesets.frontline.events import (
    PLACES,
    BuildingBuilt,
    BuildingDestroyed,
    FrontlineMoved,
    ResearchStarted,
    RoundEnded,
    TrainingStarted,
    WorkersMoved,
)
from rulesets.frontline.params import Params
from rulesets.frontline.rules import check, check_action, outcome
from rulesets.frontline.state import Side, State, counted_forces, frontline, side


def legal(params: Params, state: State) -> list[Event]:
    """Every event the rules allow now: the table's frontline move, or the current
    player's actions and the end of its round.

    Every action candidate is the current side's, in its action round, with the game on:
    the round is checked once (by `check` on the round's end, which every round offers)
    and each candidate then only by its own rules (`check_action`).
    """
    s = side(state, state.current) if state.sides and state.phase == "action" else None
    if s is None or outcome(params, state) is not None:
        return [e for e in candidates(params, state) if not check(params, state, e)]
    if _round_problems(params, state, s):
        return []
    return [e for e in candidates(params, state) if not check_action(params, state, e, s)]


def _round_problems(params: Params, state: State, s: Side) -> bool:
    """Whether `check` refuses any action of `s` now for the round itself (turn, phase):
    it then says so instead of what the action's own rules say."""
    end = RoundEnded(by=s.seat)
    return check(params, state, end) != check_action(params, state, end, s)


def candidates(params: Params, state: State) -> Iterator[Event]:
    """Every event proposed at a decision before the rules filter it (the contract's reference)."""
    if not state.sides or outcome(params, state) is not None:
        return
    if state.phase == "frontline":
        yield expected_frontline(params, state)
        return
    s = side(state, state.current)
    if s is not None:
        yield from (*_builds(params, s), *_trainings(s), *_research(s), *_worker_moves(s), *_destructions(s))
        yield RoundEnded(by=s.seat)


def expected_frontline(params: Params, state: State) -> FrontlineMoved:
    """The frontline move the rules give after the round that just ended."""
    front = frontline(params, state)
    half = 1 if front > 0 else 0
    toward = state.seats[half] if front else None
    forces = dict(zip(state.seats, counted_forces(params, state), strict=True))
    return FrontlineMoved(toward=toward, grids=abs(front), forces=forces)


def chance(params: Params, state: State) -> list[tuple[Event, float]] | None:
    """Never a chance step: Warcraft: Frontline has no dice and no deck."""
    return None


def _builds(params: Params, s: Side) -> Iterator[Event]:
    for kind in of_race(BUILDINGS, s.race):
        card = BUILDINGS[kind]
        if card.gold <= s.gold and card.lumber <= s.lumber:
            for a in board.areas(params):
                yield BuildingBuilt(by=s.seat, building=kind, area=a.id)


def _trainings(s: Side) -> Iterator[Event]:
    for b in s.buildings:
        if b.task is None and b.kind in BUILDINGS:
            for unit in BUILDINGS[b.kind].trains:
                if UNITS[unit].race in (s.race, "any"):
                    yield TrainingStarted(by=s.seat, unit=unit, building=b.id)


def _research(s: Side) -> Iterator[Event]:
    for b in s.buildings:
        if b.task is None and b.kind in BUILDINGS and BUILDINGS[b.kind].researches:
            for tech in of_race(RESEARCH, s.race):
                yield ResearchStarted(by=s.seat, tech=tech, building=b.id)


def _worker_moves(s: Side) -> Iterator[Event]:
    places = [*PLACES, *(b.id for b in s.buildings if b.kind in BUILDINGS and BUILDINGS[b.kind].room)]
    for origin, there in s.workers:
        for to in places:
            if to != origin:
                for n in sorted({1, there}):
                    yield WorkersMoved(by=s.seat, count=n, origin=origin, to=to)


def _destructions(s: Side) -> Iterator[Event]:
    for b in s.buildings:
        yield BuildingDestroyed(by=s.seat, building=b.id)
