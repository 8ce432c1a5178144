"""What may happen next: the decisions a player may take, and what a chance step may give.

`legal` builds each kind of decision from the rules it must meet (a summon's base, a
clash's verdict, an acceptable offering), asking what is shared by every candidate once
per decision: a bot game asks for the legal moves thousands of times. Kinds that come up
rarely (returning extras, a Zodiac's effect, Primary's search in Singularity) are the
candidates `rules.check` finds nothing wrong in (an info, such as a lost hymn's unchecked
effect, is not wrong).
At a turn `legal` answers a lazy sequence (`rulesets.legal.Chain`): the steps on the board,
most of a turn's events, are counted and made only when read, so a random bot makes the one
it picks. `candidates` proposes every decision before the rules filter it; the contract suite holds
`legal` to exactly the candidates `check` accepts, in order. Every draw is a chance step
over the cards the pile holds, all equally likely (a shuffled pile).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any, overload

from events.base import Event
from rulesets.legal import Chain, Kept, Lazy
from rulesets.memo import last_args_each
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
    any_over_limits,
    board_by_space,
    clash,
    contract_of,
    house,
    over_limits,
    player,
    unspent,
)
from rulesets.outcomes import Uniform


def chance(params: Params, state: State) -> Sequence[tuple[Event, float]] | None:
    """At a chance step, every outcome with its probability; None at a decision. A draw from
    the deck or the hymnal is `Uniform`: one outcome per card, each event made when read."""
    if not state.pending and state.stage == "play":
        return None  # a decision (asked before every one: answered first)
    if state.stage == "deal":
        return _deal(params, state)
    if state.stage == "order":
        return _order_roll(state)
    if not state.pending:
        return None
    pending = state.pending[0]
    if pending.kind == "draw" and state.deck:
        seat = pending.seat
        return Uniform(state.deck, lambda card: CardDrawn(seat=seat, card=card))
    if pending.kind == "hymn" and state.hymnal:
        seat = pending.seat
        return Uniform(state.hymnal, lambda hymn: HymnDrawn(seat=seat, hymn=hymn))
    if pending.kind == "zodiac-roll":
        return _uniform([ZodiacRolled(value=v) for v in range(1, params.zodiac_faces + 1)])
    return None


def _uniform(events: list[Event]) -> list[tuple[Event, float]] | None:
    return [(e, 1 / len(events)) for e in events] if events else None


def _deal(params: Params, state: State) -> Sequence[tuple[Event, float]] | None:
    """Five cards each, one at a time around the table, then one hymn each."""
    short = [p for p in state.players if len(p.hand) < params.deal]
    if short:
        seat = min(short, key=lambda p: len(p.hand)).seat
        return Uniform(state.deck, lambda card: CardDealt(seat=seat, card=card)) if state.deck else None
    bare = [p for p in state.players if not p.hymns]
    if bare:
        first = bare[0].seat
        return Uniform(state.hymnal, lambda hymn: HymnDealt(seat=first, hymn=hymn)) if state.hymnal else None
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


def legal(params: Params, state: State) -> Sequence[Event]:
    """Every event that may come next and that the rules accept. At a decision, a sequence
    whose moves on the board are made only when asked for (`rulesets.legal.Chain`): a random
    bot makes the one it picks.

    A turn's actions with nothing before them (most decisions: the game in play, no step
    pending, no hand over the limits) are laid out as `TurnEvents` from `_turn` at once; any
    other decision goes through `_decisions`' parts."""
    if state.stage != "play" or state.pending:  # else no chance step: `chance` answers None
        outcomes = chance(params, state)
        if outcomes is not None:
            return [event for event, _ in outcomes]
        if state.stage != "play":
            return []
    if outcome(params, state) is not None:
        return []
    if not state.pending and (state.singularity or not any_over_limits(params, state)):
        p = player(state, state.current)
        if p is not None:  # what `_decisions` would answer with `_TURN_KINDS`, without its lists
            return TurnEvents(*_turn(params, state, p, True))  # type: ignore[arg-type]
    parts, kinds = _decisions(params, state, legal_only=True)
    if kinds is _TURN_KINDS:  # a turn's actions with nothing before them: what they are made from stays readable
        summons, steps, rest = parts
        return TurnEvents(summons, steps, rest)  # type: ignore[arg-type]
    return Chain(parts, kinds)


_TURN_KINDS: tuple[tuple[type, ...], ...] = (
    (CardSummoned,), (CardMoved, CardCaptured, CardsAnnihilated), (MercenaryBought, HymnSung, HymnLearned, DrawDeclared))
"""The event types of each part of a turn's decisions (`_decisions`), in order: the summons,
the steps on the board, and the few buys, songs, offerings and draws in one list (a part
costs the chain and every filter of it a step of its own)."""
_SUMMON_KINDS, _STEP_KINDS, _REST_KINDS = _TURN_KINDS


class Summons(Lazy[Event]):
    """A turn's legal summons, made when read: each hand card (`hand`) on each of its legal
    spaces (`spaces`, one list per hand card, in order). Built from each open space's
    accepted hand cards (`accepted`: one bit per hand card; a space none may be summoned on is
    left out), the summons are counted from the
    bits alone, and the lists per hand card are laid out only when a summon is read (a random
    bot mostly picks a step on the board, and needs only the count)."""

    __slots__ = ("_spaces", "accepted", "hand", "seat")

    def __init__(self, seat: str, hand: tuple[str, ...], accepted: dict[Space, int]) -> None:
        # `Lazy`'s fields set here: the events are made by the methods below, from these fields
        count = 0
        for bits in accepted.values():
            count += bits.bit_count()
        self._count, self._item, self._items, self._made, self._all = count, None, None, {}, None
        self.seat, self.hand, self.accepted = seat, hand, accepted
        self._spaces: list[list[Space]] | None = None

    @property
    def spaces(self) -> list[list[Space]]:
        """Each hand card's legal spaces, in order (laid out from the bits once, when first read)."""
        if self._spaces is None:
            per_card: list[list[Space]] = [[] for _ in self.hand]
            accepted = self.accepted
            for space in sorted(accepted):
                bits = accepted[space]
                while bits:
                    low = bits & -bits
                    per_card[low.bit_length() - 1].append(space)
                    bits ^= low
            self._spaces = per_card
        return self._spaces

    def _make(self, index: int) -> Event:
        for card_id, open_ in zip(self.hand, self.spaces, strict=True):
            if index < len(open_):
                return CardSummoned(by=self.seat, card=card_id, space=open_[index])
            index -= len(open_)
        raise IndexError(index)

    def _make_all(self) -> list[Event]:
        seat = self.seat
        return [CardSummoned(by=seat, card=card_id, space=space) for card_id, open_ in zip(self.hand, self.spaces, strict=True) for space in open_]


@functools.lru_cache(maxsize=64)
def _no_summons(seat: str) -> Summons:
    """An empty hand's summons (none; shared: an empty run is never changed)."""
    return Summons(seat, (), {})


class Steps(Lazy[Event]):
    """A turn's legal steps on the board, made when read: `found` holds each step's card, the
    space it steps to, the enemy there (None on an empty space) and their clash ("" for none);
    `attacks` is how many step onto an enemy (the heuristic looks for none when there are none)."""

    __slots__ = ("attacks", "found", "seat")

    def __init__(self, seat: str, found: list[tuple[Placed, Space, Placed | None, str]], attacks: int) -> None:
        self._count, self._item, self._items, self._made, self._all = len(found), None, None, {}, None
        self.seat, self.found, self.attacks = seat, found, attacks

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...
    def __getitem__(self, index: int | slice) -> Event | Sequence[Event]:
        """`Lazy`'s i-th event (made once, kept), a move onto an empty space made here: a
        random bot's pick, most often."""
        if type(index) is not int or not 0 <= index < self._count or self._all is not None:
            return super().__getitem__(index)
        made = self._made.get(index)
        if made is None:
            piece, near, occupant, kind = self.found[index]
            made = self._made[index] = CardMoved(by=self.seat, card=piece.card, to=near) if occupant is None else _step(self.seat, piece, near, occupant, kind)
        return made

    def _make(self, index: int) -> Event:
        return _step(self.seat, *self.found[index])

    def _make_all(self) -> list[Event]:  # most steps are onto an empty space: made here, the rest by `_step`
        seat = self.seat
        return [CardMoved(by=seat, card=piece.card, to=near) if occupant is None else _step(seat, piece, near, occupant, kind)
                for piece, near, occupant, kind in self.found]


class TurnEvents(Chain[Event]):
    """A seat's legal turn actions (when nothing comes before them): its summons and its steps
    on the board, each made only when read, then its buys, songs, offerings and draws as a
    list (`rest`). The runs keep what their events are made from (`Summons`, `Steps`), so the
    heuristic weighs them without making them, and makes the one it plays. `songs` is where the
    songs are in `rest`, side by side (their first index and their number), when `legal` knows
    it at once (a turn outside Singularity): the random bot, which sings none there, skips
    them without looking at `rest`."""

    __slots__ = ("rest", "songs", "steps", "summons")

    def __init__(self, summons: Summons, steps: Steps, rest: Sequence[Event], songs: tuple[int, int] | None = None) -> None:
        s, t, r = summons._count, steps._count, len(rest)  # sizes known: no length asked, no part looked at in a loop
        parts: list[Sequence[Event]] = []
        starts: list[int] = []
        kinds: list[tuple[type, ...]] = []
        if s:
            parts.append(summons)
            starts.append(0)
            kinds.append(_SUMMON_KINDS)
        if t:
            parts.append(steps)
            starts.append(s)
            kinds.append(_STEP_KINDS)
        if r:
            parts.append(rest)
            starts.append(s + t)
            kinds.append(_REST_KINDS)
        self._laid(parts, kinds, starts, s + t + r)
        self.summons, self.steps, self.rest, self.songs = summons, steps, rest, songs

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...
    def __getitem__(self, index: int | slice) -> Event | Sequence[Event]:
        """`Chain`'s i-th event, read from the part it falls in by the parts' sizes (no search
        over the parts' starts): a random bot's pick."""
        if type(index) is not int or not 0 <= index < self._count:
            return super().__getitem__(index)
        summoned = self.summons._count
        if index < summoned:
            event = self.summons[index]
        else:
            index -= summoned
            stepped = self.steps._count
            event = self.steps[index] if index < stepped else self.rest[index - stepped]
        self._last = event
        return event

    def keep(self, predicate: Callable[[Any], bool], kinds: tuple[type, ...]) -> Sequence[Event]:
        """`Chain.keep`; when no summon or step is of `kinds` (the bots leave out hymns), only
        the rest, the last part, is looked at."""
        if _of_board_kinds(kinds):
            return super().keep(predicate, kinds)
        start = self._count - len(self.rest)
        dropped = [start + offset for offset, event in enumerate(self.rest) if isinstance(event, kinds) and not predicate(event)]
        return Kept(self, dropped) if dropped else self


@functools.lru_cache(maxsize=64)  # pure, over the few kinds the bots filter by
def _of_board_kinds(kinds: tuple[type, ...]) -> bool:
    """Whether a summon or a step is of one of `kinds`."""
    return any(issubclass(kind, kinds) for kind in (*_TURN_KINDS[0], *_TURN_KINDS[1]))


def candidates(params: Params, state: State) -> Iterator[Event]:
    """Every event proposed at a decision before the rules filter it (the contract's reference)."""
    if chance(params, state) is None and state.stage == "play" and outcome(params, state) is None:
        for part in _decisions(params, state, legal_only=False)[0]:
            yield from part


def _refused(params: Params, state: State, event: Event) -> bool:
    """An error or a warning makes an event illegal; an info (a lost hymn's unchecked
    effect) does not."""
    return any(v.severity != "info" for v in check(params, state, event))


def _checked(params: Params, state: State, proposed: Iterator[Event], legal_only: bool) -> list[Event]:
    """The proposals (only those `check` accepts, if legal_only): for the rare kinds."""
    return [e for e in proposed if not _refused(params, state, e)] if legal_only else list(proposed)


def _decisions(params: Params, state: State, *, legal_only: bool) -> tuple[list[Sequence[Event]], Sequence[tuple[type, ...]]]:
    """Every decision proposed, or (legal_only) every one the rules accept, kind by kind in
    order: each part a list, or the moves on the board made when asked (`_board_moves`);
    with the event types of each part where they are known (a turn's actions).

    A turn action is proposed only once nothing blocks every turn action: the game on, the
    seat to act known, no step pending and no unnamed excess in a hand (`rules._check_turn`),
    so each kind below asks only its own rules.
    """
    parts: list[Sequence[Event]] = []
    if state.pending:
        if state.pending[0].kind == "zodiac-effect":
            parts.append(_checked(params, state, _zodiac_effects(state), legal_only))
        return parts, ()
    if not state.singularity and any_over_limits(params, state):
        for holder in state.players:  # some hand is over the limits (`over_limits`): which?
            if over_limits(params, state, holder.seat):
                parts.append(_checked(params, state, _returns(params, holder), legal_only))  # extras go back before the game goes on
        if any(over_limits(params, state, s) and s not in state.noted for s in state.seats):
            return parts, ()  # every turn action would be named (hand.limit) until they do
    p = player(state, state.current)
    if p is None:
        return parts, ()
    kinds = [()] * len(parts) + list(_TURN_KINDS) if parts else _TURN_KINDS
    parts.extend(_turn(params, state, p, legal_only)[:3])
    return parts, kinds


def _turn(params: Params, state: State, p: Player, legal_only: bool) -> tuple[Sequence[Event], Sequence[Event], Sequence[Event], tuple[int, int] | None]:
    """A seat's turn actions (the parts `_TURN_KINDS` names): its summons, its steps on the
    board, and its buys, songs, offerings and draws; and where the songs are among the last
    (`TurnEvents.songs`: their first index and their number), when that is known at once."""
    where = board_by_space(state)  # once per decision: every summon and step asks what is where
    steps = _board_moves(params, state, where, p.seat, legal_only)
    beside = steps.found if isinstance(steps, Steps) and len(where) == len(state.board) else None  # one card a space: the steps say what is empty
    summons = _summons(params, where, p, legal_only, beside)
    if legal_only and not state.singularity:  # a seat's songs, offerings and draws depend on its cards alone
        own, can_buy, sung = _own_actions(p.seat, params, p, not state.hymnal, not state.deck)
        if can_buy:
            buys = _buys(state, p)
            return summons, steps, [*buys, *own], (len(buys), sung)
        return summons, steps, own, (0, sung)
    return summons, steps, [*_buys(state, p), *_songs(params, state, p, legal_only), *_offerings(state, p, legal_only), *_draws(params, state, p)], None


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


def _summons(params: Params, where: dict[Space, Placed], p: Player, legal_only: bool,
             steps: list[tuple[Placed, Space, Placed | None, str]] | None = None) -> Sequence[Event]:
    """Each hand card on the empty House or an empty space beside an own card; legal where
    the card is a deck card and the space is the House or beside a base it may be summoned
    on (same suit, or a face value no lower: `rules._check_base`).

    Which hand cards a base accepts depends on the base and the hand alone
    (`_accepted_by`), so each space's accepted cards are the union of its bases' (one bit
    per hand card), and only the accepted pairs are visited. The empty spaces beside own
    cards are read from the turn's legal `steps` when given (`Steps.found`: each own card's
    steps onto an empty space, with one card a space). The summons are made when read (a
    `Lazy` run): a random bot makes the one it picks."""
    seat, size = p.seat, params.board_size
    if not legal_only:
        home = house(params, seat)
        spaces = {home} if home not in where else set()
        for piece in where.values():
            if piece.owner == seat:
                spaces.update(near for _, near in board.neighbours(piece.space, size) if near not in where)
        ordered = sorted(spaces)
        return [CardSummoned(by=seat, card=card_id, space=space) for card_id in p.hand for space in ordered]
    hand = p.hand
    if not hand:
        return _no_summons(seat)  # most decisions: no House asked for
    home = house(params, seat)
    accepted: dict[Space, int] = {home: _deck_cards(hand)} if home not in where else {}
    if steps is not None:
        base: Placed | None = None
        bits = 0
        for piece, near, occupant, _ in steps:
            if occupant is None:
                if piece is not base:  # a card's steps come together: its accepted cards once
                    base, bits = piece, _accepted_by(piece.card, hand)
                if bits:  # a base that accepts no hand card adds no summon: its spaces are not kept
                    accepted[near] = accepted.get(near, 0) | bits
    else:
        around = board.adjacent(size)
        for piece in where.values():
            if piece.owner == seat:
                bits = _accepted_by(piece.card, hand)
                if not bits:
                    continue  # it accepts no hand card: no summon beside it
                for near in around.get(piece.space) or _off_board(piece.space, size):
                    if near not in where:
                        accepted[near] = accepted.get(near, 0) | bits
    return Summons(seat, hand, accepted)


@functools.lru_cache(maxsize=1 << 12)  # pure; a hand and the cards in play change slowly
def _accepted_by(base_id: str, hand: tuple[str, ...]) -> int:
    """The hand cards (bit i: hand[i]) that may be summoned beside the base: deck cards of its
    suit or of a face value no lower (any deck card beside a card that is not one), read from
    the base's own set (`_accepts`: a new hand costs a look-up per card)."""
    accepts = _accepts(base_id)
    bits = 0
    for i, card_id in enumerate(hand):
        if card_id in accepts:
            bits |= 1 << i
    return bits


@functools.lru_cache(maxsize=1 << 8)  # pure: one set per base (the 56 deck cards, met in a run's first games)
def _accepts(base_id: str) -> frozenset[str]:
    """The deck cards that may be summoned beside the base: of its suit or of a face value no
    lower; every deck card beside a card that is not one."""
    base = cards.card(base_id)
    if base is None:
        return frozenset(cards.CARDS)
    return frozenset([card.id for card in cards.CARDS.values() if card.suit == base.suit or card.value >= base.value])


@functools.lru_cache(maxsize=1 << 10)
def _deck_cards(hand: tuple[str, ...]) -> int:
    """The hand's deck cards (bit i: hand[i]): what the empty House accepts."""
    return sum(1 << i for i, card_id in enumerate(hand) if cards.card(card_id) is not None)


def _board_moves(params: Params, state: State, where: dict[Space, Placed], seat: str, legal_only: bool) -> Sequence[Event]:
    """One step of each own card: a move into an empty space, a capture or annihilation of an
    enemy; legal as the clash of the two cards says (`state.clash`). The legal steps are
    found once (the card, the space, the enemy there and the clash) and their events made
    only when asked (a `Lazy` run, in order): one event for a random bot's pick, all of them
    when the sequence is read whole."""
    size = params.board_size
    if not legal_only:
        out: list[Event] = []
        for piece in state.board:
            if piece.owner == seat:
                for _, near in board.neighbours(piece.space, size):
                    occupant = where.get(near)
                    if occupant is None:
                        out.append(CardMoved(by=seat, card=piece.card, to=near))
                    elif occupant.owner != seat:
                        out += [CardCaptured(by=seat, card=piece.card, target=occupant.card),
                                CardsAnnihilated(by=seat, card=piece.card, target=occupant.card)]
        return out
    around = board.adjacent(size)
    found: list[tuple[Placed, Space, Placed | None, str]] = []  # each legal step: card, space, enemy there, clash
    get = where.get
    attacks = 0
    for piece in state.board:
        if piece.owner != seat:
            continue
        for near in around.get(piece.space) or _off_board(piece.space, size):
            occupant = get(near)
            if occupant is None:
                found.append((piece, near, None, ""))
            elif occupant.owner != seat:
                met = clash(params, state, piece, occupant)
                if met.kind in _ONTO_ENEMY:
                    found.append((piece, near, occupant, met.kind))
                    attacks += 1
    return Steps(seat, found, attacks)


def _step(seat: str, piece: Placed, near: Space, occupant: Placed | None, kind: str) -> Event:
    """A legal step of `piece` as its event: a move onto an empty space, else the clash's
    capture (`apart` too) or annihilation."""
    if occupant is None:
        return CardMoved(by=seat, card=piece.card, to=near)
    if kind == "annihilation":
        return CardsAnnihilated(by=seat, card=piece.card, target=occupant.card)
    return CardCaptured(by=seat, card=piece.card, target=occupant.card)


_ONTO_ENEMY = frozenset({"capture", "apart", "annihilation"})
"""Clashes that let a card step onto an enemy: a capture (`apart` too: no edge touches, and
`check` finds the capture nothing wrong) or an annihilation (never both for one pair)."""


def _off_board(space: Space, size: int) -> tuple[Space, ...]:
    """The neighbours of a card the table put off the board (`board.adjacent` has only the board's)."""
    return tuple(near for _, near in board.neighbours(space, size))


def _buys(state: State, p: Player) -> list[Event]:
    """Each enemy Mercenary not under contract, for a face-down capture: all that
    `rules._check_bought` asks, so every one proposed is legal."""
    free = unspent(p)
    if not free:
        return []
    seat = p.seat
    return [MercenaryBought(by=seat, card=piece.card, capture=free[0]) for piece in state.board
            if piece.owner != seat and piece.card in cards.MERCENARIES and contract_of(state, piece.card) is None]


@last_args_each  # rulesets/memo.py: per seat, while its cards (one Player object) stay as they are
def _own_actions(seat: str, params: Params, p: Player, no_hymnal: bool, no_deck: bool) -> tuple[tuple[Event, ...], bool, int]:
    """A seat's legal songs, offerings and draws outside Singularity (`_songs`, `_offerings`,
    `_draws`), whether it holds a face-down capture to buy with (`_buys`), and how many songs
    lead them: they depend on its Player alone and on whether the hymnal and the deck are
    empty, and the Player object stays the same from turn to turn until its cards change."""
    free = unspent(p)
    songs = _songs_held(seat, p.hymns)
    offerings = () if no_hymnal else _acceptable(seat, p.hand, p.hymns, free[:1])
    draws = () if no_deck else _discarding(seat, p.hand) if len(p.hand) >= params.hand_limit else _drawing(seat)
    return (*songs, *offerings, *draws), bool(free), len(songs)


@functools.lru_cache(maxsize=1 << 10)  # pure; a seat's hymns change far less often than its hand
def _songs_held(seat: str, hymns: tuple[str, ...]) -> tuple[Event, ...]:
    """A seat's legal songs outside Singularity: each held hymn (`_songs`' events, made once
    per seat and hymns held rather than at every change of the seat's cards)."""
    return tuple([HymnSung(by=seat, hymn=hymn) for hymn in hymns if hymn in cards.HYMNS])


def _songs(params: Params, state: State, p: Player, legal_only: bool) -> list[Event]:
    """Each held hymn; Primary in Singularity once per card it may find. Legal where it is a
    hymn (`rules._check_sung`; an effect the text lost is an info, not wrong); Primary's
    search in Singularity is checked in full."""
    out: list[Event] = []
    for hymn in p.hymns:
        if state.singularity and hymn == cards.PRIMARY:
            searches = (HymnSung(by=p.seat, hymn=hymn, puts=(Put(card=card_id, to="hand", seat=p.seat),)) for card_id in state.deck)
            out += _checked(params, state, searches, legal_only)
        elif not legal_only or hymn in cards.HYMNS:
            out.append(HymnSung(by=p.seat, hymn=hymn))
    return out


def _offerings(state: State, p: Player, legal_only: bool) -> Sequence[Event]:
    """Every acceptable offering (one capture stands for any: they are alike); legal in an
    acceptable form that leaves no hymn held (`rules._check_learned`). They depend on the
    seat's cards alone, which change only when it summons, draws or learns: remembered per
    hand, hymns and first unspent capture."""
    if state.singularity or not state.hymnal:
        return []
    capture = unspent(p)[:1]
    if not legal_only:
        return list(_offered(p.seat, p.hand, p.hymns, capture))
    return _acceptable(p.seat, p.hand, p.hymns, capture)


@functools.lru_cache(maxsize=1 << 12)  # pure over the seat's cards; the events are frozen, shared by the decisions that ask
def _acceptable(seat: str, hand: tuple[str, ...], hymns: tuple[str, ...], capture: tuple[str, ...]) -> tuple[Event, ...]:
    """The offerings `_offered` makes that are acceptable (`rules.offering_form`) and leave no hymn
    held. A hand of deck cards with at most one hymn (every hand the rules deal) makes only
    such offerings: two cards of 2-9, one of 10 or more, the capture, the hymn with one card or
    with the capture; so they are kept without asking each its form. Any other hand (a table's:
    an unknown id, a second hymn) is filtered."""
    if len(hymns) <= 1 and all([card_id in cards.CARDS for card_id in hand]) and (not hymns or hymns[0] in cards.HYMNS):
        return tuple(_offered(seat, hand, hymns, capture))
    return _filtered(seat, hand, hymns, capture)


def _filtered(seat: str, hand: tuple[str, ...], hymns: tuple[str, ...], capture: tuple[str, ...]) -> tuple[Event, ...]:
    """The offerings `_offered` makes that `rules.offering_form` accepts and that leave no hymn held."""
    return tuple(event for event in _offered(seat, hand, hymns, capture)
                 if offering_form(event.offering, event.captures) is not None and all(h in event.offering for h in hymns))


@functools.lru_cache(maxsize=1 << 8)  # pure: the events are frozen; a seat's few hymns in a run
def _learning(seat: str, hymn: str) -> dict[str, HymnLearned]:
    """The seat's offering of `hymn` with each deck card, by card, filled as hands meet them
    (`_offered`): a new hand is mostly cards its seat held before with the same hymn (a
    hand changes a card at a time), so its offerings are read, not made (at most 56 a hymn)."""
    return {}


def _offered(seat: str, hand: tuple[str, ...], hymns: tuple[str, ...], capture: tuple[str, ...]) -> Iterator[HymnLearned]:
    if hymns:
        for hymn in hymns:
            learning = _learning(seat, hymn)
            for card_id in hand:
                event = learning.get(card_id)
                if event is None:
                    event = HymnLearned(by=seat, offering=(hymn, card_id))
                    if card_id in cards.CARDS:  # kept for deck cards alone (at most 56 a hymn), not a table's ids
                        learning[card_id] = event
                yield event
            if capture:
                yield HymnLearned(by=seat, offering=(hymn,), captures=capture)
        return
    low = [c for c in hand if (found := cards.card(c)) is not None and 2 <= found.value <= 9]
    for pair in combinations(low, 2):
        yield HymnLearned(by=seat, offering=pair)
    for card_id in hand:
        if (found := cards.card(card_id)) is not None and found.value >= 10:
            yield HymnLearned(by=seat, offering=(card_id,))
    if capture:
        yield HymnLearned(by=seat, captures=capture)


def _draws(params: Params, state: State, p: Player) -> Sequence[Event]:
    """A draw, with a discard first from a full hand (outside Singularity): all that
    `rules._check_draw` asks, so every one proposed is legal."""
    if not state.deck:
        return []
    if len(p.hand) >= params.hand_limit and not state.singularity:
        return _discarding(p.seat, p.hand)
    return _drawing(p.seat)


@functools.lru_cache(maxsize=1 << 12)  # pure over the hand; frozen events, shared by the decisions that ask
def _discarding(seat: str, hand: tuple[str, ...]) -> tuple[Event, ...]:
    return tuple(DrawDeclared(by=seat, discard=card_id) for card_id in hand)


@functools.lru_cache(maxsize=64)
def _drawing(seat: str) -> tuple[Event, ...]:
    return (DrawDeclared(by=seat),)
