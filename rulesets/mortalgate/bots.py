"""Bots that play MortalGate for simulated playtests.

A bot is a policy: given the params, the state and the legal events, it returns one of
them. Bots may use randomness (they are players, not rules), always from the seeded
generator they are handed, so a simulation replays byte for byte from its seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from events.base import Event
from rulesets.mortalgate import board, maps
from rulesets.mortalgate.events import (
    AbilityUsed,
    AltarCaptured,
    AttackDeclared,
    HeroMoved,
    TurnStarted,
)
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.rules import HEALS
from rulesets.mortalgate.state import State, find, game_map, stats


def random_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Any legal event, uniformly: finds the corners of the rules, not good play."""
    return legal[rng.randrange(len(legal))]


def heuristic_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Capture uncontested altars, heal the wounded, focus fire on the weakest enemy, then
    move toward the nearest altar the team does not hold or the nearest enemy."""
    draws = [rng.random() for _ in legal]
    """One tie-breaking draw per event, in the order of `legal` (as a `max` over (score, draw)
    would take them: scoring draws nothing, so drawing them first gives the same numbers)."""
    if len(legal) == 1:  # a third of decisions: only the next turn start, nothing to score
        return legal[0]
    return legal[max(_best(params, state, legal), key=draws.__getitem__)]


def _best(params: Params, state: State, legal: Sequence[Event]) -> list[int]:
    """The positions in `legal` of the events with the best score, in order. Moves (most of
    the events offered) are scored as a kind: only the best of them is worked out exactly,
    and which moves reach it."""
    moves = [i for i, event in enumerate(legal) if isinstance(event, HeroMoved)]
    moved = [event for event in legal if isinstance(event, HeroMoved)]
    scores = {i: _score(params, state, event) for i, event in enumerate(legal) if not isinstance(event, HeroMoved)}
    move_score, best_moves = _best_moves(params, state, moved) if moved else (-math.inf, [])
    top = max([move_score, *scores.values()])
    chosen = [i for i, score in scores.items() if score == top]
    if move_score == top:
        chosen = sorted(chosen + [moves[j] for j in best_moves])
    return chosen


def _best_moves(params: Params, state: State, moved: list[HeroMoved]) -> tuple[float, list[int]]:
    """The best score of the moves and which of them (positions in `moved`) reach it: standing
    in a zone we can capture (50) is best, then closer to a goal (20 less half the steps to
    the nearest goal).

    Every move of a decision starts where its hero stands and is at most `reach` steps long,
    and a step changes a hex distance by at most one; so a goal more than `2 * reach` farther
    from the hero than the nearest goal is nearer to no end than that goal, and is not read.
    """
    height = game_map(params).height
    rows, zones = _goals(params, state)
    paths = [move.path for move in moved]
    cells = [path[-1][0] * height + path[-1][1] for path in paths]  # board.cell of each end
    in_zone = [j for j, at in enumerate(cells) if zones[at]]
    if in_zone:
        return 50.0, in_zone
    if not rows:  # no altar left to take and no enemy standing
        return 0.5, list(range(len(moved)))
    hero = find(state, moved[0].hero)
    if hero is not None and hero.node is not None:
        here = [row[board.cell(hero.node, height)] for row in rows]
        limit = min(here) + 2 * max(map(len, paths))
        rows = [row for row, away in zip(rows, here, strict=True) if away <= limit]
    columns = [[row[at] for at in cells] for row in rows]
    lows = [min(column) for column in columns]
    nearest = min(lows)
    reached = {j for column, low in zip(columns, lows, strict=True) if low == nearest for j, away in enumerate(column) if away == nearest}
    return 20.0 - nearest * 0.5, sorted(reached)


def _goals(params: Params, state: State) -> tuple[list[tuple[int, ...]], tuple[bool, ...]]:
    """The acting team's goals' distance tables (`board.distances_from`: every move measures
    to each), the altars it does not hold then the enemies on the board, and whether each
    node (at `board.cell`) lies in a zone it can capture."""
    turn = state.turn
    hero = find(state, turn.hero) if turn else None
    team = hero.team if hero else None
    gmap = game_map(params)
    altars, zones = _open_altars(params.map, team, state.altars)
    enemies = [board.distances_from(h.node, gmap.width, gmap.height) for h in state.heroes if h.team != team and h.node is not None]
    return [*altars, *enemies], zones


@lru_cache(maxsize=256)
def _open_altars(map_id: str, team: str | None, owners: tuple[str | None, ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]]:
    """The distance tables of the altars a team does not hold, and whether each node lies in
    one of their zones (remembered per owners: altars change hands a few dozen times a game)."""
    gmap = maps.load_map(map_id)
    open_altars = [a for a, owner in zip(gmap.altars, owners, strict=True) if owner != team]
    zones = frozenset().union(*(a.zone for a in open_altars))
    in_zone = tuple((col, row) in zones for col in range(gmap.width) for row in range(gmap.height))  # at board.cell
    return tuple(board.distances_from(a.node, gmap.width, gmap.height) for a in open_altars), in_zone


def _score(params: Params, state: State, event: Event) -> float:
    if isinstance(event, AltarCaptured):
        return 100.0
    if isinstance(event, AbilityUsed):
        return _ability_score(params, state, event)
    if isinstance(event, AttackDeclared):
        target = find(state, event.target)
        return 60.0 - (target.health if target else 0)
    if isinstance(event, TurnStarted):
        return 0.0
    return 1.0


def _ability_score(params: Params, state: State, event: AbilityUsed) -> float:
    target = find(state, event.target) if event.target else None
    if event.ability in HEALS:
        if target is None:
            return -1.0
        missing = stats(params, target.id).health - target.health
        return 70.0 + missing if missing >= 4 else -1.0
    if event.ability in ("shield_wall", "static_charge", "precision_targeting", "quick_blade"):
        return 30.0
    if event.ability in ("rising_winds", "cheap_shot"):
        return 55.0
    return 65.0 - (target.health if target else 10)


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
