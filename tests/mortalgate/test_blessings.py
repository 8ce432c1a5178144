"""A team's blessings are read again for the very altars tuple last asked about (the states
after it share it until an altar changes hands): the answer must still be the count of the
altars' blessings for whoever holds them, whatever was asked before, and the movement
allowance built on it the printed movement and Sprint, less poison, none when stunned."""

from __future__ import annotations

import random
from collections import Counter

import msgspec

from projections.simulate import play
from rulesets.mortalgate import heroes, maps
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.state import Hero, State, Turn, blessings, movement_allowance

from .scenario import rules


def plain_blessings(params: Params, state: State, hero: Hero) -> dict[str, int]:
    """mortalgate.txt, Blessings, read straight: every altar the hero's team holds, counted."""
    if params.bonuses == "altars":
        held = Counter(altar.blessing for altar, owner in zip(maps.load_map(params.map).altars, state.altars, strict=True)
                       if owner == hero.team and altar.blessing)
        return dict(held)
    if params.bonuses == "enchantments" and hero.enchantment:
        return {hero.enchantment: 1}
    return {}


def plain_allowance(params: Params, state: State, hero: Hero, turn: Turn) -> int:
    if turn.stunned:
        return 0
    points = heroes.stats(hero.id, params.stats).movement + plain_blessings(params, state, hero).get("sprint", 0)
    return max(points - 2 if turn.poisoned else points, 0)


def positions(version: str, seed: int) -> list[State]:
    """Every position of a heuristic game in play."""
    r = rules(version)
    log = play(r, r.ruleset.example_seats, seed=seed, bot="heuristic")
    state, out = r.ruleset.setup(r.params, log[0]), []
    for event in log[1:-1]:
        state = r.ruleset.apply(r.params, state, event)
        if state.stage == "play":
            out.append(state)
    return out


def test_blessings_read_for_the_last_altars_asked_are_the_plain_count_whatever_was_asked_before() -> None:
    asked = [(rules(version).params, state) for version in ("1.5", "2.0", "2.1", "2.5") for seed in (3, 8)
             for state in positions(version, seed)]
    random.Random(5).shuffle(asked)  # (versions, maps and owners one after the other, in no order)
    held = 0
    for params, state in asked:
        for twice in (state, msgspec.structs.replace(state, altars=tuple(list(state.altars)))):  # (equal altars, another tuple)
            for hero in twice.heroes:
                assert dict(blessings(params, twice, hero)) == plain_blessings(params, twice, hero)
                assert dict(blessings(params, twice, hero)) == plain_blessings(params, twice, hero)  # (asked again: read)
                held += bool(plain_blessings(params, twice, hero))
                for turn in (Turn(hero=hero.id), Turn(hero=hero.id, poisoned=True), Turn(hero=hero.id, stunned=True)):
                    assert movement_allowance(params, twice, hero, turn) == plain_allowance(params, twice, hero, turn)
    assert held  # (some positions hold a blessing: the count is not only ever empty)


def test_one_altars_tuple_asked_on_two_maps_gives_each_maps_blessings() -> None:
    state = positions("2.5", seed=3)[-1]
    state = msgspec.structs.replace(state, altars=("red", "red", "red", None, None, None, None, None))
    red = next(hero for hero in state.heroes if hero.team == "red")
    answers = []
    for version in ("2.5", "2.1", "2.5", "2.1"):  # (the same tuple object, the map changed: 2.1 is played on 2.0's)
        params = rules(version).params
        answers.append(dict(blessings(params, state, red)))
        assert answers[-1] == plain_blessings(params, state, red)
    assert answers[0] != answers[1]
