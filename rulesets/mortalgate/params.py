"""Every number and switch that changed across MortalGate's design history, per version.

mortalgate.txt, "Design History" names 1.5, 2.00, 2.1 and 2.5. Where a change is new
behaviour rather than a number, a switch selects it and the rules branch on it.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from rulesets.protocol import Change, Version
from rulesets.provenance import Sourced

Bonuses = Literal["none", "enchantments", "altars"]


class Params(msgspec.Struct, frozen=True, kw_only=True):
    """One MortalGate rule version; a designer variant overrides any of these."""

    base_chance: int
    """Chance-to-hit before modifiers ("Determining a Hit": 75; 50 before 2.1)."""
    accuracy_dodge: bool
    """Heroes have accuracy and dodge attributes (from 2.00)."""
    line_of_sight: bool
    """Attacks need a straight line of sight (from 2.1)."""
    bonuses: Bonuses
    """Where attack bonuses come from: weapon cards with no surviving text (1.5),
    enchantment spots on the map (2.00), or team blessings held with altars (2.1)."""
    map: str
    """Which map layout ("1.5", "2.0", "2.5") the version is played on."""
    stats: str
    """Which hero stat set ("1.5", "2.0", "2.1", "2.5")."""
    kill_grace: int = 1
    capture_grace: int
    starting_grace: tuple[Annotated[int, msgspec.Meta(ge=0)], Annotated[int, msgspec.Meta(ge=0)]] = (0, 0)
    """Each team's Grace meter at setup, red then blue ("Board Setup": both at 0). A designer
    variant that starts one team higher gives it a head start of known direction."""
    grace_to_win: int
    heroes_per_team: int = 4
    players_min: int = 2
    players_max: int = 8
    heroes_per_player_max: int = 4
    respawn: bool = True
    """Slain heroes return at spawn on their next turn (1.5 replaced revival)."""


_SHARED: dict[str, Sourced] = {
    "kill_grace": Sourced(value=1, source="rules", note='"Upon killing an enemy, a team receives 1 (one) grace point." (General Rules, Grace Points)'),
    "heroes_per_team": Sourced(value=4, source="rules", note='"until 8 (eight) heroes total have been chosen" (Draft Phase), two teams.'),
    "players_min": Sourced(value=2, source="rules", note='"a maximum of eight people and a minimum of two people" (Game Overview).'),
    "players_max": Sourced(value=8, source="rules", note="Game Overview."),
    "heroes_per_player_max": Sourced(value=4, source="rules", note='"you can control from one to four hero characters" (Game Overview).'),
    "starting_grace": Sourced(value=(0, 0), source="rules", note='"place a counter at 0 (zero) on the Grace meter of each team" (Board Setup).'),
    "respawn": Sourced(value=True, source="rules", note="Version 1.5, change 3; General Rules, Death."),
}

_ASSUMED_MAP = "the layout is assumed: every altar, spawn and impassable node was drawn to fit the text (the printed map is an image; rulesets/mortalgate/data/map-*.toml). Findings on terrain, altar zones, spawns and line of sight rest on it."


def _map(version: str) -> Sourced:
    """The map a version plays on: its id is the text's, its layout is assumed data."""
    return Sourced(value=version, source="assumed", note=f"Map of version {version}; {_ASSUMED_MAP}")

_OLD_GRACE = {
    "capture_grace": Sourced(
        value=3,
        source="assumed",
        note='Before 2.5 the text gives no rule number; the FAQ still says "You get 3 Grace Points for '
        'capturing an altar", which contradicts the 2.5 rules (2) and reads as the older value.',
    ),
    "grace_to_win": Sourced(
        value=50,
        source="assumed",
        note='2.5 "reduced" the total to 20; the older total is not given. The FAQ\'s "maximum amount of '
        'Grace Points ... is 50" is the only other number in the text and is read as that older total.',
    ),
}


def _sources(params: Params, **specific: Sourced) -> dict[str, Sourced]:
    """Provenance for every param: shared facts, then the version's own notes."""
    sources = dict(_SHARED)
    sources["map"] = _map(params.map)
    sources.update(specific)
    for name in params.__struct_fields__:
        sources.setdefault(name, Sourced(value=getattr(params, name), source="rules"))
    return {name: sources[name] for name in params.__struct_fields__}


V1_5 = Params(base_chance=50, accuracy_dodge=False, line_of_sight=False, bonuses="none", map="1.5",
              stats="1.5", capture_grace=3, grace_to_win=50)
V2_0 = msgspec.structs.replace(V1_5, accuracy_dodge=True, bonuses="enchantments", map="2.0", stats="2.0")
V2_1 = msgspec.structs.replace(V2_0, base_chance=75, line_of_sight=True, bonuses="altars", stats="2.1")
V2_5 = msgspec.structs.replace(V2_1, map="2.5", stats="2.5", capture_grace=2, grace_to_win=20)

VERSIONS: dict[str, Version[Params]] = {
    "1.5": Version(
        id="1.5",
        title="Chance to hit, respawn, no ascension",
        params=V1_5,
        sources=_sources(
            V1_5,
            base_chance=Sourced(value=50, source="rules", note='2.1: "The base chance to hit has been increased from 50 to 75."'),
            bonuses=Sourced(value="none", source="assumed", note="1.5 used weapon cards whose effects did not survive; no weapon bonus is applied."),
            accuracy_dodge=Sourced(value=False, source="rules", note='2.00: "Heroes were given stats of accuracy and dodge" (so 1.5 had none).'),
            **_OLD_GRACE,
        ),
        changelog=(
            Change(rules=("mortalgate/victory.grace",), text="Removed ascension of the center mountain after reaching a winning number of Grace points."),
            Change(rules=("mortalgate/combat.hit",), text="Added the chance-to-hit mechanic to basic attacks (base 50)."),
            Change(rules=("mortalgate/death.respawn",), text="Removed revival: defeated heroes respawn at the spawn point on their next turn."),
        ),
    ),
    "2.0": Version(
        id="2.0",
        title="Accuracy and dodge, enchantment spots",
        params=V2_0,
        sources=_sources(
            V2_0,
            base_chance=Sourced(value=50, source="rules", note="Raised to 75 only in 2.1."),
            bonuses=Sourced(value="enchantments", source="rules", note='2.00: "Weapon cards were removed ... replaced with enchantment spots on the map. The number of enchantments was reduced to 5."'),
            **_OLD_GRACE,
        ),
        changelog=(
            Change(rules=("mortalgate/enchantments.take",), text="Weapon cards replaced by 5 enchantments set on spaces of the map."),
            Change(rules=("mortalgate/combat.hit",), text="Heroes get accuracy and dodge stats for resolving combat."),
            Change(rules=("mortalgate/map",), text="Minor map changes: an open area for higher-tension battle in the center."),
        ),
    ),
    "2.1": Version(
        id="2.1",
        title="Team blessings, base 75, line of sight",
        params=V2_1,
        sources=_sources(V2_1, **_OLD_GRACE),
        changelog=(
            Change(rules=("mortalgate/blessings.held",), text="Enchantments replaced by blessings: earned by controlling their altars, team-wide, lost with the altar."),
            Change(rules=("mortalgate/combat.hit",), text="Base chance to hit increased from 50 to 75."),
            Change(rules=("mortalgate/combat.line-of-sight",), text="Straight line of sight needed to attack."),
        ),
    ),
    "2.5": Version(
        id="2.5",
        title="Enclosed altars, faster Grace, rebalanced heroes, new blessings",
        params=V2_5,
        sources=_sources(
            V2_5,
            capture_grace=Sourced(value=2, source="rules", note='2.5 change 2 and General Rules: "Capturing and altar awards a team 2 (two) grace points." The FAQ\'s 3 contradicts this; the newest rules win.'),
            grace_to_win=Sourced(value=20, source="rules", note='2.5 change 2; End Game Conditions: "The first team to reach 20 Grace points achieves victory."'),
        ),
        changelog=(
            Change(rules=("mortalgate/map",), text="Map redesigned to enclose altars and add more impassable terrain."),
            Change(rules=("mortalgate/grace.capture", "mortalgate/victory.grace"), text="Altar capture worth 2 Grace; victory at 20 Grace."),
            Change(rules=("mortalgate/heroes.stats",), text="Stat balance of all heroes: mobility, health, dodge and accuracy."),
            Change(rules=("mortalgate/blessings.effects",), text="Evasive, Divine Shield and Sprint added: every altar has a unique blessing."),
        ),
    ),
}
