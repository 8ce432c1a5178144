"""What may happen next: the decisions a player may take, and the dice a chance step may show.

`candidates` proposes from the geometry; `legal` is the candidates `rules.check` accepts,
built in play from the same rules asked once per decision (bots ask at every step), and
held to `check` by the contract suite, so it can never offer a move the audit would flag.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from itertools import permutations
from types import MappingProxyType
from typing import NamedTuple, overload

from events.base import Event
from rulesets.legal import Chain, Lazy
from rulesets.mortalgate import board, heroes, maps
from rulesets.mortalgate.events import (
    AbilityUsed,
    AltarCaptured,
    AttackDeclared,
    AttackRolled,
    DraftChoiceMade,
    DraftRolled,
    EnchantmentTaken,
    HeroMoved,
    HeroPicked,
    HeroPlaced,
    HeroRespawned,
    Node,
    TurnOrderSet,
    TurnStarted,
)
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.rules import HARMLESS, HEALS, SELF_ABILITIES, check, outcome, picking_team
from rulesets.mortalgate.state import (
    Hero,
    State,
    Turn,
    acting_hero,
    contested,
    cooldown,
    find,
    game_map,
    has_line_of_sight,
    movement_allowance,
    next_hero,
    occupied,
    reach_of,
    sequence,
    sight_blockers,
)
from rulesets.outcomes import Uniform


def chance(params: Params, state: State) -> Sequence[tuple[Event, float]] | None:
    """At a chance step, every outcome with its probability; None at a decision. Every
    outcome is equally likely (two d6, two d10), so the answer is `Uniform`: the play loop
    draws from its running totals, the same floats as the list's, without weighing a
    hundred outcomes at each attack roll."""
    if state.stage == "draft" and state.draft.winner is None:
        return Uniform(_DRAFT_ROLLS, _itself)
    turn = state.turn
    if state.stage == "play" and turn is not None and turn.pending:
        return Uniform(_attack_rolls(turn.pending[0].target), _itself)
    return None


_DRAFT_ROLLS: tuple[Event, ...] = tuple(DraftRolled(red=r, blue=b) for r in range(1, 7) for b in range(1, 7))
"""The 36 faces of the draft's two d6 (frozen: the same events for every draft)."""


def _itself(event: Event) -> Event:
    """The outcome's event, made already (`Uniform` makes each outcome from its value)."""
    return event


@lru_cache(maxsize=64)  # a game has a few heroes; a recorded log may name others
def _attack_rolls(target: str) -> tuple[Event, ...]:
    """The hundred faces of the two D10 rolled against a target: the same frozen events for
    every roll against that hero (a game rolls hundreds of times, for a few heroes)."""
    return tuple(AttackRolled(target=target, tens=t, ones=o) for t in range(10) for o in range(10))


def legal(params: Params, state: State) -> Sequence[Event]:
    """Every event that may come next and that the rules accept.

    In play (nearly every decision) the events are built from the rules directly: what
    `check` would ask of each candidate (range, cooldown, sight, contention) asked once
    here, the moves made only when read (`TurnEvents`); in placement every candidate is
    legal. The draft keeps the candidates `check` accepts, checking one pick per seat
    (`_legal_draft`). The contract suite (`check_legal_is_what_check_accepts`) holds them
    all to the same events in the same order.
    """
    if state.stage == "play" and (state.turn is None or not state.turn.pending):  # (no dice waiting: what `chance` asks in play)
        return _legal_turn(params, state) if outcome(params, state) is None else []
    outcomes = chance(params, state)
    if outcomes is not None:
        return [event for event, _ in outcomes]
    if state.stage == "play":
        return _legal_turn(params, state) if outcome(params, state) is None else []
    if state.stage == "placement":
        # Every placement candidate is legal: each unplaced hero, by its own seat, on a free
        # node of its team's spawn (`_check_hero_placed`); each team not yet ordered, every
        # order of exactly its heroes (`_check_turn_order`).
        return list(_placement(params, state))
    return _legal_draft(params, state)


def _legal_draft(params: Params, state: State) -> list[Event]:
    """The draft's candidates `check` accepts. A pick's checks ask about its hero only
    whether it is in the pool and not yet picked, which every candidate is (`_draft`), and
    otherwise only about its seat (the turn to pick, the seat's fair share): so each seat's
    picks are all accepted or all refused, and one pick per seat is checked."""
    if state.draft.first_pick is None:  # the winner's choice: two candidates
        return [e for e in _draft(params, state) if not check(params, state, e)]
    team = picking_team(state)
    taken = {hero for hero, _ in state.draft.picks}
    pool = [hero for hero in heroes.HEROES if hero not in taken]
    picks: list[Event] = []
    for seat, seat_team in state.seats:
        if seat_team == team and pool and not check(params, state, HeroPicked(by=seat, hero=pool[0])):
            picks += [HeroPicked(by=seat, hero=hero) for hero in pool]
    return picks


def _legal_turn(params: Params, state: State) -> Sequence[Event]:
    """The acting hero's legal events, in `_turn`'s order, then the next hero's turn start
    (always legal at a decision: the fixed order names it and no dice are waiting)."""
    turn = state.turn
    order = state.play_order or sequence(state)  # (`next_hero`, inline: every decision asks)
    coming = order[state.cursor % len(order)] if order else None
    acting = turn.hero if turn else None
    hero = seat = None
    for each in state.heroes:  # (`find` of both at once: every decision asks)
        if hero is None and each.id == acting:
            hero = each
        if seat is None and each.id == coming:
            seat = each.seat
    start: list[Event] = [TurnStarted(by=seat, hero=coming)] if coming else []
    if turn is None or hero is None or turn.phase == "done":  # a capture ended the turn
        return start
    by = hero.seat
    if not hero.alive:
        if turn.phase != "upkeep" or not turn.returning:  # "at the beginning of that hero's next turn"
            return start
        taken = occupied(state)
        return [*(HeroRespawned(by=by, hero=hero.id, node=node) for node in game_map(params).spawns[hero.team]
                  if node not in taken), *start]
    # Every move is legal: paths come from `reachable`, which keeps to free, passable, adjacent
    # nodes within the movement left (none when stunned), offered only in upkeep or movement.
    paths = _move_paths(params, state, hero)
    kept: list[Event] = []
    if params.bonuses == "enchantments" and hero.enchantment is None and any(node == hero.node for node, _ in state.enchantments):
        kept.append(EnchantmentTaken(by=by, hero=hero.id))
    kept += _legal_combat(params, state, hero, turn)
    for index, altar in _altars_around(params.map).get(hero.node, ()):
        if state.altars[index] != hero.team and not contested(params, state, altar.id, hero.team):
            kept.append(AltarCaptured(by=by, hero=hero.id, altar=altar.id))
    kept += start
    return TurnEvents(paths, hero, kept) if paths.size else kept


class TurnEvents(Chain[Event]):
    """A hero's legal events where it may move: its moves first, each made only when read (a
    `Lazy` run: a bot plays one of some thirty, and the play loop finds the one it played by
    identity), then the other events as a list. `paths` is the moves' `Walk`, so the
    heuristic reads where the moves end without making them, `rest` the other events, and
    `hero` the hero who acts (as the state has it: the bot need not look it up again)."""

    __slots__ = ("_moves", "hero", "paths", "rest")

    def __init__(self, paths: Walk, hero: Hero, rest: list[Event]) -> None:
        count = paths.size  # (never 0: `_legal_turn` lists the events when there is no move)
        moves = _Moves(count, paths, hero.seat, hero.id)
        if rest:
            self._laid([moves, rest], _MOVES_ANY, [0, count], count + len(rest))
        else:
            self._laid([moves], _MOVES_ONLY, [0], count)
        self._moves = moves
        self.paths = paths
        self.rest = rest
        self.hero = hero

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...
    def __getitem__(self, index: int | slice) -> Event | Sequence[Event]:
        """`Chain`'s i-th event, read from the moves or the rest by the moves' number (no
        search over the parts' starts): the bot's pick, at every decision with moves."""
        if type(index) is not int or not 0 <= index < self._count:
            return super().__getitem__(index)
        moved = self.paths.size
        event = self._moves[index] if index < moved else self.rest[index - moved]
        self._last = event
        return event


class _Moves(Lazy[Event]):
    """A hero's moves along a walk's paths, each made when read (its fields, not closures:
    a decision lays out one run)."""

    __slots__ = ("_by", "_hero", "_paths")

    def __init__(self, count: int, paths: Walk, by: str | None, hero_id: str) -> None:
        super().__init__(count, None)
        self._paths = paths
        self._by = by
        self._hero = hero_id

    def _make(self, index: int) -> Event:
        return HeroMoved(by=self._by, hero=self._hero, path=self._paths.path(index))

    def _make_all(self) -> list[Event]:
        by, hero_id = self._by, self._hero
        return [HeroMoved(by=by, hero=hero_id, path=path) for path in self._paths]


_MOVES: tuple[type, ...] = (HeroMoved,)
_ANY: tuple[type, ...] = ()
_MOVES_ANY: list[tuple[type, ...]] = [_MOVES, _ANY]
_MOVES_ONLY: list[tuple[type, ...]] = [_MOVES]
"""What each part of `TurnEvents` holds: moves, then any event (shared, never changed)."""


@cache
def _altars_around(map_id: str) -> Mapping[Node | None, tuple[tuple[int, maps.Altar], ...]]:
    """Node -> the altars (position in map order, altar) whose zone holds it, in map order:
    a hero stands in no zone most of the time, and every decision asks."""
    zones: dict[Node | None, list[tuple[int, maps.Altar]]] = {}
    for index, altar in enumerate(maps.load_map(map_id).altars):
        for node in altar.zone:
            zones.setdefault(node, []).append((index, altar))
    return MappingProxyType({node: tuple(altars) for node, altars in zones.items()})


def _legal_combat(params: Params, state: State, hero: Hero, turn: Turn) -> list[Event]:
    """Attacks and abilities `_combat` proposes that are in range, in sight (against an
    enemy), off cooldown, and not harmful from a stunned hero (what `_check_target` and
    `_check_ability` ask; each target's distance measured once: friends only for a heal;
    its sight traced once, when first asked). What a hero can do and how far is read per
    stat set and hero (`_arsenal`), not asked of its sheet at every decision."""
    attacking = turn.attacks_left > 0 and not turn.stunned
    if turn.phase in ("capture", "done") or (not attacking and turn.combat_used):
        return []
    reach, abilities, heals = _arsenal(params.stats, hero.id)
    ready: Sequence[Ability]
    if turn.combat_used:
        ready = ()
    else:
        cooling, stunned = hero.cooldowns, turn.stunned
        if not cooling and not stunned:  # (every ability ready, for half the heroes asked: none looked up)
            ready = abilities
        else:
            ready = []
            for ability in abilities:  # (a loop, not a comprehension: a call fewer at half the decisions)
                if (not stunned or ability.stunned) and (not cooling or cooldown(hero, ability.name) <= 0):
                    ready.append(ability)
        if not attacking and not ready:
            return []
    by, hero_id = hero.seat, hero.id
    enemies, friends = _measured(params, state, hero, heals and bool(ready))
    seen: dict[str, int] = {}
    events: list[Event] = []
    if attacking:
        for enemy, away in enemies:
            if away <= reach and _sighted(params, state, hero, enemy, seen):
                events.append(AttackDeclared(by=by, hero=hero_id, target=enemy.id))
    for name, kind, far, _ in ready:
        if kind is _SELF:
            events.append(AbilityUsed(by=by, hero=hero_id, ability=name))
            continue
        for target, away in friends if kind is _HEAL else enemies:  # (loops, not two comprehensions an ability: each is a call)
            if away <= far and (kind is _HEAL or _sighted(params, state, hero, target, seen)):
                events.append(AbilityUsed(by=by, hero=hero_id, ability=name, target=target.id))
    return events


class Ability(NamedTuple):
    """One of a hero's abilities as combat asks of it (`_arsenal`)."""

    name: str
    kind: str
    """`_SELF` (no target), `_HEAL` (a friend) or `_HARM` (an enemy in sight)."""
    reach: int
    """Its range (`attack_range`)."""
    stunned: bool
    """Usable by a stunned hero: a heal, or one that attacks no one (`HARMLESS`)."""


_SELF, _HEAL, _HARM = "self", "heal", "harm"


@cache
def _arsenal(stat_set: str, hero_id: str) -> tuple[int, tuple[Ability, ...], bool]:
    """A hero's basic attack range, its abilities in printed order, with their kinds and
    ranges (`attack_range`: pure per stat set and hero, and every combat decision asks), and
    whether it has a heal (its friends are measured only then)."""
    abilities = tuple(
        Ability(name, _SELF if name in SELF_ABILITIES else _HEAL if name in HEALS else _HARM,
                reach_of(stat_set, hero_id, name), name in HEALS or name in HARMLESS)
        for name in _ability_ids(hero_id))
    return reach_of(stat_set, hero_id, None), abilities, any(a.kind is _HEAL for a in abilities)


@cache
def _ability_ids(hero_id: str) -> tuple[str, ...]:
    """A hero's abilities in printed order."""
    return tuple(ability.id for ability in heroes.HEROES[hero_id].abilities)


def _sighted(params: Params, state: State, hero: Hero, target: Hero, seen: dict[str, int]) -> int:
    """Whether the hero sees the target (1 or 0), traced once per decision (`seen`, which
    also keeps the decision's `sight_blockers` under the key "", no hero's id, once asked)."""
    sight = seen.get(target.id)
    if sight is None:
        blocked = seen.get("")
        if blocked is None and params.line_of_sight:
            blocked = seen[""] = sight_blockers(params, state, hero.team)
        sight = seen[target.id] = int(has_line_of_sight(params, state, hero, target, blocked))
    return sight


def _measured(params: Params, state: State, hero: Hero, friends: bool) -> tuple[list[tuple[Hero, float]], list[tuple[Hero, float]]]:
    """The standing enemies and (when `friends`: the hero has a heal and some ability is
    ready) the hero's standing friends, in the heroes' order, each with its hex steps from
    the hero, in one pass of the heroes. Read from the hero's node's `board.distances_from` table; none for a target off the board
    (never in range), none from an attacker off it (the check measures nothing then), and a
    target on a node off the map (a table's mistake) is measured."""
    here, team = hero.node, hero.team
    enemies: list[tuple[Hero, float]] = []
    near: list[tuple[Hero, float]] = []
    graph = _graph(params.map)
    cells = graph.cells
    start = cells.get(here)
    steps = graph.distances[start] if start is not None else None
    # The hero's node's `board.distances_from` table, by cell; None off the map.
    for each in state.heroes:
        if not each.alive:
            continue
        if each.team != team:
            into = enemies
        elif not friends or each.id == hero.id:
            continue
        else:
            into = near
        node = each.node
        cell = cells.get(node)  # (a node's cell by a dict, no bounds compared: every move decision measures)
        if steps is not None and cell is not None:
            away: float = steps[cell]
        elif node is None:
            away = math.inf
        elif here is None:
            away = 0
        else:
            away = board.distance(here, node)
        into.append((each, away))
    return enemies, near


def candidates(params: Params, state: State) -> Iterator[Event]:
    """Every event proposed at a decision before the rules filter it (the contract's reference)."""
    if chance(params, state) is None:
        yield from _candidates(params, state)


def _candidates(params: Params, state: State) -> Iterator[Event]:
    if state.stage == "draft":
        yield from _draft(params, state)
    elif state.stage == "placement":
        yield from _placement(params, state)
    elif outcome(params, state) is None:
        yield from _turn(params, state)


def _draft(params: Params, state: State) -> Iterator[Event]:
    winner = state.draft.winner
    if state.draft.first_pick is None and winner is not None:
        seat = _first_seat(state, winner)
        yield DraftChoiceMade(by=seat, team=winner, choice="first_pick")  # type: ignore[arg-type]
        yield DraftChoiceMade(by=seat, team=winner, choice="first_turn")  # type: ignore[arg-type]
        return
    team = picking_team(state)
    taken = {hero for hero, _ in state.draft.picks}
    for seat, seat_team in state.seats:
        if seat_team == team:
            for hero in heroes.HEROES:
                if hero not in taken:
                    yield HeroPicked(by=seat, hero=hero)


def _first_seat(state: State, team: str) -> str:
    return next(seat for seat, t in state.seats if t == team)


def _placement(params: Params, state: State) -> Iterator[Event]:
    spawns = game_map(params).spawns
    taken = occupied(state)
    for hero in state.heroes:
        if hero.node is None:
            for node in spawns[hero.team]:
                if node not in taken:
                    yield HeroPlaced(by=hero.seat, hero=hero.id, node=node)
    for index, team in enumerate(("red", "blue")):
        if not state.order[index]:
            yield from _orders(_first_seat(state, team), team, tuple([h.id for h in state.heroes if h.team == team]))


@lru_cache(maxsize=64)
def _orders(seat: str, team: str, mine: tuple[str, ...]) -> tuple[Event, ...]:
    """Every order of a team's heroes, set by its first seat: the same frozen events at each
    placement decision until the team sets one (a team of four has 24, offered at every
    hero placed before)."""
    return tuple(TurnOrderSet(by=seat, team=team, heroes=order) for order in permutations(mine))  # type: ignore[arg-type]


def _turn(params: Params, state: State) -> Iterator[Event]:
    turn = state.turn
    coming = next_hero(state)
    hero = acting_hero(state)
    if turn is None or hero is None:
        if coming:
            yield TurnStarted(by=_seat(state, coming), hero=coming)
        return
    by = hero.seat
    if not hero.alive:
        for node in game_map(params).spawns[hero.team]:
            yield HeroRespawned(by=by, hero=hero.id, node=node)
    else:
        yield from _moves(params, state, hero)
        yield EnchantmentTaken(by=by, hero=hero.id)
        yield from _combat(params, state, hero)
        for altar in game_map(params).altars:
            if hero.node in altar.zone:
                yield AltarCaptured(by=by, hero=hero.id, altar=altar.id)
    if coming:
        yield TurnStarted(by=_seat(state, coming), hero=coming)


def _seat(state: State, hero_id: str) -> str | None:
    hero = find(state, hero_id)
    return hero.seat if hero else None


def _moves(params: Params, state: State, hero: Hero) -> list[Event]:
    """One move per reachable node, along a shortest path (breadth-first)."""
    by, hero_id = hero.seat, hero.id
    return [HeroMoved(by=by, hero=hero_id, path=path) for path in _move_paths(params, state, hero)]


def _move_paths(params: Params, state: State, hero: Hero) -> Walk:
    """The paths of the hero's moves: none outside upkeep and movement, or with its movement
    spent (or stunned: no walk to look up)."""
    turn = state.turn
    if turn is None or hero.node is None or turn.phase not in ("upkeep", "movement"):
        return _NO_WALK
    left = movement_allowance(params, state, hero, turn) - turn.moved
    return _paths(params, state, hero.node, left) if left > 0 else _NO_WALK


def attempts(params: Params, state: State) -> Iterator[Event]:
    """The acting hero walked past its movement left: a move to each free node it could reach
    with no limit, along a shortest path. The commonest movement mistake at a table; the
    recorder offers these so a tap on one is shown refused (`movement.points`)."""
    turn = state.turn
    hero = acting_hero(state)
    if (turn is None or hero is None or not hero.alive or hero.node is None or turn.phase not in ("upkeep", "movement")
            or chance(params, state) is not None or outcome(params, state) is not None):
        return
    left = movement_allowance(params, state, hero, turn) - turn.moved
    gmap = game_map(params)
    for path in _paths(params, state, hero.node, gmap.width * gmap.height):
        if len(path) > left:  # breadth-first: a shortest path longer than the movement left
            yield HeroMoved(by=hero.seat, hero=hero.id, path=path)


def reachable(params: Params, state: State, start: Node, steps: int) -> Mapping[Node, tuple[Node, ...]]:
    """Nodes a hero can walk to within `steps`, each with a shortest path there (breadth-first)."""
    return {path[-1]: path for path in _paths(params, state, start, steps)}


class Walk(Sequence[tuple[Node, ...]]):
    """The paths of a hero's moves in breadth-first order (those of `reachable`), each made
    only when read: a walk keeps each end's cell (`board.cell`) and the position of the end
    it came from, so a bot reads where the moves end (`ends`) and how far the farthest goes
    (`reach`) without making a path, and one path is a few steps back along its parents."""

    __slots__ = ("_kept", "_nodes", "_parents", "cells", "reach", "size")

    def __init__(self, cells: Sequence[int], parents: Sequence[int], reach: int, nodes: Sequence[Node],
                 kept: list[int] | None = None) -> None:
        self.cells = cells
        # Every end walked to, in order (some may be left out: `kept`).
        self._parents = parents
        # Per end, the position in `cells` of the end its path came from (-1: the start).
        self.reach = reach
        # Steps of the longest path (the last one's: breadth-first).
        self._nodes = nodes
        # Cell -> node, for the map.
        self._kept = kept
        # The positions in `cells` that are moves, when some are not (heroes stand there).
        self.size = len(cells) if kept is None else len(kept)
        # How many moves (`len`, read as a field where every move decision asks: `__len__`
        # is a Python call).

    @property
    def ends(self) -> Sequence[int]:
        """Each move's end, as a cell, in order."""
        kept = self._kept
        if kept is None:
            return self.cells
        return [self.cells[position] for position in kept]

    def __len__(self) -> int:
        return self.size

    def path(self, index: int) -> tuple[Node, ...]:
        """The index-th move's path, start left out, as `reachable` gives it."""
        position = index if self._kept is None else self._kept[index]
        cells, parents, nodes = self.cells, self._parents, self._nodes
        steps = []
        while position >= 0:
            steps.append(nodes[cells[position]])
            position = parents[position]
        steps.reverse()
        return tuple(steps)

    @overload
    def __getitem__(self, index: int) -> tuple[Node, ...]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[Node, ...]]: ...
    def __getitem__(self, index: int | slice) -> tuple[Node, ...] | Sequence[tuple[Node, ...]]:
        if isinstance(index, slice):
            return [self.path(i) for i in range(len(self))[index]]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self.path(index)

    def __iter__(self) -> Iterator[tuple[Node, ...]]:
        return map(self.path, range(len(self)))


_NO_WALK = Walk((), (), 0, ())


def _paths(params: Params, state: State, start: Node, steps: int) -> Walk:
    """The paths of `reachable`, in its order.

    Only the heroes standing where the hero could walk on an empty board can change the walk,
    and one standing at its last step only takes that node out (nothing walks on from it).
    So over half of a game's walks are the empty board's walk from that node, read from the
    map's table (`_free_walk`), less those nodes; only the others are searched. (The empty
    board's walk itself is shared, read-only.)
    """
    free = _free_walk(params.map, start, steps)
    at, depths = free.at, free.depths
    standing: list[Node] = []
    # The nodes heroes stand on in the free walk.
    nearer = False
    # Whether one stands nearer than the last step (one pass of the heroes, no comprehension:
    # every move decision asks).
    for hero in state.heroes:
        position = at.get(hero.node)  # (None, off the board: not in `at`)
        if position is not None:
            standing.append(hero.node)  # type: ignore[arg-type]  # (in `at`: not None)
            if depths[position] < steps:
                nearer = True
    if not standing:
        return free.walk
    if nearer:
        return _walk(params.map, start, steps, standing)
    walk = free.walk
    kept = list(range(walk.size))
    for position in sorted({at[node] for node in standing}, reverse=True):  # (two heroes on one node: a table's mistake)
        del kept[position]
    return Walk(walk.cells, walk._parents, walk.reach, walk._nodes, kept)


class _FreeWalk(NamedTuple):
    """A walk on the empty board, with each end's position and steps."""

    walk: Walk
    at: Mapping[Node | None, int]
    """End -> position in the walk (asked with a hero's node: None when it is off the board;
    a plain dict, never changed: every move decision asks it of each hero)."""
    depths: tuple[int, ...]
    """Per position, the steps to that end."""


def _free_walk(map_id: str, start: Node, steps: int) -> _FreeWalk:
    """The walk on an empty board (read-only: it is shared): from the map's table up to
    `TABLED_STEPS` (every walk a hero's movement asks for), searched and remembered beyond
    (a table's mistake: a start off the map; `attempts`, which walks with no limit). Kept
    apart from the walks around heroes, which seldom recur: remembering those too cost more
    in garbage collection than it saved."""
    return _free_walks(map_id).get((start, steps)) or _searched_free_walk(map_id, start, steps)


TABLED_STEPS = 6
"""The longest walk the map's table holds: the most movement any hero is printed with (5)
and Sprint's +1 (2.5's one Sprint altar); a longer walk is searched."""


@cache
def _free_walks(map_id: str) -> Mapping[tuple[Node, int], _FreeWalk]:
    """Every walk on the empty board from every node of the map, of 1 to `TABLED_STEPS`
    steps (pure geometry, built once per map, in about 20 ms: a process's short run met
    about 800 of these walks anew in twelve games, a long one meets them all).

    A walk of fewer steps is the first rings of a longer one from the same node, in the
    same order with the same parents (each ring walks on from the one before it), so each
    node is searched once, `TABLED_STEPS` deep, and its shorter walks are its prefixes."""
    graph = _graph(map_id)
    table: dict[tuple[Node, int], _FreeWalk] = {}
    for start in graph.nodes:
        far = _walk(map_id, start, TABLED_STEPS, ())
        cells, parents, nodes = tuple(far.cells), tuple(far._parents), far._nodes
        depths = _depths(parents)
        at: dict[Node | None, int] = {}
        ended = 0
        for steps in range(1, TABLED_STEPS + 1):
            begun, ended = ended, bisect_right(depths, steps)
            at = {**at, **{nodes[cells[position]]: position for position in range(begun, ended)}}
            walk = Walk(cells[:ended], parents[:ended], depths[ended - 1] if ended else 0, nodes)
            table[start, steps] = _FreeWalk(walk, at, depths[:ended])
    return MappingProxyType(table)


def _depths(parents: Sequence[int]) -> tuple[int, ...]:
    """Per end of a walk, its steps from the start (a parent comes before its children)."""
    depths: list[int] = []
    for parent in parents:
        depths.append(depths[parent] + 1 if parent >= 0 else 1)
    return tuple(depths)


@lru_cache(maxsize=4096)
def _searched_free_walk(map_id: str, start: Node, steps: int) -> _FreeWalk:
    """A walk on the empty board that the map's table does not hold, searched."""
    walk = _walk(map_id, start, steps, ())
    cells, parents, nodes = walk.cells, walk._parents, walk._nodes
    return _FreeWalk(Walk(tuple(cells), tuple(parents), walk.reach, nodes),
                     MappingProxyType({nodes[cell]: position for position, cell in enumerate(cells)}), _depths(parents))


def _walk(map_id: str, start: Node, steps: int, taken: Iterable[Node]) -> Walk:
    """The breadth-first walk around the `taken` nodes, one ring of `steps` at a time: the
    order of a queue, without asking each node its depth (an empty ring walks to nothing).
    Nodes are numbered (`board.cell`), so a node walked to or blocked is one flag in a
    list (a list's item is read and set by a specialised step, a bytearray's by a generic
    one: 0.7 us of a walk's 6.9), and an end is its cell and the position of the end it came from."""
    graph = _graph(map_id)
    height, around = graph.height, graph.around
    closed = [False] * len(around)  # (a repeated False: a third cheaper than copying a tuple of them)
    for col, row in taken:
        if 0 <= col < graph.width and 0 <= row < height:
            closed[col * height + row] = True
    cells: list[int] = []
    parents: list[int] = []
    if 0 <= start[0] < graph.width and 0 <= start[1] < height:
        closed[start[0] * height + start[1]] = True
        first = around[start[0] * height + start[1]]
    else:  # a start off the map (a table's mistake): its neighbours on it
        first = tuple(col * height + row for col, row in _open_around(map_id, start))
    for near in first if steps > 0 else ():
        if not closed[near]:
            closed[near] = True
            cells.append(near)
            parents.append(-1)
    begun, reach = 0, 1 if cells else 0
    for _ in range(steps - 1):  # each ring walks on from the one before it
        ended = len(cells)
        for position in range(begun, ended):
            for near in around[cells[position]]:
                if not closed[near]:
                    closed[near] = True
                    cells.append(near)  # (not a bound `append` kept aside: Python 3.11 specialises
                    parents.append(position)  # `list.append` called as a method into no call at all)
        if len(cells) == ended:
            break
        begun, reach = ended, reach + 1
    return Walk(cells, parents, reach, graph.nodes)


class _Graph(NamedTuple):
    """A map's passable neighbours by cell: what a walk asks at every step."""

    width: int
    height: int
    around: tuple[tuple[int, ...], ...]
    """Per cell (`board.cell`), its passable neighbours' cells, in direction order."""
    nodes: tuple[Node, ...]
    """Per cell, its node."""
    cells: Mapping[Node | None, int]
    """Node -> its cell, for the nodes of the map (a plain dict, asked with a hero's node,
    None when it is off the board)."""
    distances: tuple[tuple[int, ...], ...]
    """Per cell, `board.distances_from` that node (the map's `board.distance_tables`): combat
    measures from the acting hero's node at every decision."""


@cache
def _graph(map_id: str) -> _Graph:
    """A map's neighbours as walks read them (pure geometry: built once per map)."""
    gmap = maps.load_map(map_id)
    height = gmap.height
    ways = passable_neighbours(map_id)
    nodes = board.all_nodes(gmap.width, height)
    around = tuple(tuple(col * height + row for col, row in ways[node]) for node in nodes)
    return _Graph(gmap.width, height, around, nodes, {node: cell for cell, node in enumerate(nodes)},
                  board.distance_tables(gmap.width, height))


@cache
def passable_neighbours(map_id: str) -> Mapping[Node, tuple[Node, ...]]:
    """Each node's on-board neighbours that are not impassable, in direction order (pure
    geometry of a map, asked for every step of every move a hero is offered)."""
    gmap = maps.load_map(map_id)
    return MappingProxyType({(col, row): _open_around(map_id, (col, row)) for col in range(gmap.width) for row in range(gmap.height)})


def _open_around(map_id: str, node: Node) -> tuple[Node, ...]:
    gmap = maps.load_map(map_id)
    return tuple(n for n in board.neighbours(node, gmap.width, gmap.height) if n not in gmap.impassable)


def _combat(params: Params, state: State, hero: Hero) -> Iterator[Event]:
    turn = state.turn
    if turn is None or turn.phase in ("capture", "done"):
        return
    enemies = [h.id for h in state.heroes if h.team != hero.team and h.alive]
    friends = [h.id for h in state.heroes if h.team == hero.team and h.alive and h.id != hero.id]
    if turn.attacks_left > 0:
        for enemy in enemies:
            yield AttackDeclared(by=hero.seat, hero=hero.id, target=enemy)
    if turn.combat_used:
        return
    for ability in heroes.HEROES[hero.id].abilities:
        if ability.id in SELF_ABILITIES:
            yield AbilityUsed(by=hero.seat, hero=hero.id, ability=ability.id)
        else:
            for target in friends if ability.id in HEALS else enemies:
                yield AbilityUsed(by=hero.seat, hero=hero.id, ability=ability.id, target=target)
