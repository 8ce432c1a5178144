"""MortalGate's events: the facts of the table, in the order the rules text tells them.

Chance is its own step, as in OpenSpiel: a decision (`AttackDeclared`) is followed by the
dice that decided it (`AttackRolled`), so every log replays without a random generator
and a bot never chooses a die. Where the table states a result (`hit`, `damage`), the
log keeps the table's word and the audit compares it with the rules.
"""

from __future__ import annotations

from typing import Literal

from events.base import Event

Node = tuple[int, int]
"""(column, row) on the staggered hex map."""

Team = Literal["red", "blue"]


class MortalGateEvent(Event, frozen=True, kw_only=True, gc=False):
    """Base of MortalGate's own events."""


# --- draft (mortalgate.txt, "Draft Phase") -------------------------------------------


class DraftRolled(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """One member of each team rolled 1d6; the higher roll chooses first pick or first turn."""

    red: int
    blue: int


class DraftChoiceMade(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """The team with the higher roll took the first hero pick or the opening turn."""

    team: Team
    choice: Literal["first_pick", "first_turn"]


class HeroPicked(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """A player took a hero from the non-replacing pool."""

    hero: str


class HeroPlaced(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """A picked hero's figure was put on its team's spawn point."""

    hero: str
    node: Node


class TurnOrderSet(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """A team fixed the order its heroes act in; it stays for the rest of the game."""

    team: Team
    heroes: tuple[str, ...]


# --- a hero's turn (mortalgate.txt, "Turn Sequence") ---------------------------------


class TurnStarted(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """The hero's turn began: its upkeep (cooldowns, then status effects) resolves now."""

    hero: str


class HeroRespawned(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """A slain hero returned at its team's spawn point at the start of its turn."""

    hero: str
    node: Node


class HeroMoved(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """The hero walked `path`, one node per movement point (start node not included)."""

    hero: str
    path: tuple[Node, ...]


class EnchantmentTaken(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """Version 2.0: the hero took the enchantment lying on its node."""

    hero: str


class AttackDeclared(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """The hero made a basic attack on `target`; its roll follows."""

    hero: str
    target: str


class AbilityUsed(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """The hero cast an ability as its combat action.

    `target` is a hero id for targeted abilities and None for self abilities. Abilities
    that attack (Long Shot, Cheap Shot) are followed by one `AttackRolled` per target.
    """

    hero: str
    ability: str
    target: str | None = None


class AttackRolled(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """The two distinguishable d10 of a pending attack: tens and ones, "0,0" is 100.

    `hit` and `damage` are what the table applied, if it said; left out, the rules decide.
    """

    target: str
    tens: int
    ones: int
    hit: bool | None = None
    damage: int | None = None


class AltarCaptured(MortalGateEvent, frozen=True, kw_only=True, gc=False):
    """The hero captured the altar whose zone it stands in; this ends the turn."""

    hero: str
    altar: str


EVENTS: tuple[type[MortalGateEvent], ...] = (
    DraftRolled,
    DraftChoiceMade,
    HeroPicked,
    HeroPlaced,
    TurnOrderSet,
    TurnStarted,
    HeroRespawned,
    HeroMoved,
    EnchantmentTaken,
    AttackDeclared,
    AbilityUsed,
    AttackRolled,
    AltarCaptured,
)
