"""The standard table bots set up: data/terrain.toml as the TerrainPlaced events that place it.

frontier.md leaves the board to the players ("You should agree with your opponent at the
start of the battle on the scale and special rules of any terrain"), so a log records its
own terrain; this layout is only what simulated games and demos put down (all assumed).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from events.errors import TabletapeError
from rulesets.frontier.events import Level, TerrainPlaced

DATA = Path(__file__).parent / "data"


class TerrainDataError(TabletapeError, ValueError):
    """A terrain file that cannot be used; the message names the file and the problem."""


def parse_table(text: str, *, name: str) -> tuple[TerrainPlaced, ...]:
    """Read a terrain layout's text into the events that place it, in file order."""
    try:
        raw: dict[str, Any] = tomllib.loads(text)
        return tuple(
            TerrainPlaced(
                piece=str(p["id"]), label=str(p.get("label", "")), scale=int(p["scale"]),
                outline=tuple((float(x), float(y)) for x, y in p["outline"]),
                levels=tuple(Level(height=int(lv["height"]), rules=tuple(str(r) for r in lv.get("rules", ())), name=str(lv.get("name", "")))
                             for lv in p.get("levels", ())),
            )
            for p in raw["pieces"]
        )
    except tomllib.TOMLDecodeError as error:
        raise TerrainDataError(f"{name}: not valid TOML: {error}") from None
    except (KeyError, TypeError, ValueError) as error:
        raise TerrainDataError(f"{name}: {error}") from None


STANDARD: tuple[TerrainPlaced, ...] = parse_table((DATA / "terrain.toml").read_text(encoding="utf-8"), name="terrain.toml")
"""The standard table's pieces (assumed)."""
