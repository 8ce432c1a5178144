"""Heatmaps on the game's own board: where things happen under each version.

Counts per board space come from the warehouse (the `mortalgate_places` query: where heroes
fell, where altars were captured); this module turns them into shades over the game's
BoardView (pieces, lines and card rows left out) and draws them with `svg.board_svg`'s
`heat` hook. Counts are per 100 games and share one scale across both versions, so the
same shade means the same frequency under A and under B.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from dashboard.svg import board_svg
from rulesets.view import BoardView

Space = tuple[int, int]

LOWEST = 0.2
"""Opacity of the rarest shaded space (still visible over the terrain)."""


def per_hundred(counts: Mapping[Space, int], games: int) -> dict[Space, float]:
    """Counts as times per 100 games (versions with different numbers of games compare)."""
    return {space: 100 * n / games for space, n in counts.items()} if games else {}


def shades(rates: Mapping[Space, float], *, colour: str, top: float, what: str) -> dict[Space, tuple[str, float, str]]:
    """Each space's (colour, opacity, tooltip): opacity grows with the rate up to `top`."""
    if top <= 0:
        return {}
    return {space: (colour, LOWEST + (0.85 - LOWEST) * min(rate / top, 1.0), f"{what} at {space[0]},{space[1]}: {rate:.1f} per 100 games")
            for space, rate in rates.items() if rate > 0}


def heatmap_svg(view: BoardView, rates: Mapping[Space, float], *, colour: str, top: float, what: str, title: str) -> str:
    """The board with only its terrain, shaded where `what` happens (rates per 100 games)."""
    bare = msgspec.structs.replace(view, pieces=(), lines=(), rows=(), panels=())
    return board_svg(bare, title=title, legend=False, heat=shades(rates, colour=colour, top=top, what=what))
