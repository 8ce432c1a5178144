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
from rulesets.frontier import board, missions
from rulesets.frontier.board import Point, Polygon
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


SPACING = 4.0
"""Inches between the points a piece may be put or moved to from the board (assumed: a
sample, as `legal` samples every free position; the table may record any point)."""
POINTS: tuple[Point, ...] = tuple((x + SPACING / 2, y + SPACING / 2)
                                  for y in range(0, int(missions.HEIGHT), int(SPACING))
                                  for x in range(0, int(missions.WIDTH), int(SPACING)))
"""Where the centre of a piece may be put: a 4" grid over the table, 2" in from its edges."""


def spots(outline: Polygon) -> tuple[Point, ...]:
    """The sample points the centre of `outline` may go to with the whole piece on the table."""
    x0, y0, x1, y1 = board.bounds(outline)
    cx, cy = board.centroid(outline)
    return tuple(p for p in POINTS if x0 - cx + p[0] >= 0 and x1 - cx + p[0] <= missions.WIDTH
                 and y0 - cy + p[1] >= 0 and y1 - cy + p[1] <= missions.HEIGHT and p != (cx, cy))


def palette_names(pieces: tuple[TerrainPlaced, ...] = STANDARD) -> dict[str, str]:
    """Each piece's name on its card: its label, numbered where two share one (`Wall 2`)."""
    labels = [p.label or p.piece for p in pieces]
    out = {}
    for index, p in enumerate(pieces):
        label = labels[index]
        out[p.piece] = f"{label} {labels[: index + 1].count(label)}" if labels.count(label) > 1 else label
    return out
