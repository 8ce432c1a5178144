"""Warcraft: Frontline at the table: each event in words, and where on the board it is made.

`describe` reads an event in the state before it, in the text's own terms ("a builds a
Farm in A3 (60 gold, 0 lumber)", "the frontline moves 2 grids into b's half: forces 7
against 3"); `touch` says what a table taps: a building card then the site it goes on, a
unit or research card then the building that starts it, the place workers leave then
the place they go (the gold mine, the forest, the militia, the base, a burrow), a
building twice to destroy it. Only the end of an action round is a button.
"""

from __future__ import annotations

from events.base import Event
from rulesets.frontline import board
from rulesets.frontline.cards import (
    BUILDINGS,
    RESEARCH,
    UNITS,
    BuildingCard,
    ResearchCard,
    UnitCard,
)
from rulesets.frontline.events import (
    BuildingBuilt,
    BuildingDestroyed,
    FrontlineMoved,
    ResearchStarted,
    RoundEnded,
    TrainingStarted,
    WorkersMoved,
)
from rulesets.frontline.params import Params
from rulesets.frontline.state import Side, State, count, side
from rulesets.frontline.view import (
    BUILD_ROW,
    PLACE_CELLS,
    TRAIN_ROW,
    front_words,
    next_site,
    site,
    workers_id,
)
from rulesets.view import Touch, card_key, piece_key, space_key

PLACE_WORDS = {"idle": "the base (idle)", "gold": "the gold mine", "lumber": "the forest", "militia": "the militia"}


def building_name(kind: str) -> str:
    """A building kind as its card names it: `Watch Tower`."""
    card = BUILDINGS.get(kind)
    return card.name if card else kind.replace("_", " ")


def unit_name(unit: str) -> str:
    """A unit as its card names it: `Grunt`."""
    card = UNITS.get(unit)
    return card.name if card else unit.replace("_", " ")


def tech_name(tech: str) -> str:
    """A research as its card names it: `Forged Weapons`."""
    card = RESEARCH.get(tech)
    return card.name if card else tech.replace("_", " ")


def _building(s: Side | None, building_id: str) -> str:
    """A built building by its card name, number and area: `Barracks 2 (A3)` for `barracks-2`
    (area ids, not board squares: `B3` is an area of half B)."""
    found = next((b for b in s.buildings if b.id == building_id), None) if s else None
    if found is None:
        return building_id
    number = building_id.rsplit("-", 1)[-1]
    return f"{building_name(found.kind)} {number} ({found.area})"


def _place(s: Side | None, place: str) -> str:
    """A worker place in words: `the gold mine`, `Burrow 1 in A4`."""
    return PLACE_WORDS.get(place) or _building(s, place)


def _price(card: BuildingCard | UnitCard | ResearchCard | None) -> str:
    """What a card costs, as the card prints it: ` for 2 gold, 1 lumber`."""
    return f" for {card.gold} gold, {card.lumber} lumber" if card else ""


def describe(params: Params, state: State, event: Event) -> str:
    """One event in words, read in the state it was played in."""
    s = side(state, event.by)
    who = event.by or "the table"
    match event:
        case BuildingBuilt(building=kind, area=area):
            return f"{who} builds a {building_name(kind)} in {area}{_price(BUILDINGS.get(kind))}"
        case BuildingDestroyed(building=building_id):
            return f"{who} destroys its {_building(s, building_id)}"
        case WorkersMoved(count=n, origin=origin, to=to):
            workers = "1 worker" if n == 1 else f"{n} workers"
            return f"{who} moves {workers} from {_place(s, origin)} to {_place(s, to)}"
        case TrainingStarted(unit=unit, building=building_id):
            return f"{who} trains a {unit_name(unit)} at {_building(s, building_id)}{_price(UNITS.get(unit))}"
        case ResearchStarted(tech=tech, building=building_id):
            return f"{who} researches {tech_name(tech)} at {_building(s, building_id)}{_price(RESEARCH.get(tech))}"
        case RoundEnded():
            return f"{who} ends its action round"
        case FrontlineMoved(toward=toward, grids=grids, forces=forces):
            counted = f" (military force {', '.join(f'{seat} {n}' for seat, n in forces.items())})" if forces else ""
            front = 0 if toward is None else grids if toward == state.seats[-1] else -grids
            return f"the frontline stands {front_words(state, front)}{counted}"
    return type(event).__name__


def place_key(params: Params, s: Side, place: str) -> str:
    """Where a table taps a worker place: the chip counting the workers in the gold mine,
    forest or militia, the base itself for idle workers, a burrow's piece."""
    if place in PLACE_CELLS:
        return piece_key(workers_id(s.seat, place))
    if place == "idle":
        base = next((b for b in s.buildings if b.kind == "base"), None)
        return piece_key(f"{s.seat}:{base.id}") if base else space_key(*site(params, board.base_area(params, s.half), 0))
    return piece_key(f"{s.seat}:{place}")


def touch(params: Params, state: State, event: Event) -> Touch:
    """Where an event is made: a card then a site or building, a place then a place."""
    s = side(state, event.by)
    match event:
        case BuildingBuilt(building=kind, area=area) if s is not None:
            spot = next_site(params, state, s.seat, area)
            return Touch(source=card_key(BUILD_ROW, building_name(kind)), target=space_key(*spot) if spot else None,
                         words=f"build a {building_name(kind)} in {area}")
        case TrainingStarted(unit=unit, building=building_id) if s is not None:
            return Touch(source=card_key(TRAIN_ROW, unit_name(unit)), target=piece_key(f"{s.seat}:{building_id}"),
                         words=f"train a {unit_name(unit)}")
        case ResearchStarted(tech=tech, building=building_id) if s is not None:
            return Touch(source=card_key(TRAIN_ROW, tech_name(tech)), target=piece_key(f"{s.seat}:{building_id}"),
                         words=f"research {tech_name(tech)}")
        case BuildingDestroyed(building=building_id) if s is not None:
            key = piece_key(f"{s.seat}:{building_id}")
            return Touch(source=key, target=key, words=f"destroy the {_building(s, building_id)}")
        case WorkersMoved(count=n, origin=origin, to=to) if s is not None:
            there = count(s.workers, origin)
            amount = "1 worker" if n == 1 and there != 1 else f"all {n} workers" if n == there and n > 1 else "the worker" if n == 1 else f"{n} workers"
            return Touch(source=place_key(params, s, origin), target=place_key(params, s, to), words=f"move {amount}")
        case RoundEnded():
            return Touch(words=f"end {event.by}'s action round")
    return Touch(words=describe(params, state, event))
