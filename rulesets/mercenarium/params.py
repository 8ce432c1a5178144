"""Every number and switch of Mercenarium, with where it comes from.

The text is one version (no design history); the player count (2, 3 or 4 seats) changes
limbo and elimination, and is read from the seats, not from a version. A designer variant
may override any of these, e.g. a 5 x 5 board or a 6-capture game.
"""

from __future__ import annotations

import msgspec

from rulesets.protocol import Change, Version
from rulesets.provenance import Sourced

HOUSE_COLOURS = ("red", "orange", "yellow", "green")


class Params(msgspec.Struct, frozen=True, kw_only=True):
    """One Mercenarium rule set; a designer variant overrides any of these."""

    board_size: int = 7
    """Spaces per side of the square board (its size is on the lost Fig. 1.1; assumed)."""
    houses: tuple[tuple[str, str], ...] = (("red", "south"), ("orange", "west"), ("yellow", "north"), ("green", "east"))
    """House colour -> the side whose centre space it sits on, clockwise from red (assumed)."""
    deal: int = 5
    """Deck cards dealt to each player ("deal five (5) cards to each player")."""
    hand_limit: int = 5
    """Most non-hymn cards a hand may hold outside Singularity."""
    hymn_limit: int = 1
    """Most hymns a hand may hold outside Singularity."""
    captures_to_win: int = 5
    """"The first player to five (5) captures wins the game"."""
    repetitions: int = 3
    """"a stalemate is declared after three (3) repetitions"."""
    players_min: int = 2
    players_max: int = 4
    zodiac_faces: int = 12
    """The d12 Zodiac die: face N names hymn N."""
    fireyes_draws: int = 5
    """Fireyes in Singularity: "Draw 5 cards"."""


BASE = Params()

SOURCES: dict[str, Sourced] = {
    "board_size": Sourced(value=7, source="assumed", note="The board is on the lost Fig. 1.1. The text needs an odd size (a 'center space' and a House 'in the center space of each side'); 7 x 7 is the size a published review of the game gives."),
    "houses": Sourced(value=BASE.houses, source="assumed", note="Which colour sits on which side is on the lost Fig. 1.1. Read in rainbow order clockwise (red south, orange west, yellow north, green east), so the 2-player pairs that 'sit directly across' are red-yellow and orange-green."),
    "deal": Sourced(value=5, source="rules", note="SET UP 2, Dealing."),
    "hand_limit": Sourced(value=5, source="rules", note='"never hold ... more than five (5) non-hymn cards in your hand" (SET UP 2; DRAWING CARDS).'),
    "hymn_limit": Sourced(value=1, source="rules", note='"never hold more than one (1) hymn card" (SET UP 2; SINGING HYMNS).'),
    "captures_to_win": Sourced(value=5, source="rules", note="WINNING THE GAME, Standard Victory."),
    "repetitions": Sourced(value=3, source="rules", note="STALEMATES."),
    "players_min": Sourced(value=2, source="rules", note='"For 2-4 players."'),
    "players_max": Sourced(value=4, source="rules", note='"For 2-4 players"; four Houses.'),
    "zodiac_faces": Sourced(value=12, source="rules", note='COMPONENTS: "One (1) 12-sided Zodiac die"; its faces name hymns I-XII (reading mercenarium/hymns.zodiac).'),
    "fireyes_draws": Sourced(value=5, source="rules", note='SINGULARITY: Fireyes "has its function changed to: \\"Draw 5 cards\\"".'),
}

VERSIONS: dict[str, Version[Params]] = {
    "1.0": Version(
        id="1.0",
        title="Mercenarium as the surviving rules text gives it (hymns, Lords, contracts, Singularity)",
        params=BASE,
        sources=SOURCES,
        changelog=(
            Change(rules=("mercenarium/setup",), text="The only version in the text: no design history survives."),
        ),
    ),
}
