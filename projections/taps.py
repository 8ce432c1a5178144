"""Taps on the board -> events: the legal events grouped by where they are made.

A ruleset's `touch` says, for each legal event, which piece or card it starts from and
which place or piece it ends at (`rulesets.view.Touch`). Grouped by those keys, the legal
events become a map the board can light up: tap a piece and its targets light; tap a target
and the one event there is the one recorded, or a short picker in the game's words names
the few that share it. Nothing here knows a game: every game gets tap recording through
the protocol, and the recorder never offers an event `legal` did not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from events.base import Event
from projections.recording import words
from rulesets.registry import Rules
from rulesets.view import Touch


@dataclass(frozen=True)
class Choice:
    """One legal event and where it is made."""

    event: Event
    touch: Touch


@dataclass(frozen=True)
class TapMap:
    """The legal events of one moment, keyed by the taps that make them."""

    choices: tuple[Choice, ...]

    def sources(self) -> dict[str, list[str | None]]:
        """Each tappable piece or card -> the places its actions end at (None: itself)."""
        found: dict[str, list[str | None]] = {}
        for choice in self.choices:
            source = choice.touch.source
            if source is not None:
                targets = found.setdefault(source, [])
                if choice.touch.target not in targets:
                    targets.append(choice.touch.target)
        return found

    def direct(self) -> list[str]:
        """Places tapped alone: an action with no piece to start from (a card to pick, a
        space to place on)."""
        return list(dict.fromkeys(c.touch.target for c in self.choices
                                  if c.touch.source is None and c.touch.target is not None))

    def buttons(self) -> list[Choice]:
        """Actions with no place on the board ('end the turn'), drawn beside it."""
        return [c for c in self.choices if c.touch.source is None and c.touch.target is None]

    def at(self, source: str | None, target: str | None) -> list[Choice]:
        """The choices a tap of `target` (after `source`) makes."""
        return [c for c in self.choices if c.touch.source == source and c.touch.target == target]

    def preselected(self) -> str | None:
        """The one piece every sourced action starts from (the hero whose turn it is), so
        the table taps only where it goes; None when there is a choice of piece."""
        sources = self.sources()
        return next(iter(sources)) if len(sources) == 1 else None

    def board_data(self) -> dict[str, Any]:
        """What the board component needs to light up taps: plain JSON."""
        return {"sources": self.sources(), "direct": self.direct(), "selected": self.preselected()}


def fallback_touch(words: str) -> Touch:
    """An event a game does not place on the board: a button with its words."""
    return Touch(words=words)


def tap_map(rules: Rules, state: Any, events: Sequence[Event]) -> TapMap:
    """The legal `events` of `state` with where each is made (a button in words where the
    game has no `touch`)."""
    ruleset, params = rules.ruleset, rules.params
    unique: dict[bytes, Event] = {}
    for event in events:  # a sampled `legal` may offer one event twice; the picker shows it once
        unique.setdefault(msgspec.json.encode(event), event)
    touch = ruleset.touch
    if touch is not None:
        return TapMap(tuple(Choice(event, touch(params, state, event)) for event in unique.values()))
    return TapMap(tuple(Choice(event, fallback_touch(words(rules, state, event))) for event in unique.values()))
