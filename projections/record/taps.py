"""Taps on the board -> events: the legal events grouped by where they are made.

A ruleset's `touch` says, for each legal event, which piece or card it starts from and
which place or piece it ends at (`rulesets.view.Touch`). Grouped by those keys, the legal
events become a map the board can light up: tap a piece and its targets light; tap a target
and the one event there is the one recorded, or a short picker in the game's words names
the few that share it. Nothing here knows a game: every game gets tap recording through
the protocol, and the recorder never offers an event `legal` did not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from events.base import Event
from projections.record.recording import words
from rulesets.registry import Rules
from rulesets.view import Compose, Touch


@dataclass(frozen=True)
class Choice:
    """One legal event and where it is made."""

    event: Event
    touch: Touch


@dataclass(frozen=True)
class TapMap:
    """The legal events of one moment, keyed by the taps that make them; and the events the
    move generator proposes that the rules refuse (a table's usual mistakes: an attack out of
    range, an ability on cooldown), so a tap on one can be shown and, if the table insists,
    recorded."""

    choices: tuple[Choice, ...]
    refused: tuple[Choice, ...] = ()
    composes: tuple[Compose, ...] = ()
    """Choices made by pointing at several things in turn (a turn order, an army): built tap
    by tap beside the board, so the legal events they cover are not listed as buttons."""

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
        return [c for c in self.choices if c.touch.source is None and c.touch.target is None
                and not any(made.covers(c.event) for made in self.composes)]

    def composing(self, event: Event) -> int | None:
        """The index of the composition that makes `event`, if one does."""
        return next((i for i, made in enumerate(self.composes) if made.covers(event)), None)

    def at(self, source: str | None, target: str | None) -> list[Choice]:
        """The choices a tap of `target` (after `source`) makes."""
        return [c for c in self.choices if c.touch.source == source and c.touch.target == target]

    def preselected(self) -> str | None:
        """The one piece every sourced action starts from (the hero whose turn it is), so
        the table taps only where it goes; None when there is a choice of piece."""
        sources = self.sources()
        return next(iter(sources)) if len(sources) == 1 else None

    def refused_at(self, source: str | None, target: str | None) -> list[Choice]:
        """The refused events a tap of `target` (after `source`) would make."""
        return [c for c in self.refused if c.touch.source == source and c.touch.target == target]

    def board_data(self) -> dict[str, Any]:
        """What the board component needs to light up taps: plain JSON. Refused targets are
        not lit, but a tap on one is sent (the page says what the rules refuse)."""
        refused: dict[str, list[str | None]] = {}
        for choice in self.refused:
            refused.setdefault(choice.touch.source or "", []).append(choice.touch.target)
        return {"sources": self.sources(), "direct": self.direct(), "selected": self.preselected(), "refused": refused}


def fallback_touch(words: str) -> Touch:
    """An event a game does not place on the board: a button with its words."""
    return Touch(words=words)


def tap_map(rules: Rules, state: Any, events: Sequence[Event], refused: Sequence[Event] = ()) -> TapMap:
    """The legal `events` of `state` with where each is made (a button in words where the
    game has no `touch`), and the `refused` ones where the game places them on the board."""
    ruleset, params = rules.ruleset, rules.params
    touch = ruleset.touch
    legal = _unique(events)
    composes = tuple(ruleset.compose(params, state)) if ruleset.compose and legal else ()
    if touch is None:
        return TapMap(tuple(Choice(event, fallback_touch(words(rules, state, event))) for event in legal), composes=composes)
    made = TapMap(tuple(Choice(event, touch(params, state, event)) for event in legal), composes=composes)
    return with_refused(rules, state, made, refused) if refused else made


def with_refused(rules: Rules, state: Any, taps: TapMap, refused: Sequence[Event]) -> TapMap:
    """`taps` with the `refused` events the game places on the board: asked for once a tap
    lands where nothing legal is made, since checking every mistake the move generator
    offers costs more than the rest of the map."""
    touch = rules.ruleset.touch
    if touch is None:
        return taps
    taken = {msgspec.json.encode(c.event) for c in taps.choices}
    mistakes = []
    for event in _unique(refused):
        if msgspec.json.encode(event) not in taken:
            try:
                place = touch(rules.params, state, event)
            except Exception:  # a refused event may name what the state lacks: it has no place then
                continue
            if place.source is not None or place.target is not None:
                mistakes.append(Choice(event, place))
    return dataclasses.replace(taps, refused=tuple(mistakes))


def _unique(events: Sequence[Event]) -> list[Event]:
    """`events` without repeats (a sampled `legal` may offer one event twice)."""
    unique: dict[bytes, Event] = {}
    for event in events:
        unique.setdefault(msgspec.json.encode(event), event)
    return list(unique.values())


def refused(rules: Rules, state: Any) -> list[Event]:
    """What the game's move generator proposes now, and the mistakes it offers a table
    (`attempts`), that the rules refuse (empty at a chance step or for a game with neither)."""
    ruleset, params = rules.ruleset, rules.params
    if ruleset.chance(params, state) is not None:
        return []
    proposed = [*(ruleset.candidates(params, state) if ruleset.candidates else ()),
                *(ruleset.attempts(params, state) if ruleset.attempts else ())]
    return [e for e in proposed if any(v.severity != "info" for v in ruleset.check(params, state, e))]
