"""Mercy Frontier at the table: each event in words, and where on the board it is made.

`describe` reads an event in the state before it, in the text's terms and the board's
names ("orange places workers on E14 and H14", "orange hires Raider 2/2 (4 cr), paying 2
biofuel, 1 crystal", "orange's Raider moves 2 south to E12"); `touch` says what a table
taps: a mercenary token then where it goes, a card of the mercenary row (the payment
picked in resources), a contract card then the space its token goes on, a worker then the
building it builds. A tap lands on whatever is drawn on a space (a building, a worker, a
token), so a place is keyed by that piece where there is one (`tap_key`).
"""

from __future__ import annotations

from events.base import Event
from rulesets.mercyfrontier import board
from rulesets.mercyfrontier.board import Space, TilePos
from rulesets.mercyfrontier.components import ABILITIES, BEACONS, COSTS, FACES, RELICS, card_type
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
from rulesets.mercyfrontier.state import Building, Merc, State, building_at, merc, node_at
from rulesets.view import Touch, card_key, piece_key, space_key, space_name

MARKET = "market"
"""The card row of the mercenary row (the four cards to hire)."""
DECK = "deck"
"""The card row of the mercenary deck, tapped to sweep the row."""
DECK_FACE = "mercenary deck"
PHASE_NAMES = {"workers": "worker phase", "building": "building phase", "purchase": "mercenary purchase",
               "placement": "mercenary placement", "action": "action phase", "setup": "setup"}


def contracts_row(seat: str) -> str:
    """The card row of a seat's contract cards (its five mercenary zones)."""
    return f"contracts-{seat}"


def at(space: Space) -> str:
    """A space as the board's edges print it: `E14`."""
    return space_name("grid", space[0], space[1])


def tile_name(params: Params, pos: TilePos) -> str:
    """A tile by the spaces at its corners: `D7–F9`."""
    spaces = board.tile_spaces(params, pos)
    return f"{at(spaces[0])}–{at(spaces[-1])}"


def face_name(face: str) -> str:
    """A tile face in words: `barren-1` -> `barren`, `wild-grove` -> `wild grove`."""
    head, _, tail = face.rpartition("-")
    return (head if head and tail.isdigit() else face).replace("-", " ")


def merc_name(card: str) -> str:
    """A mercenary card as printed: `Raider`."""
    found = card_type(card)
    return found.name if found else card


def card_face(card: str, twin: bool = False) -> str:
    """`Raider 2/2 (4 cr)`: a card as a row shows it; `twin` adds its copy number
    (`Raider 2/2 (4 cr) #3`) where another copy shares the row, so each card is one tap."""
    found = card_type(card)
    if found is None:
        return card
    face = f"{found.name} {found.attack}/{found.health} ({found.cost} cr)"
    return f"{face} #{card.rsplit('-', 1)[-1]}" if twin else face


def faces(cards: tuple[str, ...]) -> dict[str, str]:
    """Card -> its face in a row, copy numbers only where two copies share the row."""
    kinds = [c.rsplit("-", 1)[0] for c in cards]
    return {c: card_face(c, kinds.count(k) > 1) for c, k in zip(cards, kinds, strict=True)}


def contract_faces(state: State, seat: str) -> dict[str, str]:
    """A seat's contract cards as its mercenary zones show them: face, health, placed or not."""
    own = tuple(m for m in state.mercs if m.owner == seat)
    named = faces(tuple(m.card for m in own))
    return {m.card: f"{named[m.card]} hp {m.health}" + ("" if m.at else " (not placed)") for m in own}


def worker_id(seat: str, index: int) -> str:
    """The piece id of a seat's worker (in the order it was placed)."""
    return f"worker-{seat}-{index}"


def building_id(b: Building) -> str:
    """The piece id of a building block: `refinery-4-13`."""
    return f"{b.kind}-{b.at[0]}-{b.at[1]}"


def worker_drawn(state: State, space: Space) -> str | None:
    """The piece id of a worker drawn on a space (a worker on a building is a badge of it)."""
    if building_at(state, space) is not None:
        return None
    for p in state.players:
        for index, placed in enumerate(p.placed):
            if placed == space:
                return worker_id(p.seat, index)
    return None


def tap_key(state: State, space: Space) -> str:
    """What a tap on a space lands on: the building, worker or one-space token drawn there,
    else the space itself."""
    found = building_at(state, space)
    if found is not None:
        return piece_key(building_id(found))
    worker = worker_drawn(state, space)
    if worker is not None:
        return piece_key(worker)
    for m in state.mercs:
        if m.at == space and (card := card_type(m.card)) is not None and card.size == 1:
            return piece_key(m.card)
    return space_key(*space)


def _owned(state: State, card: str) -> str:
    found = merc(state, card)
    return f"{found.owner}'s {merc_name(card)}" if found else merc_name(card)


def _kind(kind: str) -> str:
    """`refinery`, `biofuel beacon`."""
    return f"{kind.split('-', 1)[1]} beacon" if kind in BEACONS else kind


def _spaces(spaces: tuple[Space, ...]) -> str:
    named = [at(s) for s in spaces]
    return " and ".join(named) if len(named) <= 2 else ", ".join(named[:-1]) + " and " + named[-1]


def describe(params: Params, state: State, event: Event) -> str:
    """One event in words, read in the state it was played in."""
    seat = event.by or "a player"
    match event:
        case CardRevealed(card=card):
            return f"{card_face(card)} is flipped into the mercenary row"
        case TileUncovered(tile=tile, face=face):
            return f"the covered tile {tile_name(params, tile)} is uncovered: {face_name(face)}{_nodes(params, tile, face)}"
        case RelicDrawn(tile=tile, relic=relic):
            relic_card = RELICS.get(relic)
            income = f" (+{relic_card.income.text()} at every collection)" if relic_card else ""
            return f"the relic under {tile_name(params, tile)} is the {relic_card.name if relic_card else relic}{income}"
        case WorkersPlaced(spaces=spaces):
            return f"{seat} places workers on {_spaces(spaces)}" if spaces else f"{seat} places no workers"
        case ResourcesCollected(gained=gained):
            return f"{seat} collects {gained.text()}"
        case WorkersBought(count=count):
            cost = Resources(**{r: COSTS["worker"].of(r) * count for r in RESOURCES})
            return f"{seat} buys {count} worker{'s' if count != 1 else ''} for {cost.text()} (ready next turn)"
        case BuildingBuilt(kind=kind, space=space):
            node = node_at(state, space)
            on = f" on its {node} node" if node and kind == "refinery" else ""
            return f"{seat} builds a {_kind(kind)} at {at(space)}{on}"
        case OutpostPurchased(tile=tile):
            return f"{seat} buys an outpost for the tile {tile_name(params, tile)}"
        case OutpostPlaced(space=space):
            return f"{seat} places the outpost at {at(space)}"
        case MercenaryHired(card=card, paid=paid):
            return f"{seat} hires {card_face(card)}, paying {paid.text()}"
        case MarketSwept(paid=paid):
            return f"{seat} sweeps the mercenary row, paying {paid.text()}"
        case MercenaryPlaced(card=card, space=space):
            return f"{seat} places {merc_name(card)} at {_token(space, card)}"
        case AbilityUsed(card=card, ability=ability):
            return f"{_owned(state, card)} uses {ability}" + (f" ({ABILITIES[ability].kind} ability)" if ability in ABILITIES else "")
        case MercenaryMoved():
            return _moved(state, event)
        case CombatResolved():
            return _combat(state, event)
        case StepFinished():
            return f"{seat} is done with the {PHASE_NAMES.get(state.phase, state.phase)}"
    return type(event).__name__


def _nodes(params: Params, tile: TilePos, face: str) -> str:
    found = FACES.get(face)
    if found is None or not found.nodes:
        return ", no resource node" if found else ""
    return ", " + ", ".join(f"a {n.resource} node at {at(board.face_space(params, tile, n.at))}" for n in found.nodes)


def _token(space: Space, card: str) -> str:
    """Where a token lies: `E10`, or `E10–F11` for a token bigger than one space."""
    found = card_type(card)
    size = found.size if found else 1
    return at(space) if size == 1 else f"{at(space)}–{at((space[0] + size - 1, space[1] + size - 1))}"


def leading_space(m: Merc, direction: str, spaces: int) -> Space | None:
    """The space a move ends on at the token's front edge: outside where it stands now, so
    the table taps ground (or what stands there), never the moving token."""
    found = card_type(m.card)
    if m.at is None or found is None:
        return None
    x, y = board.step(m.at, direction, spaces)
    size = found.size
    return {"north": (x, y), "west": (x, y), "south": (x, y + size - 1), "east": (x + size - 1, y)}[direction]


def _moved(state: State, event: MercenaryMoved) -> str:
    mover = merc(state, event.card)
    end = leading_space(mover, event.direction, event.spaces) if mover else None
    to = f" to {at(end)}" if end else ""
    trample = f", trampling {', '.join(_owned(state, c) for c in event.trample)}" if event.trample else ""
    return f"{_owned(state, event.card)} moves {event.spaces} {event.direction}{to}{trample}"


def _combat(state: State, event: CombatResolved) -> str:
    """Who fights whom and the health tokens each loses (and who is destroyed)."""
    taken = []
    for card, lost in event.damage:
        m = merc(state, card)
        dead = " and is destroyed" if m is not None and lost >= m.health else ""
        taken.append(f"{merc_name(card)} loses {lost}{dead}")
    foes = " and ".join(_owned(state, d) for d in event.defenders)
    return f"combat: {_owned(state, event.attacker)} against {foes}: " + ", ".join(taken)


def touch(params: Params, state: State, event: Event) -> Touch:
    """Where an event is made: the token, card or worker first, then the place or card."""
    words = describe(params, state, event)
    seat = event.by or ""
    match event:
        case WorkersPlaced(spaces=spaces) if spaces:
            return _workers(state, spaces)
        case BuildingBuilt(kind=kind, space=space):
            return Touch(target=tap_key(state, space), words=f"build a {_kind(kind)} ({COSTS[kind].text()})")
        case OutpostPurchased(tile=tile):
            spaces = board.tile_spaces(params, tile)
            return Touch(target=tap_key(state, spaces[len(spaces) // 2]), words=f"buy an outpost for this tile ({COSTS['outpost'].text()})")
        case OutpostPlaced(space=space):
            return Touch(target=tap_key(state, space), words="place the outpost here")
        case MercenaryHired(card=card, paid=paid):
            return Touch(target=card_key(MARKET, faces(state.market).get(card, card_face(card))), words=f"pay {paid.text()}")
        case MarketSwept(paid=paid):
            return Touch(target=card_key(DECK, DECK_FACE), words=f"sweep the row, paying {paid.text()}")
        case MercenaryPlaced(card=card, space=space):
            face = contract_faces(state, seat).get(card, card)
            return Touch(source=card_key(contracts_row(seat), face), target=tap_key(state, space),
                         words=f"place at {_token(space, card)}")
        case AbilityUsed(card=card, ability=ability):
            return Touch(source=piece_key(card), target=piece_key(card), words=f"use {ability}")
        case MercenaryMoved(card=card, direction=direction, spaces=spaces, trample=trample):
            mover = merc(state, card)
            end = leading_space(mover, direction, spaces) if mover else None
            trampling = f", trampling {', '.join(merc_name(c) for c in trample)}" if trample else ""
            return Touch(source=piece_key(card), target=tap_key(state, end) if end else None,
                         words=f"move {spaces} {direction}{trampling}")
        case CombatResolved(attacker=attacker, defenders=defenders):
            return Touch(source=piece_key(attacker), target=piece_key(defenders[0]) if defenders else None, words=words)
        case StepFinished():
            return Touch(words=f"done with the {PHASE_NAMES.get(state.phase, state.phase)}")
        case ResourcesCollected(gained=gained):
            return Touch(words=f"collect {gained.text()}")
        case WorkersBought(count=count):
            return Touch(words=f"buy {count} worker{'s' if count != 1 else ''}")
    return Touch(words=words)


def _workers(state: State, spaces: tuple[Space, ...]) -> Touch:
    """Worker Placement, every worker at once: the first and the last space in board order
    are tapped, the picker names the rest where several placements share them."""
    ordered = sorted(spaces, key=lambda s: (s[1], s[0]))
    words = "workers on " + _spaces(tuple(ordered))
    if len(ordered) == 1:
        return Touch(target=tap_key(state, ordered[0]), words=words)
    return Touch(source=tap_key(state, ordered[0]), target=tap_key(state, ordered[-1]), words=words)

