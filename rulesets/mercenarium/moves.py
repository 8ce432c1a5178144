"""What may happen next: the decisions a player may take, and what a chance step may give.

`legal` builds each kind of decision from the rules it must meet (a summon's base, a
clash's verdict, an acceptable offering), asking what is shared by every candidate once
per decision: a bot game asks for the legal moves thousands of times. Kinds that come up
rarely (returning extras, a Zodiac's effect, Primary's search in Singularity) are the
candidates `rules.check` finds nothing wrong in (an info, such as a lost hymn's unchecked
effect, is not wrong).
`candidates` proposes every decision before the rules filter it; the contract suite holds
`legal` to exactly the candidates `check` accepts, in order. Every draw is a chance step
over the cards the pile holds, all equally likely (a shuffled pile).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from events.base import Event
from rulesets.mercenarium import board, cards
from rulesets.mercenarium.board import Space
from rulesets.mercenarium.events import (
    CardCaptured,
    CardDealt,
    CardDrawn,
    CardMoved,
    CardsAnnihilated,
    CardSummoned,
    DrawDeclared,
    ExtrasReturned,
    HymnDealt,
    HymnDrawn,
    HymnLearned,
    HymnSung,
    MercenaryBought,
    Put,
    TurnOrderRolled,
    ZodiacResolved,
    ZodiacRolled,
)
from rulesets.mercenarium.params import Params
from rulesets.mercenarium.rules import SYMBOLS, check, offering_form, outcome
from rulesets.mercenarium.state import (
    Placed,
    Player,
    State,
    board_by_space,
    clash,
    contract_of,
    house,
    over_limits,
    player,
    unspent,
)


def chance(params: Params, state: State) -> list[tuple[Event, float]] | None:
    """At a chance step, every outcome with its probability; None at a decision."""
    if state.stage == "deal":
        return _deal(params, state)
    if state.stage == "order":
        return _order_roll(state)
    if not state.pending:
        return None
    pending = state.pending[0]
    if pending.kind == "draw" and state.deck:
        return _uniform([CardDrawn(seat=pending.seat, card=c) for c in state.deck])
    if pending.kind == "hymn" and state.hymnal:
        return _uniform([HymnDrawn(seat=pending.seat, hymn=h) for h in state.hymnal])
    if pending.kind == "zodiac-roll":
        return _uniform([ZodiacRolled(value=v) for v in range(1, params.zodiac_faces + 1)])
    return None


def _uniform(events: list[Event]) -> list[tuple[Event, float]] | None:
    return [(e, 1 / len(events)) for e in events] if events else None


def _deal(params: Params, state: State) -> list[tuple[Event, float]] | None:
    """Five cards each, one at a time around the table, then one hymn each."""
    short = [p for p in state.players if len(p.hand) < params.deal]
    if short:
        seat = min(short, key=lambda p: len(p.hand)).seat
        return _uniform([CardDealt(seat=seat, card=c) for c in state.deck])
    bare = [p for p in state.players if not p.hymns]
    if bare:
        return _uniform([HymnDealt(seat=bare[0].seat, hymn=h) for h in state.hymnal])
    return None


def _order_roll(state: State) -> list[tuple[Event, float]] | None:
    """The next seat to roll; seats take the Fool and the Fox die in turn (which one changes nothing)."""
    rolled = {seat for seat, _ in state.rolls}
    waiting = [s for s in state.rollers if s not in rolled]
    if not waiting:
        return None
    seat = waiting[0]
    die = "fool" if state.seats.index(seat) % 2 == 0 else "fox"
    faces: list[int | str] = [1, 2, 3, 4, 5, SYMBOLS[die]]
    return _uniform([TurnOrderRolled(seat=seat, die=die, face=f) for f in faces])  # type: ignore[arg-type]


def legal(params: Params, state: State) -> list[Event]:
    """Every event that may come next and that the rules accept."""
    outcomes = chance(params, state)
    if outcomes is not None:
        return [event for event, _ in outcomes]
    if state.stage != "play" or outcome(params, state) is not None:
        return []
    return _decisions(params, state, legal_only=True)


def candidates(params: Params, state: State) -> Iterator[Event]:
    """Every event proposed at a decision before the rules filter it (the contract's reference)."""
    if chance(params, state) is None and state.stage == "play" and outcome(params, state) is None:
        yield from _decisions(params, state, legal_only=False)


def _refused(params: Params, state: State, event: Event) -> bool:
    """An error or a warning makes an event illegal; an info (a lost hymn's unchecked
    effect) does not."""
    return any(v.severity != "info" for v in check(params, state, event))


def _checked(params: Params, state: State, proposed: Iterator[Event], legal_only: bool) -> Iterator[Event]:
    """The proposals (only those `check` accepts, if legal_only): for the rare kinds."""
    return (e for e in proposed if not _refused(params, state, e)) if legal_only else proposed


def _decisions(params: Params, state: State, *, legal_only: bool) -> list[Event]:
    """Every decision proposed, or (legal_only) every one the rules accept (a list: each kind
    adds its events to it, rather than passing each through one more generator).

    A turn action is proposed only once nothing blocks every turn action: the game on, the
    seat to act known, no step pending and no unnamed excess in a hand (`rules._check_turn`),
    so each kind below asks only its own rules.
    """
    out: list[Event] = []
    if state.pending:
        if state.pending[0].kind == "zodiac-effect":
            out += _checked(params, state, _zodiac_effects(state), legal_only)
        return out
    if not state.singularity and any(len(h.hand) > params.hand_limit or len(h.hymns) > params.hymn_limit for h in state.players):
        for holder in state.players:  # some hand is over the limits (`over_limits`): which?
            if over_limits(params, state, holder.seat):
                out += _checked(params, state, _returns(params, holder), legal_only)  # extras go back before the game goes on
        if any(over_limits(params, state, s) and s not in state.noted for s in state.seats):
            return out  # every turn action would be named (hand.limit) until they do
    p = player(state, state.current)
    if p is None:
        return out
    where = board_by_space(state)  # once per decision: every summon and step asks what is where
    out += _summons(params, where, p, legal_only)
    out += _board_moves(params, state, where, p.seat, legal_only)
    out += _buys(state, p)
    out += _songs(params, state, p, legal_only)
    out += _offerings(state, p, legal_only)
    out += _draws(params, state, p)
    return out


def _returns(params: Params, p: Player) -> Iterator[Event]:
    """One extra card (or hymn) shuffled back at a time."""
    if len(p.hand) > params.hand_limit:
        for card_id in p.hand:
            yield ExtrasReturned(by=p.seat, cards=(card_id,))
    if len(p.hymns) > params.hymn_limit:
        for hymn in p.hymns:
            yield ExtrasReturned(by=p.seat, cards=(hymn,))


def _zodiac_effects(state: State) -> Iterator[Event]:
    """The rolled hymn's changes: Primary's search in Singularity, else none recorded (a bot
    cannot know a lost effect; a table records what it did)."""
    pending = state.pending[0]
    if state.singularity and pending.hymn == cards.PRIMARY:
        for card_id in state.deck:
            yield ZodiacResolved(by=pending.seat, hymn=pending.hymn, puts=(Put(card=card_id, to="hand", seat=pending.seat),))
    else:
        yield ZodiacResolved(by=pending.seat, hymn=pending.hymn)


def _summons(params: Params, where: dict[Space, Placed], p: Player, legal_only: bool) -> list[Event]:
    """Each hand card on the empty House or an empty space beside an own card; legal where
    the card is a deck card and the space is the House or beside a base it may be summoned
    on (same suit, or a face value no lower: `rules._check_base`)."""
    seat, size = p.seat, params.board_size
    home = house(params, seat)
    bases: dict[Space, list[cards.Card | None]] = {home: []} if home not in where else {}
    for piece in where.values():
        if piece.owner == seat:
            base = cards.card(piece.card)
            for _, near in board.neighbours(piece.space, size):
                if near not in where:
                    if near in bases:
                        bases[near].append(base)
                    else:
                        bases[near] = [base]
    ordered = sorted(bases)
    out: list[Event] = []
    for card_id in p.hand:
        incoming = cards.card(card_id)
        if not legal_only:
            out += [CardSummoned(by=seat, card=card_id, space=space) for space in ordered]
            continue
        if incoming is None:
            continue
        suit, value = incoming.suit, incoming.value
        for space in ordered:
            if space == home or any(b is None or b.suit == suit or value >= b.value for b in bases[space]):
                out.append(CardSummoned(by=seat, card=card_id, space=space))
    return out


def _board_moves(params: Params, state: State, where: dict[Space, Placed], seat: str, legal_only: bool) -> list[Event]:
    """One step of each own card: a move into an empty space, a capture or annihilation of an
    enemy; legal as the clash of the two cards says (`state.clash`)."""
    out: list[Event] = []
    size = params.board_size
    for piece in state.board:
        if piece.owner != seat:
            continue
        for _, near in board.neighbours(piece.space, size):
            occupant = where.get(near)
            if occupant is None:
                out.append(CardMoved(by=seat, card=piece.card, to=near))
            elif occupant.owner != seat:
                kind = clash(params, state, piece, occupant).kind if legal_only else None
                if kind in (None, "capture", "apart"):
                    out.append(CardCaptured(by=seat, card=piece.card, target=occupant.card))
                if kind in (None, "annihilation"):
                    out.append(CardsAnnihilated(by=seat, card=piece.card, target=occupant.card))
    return out


def _buys(state: State, p: Player) -> Iterator[Event]:
    """Each enemy Mercenary not under contract, for a face-down capture: all that
    `rules._check_bought` asks, so every one proposed is legal."""
    free = unspent(p)
    if not free:
        return
    for piece in state.board:
        found = cards.card(piece.card)
        if piece.owner != p.seat and found is not None and found.mercenary and contract_of(state, piece.card) is None:
            yield MercenaryBought(by=p.seat, card=piece.card, capture=free[0])


def _songs(params: Params, state: State, p: Player, legal_only: bool) -> Iterator[Event]:
    """Each held hymn; Primary in Singularity once per card it may find. Legal where it is a
    hymn (`rules._check_sung`; an effect the text lost is an info, not wrong); Primary's
    search in Singularity is checked in full."""
    for hymn in p.hymns:
        if state.singularity and hymn == cards.PRIMARY:
            searches = (HymnSung(by=p.seat, hymn=hymn, puts=(Put(card=card_id, to="hand", seat=p.seat),)) for card_id in state.deck)
            yield from _checked(params, state, searches, legal_only)
        elif not legal_only or hymn in cards.HYMNS:
            yield HymnSung(by=p.seat, hymn=hymn)


def _offerings(state: State, p: Player, legal_only: bool) -> Iterator[Event]:
    """Every acceptable offering (one capture stands for any: they are alike); legal in an
    acceptable form that leaves no hymn held (`rules._check_learned`)."""
    if state.singularity or not state.hymnal:
        return
    proposed = _offered(state, p)
    if not legal_only:
        yield from proposed
        return
    for event in proposed:
        if offering_form(event.offering, event.captures) is not None and all(h in event.offering for h in p.hymns):
            yield event


def _offered(state: State, p: Player) -> Iterator[HymnLearned]:
    capture = unspent(p)[:1]
    if p.hymns:
        for hymn in p.hymns:
            for card_id in p.hand:
                yield HymnLearned(by=p.seat, offering=(hymn, card_id))
            if capture:
                yield HymnLearned(by=p.seat, offering=(hymn,), captures=capture)
        return
    low = [c for c in p.hand if (found := cards.card(c)) is not None and 2 <= found.value <= 9]
    for pair in combinations(low, 2):
        yield HymnLearned(by=p.seat, offering=pair)
    for card_id in p.hand:
        if (found := cards.card(card_id)) is not None and found.value >= 10:
            yield HymnLearned(by=p.seat, offering=(card_id,))
    if capture:
        yield HymnLearned(by=p.seat, captures=capture)


def _draws(params: Params, state: State, p: Player) -> Iterator[Event]:
    """A draw, with a discard first from a full hand (outside Singularity): all that
    `rules._check_draw` asks, so every one proposed is legal."""
    if not state.deck:
        return
    if len(p.hand) >= params.hand_limit and not state.singularity:
        for card_id in p.hand:
            yield DrawDeclared(by=p.seat, discard=card_id)
    else:
        yield DrawDeclared(by=p.seat)
