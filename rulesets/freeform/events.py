"""The events of a game nobody has encoded yet: what a table can always say it did.

A designer's own game is recorded before it has rules in code: an action named by a verb,
a roll of dice, a change of score, the turn passing on. The shared events (a ruling, the
declared result, undo) come with every game; anything more goes in the action's `data` or
in a note on the event.
"""

from __future__ import annotations

import re
from typing import Annotated

import msgspec

from events.base import Event

Number = int | float
"""A score or a value of an action: whole or not, as the table counts it."""

DICE = re.compile(r"^([1-9][0-9]?)d([1-9][0-9]{0,2})$")
"""`2d6`: how many dice, and how many sides each has (up to 99 dice of up to 999 sides)."""


def dice_of(spec: str) -> tuple[int, int]:
    """(count, sides) of a dice spec such as `2d6`."""
    found = DICE.match(spec)
    if found is None:
        raise ValueError(f"dice {spec!r} is not written as COUNTdSIDES, e.g. 2d6")
    return int(found.group(1)), int(found.group(2))


class ActionTaken(Event, frozen=True, kw_only=True, gc=False):
    """A seat did something the table names with a verb (`builds`, `trades`, `attacks`)."""

    verb: Annotated[str, msgspec.Meta(min_length=1, max_length=60)]
    """The action in the table's own word; the recorder offers the verbs used before."""
    data: dict[str, str | Number] = {}
    """Anything else worth keeping about it: `{"card": "bridge", "cost": 3}`."""


class DiceRolled(Event, frozen=True, kw_only=True, gc=False):
    """Dice thrown at the table, and what they showed: chance kept as data."""

    dice: Annotated[str, msgspec.Meta(pattern=DICE.pattern)]
    """`2d6`: two six-sided dice."""
    faces: tuple[Annotated[int, msgspec.Meta(ge=1)], ...]
    """One face per die, in the order read out."""

    def __post_init__(self) -> None:
        count, sides = dice_of(self.dice)
        if len(self.faces) != count:
            raise ValueError(f"{self.dice} needs {count} faces, not {len(self.faces)}")
        if any(face > sides for face in self.faces):
            raise ValueError(f"a die of {self.dice} has no face above {sides}")


class ScoreChanged(Event, frozen=True, kw_only=True, gc=False):
    """A seat's score moved: by `delta`, or to a new `total` (exactly one of them)."""

    seat: str
    delta: Number | None = None
    total: Number | None = None
    reason: str = ""

    def __post_init__(self) -> None:
        if (self.delta is None) == (self.total is None):
            raise ValueError("a score change gives exactly one of delta and total")


class TurnPassed(Event, frozen=True, kw_only=True, gc=False):
    """The turn passes on: to `to`, or left out, to the next seat in seating order."""

    to: str | None = None


EVENTS: tuple[type[Event], ...] = (ActionTaken, DiceRolled, ScoreChanged, TurnPassed)
"""Every event of a log-only game besides the shared ones."""
