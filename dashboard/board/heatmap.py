"""Heatmaps on the game's own board: where things happen under each version.

Counts per board space come from the warehouse (`places`: what a game's `Ruleset.places`
reports at sync, e.g. where MortalGate's heroes fell and altars were captured, or the spaces
Mercy Frontier's mercenaries died on; `frontline_places`: where the frontline stood when the
match ended); this module turns them into shades over the game's BoardView (pieces, lines and
card rows left out) and draws them with `svg.board_svg`'s `heat` hook. Counts are per 100 games and share one scale across both versions, so the
same shade means the same frequency under A and under B.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from dashboard.board.svg import board_svg
from rulesets.protocol import Ruleset
from rulesets.view import BoardView

Space = tuple[int, int]


@dataclass(frozen=True)
class Places:
    """One game's heatmaps: the named query with the counts, and each kind of place with
    its title and how a row of the query lands on a board space of a view."""

    query: str
    titles: dict[str, str]
    space: Callable[[Mapping[str, Any], BoardView], dict[Space, float]]
    params: Mapping[str, Any] = field(default_factory=dict)
    """Parameters the query needs besides version and kind (the game, for `places`)."""


def _node(row: Mapping[str, Any], view: BoardView) -> dict[Space, float]:
    return {(row["col"], row["row"]): float(row["times"])}


def _front(row: Mapping[str, Any], view: BoardView) -> dict[Space, float]:
    """The last grid pushed. The board is folded at the middle of the map (its right edge):
    half A's track is the upper track row, B's the lower, grid 1 of each at the right. A
    frontline in the middle, with nothing pushed, counts half on each side of the fold."""
    width, front, times = int(view.width), int(row["front"]), float(row["times"])
    upper, lower = sorted({c.row for c in view.cells if c.kind in ("track", "base line")})
    if front == 0:
        return {(width - 1, upper): times / 2, (width - 1, lower): times / 2}
    return {(width - abs(front), lower if front > 0 else upper): times}


PLACES = {
    "mortalgate": Places("places", {"hero fell": "Where heroes fall", "altar captured": "Where altars change hands"}, _node,
                         {"ruleset": "mortalgate"}),
    "frontline": Places("frontline_places", {"frontline stopped": "Where the frontline stops (the last grid pushed)"}, _front),
    "frontier": Places("places", {"unit destroyed": "Where units are destroyed (to the inch)"}, _node, {"ruleset": "frontier"}),
    "mercyfrontier": Places("places", {"mercenary died": "Where mercenaries die (the spaces their tokens covered)"}, _node,
                            {"ruleset": "mercyfrontier"}),
}
"""The built-in games' heatmaps, by ruleset name, with titles in their words."""


def places_of(game: str, ruleset: Ruleset[Any]) -> Places | None:
    """The heatmaps of the game named `game`: its entry above, else, for any game whose
    ruleset reports `places` (a designer's own as well), one map per kind of place it
    reports, on the spaces it names; None for a game that reports none."""
    if game in PLACES:
        return PLACES[game]
    return Places("places", {}, _node, {"ruleset": game}) if ruleset.gives("places") else None


def titles(places: Places, rows: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Each kind of place with its title: the game's own, else the kind as the rules named it."""
    return places.titles or {what: f"Where {what}" for what in sorted({str(row["what"]) for row in rows})}


def counts(places: Places, rows: list[dict[str, Any]], what: str, view: BoardView) -> dict[Space, float]:
    """The query's rows of one kind of place as counts per board space."""
    found: dict[Space, float] = {}
    for row in rows:
        if row["what"] == what:
            for space, n in places.space(row, view).items():
                found[space] = found.get(space, 0.0) + n
    return found

LOWEST = 0.2
"""Opacity of the rarest shaded space (still visible over the terrain)."""


def per_hundred(counts: Mapping[Space, float], games: int) -> dict[Space, float]:
    """Counts as times per 100 games (versions with different numbers of games compare)."""
    return {space: 100 * n / games for space, n in counts.items()} if games else {}


def shades(rates: Mapping[Space, float], *, colour: str, top: float, what: str) -> dict[Space, tuple[str, float, str]]:
    """Each space's (colour, opacity, tooltip): opacity grows with the rate up to `top`."""
    if top <= 0:
        return {}
    return {space: (colour, LOWEST + (0.85 - LOWEST) * min(rate / top, 1.0), f"{what} at {space[0]},{space[1]}: {rate:.1f} per 100 games")
            for space, rate in rates.items() if rate > 0}


def heatmap_svg(view: BoardView, rates: Mapping[Space, float], *, colour: str, top: float, what: str, title: str) -> str:
    """The board with only its terrain, shaded where `what` happens (rates per 100 games).
    Nobody holds anything on it: who held an altar or a tile when one match ended says
    nothing about a cohort, and side colours would read as heat."""
    bare = msgspec.structs.replace(view, pieces=(), lines=(), rows=(), panels=(),
                                   cells=tuple(msgspec.structs.replace(c, owner=None) for c in view.cells),
                                   regions=tuple(msgspec.structs.replace(r, side=None) for r in view.regions))
    return board_svg(bare, title=title, legend=False, heat=shades(rates, colour=colour, top=top, what=what))
