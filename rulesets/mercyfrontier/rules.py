"""Mercy Frontier's rules: setup, the check of every event, its effect, and the outcome.

One small handler per event type for `check` and one for `apply`. `check` names every
rule an event breaks, by an id `mercyfrontier/<section>.<rule>` and the passage of
../shared/rules/mercy-frontier.txt it encodes; `apply` folds the event in as the table
played it, legal or not, so a replay goes on past a table's mistake as the game did.
Movement and combat live in `movement.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.base import Event
from events.shared import MatchStarted
from rulesets.memo import last_args, last_state
from rulesets.mercyfrontier import board, movement
from rulesets.mercyfrontier.components import (
    BASE_AT,
    BATTLE_CRIES,
    BEACONS,
    COSTS,
    DECK,
    FACES,
    HOME,
    MERCENARIES,
    RELICS,
    TITAN,
    credits,
)
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
from rulesets.mercyfrontier.params import Params
from rulesets.mercyfrontier.resources import RESOURCES, Resources
from rulesets.mercyfrontier.ruleids import RULE_IDS
from rulesets.mercyfrontier.state import (
    PHASES,
    Building,
    Merc,
    Pending,
    Phase,
    Player,
    State,
    Tile,
    building_at,
    card_of,
    collection,
    controller,
    covered,
    free_for_token,
    in_territory,
    known,
    merc,
    node_at,
    placements,
    player,
    replace,
    replace_player,
    stacks,
    tile,
    turn_order,
    uncovering,
)
from rulesets.protocol import Outcome, Severity, Violation

Problems = list[Violation]
SEATS = board.SEATS


def rule_violation(event: Event, rule: str, message: str, severity: Severity = "error") -> Violation:
    """A violation of the declared rule `mercyfrontier/<rule>` at the event's seq."""
    return RULE_IDS.violation(event, rule, message, severity)


_v = rule_violation


# --- setup (Setup 1-6) ------------------------------------------------------------------------


def validate_start(params: Params, started: MatchStarted) -> list[str]:
    """Two seats, orange and yellow (the outpost colours); a board with a centre tile."""
    problems = []
    seats = list(started.seats)
    if sorted(seats) != sorted(SEATS):
        problems.append(f"Mercy Frontier is played by 2 players seated as orange and yellow (the outpost colours), not {', '.join(seats) or 'nobody'}")
    if params.tile_columns < 1 or params.tile_columns % 2 == 0:
        problems.append(f"tile_columns {params.tile_columns}: the base tile sits in the centre of the home row, so the row needs an odd number of tiles")
    if params.tile_rows < 3 or params.tile_size < 2:
        problems.append("the board needs at least 3 rows of tiles (two home rows and the middle) of at least 2 x 2 spaces")
    return problems


def setup(params: Params, started: MatchStarted) -> State:
    """Home rows uncovered with a base each, the rest covered; 3 of each resource (2 and two
    refineries in the accelerated start); the oldest (first) seat holds the priority token;
    four mercenary cards are flipped into the row (chance steps)."""
    seats = tuple(started.seats)
    tiles, nodes, buildings = [], [], []
    for pos in board.tiles(params):
        owner = next((s for s in SEATS if board.home_row(params, s) == pos[1]), None)
        if owner is None:
            tiles.append(Tile(pos))
            continue
        place = next(p for p, where in board.home_tiles(params, owner).items() if where == pos)
        tiles.append(Tile(pos, face=f"{owner}-{place}", home=owner))
        for node in HOME[place]:
            space = board.local_to_space(params, owner, pos, node.at)
            nodes.append((space, node.resource))
            if place == "base" and params.start_refineries:
                buildings.append(Building("refinery", owner, space, node.resource))
        if place == "base":
            buildings.append(Building("base", owner, board.local_to_space(params, owner, pos, BASE_AT)))
    start = Resources(biofuel=params.start_resources, neosteel=params.start_resources, crystal=params.start_resources)
    players = tuple(Player(seat=s, resources=start, workers=params.start_workers) for s in seats)
    return State(
        seats=seats, priority=seats[0] if seats else "", players=players, tiles=tuple(tiles), nodes=tuple(sorted(nodes)),
        deck=tuple(sorted(DECK)), faces=tuple(sorted(FACES)), relic_pile=tuple(sorted(RELICS)) if params.relics else (),
        buildings=tuple(buildings), pending=(Pending("reveal"),) * params.market_size,
    )


# --- the turn: who acts, in which phase -----------------------------------------------------------

PHASE_NAMES = {"setup": "setup", "workers": "Worker Phase", "building": "Building Phase",
               "purchase": "Mercenary Purchase", "placement": "Mercenary Placement", "action": "Action Phase"}


def awaited(state: State, kind: str) -> Pending | None:
    """The step the table waits for next, if it is of this kind (steps resolve in order)."""
    return state.pending[0] if state.pending and state.pending[0].kind == kind else None


WAITING_RULES = {"relic": "relics.control", "uncover": "outposts.uncover", "reveal": "mercenaries.refill"}
"""The rule that makes the table wait for each kind of step (what a step made early breaks)."""


def waiting(pending: Pending) -> str:
    """What a pending step waits for, in words."""
    return {
        "reveal": "a mercenary card to be flipped into the row",
        "uncover": f"tile {pending.tile} to be uncovered",
        "relic": f"the relic card under tile {pending.tile}",
        "outpost": f"{pending.seat}'s outpost to be placed on tile {pending.tile}",
        "combat": f"the combat of {pending.attacker} against {', '.join(pending.defenders)}",
    }[pending.kind]


def check_turn(params: Params, state: State, event: Event, phase: Phase) -> Problems:
    """A decision of `phase`: the game is on, nothing waits, it is that phase and this seat's part."""
    if state.phase == "setup":
        return [_v(event, "setup.market", "the game starts once four mercenary cards are flipped into the row (Setup 3)")]
    problems = []
    if (result := outcome(params, state)) is not None:
        problems.append(_v(event, "victory.game-over", f"the game is already over: {result.reason}"))
    if state.pending:
        problems.append(_v(event, "turn.pending", f"the table still waits for {waiting(state.pending[0])}"))
    if state.phase != phase:
        problems.append(_v(event, "turn.phase", f"{type(event).__name__} belongs to the {PHASE_NAMES[phase]}, but it is the {PHASE_NAMES[state.phase]}"))
    if event.by != state.actor:
        rule = "turn.priority" if state.phase in ("purchase", "placement", "action") else "turn.order"
        problems.append(_v(event, rule, f"it is {state.actor}'s part of the {PHASE_NAMES[state.phase]} "
                                                f"(priority: {state.priority} first), not {event.by or 'nobody'}'s"))
    return problems


def _pay(event: Event, purse: Resources, cost: Resources, rule: str, what: str) -> Problems:
    if cost.negative():
        return [_v(event, rule, f"a payment cannot hold negative tokens ({cost.text()})")]
    if not purse.covers(cost):
        return [_v(event, rule, f"{what} costs {cost.text()}; {event.by} holds {purse.text()}")]
    return []


# --- 1. worker phase ------------------------------------------------------------------------------


def _check_workers_placed(params: Params, state: State, event: WorkersPlaced) -> Problems:
    """Worker Placement: "places them anywhere in their uncovered territory"."""
    problems = check_turn(params, state, event, "workers")
    p = player(state, event.by)
    if p is None:
        return problems
    fresh = p.workers < len(event.spaces) <= p.workers + p.fresh  # Worker Purchase 3.a: "they may only be used next turn"
    if fresh:  # (a placement again after buying, to use the new workers, is that one mistake)
        problems.append(_v(event, "workers.next-turn", f"{event.by} places {len(event.spaces)} workers but has {p.workers} to place "
                                                       f"(the {p.fresh} bought this turn may only be used next turn)"))
    elif "placed" in state.done:
        problems.append(_v(event, "workers.placement", f"{event.by} already placed its workers this turn"))
    if len(event.spaces) > p.workers + p.fresh:
        problems.append(_v(event, "workers.placement", f"{event.by} places {len(event.spaces)} workers but has {p.workers} to place"))
    if len(set(event.spaces)) != len(event.spaces):
        problems.append(_v(event, "workers.placement", "two workers on one space: each worker die stands on its own space"))
    for space in event.spaces:
        if not in_territory(params, state, p.seat, space):
            problems.append(_v(event, "workers.territory", f"{space} is not in {p.seat}'s uncovered territory"))
    return problems


def _check_collected(params: Params, state: State, event: ResourcesCollected) -> Problems:
    """Resource Collection: "collect a single resource token for each worker on a
    corresponding resource tile. If there is a refinery on that tile, collect 2 tokens"."""
    problems = check_turn(params, state, event, "workers")
    if "placed" not in state.done:
        return [*problems, _v(event, "workers.sequence", "resources are collected after the workers are placed")]
    if "collected" in state.done:
        return [*problems, _v(event, "workers.sequence", f"{event.by} already collected this turn")]
    due = collection(params, state, event.by or "")
    if event.gained != due:
        problems.append(_v(event, "workers.collection", f"{event.by} collected {event.gained.text()}; its workers collect {due.text()} "
                                                        "(1 per worker on a node, 2 with a refinery, plus relic income)"))
    return problems


def _check_workers_bought(params: Params, state: State, event: WorkersBought) -> Problems:
    """Worker Purchase: "Players may then purchase additional workers"."""
    problems = check_turn(params, state, event, "workers")
    p = player(state, event.by)
    if p is None:
        return problems
    if "collected" not in state.done:
        problems.append(_v(event, "workers.sequence", "workers are purchased after resource collection"))
    if event.count < 1:
        return [*problems, _v(event, "workers.purchase", "a purchase buys at least one worker")]
    cost = Resources(**{r: COSTS["worker"].of(r) * event.count for r in RESOURCES})
    problems += _pay(event, p.resources, cost, "workers.purchase", f"{event.count} worker(s)")
    if p.workers + p.fresh + event.count > params.max_workers:
        problems.append(_v(event, "workers.limit", f"{event.by} would have {p.workers + p.fresh + event.count} workers: there are {params.max_workers} worker dice per player"))
    return problems


# --- 2. building phase ------------------------------------------------------------------------------


def _check_built(params: Params, state: State, event: BuildingBuilt) -> Problems:
    """Building Phase 1: resources, a worker on the building's space, room for it."""
    problems = check_turn(params, state, event, "building")
    p = player(state, event.by)
    if p is None:
        return problems
    problems += _pay(event, p.resources, COSTS[event.kind], "building.cost", f"a {event.kind}")
    if not in_territory(params, state, p.seat, event.space):
        return [*problems, _v(event, "building.territory", f"{event.space} is not in {p.seat}'s uncovered territory")]
    if params.worker_on_site and event.space not in p.placed:
        problems.append(_v(event, "building.worker", f"no worker of {p.seat} stands on {event.space}: 'Have at least 1 worker unit on a tile that the building will be built on'"))
    if (there := building_at(state, event.space)) is not None or event.space in stacks(params, state):
        what = f"a {there.kind}" if there else "a mercenary token"
        problems.append(_v(event, "building.space", f"{event.space} holds {what}: 'Have enough space to fit the building'"))
    if event.kind == "refinery":
        problems += _check_refinery(params, state, event)
    elif event.kind in beacons_of(state, p.seat):
        problems.append(_v(event, "beacons.supply", f"{p.seat}'s {event.kind} already stands: 2 temple blocks of each kind, one per player"))
    return problems


def beacons_of(state: State, seat: str) -> tuple[str, ...]:
    """The beacon kinds standing for a seat."""
    return tuple(b.kind for b in state.buildings if b.owner == seat and b.kind in BEACONS)


def _check_refinery(params: Params, state: State, event: BuildingBuilt) -> Problems:
    """A refinery stands on a resource node (Resource Collection 2.a) from the 7/7/6 blocks."""
    resource = node_at(state, event.space)
    if resource is None:
        return [_v(event, "building.refinery", f"{event.space} is no resource node: a refinery doubles what a worker collects on a node")]
    if refineries_left(params, state, resource) <= 0:
        return [_v(event, "building.supply", f"all {params.refinery_supply[RESOURCES.index(resource)]} {resource} refinery blocks are on the board")]
    return []


def refineries_left(params: Params, state: State, resource: str) -> int:
    """Refinery blocks of a resource still in the supply."""
    supply = params.refinery_supply[RESOURCES.index(resource)]
    return supply - sum(1 for b in state.buildings if b.kind == "refinery" and b.resource == resource)


def _check_outpost(params: Params, state: State, event: OutpostPurchased) -> Problems:
    """Building Phase 2: "have a worker touching the covered tile in which you wish to build
    an outpost"; from the 7th play test "flip over the covered board tile"."""
    problems = check_turn(params, state, event, "building")
    p = player(state, event.by)
    found = tile(state, event.tile)
    if p is None:
        return problems
    if found is None:
        return [*problems, _v(event, "outposts.tile", f"{event.tile} is not a battlefield tile")]
    problems += _pay(event, p.resources, COSTS["outpost"], "building.cost", "an outpost")
    if found.home is not None or controller(params, state, found.pos) is not None:
        problems.append(_v(event, "outposts.tile", f"tile {event.tile} is already controlled by {controller(params, state, found.pos)}"))
    if found.face is None and params.uncovering != "outpost":
        problems.append(_v(event, "outposts.uncover", f"tile {event.tile} is covered: before the 7th play test an outpost did not uncover a tile"))
    if not any(board.touches_tile(params, space, event.tile) for space in p.placed):
        problems.append(_v(event, "outposts.worker", f"no worker of {p.seat} touches tile {event.tile}"))
    if p.outposts >= params.outposts_per_player:
        problems.append(_v(event, "outposts.supply", f"{p.seat} has used its {params.outposts_per_player} outpost blocks"))
    taken = stacks(params, state)
    if all(s in taken or building_at(state, s) is not None for s in board.tile_spaces(params, event.tile)):
        problems.append(_v(event, "outposts.place", f"tile {event.tile} has no free space for the outpost block"))
    return problems


def _check_outpost_placed(params: Params, state: State, event: OutpostPlaced) -> Problems:
    """"An outpost may then be built on any free tile" of the tile it was bought for."""
    pending = awaited(state, "outpost")
    if pending is None and any(p.kind == "outpost" for p in state.pending):
        first = state.pending[0]  # bought, but a step before it is still to be made: name that step's rule
        return [_v(event, WAITING_RULES.get(first.kind, "turn.pending"),
                   f"the table still waits for {waiting(first)} before the outpost is placed")]
    if pending is None:
        return [_v(event, "outposts.place", "no outpost is waiting to be placed: buy one first (OutpostPurchased)")]
    problems = []
    if event.by != pending.seat:
        problems.append(_v(event, "turn.order", f"the outpost is {pending.seat}'s, not {event.by}'s"))
    if not board.on_board(params, event.space) or board.tile_of(params, event.space) != pending.tile:
        problems.append(_v(event, "outposts.place", f"{event.space} is not on tile {pending.tile}, the tile the outpost was bought for"))
    elif building_at(state, event.space) is not None or event.space in stacks(params, state):
        problems.append(_v(event, "outposts.place", f"{event.space} is not free"))
    return problems


def _check_uncovered(params: Params, state: State, event: TileUncovered) -> Problems:
    pending = awaited(state, "uncover")
    if pending is None:
        return [_v(event, "outposts.uncover", f"nothing uncovers tile {event.tile} now")]
    problems = []
    if event.tile != pending.tile:
        problems.append(_v(event, "outposts.uncover", f"tile {pending.tile} is being uncovered, not {event.tile}"))
    if event.face not in state.faces:
        problems.append(_v(event, "setup.tiles", f"{event.face!r} is not a covered tile face still unseen"))
    return problems


def _check_relic(params: Params, state: State, event: RelicDrawn) -> Problems:
    pending = awaited(state, "relic")
    if pending is None or event.tile != pending.tile:
        return [_v(event, "relics.control", f"no relic card is being turned up under tile {event.tile}")]
    if event.relic not in state.relic_pile:
        return [_v(event, "setup.relics", f"{event.relic!r} is not a relic card still under a tile")]
    return []


def _check_revealed(params: Params, state: State, event: CardRevealed) -> Problems:
    pending = awaited(state, "reveal")
    if pending is None:
        return [_v(event, "mercenaries.refill", "no card is flipped now: the row is filled at setup, after a sweep and when a player finishes purchasing")]
    if event.card not in draw_pile(state):
        return [_v(event, "mercenaries.refill", f"{event.card!r} is not in the mercenary deck")]
    return []


def draw_pile(state: State) -> tuple[str, ...]:
    """Where flipped cards come from: the deck; once it is empty, the shuffled discard pile."""
    return state.deck or state.discard


# --- 3. mercenaries phase ----------------------------------------------------------------------------


def _check_hired(params: Params, state: State, event: MercenaryHired) -> Problems:
    """Mercenary Purchase 1.b-c: a card of the row, paid with tokens worth its credits."""
    problems = check_turn(params, state, event, "purchase")
    p = player(state, event.by)
    if p is None:
        return problems
    if event.card not in state.market or not known(event.card):
        return [*problems, _v(event, "mercenaries.market", f"{event.card!r} is not one of the {len(state.market)} available mercenaries ({', '.join(state.market)})")]
    card = card_of(event.card)
    problems += _pay(event, p.resources, event.paid, "mercenaries.payment", "the payment")
    worth = credits(card, event.paid)
    if worth < card.cost:
        problems.append(_v(event, "mercenaries.credits", f"{event.paid.text()} is worth {worth} credits to a {card.name}, which requires {card.cost}"))
    if sum(1 for m in state.mercs if m.owner == p.seat) >= params.mercenary_zones:
        problems.append(_v(event, "mercenaries.zones", f"{p.seat}'s {params.mercenary_zones} mercenary zones are full"))
    return problems


def _check_swept(params: Params, state: State, event: MarketSwept) -> Problems:
    """Mercenary Purchase 1.c: "pay (2) resources to sweep for a new set of four mercenaries"."""
    problems = check_turn(params, state, event, "purchase")
    p = player(state, event.by)
    if p is None:
        return problems
    if event.paid.total() != params.sweep_cost:
        problems.append(_v(event, "mercenaries.sweep", f"a sweep costs {params.sweep_cost} resources, not {event.paid.total()}"))
    return problems + _pay(event, p.resources, event.paid, "mercenaries.sweep", "the sweep")


def _check_placed(params: Params, state: State, event: MercenaryPlaced) -> Problems:
    """Mercenary Placement 2.a, 2.c: the token fits on uncovered spaces and overlaps the
    player's zone of control."""
    problems = check_turn(params, state, event, "placement")
    m = merc(state, event.card)
    if m is None or m.owner != event.by or not known(event.card):
        return [*problems, _v(event, "mercenaries.card", f"{event.card!r} is not a mercenary {event.by} hired")]
    if m.at is not None:
        return [*problems, _v(event, "mercenaries.card", f"{event.card} is already on the board at {m.at}")]
    size = card_of(event.card).size
    if not free_for_token(params, state, event.space, size):
        problems.append(_v(event, "mercenaries.space", f"a {size}x{size} token at {event.space} does not fit: it must lie on uncovered spaces over no token or building"))
    if not any(in_territory(params, state, m.owner, s) for s in board.footprint(event.space, size)):
        problems.append(_v(event, "mercenaries.zone-of-control", f"the token at {event.space} overlaps no space of {m.owner}'s zone of control"))
    return problems


# --- every phase: finishing one's part -----------------------------------------------------------------


def _check_finished(params: Params, state: State, event: StepFinished) -> Problems:
    """The seat's part of the phase ends; what the phase requires must be done first."""
    if state.phase == "setup":
        return check_turn(params, state, event, "workers")
    problems = check_turn(params, state, event, state.phase)
    seat = event.by or ""
    if state.phase == "workers" and not {"placed", "collected"} <= set(state.done):
        problems.append(_v(event, "workers.sequence", f"{seat} ends the Worker Phase without placing workers and collecting resources"))
    if state.phase == "placement":
        for m in state.mercs:
            if m.owner == seat and m.at is None and placements(params, state, m.card):
                problems.append(_v(event, "mercenaries.must-place", f"{m.card} has room in {seat}'s zone of control but was not placed"))
    if state.phase == "action":
        problems += movement.untriggered(params, state, event)
    return problems


_CHECKS: dict[type, Callable[[Params, State, Any], Problems]] = {
    CardRevealed: _check_revealed,
    TileUncovered: _check_uncovered,
    RelicDrawn: _check_relic,
    WorkersPlaced: _check_workers_placed,
    ResourcesCollected: _check_collected,
    WorkersBought: _check_workers_bought,
    BuildingBuilt: _check_built,
    OutpostPurchased: _check_outpost,
    OutpostPlaced: _check_outpost_placed,
    MercenaryHired: _check_hired,
    MarketSwept: _check_swept,
    MercenaryPlaced: _check_placed,
    AbilityUsed: lambda params, state, event: check_turn(params, state, event, "action") + movement.check_ability(params, state, event),
    MercenaryMoved: lambda params, state, event: check_turn(params, state, event, "action") + movement.check_move(params, state, event),
    CombatResolved: lambda params, state, event: movement.check_combat(params, state, event),
    StepFinished: _check_finished,
}


def check(params: Params, state: State, event: Event) -> list[Violation]:
    """Every rule the event breaks in this state (empty when it is legal)."""
    handler = _CHECKS.get(type(event))
    return handler(params, state, event) if handler else []


# --- apply ---------------------------------------------------------------------------------------------


def _pop(state: State) -> State:
    """One pending step done; when the setup's flips are over, turn 1 begins."""
    state = replace(state, pending=state.pending[1:])
    if state.phase == "setup" and not state.pending:
        return replace(state, phase="workers", actor=state.priority, turn=1)
    return state


def _apply_revealed(params: Params, state: State, event: CardRevealed) -> State:
    deck, discard = (state.deck, state.discard) if state.deck else (state.discard, ())
    if event.card in deck:
        deck = tuple(c for c in deck if c != event.card)
    state = replace(state, deck=deck, discard=discard, market=(*state.market, event.card))
    return _pop(state) if awaited(state, "reveal") else state


def _apply_uncovered(params: Params, state: State, event: TileUncovered) -> State:
    """The face shows its resource nodes; the tile is uncovered from now on."""
    found = tile(state, event.tile)
    if found is None or found.face is not None or event.face not in FACES:
        return _pop(state) if awaited(state, "uncover") else state
    nodes = [(board.face_space(params, event.tile, n.at), n.resource) for n in FACES[event.face].nodes]
    tiles = tuple(replace(t, face=event.face) if t.pos == event.tile else t for t in state.tiles)
    state = replace(state, tiles=tiles, nodes=tuple(sorted((*state.nodes, *nodes))), faces=tuple(f for f in state.faces if f != event.face))
    return _pop(state) if awaited(state, "uncover") else state


def _apply_relic(params: Params, state: State, event: RelicDrawn) -> State:
    tiles = tuple(replace(t, relic=event.relic) if t.pos == event.tile else t for t in state.tiles)
    state = replace(state, tiles=tiles, relic_pile=tuple(r for r in state.relic_pile if r != event.relic))
    return _pop(state) if awaited(state, "relic") else state


def _spend(state: State, seat: str | None, cost: Resources) -> State:
    p = player(state, seat)
    return state if p is None else replace_player(state, replace(p, resources=p.resources.minus(cost)))


def _apply_workers_placed(params: Params, state: State, event: WorkersPlaced) -> State:
    p = player(state, event.by)
    if p is None:
        return state
    return replace_player(state, replace(p, placed=tuple(event.spaces)), done=(*state.done, "placed"))


def _apply_collected(params: Params, state: State, event: ResourcesCollected) -> State:
    p = player(state, event.by)
    if p is None:
        return state
    return replace_player(state, replace(p, resources=p.resources.plus(event.gained)), done=(*state.done, "collected"))


def _apply_workers_bought(params: Params, state: State, event: WorkersBought) -> State:
    count = max(event.count, 0)
    state = _spend(state, event.by, Resources(**{r: COSTS["worker"].of(r) * count for r in RESOURCES}))
    p = player(state, event.by)
    return state if p is None else replace_player(state, replace(p, fresh=p.fresh + count), done=(*state.done, "bought"))


def _apply_built(params: Params, state: State, event: BuildingBuilt) -> State:
    """The block goes down; a beacon's battle cry is gained at once, and the first player to
    build 3 beacons receives the creature (placed in the Mercenary Placement)."""
    seat = event.by or ""
    state = _spend(state, seat, COSTS[event.kind])
    resource = next((r for at, r in state.nodes if at == event.space), "") if event.kind == "refinery" else ""
    state = replace(state, buildings=(*state.buildings, Building(event.kind, seat, event.space, resource)))
    if event.kind not in BEACONS:
        return state
    p = player(state, seat)
    if p is not None:
        state = replace_player(state, replace(p, resources=p.resources.plus(BATTLE_CRIES[event.kind])))
    if state.creature_to is None and len(set(beacons_of(state, seat))) >= params.beacons_for_creature:
        titan = MERCENARIES[TITAN]
        state = replace(state, creature_to=seat, mercs=(*state.mercs, Merc(TITAN, seat, titan.health)))
    return state


def _apply_outpost(params: Params, state: State, event: OutpostPurchased) -> State:
    """Pay; flip the tile if covered (and turn up its relic), then the outpost is placed."""
    seat = event.by or ""
    state = _spend(state, seat, COSTS["outpost"])
    p = player(state, seat)
    if p is not None:
        state = replace_player(state, replace(p, outposts=p.outposts + 1))
    steps = []
    if covered(state, event.tile) and params.uncovering == "outpost":
        steps += uncovering(params, state, event.tile)
    if tile(state, event.tile) is not None:
        steps.append(Pending("outpost", seat=seat, tile=event.tile))
    return replace(state, pending=(*steps, *state.pending))


def _apply_outpost_placed(params: Params, state: State, event: OutpostPlaced) -> State:
    pending = awaited(state, "outpost")
    if pending is None:
        return state
    return _pop(replace(state, buildings=(*state.buildings, Building("outpost", pending.seat, event.space))))


def _apply_hired(params: Params, state: State, event: MercenaryHired) -> State:
    """Follows the table: a card hired from outside the row (a flip the log left out) is
    taken from wherever it lies, so the mistake is named once, at the hire."""
    if not known(event.card) or merc(state, event.card) is not None:
        return state
    state = _spend(state, event.by, event.paid)
    hired = Merc(event.card, event.by or "", card_of(event.card).health)
    def rest(pile: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(c for c in pile if c != event.card)
    return replace(state, market=rest(state.market), deck=rest(state.deck), discard=rest(state.discard),
                   mercs=(*state.mercs, hired))


def _apply_swept(params: Params, state: State, event: MarketSwept) -> State:
    """The row goes to the discard pile and four new cards are flipped."""
    state = _spend(state, event.by, event.paid)
    state = replace(state, discard=tuple(sorted((*state.discard, *state.market))), market=())
    return replace(state, pending=_refill(params, state))


def _refill(params: Params, state: State) -> tuple[Pending, ...]:
    """Flips that bring the row back to four (as many as the deck and discard pile allow)."""
    count = min(params.market_size - len(state.market), len(state.deck) + len(state.discard))
    return (Pending("reveal"),) * max(count, 0)


def _apply_placed(params: Params, state: State, event: MercenaryPlaced) -> State:
    m = merc(state, event.card)
    if m is None or m.at is not None:
        return state
    return replace(state, mercs=tuple(replace(x, at=event.space) if x.card == event.card else x for x in state.mercs))


def _apply_finished(params: Params, state: State, event: StepFinished) -> State:
    """The next seat's part, the next phase, or a new turn with the priority token passed."""
    if state.phase == "setup":
        return state
    first, second = turn_order(state)
    seat = event.by if event.by in state.seats else state.actor
    finished = state.finished if seat in state.finished else (*state.finished, seat)
    state = replace(state, done=(), triggered=(), moves=(), finished=finished)
    if state.phase == "purchase":
        state = replace(state, pending=(*state.pending, *_refill(params, state)))
    left = [s for s in (first, second) if s not in finished]
    if left:
        return replace(state, actor=left[0])
    index = PHASES.index(state.phase)
    if index + 1 < len(PHASES):
        return replace(state, phase=PHASES[index + 1], actor=first, finished=())
    return _new_turn(state)


def _new_turn(state: State) -> State:
    """"Once both players have finished their action phase, the priority token is passed and
    a new turn begins"; workers bought last turn can now be placed."""
    players = tuple(replace(p, workers=p.workers + p.fresh, fresh=0) for p in state.players)
    priority = next((s for s in state.seats if s != state.priority), state.priority)
    return replace(state, players=players, priority=priority, phase="workers", actor=priority, turn=state.turn + 1, finished=())


_APPLY: dict[type, Callable[[Params, State, Any], State]] = {
    CardRevealed: _apply_revealed,
    TileUncovered: _apply_uncovered,
    RelicDrawn: _apply_relic,
    WorkersPlaced: _apply_workers_placed,
    ResourcesCollected: _apply_collected,
    WorkersBought: _apply_workers_bought,
    BuildingBuilt: _apply_built,
    OutpostPurchased: _apply_outpost,
    OutpostPlaced: _apply_outpost_placed,
    MercenaryHired: _apply_hired,
    MarketSwept: _apply_swept,
    MercenaryPlaced: _apply_placed,
    AbilityUsed: movement.apply_ability,
    MercenaryMoved: movement.apply_move,
    CombatResolved: movement.apply_combat,
    StepFinished: _apply_finished,
}


def apply(params: Params, state: State, event: Event) -> State:
    """The state after the event, as the table played it (legal or not)."""
    handler = _APPLY.get(type(event))
    if handler is None:
        return state
    if event.by != state.actor and event.by in state.seats and state.phase != "setup" and not state.pending:
        # the table let the other seat take its part of the phase now: it is that seat's part
        state = replace(state, actor=event.by, done=())
    return handler(params, state, event)


# --- outcome (Objective) ------------------------------------------------------------------------------


@last_args  # the tokens stay put through most steps (rulesets/memo.py): asked once per tokens
def _far_side(params: Params, priority: str, seats: tuple[str, ...], mercs: tuple[Merc, ...]) -> Outcome | None:
    """The first seat in turn order (`turn_order`: priority first) with a token that moved to
    the other side of the board and stands there (a token placed there, out of the zone of
    control, is a placement mistake, named at the placement, and wins nothing)."""
    for seat in (priority, next((s for s in seats if s != priority), priority)):
        for m in mercs:
            if m.owner == seat and m.arrived and m.at is not None and board.on_far_row(params, seat, m.at, card_of(m.card).size):
                return Outcome(winner=seat, reason=f"{seat}'s {m.card} reached the other side of the board", rule=RULE_IDS.id("victory.far-side"))
    return None


@last_state  # every candidate's check asks it again of the same state (rulesets/memo.py)
def outcome(params: Params, state: State) -> Outcome | None:
    """"Get one merc to the other side of the board OR destroy 3 of your opponent's buildings"."""
    if state.phase == "setup":
        return None
    arrived = _far_side(params, state.priority, state.seats, state.mercs)
    if arrived is not None:
        return arrived
    for p in state.players:
        if p.lost >= params.buildings_to_win:
            winner = next((s for s in state.seats if s != p.seat), p.seat)
            return Outcome(winner=winner, reason=f"{winner} destroyed {p.lost} of {p.seat}'s buildings", rule=RULE_IDS.id("victory.buildings"))
    return None
