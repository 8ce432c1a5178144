"""What may happen next in Warcraft: Frontline: the legal events of a state.

`candidates` proposes broadly (every affordable-looking build, training, research, worker
move and destruction); `legal` builds, in the same order, only those `check` accepts, from
the same rules asked once per decision (which areas are open, the population left, which
techs are taken) instead of running a full check on every candidate: bots ask it at every
step. The contract suite (`check_legal_is_what_check_accepts`) holds the two to be equal on
seeded positions. The game has no chance step: nothing is rolled or drawn.
"""

from __future__ import annotations

import functools
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
from rulesets.frontline.rules import check, outcome, round_problems
from rulesets.frontline.state import (
    Building,
    Side,
    State,
    capacity,
    counted_forces,
    effect_total,
    frontline,
    population,
    side,
    standing,
)


def legal(params: Params, state: State) -> list[Event]:
    """Every event the rules allow now: the table's frontline move, or the current
    player's actions and the end of its round.

    Every action is the current side's, in its action round, with the game on: the round
    is checked once (`rules.round_problems`, what `check` asks of every action before its
    own rules) and each kind of action then built from its own rules (the `_check_*`
    handlers in rules.py). The frontline step's one move is the one the rules give.
    """
    s = side(state, state.current) if state.sides and state.phase == "action" else None
    if state.sides and state.phase == "frontline" and outcome(params, state) is None:
        return [expected_frontline(params, state)]  # the move the rules give: what `_check_frontline` compares with
    if s is None or outcome(params, state) is not None:
        return [e for e in candidates(params, state) if not check(params, state, e)]
    if _round_problems(params, state, s):
        return []
    by_id = _first_by_id(s)
    return [*_legal_builds(params, state, s), *_legal_trainings(params, s, by_id), *_legal_research(s, by_id),
            *_legal_worker_moves(s, by_id), *_destructions(s), RoundEnded(by=s.seat)]


def _round_problems(params: Params, state: State, s: Side) -> bool:
    """Whether `check` refuses any action of `s` now for the round itself (turn, phase):
    it then says so instead of what the action's own rules say."""
    return bool(round_problems(params, state, RoundEnded(by=s.seat)))  # a round's end has no rules of its own


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


# --- legal actions built from their rules (same events, same order as the checked candidates) ---------


def _legal_builds(params: Params, state: State, s: Side) -> Iterator[Event]:
    """Affordable buildings of the race, on areas behind the side's frontline with a free site."""
    taken: dict[str, int] = {}  # `buildings_in`, every area at once
    for x in state.sides:
        for b in x.buildings:
            taken[b.area] = taken.get(b.area, 0) + 1
    open_areas = [a.id for a in _held(params, state.front, s.half) if taken.get(a.id, 0) < a.sites]
    for kind in of_race(BUILDINGS, s.race):
        card = BUILDINGS[kind]
        if card.gold <= s.gold and card.lumber <= s.lumber:
            for a in open_areas:
                yield BuildingBuilt(by=s.seat, building=kind, area=a)


@functools.cache
def _held(params: Params, front: int, half: int) -> tuple[board.Area, ...]:
    """The areas `half`'s player holds with the frontline at `front` (pure geometry, memoised)."""
    return tuple(a for a in board.areas(params) if board.holder(a, front) == half)


def _first_by_id(s: Side) -> dict[str, Building]:
    """The side's buildings by id, the first of an id as `state.building` finds it (what
    every check of an event naming a building asks)."""
    found: dict[str, Building] = {}
    for b in s.buildings:
        found.setdefault(b.id, b)
    return found


def _legal_trainings(params: Params, s: Side, by_id: dict[str, Building]) -> Iterator[Event]:
    """Units of the race at a standing, idle building that trains them, affordable, within
    the population capacity."""
    room = capacity(params, s) - population(s)
    for b in s.buildings:
        if b.task is None and b.kind in BUILDINGS and by_id[b.id] is b and standing(s, b):
            for unit in BUILDINGS[b.kind].trains:
                card = UNITS[unit]
                if (card.race in (s.race, "any") and card.gold <= s.gold and card.lumber <= s.lumber
                        and card.population <= room):
                    yield TrainingStarted(by=s.seat, unit=unit, building=b.id)


def _legal_research(s: Side, by_id: dict[str, Building]) -> Iterator[Event]:
    """Techs of the race neither known nor under way, affordable, at a standing idle war mill."""
    under_way = {b.task.item for b in s.buildings if b.task is not None}
    for b in s.buildings:
        if b.task is None and b.kind in BUILDINGS and BUILDINGS[b.kind].researches:
            found = by_id[b.id]
            if found.task is not None or not standing(s, found) or not BUILDINGS[found.kind].researches:
                continue
            for tech in of_race(RESEARCH, s.race):
                card = RESEARCH[tech]
                if tech not in s.techs and tech not in under_way and card.gold <= s.gold and card.lumber <= s.lumber:
                    yield ResearchStarted(by=s.seat, tech=tech, building=b.id)


def _legal_worker_moves(s: Side, by_id: dict[str, Building]) -> Iterator[Event]:
    """Workers from a place to another: militia only after its research, into a burrow only
    after its research, once it stands and while it has room."""
    places = [*PLACES, *(b.id for b in s.buildings if b.kind in BUILDINGS and BUILDINGS[b.kind].room)]
    militia, burrows = effect_total(s, "militia") > 0, effect_total(s, "burrow") > 0
    # `rules.burrow_of` for every place: the first building of the id, if it shelters workers
    shelter = {i: b for i, b in by_id.items() if b.kind in BUILDINGS and BUILDINGS[b.kind].room > 0}
    held = dict(s.workers)
    # where workers may go, whatever they come from: a place, or a standing burrow with its room left
    destinations: list[tuple[str, int | None]] = []
    for to in places:
        if to == "militia" and not militia:
            continue
        burrow = shelter.get(to)
        if burrow is None and to not in PLACES:
            continue
        if burrow is not None and not (burrows and standing(s, burrow)):
            continue
        destinations.append((to, BUILDINGS[burrow.kind].room - held.get(burrow.id, 0) if burrow is not None else None))
    for origin, there in s.workers:
        if origin not in PLACES and origin not in shelter:
            continue
        counts = [n for n in sorted({1, there}) if 1 <= n <= there]  # one worker, or all of them
        for to, room in destinations:
            if to == origin:
                continue
            limit = there if room is None else room
            for n in counts:
                if n <= limit:
                    yield WorkersMoved(by=s.seat, count=n, origin=origin, to=to)
