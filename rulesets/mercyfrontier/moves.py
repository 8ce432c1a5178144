"""What may happen next: the decisions a player may take, and what a chance step may give.

`legal` builds every decision of a phase from the rules it must meet, asking what every
candidate shares once per decision: where workers may stand (the seat's uncovered
territory), the collection and worker purchases, buildings and outposts, hires and
sweeps, placements, the Action Phase's abilities and moves (abilities before movement,
one move each unless a victor finishes its own, the walk's verdict), and the end of the
seat's part. The steps a pending outpost or combat forces are the candidates
`rules.check` finds nothing wrong in. `candidates` proposes every
decision before the rules filter it; the contract suite holds `legal` to exactly the
candidates `check` accepts, in order. Two kinds of decision have too many forms to list
(where every worker stands, which tokens pay for a card), so `legal` offers a bounded,
useful selection of them; a table may record any other form and the audit judges it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import combinations, islice, permutations

from events.base import Event
from rulesets.mercyfrontier import board
from rulesets.mercyfrontier.components import BEACONS, COSTS, card_type, credits
from rulesets.mercyfrontier.events import (
    AbilityUsed,
    BuildingBuilt,
    CardRevealed,
    CombatResolved,
    MarketSwept,
    MercenaryHired,
    MercenaryMoved,
    MercenaryPlaced,
    OutpostPlaced,
    OutpostPurchased,
    RelicDrawn,
    ResourcesCollected,
    StepFinished,
    TileUncovered,
    WorkersBought,
    WorkersPlaced,
)
from rulesets.mercyfrontier.movement import trampling_walks
from rulesets.mercyfrontier.params import Params
from rulesets.mercyfrontier.resources import RESOURCES, Resources
from rulesets.mercyfrontier.rules import beacons_of, check, draw_pile, outcome, refineries_left
from rulesets.mercyfrontier.state import (
    Merc,
    Player,
    State,
    Tile,
    building_at,
    collection,
    combat_damage,
    controller,
    in_territory,
    move_record,
    node_at,
    noncombat,
    placed_mercs,
    placements,
    player,
    stacks,
    territory,
)

PLACEMENTS_OFFERED = 40
"""How many worker placements `legal` offers (the best-looking first)."""


def chance(params: Params, state: State) -> list[tuple[Event, float]] | None:
    """At a chance step (a card flipped, a tile uncovered, a relic turned up), every outcome
    with its probability; None at a decision."""
    if not state.pending:
        return None
    pending = state.pending[0]
    if pending.kind == "reveal":
        return _uniform([CardRevealed(card=c) for c in draw_pile(state)])
    if pending.kind == "uncover" and pending.tile is not None:
        return _uniform([TileUncovered(tile=pending.tile, face=f) for f in state.faces])
    if pending.kind == "relic" and pending.tile is not None:
        return _uniform([RelicDrawn(tile=pending.tile, relic=r) for r in state.relic_pile])
    return None


def _uniform(events: list[Event]) -> list[tuple[Event, float]] | None:
    return [(e, 1 / len(events)) for e in events] if events else None


def legal(params: Params, state: State) -> list[Event]:
    """Every event offered next that the rules accept."""
    outcomes = chance(params, state)
    if outcomes is not None:
        return [event for event, _ in outcomes]
    if state.phase == "setup" or outcome(params, state) is not None:
        return []
    return _decisions(params, state, legal_only=True)


def candidates(params: Params, state: State) -> Iterator[Event]:
    """Every event proposed at a decision before the rules filter it (the contract's reference)."""
    if chance(params, state) is None and state.phase != "setup" and outcome(params, state) is None:
        yield from _decisions(params, state, legal_only=False)


def _accepted(params: Params, state: State, proposed: Iterator[Event], legal_only: bool) -> Iterator[Event]:
    """The proposals (only those `check` finds no error or warning in, if legal_only)."""
    if not legal_only:
        return proposed
    return (e for e in proposed if not any(v.severity != "info" for v in check(params, state, e)))


def _decisions(params: Params, state: State, *, legal_only: bool) -> list[Event]:
    """Every decision proposed, or (legal_only) every one the rules accept, in one list. A
    phase's decision is proposed only to the seat to act with nothing pending, so what
    `rules.check_turn` asks of every decision holds for each."""
    if state.pending:
        return list(_accepted(params, state, _forced(params, state), legal_only))
    p = player(state, state.actor)
    if p is None:
        return []
    spots: dict[str, tuple[board.Space, ...]] = {}
    if state.phase == "workers" and "placed" not in state.done:
        out = list(worker_placements(params, state, p, legal_only))
    elif state.phase == "building":
        out = list(_buildings(params, state, p, legal_only))
    elif state.phase == "placement":
        spots = {m.card: placements(params, state, m.card) for m in state.mercs if m.owner == p.seat and m.at is None}
        out = list(_placements(p, spots))
    elif state.phase == "action":
        out = list(_actions(params, state, p, legal_only))
    elif state.phase == "workers":
        out = list(_worker_moves(params, state, p, legal_only))
    else:
        out = list(_purchases(params, state, p, legal_only))
    if not legal_only or _may_finish(params, state, p, spots):
        out.append(StepFinished(by=p.seat))
    return out


def _may_finish(params: Params, state: State, p: Player, spots: dict[str, tuple[board.Space, ...]]) -> bool:
    """What `rules._check_finished` asks of the seat to act: the Worker Phase's placement and
    collection done, every token with room placed (`spots`: each unplaced token's spots),
    every noncombat ability triggered before the Action Phase ends."""
    if state.phase == "workers":
        return {"placed", "collected"} <= set(state.done)
    if state.phase == "placement":
        return not any(spots.values())
    if state.phase == "action":
        return "moved" in state.done or all(m.card in state.triggered for m in placed_mercs(state, p.seat) for _ in noncombat(m.card))
    return True


def _forced(params: Params, state: State) -> Iterator[Event]:
    """An outpost to place on its tile, or the damage of a combat."""
    pending = state.pending[0]
    if pending.kind == "outpost" and pending.tile is not None:
        for space in board.tile_spaces(params, pending.tile):
            yield OutpostPlaced(by=pending.seat, space=space)
    elif pending.kind == "combat":
        yield CombatResolved(attacker=pending.attacker, defenders=pending.defenders,
                             damage=combat_damage(pending.attacker, pending.defenders))


# --- workers --------------------------------------------------------------------------------------


def _worker_moves(params: Params, state: State, p: Player, legal_only: bool) -> Iterator[Event]:
    """After the placement: the collection (what the workers collect, as `rules._check_collected`
    asks), then worker purchases, legal where the purse pays for them (`rules._check_workers_bought`)."""
    if "collected" not in state.done:
        yield ResourcesCollected(by=p.seat, gained=collection(params, state, p.seat))
    elif "bought" not in state.done:
        for count in range(1, params.max_workers - p.workers - p.fresh + 1):
            cost = Resources(**{r: COSTS["worker"].of(r) * count for r in RESOURCES})
            if not legal_only or _pays(p.resources, cost):
                yield WorkersBought(by=p.seat, count=count)


def _pays(purse: Resources, cost: Resources) -> bool:
    """What `rules._pay` asks: no negative token, and the purse holds the payment."""
    return not cost.negative() and purse.covers(cost)


def useful_spaces(params: Params, state: State, seat: str) -> list[board.Space]:
    """Territory spaces worth a worker, best first: nodes (refined first), then spaces
    touching a tile an outpost could claim, then a few free spaces to build on."""
    own = territory(params, state, seat)
    spaces = [s for pos in own for s in board.tile_spaces(params, pos)]
    nodes = {at for at, _ in state.nodes}
    claimable = tuple(t.pos for t in state.tiles if t.home is None and controller(params, state, t.pos) is None)
    near_claimable = _touching(params, claimable)

    def rank(space: board.Space) -> tuple[int, board.Space]:
        if space in nodes:
            refined = (b := building_at(state, space)) is not None and b.kind == "refinery"
            return (0 if refined else 1), space
        if space in near_claimable:
            return 2, space
        return (3 if building_at(state, space) is None else 4), space

    ranks = {space: rank(space) for space in spaces}  # each space ranked once
    ranked = sorted(spaces, key=ranks.__getitem__)
    best = [s for s in ranked if ranks[s][0] <= 2]
    return best + [s for s in ranked if ranks[s][0] == 3][:4]


@functools.lru_cache(maxsize=256)  # pure geometry: the claimable tiles change only when one is claimed
def _touching(params: Params, tiles: tuple[board.TilePos, ...]) -> frozenset[board.Space]:
    """The spaces outside a tile that share an edge with one of its spaces, for any of the tiles."""
    return frozenset(near for pos in tiles for space in board.tile_spaces(params, pos) for near in board.neighbours(space)
                     if board.on_board(params, near) and board.touches_tile(params, near, pos))


def worker_placements(params: Params, state: State, p: Player, legal_only: bool = False) -> Iterator[Event]:
    """Up to PLACEMENTS_OFFERED ways to put every worker on a useful space; legal where
    every space is a distinct one of the seat's uncovered territory (`rules._check_workers_placed`:
    no more workers than the seat has, none placed yet this turn)."""
    spaces = useful_spaces(params, state, p.seat)
    count = min(p.workers, len(spaces))
    inside = {s for s in spaces if in_territory(params, state, p.seat, s)} if legal_only else set()
    every = not legal_only or len(inside) == len(spaces)  # distinct spaces, all inside: every choice is legal
    for chosen in islice(combinations(spaces, count), PLACEMENTS_OFFERED):
        if every or (all(s in inside for s in chosen) and len(set(chosen)) == len(chosen)):
            yield WorkersPlaced(by=p.seat, spaces=tuple(chosen))


# --- building ----------------------------------------------------------------------------------------


def _buildings(params: Params, state: State, p: Player, legal_only: bool) -> Iterator[Event]:
    """Each building the purse covers on each site (the worker's spaces, or the whole
    territory before the 4th play test), then each outpost; a building is legal where
    `rules._check_built` finds its space in the territory and free, a refinery on a node
    with a block left of its resource, a beacon of a kind the seat has not built."""
    sites = p.placed if params.worker_on_site else tuple(
        s for pos in territory(params, state, p.seat) for s in board.tile_spaces(params, pos))
    kinds = [kind for kind in ("refinery", *BEACONS) if p.resources.covers(COSTS[kind])]
    standing = beacons_of(state, p.seat)
    taken = stacks(params, state)
    for space in sites:
        free = not legal_only or (in_territory(params, state, p.seat, space) and building_at(state, space) is None and space not in taken)
        for kind in kinds:
            if free and (not legal_only or (_refinery_room(params, state, space) if kind == "refinery" else kind not in standing)):
                yield BuildingBuilt(by=p.seat, kind=kind, space=space)  # type: ignore[arg-type]
    if p.resources.covers(COSTS["outpost"]) and (not legal_only or (_pays(p.resources, COSTS["outpost"]) and p.outposts < params.outposts_per_player)):
        for t in state.tiles:
            if t.home is None and (not legal_only or _outpost_room(params, state, p, t, taken)):
                yield OutpostPurchased(by=p.seat, tile=t.pos)


def _outpost_room(params: Params, state: State, p: Player, t: Tile, taken: dict[board.Space, tuple[Merc, ...]]) -> bool:
    """What `rules._check_outpost` asks of a tile: nobody controls it, it is uncovered (or an
    outpost uncovers it), a worker of the seat touches it, and a space of it is free."""
    return (controller(params, state, t.pos) is None and (t.face is not None or params.uncovering == "outpost")
            and any(board.touches_tile(params, space, t.pos) for space in p.placed)
            and not all(s in taken or building_at(state, s) is not None for s in board.tile_spaces(params, t.pos)))


def _refinery_room(params: Params, state: State, space: board.Space) -> bool:
    """A node, with a refinery block of its resource still in the supply (`rules._check_refinery`)."""
    resource = node_at(state, space)
    return resource is not None and refineries_left(params, state, resource) > 0


# --- mercenaries ----------------------------------------------------------------------------------------


@functools.cache  # pure: a card's cost and values against a purse, asked at every purchase
def payments(cost: int, values: Resources, purse: Resources) -> tuple[Resources, ...]:
    """Ways to pay `cost` credits from a purse: tokens taken greedily in each order of the
    resources, then any token not needed put back (no two alike)."""
    found: list[Resources] = []
    value = [values.of(r) for r in RESOURCES]
    held = [purse.of(r) for r in RESOURCES]
    for order in permutations(range(len(RESOURCES))):
        taken = [0] * len(RESOURCES)
        paid_so_far = 0
        for i in order:
            while paid_so_far < cost and taken[i] < held[i]:
                taken[i] += 1
                paid_so_far += value[i]
        if paid_so_far < cost:
            continue
        for i in reversed(order):
            while taken[i] and paid_so_far - value[i] >= cost:
                taken[i] -= 1
                paid_so_far -= value[i]
        paid = Resources(**dict(zip(RESOURCES, taken, strict=True)))
        if paid not in found:
            found.append(paid)
    return tuple(found)


def _purchases(params: Params, state: State, p: Player, legal_only: bool) -> Iterator[Event]:
    """Each way to pay for each card of the row, then each sweep of two tokens; legal as
    `rules._check_hired` and `_check_swept` judge them: a free mercenary zone, a payment the
    purse holds worth the card's credits, a sweep of exactly its cost."""
    room = not legal_only or sum(1 for m in state.mercs if m.owner == p.seat) < params.mercenary_zones
    for card in state.market:
        found = card_type(card)
        if found is not None and room:
            for paid in payments(found.cost, found.values, p.resources):
                if not legal_only or (_pays(p.resources, paid) and credits(found, paid) >= found.cost):
                    yield MercenaryHired(by=p.seat, card=card, paid=paid)
    pairs = {tuple(sorted(pair)) for pair in combinations([r for r in RESOURCES for _ in range(min(p.resources.of(r), 2))], 2)}
    for a, b in sorted(pairs):
        paid = Resources(**{r: (a == r) + (b == r) for r in RESOURCES})
        if not legal_only or (paid.total() == params.sweep_cost and _pays(p.resources, paid)):
            yield MarketSwept(by=p.seat, paid=paid)


def _placements(p: Player, spots: dict[str, tuple[board.Space, ...]]) -> Iterator[Event]:
    """Each unplaced own token on each spot `placements` finds: where it fits, overlapping a
    tile of the seat's zone of control, which is all `rules._check_placed` asks."""
    for card, found in spots.items():
        for at in found:
            yield MercenaryPlaced(by=p.seat, card=card, space=at)


# --- actions ----------------------------------------------------------------------------------------------


def _actions(params: Params, state: State, p: Player, legal_only: bool) -> Iterator[Event]:
    """Each noncombat ability, then each move of each token (with and without trampling
    what stands in its way); legal as `movement.check_ability` and `check_move` judge them:
    abilities before any movement and once, every ability triggered before a move, one move
    per token unless the victor of a combat finishes its own, and a walk nothing stops."""
    mine = placed_mercs(state, p.seat)
    moved = "moved" in state.done
    for m in mine:
        for ability in noncombat(m.card):
            if not legal_only or (m.card not in state.triggered and not moved):
                yield AbilityUsed(by=p.seat, card=m.card, ability=ability)
    waiting = not moved and any(m.card not in state.triggered for m in mine for _ in noncombat(m.card))
    if legal_only and waiting:
        return
    for m in mine:
        record = move_record(state, m.card)
        again = record is not None and (not record.fought or record.left <= 0 or not params.victor_continues)
        for direction in board.DIRECTIONS:
            ruled_out = again or (record is not None and direction != record.direction)
            if legal_only and ruled_out:
                continue  # no move of this token this way is legal: its walk need not be traced
            for spaces, path in enumerate(trampling_walks(params, state, m, direction), start=1):
                ok = not (legal_only and (ruled_out or path.blocked))
                if ok and not (legal_only and path.trampled):
                    yield MercenaryMoved(by=p.seat, card=m.card, direction=direction, spaces=spaces)  # type: ignore[arg-type]
                if ok and path.trampled:
                    yield MercenaryMoved(by=p.seat, card=m.card, direction=direction, spaces=spaces, trample=path.trampled)  # type: ignore[arg-type]
