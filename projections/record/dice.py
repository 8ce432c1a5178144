"""Chance outcomes as dice: what a dice pad shows for any game's chance step.

At a chance step a ruleset lists every outcome as an event (`Ruleset.chance`). Each field
that differs between the outcomes is a die the table rolled: an int field is one die
(`tens`), a tuple one die per position (`active 1`, `active 2`), a mapping one die per key
(`rolls p1`). The pad shows each die's faces; the faces tapped narrow the outcomes, and
when one is left it is the event to record. Works for any game through the protocol alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from events.base import ENVELOPE, Event

OWN = ENVELOPE | {"type"}
"""What is not a die: the envelope and the tag."""
MISSING = "—"
"""The face of a die an outcome does not roll (fewer dice in that outcome)."""


@dataclass(frozen=True)
class Die:
    """One die of the pad: its name and the faces it can show at this step."""

    name: str
    faces: tuple[Any, ...]


def faces_of(event: Event) -> dict[str, Any]:
    """Every die face an outcome event shows, flattened: {'tens': 4, 'ones': 7}."""
    flat: dict[str, Any] = {}
    for name, value in msgspec.to_builtins(event).items():
        if name in OWN:
            continue
        if isinstance(value, list | tuple):
            for index, item in enumerate(value, start=1):
                flat[f"{name} {index}"] = _face(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                flat[f"{name} {key}"] = _face(item)
        else:
            flat[name] = _face(value)
    return flat


def _face(value: Any) -> Any:
    """A face as the pad shows it: numbers and words as they are, anything else as JSON."""
    if value is None or isinstance(value, int | float | str | bool):
        return value
    return msgspec.json.encode(value).decode()


def dice(outcomes: Sequence[Event]) -> list[Die]:
    """The dice of a chance step: the flattened fields whose faces differ between outcomes."""
    flats = [faces_of(e) for e in outcomes]
    names = list(dict.fromkeys(name for flat in flats for name in flat))
    found = []
    for name in names:
        faces = list(dict.fromkeys(flat.get(name, MISSING) for flat in flats))
        if len(faces) > 1:
            found.append(Die(name, tuple(_ordered(faces))))
    return found


def _ordered(faces: list[Any]) -> list[Any]:
    """Numbers low to high (a die reads that way); anything else as the rules listed it."""
    if all(isinstance(f, int | float) and not isinstance(f, bool) for f in faces):
        return sorted(faces)
    return faces


def narrow(outcomes: Sequence[Event], picked: Mapping[str, Any]) -> list[Event]:
    """The outcomes that show every face picked so far."""
    return [e for e in outcomes if all(faces_of(e).get(name, MISSING) == face for name, face in picked.items())]


def possible(outcomes: Sequence[Event], die: Die, picked: Mapping[str, Any]) -> list[Any]:
    """The faces of `die` still possible given the other dice picked (a pad greys the rest)."""
    others = {name: face for name, face in picked.items() if name != die.name}
    left = narrow(outcomes, others)
    shown = {faces_of(e).get(die.name, MISSING) for e in left}
    return [face for face in die.faces if face in shown]


def one_tap(pad: Sequence[Die]) -> bool:
    """Whether a tap on a face is the whole outcome, written at once: one die whose faces are
    not numbers (a card dealt or drawn, a hymn): the card tapped says all the roll means, so
    a deal is one tap a card. A number's meaning (a hit, a miss) is shown before Record."""
    return len(pad) == 1 and not any(isinstance(f, int | float) and not isinstance(f, bool) for f in pad[0].faces)
