"""Pig's rules: a turn's rolls and holds, folded and checked as the rules text says."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets.protocol import Outcome, Violation
from rulesets.view import BoardView, Panel


class Params(msgspec.Struct, frozen=True, kw_only=True):
    """What a version of Pig may change: the score that wins."""

    goal: int = 100
    """'The first to 100 wins.'"""


def goal(params: object) -> int:
    """The winning score: a version's, else the text's 100 (a game without versions)."""
    return params.goal if isinstance(params, Params) else Params().goal


class Rolled(Event, frozen=True, kw_only=True, gc=False):
    """The player to act chose to roll the die."""


class Landed(Event, frozen=True, kw_only=True, gc=False):
    """The die showed a face (a chance step)."""

    face: int


class Held(Event, frozen=True, kw_only=True, gc=False):
    """The player to act banked the turn's total."""


EVENTS: tuple[type[Event], ...] = (Rolled, Landed, Held)


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Scores in seating order, whose turn it is, and the turn's total so far."""

    seats: tuple[str, ...]
    scores: tuple[int, ...]
    actor: str
    turn: int = 1
    total: int = 0
    rolling: bool = False
    """A roll was chosen and the die has not landed yet."""


def setup(params: object, started: MatchStarted) -> State:
    """Everyone at 0; the first seat starts."""
    seats = tuple(started.seats)
    return State(seats=seats, scores=(0,) * len(seats), actor=seats[0])


def apply(params: object, state: State, event: Event) -> State:
    """A face adds to the turn's total, a 1 loses it; holding banks it. Either ends the turn."""
    if isinstance(event, Rolled):
        return msgspec.structs.replace(state, rolling=True)
    if isinstance(event, Landed):
        if event.face == 1:
            return _next_turn(state, state.scores)
        return msgspec.structs.replace(state, rolling=False, total=state.total + event.face)
    if isinstance(event, Held):
        at = state.seats.index(state.actor)
        return _next_turn(state, (*state.scores[:at], state.scores[at] + state.total, *state.scores[at + 1:]))
    return state


def _next_turn(state: State, scores: tuple[int, ...]) -> State:
    following = state.seats[(state.seats.index(state.actor) + 1) % len(state.seats)]
    return State(seats=state.seats, scores=scores, actor=following, turn=state.turn + 1)


def check(params: object, state: State, event: Event) -> list[Violation]:
    """Only the player to act rolls or holds; a die shows 1 to 6, and only after a roll."""
    if outcome(params, state) is not None and isinstance(event, (Rolled, Landed, Held)):
        return [Violation(seq=event.seq, rule="pig/game-over", message="the game is over: someone reached the goal")]
    if isinstance(event, Landed):
        if not state.rolling:
            return [Violation(seq=event.seq, rule="pig/roll.first", message="the die landed, but no roll was chosen")]
        if not 1 <= event.face <= 6:
            return [Violation(seq=event.seq, rule="pig/roll.face", message=f"a die has no face {event.face}")]
        return []
    if isinstance(event, (Rolled, Held)):
        if event.by != state.actor:
            return [Violation(seq=event.seq, rule="pig/turn.actor", message=f"it is {state.actor}'s turn, not {event.by}'s")]
        if state.rolling:
            return [Violation(seq=event.seq, rule="pig/roll.first", message="the die has not landed yet")]
    return []


def outcome(params: object, state: State) -> Outcome | None:
    """The first to reach the goal wins."""
    for seat, score in zip(state.seats, state.scores, strict=True):
        if score >= goal(params):
            return Outcome(winner=seat, reason=f"{seat} reached {score}", rule="pig/goal")
    return None


def legal(params: object, state: State) -> Sequence[Event]:
    """Roll or hold; while the die is in the air, its faces."""
    if state.rolling:
        return [Landed(face=face) for face in range(1, 7)]
    return [Rolled(by=state.actor), Held(by=state.actor)]


def chance(params: object, state: State) -> Sequence[tuple[Event, float]] | None:
    """Each face of the die, equally likely, once a roll is chosen."""
    return [(Landed(face=face), 1 / 6) for face in range(1, 7)] if state.rolling else None


def view(params: object, state: State, seat: str | None) -> BoardView:
    """No board: the scores and the turn's total."""
    rows = (*((s, str(n)) for s, n in zip(state.seats, state.scores, strict=True)), ("turn total", str(state.total)))
    return BoardView(geometry="grid", width=1, height=1, panels=(Panel(title="scores", rows=rows),), seat=seat)
