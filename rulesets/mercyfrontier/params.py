"""Every number and switch of Mercy Frontier, per version of its design history.

mercy-frontier.txt gives the current rules, an accelerated start (Setup 5.a) and "Play
Testing and Changes" for eight play tests. The earlier versions here are the iterations
whose changes the history names concretely; where a change is behaviour rather than a
number, a switch selects it and the rules branch on it.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rulesets.protocol import Change, Version
from rulesets.provenance import Sourced

Uncovering = Literal["outpost", "mercenary"]


class Params(msgspec.Struct, frozen=True, kw_only=True):
    """One Mercy Frontier rule set; a designer variant overrides any of these."""

    tile_columns: int = 3
    """Battlefield tiles across ("3x5 tile set", 1st play test)."""
    tile_rows: int = 5
    tile_size: int = 3
    """Grid spaces along a tile's side (the tiles are lost; assumed)."""
    start_resources: int = 3
    """Tokens of each resource at the start (Setup 5; 2 in the accelerated version)."""
    start_refineries: bool = False
    """A refinery on both resource nodes of the base tile at the start (Setup 5.a)."""
    start_workers: int = 2
    """Workers each player starts with ("a set amount of workers"; assumed)."""
    max_workers: int = 10
    """"2 sets of 10 monocolor worker dice"."""
    outposts_per_player: int = 5
    """"10 Outpost Blocks (5 orange, 5 yellow)"."""
    refinery_supply: tuple[int, int, int] = (7, 7, 6)
    """Refinery blocks of biofuel, neosteel, crystal ("20 Refinery Blocks (7 ..., 7 ..., 6 ...)")."""
    market_size: int = 4
    """"Flip the first four cards"; "always begin purchasing with 4 available mercenaries"."""
    sweep_cost: int = 2
    """"pay (2) resources to sweep for a new set of four mercenaries"."""
    mercenary_zones: int = 5
    """"one of the player's 5 designated mercenary zones"."""
    move_common: int = 2
    move_heroic: int = 3
    move_legendary: int = 4
    buildings_to_win: int = 3
    """"destroy 3 of your opponent's buildings"."""
    beacons_for_creature: int = 3
    """"grants the first player to build 3 an enormously powerful creature"."""
    worker_on_site: bool = True
    """A building needs a worker on its space (from the 4th play test)."""
    workers_vulnerable: bool = True
    """Workers have 1 hp: a mercenary kills them, and "destroying a building with a worker on
    top also kills the worker" (from the 4th play test)."""
    victor_continues: bool = True
    """"After destroying an enemy merc the victor could use its remaining movement points"
    (from the 6th play test)."""
    uncovering: Uncovering = "outpost"
    """How a covered tile is uncovered: by building an outpost on it (from the 7th play test)
    or, before, by a mercenary entering it (assumed)."""
    relics: bool = True
    """Relic cards under the middle tiles (from the 8th play test)."""


CURRENT = Params()
ACCELERATED = msgspec.structs.replace(CURRENT, start_resources=2, start_refineries=True)
PLAYTEST_7 = msgspec.structs.replace(CURRENT, relics=False)
PLAYTEST_6 = msgspec.structs.replace(PLAYTEST_7, uncovering="mercenary")
PLAYTEST_4 = msgspec.structs.replace(PLAYTEST_6, victor_continues=False)
PLAYTEST_3 = msgspec.structs.replace(PLAYTEST_4, worker_on_site=False, workers_vulnerable=False)

_RULES_NOTES: dict[str, str] = {
    "tile_columns": '"The 3x5 tile set gave the players enough space" (1st play test); "15 battlefield tiles".',
    "tile_rows": '"3x5 tile set"; the home rows are the rows closest to each player (Setup 1).',
    "start_resources": 'Setup 5: "Each player starts with 3 of each resource".',
    "start_refineries": "Setup 5.a: only the accelerated version starts with refineries.",
    "max_workers": 'Required materials: "2 sets of 10 monocolor worker dice".',
    "outposts_per_player": 'Required materials: "10 Outpost Blocks (5 orange, 5 yellow)".',
    "refinery_supply": 'Required materials: "20 Refinery Blocks (7 green biofuel, 7 blue neosteel, 6 lucite crystal)".',
    "market_size": 'Setup 3: "Flip the first four cards"; Mercenary Purchase 1.d.',
    "sweep_cost": 'Mercenary Purchase 1.c: "pay (2) resources to sweep for a new set of four mercenaries".',
    "mercenary_zones": 'Mercenary Placement 2.b: "one of the player\'s 5 designated mercenary zones".',
    "move_common": 'Movement 2.a.i: "Common mercenaries can move 2 spaces".',
    "move_heroic": 'Movement 2.a.ii: "Heroic mercenaries can move 3 spaces".',
    "move_legendary": 'Movement 2.a.iii: "Legendary mercenaries can move 4 spaces".',
    "buildings_to_win": 'Objective: "destroy 3 of your opponent\'s buildings".',
    "beacons_for_creature": 'Abstract: "beacons ... grants the first player to build 3 an enormously powerful creature".',
    "worker_on_site": '4th play test: "in order to build you needed a worker to be present in the tile"; Building Phase 1.b.',
    "workers_vulnerable": '4th play test: "destroying a building with a worker on top also kills the worker"; Worker Phase 4: "All workers have 1 hp."',
    "victor_continues": '6th play test: "After destroying an enemy merc the victor could use its remaining movement points"; Combat 3.c.',
    "uncovering": '7th play test: "the first playtest where we tried the build an outpost to uncover style of play"; Building Phase 2.a.',
    "relics": '8th play test: "we introduced power points under the middle three tiles"; Setup 2.a.',
}
_ASSUMED: dict[str, str] = {
    "tile_size": "The tiles are lost. 3 x 3 grid spaces lets the '3x3 heroic mercenary' (Combat 3.b.iv) fill one tile and a base tile hold the base and 'Two resources'.",
    "start_workers": 'Abstract: "each player has a single base they control with a set of amount of workers" (the amount is not given).',
}


def _sources(params: Params, **specific: Sourced) -> dict[str, Sourced]:
    """Provenance of every param: the version's own notes, then the shared ones."""
    out: dict[str, Sourced] = {}
    for name in params.__struct_fields__:
        value = getattr(params, name)
        if name in specific:
            out[name] = specific[name]
        elif name in _ASSUMED:
            out[name] = Sourced(value=value, source="assumed", note=_ASSUMED[name])
        else:
            out[name] = Sourced(value=value, source="rules", note=_RULES_NOTES.get(name, ""))
    return out


_BEFORE_7 = Sourced(
    value="mercenary", source="assumed",
    note="Covered tiles exist from the 2nd play test (\"you had to uncover the tiles to get access to the materials underneath\"), "
         "but how they were uncovered before outposts did it (7th) is not said: read as a mercenary entering the tile.",
)
_BIDDING = "Bidding for mercs (play tests 2-4) has no surviving rules and is not encoded: mercs are bought as in the current rules."

VERSIONS: dict[str, Version[Params]] = {
    "playtest-3": Version(
        id="playtest-3", title="3rd play test: covered tiles, no worker needed to build, the victor stops",
        params=PLAYTEST_3,
        sources=_sources(PLAYTEST_3, uncovering=_BEFORE_7,
                         worker_on_site=Sourced(value=False, source="rules", note='4th play test: "From this point on we decided that in order to build you needed a worker to be present in the tile" (so not before).'),
                         workers_vulnerable=Sourced(value=False, source="rules", note='4th play test: "destroying a building with a worker on top also kills the worker" came with the clarified worker-merc interactions.')),
        changelog=(
            Change(rules=("mercyfrontier/outposts.uncover",), text='2nd play test: "From this point on you had to uncover the tiles to get access to the materials underneath it." (uncovered by a mercenary entering, assumed)'),
            Change(rules=("mercyfrontier/mercenaries.purchase",), text=_BIDDING),
        ),
    ),
    "playtest-4": Version(
        id="playtest-4", title="4th play test: a worker must stand where a building goes; workers can be killed",
        params=PLAYTEST_4, sources=_sources(PLAYTEST_4, uncovering=_BEFORE_7),
        changelog=(
            Change(rules=("mercyfrontier/building.worker", "mercyfrontier/combat.workers"),
                   text='4th play test: "From this point on we decided that in order to build you needed a worker to be present in the tile and destroying a building with a worker on top also kills the worker."'),
        ),
    ),
    "playtest-6": Version(
        id="playtest-6", title="6th play test: the victor of a combat keeps its remaining movement",
        params=PLAYTEST_6, sources=_sources(PLAYTEST_6, uncovering=_BEFORE_7),
        changelog=(
            Change(rules=("mercyfrontier/combat.victor-continues",),
                   text='6th play test: "After destroying an enemy merc the victor could use its remaining movement points so that spawn blocking strategy was nullified."'),
            Change(rules=("mercyfrontier/beacons.battle-cry",), text='6th play test: "give some battle cries for the temples in addition to the end effect".'),
        ),
    ),
    "playtest-7": Version(
        id="playtest-7", title="7th play test: an outpost uncovers the covered tile it is built on",
        params=PLAYTEST_7, sources=_sources(PLAYTEST_7),
        changelog=(
            Change(rules=("mercyfrontier/outposts.uncover",),
                   text='7th play test: "This was the first playtest where we tried the build an outpost to uncover style of play and the feedback was much better."'),
        ),
    ),
    "accelerated": Version(
        id="accelerated", title="The current rules with the accelerated start",
        params=ACCELERATED, sources=_sources(ACCELERATED),
        changelog=(
            Change(rules=("mercyfrontier/setup.resources", "mercyfrontier/setup.refineries"),
                   text='Setup 5.a: "In the accelerated version, each player starts with 2 of each resource and a refinery on BOTH resources nodes in their base tile."'),
        ),
    ),
    "current": Version(
        id="current", title="The current rules: relic cards under the middle tiles",
        params=CURRENT, sources=_sources(CURRENT),
        changelog=(
            Change(rules=("mercyfrontier/relics.control",),
                   text='8th play test: "we introduced power points under the middle three tiles. Whoever captured these tiles would get a bonus notified by the cards underneath those tiles."'),
        ),
    ),
}
"""Oldest first; `current` (last) is what a bare `mercyfrontier` means."""
