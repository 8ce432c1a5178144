"""What happens to units: shaken and destroyed, moved, placed, pushed, and the tokens they set off.

frontier.md, Shaken and Destroying Units: "If a unit that is shaken is required to become
shaken again, it is instead destroyed and removed from the board." Every effect that
moves or places a unit ends here, so falling, Pneumatic Leap and the 5" tokens (Knife
Missile, Minefield) apply the same way whatever moved it.
"""

from __future__ import annotations

import msgspec

from rulesets.frontier import board, movement
from rulesets.frontier.board import Point
from rulesets.frontier.params import Params
from rulesets.frontier.state import (
    State,
    Token,
    Trace,
    find,
    has,
    on_board,
    position,
    replace_unit,
)

replace = msgspec.structs.replace


def shake(state: State, unit_id: str | None) -> State:
    """The unit becomes shaken; a shaken unit is destroyed instead."""
    unit = find(state, unit_id)
    if unit is None or unit.status != "board":
        return state
    if unit.shaken:
        return destroy(state, unit.id)
    return replace_unit(state, replace(unit, shaken=True))


def destroy(state: State, unit_id: str) -> State:
    """The unit is destroyed and removed from the board."""
    unit = find(state, unit_id)
    if unit is None or unit.status != "board":
        return state
    return replace_unit(state, replace(unit, status="destroyed", at=None, level=0, shaken=False, primed=(), ghost=False))


def take_off(state: State, unit_id: str, status: str) -> State:
    """The unit leaves the board without being destroyed (`evacuated`, `removed`)."""
    unit = find(state, unit_id)
    if unit is None:
        return state
    return replace_unit(state, replace(unit, status=status, at=None, level=0, primed=(), ghost=False))


def shake_within(state: State, centre: Point, inches: float, *, besides: str | None = None) -> State:
    """Every unit on the table within some inches of a point becomes shaken."""
    for unit in list(on_board(state)):
        if unit.id != besides and board.distance(centre, position(unit)) <= inches + board.EPS:
            state = shake(state, unit.id)
    return state


def next_token_id(state: State, kind: str) -> tuple[str, State]:
    """A fresh token id and the state that counted it."""
    serial = state.serial + 1
    return f"{kind}-{serial}", replace(state, serial=serial)


def place_token(state: State, kind: str, owner: str | None, at: Point, token_id: str | None = None) -> State:
    """Put a token on the table; a knife missile or mine already within 5" of an enemy goes off."""
    if token_id is None:
        token_id, state = next_token_id(state, kind)
    state = replace(state, tokens=(*state.tokens, Token(id=token_id, kind=kind, owner=owner, at=at)))
    return token_moved(state, token_id, (at,))


def token_moved(state: State, token_id: str, path: tuple[Point, ...]) -> State:
    """Knife Missile / Minefield: "If at any point this token is within 5" of an enemy unit, that
    unit becomes shaken and the token is removed"."""
    found = next((t for t in state.tokens if t.id == token_id), None)
    if found is None or found.kind not in ("knife_missile", "mine") or found.owner is None:
        return state
    victims = movement.victims_of_token(state, found.owner, path)
    if not victims:
        return state
    state = replace(state, tokens=tuple(t for t in state.tokens if t.id != token_id))
    return shake(state, victims[0].id)


def unit_arrived(params: Params, state: State, unit_id: str, path: tuple[Point, ...], *, tokens: bool = True) -> State:
    """After a unit moved or was placed along `path`: the tokens it came within 5" of go off
    (unless the move ignored tokens), then Pneumatic Leap shakes enemies it moved into base
    contact with."""
    unit = find(state, unit_id)
    if unit is None or unit.status != "board":
        return state
    for token_id in movement.tokens_reached(state, unit, path) if tokens else ():
        state = replace(state, tokens=tuple(t for t in state.tokens if t.id != token_id))
        state = shake(state, unit_id)
    unit = find(state, unit_id)
    if unit is not None and unit.status == "board" and has(unit, "pneumatic_leap") and len(path) > 1:
        start = path[0]
        for enemy in list(on_board(state)):
            # "If this unit moves into base contact with an enemy unit, that unit becomes shaken."
            if enemy.side != unit.side and movement.in_contact(params, unit, position(unit), enemy) and not movement.in_contact(params, unit, start, enemy):
                state = shake(state, enemy.id)
    return state


def move_unit(params: Params, state: State, unit_id: str, to: Point, level: int, path: tuple[Point, ...], *, forced: bool = False) -> State:
    """A unit moves to a point: falls if its opponent moved it off terrain, then arrives."""
    unit = find(state, unit_id)
    if unit is None or unit.status != "board" or unit.at is None:
        return state
    start, z0 = unit.at, unit.level
    ignoring = movement.ignores_terrain(unit)
    primed = tuple(p for p in unit.primed if p != "jump_packs")  # "Add 5" ... for that move"
    state = replace_unit(state, replace(unit, at=to, level=level, primed=primed))
    route = (start, *path, to)
    state = replace(state, trace=(Trace(kind="path", points=route, label=unit_id),))
    if forced:
        drop = movement.fallen(state, unit, start, z0, to, level)
        result = movement.fall(unit, drop) if drop else None
        if result == "shaken":
            state = shake(state, unit_id)
        elif result == "destroyed":
            state = destroy(state, unit_id)
    return unit_arrived(params, state, unit_id, route, tokens=not ignoring)
