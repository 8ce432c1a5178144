"""Positions for Warcraft: Frontline rule tests, without playing a whole game to reach them.

Tests feed events through the public Ruleset functions (`setup`, `check`, `apply`,
`outcome`, `legal`, `view`), exactly as a replay does; a position is the set-up state
with a few fields of a side replaced.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets import registry
from rulesets.frontline.events import FrontlineMoved, RoundEnded
from rulesets.frontline.state import Building, Side, State, side, with_side

R = registry.resolve("frontline")
P = R.params
RULESET = R.ruleset
SEATS = {"a": "Ana", "b": "Ben"}


def started(races: dict[str, str] | None = None, seats: dict[str, str] | None = None) -> MatchStarted:
    """A line 0; a plays orc and b human unless `races` says otherwise."""
    options: dict[str, Any] = {"races": races} if races is not None else {}
    return MatchStarted(seq=0, match_id="test", ruleset="frontline", version="1.0", seats=dict(seats or SEATS),
                        options=options, fingerprint=RULESET.fingerprint)


def fresh(races: dict[str, str] | None = None) -> State:
    """The opening position: a's first action round has begun."""
    return RULESET.setup(P, started(races))


def change(state: State, seat: str, **fields: Any) -> State:
    """The state with fields of one side replaced (e.g. units, buildings, gold)."""
    s = side(state, seat)
    assert s is not None
    return with_side(state, msgspec.structs.replace(s, **fields))


def building(kind: str, area: str, number: int = 1, **fields: Any) -> Building:
    """A standing building `<kind>-<number>` in an area."""
    return Building(id=f"{kind}-{number}", kind=kind, area=area, **fields)


def add_buildings(state: State, seat: str, *more: Building) -> State:
    """The side with more buildings (standing unless given a later `ready`)."""
    s = the(state, seat)
    return change(state, seat, buildings=(*s.buildings, *more))


def the(state: State, seat: str) -> Side:
    """The seat's side."""
    s = side(state, seat)
    assert s is not None
    return s


def rules_broken(state: State, event: Event) -> list[str]:
    """Rule ids the event breaks here."""
    return [v.rule for v in RULESET.check(P, state, event)]


def messages(state: State, event: Event) -> list[str]:
    """`rule: message` for every violation."""
    return [f"{v.rule}: {v.message}" for v in RULESET.check(P, state, event)]


def play(state: State, *events: Event) -> State:
    """Apply events in order, each first checked legal."""
    for event in events:
        assert RULESET.check(P, state, event) == [], (event, messages(state, event))
        state = RULESET.apply(P, state, event)
    return state


def end_round(state: State) -> State:
    """The current player ends its round and the table moves the frontline as the rules say."""
    state = play(state, RoundEnded(by=state.current))
    [moved] = RULESET.legal(P, state)
    assert isinstance(moved, FrontlineMoved)
    return play(state, moved)
