"""Frontier's one rule version, and the numbers a designer may vary.

frontier.md names no versions: it is one ruleset (`1.0`). The mission, each side's faction
and army and the points limit are options of a match (MatchStarted.options), not params.
Params hold the few numbers the text states that a designer is likely to tune, and every
number the text does not give, each marked `assumed` with the reason.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rulesets.protocol import Change, Option, Version
from rulesets.provenance import Sourced

MISSIONS = ("assault", "sabotage", "ambush", "escort")
"""frontier.md, Missions, in printed order."""


class Params(msgspec.Struct, frozen=True, kw_only=True):
    """One Frontier rule version; a designer variant overrides any of these."""

    advance_move: float = 10.0
    """Advance: "Move the unit up to 10"."""
    short_move: float = 5.0
    """The 5" moves: fight through's two moves, overwatch, flank, fall back, stim packs, maggots."""
    engagement_range: float = 10.0
    """The 10" of the action and reaction requirements (open fire, overwatch, flank, ...)."""
    max_dice: int = 2
    """"you never roll more than two dice"."""
    losses_share: float = 0.5
    """"at least 50% of the maximum points ... of the attacking force has been destroyed"."""
    points: int = 150
    """Points limit when the match does not set the `points` option ("the point limit for the
    mission" has no number in the text)."""
    losses_of: Literal["points_limit", "army"] = "points_limit"
    """What the attacker's 50% is of: the mission's maximum points (Ending the Game) or the
    points the attacker actually fielded (the victory table's "of attacking force")."""
    role_die: int = 6
    """The die each player rolls to decide attacker and defender."""
    first_player: Literal["attacker", "defender"] = "attacker"
    """Which side takes the first turn."""
    base_contact: float = 0.1
    """Inches of play between two bases that still count as "base contact"."""
    exact_tolerance: float = 0.1
    """How close to "exactly 15"" the new strong point must be, in inches."""
    marker_radius: float = 0.5
    """Radius of markers and tokens, for "in contact with ... evac zones"."""
    marker_scale: int = 1
    """Scale of the VIP marker for line of sight (a person)."""


V1_0 = Params()

SOURCES: dict[str, Sourced] = {
    "advance_move": Sourced(value=10.0, source="rules", note='Actions: Advance, "Move the unit up to 10"".'),
    "short_move": Sourced(value=5.0, source="rules", note="Fight Through, Overwatch, Flank, Fall Back, Stim Packs, Forward Maggots: up to 5\"."),
    "engagement_range": Sourced(value=10.0, source="rules", note='Actions and Reactions: "at least 10" away", "within 10"".'),
    "max_dice": Sourced(value=2, source="rules", note='Advantage and Disadvantage: "you never roll more than two dice".'),
    "losses_share": Sourced(value=0.5, source="rules", note="Ending the Game and the victory table: 50%."),
    "points": Sourced(value=150, source="assumed", note='"select units from that faction up to the point limit for the mission": no mission gives a number. 150 fields four to six units (18-38 points each).'),
    "losses_of": Sourced(value="points_limit", source="assumed", note='Ending the Game says "50% of the maximum points for the mission of the attacking force"; the table\'s "50% of points of attacking force" is read the same way (readings.py).'),
    "role_die": Sourced(value=6, source="assumed", note='"Roll to decide attacker and defender" names no die: a D6 each, the higher roll chooses, ties roll again.'),
    "first_player": Sourced(value="attacker", source="assumed", note="The text does not say who takes the first turn; the attacker, who has the objective, goes first."),
    "base_contact": Sourced(value=0.1, source="assumed", note="Pneumatic Leap's \"base contact\": bases within 0.1\" of touching (a table measures to a tenth of an inch)."),
    "exact_tolerance": Sourced(value=0.1, source="assumed", note='Assault: the new strong point "exactly 15"" away, measured to a tenth of an inch.'),
    "marker_radius": Sourced(value=0.5, source="assumed", note="Markers and tokens are not sized: a 1\" counter. The VIP is 'in contact' with an evac zone when it touches the board edge."),
    "marker_scale": Sourced(value=1, source="assumed", note="Escort's line of sight to the VIP: the VIP is a person, scale 1."),
}

OPTIONS: tuple[Option, ...] = (
    Option(name="mission", default="assault", choices=MISSIONS,
           help='"Prior to playing a game, both players should agree on a mission" (Introduction).'),
    Option(name="points", default=None,
           help="The points limit for the mission; the text gives no number (default: the version's `points`, 150, assumed)."),
    Option(name="factions", default=None,
           help="Optional {seat: faction} agreed before the match; each FactionChosen must then match it."),
    Option(name="armies", default=None,
           help="Optional {seat: [unit type, ...]} agreed before the match (e.g. for simulations); each ArmySelected must then match it."),
)
"""Per-match options: the mission, the points limit, and (optionally) pre-agreed factions and armies."""

VERSIONS: dict[str, Version[Params]] = {
    "1.0": Version(
        id="1.0",
        title="Frontier as written: four missions, four factions",
        params=V1_0,
        sources=SOURCES,
        changelog=(Change(rules=("frontier/setup",), text="The one version of the text: free movement in inches, action and reaction, four missions and four factions."),),
    ),
}
