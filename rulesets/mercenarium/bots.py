"""Bots that play Mercenarium for simulated playtests.

A bot is a policy: given the params, the state and the legal events, it returns one of
them. Bots may use randomness (they are players, not rules), always from the seeded
generator they are handed, so a simulation replays byte for byte from its seed. A bot
sees the whole state; it only ever reads its own hand and the open board.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence

from events.base import Event
from rulesets.legal import keep
from rulesets.memo import last_one
from rulesets.mercenarium import board, cards
from rulesets.mercenarium.events import (
    CardCaptured,
    CardMoved,
    CardsAnnihilated,
    CardSummoned,
    DrawDeclared,
    ExtrasReturned,
    HymnLearned,
    HymnSung,
    MercenaryBought,
)
from rulesets.mercenarium.moves import TurnEvents
from rulesets.mercenarium.params import Params
from rulesets.mercenarium.state import (
    Placed,
    State,
    board_by_space,
    clash,
    house,
    in_play,
    next_seat,
    player,
)


def checkable(state: State, event: Event) -> bool:
    """Whether the rules can check the event's effect: a bot cannot know what a hymn whose
    text is lost does, so it sings only Fireyes and Primary in Singularity (the Zodiac's
    d12 may roll a lost one). Singing others is legal; a table records what they did."""
    if isinstance(event, HymnSung):
        return state.singularity and event.hymn in (cards.FIREYES, cards.PRIMARY)
    return True


def _playable(state: State, legal: Sequence[Event]) -> Sequence[Event]:
    """The legal events less the hymns it cannot check (all of them, if that leaves none);
    a lazy sequence stays lazy (only songs are looked at)."""
    return keep(legal, lambda e: checkable(state, e), (HymnSung,)) or legal


def random_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Any legal event it can play, uniformly: finds the corners of the rules, not good play."""
    if type(legal) is TurnEvents:  # the hymns it leaves out are in the last part alone: counted there, no view built
        rest = legal.rest
        start = len(legal) - len(rest)
        if not state.singularity:  # it sings no hymn (`checkable`): every song is left out
            kinds = list(map(type, rest))
            songs = kinds.count(HymnSung)
            if not songs:  # none to leave out: every event is playable
                return legal[rng.randrange(len(legal))]
            first = kinds.index(HymnSung)
            if (start or songs < len(rest)) and kinds[first:first + songs].count(HymnSung) == songs:
                # the songs side by side (as `legal` lists them): the kept indices skip that run
                index = rng.randrange(len(legal) - songs)
                return legal[index if index < start + first else index + songs]
        kept = [start + offset for offset, event in enumerate(rest) if not isinstance(event, HymnSung) or checkable(state, event)]
        if start or kept:  # else every event is a hymn it leaves out, and it picks among them all, as below
            index = rng.randrange(start + len(kept))
            return legal[index if index < start else kept[index - start]]
    options = _playable(state, legal)
    return options[rng.randrange(len(options))]


def heuristic_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Capture when threatening, buy strong Mercenaries, summon and move toward the enemy
    onto spaces no enemy threatens, occupy an empty enemy House, draw when the hand runs
    low, and never walk back into a position already seen (that way lies a stalemate).

    The best (score, tie-break) is found without scoring every candidate in full: each gets
    a bound its score cannot exceed (`_bound`: what is cheap to know of it), and candidates
    are scored best bound first until no bound left reaches the best score. The tie-breaks
    are drawn first, one per candidate in order, as a `max` over every score drew them, so
    a seed still plays the same game. A turn's `TurnEvents` are weighed from what they are made
    of (`_turn_choice`), making only the event played."""
    if isinstance(legal, TurnEvents):
        return _turn_choice(params, state, legal, rng)
    events = list(legal)  # every one is bounded: made once, read by index
    # the indices in `legal` of `_playable`'s events, found in the listed events at once
    kept = [j for j, event in enumerate(events) if type(event) is not HymnSung or checkable(state, event)] or range(len(events))
    ties = [rng.random() for _ in range(len(kept))]
    if len(kept) == 1:
        return legal[kept[0]]
    options = [events[j] for j in kept]
    look = Look(params, state)
    best: tuple[float, float, int] = (-math.inf, 0.0, 0)
    for bound, i, exact in sorted(_bounds(params, state, look, options)):
        if -bound < best[0]:
            break  # this bound and every one after it are below the best score: none can win
        if (-bound, ties[i], -i) < best:
            continue  # even at its bound it loses to the best on the tie-break
        event = options[i]
        if exact:
            score = -bound
        elif type(event) is CardMoved:
            score = _move_score(params, state, look, event.card, event.to, event.by or "", best, ties[i], -i)
        else:
            score = _score(params, state, look, event)
        found = (score, ties[i], -i)  # the first of equals, as `max` keeps it
        if found > best:
            best = found
    return legal[kept[-best[2]]]  # the same event, read from `legal`'s sequence: asked at once whether it was offered


def _turn_choice(params: Params, state: State, turn: TurnEvents, rng: random.Random) -> Event:
    """`heuristic_bot`'s choice among a turn's actions, weighed from what `legal` made them of
    (`moves.TurnEvents`): the summons by hand card and space, the steps by card, space and the
    enemy there, the rest as events. The same tie-breaks are drawn (one per event it can play,
    in order), the same bounds and scores worked out, so the same event is chosen; only that
    event is made. A step's card is its piece on the board (`apply` keeps each card on it
    once, so it is the piece the scores find by card)."""
    summons, found, rest = turn.summons, turn.steps.found, turn.rest
    first_rest = len(summons) + len(found)
    kept = [j for j, event in enumerate(rest) if type(event) is not HymnSung or checkable(state, event)]
    if not kept and not first_rest:
        kept = list(range(len(rest)))  # `_playable`: every event when it would leave none
    count = first_rest + len(kept)
    draw = rng.random
    ties = [draw() for _ in range(count)]
    if count == 1:
        return turn[0 if first_rest else kept[0]]
    best: tuple[float, float, int] = (-math.inf, 0.0, 0)
    for k, j in enumerate(kept):  # exact scores first: they set the mark every bound must reach
        i = first_rest + k
        scored = (_exact_score(state, rest[j]), ties[i], -i)
        if scored > best:
            best = scored
    look = Look(params, state)
    seat = turn.steps.seat
    pending: list[tuple[float, int, str, tuple[int, int]]] = []  # (-bound, index, card, space) of moves and summons
    if found:
        houses, near, rows = look.enemy_houses(seat), look.near_enemy(seat), look.rows(seat)
        size, exposures = params.board_size, look.exposures
        card, card_bound, i = "", 0.0, len(summons)
        for piece, to, occupant, kind in found:
            if occupant is not None:  # a capture or an annihilation: its score is known from the two cards
                score = 30.0 + _value(occupant.card) - _value(piece.card) if kind == "annihilation" else 100.0 + _value(occupant.card)
                scored = (score, ties[i], -i)
                if scored > best:
                    best = scored
            else:
                if piece.card != card:  # a card's steps come together: its bound once per run (`Look.move_bound`, inline)
                    card, (x, y) = piece.card, piece.space
                    threatened = exposures[card] = piece.space in near and _threatened(params, state, look, piece)
                    distance = min([row[x * size + y] for row in rows]) if rows and 0 <= x < size and 0 <= y < size else look.distance(seat, piece.space)
                    card_bound = 18.0 + 25.0 * threatened - max(distance - 1, 0) + _SLACK
                bound = card_bound + 12.0 if to in houses else card_bound
                pending.append((-(bound + 20.0 if to in near else bound), i, card, to))
            i += 1
    if summons:
        base = 40.0 if look.in_play(seat) < 2 else 24.0
        near = look.near_enemy(seat)
        spaces: dict[tuple[int, int], tuple[float, float]] = {}
        i = 0
        for card, open_ in zip(summons.hand, summons.spaces, strict=True):
            value = 0.3 * _value(card)
            for space in open_:
                at_space = spaces.get(space)
                if at_space is None:  # a hand's cards share their spaces: each space's part once
                    at_space = spaces[space] = (base + (15.0 if space in near else 0.0), 0.5 * look.distance(seat, space))
                pending.append((-(at_space[0] + value - at_space[1] + _SLACK), i, card, space))
                i += 1
    first_step = len(summons)
    for bound, i, card, space in sorted(pending):
        if -bound < best[0]:
            break  # this bound and every one after it are below the best score: none can win
        if (-bound, ties[i], -i) < best:
            continue  # even at its bound it loses to the best on the tie-break
        if i >= first_step:
            score = _move_score(params, state, look, card, space, seat, best, ties[i], -i)
        else:
            score = _summon_score(params, state, look, card, space, seat)
        scored = (score, ties[i], -i)
        if scored > best:
            best = scored
    i = -best[2]
    return turn[i if i < first_rest else first_rest + kept[i - first_rest]]


class Look:
    """What every candidate's score asks of one position, worked out once per decision: the
    board by space and by card, each seat's goals, enemy Houses and distances, and the
    positions seen with each seat to move."""

    def __init__(self, params: Params, state: State) -> None:
        self.params, self.state, self.size = params, state, params.board_size
        self.where = board_by_space(state)
        self.by_card = {p.card: p for p in state.board}
        self._goals: dict[str, tuple[tuple[int, int], ...]] = {}
        self._rows: dict[str, list[tuple[int, ...]]] = {}
        self._in_play: dict[str, int] = {}
        self._move_bounds: dict[str, float] = {}
        self._near_enemy: dict[str, set[tuple[int, int]]] = {}
        self._houses: dict[str, tuple[tuple[int, int], ...]] = {}
        self._next: dict[str, str] = {}
        self._seen: dict[str, list[tuple[Placed, ...]]] = {}
        self._index: dict[str, int] | None = None
        self.exposures: dict[str, bool] = {}
        """Whether a card in play is threatened where it stands, by card (asked once for
        each of its moves)."""

    def threatened(self, piece: Placed) -> bool:
        """Whether a card in play is threatened where it stands (once for all of its moves)."""
        known = self.exposures.get(piece.card)
        if known is None:
            known = piece.space in self.near_enemy(piece.owner) and _threatened(self.params, self.state, self, piece)
            self.exposures[piece.card] = known
        return known

    def move_bound(self, card_id: str, seat: str) -> float:
        """What every move of the card scores at most, a House and a threat to an enemy aside
        (`_bound`): once per card. One step changes a distance by one at most."""
        bound = self._move_bounds.get(card_id)
        if bound is None:
            piece = self.by_card.get(card_id)
            if piece is None:
                bound = 0.0
            else:
                bound = 18.0 + 25.0 * self.threatened(piece) - max(self.distance(seat, piece.space) - 1, 0) + _SLACK
            self._move_bounds[card_id] = bound
        return bound

    def near_enemy(self, seat: str) -> set[tuple[int, int]]:
        """The spaces beside a card of another seat: only there can a card of `seat` threaten
        or be threatened (`_exposure`)."""
        near = self._near_enemy.get(seat)
        return near if near is not None else self._enemies(seat)[0]

    def in_play(self, seat: str) -> int:
        """How many cards the seat has in play."""
        count = self._in_play.get(seat)
        if count is None:
            count = self._in_play[seat] = len(in_play(self.state, seat))
        return count

    def goals(self, seat: str) -> tuple[tuple[int, int], ...]:
        """Enemy cards, and enemy Houses (occupying an empty enemy's House puts it in Limbo)."""
        goals = self._goals.get(seat)
        return goals if goals is not None else self._enemies(seat)[1]

    def rows(self, seat: str) -> list[tuple[int, ...]]:
        """Each of the seat's goals' steps to every space (`_steps_from`): once per seat."""
        rows = self._rows.get(seat)
        return rows if rows is not None else self._enemies(seat)[2]

    def _enemies(self, seat: str) -> tuple[set[tuple[int, int]], tuple[tuple[int, int], ...], list[tuple[int, ...]]]:
        """The spaces beside the seat's enemies, its goals and their rows, in one pass over the
        board (each enemy card's neighbours, space and row read from tables per board size)."""
        size = self.params.board_size
        around, steps = board.adjacent(size), _rows_by_goal(size)
        near: set[tuple[int, int]] = set()
        goals: list[tuple[int, int]] = []
        rows: list[tuple[int, ...]] = []
        owners = set()
        for p in self.state.board:
            owner, space = p.owner, p.space
            if owner != seat:
                goals.append(space)
                beside, row = around.get(space), steps.get(space)
                near.update(beside if beside is not None else (near_ for _, near_ in board.neighbours(space, size)))
                rows.append(row if row is not None else _steps_from(space, size))
            owners.add(owner)
        for other in self.state.seats:  # an enemy with no card in play: its House is a goal
            if other != seat and other not in owners:
                goals.append(home := house(self.params, other))
                rows.append(_steps_from(home, size))
        self._near_enemy[seat], self._goals[seat], self._rows[seat] = near, tuple(goals), rows
        return near, self._goals[seat], rows

    def distance(self, seat: str, space: tuple[int, int]) -> int:
        """Steps from `space` to the seat's nearest goal (0 with none): the least of each
        goal's distance to it, read from the goal's table (`_steps_from`)."""
        rows = self._rows.get(seat)
        if rows is None:
            rows = self.rows(seat)
        if not rows:
            return 0
        x, y = space
        size = self.size
        if 0 <= x < size and 0 <= y < size:
            at = x * size + y
            return min([row[at] for row in rows])
        return min([abs(x - gx) + abs(y - gy) for gx, gy in self.goals(seat)])  # off the board: as the text counts

    def enemy_houses(self, seat: str) -> tuple[tuple[int, int], ...]:
        """The Houses of every other seat: they depend on the params and seats alone, so they
        are remembered per params (`_enemy_houses`), not worked out per decision."""
        found = self._houses.get(seat)
        if found is None:
            found = self._houses[seat] = self._enemy_houses(seat)
        return found

    def _enemy_houses(self, seat: str) -> tuple[tuple[int, int], ...]:
        houses = _enemy_houses(self.params)
        key = (self.state.seats, seat)
        found = houses.get(key)
        if found is None:
            found = houses[key] = tuple(house(self.params, s) for s in self.state.seats if s != seat)
        return found

    def repeats(self, card_id: str, to: tuple[int, int], seat: str) -> bool:
        """Whether `card_id` stepping to `to` gives a position already in the history, for
        the next seat (`position_key`); only positions with that seat to move can match, and
        only those whose board holds the moved card where it lands, at the card's own index
        (a board equal to the one after the move holds it there), so the board after the move
        is seldom built."""
        following = self.next_seat(seat)
        seen = self._seen.get(following)
        if seen is None:
            seen = self._seen[following] = [pieces for whose, pieces in self.state.history if whose == following]
        if not seen:
            return False
        moved = Placed(card_id, to, seat)
        pieces = self.state.board
        at = self.index_of(card_id)
        if at >= 0:
            size = len(pieces)
            if moved not in [old[at] for old in seen if len(old) == size]:
                return False  # the card stood there in no position seen: this one is new
            return (*pieces[:at], moved, *pieces[at + 1:]) in seen
        if not any(moved in old for old in seen):
            return False
        return tuple(moved if p.card == card_id else p for p in pieces) in seen  # a card not on the board once: every piece of it

    def index_of(self, card_id: str) -> int:
        """The card's index on the board (-1 off it, -2 held more than once). With every card
        on it once (as many cards as pieces), the card's own piece is looked for in the board
        tuple (by identity first, in C), with no index of every card made."""
        piece = self.by_card.get(card_id)
        if piece is None:
            return -1
        if len(self.by_card) == len(self.state.board):
            return self.state.board.index(piece)
        return self.board_index().get(card_id, -1)

    def board_index(self) -> dict[str, int]:
        """Each card's index on the board (-2 for a card held more than once): made once."""
        if self._index is None:
            self._index = {}
            for i, p in enumerate(self.state.board):
                self._index[p.card] = -2 if p.card in self._index else i
        return self._index

    def next_seat(self, seat: str) -> str:
        """The seat after `seat`, clockwise."""
        if seat not in self._next:
            self._next[seat] = next_seat(self.state, seat)
        return self._next[seat]


@last_one  # rulesets/memo.py: one params object for a whole game; hashing it costs more than the answer
def _enemy_houses(params: Params) -> dict[tuple[tuple[str, ...], str], tuple[tuple[int, int], ...]]:
    """Every other seat's House by (seats, seat) under one params (a cache of a pure answer)."""
    return {}


@functools.cache  # pure, one table per board size
def _rows_by_goal(size: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """Each space's `_steps_from` row on a size x size board, by space (no call per goal)."""
    return {(x, y): _steps_from((x, y), size) for x in range(size) for y in range(size)}


@functools.lru_cache(maxsize=1 << 12)
def _steps_from(goal: tuple[int, int], size: int) -> tuple[int, ...]:
    """Orthogonal steps from a goal to every space of the board, by x * size + y (pure, per goal)."""
    gx, gy = goal
    return tuple(abs(x - gx) + abs(y - gy) for x in range(size) for y in range(size))


def _value(card_id: str) -> int:
    found = cards.card(card_id)
    return found.value if found else 0


def _score(params: Params, state: State, look: Look, event: Event) -> float:
    if type(event) is CardMoved:  # the commonest candidates first
        return _move_score(params, state, look, event.card, event.to, event.by or "")
    if type(event) is CardSummoned:
        return _summon_score(params, state, look, event.card, event.space, event.by or "")
    return _exact_score(state, event)


def _exact_score(state: State, event: Event) -> float:
    """The score of an event that is neither a move nor a summon: known from the event (and
    the mover's hand) alone, so its bound is the score itself. Each kind is its own type, so
    the kinds a decision offers most (offerings, draws) are asked first."""
    if type(event) is HymnLearned:
        return 2.0 - len(event.offering)
    if type(event) is DrawDeclared:
        p = player(state, event.by)
        held = len(p.hand) if p else 0
        discard = event.discard
        return (22.0 if held < 3 else 6.0) - (0.1 * _value(discard) if discard else 0)
    if type(event) is HymnSung:
        return 50.0 if state.singularity and event.hymn == cards.FIREYES else 3.0
    if type(event) is CardCaptured:
        return 100.0 + _value(event.target)
    if type(event) is MercenaryBought:
        return 70.0 + _value(event.card)
    if type(event) is CardsAnnihilated:
        return 30.0 + _value(event.target) - _value(event.card)
    if type(event) is ExtrasReturned:
        return -sum(_value(c) for c in event.cards)
    return 0.0


_SLACK = 1e-9
"""Added to every bound: a bound sums the same terms as its score in another order, so the
two may differ in the last bit of a float."""


def _bounds(params: Params, state: State, look: Look, options: Sequence[Event]) -> list[tuple[float, int, bool]]:
    """(-bound, index, exact) of every option: a score no lower than `_score`'s for the event,
    from what is cheap to know, and whether it is the score itself. A move or a summon as if
    it threatened an enemy (a move: if it ends beside one), stood unthreatened and repeated
    nothing (its House and standing threat are known, and a move's distance is its card's,
    less the step); any other kind its score itself. Moves, most of the options, are bounded
    inline with their seat's enemy Houses and the spaces beside its enemies read once."""
    out: list[tuple[float, int, bool]] = []
    moving: str | None = None
    houses: tuple[tuple[int, int], ...] = ()
    near: set[tuple[int, int]] = set()
    bounds: dict[str, float] = {}
    summoning: str | None = None
    summon_base = 0.0
    spaces: dict[tuple[int, int], tuple[float, float]] = {}
    card: str | None = None
    by: str | None = None
    card_bound = 0.0
    for i, event in enumerate(options):
        if type(event) is CardMoved:
            if event.card != card or event.by != by:  # a card's steps come together: its bound once per run
                card, by = event.card, event.by
                seat = by or ""
                if seat != moving:
                    moving, houses, near, bounds = seat, look.enemy_houses(seat), look.near_enemy(seat), {}
                found = bounds.get(card)
                card_bound = bounds[card] = look.move_bound(card, seat) if found is None else found
            to = event.to
            bound = card_bound + 12.0 if to in houses else card_bound
            out.append((-(bound + 20.0 if to in near else bound), i, False))
        elif type(event) is CardSummoned:
            seat = event.by or ""
            if seat != summoning:
                summoning, spaces = seat, {}
                summon_base = 40.0 if look.in_play(seat) < 2 else 24.0
            at_space = spaces.get(event.space)
            if at_space is None:  # a hand's cards share their spaces: each space's part once
                at_space = spaces[event.space] = (
                    summon_base + (15.0 if event.space in look.near_enemy(seat) else 0.0), 0.5 * look.distance(seat, event.space))
            out.append((-(at_space[0] + 0.3 * _value(event.card) - at_space[1] + _SLACK), i, False))
        else:
            out.append((-_exact_score(state, event), i, True))
    return out


def _exposure(params: Params, state: State, look: Look, piece: Placed, leaving: str | None = None) -> tuple[bool, bool]:
    """(threatened by an enemy, threatening an enemy) for a card standing on `piece.space`."""
    threatened = threatening = False
    where = look.where
    around = board.adjacent(params.board_size).get(piece.space)
    for near in around if around is not None else (near for _, near in board.neighbours(piece.space, params.board_size)):
        other = where.get(near)
        if other is None or other.owner == piece.owner or other.card == leaving:
            continue
        if clash(params, state, other, piece).kind == "capture":
            threatened = True
        if clash(params, state, piece, other).kind == "capture":
            threatening = True
    return threatened, threatening


def _threatened(params: Params, state: State, look: Look, piece: Placed) -> bool:
    """Whether an enemy beside the card standing on `piece.space` captures it: `_exposure`'s
    first answer alone, one clash per enemy and none once one captures."""
    where = look.where
    around = board.adjacent(params.board_size).get(piece.space)
    for near in around if around is not None else (near for _, near in board.neighbours(piece.space, params.board_size)):
        other = where.get(near)
        if other is not None and other.owner != piece.owner and clash(params, state, other, piece).kind == "capture":
            return True
    return False


def _summon_score(params: Params, state: State, look: Look, card: str, space: tuple[int, int], seat: str) -> float:
    """The score of `seat` summoning `card` onto `space`."""
    if space in look.near_enemy(seat):
        threatened, threatening = _exposure(params, state, look, Placed(card, space, seat))
    else:
        threatened = threatening = False  # no enemy beside it
    score = 40.0 if look.in_play(seat) < 2 else 24.0
    score += 15.0 * threatening - 35.0 * threatened + 0.3 * _value(card)
    return score - 0.5 * look.distance(seat, space)


def _move_score(params: Params, state: State, look: Look, card: str, to: tuple[int, int], seat: str,
                best: tuple[float, float, int] | None = None, tie: float = 0.0, order: int = 0) -> float:
    """The score of `seat` moving `card` to `to`; with the best (score, tie-break, -index) so
    far and the move's own, the enemies where it lands are not weighed once the move loses
    even threatening one unthreatened, and a position already seen is not looked for once it
    loses without its penalty: what is returned then is above its score and below the best
    (every term is a whole number, so the sum is the same in any order)."""
    piece = look.by_card.get(card)
    if piece is None:
        return 0.0
    near = to in look.near_enemy(seat)
    score = 18.0 + 25.0 * look.threatened(piece)
    if to in look.enemy_houses(seat):
        score += 12.0
    distance = look.distance(seat, to)
    if best is not None and (score + 20.0 * near - 1.0 * distance, tie, order) < best:
        return score + 20.0 * near - 1.0 * distance  # loses at its best: the enemies where it lands change nothing
    if near:
        threatened, threatening = _exposure(params, state, look, Placed(card, to, seat), leaving=card)
        score += 20.0 * threatening - 35.0 * threatened
    if best is not None and (score - 1.0 * distance, tie, order) < best:
        return score - 1.0 * distance  # loses as it is: whether it repeats changes nothing
    if look.repeats(card, to, seat):
        score -= 40.0
    return score - 1.0 * distance


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
