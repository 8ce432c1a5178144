"""Warcraft: Frontline's one rule version, its numbers, and the match's race option.

The text has no design history: one version, `1.0`. Each player's race is an option of
the match (MatchStarted.options["races"]), not a param. The board (track and areas) comes
from data/map.toml and the cards from data/cards.toml; the numbers here are the ones the
text states, plus the few it leaves open, each marked `assumed` with the reason.
"""

from __future__ import annotations

import msgspec

from rulesets.frontline.cards import RACES
from rulesets.frontline.maps import MAP
from rulesets.protocol import Change, Option, Version
from rulesets.provenance import Sourced


class Params(msgspec.Struct, frozen=True, kw_only=True):
    """One Warcraft: Frontline rule set; a designer variant overrides any of these."""

    players: int = 2
    """Start phase 1: "It is a 2 player only game"."""
    start_workers: int = 5
    """Start phase 3: "gets 5 workers"."""
    start_on_gold: int = 3
    """Starting workers placed in the gold mine (the rest in the forest)."""
    start_gold: int = 3
    """Start phase 4: "starts with 3 Gold and 2 Lumber"."""
    start_lumber: int = 2
    bouts: int = 15
    """Playing phase 4: "after 15 bouts, the game ends"."""
    capacity_max: int = 99
    """"2 D10 dice which can represent up to 99"."""
    militia_force: int = 1
    """"each contributes 1 military force"."""
    militia_return: int = 1
    """"takes one extra round before going back to work"."""
    burrow_defense: int = 1
    """"each worker in burrow increase defense power by 1"."""
    points_per_grid: int = 2
    """Winning condition 3b: "Each grid pushed gives the player 2 points"."""
    points_per_tech: int = 1
    """Points of one researched tech (Winning condition 3a gives no number)."""
    track: tuple[int, ...] = MAP.track
    """Default defense number of each grid of a half, from the middle to the base line."""
    area_grids: tuple[int, ...] = MAP.area_grids
    """Grids each area of a half spans, from the front area to the base area."""
    area_sites: tuple[int, ...] = MAP.area_sites
    """Building sites of each area, from the front area to the base area."""


V1_0 = Params()

SOURCES: dict[str, Sourced] = {
    "players": Sourced(value=2, source="rules", note="Start phase 1: 'It is a 2 player only game.'"),
    "start_workers": Sourced(value=5, source="rules", note="Start phase 3: 'gets 5 workers as default'."),
    "start_on_gold": Sourced(value=3, source="assumed", note="Where the starting workers stand is not said; the collection example's '3 workers in gold mine and 2 workers in the forest'."),
    "start_gold": Sourced(value=3, source="rules", note="Start phase 4: 'starts with 3 Gold and 2 Lumber'."),
    "start_lumber": Sourced(value=2, source="rules", note="Start phase 4: 'starts with 3 Gold and 2 Lumber'."),
    "bouts": Sourced(value=15, source="rules", note="Playing phase 4 and Winning condition 2: 15 bouts."),
    "capacity_max": Sourced(value=99, source="rules", note="'The capacity will be represented as 2 D10 dice which can represent up to 99.'"),
    "militia_force": Sourced(value=1, source="rules", note="Human research: militia 'each contributes 1 military force'."),
    "militia_return": Sourced(value=1, source="rules", note="Militia 'takes one extra round before going back to work'."),
    "burrow_defense": Sourced(value=1, source="rules", note="Orc research: 'each worker in burrow increase defense power by 1'."),
    "points_per_grid": Sourced(value=2, source="rules", note="Winning condition 3b: 'Each grid pushed gives the player 2 points.'"),
    "points_per_tech": Sourced(value=1, source="assumed", note="Winning condition 3a lists 'Researched techs' with no number (the research cards are lost): one point a tech."),
    **MAP.sources,
}

OPTIONS: tuple[Option, ...] = (
    Option(name="races", default=None,
           help='{seat: "orc" | "human"} for both seats ("Each player picks a race"); '
                f"left out, the first seat plays {RACES[0]} and the second {RACES[1]}."),
)
"""Per-match options: each player's race."""

VERSIONS: dict[str, Version[Params]] = {
    "1.0": Version(
        id="1.0",
        title="Warcraft: Frontline as the surviving text gives it: Orc and Human, 15 bouts",
        params=V1_0,
        sources=SOURCES,
        changelog=(Change(rules=("frontline/start",), text="The only version in the text: no design history survives."),),
    ),
}
