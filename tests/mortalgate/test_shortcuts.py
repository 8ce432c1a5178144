"""What `legal` and the rules read from a table or a memo instead of working it out must be
what the plain rule gives, whatever was asked before and wherever heroes stand.

A team's blessings are read again for the very altars tuple last asked about (the states
after it share it until an altar changes hands): the answer must still be the count of the
altars' blessings for whoever holds them, and the movement allowance built on it the printed
movement and Sprint, less poison, none when stunned. Combat reads each hero's distance from
the map's table by cell: it must be the hex steps (`board.distance`) wherever the two stand,
a hero off the board never in range, and nothing measured from an attacker off it."""

from __future__ import annotations

import math
import random
from collections import Counter

import msgspec

from rulesets.mortalgate import board, heroes, maps, moves
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.state import (
    Hero,
    State,
    Turn,
    blessings,
    blocking,
    movement_allowance,
    sight_blockers,
)

from .scenario import positions, rules


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


def test_combat_measures_each_standing_hero_by_its_hex_steps_wherever_the_two_stand() -> None:
    r = rules("2.5")
    gmap = maps.load_map(r.params.map)
    rng = random.Random(11)
    places = [None, (-1, 4), (gmap.width, 3), (5, gmap.height + 2), (0, 0), (gmap.width - 1, gmap.height - 1)]
    measured = 0
    for state in positions("2.5", seed=4)[::3]:
        moved = list(state.heroes)
        index = rng.randrange(len(moved))
        moved[index] = msgspec.structs.replace(moved[index], node=rng.choice(places))  # (off the board, off the map, a corner)
        for heroes_ in (state.heroes, tuple(moved)):
            here_state = msgspec.structs.replace(state, heroes=heroes_)
            for hero in heroes_:
                if not hero.alive:
                    continue
                for friends in (False, True):
                    enemies, near = moves._measured(r.params, here_state, hero, friends)
                    standing = [h for h in heroes_ if h.alive and (h.team != hero.team or (friends and h.id != hero.id))]
                    assert [h for h, _ in enemies] == [h for h in standing if h.team != hero.team]
                    assert [h for h, _ in near] == [h for h in standing if h.team == hero.team]
                    for target, away in enemies + near:
                        if target.node is None:
                            assert away == math.inf
                        elif hero.node is None:
                            assert away == 0
                        else:
                            assert away == board.distance(hero.node, target.node)
                        measured += 1
    assert measured


def test_sight_blockers_are_the_impassable_nodes_and_the_enemies_on_the_map_wherever_they_stand() -> None:
    r = rules("2.5")
    gmap = maps.load_map(r.params.map)
    rng = random.Random(12)
    places = [None, (-1, 4), (gmap.width, 3), (5, gmap.height + 2), (0, 0), (gmap.width - 1, gmap.height - 1)]
    for state in positions("2.5", seed=4)[::3]:
        moved = list(state.heroes)
        index = rng.randrange(len(moved))
        moved[index] = msgspec.structs.replace(moved[index], node=rng.choice(places))
        for heroes_ in (state.heroes, tuple(moved)):
            here_state = msgspec.structs.replace(state, heroes=heroes_)
            for hero in heroes_:
                plain = sum(1 << board.cell(node, gmap.height) for node in blocking(r.params, here_state, hero)
                            if board.on_board(node, gmap.width, gmap.height))
                assert sight_blockers(r.params, here_state, hero.team) == plain
