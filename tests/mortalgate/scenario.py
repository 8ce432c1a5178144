"""Positions for rule tests: heroes where a test needs them, without playing a draft.

Tests then feed events through the public Ruleset functions (`check`, `apply`,
`outcome`), exactly as a replay does.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.base import Event
from projections.corpus.simulate import play as play_game
from rulesets import registry
from rulesets.mortalgate import board
from rulesets.mortalgate.state import Draft, Hero, State, Turn, game_map, stats
from rulesets.registry import Rules

RED = ("drexir", "seiren", "elazar", "dekhar")
BLUE = ("sabea", "greven", "yodan", "zadita")


def rules(version: str = "2.5") -> Rules:
    """Resolved rules of one MortalGate version."""
    return registry.resolve(f"mortalgate@{version}")


def clearing(r: Rules, radius: int = 4) -> tuple[int, int]:
    """A node with open ground all around (no terrain, spawn or altar zone within radius)."""
    gmap = game_map(r.params)
    busy = set(gmap.impassable) | {n for nodes in gmap.spawns.values() for n in nodes}
    busy |= {n for a in gmap.altars for n in a.zone}
    for col in range(radius, gmap.width - radius):
        for row in range(radius, gmap.height - radius):
            around = [(c, w) for c in range(gmap.width) for w in range(gmap.height) if board.distance((col, row), (c, w)) <= radius]
            if not busy & set(around):
                return (col, row)
    raise AssertionError("no clearing on this map")


def step(origin: tuple[int, int], direction: int, count: int = 1) -> tuple[int, int]:
    """The node `count` steps from origin in a fixed neighbour direction."""
    node = origin
    for _ in range(count):
        node = board.step(node, direction)
    return node


def position(r: Rules, at: dict[str, tuple[int, int] | None], *, turn: str, **turn_fields: Any) -> State:
    """A play position: every hero of both teams (red: RED, blue: BLUE) at `at` (others off-board
    at spawn), `turn` hero to act in its movement phase."""
    gmap = game_map(r.params)
    spawn = {team: iter(nodes) for team, nodes in gmap.spawns.items()}
    heroes = []
    taken = {n for n in at.values() if n is not None}
    for team, names in (("red", RED), ("blue", BLUE)):
        for name in names:
            node = at.get(name, "spawn")
            if node == "spawn":
                node = next(n for n in spawn[team] if n not in taken)
                taken.add(node)
            heroes.append(Hero(id=name, team=team, seat=team, node=node, health=stats(r.params, name).health))
    order = tuple(RED), tuple(BLUE)
    state = State(
        seats=(("red", "red"), ("blue", "blue")), stage="play", heroes=tuple(heroes), order=order,
        altars=(None,) * len(gmap.altars), turns=1,
        cursor=_cursor(turn),
        turn=Turn(hero=turn, attacks_left=1, **turn_fields),
    )
    return msgspec.structs.replace(state, draft=Draft(winner="red", first_pick="blue", first_turn="red",
                                                       picks=tuple((h.id, h.seat) for h in heroes)))


def _cursor(hero: str) -> int:
    interleaved = [x for pair in zip(RED, BLUE, strict=True) for x in pair]
    return interleaved.index(hero) + 1


def hero(state: State, name: str) -> Hero:
    """A hero of the position (must exist)."""
    found = next(h for h in state.heroes if h.id == name)
    return found


def with_hero(state: State, name: str, **changes: Any) -> State:
    """The position with one hero's sheet changed."""
    heroes = tuple(msgspec.structs.replace(h, **changes) if h.id == name else h for h in state.heroes)
    return msgspec.structs.replace(state, heroes=heroes)


def violations(r: Rules, state: State, event: Event) -> list[str]:
    """Rule ids the event breaks here."""
    return [v.rule for v in r.ruleset.check(r.params, state, event)]


def play(r: Rules, state: State, *events: Event) -> State:
    """Apply events in order (checking nothing)."""
    for event in events:
        state = r.ruleset.apply(r.params, state, event)
    return state


def positions(version: str, seed: int) -> list[State]:
    """Every position in play of a heuristic game of `version` from `seed`: the states a
    shortcut is held to the plain rule at."""
    r = rules(version)
    log = play_game(r, r.ruleset.example_seats, seed=seed, bot="heuristic")
    state, out = r.ruleset.setup(r.params, log[0]), []
    for event in log[1:-1]:
        state = r.ruleset.apply(r.params, state, event)
        if state.stage == "play":
            out.append(state)
    return out
