"""`freeform`: record a playtest of a game nobody has encoded yet (a level 0 game).

The table writes what it did in generic events (an action named by a verb, dice, a score,
the turn passing) and the declared result; replay keeps the scores and the turn, the
warehouse gives score curves and win rates from the declared results. The match's title
names the designer's game across its matches. `tabletape retype` re-reads such a log as a
typed game once one exists.
"""

from __future__ import annotations

from rulesets.freeform.events import (
                  EVENTS,
                  ActionTaken,
                  DiceRolled,
                  ScoreChanged,
                  TurnPassed,
                  dice_of,
)
from rulesets.freeform.rules import apply, describe, metrics, setup, unknown_seat, validate_start
from rulesets.protocol import Ruleset
from rulesets.registry import LOG_ONLY

NAME = LOG_ONLY
"""The game a log-only match is recorded as (`tabletape new --log-only`)."""

RULESET = Ruleset(name=NAME, title="Log only (a game not encoded yet)", events=EVENTS, setup=setup, apply=apply,
                  describe=describe, metrics=metrics, validate_start=validate_start,
                  example_seats={"red": "ana", "blue": "ben"})
"""No checks, no outcome, no board: the table's word is the record."""

__all__ = ["EVENTS", "NAME", "RULESET", "ActionTaken", "DiceRolled", "ScoreChanged", "TurnPassed", "dice_of", "unknown_seat"]
