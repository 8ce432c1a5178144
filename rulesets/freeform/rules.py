"""A log-only game: no rules, only the table's bookkeeping.

Nothing is ever a rule violation here (there are no rules to break); what the log says
happened, happened. Seats are the one thing checked, before a line is written: a score or
a turn given to a seat the match does not have is a typing slip, not a ruling.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets.freeform.events import ActionTaken, DiceRolled, Number, ScoreChanged, TurnPassed
from rulesets.freeform.state import State


def setup(params: object, started: MatchStarted) -> State:
    """Every seat at 0, the first seat's turn."""
    seats = tuple(started.seats)
    return State(seats=seats, players=dict(started.seats), scores=dict.fromkeys(seats, 0), actor=seats[0] if seats else None)


def apply(params: object, state: State, event: Event) -> State:
    """The bookkeeping one event changes; any other event leaves the state as it was."""
    match event:
        case ActionTaken(verb=verb):
            verbs = state.verbs if verb in state.verbs else (*state.verbs, verb)
            return msgspec.structs.replace(state, verbs=verbs, actions=state.actions + 1)
        case DiceRolled():
            return msgspec.structs.replace(state, rolls=state.rolls + 1)
        case ScoreChanged(seat=seat):
            return msgspec.structs.replace(state, scores={**state.scores, seat: new_score(state, event)})
        case TurnPassed():
            return msgspec.structs.replace(state, actor=next_actor(state, event), turn=state.turn + 1)
    return state


def new_score(state: State, event: ScoreChanged) -> Number:
    """The seat's score after the change: the total given, else the old score plus delta."""
    return event.total if event.total is not None else state.score(event.seat) + (event.delta or 0)


def next_actor(state: State, event: TurnPassed) -> str | None:
    """Whose turn it is after a pass: the seat named, else the one after the passer (the
    seat to act when the pass names nobody) in seating order."""
    if event.to is not None:
        return event.to
    passer = event.by or state.actor
    if passer not in state.seats:
        return state.actor
    return state.seats[(state.seats.index(passer) + 1) % len(state.seats)]


def describe(params: object, state: State, event: Event) -> str:
    """An event as the table would say it: 'ana rolls 2d6: 3 + 5', 'ben scores +4 (12)'."""
    who = state.who(event.by)
    match event:
        case ActionTaken(verb=verb, data=data):
            extra = ", ".join(f"{key} {value}" for key, value in data.items())
            return f"{who} {verb}" + (f" ({extra})" if extra else "")
        case DiceRolled(dice=dice, faces=faces):
            sum_of = f" = {sum(faces)}" if len(faces) > 1 else ""
            return f"{who} rolls {dice}: {' + '.join(map(str, faces))}{sum_of}"
        case ScoreChanged(seat=seat, delta=delta, reason=reason):
            after = _number(new_score(state, event))
            change = f"scores {delta:+g} ({after})" if delta is not None else f"is set to {after}"
            return f"{state.who(seat)} {change}" + (f": {reason}" if reason else "")
        case TurnPassed():
            return f"{who} passes the turn to {state.who(next_actor(state, event))}"
    return type(event).__name__


def _number(value: Number) -> str:
    """A score as the table writes it: 12, or 2.5."""
    return f"{value:g}"


def metrics(params: object, state: State) -> dict[str, float]:
    """Every seat's score, and `score`: the first seat's lead over the best other seat (so
    lead changes and comebacks are read from it), for score curves in the warehouse."""
    out = {f"score.{seat}": float(points) for seat, points in state.scores.items()}
    if state.seats:
        first, *others = state.seats
        best_other = max((state.score(s) for s in others), default=0)
        out["score"] = float(state.score(first) - best_other)
    return out


def validate_start(params: object, started: MatchStarted) -> list[str]:
    """At least one seat, each with a seat id and a player's name."""
    if not started.seats:
        return ["a log-only match needs at least one seat, e.g. --seats red=ana,blue=ben"]
    return [f"seat {seat!r} needs a seat id and a player, as seat=player" for seat, player in started.seats.items()
            if not seat.strip() or not player.strip()]


def seats_named(event: Event) -> Iterable[str]:
    """The seats an event names: who did it, whose score moved, whom the turn passes to."""
    if event.by is not None:
        yield event.by
    if isinstance(event, ScoreChanged):
        yield event.seat
    if isinstance(event, TurnPassed) and event.to is not None:
        yield event.to


def unknown_seat(started: MatchStarted, event: Event) -> str | None:
    """Why an event cannot be written to this match (it names a seat it lacks); None if it can."""
    for seat in seats_named(event):
        if seat not in started.seats:
            return f"match {started.match_id} has no seat {seat!r}; seats: {', '.join(started.seats)}"
    return None
