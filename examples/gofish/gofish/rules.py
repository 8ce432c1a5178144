"""Go Fish's rules (rules.txt beside this file): the deal, asks, gifts and draws, folded and
checked as the text says.

Every hidden fact is an event: each dealt and drawn card is a chance step naming the card's
rank, so a log replays with no random generator and `view` alone decides what a seat may
see. No rule of the text looks at a suit (asks, gifts and books are all by rank), so a card
is its rank: the stock is four of each rank, and a draw has at most thirteen outcomes, each
as likely as the stock holds cards of it. A table that writes `7` for the seven of hearts
writes all the game knows; an audit that must guess a card left out guesses among ranks,
not among every card left.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets.protocol import Outcome, Progress, Violation

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""1.1: "thirteen ranks (A 2 3 4 5 6 7 8 9 10 J Q K)"; a card is written by its rank."""
SUITS = 4
"""1.1: "in four suits": how many cards of each rank the deck holds, and a book (3.1)."""

LONGEST_GAME = 400
"""Events a game of Go Fish may run to, about three times the longest seen (the random bot's
two-player games run 119 to 146): a card the log left out may stay unasked for in a hand
until the end, so the audit keeps its readings that long (`Ruleset.resync_span`)."""


class Params(msgspec.Struct, frozen=True, kw_only=True):
    """What a version (or a TOML variant) of Go Fish may change: the size of a hand."""

    hand: int = 5
    """1.2: "five cards each"."""
    hand_two: int = 7
    """1.2: "seven each when two play"."""


# --- events -----------------------------------------------------------------------------


class Dealt(Event, frozen=True, kw_only=True, gc=False):
    """The dealer gave `seat` one card, of rank `rank`, from the shuffled deck (a chance step)."""

    seat: str
    rank: str


class Asked(Event, frozen=True, kw_only=True, gc=False):
    """The player to act (`by`) asked `target` for a rank."""

    target: str
    rank: str


class Gave(Event, frozen=True, kw_only=True, gc=False):
    """The player asked (`by`) handed over `count` cards of rank `rank` (the one asked for)."""

    rank: str
    count: int


class Drew(Event, frozen=True, kw_only=True, gc=False):
    """`by` drew one card, of rank `rank`, from the stock (a chance step): a "go fish", or an
    empty hand."""

    rank: str


EVENTS: tuple[type[Event], ...] = (Dealt, Asked, Gave, Drew)


# --- state ------------------------------------------------------------------------------


class Ask(msgspec.Struct, frozen=True, kw_only=True):
    """An ask not yet answered: who asked whom for which rank."""

    by: str
    target: str
    rank: str


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Every hand (hidden from the other seats), the books laid down, the stock and the turn."""

    seats: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    """In seating order, each a rank per card, in rank order."""
    books: tuple[tuple[str, ...], ...]
    """The ranks each seat laid down, in seating order."""
    stock: tuple[int, ...]
    """How many cards of each rank (in `RANKS` order) are not dealt or drawn yet."""
    phase: str = "deal"
    """`deal`, `ask` (the actor asks or, unable to, draws), `answer` (an ask is pending), `over`."""
    actor: str | None = None
    """Whose turn it is."""
    asked: Ask | None = None
    turn: int = 0
    dealt: int = 0
    """Cards dealt so far (1.2)."""


def hand(state: State, seat: str) -> tuple[str, ...]:
    """`seat`'s cards; none for a name that is not a seat."""
    return state.hands[state.seats.index(seat)] if seat in state.seats else ()


def holds(state: State, seat: str, wanted: str) -> int:
    """How many cards of rank `wanted` `seat` holds."""
    return hand(state, seat).count(wanted)


def in_stock(state: State, wanted: str) -> int:
    """How many cards of rank `wanted` the stock holds (none of a rank that does not exist)."""
    return state.stock[RANKS.index(wanted)] if wanted in RANKS else 0


def deal_size(params: Params, state: State) -> int:
    """1.2: the cards dealt in all: five each, seven each when two play."""
    return len(state.seats) * (params.hand_two if len(state.seats) == 2 else params.hand)


def dealt_next(state: State) -> str:
    """1.2: the seat the next card of the deal goes to, one at a time from the first seat."""
    return state.seats[state.dealt % len(state.seats)] if state.seats else ""


def can_ask(state: State, seat: str) -> bool:
    """2.1/2.4: you hold a card, and someone else holds one to ask."""
    return bool(hand(state, seat)) and any(hand(state, s) for s in state.seats if s != seat)


def setup(params: Params, started: MatchStarted) -> State:
    """The deck shuffled, nothing dealt yet: the deal is written card by card."""
    seats = tuple(started.seats)
    return State(seats=seats, hands=((),) * len(seats), books=((),) * len(seats), stock=(SUITS,) * len(RANKS))


def validate_start(params: Params, started: MatchStarted) -> list[str]:
    """1.1: two to four players."""
    return [] if 2 <= len(started.seats) <= 4 else [f"Go Fish is for 2 to 4 players, not {len(started.seats)}"]


# --- checks -----------------------------------------------------------------------------


def check(params: Params, state: State, event: Event) -> list[Violation]:
    """The rule an event breaks, by its id; none for an event the rules allow."""
    problem = _problem(state, event)
    return [] if problem is None else [Violation(seq=event.seq, rule=f"gofish/{problem[0]}", message=problem[1])]


def _problem(state: State, event: Event) -> tuple[str, str] | None:
    if isinstance(event, (Dealt, Asked, Gave, Drew)) and state.phase == "over":
        return "end.over", "the game is over: all thirteen books are down"  # 4.1
    if isinstance(event, Dealt):
        return _check_dealt(state, event)
    if isinstance(event, Asked):
        return _check_asked(state, event)
    if isinstance(event, Gave):
        return _check_gave(state, event)
    if isinstance(event, Drew):
        return _check_drew(state, event)
    return None


def _check_dealt(state: State, event: Dealt) -> tuple[str, str] | None:
    # 1.2 "deal one card at a time, starting with the first player"
    if state.phase != "deal":
        return "deal.size", "the deal is over: every hand has its cards"
    due = dealt_next(state)
    if event.seat != due:
        return "deal.order", f"the next card is dealt to {due}, not {event.seat}"
    if not in_stock(state, event.rank):
        return "deal.stock", f"no {event.rank} is left in the deck (all four dealt, or no such rank)"
    return None


def _check_asked(state: State, event: Asked) -> tuple[str, str] | None:
    asker = event.by or ""
    # 2.1 "On your turn, ask one other player who holds cards for one rank"
    if state.phase != "ask" or asker != state.actor:
        return "ask.turn", f"it is not {asker}'s turn to ask" + (f" ({state.actor}'s)" if state.actor else "")
    if not can_ask(state, asker):
        return "ask.draw", f"{asker} cannot ask (an empty hand, or no one else holds cards): draw instead"
    if event.target == asker or not hand(state, event.target):
        return "ask.target", f"{event.target} is not another player who holds cards"
    # 2.1 "you must hold at least one card of that rank"
    if not holds(state, asker, event.rank):
        return "ask.hold-rank", f"{asker} holds no {event.rank} to ask for"
    return None


def _check_gave(state: State, event: Gave) -> tuple[str, str] | None:
    # 2.2 "If they hold that rank, they give you all their cards of it"
    if state.asked is None or event.by != state.asked.target:
        return "give.asked", f"{event.by} was not asked for a rank"
    if event.rank != state.asked.rank:
        return "give.asked", f"{state.asked.by} asked for {state.asked.rank}s, not {event.rank}s"
    held = holds(state, state.asked.target, state.asked.rank)
    if not held:
        return "give.asked", f"{event.by} holds no {state.asked.rank}: {state.asked.by} goes fishing"
    if event.count != held:
        return "give.all", f"{event.by} must give all its {state.asked.rank}s ({held}), not {event.count}"
    return None


def _check_drew(state: State, event: Drew) -> tuple[str, str] | None:
    # 2.3 "If they hold none, they say 'go fish': you draw one card from the stock"
    # 2.4 "If you cannot ask ..., draw one card from the stock"
    fishing = state.phase == "answer" and state.asked is not None and not holds(state, state.asked.target, state.asked.rank)
    if not (fishing or (state.phase == "ask" and not can_ask(state, event.by or ""))) or event.by != state.actor:
        return "fish.when", f"{event.by} has no draw due: only a 'go fish' or a player who cannot ask draws"
    if not in_stock(state, event.rank):
        return "fish.stock", f"no {event.rank} is left in the stock"
    return None


# --- folding ----------------------------------------------------------------------------


def apply(params: Params, state: State, event: Event) -> State:
    """The state after an event, as the table wrote it (checked or not); a table with no
    seats (a log refused at line 0) stays as it was set up."""
    if not state.seats:
        return state
    if isinstance(event, Dealt):
        state = msgspec.structs.replace(_drawn(state, event.seat, event.rank), dealt=state.dealt + 1)
        if state.phase == "deal" and state.dealt >= deal_size(params, state):
            state = msgspec.structs.replace(state, phase="ask", actor=state.seats[0], turn=1)  # 2.1 "The first player starts"
    elif isinstance(event, Asked):
        state = msgspec.structs.replace(state, phase="answer", asked=Ask(by=event.by or "", target=event.target, rank=event.rank))
        if not holds(state, event.target, event.rank) and not any(state.stock):
            state = _next_turn(state)  # 2.3 "If the stock is empty, your turn ends without a draw"
    elif isinstance(event, Gave) and state.asked is not None:
        state = _given(state, state.asked, event.rank, event.count)  # 2.2 "... and you ask again"
        state = msgspec.structs.replace(state, phase="ask", asked=None)
    elif isinstance(event, Drew):
        fishing = state.phase == "answer"
        state = _drawn(state, event.by or "", event.rank)
        state = _next_turn(state) if fishing else state  # 2.3 "your turn ends"; 2.4 "go on with your turn"
    return _settled(state)


def _drawn(state: State, to: str, wanted: str) -> State:
    """A card of rank `wanted` from the stock into `to`'s hand (one the stock lacks, written
    wrong, still goes to the hand: the table holds it)."""
    stock = state.stock
    if in_stock(state, wanted):
        at = RANKS.index(wanted)
        stock = (*stock[:at], stock[at] - 1, *stock[at + 1:])
    return msgspec.structs.replace(_into(state, to, (wanted,)), stock=stock)


def _given(state: State, asked: Ask, given: str, count: int) -> State:
    """`count` cards of rank `given` from the asked hand to the asker's (at most the ones it
    holds: the table cannot hand over cards it does not have)."""
    moved = min(max(count, 0), holds(state, asked.target, given))
    at = state.seats.index(asked.target) if asked.target in state.seats else -1
    hands = state.hands
    if at >= 0:
        kept = list(hands[at])
        for _ in range(moved):
            kept.remove(given)
        hands = (*hands[:at], tuple(kept), *hands[at + 1:])
    return _into(msgspec.structs.replace(state, hands=hands), asked.by, (given,) * moved)


def _into(state: State, to: str, ranks: tuple[str, ...]) -> State:
    """`ranks` added to `to`'s hand, kept in rank order (a name that is no rank goes last)."""
    if to not in state.seats:
        return state
    at = state.seats.index(to)
    held = tuple(sorted((*state.hands[at], *ranks), key=_in_rank_order))
    return msgspec.structs.replace(state, hands=(*state.hands[:at], held, *state.hands[at + 1:]))


def _in_rank_order(card: str) -> int:
    """A rank's place in the deck; a name that is no rank (written wrong) goes last."""
    return RANKS.index(card) if card in RANKS else len(RANKS)


def _next_turn(state: State) -> State:
    following = state.seats[(state.seats.index(state.actor) + 1) % len(state.seats)] if state.actor in state.seats else state.seats[0]
    return msgspec.structs.replace(state, phase="ask", actor=following, asked=None, turn=state.turn + 1)


def _settled(state: State) -> State:
    """Books laid down (3.1), the game ended (4.1), and a turn that cannot be played passed (2.4)."""
    books = tuple((*b, *(r for r in RANKS if h.count(r) >= SUITS)) for b, h in zip(state.books, state.hands, strict=True))
    hands = tuple(tuple(c for c in h if c not in b) for b, h in zip(books, state.hands, strict=True))
    state = msgspec.structs.replace(state, books=books, hands=hands)
    if sum(len(b) for b in books) == len(RANKS):
        return msgspec.structs.replace(state, phase="over", actor=None, asked=None)
    for _ in state.seats:  # 2.4 "If the stock is empty too, your turn passes"
        if state.phase != "ask" or any(state.stock) or can_ask(state, state.actor or ""):
            break
        state = _next_turn(state)
    return state


# --- the end, moves and chance ----------------------------------------------------------


def outcome(params: Params, state: State) -> Outcome | None:
    """4.1: once all thirteen books are down, the most books win; a tie for the most is a draw."""
    if state.phase != "over":
        return None
    most = max(len(b) for b in state.books)
    leaders = [s for s, b in zip(state.seats, state.books, strict=True) if len(b) == most]
    if len(leaders) > 1:
        return Outcome(winner=None, draw=True, reason=f"{' and '.join(leaders)} tied with {most} books", rule="gofish/end.most-books")
    return Outcome(winner=leaders[0], reason=f"{leaders[0]} laid down {most} of 13 books", rule="gofish/end.most-books")


def legal(params: Params, state: State) -> Sequence[Event]:
    """Every ask the player to act may make (2.1), or the one answer the asked player owes (2.2)."""
    if state.phase == "ask" and state.actor is not None and can_ask(state, state.actor):
        ranks = [r for r in RANKS if holds(state, state.actor, r)]
        return [Asked(by=state.actor, target=t, rank=r) for t in state.seats if t != state.actor and hand(state, t) for r in ranks]
    if state.phase == "answer" and state.asked is not None and (count := holds(state, state.asked.target, state.asked.rank)):
        return [Gave(by=state.asked.target, rank=state.asked.rank, count=count)]
    return []


def chance(params: Params, state: State) -> Sequence[tuple[Event, float]] | None:
    """A card from the stock, every card equally likely, so each rank as likely as the stock
    holds cards of it: in the deal (1.2), a "go fish" (2.3), or a draw by a player who cannot
    ask (2.4)."""
    left = sum(state.stock)
    odds = [(r, n / left) for r, n in zip(RANKS, state.stock, strict=True) if n] if left else []
    if state.phase == "deal":
        return [(Dealt(seat=dealt_next(state), rank=r), p) for r, p in odds]
    fishing = state.phase == "answer" and state.asked is not None and not holds(state, state.asked.target, state.asked.rank)
    stuck = state.phase == "ask" and state.actor is not None and not can_ask(state, state.actor)
    if (fishing or stuck) and odds:
        return [(Drew(by=state.actor, rank=r), p) for r, p in odds]
    return None


def progress(params: Params, state: State) -> Progress:
    """The turn and whose decision it is: the asked player's while an ask is pending."""
    deciding = state.asked.target if state.phase == "answer" and state.asked and holds(state, state.asked.target, state.asked.rank) else state.actor
    played = (state.turn - 1) // len(state.seats) + 1 if state.turn else 0
    return Progress(turn=state.turn, round=played, phase=state.phase, actor=deciding)
