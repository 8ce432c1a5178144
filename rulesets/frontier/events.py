"""Frontier's events: the facts of the table, in the order the rules text tells them.

Setup (frontier.md, Setup): the terrain pieces as placed, the roll for attacker and
defender, factions announced, armies chosen in secret, then each mission's deployment.
A turn (Turn Sequence): at most one strategic action, a unit and its action, the
reactive player's reaction or pass, the action roll, and the moves that resolve it.

Chance is its own step, as in OpenSpiel: a reaction is followed by the dice both players
rolled (`ActionRolled`), so a log replays without a random generator and a bot never
chooses a die. Where the table states a result (the die kept, who won), the log keeps
the table's word and the audit compares it with the rules. Positions are inches on the
table, (0, 0) its south-west corner (board.py); heights are in scale.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from events.base import Event

Point = tuple[float, float]
"""(x, y) in inches: x along the 44" long edges, y along the 30" short edges."""


class FrontierEvent(Event, frozen=True, kw_only=True, gc=False):
    """Base of Frontier's own events."""


class Level(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One level of a terrain piece and the terrain rules that apply to units at it.

    "terrain rules may only apply to part of a single piece of terrain ... The ground floor
    of a building might have the Cover terrain rule ... The roof of a building might have the
    Exposed terrain rule" (Terrain). Height 0 is ground level inside the outline (a piece
    without it is solid there); the piece's own scale is its top.
    """

    height: int
    rules: tuple[str, ...] = ()
    """Terrain rule ids: rough, firing_position, exposed, cover, open_sided, hazardous, impassable."""
    name: str = ""


# --- setup (frontier.md, Setup; Setting up a game; Terrain) -----------------------------------


class TerrainPlaced(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A terrain piece was put on the table with the scale and rules the players agreed."""

    piece: str
    outline: tuple[Point, ...]
    scale: int
    levels: tuple[Level, ...] = ()
    label: str = ""


class TerrainMoved(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A piece already on the table was moved while the table was being set up, its shape,
    scale and rules unchanged: `to` is where the centre of its outline (the average of its
    corners) now stands. The text leaves set-up to the players ("You should agree with your
    opponent at the start of the battle", Terrain); moving a piece before the board is
    agreed is assumed (readings: terrain.move)."""

    piece: str
    to: Point


class TerrainAgreed(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """The players agreed the board is set: no more terrain is placed."""


class RolesRolled(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """"Roll to decide attacker and defender": each seat's die (a D6, assumed)."""

    rolls: dict[str, int]


class RoleChosen(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """The seat that won the roll took the attacker's or the defender's side."""

    role: str
    """`attacker` or `defender`."""


class FactionChosen(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A player announced the faction they field ("inform each other which faction")."""

    faction: str


class ArmySelected(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A player chose their units (unit type ids, repeats allowed), kept secret from the other
    player until both have chosen."""

    units: tuple[str, ...]


class EdgeChosen(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A player picked the board edge(s) their mission's deployment names:
    one long edge (Assault, Escort defender) or two adjacent edges (Ambush attacker)."""

    edges: tuple[str, ...]
    """`north`/`south` (the 44" long edges) and `west`/`east` (the 30" short edges)."""


class MarkerPlaced(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A mission marker was placed: the strong point (Assault), target (Sabotage) or VIP (Escort)."""

    marker: str
    point: Point


class UnitDeployed(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A unit was set up on the table at the start of the game."""

    unit: str
    point: Point
    level: int = 0
    """Height it stands at in the terrain piece under it (0 on the ground)."""


class UnitReserved(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A unit was held in reserve instead of deploying (Orbital Drop; Infiltration with its
    three tokens)."""

    unit: str
    tokens: tuple[Point, ...] = ()


class DeploymentDone(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """The player ended a deployment step that places "up to 50%" of their points."""


# --- a turn (frontier.md, Turn Sequence; Actions and Reactions; Action Roll) -----------------


class Passed(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A player let an optional step go by.

    `strategic`: no strategic action this turn; `action`: no unit of the active player may
    take an action (readings.py, turn.no-action), so the turn passes; `reaction`: no reaction
    (the action "automatically succeeds"); `move`: the unit does not take a move it may make;
    `follow_up`: an optional follow-up is not taken (Autoguns, Focus Fire, Unscheduled
    Demolition).
    """

    step: str
    unit: str | None = None


class ActionDeclared(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """The active player chose a unit and its action (advance, open_fire, fight_through,
    bug_out) and, for open fire and fight through, its target."""

    unit: str
    action: str
    target: str | None = None


class ReactionDeclared(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """The reactive player chose a reaction the action allows, made by one of their units."""

    unit: str
    reaction: str


class ActionRolled(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """Both players' dice for an action and its reaction: one die each, or two under
    advantage or disadvantage. The rest is what the table said, if it said: the die size
    rolled, the value kept and who won; left out, the rules decide."""

    active: tuple[int, ...]
    reactive: tuple[int, ...]
    active_die: int | None = None
    reactive_die: int | None = None
    active_kept: int | None = None
    reactive_kept: int | None = None
    winner: Literal["active", "reactive"] | None = None
    """Who the table said won the roll: `active` (the player whose action it is) or `reactive`
    (the player reacting); a seat name such as `p1` is refused when the log is read."""


class UnitMoved(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A unit moved, in a move the rules allow it now (an advance, a reaction's move, ...).

    Only the straight-line distance from start to end is limited ("It may never end its move
    further than the specified distance from its starting point"); `path` gives the points it
    went round on its way, if any, so the audit can check it passed no unit or impassable terrain.
    """

    unit: str
    to: Point
    level: int = 0
    path: tuple[Point, ...] = ()


class NanitesRolled(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """Experimental Nanites' D6: 1-3 mobility, 4-6 assault."""

    value: int


class DisciplineTested(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """Neural Trojan: an enemy unit's discipline roll ("must roll 4 or higher ... or become
    shaken"), with advantage or disadvantage as for any roll."""

    unit: str
    dice: tuple[int, ...]
    die: int | None = None
    passed: bool | None = None


# --- strategic actions (Turn Sequence step 1; Missions; Special Abilities) ----------------------


class StrongPointSeized(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """Assault: the attacker seized the strong point with a unit within 5" of it."""

    unit: str


class ChargePlaced(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """Sabotage: the attacker added a charge counter to the target with a unit within 5"."""

    unit: str


class ChargesDetonated(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """Sabotage: the attacker detonated the charges; every unit within 15" of the target is shaken."""


class ChargeDefused(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """Sabotage: the defender removed a charge counter with a unit within 5" of the target."""

    unit: str


class VipEscorted(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """Escort: the attacker moved the VIP up to 10" (a unit within 5", no enemy within 10" seeing it)."""

    unit: str
    to: Point


class AbilityUsed(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """A unit used a special ability: a strategic one in step 1, or one the text lets it use
    "at any point", "prior to" an action or move, or "when" something happens to it.

    `target` is the unit it chooses, if any; `points` the points it places (a token, two mines,
    the place it drops or ambushes to) with `level` the height it lands at.
    """

    unit: str
    ability: str
    target: str | None = None
    points: tuple[Point, ...] = ()
    level: int = 0


class TokenMoved(FrontierEvent, frozen=True, kw_only=True, gc=False):
    """Knife Missile: the token moved up to 5" as a strategic action."""

    token: str
    to: Point


EVENTS: tuple[type[FrontierEvent], ...] = (
    TerrainPlaced,
    TerrainMoved,
    TerrainAgreed,
    RolesRolled,
    RoleChosen,
    FactionChosen,
    ArmySelected,
    EdgeChosen,
    MarkerPlaced,
    UnitDeployed,
    UnitReserved,
    DeploymentDone,
    Passed,
    ActionDeclared,
    ReactionDeclared,
    ActionRolled,
    UnitMoved,
    NanitesRolled,
    DisciplineTested,
    StrongPointSeized,
    ChargePlaced,
    ChargesDetonated,
    ChargeDefused,
    VipEscorted,
    AbilityUsed,
    TokenMoved,
)
