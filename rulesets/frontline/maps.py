"""Warcraft: Frontline's board data: the track's defense numbers and the areas of a half.

Read once from data/map.toml, whose every value is `assumed` (the figures are lost); the
params take their defaults from here, so a designer variant may change any of them.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import msgspec

from rulesets.frontline.cards import CardDataError
from rulesets.provenance import Sourced

DATA = Path(__file__).parent / "data"


class MapData(msgspec.Struct, frozen=True, kw_only=True):
    """One half of the board, as both halves are: the track and its areas."""

    track: tuple[int, ...]
    """Default defense number of each grid from the middle to the base line."""
    area_grids: tuple[int, ...]
    """Grids of the track each area spans, from the front area to the base area."""
    area_sites: tuple[int, ...]
    """Building sites of each area, from the front area to the base area."""
    sources: dict[str, Sourced]


def load(path: Path = DATA / "map.toml") -> MapData:
    """Read and check the map; its track and areas must agree."""
    try:
        raw = tomllib.loads(path.read_text())
        track, areas = raw["track"], raw["areas"]
        data = MapData(
            track=tuple(int(n) for n in track["defense"]),
            area_grids=tuple(int(n) for n in areas["grids"]),
            area_sites=tuple(int(n) for n in areas["sites"]),
            sources={},
        )
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as error:
        raise CardDataError(f"{path}: {error!r}") from None
    if sum(data.area_grids) != len(data.track) or len(data.area_sites) != len(data.area_grids):
        raise CardDataError(f"{path}: the areas' grids {data.area_grids} must cover the {len(data.track)} grids of the track, with sites for each area")
    sources = {
        "track": Sourced(value=data.track, source=track["source"], note=track["note"]),
        "area_grids": Sourced(value=data.area_grids, source=areas["source"], note=areas["note"]),
        "area_sites": Sourced(value=data.area_sites, source=areas["source"], note=areas["note"]),
    }
    return msgspec.structs.replace(data, sources=sources)


MAP = load()
