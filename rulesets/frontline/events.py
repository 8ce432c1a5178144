"""Warcraft: Frontline's events: the facts of the table, in the order the text tells them.

A player's action round is any number of actions (Playing phase 2: build, destroy,
reallocate workers, train, research), each an event `by` that seat, closed by
`RoundEnded`. The table then counts both military forces and moves the frontline marker
(`FrontlineMoved`, by the table: `by` is null), which the audit checks against the track.
Collection, finished tasks and returning militia at the start of the next action round
follow from the rules alone, so they are not recorded. The game has no chance step.

Buildings are named by id: `base-1` (the starting base), then `<kind>-<n>` numbered per
player in the order built (`barracks-1`, `tower-2`). Areas are `A1`..`A4` (the first
seat's half) and `B1`..`B4` (the second seat's), 1 the front area, 4 the base area.
"""

from __future__ import annotations

from events.base import Event

PLACES = ("idle", "gold", "lumber", "militia")
"""Where a worker may be besides a burrow (named by the burrow's id): at the base doing
nothing, in the gold mine, in the forest, or called up as human militia."""


class FrontlineEvent(Event, frozen=True, kw_only=True, gc=False):
    """Base of Warcraft: Frontline's own events."""


class BuildingBuilt(FrontlineEvent, frozen=True, kw_only=True, gc=False):
    """Playing phase 2a: the player paid for `building` (a kind: `farm`, `tower`, ...) and
    placed it on a site of `area`; it stands once its build time has passed."""

    building: str
    area: str


class BuildingDestroyed(FrontlineEvent, frozen=True, kw_only=True, gc=False):
    """Playing phase 2b: the player destroyed one of its own buildings (by id)."""

    building: str


class WorkersMoved(FrontlineEvent, frozen=True, kw_only=True, gc=False):
    """Playing phase 2c: `count` workers went from `origin` to `to` (`idle`, `gold`,
    `lumber`, `militia`, or a burrow's id)."""

    count: int
    origin: str
    to: str


class TrainingStarted(FrontlineEvent, frozen=True, kw_only=True, gc=False):
    """Playing phase 2d: the player paid for `unit` and `building` (an id) began training it."""

    unit: str
    building: str


class ResearchStarted(FrontlineEvent, frozen=True, kw_only=True, gc=False):
    """Playing phase 2e: the player paid for `tech` and `building` (a war mill or a
    blacksmith, by id) began researching it."""

    tech: str
    building: str


class RoundEnded(FrontlineEvent, frozen=True, kw_only=True, gc=False):
    """The player finished its action round."""


class FrontlineMoved(FrontlineEvent, frozen=True, kw_only=True, gc=False):
    """Playing phase 3: after a player's turn the table counted both military forces and
    set the frontline marker `grids` grids into the half of `toward` (null and 0: the
    middle). `forces`, when the table wrote them down, are checked too."""

    toward: str | None = None
    grids: int = 0
    forces: dict[str, int] | None = None


EVENTS: tuple[type[FrontlineEvent], ...] = (
    BuildingBuilt,
    BuildingDestroyed,
    WorkersMoved,
    TrainingStarted,
    ResearchStarted,
    RoundEnded,
    FrontlineMoved,
)

ACTIONS: tuple[type[FrontlineEvent], ...] = (BuildingBuilt, BuildingDestroyed, WorkersMoved, TrainingStarted, ResearchStarted)
"""The five things a player may do in an action round (Playing phase 2 a-e)."""
