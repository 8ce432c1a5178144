"""Bot-played games: the same seed gives the same log, byte for byte.

Chance steps draw from the ruleset's own outcome list with a seeded generator; decisions
go to the seat's bot. Timestamps come from a simulated clock, so nothing depends on when
or where a game was played.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from hashlib import blake2b
from itertools import accumulate
from operator import itemgetter
from typing import Any

from msgspec import UNSET
from msgspec.structs import replace

from events.base import Event
from events.errors import TabletapeError
from events.shared import MatchEnded, MatchStarted
from rulesets.legal import sequence_of
from rulesets.levels import lacks
from rulesets.outcomes import Uniform
from rulesets.protocol import Bot, Outcome, Ruleset
from rulesets.registry import Rules

SIM_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
SIM_STEP = timedelta(seconds=5)
"""Simulated seconds between events (bots do not think; pacing is for human logs)."""


class BotError(Exception):
    """A bot produced an event its own rules call illegal: a bug, with the game to show it."""

    def __init__(self, message: str, events: list[Event]) -> None:
        super().__init__(message)
        self.events = events


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a batch (or of the rollouts from one point): independent of chunking and of the workers."""
    return int.from_bytes(blake2b(f"{seed}/{index}".encode(), digest_size=8).digest(), "big") >> 1


def play(
    rules: Rules,
    seats: Mapping[str, str],
    *,
    seed: int,
    bot: str | Mapping[str, str] | None = None,
    match_id: str | None = None,
    options: Mapping[str, Any] | None = None,
    max_events: int = 20_000,
    audit: bool = True,
) -> list[Event]:
    """Play one game to its end (or `max_events`) and return its log, line 0 first.

    Each step asks the rules once whether the game is over, then either draws a chance
    outcome or hands the legal events to the seat's bot. With `audit`, only an event the
    rules did not themselves offer is checked: what `chance` or `legal` offers is legal by
    the contract (`projections/authoring/contract.py` holds `legal` to exactly what `check` accepts, and
    every chance outcome to what it accepts), so checking it again would only repeat work.
    `bot` is one bot's name for every seat, or a bot per seat; None: the game's default bot.
    `legal` may answer with any sequence: a lazy one (`rulesets.legal.Chain`) is handed to
    the bot as it is, so a random bot makes only the event it picks, and whether the bot's
    event was offered is asked of the sequence (found by identity among those it made).
    """
    ruleset = rules.ruleset
    params = rules.params
    outcome, check, apply = ruleset.outcome, ruleset.check, ruleset.apply
    rng = random.Random(seed)
    bot = bot if bot is not None else bot_name(ruleset, None)
    policies: dict[str, Bot] = {seat: ruleset.bots[bot_name(ruleset, bot if isinstance(bot, str) else bot[seat])] for seat in seats}
    only = next(iter(policies.values())) if len(set(policies.values())) == 1 else None
    # One policy for every seat: the seat to act need not be asked.
    at = SIM_EPOCH
    started = MatchStarted(
        seq=0, at=at, match_id=match_id or f"sim-{ruleset.name}-{rules.version}-{seed}", ruleset=ruleset.name,
        version=rules.version, seats=dict(seats), options=dict(options or {}), params=dict(rules.overrides), seed=seed, source="simulation",
        title=f"{bot if isinstance(bot, str) else 'mixed'} bots, seed {seed}", fingerprint=ruleset.fingerprint,
        package=ruleset.package or UNSET,
    )
    state = ruleset.setup(params, started)
    events: list[Event] = [started]
    result = outcome(params, state)
    while result is None and len(events) < max_events:
        chosen = _next(rules, state, rng, only, policies)
        if chosen is None:
            break
        event, moves = chosen
        offered = moves is None or event in moves  # drawn, or one of the moves (or equal to one): legal either way
        at += SIM_STEP
        event = replace(event, seq=len(events), at=at)
        if audit and not offered:
            problems = [p for p in check(params, state, event) if p.severity != "info"]
            if problems:
                events.append(event)
                raise BotError(f"bot played an illegal {type(event).__name__} at seq {event.seq}: {problems[0].rule}: {problems[0].message}", events)
        events.append(event)
        state = apply(params, state, event)
        result = outcome(params, state)
    if result is not None:
        events.append(MatchEnded(seq=len(events), at=at + SIM_STEP, winner=result.winner, draw=result.draw, reason=result.reason))
    return events


def playout(rules: Rules, state: Any, *, seed: int, bot: str, seq: int,
            max_events: int = 20_000) -> tuple[Outcome | None, int]:
    """Play a game on from `state` (after event `seq`) to its end: how it ended (None when
    it does not end by `max_events` or no one can move) and the seq it ended at. The same loop as `play`,
    kept to what an outcome needs: nothing is checked (the bots pick what the rules offer)
    and no log is kept, so a win chance costs its games' moves, not their logs."""
    result, seq, _ = play_ahead(rules, state, seed=seed, bot=bot, seq=seq, max_events=max_events)
    return result, seq


def play_ahead(rules: Rules, state: Any, *, seed: int, bot: str, seq: int, max_events: int = 20_000,
               rounds: int | None = None) -> tuple[Outcome | None, int, Any]:
    """`playout`, stopped once `rounds` more rounds have begun (the game's `progress`) when
    given: how it ended (None if it had not), the seq and the state it stopped at. A bounded
    look ahead costs a round's moves, not the rest of the game's; the same seed plays the
    same moves as the whole game would, up to where it stops."""
    ruleset = rules.ruleset
    params = rules.params
    outcome, apply, progress = ruleset.outcome, ruleset.apply, ruleset.progress
    rng = random.Random(seed)
    policy = ruleset.bots[bot]  # one bot for every seat: the seat to act need not be asked
    result = outcome(params, state)
    until = None if rounds is None else progress(params, state).round + rounds
    while result is None and seq < max_events:
        if until is not None and progress(params, state).round >= until:
            break
        chosen = _next(rules, state, rng, policy, {})
        if chosen is None:
            break
        seq += 1
        event = chosen[0]
        state = apply(params, state, replace(event, seq=seq))
        result = outcome(params, state)
    return result, seq, state


def bot_name(ruleset: Ruleset[Any], bot: str | None) -> str:
    """The bot asked for, or the game's default; a clear error for a game that has no bots
    (no `legal`) or a name it does not know."""
    missing = lacks(ruleset, "simulate")
    if missing is not None:
        raise TabletapeError(missing)
    name = bot if bot is not None else ruleset.default_bot
    if name is None or name not in ruleset.bots:
        raise TabletapeError(f"unknown bot {name!r} for {ruleset.name}; bots: {', '.join(ruleset.bots)}")
    return name


_weight = itemgetter(1)


def draw(outcomes: Sequence[tuple[Event, float]], rng: random.Random) -> Event:
    """One chance outcome by its weight: exactly `rng.choices`' draw (one `random()` against
    the running total of the weights), so a seed gives the same log as it always did.
    Equally likely outcomes (`Uniform`) give their totals without being made, and only the
    drawn outcome's event is made."""
    if len(outcomes) == 1:
        rng.random()  # choices draws even from one outcome
        return outcomes[0][0]
    if type(outcomes) is Uniform:
        totals = outcomes.totals()
        return outcomes.event(bisect(totals, rng.random() * (totals[-1] + 0.0), 0, len(totals) - 1))
    cumulative = list(accumulate(map(_weight, outcomes)))
    return outcomes[bisect(cumulative, rng.random() * (cumulative[-1] + 0.0), 0, len(outcomes) - 1)][0]


def _next(rules: Rules, state: Any, rng: random.Random, policy: Bot | None,
          policies: Mapping[str, Bot]) -> tuple[Event, Sequence[Event] | None] | None:
    """The next event of a bot game: a chance outcome drawn (with no moves), or the acting
    seat's bot's pick (`policy`, else the seat's own of `policies`) from the legal moves it
    was offered; None when no one can move."""
    ruleset, params = rules.ruleset, rules.params
    outcomes = ruleset.chance(params, state)
    if outcomes is not None:
        return draw(outcomes, rng), None
    moves = sequence_of(ruleset.legal(params, state))  # a lazy sequence stays lazy: a bot makes what it reads
    if not moves:
        return None
    return (policy or _policy(rules, state, policies))(params, state, moves, rng), moves


def _policy(rules: Rules, state: object, policies: Mapping[str, Bot]) -> Bot:
    """The bot of the seat to act (the first seat's when the rules name none)."""
    actor = rules.ruleset.progress(rules.params, state).actor
    policy = policies.get(actor) if actor else None
    return policy or next(iter(policies.values()))
