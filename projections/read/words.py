"""Events as a person says them: the game's own words, and plain words for the shared events.

Every event list (Record, Replay, the CLI) reads an event in the state before it through
`words`, so a move says "Seiren moves 3 to F7", never a tuple of coordinates.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.base import ENVELOPE, Event
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from rulesets.registry import Rules


def words(rules: Rules, state: Any, event: Event) -> str:
    """An event as a person says it, read in the state before it: the game's own words
    (`Ruleset.describe`) for its events, plain words for the shared ones."""
    match event:
        case MatchStarted():
            return f"{event.title or 'the match'} starts: {rules.ruleset.title} {event.version}, " + \
                ", ".join(f"{seat} ({player})" for seat, player in event.seats.items())
        case Retracted(target_seq=target, reason=reason):
            return f"undo of event {target}" + (f": {reason}" if reason else "")
        case Ruled(rule=rule, decision=decision, applies_to=applies):
            return f"ruling on {rule}" + (f" at event {applies}" if applies else "") + f": {decision}"
        case MatchEnded(winner=winner, draw=draw, reason=reason):
            said = "a draw" if draw else f"{winner} won" if winner else "abandoned"
            return f"the table declares {said}" + (f" ({reason})" if reason else "")
    describe = rules.ruleset.describe
    if describe is not None:
        try:
            return describe(rules.params, state, event)
        except Exception:  # an illegal event may name what the state lacks; its fields still say it
            pass
    fields = summary(event)
    return f"{type(event).__name__}: {fields}" if fields else type(event).__name__


def summary(event: Event) -> str:
    """An event's own fields in one line: `hero drexir · node (3, 4)`."""
    if isinstance(event, MatchStarted):
        return f"{event.ruleset}@{event.version}"
    fields = msgspec.structs.asdict(event)
    return " · ".join(f"{name} {label(value)}" for name, value in fields.items() if name not in ENVELOPE and value is not None)


def label(value: Any) -> str:
    """A field value as a person reads it: `drexir`, `4`, `(3, 4) → (3, 5)`, `table`."""
    if value is None:
        return "table"
    if isinstance(value, tuple | list):
        if value and all(isinstance(v, tuple | list) for v in value):
            return " → ".join(label(v) for v in value)
        return "(" + ", ".join(label(v) for v in value) + ")"
    return str(value)
