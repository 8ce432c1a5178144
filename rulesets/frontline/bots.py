"""Bots that play Warcraft: Frontline for simulated playtests.

A bot is a policy: given the params, the state and the legal events, it returns one of
them, so it can never play an illegal event. Randomness comes only from the seeded
generator it is handed: a simulation replays byte for byte from its seed.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Sequence
from itertools import filterfalse, groupby
from typing import Any

from events.base import Event
from rulesets.frontline import board
from rulesets.frontline.cards import BUILDINGS, UNITS
from rulesets.frontline.events import (
    BuildingBuilt,
    BuildingDestroyed,
    ResearchStarted,
    RoundEnded,
    TrainingStarted,
    WorkersMoved,
)
from rulesets.frontline.params import Params
from rulesets.frontline.state import Side, State, capacity, count, population, side, workers

WORKERS_WANTED = 10
"""The heuristic stops training workers here and puts its gold into the army."""
FRONT_AREAS = 2
"""The areas of a half, numbered from the frontline, where the heuristic builds its towers;
the rest are the rear, where it builds everything else."""


def random_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Any legal event but a self-destruction, uniformly: finds the corners of the rules."""
    options = list(filterfalse(_destroys, legal)) or list(legal)
    return options[rng.randrange(len(options))]


_destroys = BuildingDestroyed.__instancecheck__
"""isinstance(event, BuildingDestroyed), for filtering in C."""


def heuristic_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Economy first, then an army: idle workers to work, population kept ahead, a
    barracks, a war mill and its research, the strongest affordable units, towers at
    the front with spare lumber; the unique research used when the frontline is in its
    own half. Ends the round when nothing on that list is possible."""
    s = side(state, state.current)
    if s is None or len(legal) == 1:
        return legal[0]
    by_kind: dict[type, list[Event]] = {}  # each wish is of one kind of event: it reads only those
    for kind, events in groupby(legal, type):  # legal lists each kind together: one run each
        by_kind.setdefault(kind, []).extend(events)
    for kind, wanted in _wishes(params, state, s):
        found = [e for e in by_kind.get(kind, ()) if wanted(e)]
        if found:
            rng.shuffle(found)  # ties (which area, which tech) vary from seed to seed
            return max(found, key=_strength)
    return next(e for e in legal if isinstance(e, RoundEnded))


def _strength(event: Event) -> int:
    """Of several trainings the bot wants, the unit with the most force."""
    return UNITS[event.unit].force if isinstance(event, TrainingStarted) else 0


Wish = tuple[type, Callable[[Any], bool]]
"""A kind of event, and which events of that kind the bot wants."""


def _wishes(params: Params, state: State, s: Side) -> Iterator[Wish]:
    """What the heuristic wants, most wanted first (each worked out only if no wish before
    it is among the legal events)."""
    losing = board.depth(state.front, s.half) > 0
    short, plenty = ("lumber", "gold") if s.lumber < s.gold else ("gold", "lumber")
    if count(s.workers, "idle"):
        yield WorkersMoved, lambda e: e.origin == "idle" and e.to == short and e.count == 1
    if min(s.gold, s.lumber) * 3 + 6 < max(s.gold, s.lumber) and count(s.workers, plenty) > 2:
        yield WorkersMoved, lambda e: e.origin == plenty and e.to == short and e.count == 1
    yield from _defend(s, losing)
    if capacity(params, s) - population(s) < 3 and not _capacity_coming(s):
        yield _build_rear(params, _housing)
    yield ResearchStarted, lambda e: True
    if workers(s) < WORKERS_WANTED:
        yield TrainingStarted, lambda e: not UNITS[e.unit].combat
    if not _owns(s, _barracks):
        yield _build_rear(params, _trainer)
    yield TrainingStarted, lambda e: UNITS[e.unit].combat
    if not _owns(s, _mill):
        yield _build_rear(params, _mill)
    if workers(s) >= 8 and sum(1 for b in s.buildings if b.kind == "barracks") < 2:
        yield _build_rear(params, _barracks)
    if s.lumber >= 4:
        yield _build_front(params, _defensive)


def _housing(card: Any) -> bool:
    """A building that adds population capacity, other than a base."""
    return bool(card.capacity > 0 and card.id != "base")


def _trainer(card: Any) -> bool:
    """A building that trains units, other than a base."""
    return bool(card.trains) and card.id != "base"


def _mill(card: Any) -> bool:
    """A war mill or blacksmith: it researches."""
    return bool(card.researches)


def _barracks(card: Any) -> bool:
    return bool(card.id == "barracks")


def _defensive(card: Any) -> bool:
    """A building that adds defense (a tower)."""
    return bool(card.defense > 0)


def _defend(s: Side, losing: bool) -> list[Wish]:
    """Militia and burrows when the frontline is in the bot's own half; back to work when not.
    A legal move starts where workers are, so a wish no worker could start is not made."""
    if losing:
        if not count(s.workers, "lumber"):
            return []
        return [(WorkersMoved, lambda e: e.origin == "lumber" and e.count == 1 and (e.to == "militia" or e.to.startswith("burrow")))]
    if not any(place == "militia" or place.startswith("burrow") for place, _ in s.workers):
        return []
    return [(WorkersMoved, lambda e: (e.origin == "militia" or e.origin.startswith("burrow")) and e.to == "gold")]


def _owns(s: Side, fits: Callable[..., bool]) -> bool:
    """Whether the side has a building (standing or going up) whose card fits."""
    return any(b.kind in BUILDINGS and fits(BUILDINGS[b.kind]) for b in s.buildings)


def _capacity_coming(s: Side) -> bool:
    """A farm or burrow is going up: more population is on its way."""
    return any(b.kind in BUILDINGS and BUILDINGS[b.kind].capacity and b.ready > s.rounds for b in s.buildings)


def _build_rear(params: Params, fits: Callable[..., bool]) -> Wish:
    """A building that fits, in the held area furthest from the frontline."""
    kinds, ranks = _fitting(fits), _ranks(params)
    return BuildingBuilt, lambda e: e.building in kinds and ranks.get(e.area, 0) > FRONT_AREAS


def _build_front(params: Params, fits: Callable[..., bool]) -> Wish:
    """A building that fits, in the front area of the bot's own half."""
    kinds, ranks = _fitting(fits), _ranks(params)
    return BuildingBuilt, lambda e: e.building in kinds and ranks.get(e.area, 0) <= FRONT_AREAS


@functools.cache  # the few named kinds of building below: read-only sets
def _fitting(fits: Callable[..., bool]) -> frozenset[str]:
    """The buildings whose card fits (each card asked once, not once per event)."""
    return frozenset(kind for kind, card in BUILDINGS.items() if fits(card))


@functools.cache
def _ranks(params: Params) -> dict[str, int]:
    """Each area's number, from the front of its half (read-only; params are frozen and few)."""
    return {a.id: a.number for a in board.areas(params)}


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
