"""Mercy Frontier's state: frozen Structs and tuples, and the queries rules, moves and views share.

The turn's bookkeeping (phase, whose part of it, the priority token) is kept apart from
the board (tiles, buildings, workers, mercenary tokens) and the cards (row, deck, discard).
Piles are kept sorted: a shuffled pile has no order worth recording, and each flip is a
chance step over the cards it holds, all equally likely.
"""

from __future__ import annotations

import functools
from typing import Literal

import msgspec

from rulesets.memo import last_args, last_one, last_state
from rulesets.mercyfrontier import board
from rulesets.mercyfrontier.board import Space, TilePos
from rulesets.mercyfrontier.components import ABILITIES, RELICS, Mercenary, card_type
from rulesets.mercyfrontier.params import Params
from rulesets.mercyfrontier.resources import NOTHING, Resources, single

Phase = Literal["setup", "workers", "building", "purchase", "placement", "action"]
PHASES: tuple[Phase, ...] = ("workers", "building", "purchase", "placement", "action")
"""The four phases in order, the Mercenaries Phase in its two sub-steps (Playing the Game)."""
PendingKind = Literal["reveal", "uncover", "relic", "outpost", "combat"]

replace = msgspec.structs.replace


class Tile(msgspec.Struct, frozen=True, gc=False):
    """A battlefield tile: a home tile (its owner and place) or a covered tile's face."""

    pos: TilePos
    face: str | None = None
    """The uncovered face (`orange-base` for a home tile); None while covered."""
    home: str | None = None
    """The seat whose home row it is."""
    relic: str | None = None
    """The relic card found under it (middle tiles only)."""


class Building(msgspec.Struct, frozen=True, gc=False):
    """A building block on a space (every building has 1 hp)."""

    kind: str
    """`base`, `refinery`, `outpost` or a beacon (`beacon-biofuel` ...)."""
    owner: str
    at: Space
    resource: str = ""
    """A refinery's resource: the node it stands on."""


class Merc(msgspec.Struct, frozen=True, gc=False):
    """A hired mercenary: its contract card with health tokens, and its token once placed."""

    card: str
    owner: str
    health: int
    at: Space | None = None
    """Top-left space of the token; None until it is placed."""
    arrived: bool = False
    """A move took the token onto the far row of the board (Objective: "Get one merc to the
    other side of the board"): reaching it is a move, never a placement."""


class Player(msgspec.Struct, frozen=True, gc=False):
    """One seat's purse, workers and what it has built and lost."""

    seat: str
    resources: Resources
    workers: int
    """Workers it may place this turn."""
    fresh: int = 0
    """Workers bought this turn: "they may only be used next turn"."""
    placed: tuple[Space, ...] = ()
    """Where its workers stand this turn."""
    lost: int = 0
    """Its buildings destroyed by the opponent."""
    outposts: int = 0
    """Outpost blocks it has used (5 per colour)."""


class Pending(msgspec.Struct, frozen=True, gc=False):
    """A step the game waits for before anything else: a flip, an outpost, a combat."""

    kind: PendingKind
    seat: str = ""
    tile: TilePos | None = None
    attacker: str = ""
    defenders: tuple[str, ...] = ()


class MoveRecord(msgspec.Struct, frozen=True, gc=False):
    """How a mercenary has moved in this action phase: once, plus what it may finish."""

    card: str
    direction: str
    left: int
    """Movement points it has not used."""
    fought: bool = False
    """It met an enemy at the end of its last move (it may finish moving if it won)."""


class State(msgspec.Struct, frozen=True, gc=False):
    """A Mercy Frontier position, from setup to the end."""

    seats: tuple[str, ...]
    """Seats in the order of MatchStarted: the first is the oldest player (Setup 6)."""
    priority: str
    """Who holds the priority token this turn."""
    players: tuple[Player, ...]
    tiles: tuple[Tile, ...]
    nodes: tuple[tuple[Space, str], ...]
    """Resource nodes on uncovered tiles: (space, resource), sorted."""
    deck: tuple[str, ...]
    faces: tuple[str, ...]
    """Covered tile faces not yet seen."""
    relic_pile: tuple[str, ...]
    """Relic cards not yet found."""
    phase: Phase = "setup"
    actor: str | None = None
    """The seat whose part of the phase it is."""
    turn: int = 0
    buildings: tuple[Building, ...] = ()
    mercs: tuple[Merc, ...] = ()
    market: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    pending: tuple[Pending, ...] = ()
    done: tuple[str, ...] = ()
    """Sub-steps the actor has done in this phase: placed, collected, bought, moved."""
    finished: tuple[str, ...] = ()
    """Seats whose part of this phase is over (in priority order at a table that keeps it;
    a table that let the other seat go first is followed, and the phase ends when both are)."""
    triggered: tuple[str, ...] = ()
    """Mercenaries whose noncombat ability has triggered in this action phase."""
    moves: tuple[MoveRecord, ...] = ()
    creature_to: str | None = None
    """Who received the beacon's creature (only the first to build 3 does)."""


# --- seats -----------------------------------------------------------------------------------


def player(state: State, seat: str | None) -> Player | None:
    """The seat's purse and workers."""
    for p in state.players:
        if p.seat == seat:
            return p
    return None


def replace_player(state: State, updated: Player, **changes: object) -> State:
    """The state with one seat's player replaced (and other fields changed)."""
    players = tuple(updated if p.seat == updated.seat else p for p in state.players)
    return replace(state, players=players, **changes)


def other(state: State, seat: str) -> str:
    """The opponent."""
    return next((s for s in state.seats if s != seat), seat)


def turn_order(state: State) -> tuple[str, str]:
    """Priority first, then the other player (Mercenary Purchase 1.a, Action Phase 1.a)."""
    return state.priority, other(state, state.priority)


# --- tiles and territory ---------------------------------------------------------------------


def tile(state: State, pos: TilePos) -> Tile | None:
    """The tile at a tile position."""
    return _tiles_by_pos(state.tiles).get(pos)


@last_one  # every space a worker, building or token might take asks of the same tiles (rulesets/memo.py)
def _tiles_by_pos(tiles: tuple[Tile, ...]) -> dict[TilePos, Tile]:
    """The tiles by position (the first at a position, as a scan finds it)."""
    out: dict[TilePos, Tile] = {}
    for t in tiles:
        out.setdefault(t.pos, t)
    return out


def covered(state: State, pos: TilePos) -> bool:
    """A tile still flipped over."""
    found = tile(state, pos)
    return found is not None and found.face is None


def controller(params: Params, state: State, pos: TilePos) -> str | None:
    """Who controls a tile: its home row's owner, else the owner of an outpost on it."""
    found = tile(state, pos)
    if found is None:
        return None
    if found.home is not None:
        return found.home
    return _outposts(params, state.buildings).get(pos)


@last_state  # every tile's controller asks it of the same buildings (rulesets/memo.py)
def _outposts(params: Params, buildings: tuple[Building, ...]) -> dict[TilePos, str]:
    """The owner of the first outpost on each tile that has one."""
    out: dict[TilePos, str] = {}
    for b in buildings:
        if b.kind == "outpost":
            out.setdefault(board.tile_of(params, b.at), b.owner)
    return out


def territory(params: Params, state: State, seat: str) -> tuple[TilePos, ...]:
    """The uncovered tiles a seat controls: its zone of control."""
    return _territories(params, state.tiles, state.buildings).get(seat, ())


@last_args  # every placement, building and worker asks it of the same tiles and buildings (rulesets/memo.py)
def _territories(params: Params, tiles: tuple[Tile, ...], buildings: tuple[Building, ...]) -> dict[str | None, tuple[TilePos, ...]]:
    """Every controller's uncovered tiles, in tile order (`controller` of each)."""
    by_pos, outposts = _tiles_by_pos(tiles), _outposts(params, buildings)
    out: dict[str | None, list[TilePos]] = {}
    for t in tiles:
        if t.face is not None:
            first = by_pos[t.pos]
            out.setdefault(first.home if first.home is not None else outposts.get(t.pos), []).append(t.pos)
    return {seat: tuple(found) for seat, found in out.items()}


def in_territory(params: Params, state: State, seat: str, space: Space) -> bool:
    """Whether a space lies on an uncovered tile the seat controls (only that tile is asked,
    not the whole territory: `territory` would answer the same, for every tile)."""
    if not board.on_board(params, space):
        return False
    pos = board.tile_of(params, space)
    found = tile(state, pos)
    return found is not None and found.face is not None and controller(params, state, pos) == seat


def node_at(state: State, space: Space) -> str | None:
    """The resource of a node on this space, if any."""
    return _nodes_by_space(state.nodes).get(space)


@last_one  # every worker space a bot weighs asks it of the same nodes (rulesets/memo.py)
def _nodes_by_space(nodes: tuple[tuple[Space, str], ...]) -> dict[Space, str]:
    """The nodes' resources by space (the first on a space, as a scan finds it)."""
    out: dict[Space, str] = {}
    for at, resource in nodes:
        out.setdefault(at, resource)
    return out


def relics_held(params: Params, state: State, seat: str) -> tuple[str, ...]:
    """Relic cards the seat holds: those under tiles it controls (Building Phase 3.a)."""
    return tuple(t.relic for t in state.tiles if t.relic is not None and controller(params, state, t.pos) == seat)


# --- buildings, workers, tokens ------------------------------------------------------------------


def building_at(state: State, space: Space) -> Building | None:
    """The building on a space."""
    return _buildings_by_space(state.buildings).get(space)


@last_one  # every space a worker, building or token might take asks of the same buildings (rulesets/memo.py)
def _buildings_by_space(buildings: tuple[Building, ...]) -> dict[Space, Building]:
    """The buildings by space (the first on a space, as a scan finds it)."""
    out: dict[Space, Building] = {}
    for b in buildings:
        out.setdefault(b.at, b)
    return out


def merc(state: State, card: str) -> Merc | None:
    """A hired mercenary by its card."""
    for m in state.mercs:
        if m.card == card:
            return m
    return None


def card_of(card: str) -> Mercenary:
    """A mercenary card's printed values; callers check `known` first for a table's input."""
    found = card_type(card)
    if found is None:
        raise KeyError(card)
    return found


def known(card: str) -> bool:
    """Whether a card id names a card of the game."""
    return card_type(card) is not None


def spaces_of(m: Merc) -> tuple[Space, ...]:
    """The spaces a placed token covers."""
    return board.footprint(m.at, card_of(m.card).size) if m.at is not None else ()


def occupancy(state: State, leaving: str | None = None) -> dict[Space, Merc]:
    """Space -> the token on it (the `leaving` card left out)."""
    return {space: m for m in state.mercs if m.card != leaving for space in spaces_of(m)}


@last_state  # every step of every walk a bot weighs asks it of the same state (rulesets/memo.py)
def stacks(params: Params, state: State) -> dict[Space, tuple[Merc, ...]]:
    """Space -> the tokens on it, in the order of `state.mercs` (more than one only where a
    table let tokens overlap: `occupancy` keeps the last)."""
    out: dict[Space, tuple[Merc, ...]] = {}
    for m in state.mercs:
        for space in spaces_of(m):
            out[space] = (*out.get(space, ()), m)
    return out


def placed_mercs(state: State, seat: str) -> tuple[Merc, ...]:
    """The seat's tokens on the board."""
    return tuple(m for m in state.mercs if m.owner == seat and m.at is not None)


@functools.lru_cache(maxsize=1024)  # pure: a card's printed rarity under params, asked at every move
def allowance(params: Params, card: str) -> int:
    """Spaces a mercenary may move: by rarity (Movement 2.a), one more with sprint."""
    found = card_of(card)
    base = {"common": params.move_common, "heroic": params.move_heroic, "legendary": params.move_legendary}[found.rarity]
    return base + (1 if found.has("sprint") else 0)


@functools.lru_cache(maxsize=1024)  # pure: a card's printed abilities, asked at every action decision
def noncombat(card: str) -> tuple[str, ...]:
    """The card's noncombat abilities (they trigger before movement)."""
    return tuple(a for a in card_of(card).abilities if ABILITIES[a].kind == "noncombat")


def move_record(state: State, card: str) -> MoveRecord | None:
    """How the mercenary has moved in this action phase."""
    for record in state.moves:
        if record.card == card:
            return record
    return None


def collection(params: Params, state: State, seat: str) -> Resources:
    """Resource Collection: a token per worker on a node, 2 with a refinery; relic income."""
    p = player(state, seat)
    gained = NOTHING
    if p is None:
        return gained
    for space in p.placed:
        resource = node_at(state, space)
        if resource is None:
            continue
        refinery = building_at(state, space)
        doubled = refinery is not None and refinery.kind == "refinery"
        gained = gained.plus(single(resource, 2 if doubled else 1))
    for relic in relics_held(params, state, seat):
        gained = gained.plus(RELICS[relic].income)
    return gained


def damage(attacker: str, target: str) -> int:
    """What one mercenary deals to another in combat: its attack, less the target's armor."""
    hit = card_of(attacker).attack
    return max(hit - (1 if card_of(target).has("armor") else 0), 0)


def combat_damage(attacker: str, defenders: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Combat 3.b: the attacker deals its damage to every defender, and the defenders'
    damage is combined on the attacker, all at once."""
    taken = [(attacker, sum(damage(d, attacker) for d in defenders))]
    taken += [(d, damage(attacker, d)) for d in defenders]
    return tuple(taken)


def free_for_token(params: Params, state: State, at: Space, size: int, leaving: str | None = None) -> bool:
    """A token fits here: on the board, on uncovered tiles, over no token and no building."""
    taken = stacks(params, state)
    for space in board.footprint(at, size):
        if not board.on_board(params, space) or covered(state, board.tile_of(params, space)):
            return False
        if any(m.card != leaving for m in taken.get(space, ())) or building_at(state, space) is not None:
            return False
    return True


def placements(params: Params, state: State, card: str) -> tuple[Space, ...]:
    """Every top-left space where the card's token may be placed (Mercenary Placement 2.a, 2.c):
    it fits, and it overlaps at least one space of a tile in its owner's zone of control."""
    m = merc(state, card)
    if m is None or not known(card):
        return ()
    size = card_of(card).size
    room = open_spaces(params, state)
    return tuple(at for at in _overlapping(params, frozenset(territory(params, state, m.owner)), size)
                 if all(space in room for space in board.footprint(at, size)))


@functools.lru_cache(maxsize=1024)  # pure geometry: a zone of control changes only when a tile does
def _overlapping(params: Params, zone: frozenset[TilePos], size: int) -> tuple[Space, ...]:
    """Every top-left space, in order, of a size x size token overlapping a space of the zone's tiles."""
    found = set()
    for pos in zone:
        for sx, sy in board.tile_spaces(params, pos):
            for dx in range(size):
                for dy in range(size):
                    found.add((sx - dx, sy - dy))
    return tuple(sorted(found))


@last_state  # every spot of every token to place asks it of the same state (rulesets/memo.py)
def open_spaces(params: Params, state: State) -> frozenset[Space]:
    """The spaces a token may cover: on the board, uncovered, under no token and no building
    (`free_for_token` asks this of each space of a footprint)."""
    return _uncovered(params, state.tiles).difference(stacks(params, state), _buildings_by_space(state.buildings))


@last_args  # the tiles change only when one is uncovered (rulesets/memo.py)
def _uncovered(params: Params, tiles: tuple[Tile, ...]) -> frozenset[Space]:
    """Every space of the board on a tile not covered (`covered` of its tile)."""
    by_pos = _tiles_by_pos(tiles)
    return frozenset(space for pos in board.tiles(params) if (t := by_pos.get(pos)) is None or t.face is not None
                     for space in board.tile_spaces(params, pos))


def uncovering(params: Params, state: State, pos: TilePos) -> list[Pending]:
    """The chance steps of uncovering a tile: its face, and the relic under a middle tile."""
    steps = [Pending("uncover", tile=pos)] if state.faces else []
    found = tile(state, pos)
    if params.relics and pos[1] == board.middle_row(params) and state.relic_pile and found is not None and found.relic is None:
        steps.append(Pending("relic", tile=pos))
    return steps
