"""Bots that play MortalGate for simulated playtests.

A bot is a policy: given the params, the state and the legal events, it returns one of
them. Bots may use randomness (they are players, not rules), always from the seeded
generator they are handed, so a simulation replays byte for byte from its seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from itertools import repeat, starmap
from operator import attrgetter, itemgetter

from events.base import Event
from rulesets.mortalgate import board, maps
from rulesets.mortalgate.events import (
    AbilityUsed,
    AltarCaptured,
    AttackDeclared,
    HeroMoved,
    Node,
    TurnStarted,
)
from rulesets.mortalgate.moves import TurnEvents
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.rules import HEALS
from rulesets.mortalgate.state import Hero, State, acting_hero, find, game_map, stats


def random_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Any legal event, uniformly: finds the corners of the rules, not good play."""
    return legal[rng.randrange(len(legal))]


def heuristic_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Capture uncontested altars, heal the wounded, focus fire on the weakest enemy, then
    move toward the nearest altar the team does not hold or the nearest enemy.

    Where the hero may move (`legal`'s `TurnEvents`, two fifths of the decisions) its moves
    come first, where they end read without making them, then the few other events (`rest`),
    scored one by one and kept as the best so far (as `_top` does); no move scores above a
    zone's `ZONE_SCORE`, so a better other event leaves the moves unread, and as the moves' positions all
    come before the others', the best of both are in order as they are joined. (That decision
    is worked out here, not in helpers as `_best` does the others: a Python call is some 800
    instructions, and this is the bot's most frequent decision.)"""
    if type(legal) is TurnEvents:  # (not `isinstance`: an ABC's check is a Python call)
        paths = legal.paths
        count = paths.size + len(legal.rest)  # (`len` of a `Chain` is a Python call)
        top, best = -math.inf, []
        for i, event in enumerate(legal.rest, paths.size):
            score = _FIXED_SCORES.get(type(event))
            if score is None:
                score = _score(params, state, event)
            if score > top:
                top, best = score, [i]
            elif score == top:
                best.append(i)
        if top <= ZONE_SCORE:
            move_score, reached = _best_moves(params, state, legal.hero, paths.ends, paths.reach, top)
            if move_score >= top:
                best = reached + best if move_score == top else reached
    else:
        count = len(legal)
        if count == 1:  # a third of decisions: only the next turn start, nothing to score
            rng.random()  # its one tie-breaking draw, taken all the same
            return legal[0]
        best = _best(params, state, legal)
    # Scoring draws nothing, so the tie-breaking draws, one per event in the order of
    # `legal` (as a `max` over (score, draw) takes them), may be taken after it.
    if len(best) == 1:  # (one best event, two thirds of the time: no tie to break, the draws only taken)
        if type(rng) is random.Random:  # (`_pass_draws`, inline)
            rng.getrandbits(64 * count)
        else:
            _pass_draws(rng, count)
        return legal[best[0]]
    drawn = list(starmap(rng.random, repeat((), count)))  # (a tie: every draw taken, the best events' read)
    if len(best) == count:  # (every event alike, as in placement: the first of the highest draws, found in C)
        return legal[drawn.index(max(drawn))]
    return legal[max(best, key=drawn.__getitem__)]


def _pass_draws(rng: random.Random, count: int) -> None:
    """Takes the `count` numbers `rng.random()` would give, none read, in one call of the
    generator's bits: `random()` makes each number of two 32-bit outputs of the generator,
    and `getrandbits(64 * count)` takes the same 2 * count outputs. Any other generator
    class (one that may draw otherwise) draws them one by one.

    Where the draws are read (a tie), they are drawn one by one: rebuilding the few read
    from one call's bits took more instructions than drawing them all
    (big-int shifts), 760.1M against 759.2M over the benchmark's twelve games."""
    if type(rng) is random.Random:
        rng.getrandbits(64 * count)
    else:
        for _ in range(count):
            rng.random()


def _best(params: Params, state: State, legal: Sequence[Event]) -> list[int]:
    """The positions in `legal` of the events with the best score, in order (a decision
    other than `legal`'s `TurnEvents`, which `heuristic_bot` scores itself the same way).

    Best bound first: the few other events are scored first; moves score at most `ZONE_SCORE`
    (ending in a zone to capture) and otherwise at most `NEAR_SCORE`, so they are read only as far as they can
    still reach the best score, and then as a kind: only their best score is worked out
    exactly, and which moves reach it.
    """
    kinds = list(map(type, legal))
    alike = _by_kind(kinds)
    if alike is not None:
        return alike
    if HeroMoved not in kinds:  # (combat after a move, a respawn's spots: every event scored in one pass)
        return _top(params, state, legal, 0)[1]
    moves, others = _split(kinds)
    scores = {i: _score(params, state, legal[i]) for i in others}
    top = max(scores.values(), default=-math.inf)
    best_moves: list[int] = []
    if moves and top <= ZONE_SCORE:
        paths = list(map(_path, _at(legal, moves)))
        move_score, reached = _best_moves(params, state, acting_hero(state), _cells(params, paths), max(map(len, paths)), top)
        if move_score >= top:
            top, best_moves = move_score, [moves[j] for j in reached]
    chosen = [i for i, score in scores.items() if score == top]
    return sorted(chosen + best_moves) if best_moves and chosen else best_moves or chosen


def _top(params: Params, state: State, events: Sequence[Event], first: int) -> tuple[float, list[int]]:
    """The best score of `events` (no move among them) and the positions of the events that
    score it, counted from `first`, in order: each event scored and kept as the best so far
    (a type whose events all score alike read from `_FIXED_SCORES` first)."""
    top, chosen = -math.inf, []
    for i, event in enumerate(events, first):
        score = _FIXED_SCORES.get(type(event))
        if score is None:
            score = _score(params, state, event)
        if score > top:
            top, chosen = score, [i]
        elif score == top:
            chosen.append(i)
    return top, chosen


_path = attrgetter("path")


def _cells(params: Params, paths: Sequence[tuple[Node, ...]]) -> list[int]:
    """Where each path ends, as a cell (`board.cell`)."""
    height = game_map(params).height
    return [board.cell(path[-1], height) for path in paths]


def _at(legal: Sequence[Event], positions: Sequence[int]) -> Sequence[Event]:
    """The events at `positions` (a slice when they follow each other)."""
    if isinstance(positions, range):
        return legal[positions.start:positions.stop]
    return [legal[i] for i in positions]


ZONE_SCORE = 50.0
"""A move that ends in a zone the team can capture."""
NEAR_SCORE = 20.0
"""A move that ends on a goal; `NEAR_PER_STEP` less per step from the nearest goal."""
NEAR_PER_STEP = 0.5
"""What a move loses per step between where it ends and the nearest goal."""
NO_GOAL_SCORE = 0.5
"""A move where no altar is left to take and no enemy stands."""
OTHER_SCORE = 1.0
"""Any event the heuristic has no score of its own for."""


def _by_kind(kinds: list[type]) -> list[int] | None:
    """The positions of the best events where every event's score is its type's (`kinds`, the
    events' types in order: the draft's picks, placement's spots and orders, some hundred
    events alike a decision), worked out per type, not per event; None where some event is
    scored by what it does (a move, an attack, an ability)."""
    found = set(kinds)
    if not kinds or any(issubclass(kind, _SCORED) for kind in found):
        return None
    score_of = {kind: _FIXED_SCORES.get(kind, OTHER_SCORE) for kind in found}
    top = max(score_of.values())
    if min(score_of.values()) == top:
        return list(range(len(kinds)))
    return [i for i, kind in enumerate(kinds) if score_of[kind] == top]


_SCORED = (AbilityUsed, AttackDeclared, HeroMoved)
"""The event types `_score` and `_best_moves` score by what each event does."""


def _split(kinds: list[type]) -> tuple[Sequence[int], Sequence[int]]:
    """The positions of the moves among the events of types `kinds` and of the other events.
    `legal` offers a hero's moves first, so the common case is answered by counting, not by a
    loop over every event."""
    count = kinds.count(HeroMoved)
    if kinds[:count].count(HeroMoved) == count:
        return range(count), range(count, len(kinds))
    return ([i for i, kind in enumerate(kinds) if kind is HeroMoved],
            [i for i, kind in enumerate(kinds) if kind is not HeroMoved])


def _best_moves(params: Params, state: State, hero: Hero | None, ends: Sequence[int], reach: int,
                rival: float) -> tuple[float, list[int]]:
    """The best score of the moves ending at `ends` (cells, `board.cell`; the longest move
    `reach` steps) and which of them (positions in `ends`) reach it, worked out only as far
    as it can reach `rival` (the best other event's score): standing in a zone we can
    capture (`ZONE_SCORE`) is best, then closer to a goal (`NEAR_SCORE` less `NEAR_PER_STEP`
    per step to the nearest goal). A score below `rival` comes back as minus infinity.
    `hero` is the hero who acts (`legal`'s `TurnEvents` hands it over).

    The goals (open altars, enemies) are their cells, each goal's steps from the hero read
    from the hero's own distance table (steps are the same both ways), so only the goals
    `_nearest` reads have their tables looked up; a node off the map (a table's mistake) has
    no cell, and then every goal's table is worked out (`_goal_tables`).
    """
    team = hero.team if hero else None
    altars, zone, within = _open_altars(params.map, team, state.altars)
    cells, tables = _board_of(params.map)
    here = cells.get(hero.node) if hero else None
    mine = None if here is None else tables[here]
    aways = [] if mine is None else [mine[altar] for altar in altars]
    # Each open altar's steps from the hero: an end in its zone is at most `reach` steps from
    # the hero and `within` from the altar, so no altar that near, no zone is reached.
    if (mine is None or (aways and min(aways) <= reach + within)) and not zone.isdisjoint(ends):
        return ZONE_SCORE, [j for j, end in enumerate(ends) if end in zone]
    if rival > NEAR_SCORE:
        return -math.inf, []
    if mine is None:  # (not in play, or a hero off the map)
        return _goal_tables(params, state, team, altars, ends, hero, reach)
    goals = list(altars)
    for other in state.heroes:
        if other.team != team and (node := other.node) is not None:
            cell = cells.get(node)
            if cell is None:
                return _goal_tables(params, state, team, altars, ends, hero, reach)
            goals.append(cell)
            aways.append(mine[cell])
    if not goals:  # no altar left to take and no enemy standing
        return NO_GOAL_SCORE, list(range(len(ends)))
    nearest, reached = _nearest(tables, goals, aways, ends, reach)
    return NEAR_SCORE - nearest * NEAR_PER_STEP, reached


def _goal_tables(params: Params, state: State, team: str | None, altars: Sequence[int], ends: Sequence[int],
                 hero: Hero | None, reach: int) -> tuple[float, list[int]]:
    """`_best_moves`' nearest goal where a node is off the map or the hero stands nowhere:
    each goal's table by its node (`board.distances_from_each` works out one off the map),
    its steps from the hero measured (every goal read where the hero stands nowhere)."""
    gmap = game_map(params)
    height = gmap.height
    nodes = [(cell // height, cell % height) for cell in altars]
    nodes += [h.node for h in state.heroes if h.team != team and h.node is not None]
    if not nodes:
        return NO_GOAL_SCORE, list(range(len(ends)))
    start = hero.node if hero else None
    aways = [0] * len(nodes) if start is None else [board.distance(start, node) for node in nodes]
    tables = board.distances_from_each(nodes, gmap.width, height)
    nearest, reached = _nearest(tables, range(len(tables)), aways, ends, reach)
    return NEAR_SCORE - nearest * NEAR_PER_STEP, reached


def _nearest(tables: Sequence[tuple[int, ...]], goals: Sequence[int], aways: list[int], ends: Sequence[int],
             reach: int) -> tuple[int, list[int]]:
    """The fewest steps from any end (a cell) to any goal (`tables[goal]`, a
    `board.distances_from` table), and the positions of the ends that far from some goal;
    `aways` are the goals' steps from the hero, in order.

    Best bound first: every move of a decision starts where its hero stands and is at most
    `reach` steps long, so a goal `away` steps from the hero is at least `away - reach` steps
    from every end. The goal nearest the hero is read first, then only the goals no farther
    from the hero than the steps it is from the nearest end found so far plus `reach` (a pass
    over the goals' distances from the hero, not a sort of them).
    """
    read = itemgetter(*ends) if len(ends) > 1 else _one(ends[0])
    at = aways.index(min(aways))
    first = goals[at]
    steps = read(tables[first])
    nearest, lows = min(steps), [steps]
    bound = nearest + reach  # (a goal farther than this from the hero is farther than `nearest` from every end)
    for goal, away in zip(goals, aways, strict=True):
        if away <= bound and goal != first:
            steps = read(tables[goal])
            low = min(steps)
            if low < nearest:
                nearest, lows, bound = low, [steps], low + reach
            elif low == nearest:
                lows.append(steps)
    if len(lows) == 1:  # (one goal nearest, most of the time: its ends are in order already)
        return int(nearest), _where(lows[0], nearest)
    reached = {j for steps in lows for j in _where(steps, nearest)}
    return int(nearest), sorted(reached)


def _where(values: tuple[int, ...], value: float) -> list[int]:
    """The positions of `value` in `values` (few: the ends nearest a goal), found by `index`."""
    found, at = [], -1
    for _ in range(values.count(value)):
        at = values.index(value, at + 1)
        found.append(at)
    return found


def _one(cell: int) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """`itemgetter` of one cell, as a tuple (`itemgetter(x)` alone gives the value)."""
    return lambda table: (table[cell],)


@cache
def _board_of(map_id: str) -> tuple[dict[Node | None, int], tuple[tuple[int, ...], ...]]:
    """A map's cell of each node on it (`board.cell`; a node off the map, or None, has none)
    and its distance tables by cell (`board.distance_tables`)."""
    gmap = maps.load_map(map_id)
    cells: dict[Node | None, int] = {node: board.cell(node, gmap.height) for node in board.all_nodes(gmap.width, gmap.height)}
    return cells, board.distance_tables(gmap.width, gmap.height)


@lru_cache(maxsize=256)
def _open_altars(map_id: str, team: str | None, owners: tuple[str | None, ...]) -> tuple[tuple[int, ...], frozenset[int], int]:
    """The cells (`board.cell`) of the altars a team does not hold, the cells of their zones,
    and the most steps a zone's cell lies from its altar (remembered per owners: altars change
    hands a few dozen times a game)."""
    open_altars = [altar for altar, owner in zip(_altars(map_id), owners, strict=True) if owner != team]
    return (tuple(cell for cell, _, _ in open_altars), frozenset[int]().union(*(zone for _, zone, _ in open_altars)),
            max((within for _, _, within in open_altars), default=0))


@cache
def _altars(map_id: str) -> tuple[tuple[int, frozenset[int], int], ...]:
    """Each altar of a map, in map order: its cell, its zone's cells and the most steps one
    of them lies from the altar (an altar stands in its zone, which is on the map: `maps`
    checks it)."""
    gmap = maps.load_map(map_id)
    width, height = gmap.width, gmap.height
    return tuple((board.cell(altar.node, height),
                  frozenset(board.cell(node, height) for node in altar.zone if board.on_board(node, width, height)),
                  max((board.distance(altar.node, node) for node in altar.zone), default=0))
                 for altar in gmap.altars)


def _score(params: Params, state: State, event: Event) -> float:
    """An event's score (a move's as any other event's: `_best_moves` scores moves); the
    types that always score alike are read from a table by type."""
    if isinstance(event, AbilityUsed):
        return _ability_score(params, state, event)
    if isinstance(event, AttackDeclared):
        target = find(state, event.target)
        return 60.0 - (target.health if target else 0)
    return _FIXED_SCORES.get(type(event), OTHER_SCORE)


_FIXED_SCORES: dict[type, float] = {AltarCaptured: 100.0, TurnStarted: 0.0}
"""The types whose events all score alike, other than `OTHER_SCORE` of any other event."""


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
