"""Frontier's four factions: every unit's ratings, scale, points and two abilities.

All of it is printed in frontier.md, "Factions" (source `rules`); only the size of a
unit's base is not, and data/factions.toml marks it `assumed`. The file is read once at
import; a broken file fails with its name and the problem.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, cast

import msgspec

from events.errors import TabletapeError
from rulesets.provenance import Source, Sourced

DATA = Path(__file__).parent / "data"
ATTRIBUTES = ("firepower", "mobility", "assault", "discipline")
"""The four ratings of a stat table (frontier.md, Action Roll)."""
DICE = (4, 6, 8, 10, 12)
"""The dice a rating may name: D4-D12."""

Attribute = Literal["firepower", "mobility", "assault", "discipline"]


class UnitDataError(TabletapeError, ValueError):
    """A faction data file that cannot be used; the message names the file and the problem."""


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    """A special ability as printed: "Active" (once per game) or "Passive" (always applies)."""

    id: str
    name: str
    kind: Literal["active", "passive"]
    text: str


class UnitType(msgspec.Struct, frozen=True, kw_only=True):
    """One unit entry of a faction: its stat table and its two abilities."""

    id: str
    name: str
    faction: str
    firepower: int
    """Sides of the die rolled for Firepower (6 for a D6)."""
    mobility: int
    assault: int
    discipline: int
    scale: int
    points: int
    base: float
    """Radius of the unit's base in inches (assumed: the text gives no base size)."""
    abilities: tuple[Ability, ...]

    def rating(self, attribute: str) -> int:
        """The die size of an attribute."""
        return int(getattr(self, attribute))

    def has(self, ability: str) -> bool:
        """Whether the unit has the ability (by id)."""
        return any(a.id == ability for a in self.abilities)


class Faction(msgspec.Struct, frozen=True, kw_only=True):
    """A faction and its units in printed order."""

    id: str
    name: str
    units: tuple[str, ...]


class FactionData(msgspec.Struct, frozen=True, kw_only=True):
    """Everything factions.toml holds, checked."""

    factions: Mapping[str, Faction]
    units: Mapping[str, UnitType]
    sources: Mapping[str, Sourced]
    notes: tuple[str, ...]


def _die(text: object, where: str, name: str) -> int:
    value = str(text).strip().upper()
    if not value.startswith("D") or not value[1:].isdigit() or int(value[1:]) not in DICE:
        raise UnitDataError(f"{name}: {where} is {text!r}; a rating is one of D4, D6, D8, D10, D12")
    return int(value[1:])


def parse_factions(text: str, *, name: str) -> FactionData:
    """Read factions.toml's text; `name` (the file name) starts every error message."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UnitDataError(f"{name}: not valid TOML: {error}") from None
    try:
        return _build(raw, name)
    except UnitDataError:
        raise
    except KeyError as error:
        raise UnitDataError(f"{name}: missing key {error.args[0]!r}") from None
    except (TypeError, ValueError) as error:
        raise UnitDataError(f"{name}: {str(error).splitlines()[0]}") from None


def _build(raw: dict[str, Any], name: str) -> FactionData:
    factions: dict[str, Faction] = {}
    units: dict[str, UnitType] = {}
    for entry in raw["factions"]:
        faction_id = str(entry["id"])
        ids = []
        for u in entry["units"]:
            unit_id = str(u["id"])
            if unit_id in units:
                raise UnitDataError(f"{name}: unit {unit_id} appears twice")
            abilities = tuple(Ability(id=str(a["id"]), name=str(a["name"]), kind=a["kind"], text=str(a["text"])) for a in u["abilities"])
            if len(abilities) != 2 or any(a.kind not in ("active", "passive") for a in abilities):
                raise UnitDataError(f"{name}: unit {unit_id} needs two abilities, each active or passive")
            ratings = {attr: _die(u[attr], f"{unit_id}.{attr}", name) for attr in ATTRIBUTES}
            units[unit_id] = UnitType(id=unit_id, name=str(u["name"]), faction=faction_id, scale=int(u["scale"]),
                                      points=int(u["points"]), base=float(u["base"]), abilities=abilities, **ratings)
            ids.append(unit_id)
        factions[faction_id] = Faction(id=faction_id, name=str(entry["name"]), units=tuple(ids))
    sources = {key: Sourced(value=key, source=cast(Source, v["source"]), note=str(v.get("note", ""))) for key, v in raw["sources"].items()}
    return FactionData(factions=factions, units=units, sources=sources, notes=tuple(raw.get("notes", ())))


_DATA = parse_factions((DATA / "factions.toml").read_text(encoding="utf-8"), name="factions.toml")

FACTIONS: Mapping[str, Faction] = _DATA.factions
"""Faction id -> Faction, in printed order."""
UNITS: Mapping[str, UnitType] = _DATA.units
"""Unit type id -> UnitType, all 24."""
SOURCES: Mapping[str, Sourced] = _DATA.sources
"""Provenance of each kind of value in the file (ratings, scale, points, abilities: rules; base: assumed)."""
NOTES: tuple[str, ...] = _DATA.notes

ABILITY_NAMES: Mapping[str, str] = {a.id: a.name for u in UNITS.values() for a in u.abilities}
"""Ability id -> printed name."""
ABILITY_IDS: Mapping[str, frozenset[str]] = {t: frozenset(a.id for a in u.abilities) for t, u in UNITS.items()}
"""Unit type id -> its abilities' ids: one set lookup for the checks that ask "has it X?"."""


def unit_type(type_id: str) -> UnitType | None:
    """A unit type by id, None if the data has no such unit."""
    return UNITS.get(type_id)


def ability(type_id: str, ability_id: str) -> Ability | None:
    """The unit type's ability with that id, if it has it."""
    kind = UNITS.get(type_id)
    if kind is None:
        return None
    return next((a for a in kind.abilities if a.id == ability_id), None)
