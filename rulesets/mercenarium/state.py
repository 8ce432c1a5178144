"""Mercenarium's state: frozen Structs and tuples, plus the queries rules, moves and views share.

The state holds every fact, hidden ones included (each hand, the deck's contents); what a
seat may see is decided by `view`. Piles (deck, hymnal, discard, hands) are kept sorted in
the deck's canonical order: a shuffled pile has no order worth recording, and each draw
is a chance step over the cards it holds, all equally likely.
"""

from __future__ import annotations

import bisect
import functools
from typing import Any, Literal

import msgspec

from rulesets.memo import last_one
from rulesets.mercenarium import board, cards
from rulesets.mercenarium.board import Space
from rulesets.mercenarium.params import Params

Stage = Literal["deal", "order", "play"]
PendingKind = Literal["draw", "hymn", "zodiac-roll", "zodiac-effect"]
ClashKind = Literal["capture", "weaker", "consumed", "annihilation", "deadlock", "apart"]

CONSUMES: dict[str, str] = {"gears": "blades", "blades": "claws", "claws": "souls", "souls": "gears"}
"""The Alchemy Wheel's path of Consumption: each suit consumes the next.

The text gives two arrows ("Blades consume Claws"; "the Lord of Blades is always defeated
by Gears") and the two opposed pairs (Blades-Souls, Claws-Gears); a four-suit wheel with
those opposites has one cycle through both arrows: Gears > Blades > Claws > Souls > Gears.
"""
OPPOSITE: dict[str, str] = {"blades": "souls", "souls": "blades", "claws": "gears", "gears": "claws"}
""""suits are directly across from each other on the Alchemy Wheel (as with the Blades and
the Souls, or with the Claws and the Gears)"."""


class Placed(msgspec.Struct, frozen=True, gc=False):
    """A card in play: where it is and who controls it (its orientation follows the owner)."""

    card: str
    space: Space
    owner: str


class Capture(msgspec.Struct, frozen=True, gc=False):
    """A captured card in front of its captor: face down, or face up once spent."""

    card: str
    spent: bool = False


class Player(msgspec.Struct, frozen=True, gc=False):
    """One seat's hand and captures."""

    seat: str
    hand: tuple[str, ...] = ()
    """Non-hymn cards held (hidden from the other seats)."""
    hymns: tuple[str, ...] = ()
    """Hymns held (hidden, except a face-up one)."""
    captures: tuple[Capture, ...] = ()
    face_up: tuple[str, ...] = ()
    """Hymns held face up (the Zodiac after it was sung): everyone sees them."""


class Pending(msgspec.Struct, frozen=True, gc=False):
    """A step the running action still waits for: a draw, a hymn draw, the Zodiac."""

    kind: PendingKind
    seat: str
    count: int = 1
    hymn: str = ""
    """For `zodiac-effect`: the hymn the Zodiac rolled."""


class Last(msgspec.Struct, frozen=True, gc=False):
    """The last action on the board, for drawing it: a summon, move, capture or purchase."""

    kind: str
    seat: str
    spaces: tuple[Space, ...]


Position = tuple[str, tuple[Placed, ...]]
"""A position for counting repetitions: the seat to move and the board (sorted by card). The
seat first: counting a position among the history compares the seats before the boards, so
the positions with the other seat to move (half of them) are passed over at once."""


class State(msgspec.Struct, frozen=True, gc=False):
    """A Mercenarium position, from the deal to the end."""

    seats: tuple[str, ...]
    """Seats in clockwise order around the board (the order of play)."""
    players: tuple[Player, ...]
    deck: tuple[str, ...]
    hymnal: tuple[str, ...]
    stage: Stage = "deal"
    board: tuple[Placed, ...] = ()
    """Cards in play, sorted by card."""
    discard: tuple[str, ...] = ()
    singularity: bool = False
    """No card was left in the deck: every card out of play, hands and captures became one
    Singularity deck, and its changed rules hold."""
    rollers: tuple[str, ...] = ()
    """Seats rolling in the current round for the first turn (tied seats re-roll)."""
    rolls: tuple[tuple[str, int], ...] = ()
    """This round's rolls as counted (the symbol faces count as 6)."""
    first: str | None = None
    current: str | None = None
    """Seat whose turn it is."""
    turns: int = 0
    """Turns begun so far."""
    pending: tuple[Pending, ...] = ()
    contracts: tuple[tuple[str, str], ...] = ()
    """(mercenary, seat) under contract until that seat's next turn."""
    limbo_at_start: bool = False
    """The current seat was in Limbo when its turn began."""
    noted: tuple[str, ...] = ()
    """Seats over the hand limits whose excess the audit has already named once."""
    eliminated: str | None = None
    """A 2-player game: the seat that could not escape Limbo."""
    history: tuple[Position, ...] = ()
    """Positions since the last action other than a move (only moves can repeat one)."""
    last: Last | None = None


# --- seats and hands -------------------------------------------------------------------------


def player(state: State, seat: str | None) -> Player | None:
    """The seat's hand and captures."""
    for p in state.players:
        if p.seat == seat:
            return p
    return None


def replace_player(state: State, updated: Player, **changes: object) -> State:
    """The state with one seat's hand/captures replaced (and other fields changed)."""
    players = tuple([updated if p.seat == updated.seat else p for p in state.players])
    return msgspec.structs.replace(state, players=players, **changes)


def sort_cards(pile: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A pile in the canonical order (unknown ids last, by name). Every card known (every pile
    the rules and bots build): each card's place alone orders it, places being distinct, and is
    read in C; a table's unknown card sorts the pile by (place, name)."""
    try:
        return tuple(sorted(pile, key=cards.ORDER.__getitem__))
    except KeyError:
        return tuple(sorted(pile, key=_pile_order))


def _pile_order(card_id: str) -> tuple[int, str]:
    return cards.ORDER.get(card_id, 1_000), card_id


def without(pile: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The pile less one copy of card (unchanged if absent)."""
    if card not in pile:
        return pile
    index = pile.index(card)
    return pile[:index] + pile[index + 1 :]


def unspent(p: Player) -> tuple[str, ...]:
    """Face-down captures: the ones that can still buy or pay an offering."""
    return tuple([c.card for c in p.captures if not c.spent])


def over_limits(params: Params, state: State, seat: str) -> bool:
    """More than 5 non-hymn cards or more than 1 hymn (no maximum in Singularity)."""
    p = player(state, seat)
    if p is None or state.singularity:
        return False
    return len(p.hand) > params.hand_limit or len(p.hymns) > params.hymn_limit


def any_over_limits(params: Params, state: State) -> bool:
    """Whether some hand holds more than the limits allow (`over_limits` for every seat at
    once; its callers ask only outside Singularity): asked before every decision is made
    and applied, so a plain loop."""
    for p in state.players:
        if len(p.hand) > params.hand_limit or len(p.hymns) > params.hymn_limit:
            return True
    return False


def next_seat(state: State, seat: str) -> str:
    """The seat after `seat`, clockwise."""
    index = state.seats.index(seat) if seat in state.seats else -1
    return state.seats[(index + 1) % len(state.seats)]


def clockwise(params: Params, seats: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Seats in the order of their Houses around the board (unknown seats last)."""
    order = [colour for colour, _ in params.houses]
    return tuple(sorted(seats, key=lambda s: (order.index(s) if s in order else len(order), s)))


# --- the board ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)  # pure, asked for every card's every edge
def side(params: Params, seat: str) -> str:
    """The board edge a seat sits at (south for an unknown seat)."""
    return dict(params.houses).get(seat, "south")


def house(params: Params, seat: str) -> Space:
    """The seat's House: the centre space of its side (south for an unknown seat)."""
    found = _houses(params).get(seat)
    return found if found is not None else board.house_space("south", params.board_size)


@last_one  # rulesets/memo.py: one params object for a whole game; hashing it costs more than the answer
def _houses(params: Params) -> dict[str, Space]:
    """Every House by seat: asked by every summon, every Limbo test and every turn."""
    return {seat: board.house_space(edge, params.board_size) for seat, edge in dict(params.houses).items()}


def facing(params: Params, seat: str) -> int:
    """Degrees a card controlled by `seat` is turned: its bottom edge toward the seat's edge."""
    found = _facings(params).get(seat)
    return found if found is not None else board.facing("south")


@last_one  # rulesets/memo.py: asked for both cards of every clash
def _facings(params: Params) -> dict[str, int]:
    """How a card of each seat is turned, by seat."""
    return {seat: board.facing(edge) for seat, edge in dict(params.houses).items()}


def placed(state: State, card: str) -> Placed | None:
    """The card in play with that id."""
    for p in state.board:
        if p.card == card:
            return p
    return None


def at(state: State, space: Space) -> Placed | None:
    """The card on a space."""
    for p in state.board:
        if p.space == space:
            return p
    return None


def board_by_space(state: State) -> dict[Space, Placed]:
    """The cards in play by space (the first, as `at` finds it): for code that asks of many
    spaces. One answer per board (legal and the heuristic ask it of the same one); read it,
    never change it."""
    return _by_space(state.board)


@last_one  # rulesets/memo.py
def _by_space(pieces: tuple[Placed, ...]) -> dict[Space, Placed]:
    where: dict[Space, Placed] = {}
    for p in pieces:
        where.setdefault(p.space, p)
    return where


def known_by_space(pieces: tuple[Placed, ...]) -> dict[Space, Placed] | None:
    """`board_by_space` of this very board if it was asked last (`legal` asks it of every
    decision's board, so `apply` finds it for the event decided on), else None: never built
    here (a replay asks no `legal`, and building it would cost more than a look along the
    board)."""
    return _by_space.known(pieces)


def in_play(state: State, seat: str) -> tuple[Placed, ...]:
    """The seat's cards in play."""
    return tuple([p for p in state.board if p.owner == seat])


def put_on_board(state: State, card: str, space: Space, owner: str, **changes: Any) -> State:
    """The card placed (or moved, or re-owned) on a space, the board kept sorted: a card
    already in play keeps its place (the board is sorted by card, and holds each card once).
    `changes` are made in the same copy."""
    pieces = state.board
    for i, p in enumerate(pieces):
        if p.card == card:
            return msgspec.structs.replace(state, board=(*pieces[:i], Placed(card, space, owner), *pieces[i + 1:]), **changes)
    return msgspec.structs.replace(state, board=inserted(list(pieces), Placed(card, space, owner)), **changes)


def inserted(pieces: list[Placed], piece: Placed) -> tuple[Placed, ...]:
    """A board (sorted by card, without the piece's card) with the piece put in its place."""
    bisect.insort(pieces, piece, key=_board_order)  # the rest stays in order: one insertion sorts it
    return tuple(pieces)


def _board_order(p: Placed) -> tuple[int, str]:
    return cards.ORDER.get(p.card, 1_000), p.card


def take_off_board(state: State, card: str) -> State:
    """The card removed from play; a contract on it ends with it."""
    board_ = tuple([p for p in state.board if p.card != card])  # a list made in one pass: cheaper than a generator
    contracts = tuple([c for c in state.contracts if c[0] != card])
    return msgspec.structs.replace(state, board=board_, contracts=contracts)


def in_limbo(params: Params, state: State, seat: str) -> bool:
    """"no summoned cards in play and an enemy card ... occupy their House"."""
    return limbo_on(params, state.board, seat)


def limbo_on(params: Params, pieces: tuple[Placed, ...], seat: str) -> bool:
    """`in_limbo` on a board (`apply` asks it of a move's board before the state holding it is
    made: the move and the turn passed on are one copy of the state)."""
    for p in pieces:
        if p.owner == seat:  # in play (a loop: asked at every turn's start and end)
            return False
    home = house(params, seat)
    for p in pieces:
        if p.space == home:  # `at`: the first card on the House
            return p.owner != seat
    return False


def contract_of(state: State, card: str) -> str | None:
    """The seat holding the card's contract, if it is under one."""
    for mercenary, seat in state.contracts:
        if mercenary == card:
            return seat
    return None


# --- auras and alchemy -------------------------------------------------------------------------


def dots(params: Params, piece: Placed, towards: int) -> int:
    """Aura dots on the piece's edge facing compass direction `towards` (its orientation counts)."""
    found = cards.card(piece.card)
    if found is None:
        return 0
    return found.aura[board.edge_towards(facing(params, piece.owner), towards)]


def alchemy(attacker: str, defender: str) -> Literal["consume", "consumed", "annihilate", "deadlock"]:
    """What the Alchemy Wheel says of two suits tied in combat (or a Lord's encounter)."""
    if attacker == defender:
        return "deadlock"
    if OPPOSITE.get(attacker) == defender:
        return "annihilate"
    return "consume" if CONSUMES.get(attacker) == defender else "consumed"


class Clash(msgspec.Struct, frozen=True, gc=False):
    """How an attacking card meets an adjacent enemy card."""

    kind: ClashKind
    attacker_dots: int = 0
    defender_dots: int = 0
    by_alchemy: bool = False
    """Decided by suits: a tie of dots, or a Lord involved."""


def clash(params: Params, state: State, attacker: Placed, defender: Placed) -> Clash:
    """"your card is adjacent to an enemy card that has fewer aura dots along its touching
    edge"; ties (and every encounter with a Lord) go to the Alchemy Wheel. Only the two
    touching edges count: each card's dots on it (its owner turns it), its suit and whether
    it is a Lord. So a card's four edges are read once per card and owner (`face`, as edge
    codes), and the clash of two edges once per pair of codes (`edge_clash`): a bot weighs the
    same meetings again and again, and a long run meets every card pair in a few hundred games
    but every pair of edges in its first one."""
    (ax, ay), (dx, dy) = attacker.space, defender.space
    towards = COMPASS_INDEX.get((dx - ax, dy - ay))
    faces = faces_of(params)
    owned = faces.get(attacker.owner)
    mine = owned.get(attacker.card) if owned is not None else None
    if mine is None:
        mine = face(params, attacker.card, attacker.owner)
    owned = faces.get(defender.owner)
    theirs = owned.get(defender.card) if owned is not None else None
    if theirs is None:
        theirs = face(params, defender.card, defender.owner)
    if towards is None or not mine or not theirs:
        return APART
    pair = mine[towards] * EDGE_CODES + theirs[towards ^ 2]  # the defender's edge facing back: the opposite direction
    return EDGE_CLASHES[pair] or edge_clash(pair)


APART = Clash(kind="apart")
"""The clash of two cards that do not touch (or of an id that is no deck card)."""

COMPASS_INDEX: dict[tuple[int, int], int] = {step_: direction_ // 90 for direction_, step_ in board.STEPS.items()}
"""A step's compass direction as an index (N 0, E 1, S 2, W 3; the opposite one is `index ^ 2`)."""

_KINDS_OF_EDGE = 7
"""An edge's code per suit: 0 to 5 dots (`cards.MAX_DOTS`), or a Lord's (which has none)."""
EDGE_CODES = len(cards.SUITS) * _KINDS_OF_EDGE
"""How many edge codes there are: an edge is `suit index * 7 + dots`, a Lord's `suit index * 7 + 6`."""


def face(params: Params, card: str, owner: str) -> tuple[int, ...]:
    """The card's four edges as it stands under its owner, by compass direction (`COMPASS_INDEX`),
    each an edge code (its suit, its dots, whether it is a Lord); `()` for an id that is no deck
    card (it touches nothing). Worked out once per card and owner under the params (56 cards a
    seat: a long run meets them all in its first game)."""
    faces = faces_of(params)
    owned = faces.get(owner)
    if owned is None:
        if len(faces) >= 1 << 8:
            faces.clear()  # bounded: a run of logs with ever new seat names
        owned = faces[owner] = {}
    found = owned.get(card)
    if found is None:
        deck_card = cards.CARDS.get(card)
        if deck_card is None:
            found = ()
        else:
            turned, aura = facing(params, owner), deck_card.aura
            suit = cards.SUITS.index(deck_card.suit) * _KINDS_OF_EDGE
            found = tuple([suit + (_KINDS_OF_EDGE - 1 if deck_card.lord else aura[board.edge_towards(turned, towards)])
                           for towards in (0, 90, 180, 270)])
        if len(owned) >= 1 << 8:
            owned.clear()  # bounded: a run of logs with ever new card ids (a table's)
        owned[card] = found
    return found


Faces = dict[str, dict[str, tuple[int, ...]]]
"""Each card's edge codes (`face`) by owner and card."""


@last_one  # rulesets/memo.py: one params object for a whole game
def faces_of(params: Params) -> Faces:
    """`face`'s answers under the params, by owner and card (two look-ups by text, whose hashes
    are kept, cost less than one by a pair of them), for a caller that reads many (a missing
    one asked of `face`): read it, never change it."""
    return {}


def edge_clash(pair: int) -> Clash:
    """The clash of an attacker's edge against the defender's edge it touches, by the pair of
    their codes (`attacker code * EDGE_CODES + defender code`): fewer dots are captured, and a tie
    or a Lord goes to the Alchemy Wheel. Worked out once per pair (28 x 28 at most) and kept in
    `EDGE_CLASHES`, which callers read first (`EDGE_CLASHES[pair] or edge_clash(pair)`)."""
    found = EDGE_CLASHES[pair]
    if found is None:
        mine, theirs = divmod(pair, EDGE_CODES)
        (suit, ours), (their_suit, their) = divmod(mine, _KINDS_OF_EDGE), divmod(theirs, _KINDS_OF_EDGE)
        lords = ours == _KINDS_OF_EDGE - 1 or their == _KINDS_OF_EDGE - 1
        ours, their = ours % (_KINDS_OF_EDGE - 1), their % (_KINDS_OF_EDGE - 1)  # a Lord shows no dots
        if not lords and ours != their:
            found = Clash(kind="capture" if ours > their else "weaker", attacker_dots=ours, defender_dots=their)
        else:
            verdict = alchemy(cards.SUITS[suit], cards.SUITS[their_suit])
            kind: ClashKind = {"consume": "capture", "consumed": "consumed", "annihilate": "annihilation", "deadlock": "deadlock"}[verdict]  # type: ignore[assignment]
            found = Clash(kind=kind, attacker_dots=ours, defender_dots=their, by_alchemy=True)
        EDGE_CLASHES[pair] = found
    return found


EDGE_CLASHES: list[Clash | None] = [None] * (EDGE_CODES * EDGE_CODES)
"""`edge_clash`'s answers by pair of edge codes (None until met): pure, and the same for every game."""


def position_key(pieces: tuple[Placed, ...], seat_to_move: str) -> Position:
    """Who moves next and the board, for counting repetitions. The board tuple itself: two
    positions are the same when their boards hold the same cards on the same spaces under the
    same owners (the board is kept sorted by card), and the cards that did not move are the
    very objects of the position before, so comparing positions mostly compares identities
    and building one costs nothing (a text key was joined from every card at every move)."""
    return seat_to_move, pieces
