"""What may happen next: the decisions a player may take, and the dice a chance step may show.

Candidates are generated from the geometry and then kept only if `rules.check` finds
nothing wrong, so `legal` can never offer a move the audit would flag: one piece of code
says what is legal.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from itertools import permutations

from events.base import Event
from rulesets.mortalgate import board, heroes
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
from rulesets.mortalgate.rules import HEALS, SELF_ABILITIES, check, outcome, picking_team
from rulesets.mortalgate.state import (
    Hero,
    State,
    attack_range,
    cooldown,
    find,
    game_map,
    movement_allowance,
    next_hero,
    occupied,
)


def chance(params: Params, state: State) -> list[tuple[Event, float]] | None:
    """At a chance step, every outcome with its probability; None at a decision."""
    if state.stage == "draft" and state.draft.winner is None:
        return [(DraftRolled(red=r, blue=b), 1 / 36) for r in range(1, 7) for b in range(1, 7)]
    turn = state.turn
    if state.stage == "play" and turn is not None and turn.pending:
        target = turn.pending[0].target
        return [(AttackRolled(target=target, tens=t, ones=o), 1 / 100) for t in range(10) for o in range(10)]
    return None


def legal(params: Params, state: State) -> list[Event]:
    """Every event that may come next and that the rules accept."""
    outcomes = chance(params, state)
    if outcomes is not None:
        return [event for event, _ in outcomes]
    candidates = list(_candidates(params, state))
    moves = [e for e in candidates if isinstance(e, HeroMoved)]
    others = [e for e in candidates if not isinstance(e, HeroMoved) and not _surely_refused(params, state, e)]
    if moves and not check(params, state, moves[0]):
        # Paths come from `reachable`, which already keeps to free, passable, adjacent nodes
        # within the movement left; once one passes the turn's checks, all of them do.
        kept = moves
    else:
        kept = [e for e in moves if not check(params, state, e)]
    return kept + [e for e in others if not check(params, state, e)]


def _surely_refused(params: Params, state: State, event: Event) -> bool:
    """A cheap test that `check` would refuse a combat event, so its line of sight (the
    costly part of the check) need not be traced. Each condition is one `check` always
    reports (rules.py: _check_attack, _check_ability, _check_target); anything it lets
    through still goes through the full `check`, so it can only save work, never admit.
    """
    if not isinstance(event, AttackDeclared | AbilityUsed):
        return False
    turn, hero = state.turn, find(state, event.hero)
    if turn is None or hero is None or hero.node is None:
        return False
    ability = event.ability if isinstance(event, AbilityUsed) else None
    if ability is not None and (turn.combat_used or cooldown(hero, ability) > 0):
        return True
    if ability in SELF_ABILITIES or event.target is None:
        return False
    target = find(state, event.target)
    if target is None or target.node is None:
        return False
    return board.distance(hero.node, target.node) > attack_range(params, hero, ability)


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
            mine = [h.id for h in state.heroes if h.team == team]
            for order in permutations(mine):
                yield TurnOrderSet(by=_first_seat(state, team), team=team, heroes=order)  # type: ignore[arg-type]


def _turn(params: Params, state: State) -> Iterator[Event]:
    turn = state.turn
    coming = next_hero(state)
    hero = find(state, turn.hero) if turn else None
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


def _moves(params: Params, state: State, hero: Hero) -> Iterator[Event]:
    """One move per reachable node, along a shortest path (breadth-first)."""
    turn = state.turn
    if turn is None or hero.node is None or turn.phase not in ("upkeep", "movement"):
        return
    left = movement_allowance(params, state, hero, turn) - turn.moved
    for _node, path in reachable(params, state, hero.node, left).items():
        yield HeroMoved(by=hero.seat, hero=hero.id, path=path)


def attempts(params: Params, state: State) -> Iterator[Event]:
    """The acting hero walked past its movement left: a move to each free node it could reach
    with no limit, along a shortest path. The commonest movement mistake at a table; the
    recorder offers these so a tap on one is shown refused (`movement.points`)."""
    turn = state.turn
    hero = find(state, turn.hero) if turn else None
    if (turn is None or hero is None or not hero.alive or hero.node is None or turn.phase not in ("upkeep", "movement")
            or chance(params, state) is not None or outcome(params, state) is not None):
        return
    left = movement_allowance(params, state, hero, turn) - turn.moved
    within = reachable(params, state, hero.node, left)
    gmap = game_map(params)
    for node, path in reachable(params, state, hero.node, gmap.width * gmap.height).items():
        if node not in within:
            yield HeroMoved(by=hero.seat, hero=hero.id, path=path)


def reachable(params: Params, state: State, start: Node, steps: int) -> dict[Node, tuple[Node, ...]]:
    """Nodes a hero can walk to within `steps`, each with a shortest path there."""
    gmap = game_map(params)
    blocked = gmap.impassable | occupied(state)
    paths: dict[Node, tuple[Node, ...]] = {start: ()}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if len(paths[node]) >= steps:
            continue
        for near in board.neighbours(node, gmap.width, gmap.height):
            if near not in paths and near not in blocked:
                paths[near] = (*paths[node], near)
                queue.append(near)
    del paths[start]
    return paths


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
