"""Warcraft: Frontline's cards: units, buildings and research, read once from data/cards.toml.

The card images are lost (warcraft-frontline.txt, "# Cards:"); the file holds an editable
table in which every value the text states is marked `rules` with its passage and every
other value `assumed` with a reason. A broken file fails at import with its name and the
problem, never with a traceback deep inside a replay.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

import msgspec

from events.errors import TabletapeError
from rulesets.provenance import Sourced

DATA = Path(__file__).parent / "data"
RACES = ("orc", "human")
"""Race: "There are only 2 races in the game, Orc and Human"."""
ANY = "any"
"""A grey (shared) card, or a building both races build."""
EFFECTS = ("building_defense", "unit_force", "militia", "burrow")

Effect = Literal["building_defense", "unit_force", "militia", "burrow"]


class CardDataError(TabletapeError, ValueError):
    """A card data file that cannot be used; the message names the file and the problem."""


class UnitCard(msgspec.Struct, frozen=True, kw_only=True):
    """A unit (a worker or a combat unit): what it costs and what it adds to the force."""

    id: str
    name: str
    race: str
    at: str
    """The building kind that trains it: `base` for workers, `barracks` for combat units."""
    gold: int
    lumber: int
    population: int
    force: int
    time: int

    @property
    def combat(self) -> bool:
        """A combat unit (not a worker): trained at a barracks, counted in the force."""
        return self.at != "base"


class BuildingCard(msgspec.Struct, frozen=True, kw_only=True):
    """A building: its cost, its build time and what it gives once it stands."""

    id: str
    name: str
    race: str
    gold: int
    lumber: int
    time: int
    capacity: int
    """Population capacity it adds (farm/burrow 5, base 10)."""
    defense: int
    """Defense power it adds to every grid of its area (a tower 3)."""
    trains: tuple[str, ...]
    researches: bool
    room: int
    """Workers it can shelter (an orc burrow)."""


class ResearchCard(msgspec.Struct, frozen=True, kw_only=True):
    """A technology: its cost, its research time and its effect."""

    id: str
    name: str
    race: str
    gold: int
    lumber: int
    time: int
    effect: Effect
    amount: int


class CardData(msgspec.Struct, frozen=True, kw_only=True):
    """Everything cards.toml holds, checked, with each value's provenance."""

    units: Mapping[str, UnitCard]
    buildings: Mapping[str, BuildingCard]
    research: Mapping[str, ResearchCard]
    sources: Mapping[str, Mapping[str, Sourced]]
    """Card id -> field -> where its value comes from."""


_KINDS: dict[str, type[UnitCard] | type[BuildingCard] | type[ResearchCard]] = {
    "units": UnitCard, "buildings": BuildingCard, "research": ResearchCard,
}
_META = ("id", "name")


def load(path: Path = DATA / "cards.toml") -> CardData:
    """Read and check the card file; every problem names the file, the card and the field."""
    try:
        raw = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise CardDataError(f"{path}: {error}") from None
    reasons = raw.get("assumed", {})
    tables: dict[str, dict[str, Any]] = {}
    sources: dict[str, dict[str, Sourced]] = {}
    for kind, struct in _KINDS.items():
        tables[kind] = {}
        for entry in raw.get(kind, []):
            card, found = _card(path, kind, struct, entry, reasons.get(kind, ""))
            if card.id in sources:
                raise CardDataError(f"{path}: card id {card.id!r} is used twice")
            tables[kind][card.id] = card
            sources[card.id] = found
    data = CardData(units=tables["units"], buildings=tables["buildings"], research=tables["research"], sources=sources)
    _check_links(path, data)
    return data


def _card(path: Path, kind: str, struct: Any, entry: dict[str, Any], reason: str) -> tuple[Any, dict[str, Sourced]]:
    """One card and the provenance of each of its values."""
    entry = dict(entry)
    rules, notes = entry.pop("rules", {}), entry.pop("notes", {})
    where = f"{path}: {kind} {entry.get('id', '?')!r}"
    if isinstance(entry.get("trains"), list):
        entry["trains"] = tuple(entry["trains"])
    try:
        card = msgspec.convert(entry, struct)
    except msgspec.ValidationError as error:
        raise CardDataError(f"{where}: {error}") from None
    if card.race not in (*RACES, ANY):
        raise CardDataError(f"{where}: race {card.race!r} is not one of {', '.join((*RACES, ANY))}")
    fields = [f for f in struct.__struct_fields__ if f not in _META]
    unknown = sorted((set(rules) | set(notes)) - set(fields))
    if unknown:
        raise CardDataError(f"{where}: provenance for unknown field(s) {', '.join(unknown)}")
    found = {f: Sourced(value=getattr(card, f), source="rules", note=rules[f]) if f in rules
             else Sourced(value=getattr(card, f), source="assumed", note=notes.get(f, reason)) for f in fields}
    return card, found


def _check_links(path: Path, data: CardData) -> None:
    """Every unit is trained somewhere that trains it; every trained id is a unit."""
    for unit in data.units.values():
        building = data.buildings.get(unit.at)
        if building is None or unit.id not in building.trains:
            raise CardDataError(f"{path}: unit {unit.id!r} names {unit.at!r}, which does not train it")
    for building in data.buildings.values():
        missing = [u for u in building.trains if u not in data.units]
        if missing:
            raise CardDataError(f"{path}: building {building.id!r} trains unknown unit(s) {', '.join(missing)}")


CARDS = load()
UNITS = CARDS.units
BUILDINGS = CARDS.buildings
RESEARCH = CARDS.research


def of_race(cards: Mapping[str, Any], race: str) -> tuple[str, ...]:
    """Ids of the cards a race may use: its own and the shared ones, in file order (the
    game's own tables answered once per race: every legal move asks them)."""
    for name, table in _TABLES.items():
        if cards is table:
            return _of_race(name, race)
    return tuple(c.id for c in cards.values() if c.race in (race, ANY))


_TABLES: dict[str, Mapping[str, Any]] = {"units": UNITS, "buildings": BUILDINGS, "research": RESEARCH}


@cache
def _of_race(table: str, race: str) -> tuple[str, ...]:
    return tuple(c.id for c in _TABLES[table].values() if c.race in (race, ANY))


def race_text(race: str) -> str:
    """`Orc` / `Human` / `both races`."""
    return "both races" if race == ANY else race.capitalize()
