"""`apply` held to the plain reducer: at every turn start and ability of seeded
games of both bots in three versions, and at every move (and at turn starts and moves a table
could write: a hero not in the order, one not picked, one slain, an empty path), the state
after it is the state the plain code gives."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

import msgspec
import pytest

from events.base import Event
from projections.corpus.simulate import play
from rulesets.mortalgate import board, heroes
from rulesets.mortalgate import rules as mortal_rules
from rulesets.mortalgate.events import AbilityUsed, HeroMoved, TurnStarted
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.state import Hero, State, Timed, Turn, find, heroes_with, sequence

from .scenario import rules

E = TypeVar("E", bound=Event)

replace = msgspec.structs.replace


def plain_turn_started(params: Params, state: State, event: TurnStarted) -> State:
    """The turn start as the rules read plainly: the cursor after the hero's first place in
    the order, every cooldown and effect ticked by a comprehension, then burn and poison."""
    hero_id = event.hero
    order = sequence(state)
    cursor = order.index(hero_id) + 1 if hero_id in order else state.cursor + 1
    hero = find(state, hero_id)
    if hero is None or not hero.alive:
        return replace(state, turns=state.turns + 1, cursor=cursor, turn=Turn(hero=hero_id, attacks_left=1, returning=True))
    kinds = {e.kind for e in hero.effects}
    turn = Turn(hero=hero.id, attacks_left=1, stunned="stunned" in kinds, poisoned="poisoned" in kinds,
                precision="precision" in kinds)
    ticked = replace(hero, cooldowns=tuple((name, left - 1) for name, left in hero.cooldowns if left > 1), shield_wall=False,
                     effects=tuple(Timed(e.kind, e.turns - 1) for e in hero.effects if e.turns > 1))
    state = replace(state, heroes=heroes_with(state, hero, ticked), turns=state.turns + 1, cursor=cursor, turn=turn)
    if "burning" in kinds and ticked.node is not None:
        near = board.neighbours(ticked.node)
        for burnt in (ticked, *[h for h in state.heroes if h.team == ticked.team and h.node in near]):
            state = mortal_rules.hurt(params, state, burnt, 1)
    if "poisoned" in kinds and (current := find(state, hero.id)) is not None:
        state = mortal_rules.hurt(params, state, current, 1)
    return state


def plain_ability(params: Params, state: State, event: AbilityUsed) -> State:
    """An ability as the rules read plainly: its cooldown put after the others by a
    comprehension, then its effect."""
    hero = find(state, event.hero)
    ability = heroes.ABILITIES.get(event.ability)
    turn = state.turn
    if hero is None or ability is None or turn is None:
        return state
    used = replace(hero, cooldowns=(*[(n, t) for n, t in hero.cooldowns if n != ability.id], (ability.id, ability.cooldown)))
    if (on_self := mortal_rules._ON_SELF.get(ability.id)) is not None:
        used = on_self(used)
    state = replace(state, heroes=heroes_with(state, hero, used),
                    turn=replace(turn, phase="combat", combat_used=True, attacks_left=2 if ability.id == "quick_blade" else 0),
                    last_attack=state.last_attack if event.target is None else mortal_rules._aim(state, hero, event.target))
    effect = mortal_rules._ABILITY_EFFECTS.get(event.ability)
    return effect(params, state, hero, event.target) if effect else state


def plain_moved(params: Params, state: State, event: HeroMoved) -> State:
    """A move as the rules read plainly: the hero found, then put in its place on the path's end."""
    hero = find(state, event.hero)
    path = event.path
    if hero is None or not path:
        return state
    heroes = heroes_with(state, hero, replace(hero, node=path[-1]))
    if state.turn is None:
        return replace(state, heroes=heroes)
    return replace(state, heroes=heroes, turn=replace(state.turn, phase="movement", moved=state.turn.moved + len(path)))


def played(version: str, bot: str, kind: type[E]) -> Iterator[tuple[int, State, E]]:
    """Each event of type `kind` in three seeded games, counted from 1, with the state it was
    applied to."""
    r = rules(version)
    count = 0
    for seed in range(3):
        log = play(r, r.ruleset.example_seats, seed=seed, bot=bot)
        state = r.ruleset.setup(r.params, log[0])
        for event in log[1:]:
            if isinstance(event, kind):
                count += 1
                yield count, state, event
            state = r.ruleset.apply(r.params, state, event)


def slain(hero: Hero) -> Hero:
    return replace(hero, node=None, health=0, alive=False, cooldowns=(), effects=())


@pytest.mark.parametrize("version", ["1.5", "2.0", "2.5"])
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_turn_starts_fold_as_the_plain_upkeep_folds_them(version: str, bot: str) -> None:
    """A turn start reads the hero and its place in the order in one pass each and keeps its
    cooldowns a turn later per cooldowns tuple (`rules._ticked`): the state after every turn
    start of seeded games is the plain upkeep's, and so is the state after a turn start of a
    hero not in the order, of a hero not picked and of a slain hero, at those positions."""
    params = rules(version).params
    started = 0
    for started, state, event in played(version, bot, TurnStarted):
        assert mortal_rules.apply(params, state, event) == plain_turn_started(params, state, event)
        hero = find(state, event.hero)
        if hero is None or started % 5:
            continue
        shuffled = replace(state, play_order=tuple(h for h in state.play_order if h != hero.id))
        dead = replace(state, heroes=heroes_with(state, hero, slain(hero)))
        for at, what in ((shuffled, event), (state, replace(event, hero="nobody")), (dead, event)):
            assert mortal_rules.apply(params, at, what) == plain_turn_started(params, at, what)
    assert started


@pytest.mark.parametrize("version", ["1.5", "2.0", "2.5"])
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_abilities_fold_as_the_plain_reducer_folds_them(version: str, bot: str) -> None:
    """An ability's cooldowns are remembered per cooldowns tuple, ability and turns
    (`rules._cooling`): the state after every ability of seeded games is the plain
    reducer's, and so is the state after it used again at once (its cooldown restarted)."""
    params = rules(version).params
    used = 0
    for used, state, event in played(version, bot, AbilityUsed):  # noqa: B007  (the count is asserted after the loop)
        after = mortal_rules.apply(params, state, event)
        assert after == plain_ability(params, state, event)
        again = replace(after, turn=state.turn)
        assert mortal_rules.apply(params, again, event) == plain_ability(params, again, event)
    assert used


@pytest.mark.parametrize("version", ["1.5", "2.0", "2.5"])
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_moves_fold_as_the_plain_reducer_folds_them(version: str, bot: str) -> None:
    """The state after every move of seeded games is the plain reducer's, and so is the state
    after a move of a hero not picked, an empty path, and a move with no turn under way (a
    table's mistakes)."""
    params = rules(version).params
    moved = 0
    for moved, state, event in played(version, bot, HeroMoved):
        assert mortal_rules.apply(params, state, event) == plain_moved(params, state, event)
        if moved % 7:
            continue
        for at, what in ((state, replace(event, hero="nobody")), (state, replace(event, path=())),
                         (replace(state, turn=None), event)):
            assert mortal_rules.apply(params, at, what) == plain_moved(params, at, what)
    assert moved
