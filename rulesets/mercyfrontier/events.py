"""Mercy Frontier's events: the facts of the table, in the order of the four phases.

Decisions carry `by` (the seat). Chance is its own step, recorded as what it gave: the
mercenary deck's cards as they are flipped into the row (`CardRevealed`), a covered tile's
face when it is uncovered (`TileUncovered`) and the relic card under a middle tile
(`RelicDrawn`), so a log replays without any random generator. Combat has no dice: the
table records the damage it dealt (`CombatResolved`) and the audit checks it.

Spaces are `[column, row]` on the grid (row 0 at the north edge), tiles `[column, row]`
of the 3 x 5 battlefield tiles. Mercenary cards are `raider-3` (the third Raider card).
"""

from __future__ import annotations

from typing import Literal

from events.base import Event
from rulesets.mercyfrontier.board import Space, TilePos
from rulesets.mercyfrontier.resources import NOTHING, Resources

BuildingKind = Literal["refinery", "beacon-biofuel", "beacon-neosteel", "beacon-crystal"]
Direction = Literal["north", "south", "east", "west"]


class MercyEvent(Event, frozen=True, kw_only=True, gc=False):
    """Base of Mercy Frontier's own events."""


# --- chance: the deck, the tiles, the relics ----------------------------------------------


class CardRevealed(MercyEvent, frozen=True, kw_only=True, gc=False):
    """A mercenary card was flipped from the deck into the row (Setup 3; refills, sweeps)."""

    card: str


class TileUncovered(MercyEvent, frozen=True, kw_only=True, gc=False):
    """A covered tile was flipped over and showed `face` (the tiles were "randomly
    distributed", Setup 2: which face lies where is chance, seen when it is uncovered)."""

    tile: TilePos
    face: str


class RelicDrawn(MercyEvent, frozen=True, kw_only=True, gc=False):
    """The relic card under an uncovered middle tile (Setup 2.a) turned out to be `relic`."""

    tile: TilePos
    relic: str


# --- 1. worker phase ------------------------------------------------------------------------


class WorkersPlaced(MercyEvent, frozen=True, kw_only=True, gc=False):
    """Worker Placement: the seat put its workers on these spaces of its uncovered territory."""

    spaces: tuple[Space, ...]


class ResourcesCollected(MercyEvent, frozen=True, kw_only=True, gc=False):
    """Resource Collection: what the seat took from the bank (one per worker on a node, two
    with a refinery, plus a held relic's income)."""

    gained: Resources = NOTHING


class WorkersBought(MercyEvent, frozen=True, kw_only=True, gc=False):
    """Worker Purchase: `count` new workers, usable from next turn."""

    count: int = 1


# --- 2. building phase ------------------------------------------------------------------------


class BuildingBuilt(MercyEvent, frozen=True, kw_only=True, gc=False):
    """A refinery or a beacon was built on a space (Building Phase 1 and 3)."""

    kind: BuildingKind
    space: Space


class OutpostPurchased(MercyEvent, frozen=True, kw_only=True, gc=False):
    """An outpost was bought for a tile a worker touches (Building Phase 2); a covered tile
    is flipped (`TileUncovered`), then the outpost is placed (`OutpostPlaced`)."""

    tile: TilePos


class OutpostPlaced(MercyEvent, frozen=True, kw_only=True, gc=False):
    """"An outpost may then be built on any free tile": the block went on this space."""

    space: Space


# --- 3. mercenaries phase ---------------------------------------------------------------------


class MercenaryHired(MercyEvent, frozen=True, kw_only=True, gc=False):
    """Mercenary Purchase: a card of the row bought with these tokens (worth at least its
    credit cost at the card's own values)."""

    card: str
    paid: Resources


class MarketSwept(MercyEvent, frozen=True, kw_only=True, gc=False):
    """Two resources paid "to sweep for a new set of four mercenaries"."""

    paid: Resources


class MercenaryPlaced(MercyEvent, frozen=True, kw_only=True, gc=False):
    """Mercenary Placement: the card's token put with its top-left corner on `space`."""

    card: str
    space: Space


# --- 4. action phase ----------------------------------------------------------------------------


class AbilityUsed(MercyEvent, frozen=True, kw_only=True, gc=False):
    """A noncombat ability triggered, before movement (Action Phase 1.b)."""

    card: str
    ability: str


class MercenaryMoved(MercyEvent, frozen=True, kw_only=True, gc=False):
    """A mercenary moved `spaces` in one orthogonal direction, trampling the own mercenaries
    named in `trample` on its way (Movement 2.b.i). A second move of the same mercenary in
    the same direction is the victor finishing its movement after a combat (Combat 3.c)."""

    card: str
    direction: Direction
    spaces: int
    trample: tuple[str, ...] = ()


class CombatResolved(MercyEvent, frozen=True, kw_only=True, gc=False):
    """The combat a move started: every listed mercenary took the damage given, all at once.

    `attacker` is the mover, `defenders` the enemies in front of it; `damage` is (card,
    health tokens removed) for each of them, as the table removed them.
    """

    attacker: str
    defenders: tuple[str, ...]
    damage: tuple[tuple[str, int], ...]


# --- every phase ---------------------------------------------------------------------------------


class StepFinished(MercyEvent, frozen=True, kw_only=True, gc=False):
    """The seat is done with its part of the current phase; the other seat (or the next
    phase, or the next turn with the priority token passed) follows."""


EVENTS: tuple[type[MercyEvent], ...] = (
    CardRevealed,
    TileUncovered,
    RelicDrawn,
    WorkersPlaced,
    ResourcesCollected,
    WorkersBought,
    BuildingBuilt,
    OutpostPurchased,
    OutpostPlaced,
    MercenaryHired,
    MarketSwept,
    MercenaryPlaced,
    AbilityUsed,
    MercenaryMoved,
    CombatResolved,
    StepFinished,
)
