"""MortalGate's state: frozen Structs and tuples, plus the queries rules and moves share.

A snapshot is a reference: applying an event builds a new state that shares every part it
did not change, so the Timeline keeps snapshots for free and nothing is ever mutated.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Literal

import msgspec

from rulesets.mortalgate import board, heroes, maps
from rulesets.mortalgate.events import Node
from rulesets.mortalgate.params import Params

Stage = Literal["draft", "placement", "play"]
Phase = Literal["upkeep", "movement", "combat", "capture", "done"]
PHASES: tuple[Phase, ...] = ("upkeep", "movement", "combat", "capture", "done")
TEAMS: tuple[str, str] = ("red", "blue")


class Timed(msgspec.Struct, frozen=True, gc=False):
    """A status effect or timed buff with the turns it has left (ticks at its owner's upkeep)."""

    kind: str
    """`burning`, `poisoned`, `stunned` (statuses) or `precision` (Precision Targeting)."""
    turns: int


class Hero(msgspec.Struct, frozen=True, gc=False):
    """One hero figure and its hero sheet."""

    id: str
    team: str
    seat: str
    node: Node | None
    """None while not on the board: not yet placed, or slain and not yet respawned."""
    health: int
    alive: bool = True
    cooldowns: tuple[tuple[str, int], ...] = ()
    """(ability, turns left) for abilities on cooldown."""
    effects: tuple[Timed, ...] = ()
    static_charges: int = 0
    """Static Charge: basic attacks left that deal 1 extra damage."""
    shield_wall: bool = False
    """Shield Wall: no damage until the hero's next turn."""
    enchantment: str | None = None
    """Version 2.0: the enchantment this hero took from the map."""


class Pending(msgspec.Struct, frozen=True, gc=False):
    """An attack declared and waiting for its dice."""

    attacker: str
    target: str
    kind: str
    """`basic`, or the ability that makes the attack (`long_shot`, `cheap_shot`)."""


class Turn(msgspec.Struct, frozen=True, gc=False):
    """The running hero turn: phase, movement spent, combat actions and pending dice."""

    hero: str
    phase: Phase = "upkeep"
    moved: int = 0
    stunned: bool = False
    poisoned: bool = False
    precision: bool = False
    combat_used: bool = False
    attacks_left: int = 0
    """Basic attacks still allowed after the combat action (Quick Blade gives two)."""
    pending: tuple[Pending, ...] = ()
    returning: bool = False
    """The hero began this turn slain: the turn is its chance to return ("at the beginning of
    that hero's next turn"). A hero slain in its own upkeep waits for the next one."""


class Draft(msgspec.Struct, frozen=True, gc=False):
    """The draft: the d6 roll-off, the winner's choice and the picks so far."""

    winner: str | None = None
    first_pick: str | None = None
    first_turn: str | None = None
    picks: tuple[tuple[str, str], ...] = ()
    """(hero, seat) in pick order."""


class Attack(msgspec.Struct, frozen=True, gc=False):
    """The last attack or targeted ability, for drawing its line (the view judges sight)."""

    origin: Node
    target: Node


class State(msgspec.Struct, frozen=True, gc=False):
    """A MortalGate position, from the draft to the end."""

    seats: tuple[tuple[str, str], ...]
    """(seat, team) in seating order."""
    stage: Stage = "draft"
    draft: Draft = Draft()
    order: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    """Each team's fixed hero order: red's, blue's."""
    heroes: tuple[Hero, ...] = ()
    altars: tuple[str | None, ...] = ()
    """Controlling team per altar, in map order."""
    enchantments: tuple[tuple[Node, str], ...] = ()
    """Enchantments still lying on the map (2.0)."""
    grace: tuple[int, int] = (0, 0)
    play_order: tuple[str, ...] = ()
    """The fixed hero order once play begins (derived from `order` and the first turn)."""
    turns: int = 0
    """Hero turns begun so far."""
    cursor: int = 0
    """Index in the play sequence of the hero whose turn is next."""
    turn: Turn | None = None
    last_attack: Attack | None = None


# --- queries shared by rules, moves, bots and views -----------------------------------


def team_index(team: str) -> int:
    """0 for red, 1 for blue (indexes `grace` and `order`)."""
    return 0 if team == "red" else 1


def other(team: str) -> str:
    """The opposing team."""
    return "blue" if team == "red" else "red"


@lru_cache(maxsize=1024)  # a game has a few seats, and the draft asks of every pick at every decision
def seat_team(seat: str) -> str | None:
    """A seat's team from its id: `red`, `red2`, `blue-ana` -> red/blue; None if neither."""
    for team in TEAMS:
        if seat == team or seat.startswith(team):
            return team
    return None


def find(state: State, hero_id: str) -> Hero | None:
    """The hero with that id, if it has been picked."""
    for hero in state.heroes:
        if hero.id == hero_id:
            return hero
    return None


def acting_hero(state: State) -> Hero | None:
    """The hero whose turn it is, if any."""
    turn = state.turn
    return find(state, turn.hero) if turn else None


def heroes_with(state: State, old: Hero, new: Hero) -> tuple[Hero, ...]:
    """`state.heroes` with `old` (the hero as `find` gave it from this state) replaced by `new`.

    Taking the old sheet itself, not its id, lets `index` find it by identity: every
    event changes a hero or two, and this is the cheapest way to say which.
    """
    heroes = list(state.heroes)
    heroes[heroes.index(old)] = new
    return tuple(heroes)


def hero_at(state: State, node: Node) -> Hero | None:
    """The hero standing on a node, if any."""
    for hero in state.heroes:
        if hero.node == node:
            return hero
    return None


def occupied(state: State) -> AbstractSet[Node]:
    """Nodes with a hero on them (a fresh set: a comprehension builds it fastest)."""
    return {h.node for h in state.heroes if h.node is not None}


def game_map(params: Params) -> maps.MapData:
    """The map this version is played on."""
    return maps.load_map(params.map)


def stats(params: Params, hero_id: str) -> heroes.HeroStats:
    """The hero's printed stats in this version."""
    return heroes.stats(hero_id, params.stats)


def sequence(state: State) -> tuple[str, ...]:
    """The fixed play order of heroes: first-turn team's 1st, other team's 1st, 2nd, ..."""
    if state.play_order:
        return state.play_order
    first = state.draft.first_turn or "red"
    a, b = state.order[team_index(first)], state.order[team_index(other(first))]
    out: list[str] = []
    for i in range(max(len(a), len(b))):
        out.extend(x[i] for x in (a, b) if i < len(x))
    return tuple(out)


def next_hero(state: State) -> str | None:
    """The hero whose turn comes next in the fixed order."""
    order = sequence(state)
    return order[state.cursor % len(order)] if order else None


def blessings(params: Params, state: State, hero: Hero) -> Mapping[str, int]:
    """Blessing name -> how many the hero benefits from (mortalgate.txt, Blessings).

    From 2.1 a team holds the blessing of every altar it controls (duplicates on the 2.1
    map stack; assumed); in 2.0 a hero holds the enchantment it took; in 1.5 nothing.
    """
    if params.bonuses == "altars":
        owners = state.altars
        map_id, seen, held = _last_blessed[0]  # (one tuple, read and replaced whole)
        if seen is not owners or map_id != params.map:
            held = _altar_blessings(params.map, owners)
            _last_blessed[0] = (params.map, owners, held)
        return held[0 if hero.team == "red" else 1]
    if params.bonuses == "enchantments" and hero.enchantment:
        return {hero.enchantment: 1}
    return _NONE


_NONE: Mapping[str, int] = MappingProxyType({})
_last_blessed: list[tuple[str | None, tuple[str | None, ...] | None, tuple[Mapping[str, int], Mapping[str, int]]]] = [(None, None, (_NONE, _NONE))]
"""The last altars asked about (the very tuple, which the states after it share until an
altar changes hands) and their blessings: every move decision asks the movement allowance,
and hashing the owners for `_altar_blessings` cost about a third of it."""


@lru_cache(maxsize=4096)
def _altar_blessings(map_id: str, owners: tuple[str | None, ...]) -> tuple[Mapping[str, int], Mapping[str, int]]:
    """Red's and blue's blessings for who holds which altar (read-only: they are shared).

    Memoised because every attack, move and hit asks, while the altars change hands a few
    dozen times a game.
    """
    counts: tuple[dict[str, int], dict[str, int]] = ({}, {})
    for altar, owner in zip(maps.load_map(map_id).altars, owners, strict=True):
        if owner is not None and altar.blessing:
            held = counts[team_index(owner)]
            held[altar.blessing] = held.get(altar.blessing, 0) + 1
    return MappingProxyType(counts[0]), MappingProxyType(counts[1])


def cooldown(hero: Hero, ability: str) -> int:
    """Turns the ability still has on cooldown (0 = ready)."""
    for name, turns in hero.cooldowns:
        if name == ability:
            return turns
    return 0


def movement_allowance(params: Params, state: State, hero: Hero, turn: Turn) -> int:
    """Movement points this turn: attribute + Sprint, -2 poisoned, none when stunned."""
    if turn.stunned:
        return 0
    points = heroes.stats(hero.id, params.stats).movement + blessings(params, state, hero).get("sprint", 0)
    if turn.poisoned:
        points -= 2
    return max(points, 0)


def attack_range(params: Params, hero: Hero, ability: str | None = None) -> int:
    """Range of a basic attack, or of an ability (Long Shot adds 3 to the base range)."""
    return reach_of(params.stats, hero.id, ability)


def reach_of(stat_set: str, hero_id: str, ability: str | None = None) -> int:
    """`attack_range` of a hero by its id, in a stat set."""
    base = heroes.stats(hero_id, stat_set).range
    if ability is None:
        return base
    if ability == "long_shot":
        return base + 3
    printed = heroes.ABILITIES[ability].range
    return base if printed is None else printed


def enemy_nodes(state: State, team: str) -> AbstractSet[Node]:
    """Nodes where heroes of the other team stand."""
    return {h.node for h in state.heroes if h.team != team and h.node is not None}


def blocking(params: Params, state: State, attacker: Hero) -> frozenset[Node]:
    """Nodes that block the attacker's sight: impassable terrain and enemies, not allies."""
    return game_map(params).impassable | enemy_nodes(state, attacker.team)


def has_line_of_sight(params: Params, state: State, attacker: Hero, target: Hero, blocked: int | None = None) -> bool:
    """mortalgate.txt, Line-of-Sight (from 2.1; earlier versions need none). Between nodes of
    the map it is asked of the blockers as a mask (`board.sight_clear`): `blocked`, when the
    caller has `sight_blockers` for the attacker's team at hand, else worked out."""
    a, b = attacker.node, target.node
    if not params.line_of_sight or a is None or b is None:
        return True
    gmap = game_map(params)
    width, height = gmap.width, gmap.height
    if 0 <= a[0] < width and 0 <= a[1] < height and 0 <= b[0] < width and 0 <= b[1] < height:
        if blocked is None:
            blocked = sight_blockers(params, state, attacker.team)
        return board.sight_clear(a, b, blocked, width, height)
    return board.line_of_sight(a, b, gmap.impassable, enemy_nodes(state, attacker.team))  # (a table's mistake: off the map)


def sight_blockers(params: Params, state: State, team: str) -> int:
    """What blocks a `team` hero's sight on the map, as a mask of cells (`board.cell`):
    impassable terrain and enemies (`blocking`; one off the map blocks no line on it)."""
    blocked, bits = _sight_cells(params.map)
    for hero in state.heroes:
        if hero.team != team:
            blocked |= bits.get(hero.node, 0)  # type: ignore[arg-type]  # (None, or off the map: no bit)
    return blocked


@cache
def _sight_cells(map_id: str) -> tuple[int, Mapping[Node, int]]:
    """A map's impassable nodes as a mask of cells (`board.cell`), and each node of the map's
    own bit (a plain dict: combat asks it of every enemy when one is in reach)."""
    gmap = maps.load_map(map_id)
    width, height = gmap.width, gmap.height
    impassable = sum(1 << board.cell(node, height) for node in gmap.impassable if board.on_board(node, width, height))
    return impassable, {node: 1 << board.cell(node, height) for node in board.all_nodes(width, height)}


def chance_to_hit(params: Params, state: State, attacker: Hero, target: Hero) -> int:
    """75 + accuracy - target's dodge + blessing modifications ("Determining a Hit")."""
    chance = params.base_chance
    if params.accuracy_dodge:
        chance += stats(params, attacker.id).accuracy - stats(params, target.id).dodge
    chance += 5 * blessings(params, state, attacker).get("pinpoint", 0)
    chance -= 10 * blessings(params, state, target).get("evasive", 0)
    return chance


def roll_value(tens: int, ones: int) -> int:
    """Two d10 read as tens and ones; "Rolling two 0's (zero) is the equivalent of 100"."""
    value = tens * 10 + ones
    return 100 if value == 0 else value


def is_hit(chance: int, tens: int, ones: int) -> bool:
    """"Hit: Roll value >= 100 - chance to hit"."""
    return roll_value(tens, ones) >= 100 - chance


def zone_of(params: Params, altar_id: str) -> frozenset[Node]:
    """The altar zone of an altar id (empty if unknown)."""
    found = _altars_by_id(params.map).get(altar_id)
    return frozenset() if found is None else found[1].zone


def altar_index(params: Params, altar_id: str) -> int | None:
    """Position of an altar in map order."""
    found = _altars_by_id(params.map).get(altar_id)
    return None if found is None else found[0]


@cache
def _altars_by_id(map_id: str) -> Mapping[str, tuple[int, maps.Altar]]:
    """Altar id -> (position in map order, altar), per map."""
    return MappingProxyType({altar.id: (i, altar) for i, altar in enumerate(maps.load_map(map_id).altars)})


def contested(params: Params, state: State, altar_id: str, team: str) -> bool:
    """An enemy of `team` stands in the altar zone ("Altar Contention")."""
    zone = zone_of(params, altar_id)
    return any(h.node in zone for h in state.heroes if h.team != team and h.node is not None)
