"""Logs in which the table breaks a forbidding ability once, for the audit to name.

A seeded bot game is played to the first step where a test's `Breaker` finds the situation
it wants (a stunned hero's turn, a mercenary under contract, ...); the table writes the
breaker's event there, then the bots play on from where the table is for a few more
events. The audit of that log must name the mistake once, where it was made, by the
forbidding rule's own id, and nothing after it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from msgspec.structs import replace

from events.base import Event
from events.shared import MatchStarted
from projections.corpus.simulate import SIM_EPOCH, SIM_STEP, draw
from projections.read.audit import audit
from rulesets.legal import sequence_of
from rulesets.registry import Rules

Breaker = Callable[[Rules, Any, Sequence[Event] | None], "Event | tuple[Event, ...] | None"]
"""Given the state and the legal events (None at a chance step), the table's event that
breaks the rule here (or the events it writes, the first breaking it), or None to let the
game go on as the bots and dice play it."""


def broken(rules: Rules, breaker: Breaker, *, prefer: Callable[[Any, Event], bool] | None = None, seeds: range = range(6),
           bot: str = "heuristic", then: int = 40, limit: int = 4000) -> tuple[list[Event], int]:
    """The first seeded game (of `seeds`) where `breaker` strikes: its log up to there, the
    breaker's event, then `then` events the bots play on; with the breaking event's seq.
    Until then the table plays the first legal event `prefer` likes in the state where there is one (to
    bring the situation about: cast the stun, capture the altar), else the bot's."""
    ruleset, params = rules.ruleset, rules.params
    for seed in seeds:
        rng = random.Random(seed)
        started = MatchStarted(seq=0, at=SIM_EPOCH, match_id=f"forbid-{seed}", ruleset=ruleset.name, version=rules.version,
                               seats=dict(ruleset.example_seats), fingerprint=ruleset.fingerprint)
        state = ruleset.setup(params, started)
        events: list[Event] = [started]
        at: int | None = None
        while ruleset.outcome(params, state) is None and len(events) < limit and (at is None or len(events) <= at + then):
            outcomes = ruleset.chance(params, state)
            moves = None if outcomes is not None else sequence_of(ruleset.legal(params, state))
            made = breaker(rules, state, moves) if at is None else None
            if made is not None:
                at = len(events)
                for event in made if isinstance(made, tuple) else (made,):
                    event = replace(event, seq=len(events), at=SIM_EPOCH + SIM_STEP * len(events))
                    events.append(event)
                    state = ruleset.apply(params, state, event)
                continue
            if outcomes is not None:
                event = draw(outcomes, rng)
            elif moves:
                liked = next((m for m in moves if prefer(state, m)), None) if prefer is not None and at is None else None
                event = liked or ruleset.bots[bot](params, state, moves, rng)
            else:
                break
            event = replace(event, seq=len(events), at=SIM_EPOCH + SIM_STEP * len(events))
            events.append(event)
            state = ruleset.apply(params, state, event)
        if at is not None:
            return events, at
    raise AssertionError(f"no game of seeds {seeds} reached the situation")


def findings(events: Sequence[Event], rules: Rules) -> list[tuple[int, str]]:
    """Every error and warning the audit reports: (seq, rule id)."""
    return [(v.seq, v.rule) for v in audit(events, rules).violations if v.severity != "info"]
