"""Bots that play Mercenarium for simulated playtests.

A bot is a policy: given the params, the state and the legal events, it returns one of
them. Bots may use randomness (they are players, not rules), always from the seeded
generator they are handed, so a simulation replays byte for byte from its seed. A bot
sees the whole state; it only ever reads its own hand and the open board.
"""

from __future__ import annotations

import functools
import heapq
import math
import random
from collections.abc import Sequence
from functools import reduce
from operator import or_
from typing import Any

from events.base import Event
from rulesets.legal import keep
from rulesets.memo import last_args_each, last_one
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
    EDGE_CLASHES,
    EDGE_CODES,
    Faces,
    Placed,
    Player,
    State,
    board_by_space,
    edge_clash,
    face,
    faces_of,
    house,
    in_play,
    next_seat,
    player,
)

# The heuristic's weights, each written once: the scores, the bounds and the ceiling that
# prune its search, and its reference policy (`bots_reference`) all read them here, so a
# weight changed here changes every one of them alike. Each is a magnitude, none negative:
# its sign is where a score reads it (a bound counts a penalty as nothing and a bonus as won).

STEP = 18.0
"""A step of a card in play, before what it does."""
LEAVES_THREAT = 25.0
"""A step of a card that an enemy beside it captures where it stands: it gets away."""
ONTO_HOUSE = 12.0
"""A step onto an enemy's House."""
STEP_THREATENS = 20.0
"""A step that ends beside an enemy the card captures."""
EXPOSED = 35.0
"""Lost by a step or a summon that puts the card beside an enemy that captures it."""
REPEATS = 40.0
"""Lost by a step that brings back a position already seen (that way lies a stalemate)."""
STEP_PER_DISTANCE = 1.0
"""Lost by a step per orthogonal step from where it ends to the nearest goal."""
SUMMON_EARLY = 40.0
"""A summon while the seat has fewer than `EARLY_CARDS` cards in play."""
EARLY_CARDS = 2
"""Cards in play below which a summon scores `SUMMON_EARLY`, else `SUMMON`."""
SUMMON = 24.0
"""A summon once the seat has `EARLY_CARDS` cards in play or more."""
SUMMON_THREATENS = 15.0
"""A summon onto a space beside an enemy the card captures."""
SUMMON_PER_VALUE = 0.3
"""A summon per point of the card's face value."""
SUMMON_PER_DISTANCE = 0.5
"""Lost by a summon per orthogonal step from its space to the nearest goal."""
CAPTURE = 100.0
"""A capture, plus the captured card's face value."""
BUY = 70.0
"""A Mercenary bought, plus its face value."""
ANNIHILATION = 30.0
"""An annihilation, plus the enemy card's face value, less the card's own."""
FIREYES_SONG = 50.0
"""Fireyes sung in Singularity."""
SONG = 3.0
"""Any other song the bot may sing (`checkable`)."""
OFFERING = 2.0
"""A hymn learned, less one per card offered for it."""
DRAW_SHORT = 22.0
"""A draw with fewer than `SHORT_HAND` cards in hand."""
SHORT_HAND = 3
"""Cards in hand below which a draw scores `DRAW_SHORT`, else `DRAW`."""
DRAW = 6.0
"""A draw with `SHORT_HAND` cards in hand or more."""
DISCARD_PER_VALUE = 0.1
"""Lost by a draw per point of face value of the card it discards."""


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
            if legal.songs is not None:  # where the songs are, side by side, as `legal` laid them out
                first, songs = legal.songs
                if not songs:  # none to leave out: every event is playable
                    return legal[below(rng, len(legal))]
                if start or songs < len(rest):  # the kept indices skip that run
                    index = below(rng, len(legal) - songs)
                    return legal[index if index < start + first else index + songs]
            kinds = list(map(type, rest))
            songs = kinds.count(HymnSung)
            if not songs:  # none to leave out: every event is playable
                return legal[below(rng, len(legal))]
            first = kinds.index(HymnSung)
            if (start or songs < len(rest)) and kinds[first:first + songs].count(HymnSung) == songs:
                # the songs side by side (as `legal` lists them): the kept indices skip that run
                index = below(rng, len(legal) - songs)
                return legal[index if index < start + first else index + songs]
        kept = [start + offset for offset, event in enumerate(rest) if not isinstance(event, HymnSung) or checkable(state, event)]
        if start or kept:  # else every event is a hymn it leaves out, and it picks among them all, as below
            index = below(rng, start + len(kept))
            return legal[index if index < start else kept[index - start]]
    options = _playable(state, legal)
    return options[rng.randrange(len(options))]


def below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` for n > 0: the same draw, leaving the generator as it leaves it, without
    `randrange`'s checks of its arguments (about a third of a random decision's bot). It is what
    CPython's `randrange(n)` answers, `_randbelow_with_getrandbits(n)`: the fewest bits that hold
    n, drawn again until they fall below n."""
    bits = n.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= n:
        drawn = rng.getrandbits(bits)
    return drawn


def heuristic_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Capture when threatening, buy strong Mercenaries, summon and move toward the enemy
    onto spaces no enemy threatens, occupy an empty enemy House, draw when the hand runs
    low, and never walk back into a position already seen (that way lies a stalemate).

    The best (score, tie-break) is found without scoring every candidate in full: each gets
    a bound its score cannot exceed (`_bounds`: what is cheap to know of it), and candidates
    are scored best bound first until no bound left reaches the best score. The tie-breaks
    are drawn first, one per candidate in order, as a `max` over every score drew them, so
    a seed still plays the same game. A turn's `TurnEvents` are weighed from what they are made
    of (`_turn_choice`), making only the event played."""
    if type(legal) is TurnEvents:
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
    enemy there, the rest as events; only the event played is made. A step's card is its piece
    on the board (`apply` keeps each card on it once, so it is the piece the scores find by card).

    The same event as a max over every playable event's (score, tie-break, first), with the same
    draws (`draw_ties`), found with little weighed. The rest and the captures are scored exactly
    (their scores are known from the events); one above `_ceiling()` ends the choice before the
    enemies are read. The moves and summons are weighed best bound first from a heap, an entry
    refined only when it is the best left: a card's moves as one entry, bounded before its
    distance is measured (`LEAVES_THREAT` if an enemy beside it captures it, `ONTO_HOUSE` one
    step from an enemy House, `STEP_THREATENS` if a step of it can end beside an enemy), then each move bounded by the card's
    distance less one, its own House and whether it ends beside an enemy, then scored; a hand
    card's summons as one entry (`SUMMON_THREATENS` if one of its spaces is beside an enemy, no
    distance),
    then each space. A bound below the best score ends the search: every bound is at least the
    score of every event under it, so what the search never reaches could not have won."""
    summons, steps, rest = turn.summons, turn.steps, turn.rest
    found = steps.found
    first_step = summons._count  # `len(summons)` without the call of `Lazy.__len__`
    first_rest = first_step + len(found)
    seat = steps.seat
    kept, best, tops = _rest_choice(seat, rest, player(state, seat), state.singularity)
    if not kept and not first_rest:
        kept = list(range(len(rest)))  # `_playable`: every event when it would leave none
        scores = [_exact_score(state, event) for event in rest]
        best = max(scores)
        tops = [k for k, score in enumerate(scores) if score == best]
    count = first_rest + len(kept)
    ties = draw_ties(rng, count)
    if count == 1:
        return turn[0 if first_rest else kept[0]]
    at = -1  # the best score's candidate (the first of the best exact scores on the tie-breaks)
    for k in tops:
        i = first_rest + k
        if at < 0 or comes_first(ties, i, at):
            at = i
    if steps.attacks:  # captures and annihilations (`legal` counts them): their scores are known from the two cards
        for j, (piece, _, occupant, kind) in enumerate(found):
            if occupant is not None:
                i = first_step + j
                score = ANNIHILATION + _value(occupant.card) - _value(piece.card) if kind == "annihilation" else CAPTURE + _value(occupant.card)
                if score > best or (score == best and comes_first(ties, i, at)):
                    best, at = score, i
    if best > _ceiling():  # no move or summon can reach it (a capture, a buy): nothing more to weigh
        return turn[at if at < first_rest else first_rest + kept[at - first_rest]]
    size, faces, bit_of, beside_of, rings_of, houses, adjacent = _game_tables(params)  # `near`, `mask`, `house_bits` and `ring_bits` are masks of these bits
    near, goals, mask, enemies = _enemies_on(bit_of, beside_of, params, state, seat)
    _, ring, house_bits, ring_bits = houses.get((state.seats, seat)) or _houses_around(params, state.seats, seat)
    where = board_by_space(state)
    heap: list[tuple[Any, ...]] = []  # (-bound, index, kind, ...): 0 a card's moves, 1 a move, 2 a hand card's summons, 3 a summon
    piece_at: Placed | None = None
    for j, (piece, _, occupant, _) in enumerate(found):  # a card's moves, one entry for them all, bounded as if its distance were nothing
        if occupant is not None or piece is piece_at:
            continue  # an attack, or a card already entered: its moves come together, the entry at its first
        piece_at = piece
        space = piece.space
        bit = bit_of.get(space, 0)
        threatened = bit & near != 0 and _threatened(params, faces, where, piece, adjacent)  # only beside an enemy can it be
        unmeasured = STEP + LEAVES_THREAT * threatened + _SLACK
        if bit & ring_bits if bit else space in ring:  # off the board (a table's mistake), a step may still reach a House
            unmeasured += ONTO_HOUSE
        steps_to = beside_of.get(space)
        if steps_to is None or steps_to & near:  # a step of it may end beside an enemy
            unmeasured += STEP_THREATENS
        if unmeasured >= best:  # else none of its moves can reach the best so far (the rest's, a capture's)
            heap.append((-unmeasured, first_step + j, 0, j, piece, threatened))
    if first_step:  # some summon
        base = SUMMON_EARLY if len(state.board) - enemies < EARLY_CARDS else SUMMON
        open_spaces: dict[tuple[int, int], tuple[float, float, int]] = {}  # a hand's cards share their spaces: each space's part once
        some = close = 0  # the hand cards (one bit each) with a legal space, and with one beside an enemy
        for space, bits in summons.accepted.items():  # each space's accepted cards: no list of spaces per card laid out yet
            some |= bits
            if bit_of[space] & near:
                close |= bits
        for k, card in enumerate(summons.hand):
            if some >> k & 1:  # its spaces are laid out only if its entry is popped
                value = SUMMON_PER_VALUE * _value(card)
                bound = base + (SUMMON_THREATENS if close >> k & 1 else 0.0) + value + _SLACK
                if bound >= best:  # else none of its summons can reach the best so far
                    heap.append((-bound, k, 2, card, k, value))
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    history, following = state.history, None
    while heap:
        entry = pop(heap)
        bound, i, kind = -entry[0], entry[1], entry[2]
        if bound < best:
            break  # this bound and every one after it are below the best score: none can win
        if kind < 2:  # a card's moves (bounded by its space's distance) or one move (scored by where it lands)
            space = entry[4].space if kind == 0 else entry[4]
            rings = rings_of.get(space)
            if rings is not None and mask > 0:  # `_distance` read inline: a call at each pop cost about 0.1 us
                distance = 0
                while not rings[distance] & mask:  # a goal is on the board: some ring holds it
                    distance += 1
            else:
                distance = _distance(mask, goals, size, space)
        if kind == 0:  # a card's moves, each bounded once the card's distance is known: its House, whether it ends beside an enemy
            _, _, _, start, piece, threatened = entry
            base_score = STEP + LEAVES_THREAT * threatened
            card_bound = base_score - STEP_PER_DISTANCE * (distance - 1 if distance > 1 else 0) + _SLACK
            for j in range(start, len(found)):
                stepper, to, occupant, _ = found[j]
                if stepper is not piece:
                    break
                if occupant is None:  # a step onto the board
                    bit = bit_of[to]
                    onto_house = bit & house_bits
                    move_bound = card_bound + ONTO_HOUSE if onto_house else card_bound
                    beside = bit & near != 0
                    if beside:
                        move_bound += STEP_THREATENS
                    if move_bound >= best:  # what it scores before its distance and enemies, and whether it ends beside one
                        push(heap, (-move_bound, first_step + j, 1, piece, to, base_score + ONTO_HOUSE if onto_house else base_score, beside))
            continue
        if kind == 2:  # a hand card's summons, each bounded: whether it stands beside an enemy, its distance
            _, _, _, card, k, value = entry  # (the entry is ordered by its card's place in the hand, its summons by their own index)
            per_card = summons.spaces
            i = 0
            for m in range(k):
                i += len(per_card[m])
            for space in per_card[k]:
                at_space = open_spaces.get(space)
                if at_space is None:
                    distance = _distance(mask, goals, size, space)
                    at_space = open_spaces[space] = (base + (SUMMON_THREATENS if bit_of[space] & near else 0.0), SUMMON_PER_DISTANCE * distance, distance)
                summon_bound = at_space[0] + value - at_space[1] + _SLACK
                if summon_bound >= best:
                    push(heap, (-summon_bound, i, 3, card, space, at_space[2]))
                i += 1
            continue
        if bound == best and not comes_first(ties, i, at):
            continue  # even at its bound it loses to the best on the tie-break
        if kind == 3:
            score = _summon_score(params, state, faces, where, bit_of[entry[4]] & near != 0, base, entry[3], entry[4], seat, entry[5])
        else:  # a move: the enemies where it lands weighed only if it can still win, a position seen looked for likewise
            _, _, _, piece, to, score, beside = entry  # its distance read above
            at_best = score + STEP_THREATENS * beside - STEP_PER_DISTANCE * distance
            first = None  # whether it comes before the best at an equal score: asked once per move (the best stays the same)
            if at_best < best or (at_best == best and not (first := comes_first(ties, i, at))):
                continue  # loses at its best: the enemies where it lands change nothing
            if beside:
                threatened, threatening = _exposure(params, faces, where, piece.card, seat, to, piece.card, adjacent)
                score += STEP_THREATENS * threatening - EXPOSED * threatened
            as_is = score - STEP_PER_DISTANCE * distance
            if as_is < best or (as_is == best and not (first if first is not None else (first := comes_first(ties, i, at)))):
                continue  # loses as it is: whether it repeats changes nothing
            if following is None:
                following = next_seat(state, seat)
            if history and _repeats(state, following, state.board.index(piece), Placed(piece.card, to, seat)):
                score -= REPEATS
            score -= STEP_PER_DISTANCE * distance
            if score > best or (score == best and (first if first is not None else comes_first(ties, i, at))):
                best, at = score, i
            continue
        if score > best or (score == best and comes_first(ties, i, at)):  # a summon
            best, at = score, i
    return turn[at if at < first_rest else first_rest + kept[at - first_rest]]


class Look:
    """What every candidate's score asks of one position, worked out once per decision: the
    board by space and by card, each seat's goals, enemy Houses and distances, and the
    positions seen with each seat to move."""

    def __init__(self, params: Params, state: State) -> None:
        self.params, self.state, self.size = params, state, params.board_size
        self.where = board_by_space(state)
        self.faces = faces_of(params)
        self.by_card = {p.card: p for p in state.board}
        self._goals: dict[str, tuple[tuple[int, int], ...]] = {}
        self._masks: dict[str, int] = {}
        self._in_play: dict[str, int] = {}
        self._move_bounds: dict[str, float] = {}
        self._near_enemy: dict[str, set[tuple[int, int]]] = {}
        self._next: dict[str, str] = {}
        self._index: dict[str, int] | None = None
        self.exposures: dict[str, bool] = {}
        # Whether a card in play is threatened where it stands, by card (asked once for
        # each of its moves).

    def threatened(self, piece: Placed) -> bool:
        """Whether a card in play is threatened where it stands (once for all of its moves)."""
        known = self.exposures.get(piece.card)
        if known is None:
            known = piece.space in self.near_enemy(piece.owner) and _threatened(self.params, self.faces, self.where, piece)
            self.exposures[piece.card] = known
        return known

    def move_bound(self, card_id: str, seat: str) -> float:
        """What every move of the card scores at most, a House and a threat to an enemy aside
        (`_bounds`): once per card. One step changes a distance by one at most."""
        bound = self._move_bounds.get(card_id)
        if bound is None:
            piece = self.by_card.get(card_id)
            if piece is None:
                bound = 0.0
            else:
                bound = STEP + LEAVES_THREAT * self.threatened(piece) - STEP_PER_DISTANCE * max(self.distance(seat, piece.space) - 1, 0) + _SLACK
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

    def goal_mask(self, seat: str) -> int:
        """The seat's goals as a mask of `_bit_of`'s bits (-1 with one off the board): once per seat."""
        mask = self._masks.get(seat)
        return mask if mask is not None else self._enemies(seat)[2]

    def _enemies(self, seat: str) -> tuple[set[tuple[int, int]], tuple[tuple[int, int], ...], int]:
        beside, goals, mask, _ = _enemies(self.params, self.state, seat)
        near = _spaces_in(beside, self.size)  # a set: this reading (a decision that is not a turn's) asks by space
        self._near_enemy[seat], self._goals[seat], self._masks[seat] = near, goals, mask
        return near, goals, mask

    def distance(self, seat: str, space: tuple[int, int]) -> int:
        """Steps from `space` to the seat's nearest goal (0 with none, `_distance`)."""
        mask = self._masks.get(seat)
        if mask is None:
            mask = self.goal_mask(seat)
        return _distance(mask, self.goals(seat), self.size, space)

    def enemy_houses(self, seat: str) -> tuple[tuple[int, int], ...]:
        """The Houses of every other seat (`_houses_around`)."""
        return _houses_around(self.params, self.state.seats, seat)[0]

    def repeats(self, card_id: str, to: tuple[int, int], seat: str) -> bool:
        """Whether `card_id` stepping to `to` gives a position already in the history, for
        the next seat (`position_key`, `_repeats`)."""
        following = self.next_seat(seat)
        if not self.state.history:
            return False
        moved = Placed(card_id, to, seat)
        at = self.index_of(card_id)
        if at >= 0:
            return _repeats(self.state, following, at, moved)
        after = tuple(moved if p.card == card_id else p for p in self.state.board)  # a card not on the board once: every piece of it
        return (following, after) in self.state.history

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


def _houses_around(params: Params, seats: tuple[str, ...], seat: str) -> tuple[tuple[tuple[int, int], ...], set[tuple[int, int]], int, int]:
    """The Houses of every other seat, and every space one orthogonal step from one (on the
    board or off it: where a card stands that may step onto one), then both as masks of
    `_bit_of`'s bits (the spaces on the board). They depend on the params and seats alone, so
    they are remembered per params (`_houses_by_seats`), not worked out per decision."""
    known = _houses_by_seats(params)
    key = (seats, seat)
    found = known.get(key)
    if found is None:
        houses = tuple(house(params, s) for s in seats if s != seat)
        ring = {(x + dx, y + dy) for x, y in houses for dx, dy in board.STEPS.values()}
        bit_of = _bit_of(params.board_size)
        found = known[key] = houses, ring, sum({bit_of.get(h, 0) for h in houses}), sum({bit_of.get(r, 0) for r in ring})
    return found


@last_one  # rulesets/memo.py: one params object for a whole game; hashing it costs more than the answer
def _houses_by_seats(params: Params) -> dict[tuple[tuple[str, ...], str], tuple[tuple[tuple[int, int], ...], set[tuple[int, int]], int, int]]:
    """`_houses_around`'s answers under one params, by (seats, seat) (a cache of a pure answer)."""
    return {}


def _enemies(params: Params, state: State, seat: str) -> tuple[int, tuple[tuple[int, int], ...], int, int]:
    """`_enemies_on` with the board size's tables looked up."""
    size = params.board_size
    return _enemies_on(_bit_of(size), _beside_of(size), params, state, seat)


def _enemies_on(bit_of: dict[tuple[int, int], int], beside_of: dict[tuple[int, int], int], params: Params, state: State,
                seat: str) -> tuple[int, tuple[tuple[int, int], ...], int, int]:
    """The spaces beside the seat's enemies as a mask (`_bit_of`: only there can a card of `seat`
    threaten or be threatened, `_exposure`), its goals (enemy cards, and the Houses of enemies
    with no card in play: occupying an empty enemy's House puts it in Limbo), the goals as a mask
    of the same bits (-1 when one is off the board: a table's mistake) for `_distance`, and how
    many enemy cards are in play; the board read once, each enemy card's bit and neighbours
    (`_beside_of`) read from tables per board size, both masks joined as the board is read (a set
    of the spaces cost twice as much, and each look-up in it about what a bit's does)."""
    pieces = state.board
    spaces: list[tuple[int, int]] = []
    near = mask = 0
    try:
        for p in pieces:  # the spaces and their neighbourhood in one pass (a list, then a reduce over it, cost a third more)
            if p.owner != seat:
                space = p.space
                spaces.append(space)
                near |= beside_of[space]
                mask |= bit_of[space]
    except KeyError:  # a card off the board (a table's mistake): its neighbours worked out, its distance counted from the goals
        spaces = [p.space for p in pieces if p.owner != seat]
        near = reduce(or_, [bit_of[beside] for space in spaces for _, beside in board.neighbours(space, params.board_size)], 0)
        mask = -1
    enemies = len(spaces)
    for other in state.seats:
        if other != seat:
            for p in pieces:  # its first card in play, looked for here (a call of its own cost about what the look does)
                if p.owner == other:
                    break
            else:  # no card of that enemy in play: its House is a goal
                spaces.append(home := house(params, other))
                bit = bit_of.get(home)
                mask = mask | bit if bit is not None and mask >= 0 else -1
    return near, tuple(spaces), mask, enemies


def _distance(mask: int, goals: tuple[tuple[int, int], ...], size: int, space: tuple[int, int]) -> int:
    """Steps from `space` to the nearest goal (0 with none): on the board, the first of the
    space's rings (`_rings_of`: the spaces 0, 1, 2... steps from it) that holds a goal of the
    goals' mask (`_enemies`), a few integer tests where the least of each goal's distance read
    from a row per goal was a look-up per goal; off the board, or a goal off it (`mask` -1),
    the least of each goal's steps, as the text counts. A plain loop, in this one call."""
    if not goals:
        return 0
    rings = _rings_of(size).get(space)
    if rings is None or mask < 0:
        x, y = space
        return min([abs(x - gx) + abs(y - gy) for gx, gy in goals])
    distance = 0
    while not rings[distance] & mask:  # a goal is on the board: some ring holds it
        distance += 1
    return distance


def _repeats(state: State, following: str, at: int, moved: Placed) -> bool:
    """Whether the board with the card at index `at` replaced by `moved`, `following` to move,
    is a position in the history (`position_key`): the one board built, and the history's
    positions compared with it in C, the seat first, then the pieces, most of them the very
    objects of the board before (a filter of the history in Python cost twice as much)."""
    pieces = state.board
    return (following, (*pieces[:at], moved, *pieces[at + 1:])) in state.history


@functools.cache  # pure, one table per board size
def _bit_of(size: int) -> dict[tuple[int, int], int]:
    """Each space of a size x size board as one bit (x * size + y): a set of spaces is an int."""
    return {(x, y): 1 << (x * size + y) for x in range(size) for y in range(size)}


@functools.cache  # pure, one table per board size
def _beside_of(size: int) -> dict[tuple[int, int], int]:
    """Each space's orthogonal neighbours on the board as a mask of `_bit_of`'s bits."""
    bit_of = _bit_of(size)
    return {space: reduce(or_, [bit_of[near] for near in nears], 0) for space, nears in board.adjacent(size).items()}


def _spaces_in(mask: int, size: int) -> set[tuple[int, int]]:
    """The spaces of a mask of `_bit_of`'s bits, as a set."""
    return {space for space, bit in _bit_of(size).items() if bit & mask}


@last_one  # rulesets/memo.py: one params object for a whole game
def _game_tables(params: Params) -> tuple[int, Faces, dict[tuple[int, int], int], dict[tuple[int, int], int],
                                          dict[tuple[int, int], tuple[int, ...]], dict[tuple[tuple[str, ...], str], tuple[Any, ...]],
                                          dict[tuple[int, int], tuple[tuple[int, tuple[int, int]], ...]]]:
    """What a turn's choice reads of the params, in one call per decision: the board size, the
    faces kept under them (`faces_of`), its size's `_bit_of`, `_beside_of` and `_rings_of`,
    `_houses_around`'s answers kept under them (`_houses_by_seats`; asked of `_houses_around` when
    a (seats, seat) is not there yet) and `board.adjacent_from` (for `_exposure`, `_threatened`).
    Each is the very object its own call answers."""
    size = params.board_size
    return size, faces_of(params), _bit_of(size), _beside_of(size), _rings_of(size), _houses_by_seats(params), board.adjacent_from(size)


@functools.cache  # pure, one table per board size
def _rings_of(size: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """Each space's rings on a size x size board: the spaces 0, 1, 2... orthogonal steps from it,
    each a mask of `_bit_of`'s bits, to the farthest (a goal's distance is the first ring holding it)."""
    bit_of = _bit_of(size)
    out: dict[tuple[int, int], tuple[int, ...]] = {}
    for x, y in bit_of:
        rings = [0] * (2 * size - 1)
        for (gx, gy), bit in bit_of.items():
            rings[abs(x - gx) + abs(y - gy)] |= bit
        out[x, y] = tuple(ring for ring in rings if ring)  # every distance from 0 to the farthest holds a space
    return out


def _value(card_id: str) -> int:
    """The card's face value (0 for a hymn or an unknown id): `cards.card`'s table read directly,
    as every capture, summon and discard weighed asks it."""
    found = cards.CARDS.get(card_id)
    return found.value if found else 0


def _score(params: Params, state: State, look: Look, event: Event) -> float:
    if type(event) is CardMoved:  # the commonest candidates first
        return _move_score(params, state, look, event.card, event.to, event.by or "")
    if type(event) is CardSummoned:
        seat = event.by or ""
        return _summon_score(params, state, look.faces, look.where, event.space in look.near_enemy(seat), SUMMON_EARLY if look.in_play(seat) < EARLY_CARDS else SUMMON,
                             event.card, event.space, seat, look.distance(seat, event.space))
    return _exact_score(state, event)


def _exact_score(state: State, event: Event) -> float:
    """The score of an event that is neither a move nor a summon: known from the event (and
    the mover's hand) alone, so its bound is the score itself."""
    if type(event) is DrawDeclared:
        p = player(state, event.by)
        return _exact(event, state.singularity, len(p.hand) if p else 0)
    return _exact(event, state.singularity, 0)


def _exact(event: Event, singularity: bool, held: int) -> float:
    """`_exact_score` from whether the game is in Singularity and, for a draw, how many cards
    its drawer holds. Each kind is its own type, so the kinds a decision offers most
    (offerings, draws) are asked first."""
    if type(event) is HymnLearned:
        return OFFERING - len(event.offering)
    if type(event) is DrawDeclared:
        discard = event.discard
        return (DRAW_SHORT if held < SHORT_HAND else DRAW) - (DISCARD_PER_VALUE * _value(discard) if discard else 0)
    if type(event) is HymnSung:
        return FIREYES_SONG if singularity and event.hymn == cards.FIREYES else SONG
    if type(event) is CardCaptured:
        return CAPTURE + _value(event.target)
    if type(event) is MercenaryBought:
        return BUY + _value(event.card)
    if type(event) is CardsAnnihilated:
        return ANNIHILATION + _value(event.target) - _value(event.card)
    if type(event) is ExtrasReturned:
        return -sum(_value(c) for c in event.cards)
    return 0.0


@last_args_each  # rulesets/memo.py: per seat, while its last part and its Player stay the same (read it, never change it)
def _rest_choice(seat: str, rest: Sequence[Event], mover: Player | None, singularity: bool) -> tuple[list[int], float, list[int]]:
    """Of a turn's last part (buys, songs, offerings and draws, all the mover's own): the
    indices of the events the heuristic may play (`checkable`), their best exact score
    (`_exact`; -inf with none) and the positions among them that score it, in order. The last
    part is the very tuple `legal` remembers per seat while the seat's cards stay the same (or
    a list of equal events, with buys), so the answer is remembered per seat."""
    held = len(mover.hand) if mover is not None else 0
    kept: list[int] = []
    top, tops = -math.inf, []
    for j, event in enumerate(rest):
        if type(event) is HymnSung and not (singularity and event.hymn in _CHECKABLE):
            continue  # a song it cannot check (`checkable`)
        score = _exact(event, singularity, held)
        if score > top:
            top, tops = score, [len(kept)]
        elif score == top:
            tops.append(len(kept))
        kept.append(j)
    return kept, top, tops


def draw_ties(rng: random.Random, count: int) -> int:
    """A decision's tie-breaks, one `random()` per candidate in order, drawn at once as one
    integer: `getrandbits(64 n)` takes the generator's next 2n 32-bit words, lowest first, as n
    calls of `random()` take them (two words each: the high 27 bits of the first, the high 26
    of the second), so the generator is left exactly as they leave it, and a tie-break is read
    from its two words only when two scores are equal (`comes_first`; most decisions read few)."""
    return rng.getrandbits(count << 6)


def tie_break(ties: int, i: int) -> float:
    """The i-th candidate's tie-break among `draw_ties`' bits: the very float the i-th
    `random()` would have answered."""
    bits = ties >> (i << 6)
    return (((bits & 0xFFFFFFFF) >> 5) * 67108864 + ((bits >> 38) & 0x3FFFFFF)) / 9007199254740992


def comes_first(ties: int, i: int, j: int) -> bool:
    """Whether candidate i comes before candidate j at an equal score: the greater tie-break
    (`tie_break`), then the earlier, as a `max` over (score, tie-break, -index) keeps it. The
    tie-breaks are compared as the 53-bit integers they are made from: no float is made."""
    a, b = ties >> (i << 6), ties >> (j << 6)
    a = ((a & 0xFFFFFFE0) << 21) | ((a >> 38) & 0x3FFFFFF)
    b = ((b & 0xFFFFFFE0) << 21) | ((b >> 38) & 0x3FFFFFF)
    return a > b or (a == b and i < j)


_CHECKABLE = (cards.FIREYES, cards.PRIMARY)
"""The hymns whose effect the rules can check in Singularity (`checkable`)."""

_TOP_VALUE = max(card.value for card in cards.CARDS.values())
"""The highest face value of any card: what a summon's value adds at most."""


def _ceiling() -> float:
    """What no move or summon scores above, from the weights as they stand: a move threatened
    where it stands, onto an enemy House, threatening an enemy where it lands, at no distance
    (`_move_score`); a summon early, threatening, of the highest value, at no distance
    (`_summon_score`). Worked out per decision, so a weight changed is a ceiling changed."""
    step = STEP + LEAVES_THREAT + ONTO_HOUSE + STEP_THREATENS
    return max(step, max(SUMMON_EARLY, SUMMON) + SUMMON_THREATENS + SUMMON_PER_VALUE * _TOP_VALUE)

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
            bound = card_bound + ONTO_HOUSE if to in houses else card_bound
            out.append((-(bound + STEP_THREATENS if to in near else bound), i, False))
        elif type(event) is CardSummoned:
            seat = event.by or ""
            if seat != summoning:
                summoning, spaces = seat, {}
                summon_base = SUMMON_EARLY if look.in_play(seat) < EARLY_CARDS else SUMMON
            at_space = spaces.get(event.space)
            if at_space is None:  # a hand's cards share their spaces: each space's part once
                at_space = spaces[event.space] = (
                    summon_base + (SUMMON_THREATENS if event.space in look.near_enemy(seat) else 0.0),
                    SUMMON_PER_DISTANCE * look.distance(seat, event.space))
            out.append((-(at_space[0] + SUMMON_PER_VALUE * _value(event.card) - at_space[1] + _SLACK), i, False))
        else:
            out.append((-_exact_score(state, event), i, True))
    return out


def _exposure(params: Params, faces: Faces, where: dict[tuple[int, int], Placed], card: str, owner: str, space: tuple[int, int],
              leaving: str | None, adjacent: dict[tuple[int, int], tuple[tuple[int, tuple[int, int]], ...]] | None = None) -> tuple[bool, bool]:
    """(threatened by an enemy, threatening an enemy) for `owner`'s card standing on `space`
    (`leaving` its own space, when it is a move). Each enemy beside it is read once, both ways
    at once: the two touching edges (`state.face`'s codes) meet as `state.edge_clash` says, each
    way, so no pair of cards is remembered (a long run would meet new pairs for hundreds of
    games; the pairs of edges are met in its first). `adjacent`: `board.adjacent_from` of the
    board's size, when the caller holds it (`_game_tables`)."""
    owned = faces.get(owner)
    mine = owned.get(card) if owned is not None else None
    if mine is None:
        mine = face(params, card, owner)
    if not mine:
        return False, False  # no deck card: it touches nothing
    threatened = threatening = False
    around = (adjacent or board.adjacent_from(params.board_size)).get(space)
    for towards, near in around if around is not None else board.neighbours_from(space, params.board_size):
        other = where.get(near)
        if other is None or other.owner == owner or other.card == leaving:
            continue
        owned = faces.get(other.owner)
        theirs = owned.get(other.card) if owned is not None else None
        if theirs is None:
            theirs = face(params, other.card, other.owner)
        if not theirs:
            continue  # no deck card: neither captures
        attacking, defending = theirs[towards], mine[towards ^ 2]  # `towards`: from the enemy to the card
        if not threatened:
            pair = attacking * EDGE_CODES + defending
            threatened = (EDGE_CLASHES[pair] or edge_clash(pair)).kind == "capture"
        if not threatening:
            pair = defending * EDGE_CODES + attacking
            threatening = (EDGE_CLASHES[pair] or edge_clash(pair)).kind == "capture"
        if threatened and threatening:
            break  # both known: the other enemies beside it change neither
    return threatened, threatening


def _threatened(params: Params, faces: Faces, where: dict[tuple[int, int], Placed], piece: Placed,
                adjacent: dict[tuple[int, int], tuple[tuple[int, tuple[int, int]], ...]] | None = None) -> bool:
    """Whether an enemy beside the card standing on `piece.space` captures it: `_exposure`'s
    first answer alone, read from the same edge codes, none once one captures (`adjacent` as
    `_exposure`'s)."""
    card, owner = piece.card, piece.owner
    owned = faces.get(owner)
    mine = owned.get(card) if owned is not None else None
    if mine is None:
        mine = face(params, card, owner)
    if not mine:
        return False  # no deck card: it touches nothing
    around = (adjacent or board.adjacent_from(params.board_size)).get(piece.space)
    for towards, near in around if around is not None else board.neighbours_from(piece.space, params.board_size):
        other = where.get(near)
        if other is not None and other.owner != owner:
            owned = faces.get(other.owner)
            theirs = owned.get(other.card) if owned is not None else None
            if theirs is None:
                theirs = face(params, other.card, other.owner)
            if theirs:
                pair = theirs[towards] * EDGE_CODES + mine[towards ^ 2]
                if (EDGE_CLASHES[pair] or edge_clash(pair)).kind == "capture":
                    return True
    return False


def _summon_score(params: Params, state: State, faces: Faces, where: dict[tuple[int, int], Placed], beside: bool, base: float,
                  card: str, space: tuple[int, int], seat: str, distance: int) -> float:
    """The score of `seat` summoning `card` onto `space`, from whether the space is beside an
    enemy (`beside`), its `base` (`SUMMON_EARLY`, or `SUMMON` with `EARLY_CARDS` in play) and the space's distance to
    its nearest goal."""
    if beside:
        threatened, threatening = _exposure(params, faces, where, card, seat, space, None)
    else:
        threatened = threatening = False  # no enemy beside it
    score = base
    score += SUMMON_THREATENS * threatening - EXPOSED * threatened + SUMMON_PER_VALUE * _value(card)
    return score - SUMMON_PER_DISTANCE * distance


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
    score = STEP + LEAVES_THREAT * look.threatened(piece)
    if to in look.enemy_houses(seat):
        score += ONTO_HOUSE
    distance = look.distance(seat, to)
    if best is not None and (score + STEP_THREATENS * near - STEP_PER_DISTANCE * distance, tie, order) < best:
        return score + STEP_THREATENS * near - STEP_PER_DISTANCE * distance  # loses at its best: the enemies where it lands change nothing
    if near:
        threatened, threatening = _exposure(params, look.faces, look.where, card, seat, to, card)
        score += STEP_THREATENS * threatening - EXPOSED * threatened
    if best is not None and (score - STEP_PER_DISTANCE * distance, tie, order) < best:
        return score - STEP_PER_DISTANCE * distance  # loses as it is: whether it repeats changes nothing
    if look.repeats(card, to, seat):
        score -= REPEATS
    return score - STEP_PER_DISTANCE * distance


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
