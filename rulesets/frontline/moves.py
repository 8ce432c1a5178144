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
    frontline,
    population,
    side,
)
from rulesets.memo import last_args


def legal(params: Params, state: State) -> list[Event]:
    """Every event the rules allow now: the table's frontline move, or the current
    player's actions and the end of its round.

    Every action is the current side's, in its action round, with the game on: the round
    is checked once (`rules.round_problems`, what `check` asks of every action before its
    own rules) and each kind of action then built from its own rules (the `_check_*`
    handlers in rules.py). The frontline step's one move is the one the rules give.

    Two actions in three move workers, which changes only where the side's workers are:
    every other action is worked out from the parts of the state its rules read
    (`_other_actions`, remembered for the same parts, so the decisions after a worker move
    share it) and the worker moves from where the workers are (`_worker_moves_from`).
    """
    s = side(state, state.current) if state.sides and state.phase == "action" else None
    if state.sides and state.phase == "frontline" and outcome(params, state) is None:
        return [expected_frontline(params, state)]  # the move the rules give: what `_check_frontline` compares with
    if s is None or outcome(params, state) is not None:
        return [e for e in candidates(params, state) if not check(params, state, e)]
    if _round_problems(params, state, s):
        return []
    room = capacity(params, s) - population(s)
    before, after, destinations, shelters = _other_actions(
        params, state.front, s.seat, s.race, s.half, s.gold, s.lumber, s.rounds, s.techs, s.buildings, room,
        *(x.buildings for x in state.sides))
    return [*before, *_worker_moves_from(s.seat, s.workers, destinations, shelters), *after]


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

Destinations = tuple[tuple[str, "int | None"], ...]
"""Where the side's workers may go, whatever they come from, in the candidates' order: a
place (no room limit: None), or a standing burrow with its room."""


@last_args  # the decisions after a worker move ask it of the same parts (rulesets/memo.py)
def _other_actions(params: Params, front: int, seat: str, race: str, half: int, gold: int, lumber: int, rounds: int,
                   techs: tuple[str, ...], buildings: tuple[Building, ...], room: int,
                   *every_buildings: tuple[Building, ...]) -> tuple[tuple[Event, ...], tuple[Event, ...], Destinations, frozenset[str]]:
    """What a side may do but move workers, from the parts of the state those rules read:
    the builds, trainings and research (before the worker moves), the destructions and the
    round's end (after them), and where workers may go and come from (`_worker_moves_from`).

    `room` is the population left; `every_buildings` every side's buildings (their sites)."""
    by_id: dict[str, Building] = {}  # the first building of an id, as `state.building` finds it
    for b in buildings:
        by_id.setdefault(b.id, b)
    before = (*_legal_builds(params, front, seat, race, half, gold, lumber, every_buildings),
              *_legal_trainings(seat, race, gold, lumber, rounds, buildings, room, by_id),
              *_legal_research(seat, race, gold, lumber, rounds, techs, buildings, by_id))
    after = _ends(seat, tuple(b.id for b in buildings))
    return before, after, *_worker_places(rounds, techs, buildings, by_id)


@functools.lru_cache(maxsize=512)
def _ends(seat: str, ids: tuple[str, ...]) -> tuple[Event, ...]:
    """Each building's destruction, then the round's end (pure: a side's buildings change a
    few at a time, and its ids recur)."""
    return (*(BuildingDestroyed(by=seat, building=i) for i in ids), RoundEnded(by=seat))


def _legal_builds(params: Params, front: int, seat: str, race: str, half: int, gold: int, lumber: int,
                  every_buildings: tuple[tuple[Building, ...], ...]) -> tuple[Event, ...]:
    """Affordable buildings of the race, on areas behind the side's frontline with a free site."""
    kinds = _affordable(race, gold, lumber)
    if not kinds:
        return ()
    taken: dict[str, int] = {}  # `buildings_in`, every area at once
    for buildings in every_buildings:
        for b in buildings:
            taken[b.area] = taken.get(b.area, 0) + 1
    return _builds_on(seat, kinds, tuple(a.id for a in _held(params, front, half) if taken.get(a.id, 0) < a.sites))


@functools.lru_cache(maxsize=1024)
def _affordable(race: str, gold: int, lumber: int) -> tuple[str, ...]:
    """The race's buildings that gold and lumber pay for, in the cards' order (pure, small)."""
    return tuple(k for k in of_race(BUILDINGS, race) if BUILDINGS[k].gold <= gold and BUILDINGS[k].lumber <= lumber)


@functools.lru_cache(maxsize=512)
def _builds_on(seat: str, kinds: tuple[str, ...], areas: tuple[str, ...]) -> tuple[Event, ...]:
    """Every kind on every area, kind by kind (pure: the same few kinds and areas recur)."""
    return tuple(BuildingBuilt(by=seat, building=kind, area=a) for kind in kinds for a in areas)


@functools.cache
def _held(params: Params, front: int, half: int) -> tuple[board.Area, ...]:
    """The areas `half`'s player holds with the frontline at `front` (pure geometry, memoised)."""
    return tuple(a for a in board.areas(params) if board.holder(a, front) == half)


def _legal_trainings(seat: str, race: str, gold: int, lumber: int, rounds: int, buildings: tuple[Building, ...],
                     room: int, by_id: dict[str, Building]) -> Iterator[Event]:
    """Units of the race at a standing, idle building that trains them, affordable, within
    the population capacity (`room` left)."""
    for b in buildings:
        if b.task is None and b.kind in BUILDINGS and by_id[b.id] is b and b.ready <= rounds:  # `standing`
            for unit in BUILDINGS[b.kind].trains:
                card = UNITS[unit]
                if card.race in (race, "any") and card.gold <= gold and card.lumber <= lumber and card.population <= room:
                    yield TrainingStarted(by=seat, unit=unit, building=b.id)


def _legal_research(seat: str, race: str, gold: int, lumber: int, rounds: int, techs: tuple[str, ...],
                    buildings: tuple[Building, ...], by_id: dict[str, Building]) -> Iterator[Event]:
    """Techs of the race neither known nor under way, affordable, at a standing idle war mill."""
    under_way = {b.task.item for b in buildings if b.task is not None}
    for b in buildings:
        if b.task is None and b.kind in BUILDINGS and BUILDINGS[b.kind].researches:
            found = by_id[b.id]
            if found.task is not None or found.ready > rounds or not BUILDINGS[found.kind].researches:
                continue
            for tech in of_race(RESEARCH, race):
                card = RESEARCH[tech]
                if tech not in techs and tech not in under_way and card.gold <= gold and card.lumber <= lumber:
                    yield ResearchStarted(by=seat, tech=tech, building=b.id)


def _worker_places(rounds: int, techs: tuple[str, ...], buildings: tuple[Building, ...],
                   by_id: dict[str, Building]) -> tuple[Destinations, frozenset[str]]:
    """Where workers may go (militia only after its research, a burrow only after its
    research and once it stands) and the burrows they may come from (`rules.burrow_of`: the
    first building of the id, if it shelters workers)."""
    militia, burrows = _worker_research(techs)
    rooms = [b.id for b in buildings if b.kind in _SHELTERS]
    if not rooms:
        return _places(militia), frozenset()
    shelter = {i: by_id[i] for i in rooms if _has_room(by_id[i])}  # the first building of the id shelters
    places = [*PLACES, *rooms]
    destinations: list[tuple[str, int | None]] = []
    for to in places:
        if to == "militia" and not militia:
            continue
        burrow = shelter.get(to)
        if burrow is None and to not in PLACES:
            continue
        if burrow is not None and not (burrows and burrow.ready <= rounds):
            continue
        destinations.append((to, BUILDINGS[burrow.kind].room if burrow is not None else None))
    return tuple(destinations), frozenset(shelter)


_SHELTERS = frozenset(kind for kind, card in BUILDINGS.items() if card.room)
"""The kinds of building workers may shelter in (burrows)."""


@functools.lru_cache(maxsize=256)
def _worker_research(techs: tuple[str, ...]) -> tuple[bool, bool]:
    """Whether the techs let workers become militia and enter burrows (`effect_total` > 0 of each)."""
    known = [RESEARCH[t] for t in techs if t in RESEARCH]
    return sum(t.amount for t in known if t.effect == "militia") > 0, sum(t.amount for t in known if t.effect == "burrow") > 0


@functools.cache
def _places(militia: bool) -> Destinations:
    """Where workers may go when the side has no burrow: the places (the militia after its research)."""
    return tuple((to, None) for to in PLACES if militia or to != "militia")


def _has_room(b: Building) -> bool:
    return b.kind in BUILDINGS and BUILDINGS[b.kind].room > 0


@functools.lru_cache(maxsize=1024)
def _worker_moves_from(seat: str, workers: tuple[tuple[str, int], ...], destinations: Destinations,
                       shelters: frozenset[str]) -> tuple[Event, ...]:
    """Workers from a place to another: one worker, or all of them, within a burrow's room
    left. Pure in small frozen values, remembered by value: the same workers go back and
    forth between the same places."""
    held = dict(workers)
    out = []
    for origin, there in workers:
        if origin not in PLACES and origin not in shelters:
            continue
        counts = [n for n in sorted({1, there}) if 1 <= n <= there]  # one worker, or all of them
        for to, room in destinations:
            if to == origin:
                continue
            limit = there if room is None else room - held.get(to, 0)
            for n in counts:
                if n <= limit:
                    out.append(WorkersMoved(by=seat, count=n, origin=origin, to=to))
    return tuple(out)
