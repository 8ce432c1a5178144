"""Bot-played games: the same seed gives the same log, byte for byte.

Chance steps draw from the ruleset's own outcome list with a seeded generator; decisions
go to the seat's bot. Timestamps come from a simulated clock, so nothing depends on when
or where a game was played.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from events.base import Event
from events.shared import MatchEnded, MatchStarted
from rulesets.protocol import Bot
from rulesets.registry import Rules

SIM_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
SIM_STEP = timedelta(seconds=5)
"""Simulated seconds between events (bots do not think; pacing is for human logs)."""


class BotError(Exception):
    """A bot produced an event its own rules call illegal: a bug, with the game to show it."""

    def __init__(self, message: str, events: list[Event]) -> None:
        super().__init__(message)
        self.events = events


def play(
    rules: Rules,
    seats: Mapping[str, str],
    *,
    seed: int,
    bot: str | Mapping[str, str] = "heuristic",
    match_id: str | None = None,
    options: Mapping[str, Any] | None = None,
    max_events: int = 20_000,
    audit: bool = True,
) -> list[Event]:
    """Play one game to its end (or `max_events`) and return its log, line 0 first."""
    ruleset = rules.ruleset
    rng = random.Random(seed)
    policies: dict[str, Bot] = {seat: ruleset.bots[bot if isinstance(bot, str) else bot[seat]] for seat in seats}
    at = SIM_EPOCH
    started = MatchStarted(
        seq=0, at=at, match_id=match_id or f"sim-{ruleset.name}-{rules.version}-{seed}", ruleset=ruleset.name,
        version=rules.version, seats=dict(seats), options=dict(options or {}), params=dict(rules.overrides), seed=seed, source="simulation",
        title=f"{bot if isinstance(bot, str) else 'mixed'} bots, seed {seed}", fingerprint=ruleset.fingerprint,
    )
    state = ruleset.setup(rules.params, started)
    events: list[Event] = [started]
    while len(events) < max_events and ruleset.outcome(rules.params, state) is None:
        event = _next(rules, state, policies, rng)
        if event is None:
            break
        at += SIM_STEP
        event = msgspec.structs.replace(event, seq=len(events), at=at)
        problems = [p for p in ruleset.check(rules.params, state, event) if p.severity != "info"] if audit else []
        if problems:
            events.append(event)
            raise BotError(f"bot played an illegal {type(event).__name__} at seq {event.seq}: {problems[0].rule}: {problems[0].message}", events)
        events.append(event)
        state = ruleset.apply(rules.params, state, event)
    result = ruleset.outcome(rules.params, state)
    if result is not None:
        events.append(MatchEnded(seq=len(events), at=at + SIM_STEP, winner=result.winner, draw=result.draw, reason=result.reason))
    return events


def _next(rules: Rules, state: object, policies: Mapping[str, Bot], rng: random.Random) -> Event | None:
    ruleset = rules.ruleset
    outcomes = ruleset.chance(rules.params, state)
    if outcomes is not None:
        events, weights = zip(*outcomes, strict=True)
        return rng.choices(events, weights=weights)[0]
    legal = list(ruleset.legal(rules.params, state))
    if not legal:
        return None
    actor = ruleset.progress(rules.params, state).actor
    choice: Event = legal[0]
    policy = policies.get(actor) if actor else None
    policy = policy or next(iter(policies.values()))
    choice = policy(rules.params, state, legal, rng)
    return choice
