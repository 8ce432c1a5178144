"""MortalGate's eight heroes: abilities as printed, and stats per stat set with provenance.

Abilities (name, range, cooldown, text) are printed in mortalgate.txt, "Our Heroes and
Abilities", and are `rules`. The hero sheets with the six attributes were images and are
lost: each stat set in data/heroes.toml says per attribute whether the text fixes it
(`rules`) or a designer assumed it (`assumed`), and why. The file is read once at import.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import msgspec

from events.errors import TabletapeError
from rulesets.provenance import Source, Sourced

DATA = Path(__file__).parent / "data"
STAT_SETS = ("1.5", "2.0", "2.1", "2.5")
"""Stat sets in design-history order; a version's Params names the one it plays with."""
STAT_NAMES = ("health", "damage", "movement", "dodge", "range", "accuracy")
"""The six hero attributes (mortalgate.txt, Hero Attributes), in sheet order."""
MAX_HEALTH = 20
"""Health is tracked on a d20 (mortalgate.txt, Game Components: "8 d20 for tracking hero health")."""
ROLES = ("warrior", "archer", "mage", "rogue")


class HeroDataError(TabletapeError, ValueError):
    """A hero data file that cannot be used; the message names the file and the problem."""


class UnknownHeroError(TabletapeError, LookupError):
    """A hero id, hero name or stat set that the data does not have."""


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    """One hero ability exactly as printed (mortalgate.txt, Our Heroes and Abilities)."""

    id: str
    name: str
    range: int | None
    """Printed range; None for "n/a" (self or all-around). Long Shot's "6 total" is 6."""
    cooldown: int
    """Turns before it can be used again (printed "Cooldown: N turns")."""
    text: str
    """The printed effect, word for word (typos included)."""
    hero: str = ""
    """Id of the hero who has it."""


class Hero(msgspec.Struct, frozen=True, kw_only=True):
    """A hero: its printed name, class, two abilities and introduction."""

    id: str
    name: str
    role: str
    """warrior, archer, mage or rogue (the text's class headings)."""
    abilities: tuple[Ability, ...]
    lore: str
    aliases: tuple[str, ...] = ()
    """Other printed spellings of the name ("Grevan" in the Appendix table)."""


class HeroStats(msgspec.Struct, frozen=True, kw_only=True):
    """The six attributes of a hero sheet (mortalgate.txt, Hero Attributes)."""

    health: int
    """Damage a hero may take before being slain; at most 20 (a d20 tracks it)."""
    damage: int
    """Base damage of the basic attack."""
    movement: int
    """Nodes a hero may move per turn."""
    dodge: int
    """Subtracted from an attacker's chance to hit (0 before 2.00)."""
    range: int
    """Base range of the basic attack and abilities."""
    accuracy: int
    """Added to the hero's chance to hit (0 before 2.00)."""


class HeroData(msgspec.Struct, frozen=True, kw_only=True):
    """Everything heroes.toml holds, checked."""

    heroes: Mapping[str, Hero]
    stats: Mapping[tuple[str, str], HeroStats]
    """(hero id, stat set) -> stats."""
    sources: Mapping[tuple[str, str], dict[str, Sourced]]
    """(hero id, stat set) -> attribute -> provenance."""
    notes: tuple[str, ...]


def parse_heroes(text: str, *, name: str) -> HeroData:
    """Read heroes.toml's text; `name` (the file name) starts every error message."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise HeroDataError(f"{name}: not valid TOML: {error}") from None
    try:
        return _build(raw, name)
    except HeroDataError:
        raise
    except KeyError as error:
        raise HeroDataError(f"{name}: missing key {error.args[0]!r}") from None
    except (TypeError, ValueError, IndexError) as error:
        raise HeroDataError(f"{name}: {str(error).splitlines()[0]}") from None


def _printed_range(printed: str) -> int | None:
    """ "n/a" -> None, "3" -> 3, "6 total" -> 6 (the printed forms of an ability's range)."""
    if printed.strip() == "n/a":
        return None
    return int(printed.split()[0])


def _build(raw: dict[str, Any], name: str) -> HeroData:
    """Heroes, abilities and every stat set, each value checked and given its provenance."""
    heroes: dict[str, Hero] = {}
    range_basis: dict[str, str] = {}
    for entry in raw["heroes"]:
        hero_id = str(entry["id"])
        if entry["role"] not in ROLES:
            raise HeroDataError(f"{name}: hero {hero_id}: role {entry['role']!r} not in {ROLES}")
        abilities = tuple(
            Ability(
                id=str(a["id"]),
                name=str(a["name"]),
                range=_printed_range(str(a["range"])),
                cooldown=int(a["cooldown"]),
                text=str(a["text"]),
                hero=hero_id,
            )
            for a in entry["abilities"]
        )
        heroes[hero_id] = Hero(
            id=hero_id,
            name=str(entry["name"]),
            role=str(entry["role"]),
            abilities=abilities,
            lore=str(entry["lore"]),
            aliases=tuple(str(a) for a in entry.get("aliases", ())),
        )
        range_basis[hero_id] = str(entry.get("range_basis", ""))
    stats: dict[tuple[str, str], HeroStats] = {}
    sources: dict[tuple[str, str], dict[str, Sourced]] = {}
    for stat_set in STAT_SETS:
        table = raw["stat_sets"].get(stat_set)
        if table is None:
            raise HeroDataError(f"{name}: no [stat_sets.{stat_set!r}]")
        provenance = table["sources"]
        for hero_id in heroes:
            where = f'stat_sets."{stat_set}".heroes.{hero_id}'
            values = table["heroes"].get(hero_id)
            if values is None:
                raise HeroDataError(f"{name}: {where} is missing")
            if set(values) != set(STAT_NAMES):
                raise HeroDataError(f"{name}: {where} must give exactly {', '.join(STAT_NAMES)}")
            sheet = HeroStats(**{k: int(values[k]) for k in STAT_NAMES})
            if not 1 <= sheet.health <= MAX_HEALTH:
                raise HeroDataError(f"{name}: {where}.health {sheet.health} is not 1..20 (a d20)")
            stats[(hero_id, stat_set)] = sheet
            sources[(hero_id, stat_set)] = {
                k: _sourced(getattr(sheet, k), provenance[k], k, range_basis[hero_id], name)
                for k in STAT_NAMES
            }
    return HeroData(heroes=heroes, stats=stats, sources=sources, notes=tuple(raw.get("notes", ())))


def _sourced(value: int, entry: dict[str, str], stat: str, basis: str, name: str) -> Sourced:
    """A stat value with its set's provenance; range notes also name the hero's basis."""
    source = entry["source"]
    if source not in ("rules", "assumed"):
        raise HeroDataError(f"{name}: source of {stat} must be 'rules' or 'assumed'")
    note = entry.get("note", "")
    if stat == "range" and basis:
        note = f"{note} Basis: {basis}."
    return Sourced(value=value, source=cast(Source, source), note=note)


_DATA = parse_heroes((DATA / "heroes.toml").read_text(encoding="utf-8"), name="heroes.toml")

HEROES: Mapping[str, Hero] = _DATA.heroes
"""Hero id -> Hero, in the order warriors, archers, mages, rogues."""
ABILITIES: Mapping[str, Ability] = {a.id: a for h in HEROES.values() for a in h.abilities}
"""Ability id -> Ability, all sixteen."""
ABILITIES_OF: Mapping[str, frozenset[str]] = {h.id: frozenset(a.id for a in h.abilities) for h in HEROES.values()}
"""Hero id -> the ids of its own abilities."""
NOTES: tuple[str, ...] = _DATA.notes
"""Readings of the text the data depends on (e.g. Greven/Grevan)."""
_SHEETS: Mapping[str, Mapping[str, HeroStats]] = {
    stat_set: {hero: sheet for (hero, in_set), sheet in _DATA.stats.items() if in_set == stat_set} for stat_set in STAT_SETS
}
"""Stat set -> hero id -> its six attributes: two plain lookups, asked on every attack and move."""


def stats(hero_id: str, stat_set: str) -> HeroStats:
    """The hero's six attributes in a stat set ("1.5", "2.0", "2.1", "2.5")."""
    try:
        return _SHEETS[stat_set][hero_id]
    except KeyError:
        raise _unknown(hero_id, stat_set) from None


def stat_sources(hero_id: str, stat_set: str) -> dict[str, Sourced]:
    """Attribute -> its value with provenance (`rules` or `assumed`) and the reason."""
    try:
        return dict(_DATA.sources[(hero_id, stat_set)])
    except KeyError:
        raise _unknown(hero_id, stat_set) from None


def hero_id(name: str) -> str:
    """The id of a hero by any printed spelling ("Grevan" -> "greven"); case-insensitive."""
    wanted = name.strip().casefold()
    for hero in HEROES.values():
        if wanted in {hero.id, hero.name.casefold(), *(a.casefold() for a in hero.aliases)}:
            return hero.id
    raise UnknownHeroError(f"no hero named {name!r}; heroes: {', '.join(HEROES)}")


def _unknown(hero: str, stat_set: str) -> UnknownHeroError:
    """The error for a (hero, stat set) pair that has no stats."""
    if hero not in HEROES:
        return UnknownHeroError(f"no hero {hero!r}; heroes: {', '.join(HEROES)}")
    return UnknownHeroError(f"no stat set {stat_set!r}; stat sets: {', '.join(STAT_SETS)}")
