"""Pig: two players race to 20 with one die, at level 4 of tabletape's protocol.

The level-2 game `tabletape init-game` writes, plus a board (`view`, level 3) and the moves
and the die's odds (`legal` and `chance`, level 4), so the random bot plays it
(docs/authoring.md walks through each step).

The rules, whose passages each rule id below (`pig/<id>`) names:
  turn.order  "Players take turns in seating order; the first seat starts."
  roll.first  "On your turn, roll the die as often as you like; read it once it lands."
  roll.face   "The die has six faces, 1 to 6. Each face adds to the turn's total,
               but a 1 loses the turn's total and ends the turn."
  hold        "Instead of rolling, hold: bank the turn's total and end the turn."
  goal        "The first to 20 wins, and the game is over."
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets.protocol import Outcome, Ruleset, Version, Violation
from rulesets.view import BoardView, Panel

replace = msgspec.structs.replace


class Params(msgspec.Struct, frozen=True, kw_only=True):
    """What a version of the game may change."""

    target: int = 20
    """goal: "The first to 20 wins"."""


class Rolled(Event, frozen=True, kw_only=True, gc=False):
    """The player to act chose to roll the die."""


class Landed(Event, frozen=True, kw_only=True, gc=False):
    """The die landed on `face`: chance, written down by the table."""

    face: int


class Held(Event, frozen=True, kw_only=True, gc=False):
    """The player to act banked the turn's total."""


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Scores in seating order, whose turn it is, the turn's total and a die in the air."""

    seats: tuple[str, ...]
    scores: tuple[int, ...]
    actor: str
    turn: int = 1
    total: int = 0
    rolling: bool = False


def setup(params: Params, started: MatchStarted) -> State:
    """Everyone at 0; the first seat starts (turn.order)."""
    seats = tuple(started.seats)
    return State(seats=seats, scores=(0,) * len(seats), actor=seats[0])


def apply(params: Params, state: State, event: Event) -> State:
    """The event as the table played it, legal or not: a replay goes on past a mistake."""
    match event:
        case Rolled():
            return replace(state, rolling=True)
        case Landed(face=1):  # roll.face: "a 1 loses the turn's total and ends the turn"
            return _next_turn(state, state.scores)
        case Landed(face=face):  # roll.face: "each face adds to the turn's total"
            return replace(state, rolling=False, total=state.total + face)
        case Held():  # hold: "bank the turn's total and end the turn"
            at = state.seats.index(state.actor)
            return _next_turn(state, (*state.scores[:at], state.scores[at] + state.total, *state.scores[at + 1:]))
    return state


def _next_turn(state: State, scores: tuple[int, ...]) -> State:
    following = state.seats[(state.seats.index(state.actor) + 1) % len(state.seats)]
    return State(seats=state.seats, scores=scores, actor=following, turn=state.turn + 1)


def check(params: Params, state: State, event: Event) -> list[Violation]:
    """The rule the event breaks, if any, by its id."""
    if not isinstance(event, Rolled | Landed | Held):
        return []  # the events every game shares (MatchEnded, Ruled) are checked by tabletape
    if outcome(params, state) is not None:  # goal: "the first to 20 wins, and the game is over"
        return _broke(event, "goal", "the game is over")
    if isinstance(event, Landed):
        if not state.rolling:  # roll.first: "read it once it lands" (after a roll)
            return _broke(event, "roll.first", "the die landed, but no roll was chosen")
        if not 1 <= event.face <= 6:  # roll.face: "six faces, 1 to 6"
            return _broke(event, "roll.face", f"a die has no face {event.face}")
        return []
    if event.by != state.actor:  # turn.order: "players take turns in seating order"
        return _broke(event, "turn.order", f"it is {state.actor}'s turn, not {event.by}'s")
    if state.rolling:  # roll.first: the die must land before the next choice
        return _broke(event, "roll.first", "the die has not landed yet")
    return []


def _broke(event: Event, rule: str, message: str) -> list[Violation]:
    return [Violation(seq=event.seq, rule=f"pig/{rule}", message=message)]


def outcome(params: Params, state: State) -> Outcome | None:
    """goal: the first to reach the target wins."""
    for seat, score in zip(state.seats, state.scores, strict=True):
        if score >= params.target:
            return Outcome(winner=seat, reason=f"{seat} reached {score}", rule="pig/goal")
    return None


# --- level 3: a board ---------------------------------------------------------------------


def view(params: Params, state: State, seat: str | None) -> BoardView:
    """The scores and the turn's total: all of Pig is open information."""
    rows = (*((s, str(n)) for s, n in zip(state.seats, state.scores, strict=True)),
            ("to act", state.actor), ("turn total", str(state.total)))
    return BoardView(geometry="grid", width=1, height=1, panels=(Panel(title="scores", rows=rows),), seat=seat)


# --- level 4: the moves and the die -------------------------------------------------------


def legal(params: Params, state: State) -> Sequence[Event]:
    """roll.first and hold: roll or hold; nothing once the game is over or the die is in the air."""
    if outcome(params, state) is not None or state.rolling:
        return []
    return [Rolled(by=state.actor), Held(by=state.actor)]


def chance(params: Params, state: State) -> Sequence[tuple[Event, float]] | None:
    """roll.face: each of the six faces, equally likely, once a roll is chosen."""
    if not state.rolling:
        return None
    return [(Landed(face=face), 1 / 6) for face in range(1, 7)]


RULESET = Ruleset(name="pig", title="Pig", events=(Rolled, Landed, Held), setup=setup, apply=apply,
                  check=check, outcome=outcome, view=view, legal=legal, chance=chance,
                  versions={"1": Version(id="1", params=Params(), title="first to 20")},
                  example_seats={"red": "ana", "blue": "ben"})
"""Level 4: a board, the moves and the die, and so a random bot, simulate and compare-versions."""
