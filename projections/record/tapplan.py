"""How a person records a given event by taps alone: the recorder's interface, read backwards.

`plan(rules, state, event)` says what the Record page needs tapped to write `event` now:
nothing (the rules force it), a piece and a place on the board (and a word in the picker
where several actions share them), a button beside the board, the parts of a choice made
by pointing (a turn order's heroes, an army's units) in turn, one face per die and Record at
a chance step (a card dealt: the card alone), or Record under the result the rules decided. The browser test
follows these plans to record a golden game again, and the benchmark counts their taps:
the same plan the page is built from, so the count is what a designer taps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from events.base import Event
from events.shared import MatchEnded
from projections.record import dice
from projections.record.recording import forced, same_event
from projections.record.taps import tap_map
from rulesets.registry import Rules

Kind = Literal["forced", "board", "button", "dice", "compose", "end", "not-legal"]


@dataclass(frozen=True)
class Tap:
    """One tap: on the board (a key), a button or picker entry (its words), a die face, a
    part of a composition (its value)."""

    where: Literal["board", "button", "pick", "die", "part", "record"]
    what: str
    die: str = ""
    """For a die face: which die (`tens`)."""
    compose: int = 0
    """For a part or its Record: which of the position's compositions."""


@dataclass(frozen=True)
class Plan:
    """The taps that record one event, in order."""

    kind: Kind
    taps: tuple[Tap, ...] = ()


def plan(rules: Rules, state: Any, event: Event) -> Plan:
    """How `event` is recorded by taps in `state`; `not-legal` when the rules refuse it
    (the table then uses the 'any event' form and insists)."""
    ruleset, params = rules.ruleset, rules.params
    if isinstance(event, MatchEnded):
        return Plan("end", (Tap("record", "result"),))
    implied = forced(rules, state)
    if implied is not None and same_event(implied, event):
        return Plan("forced")
    outcomes = ruleset.chance(params, state)
    if outcomes is not None:
        events = [e for e, _ in outcomes]
        if not any(same_event(e, event) for e in events):
            return Plan("not-legal")
        shown = dice.faces_of(event)
        pad = dice.dice(events)
        faces = tuple(Tap("die", str(shown.get(d.name, dice.MISSING)), die=d.name) for d in pad)
        return Plan("dice", faces if dice.one_tap(pad) else (*faces, Tap("record", "roll")))
    taps = tap_map(rules, state, list(ruleset.legal(params, state)))
    index = taps.composing(event)
    if index is not None:
        made = taps.composes[index]
        parts = tuple(Tap("part", str(value), compose=index) for value in getattr(event, made.field))
        return Plan("compose", parts if made.size is not None else (*parts, Tap("record", "compose", compose=index)))
    mine = next((c for c in taps.choices if same_event(c.event, event)), None)
    if mine is None:
        return Plan("not-legal")
    touch = mine.touch
    if touch.source is None and touch.target is None:
        return Plan("button", (Tap("button", touch.words),))
    out: list[Tap] = []
    if touch.source is not None and touch.source != taps.preselected():
        out.append(Tap("board", touch.source))
    out.append(Tap("board", touch.target if touch.target is not None else touch.source or ""))
    if len(taps.at(touch.source, touch.target)) > 1:
        out.append(Tap("pick", touch.words))
    return Plan("board", tuple(out))
