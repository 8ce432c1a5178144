"""The lost cards and tiles of Mercy Frontier, supplied as data with their provenance.

data/mercenaries.toml (the mercenary deck and the beacon's creature), data/tiles.toml (home
rows and covered tile faces) and data/buildings.toml (costs, battle cries, relic cards) are
read once at import and checked; a broken file fails with its name and the problem. Every
value the text does not state is marked `assumed` in the file's [provenance] table.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal, cast

import msgspec

from events.errors import TabletapeError
from rulesets.mercyfrontier.resources import RESOURCES, Resources
from rulesets.provenance import Source, Sourced

DATA = Path(__file__).parent / "data"
Rarity = Literal["common", "heroic", "legendary"]
RARITIES: tuple[Rarity, ...] = ("common", "heroic", "legendary")
AbilityKind = Literal["noncombat", "movement", "combat"]
BEACONS = ("beacon-biofuel", "beacon-neosteel", "beacon-crystal")
"""The three temple kinds, one block of each per player (6 temple blocks, 2 per resource)."""
TITAN = "titan"
"""The beacon's 'enormously powerful creature': a card, never in the deck."""


class ComponentDataError(TabletapeError, ValueError):
    """A data file that cannot be used; the message names the file and the problem."""


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    """A card ability: when it acts (Action Phase 1.b-c, Combat 3.b.iii) and its text."""

    id: str
    kind: AbilityKind
    text: str


class Mercenary(msgspec.Struct, frozen=True, kw_only=True):
    """One mercenary card type as printed on its (lost) face."""

    id: str
    name: str
    cost: int
    """The large number: credits the merc requires."""
    values: Resources
    """The small numbers: credits each token of a resource is worth."""
    attack: int
    health: int
    size: int
    """The token covers size x size grid spaces."""
    rarity: Rarity
    abilities: tuple[str, ...] = ()
    count: int = 1

    def has(self, ability: str) -> bool:
        """Whether the card has the ability (by id)."""
        return ability in self.abilities


class Node(msgspec.Struct, frozen=True, kw_only=True):
    """A resource node: a grid space of a tile where a worker collects."""

    at: tuple[int, int]
    """[column, row] inside the tile."""
    resource: str


class Face(msgspec.Struct, frozen=True, kw_only=True):
    """A covered tile's face, seen once it is uncovered."""

    id: str
    nodes: tuple[Node, ...] = ()


class Relic(msgspec.Struct, frozen=True, kw_only=True):
    """A relic card under a middle tile: held while its tile is controlled."""

    id: str
    name: str
    income: Resources
    """Extra tokens at every Resource Collection (assumed effect)."""


def _toml(name: str) -> dict[str, Any]:
    try:
        return tomllib.loads((DATA / name).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ComponentDataError(f"{name}: not a readable TOML file: {error}") from None


def _convert(value: Any, kind: Any, where: str) -> Any:
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as error:
        raise ComponentDataError(f"{where}: {error}") from None


def _provenance(raw: dict[str, Any], name: str) -> dict[str, Sourced]:
    out = {}
    for key, entry in raw.get("provenance", {}).items():
        if entry.get("source") not in ("rules", "assumed"):
            raise ComponentDataError(f"{name}: provenance of {key!r} must be 'rules' or 'assumed'")
        out[key] = Sourced(value=key, source=cast(Source, entry["source"]), note=str(entry.get("note", "")))
    return out


def _mercenaries(raw: dict[str, Any]) -> dict[str, Mercenary]:
    abilities = raw.get("abilities", {})
    found: dict[str, Mercenary] = {}
    for entry in raw.get("mercenaries", []):
        card = _convert(entry, Mercenary, f"mercenaries.toml: card {entry.get('id')!r}")
        if card.id in found:
            raise ComponentDataError(f"mercenaries.toml: card {card.id} is listed twice")
        unknown = [a for a in card.abilities if a not in abilities]
        if unknown:
            raise ComponentDataError(f"mercenaries.toml: card {card.id}: unknown ability {unknown[0]!r}")
        if card.attack < 1 or card.health < 1 or card.size < 1 or card.cost < 0 or card.count < 0 or card.values.negative():
            raise ComponentDataError(f"mercenaries.toml: card {card.id}: attack, health and size are at least 1; cost, values and count never negative")
        found[card.id] = card
    if TITAN not in found:
        raise ComponentDataError("mercenaries.toml: the beacon's creature (id 'titan') is missing")
    return found


def _nodes(entries: list[Any], where: str) -> tuple[Node, ...]:
    nodes = tuple(_convert(n, Node, where) for n in entries)
    for node in nodes:
        if node.resource not in RESOURCES:
            raise ComponentDataError(f"{where}: {node.resource!r} is not a resource ({', '.join(RESOURCES)})")
    return nodes


_MERCS_RAW = _toml("mercenaries.toml")
_TILES_RAW = _toml("tiles.toml")
_BUILDINGS_RAW = _toml("buildings.toml")

MERCENARIES: Mapping[str, Mercenary] = _mercenaries(_MERCS_RAW)
"""Card type id -> its card; the titan is the beacon's creature."""
ABILITIES: Mapping[str, Ability] = {
    key: _convert({"id": key, **value}, Ability, f"mercenaries.toml: ability {key!r}")
    for key, value in _MERCS_RAW.get("abilities", {}).items()
}
DECK: tuple[str, ...] = tuple(
    f"{card.id}-{n}" for card in MERCENARIES.values() for n in range(1, card.count + 1)
)
"""Every physical card of the mercenary deck: `raider-3` is the third Raider."""
HOME: Mapping[str, tuple[Node, ...]] = {
    place: _nodes(_TILES_RAW["home"][place], f"tiles.toml: home {place}") for place in ("left", "base", "right")
}
"""Resource nodes of a home tile as seen from its owner's side (left, base, right)."""
BASE_AT: tuple[int, int] = _convert(_TILES_RAW["home"]["base_building"], tuple[int, int], "tiles.toml: home base_building")
FACES: Mapping[str, Face] = {
    entry["id"]: Face(id=entry["id"], nodes=_nodes(entry.get("nodes", []), f"tiles.toml: face {entry['id']!r}"))
    for entry in _TILES_RAW.get("covered", [])
}
"""Covered tile faces by id (nine, one per covered position)."""
COSTS: Mapping[str, Resources] = {
    key: _convert(value, Resources, f"buildings.toml: cost of {key!r}") for key, value in _BUILDINGS_RAW["costs"].items()
}
"""What a worker and each building cost."""
BATTLE_CRIES: Mapping[str, Resources] = {
    key: _convert(value, Resources, f"buildings.toml: battle cry of {key!r}") for key, value in _BUILDINGS_RAW["battle_cries"].items()
}
RELICS: Mapping[str, Relic] = {
    entry["id"]: _convert(entry, Relic, f"buildings.toml: relic {entry.get('id')!r}") for entry in _BUILDINGS_RAW.get("relics", [])
}
PROVENANCE: Mapping[str, Mapping[str, Sourced]] = {
    "mercenaries.toml": _provenance(_MERCS_RAW, "mercenaries.toml"),
    "tiles.toml": _provenance(_TILES_RAW, "tiles.toml"),
    "buildings.toml": _provenance(_BUILDINGS_RAW, "buildings.toml"),
}
"""File -> field -> where its values come from (rules or assumed, and why)."""

if set(BEACONS) - set(COSTS) or set(BEACONS) - set(BATTLE_CRIES) or not {"worker", "refinery", "outpost"} <= set(COSTS):
    raise ComponentDataError("buildings.toml: [costs] needs worker, refinery, outpost and the three beacons; [battle_cries] the three beacons")


@cache
def card_type(card: str) -> Mercenary | None:
    """The card type of a physical card (`raider-3` -> Raider), or None (memoised on the id)."""
    return MERCENARIES.get(card.rsplit("-", 1)[0]) if card != TITAN else MERCENARIES[TITAN]


def credits(card: Mercenary, paid: Resources) -> int:
    """What a payment is worth toward this card: each token at the card's value for it."""
    values = card.values
    return paid.biofuel * values.biofuel + paid.neosteel * values.neosteel + paid.crystal * values.crystal
