"""Shortcuts taken for speed answer what the plain reading answers.

A step's direction looked up rather than searched (and each neighbour's step back), a clash
read from the two touching edges' codes (each card's edges by compass direction under its
owner, each pair of edges' clash once), a space's nearest goal read from its rings, a card lifted
from wherever it is in one copy of the state, the enemies' neighbourhood as a mask, an exposure
read both ways from the edge codes, a random index drawn without `randrange`, a seat's own
actions remembered by equal arguments (its songs made once per hymns held), a dealt hand's
offerings kept without asking each its form (read from events kept per seat, hymn and card),
the hand cards a base accepts read from its set, the Mercenaries asked by id, a move or another
action applied with its turn passed on in one copy, and where `legal` says a turn's songs are:
each is held here to the plain code it replaced, over every case it can meet, or at every
decision, move, summon and hymn put of seeded games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import product

import msgspec

from projections.corpus.simulate import play
from rulesets.mercenarium import board, bots, cards, rules
from rulesets.mercenarium.events import CardMoved, CardSummoned, HymnSung, ZodiacResolved
from rulesets.mercenarium.state import (
    Clash,
    Last,
    Placed,
    Player,
    State,
    alchemy,
    board_by_space,
    clash,
    faces_of,
    facing,
    house,
    in_limbo,
    next_seat,
    put_on_board,
    replace_player,
    sort_cards,
    take_off_board,
    without,
)
from tests.mercenarium.scenario import FOUR, SEATS, P, R, position


def plain_direction(a: tuple[int, int], b: tuple[int, int]) -> int | None:
    """The first direction whose step leads from a to b, searched."""
    for d, (dc, dr) in board.STEPS.items():
        if (a[0] + dc, a[1] + dr) == b:
            return d
    return None


def test_a_direction_looked_up_is_the_direction_searched() -> None:
    spaces = [(x, y) for x in range(-2, 9) for y in range(-2, 9)]  # on the board and off it (a table's mistake)
    for a in spaces:
        for b in spaces:
            assert board.direction(a, b) == plain_direction(a, b), (a, b)


def test_each_neighbour_s_step_back_is_the_direction_searched() -> None:
    """`board.adjacent_from` (and `board.neighbours_from` for a space off the board) lists each
    space's neighbours on the board as `adjacent` does, each with the compass index of the
    step from it back to the space, for boards of 3 to 9."""
    for size in range(3, 10):
        table = board.adjacent_from(size)
        for x in range(-1, size + 1):
            for y in range(-1, size + 1):
                found = table.get((x, y)) or board.neighbours_from((x, y), size)
                assert [near for _, near in found] == [near for _, near in board.neighbours((x, y), size)]
                assert [towards * 90 for towards, _ in found] == [plain_direction(near, (x, y)) for _, near in found]


def plain_clash(attacker: Placed, defender: Placed) -> Clash:
    """The clash as the text reads it, every card and edge asked through `cards.card` and `facing`."""
    towards = plain_direction(attacker.space, defender.space)
    a, d = cards.card(attacker.card), cards.card(defender.card)
    if towards is None or a is None or d is None:
        return Clash(kind="apart")
    mine = a.aura[board.edge_towards(facing(P, attacker.owner), towards)]
    theirs = d.aura[board.edge_towards(facing(P, defender.owner), board.opposite(towards))]
    if not (a.lord or d.lord) and mine != theirs:
        return Clash(kind="capture" if mine > theirs else "weaker", attacker_dots=mine, defender_dots=theirs)
    kind = {"consume": "capture", "consumed": "consumed", "annihilate": "annihilation", "deadlock": "deadlock"}[alchemy(a.suit, d.suit)]
    return Clash(kind=kind, attacker_dots=mine, defender_dots=theirs, by_alchemy=True)  # type: ignore[arg-type]


def test_every_clash_is_the_clash_read_plainly() -> None:
    """Every pair of cards (and a hymn, which meets nothing), every owner, side by side every way
    and apart: the clash read from the two cards' edge codes (`face`, `edge_clash`) is the plain
    clash."""
    state = position()
    ids = [*cards.CARDS, cards.FIREYES, "nothing"]
    steps = [*board.STEPS.values(), (1, 1), (0, 2)]
    for attacker, defender in product(ids, repeat=2):
        for one, other in product((*FOUR, "nobody"), repeat=2):
            for dx, dy in steps:
                a, d = Placed(attacker, (3, 3), one), Placed(defender, (3 + dx, 3 + dy), other)
                assert clash(P, state, a, d) == plain_clash(a, d), (a, d)


def test_the_nearest_goal_read_from_rings_is_the_least_of_the_steps_to_each_goal() -> None:
    """On the board, the first of the space's rings holding a goal of the goals' mask; off it, or
    with a goal off it (a mask of -1), the least of the steps to each goal; with no goal, 0: each
    the least of the plain steps to every goal, on boards of 3 to 9."""
    rng = random.Random(18)
    for size in range(3, 10):
        bit_of = bots._bit_of(size)
        for _ in range(1_000):
            goals = tuple((rng.randrange(size), rng.randrange(size)) for _ in range(rng.randrange(1, 7)))
            mask = sum({bit_of[g] for g in goals})
            off_goals = (*goals, (rng.choice((-1, size)), rng.randrange(size)))
            x, y = rng.randrange(size), rng.randrange(size)
            off = (rng.choice((-1, size, x)), rng.choice((-2, size + 1)))
            for space, at, mask_ in (((x, y), goals, mask), (off, goals, mask), ((x, y), off_goals, -1), (off, off_goals, -1)):
                assert bots._distance(mask_, at, size, space) == min(abs(space[0] - gx) + abs(space[1] - gy) for gx, gy in at)
        assert bots._distance(0, (), size, (1, 1)) == 0
        for rings in bots._rings_of(size).values():  # every space of the board in exactly one ring
            assert sum(rings) == (1 << size * size) - 1 and all(not a & b for a, b in product(rings, rings) if a is not b)


def plain_lift(state: State, card_id: str) -> State:
    """The card taken from wherever it is, one place after another, as the rules read before."""
    state = take_off_board(state, card_id)
    for p in state.players:
        if card_id in p.hand or card_id in p.hymns or any(c.card == card_id for c in p.captures):
            state = replace_player(state, msgspec.structs.replace(
                p, hand=without(p.hand, card_id), hymns=without(p.hymns, card_id), face_up=without(p.face_up, card_id),
                captures=tuple(c for c in p.captures if c.card != card_id)))
    return msgspec.structs.replace(state, deck=without(state.deck, card_id), hymnal=without(state.hymnal, card_id),
                                   discard=without(state.discard, card_id))


def test_a_card_lifted_in_one_copy_is_the_card_lifted_place_by_place() -> None:
    """At every event of seeded games, every card the game knows lifted from the state before it
    (held, in play, captured, in a pile or nowhere), and put on the board in the same copy (a
    summon) as `put_on_board` puts it on the state lifted; and the summons applied as they were."""
    summons = 0
    for players, seed, bot in ((2, 3, "random"), (3, 4, "heuristic"), (4, 6, "random")):
        log = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
        state = R.ruleset.setup(P, log[0])
        for index, event in enumerate(log[1:-1]):
            if index % 7 == 0 or isinstance(event, CardSummoned | HymnSung | ZodiacResolved):
                for card_id in (*cards.CARDS, *cards.HYMNS, "nothing"):
                    lifted = rules._lift(state, card_id)
                    assert lifted == plain_lift(state, card_id), (seed, index, card_id)
                    for space, owner in (((0, 0), "red"), ((3, 4), state.current or "yellow")):
                        onto = rules._lift(state, card_id, Placed(card_id, space, owner))
                        assert onto == put_on_board(plain_lift(state, card_id), card_id, space, owner), (seed, index, card_id)
                    held_before = [p for p in state.players if p == next(q for q in lifted.players if q.seat == p.seat)]
                    assert all(any(q is p for q in lifted.players) for p in held_before)  # a seat not holding it keeps its Player
            summons += isinstance(event, CardSummoned)
            state = R.ruleset.apply(P, state, event)
    assert summons > 10


def test_a_pile_sorted_by_place_alone_is_the_pile_sorted_by_place_and_name() -> None:
    """Piles of known cards (hymns too, a card twice) and piles with ids no table knows."""
    rng = random.Random(10)
    known = [*cards.CARDS, *cards.HYMNS]
    for size in range(12):
        for _ in range(200):
            pile = [rng.choice(known) for _ in range(size)]
            if rng.random() < 0.3:
                pile.insert(rng.randrange(size + 1), rng.choice(["zz", "00", "QB?", ""]))
            assert sort_cards(pile) == tuple(sorted(pile, key=lambda c: (cards.ORDER.get(c, 1_000), c))), pile


def plain_enemies(state: State, seat: str) -> tuple[set[tuple[int, int]], tuple[tuple[int, int], ...], int, int]:
    """The spaces beside the seat's enemies, its goals (enemy cards, then the Houses of enemies
    with no card in play), the goals as a mask of one bit per space (-1 with one off the board)
    and how many enemy cards are in play, read plainly."""
    enemy = [p for p in state.board if p.owner != seat]
    near = {beside for p in enemy for _, beside in board.neighbours(p.space, P.board_size)}
    goals = [p.space for p in enemy]
    goals += [house(P, other) for other in state.seats if other != seat and all(p.owner != other for p in enemy)]
    bit_of = bots._bit_of(P.board_size)
    mask = -1 if any(goal not in bit_of for goal in goals) else sum({bit_of[goal] for goal in goals})
    return near, tuple(goals), mask, len(enemy)


def test_the_enemies_read_in_one_pass_are_the_enemies_read_plainly() -> None:
    """At every decision of seeded games of two to four players, for every seat (a seat with no
    card in play gives its House as a goal); the spaces beside them as a mask of one bit per
    space, and a card off the board (a table's mistake) among them."""
    houses = 0
    for players, seed, bot in ((2, 5, "heuristic"), (3, 8, "random"), (4, 9, "heuristic"), (4, 2, "random")):
        log = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
        state = R.ruleset.setup(P, log[0])
        for event in log[1:-1]:
            if state.stage == "play" and R.ruleset.chance(P, state) is None:
                for seat in state.seats:
                    expected = plain_enemies(state, seat)
                    near, *rest = bots._enemies(P, state, seat)
                    assert (bots._spaces_in(near, P.board_size), *rest) == expected  # the neighbourhood as a mask of its spaces
                    assert near == sum(bots._bit_of(P.board_size)[space] for space in expected[0])
                    houses += len(expected[1]) > expected[3]
            state = R.ruleset.apply(P, state, event)
    assert houses > 0
    deck = list(cards.DECK)
    for off in ((7, 3), (-1, 0), (3, 9)):  # an enemy card the table put off the board, beside cards on it
        state = position(board={deck[0]: (off, "yellow"), deck[1]: ((6, 3), "yellow"), deck[2]: ((2, 2), "red")})
        near, *rest = bots._enemies(P, state, "red")
        assert (bots._spaces_in(near, P.board_size), *rest) == plain_enemies(state, "red")


def test_the_enemy_houses_and_the_spaces_beside_them_as_masks_are_their_spaces_on_the_board() -> None:
    """`bots._houses_around`'s masks (what the heuristic asks of a step and a card) hold exactly
    the enemy Houses and the spaces one step from one that lie on the board, for every seat of
    two to four players (an unknown seat among them)."""
    bit_of = bots._bit_of(P.board_size)
    for players in (2, 3, 4):
        seats = tuple(SEATS[players])
        for seat in (*seats, "nobody"):
            houses, ring, house_bits, ring_bits = bots._houses_around(P, seats, seat)
            assert houses == tuple(house(P, s) for s in seats if s != seat)
            assert bots._spaces_in(house_bits, P.board_size) == {h for h in houses if h in bit_of}
            assert bots._spaces_in(ring_bits, P.board_size) == {r for r in ring if r in bit_of}
            assert ring == {board.step(h, d) for h in houses for d in board.STEPS}


def plain_exposure(state: State, card: str, owner: str, space: tuple[int, int], leaving: str | None) -> tuple[bool, bool]:
    """Whether an enemy beside `owner`'s card on `space` captures it, and whether it captures one,
    every clash asked of `plain_clash` (the enemy `leaving` names is the card itself, moving)."""
    piece = Placed(card, space, owner)
    enemies = [p for p in state.board
               if p.owner != owner and p.card != leaving and abs(p.space[0] - space[0]) + abs(p.space[1] - space[1]) == 1]
    return (any(plain_clash(other, piece).kind == "capture" for other in enemies),
            any(plain_clash(piece, other).kind == "capture" for other in enemies))


def test_an_exposure_read_from_edge_codes_is_every_clash_asked_plainly() -> None:
    """`bots._exposure` reads each enemy beside a card once, both ways, from the two touching
    edges' codes: at every decision of seeded games of two to four players, for every card of
    the seat to act on every space beside an enemy (and staying where it stands), it is the two
    clashes asked of every enemy beside it; and whether each card is threatened where it stands
    (`bots._threatened`) is the first of them."""
    met = 0
    for players, seed, bot in ((2, 5, "heuristic"), (3, 8, "random"), (4, 9, "heuristic")):
        log = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
        state = R.ruleset.setup(P, log[0])
        for event in log[1:-1]:
            if state.stage == "play" and R.ruleset.chance(P, state) is None and state.current is not None:
                where = board_by_space(state)
                seat = state.current
                near = bots._spaces_in(bots._enemies(P, state, seat)[0], P.board_size)
                for piece in [p for p in state.board if p.owner == seat]:
                    assert bots._threatened(P, faces_of(P), where, piece) == plain_exposure(state, piece.card, seat, piece.space, piece.card)[0]
                    for space in near:
                        for leaving in (piece.card, None):
                            expected = plain_exposure(state, piece.card, seat, space, leaving)
                            assert bots._exposure(P, faces_of(P), where, piece.card, seat, space, leaving) == expected, (piece, space)
                            met += any(expected)
            state = R.ruleset.apply(P, state, event)
    assert met > 0


def test_a_random_index_drawn_below_n_is_randrange_s() -> None:
    """`bots.below(rng, n)` answers `rng.randrange(n)` and leaves the generator where it does, for
    every n from 1 to 3,000 and a few far larger, from generators at many places."""
    for seed in range(5):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (*range(1, 3_001), 2**31, 2**31 + 1, 10**12 + 7):
            assert bots.below(ours, n) == theirs.randrange(n)
            assert ours.getstate() == theirs.getstate()


def test_a_seat_s_own_actions_remembered_are_the_actions_worked_out_afresh() -> None:
    """At every decision of seeded games of two to four players, for every seat: the songs,
    offerings and draws remembered per seat (`moves._own_actions`, asked with the seat's very
    Player or an equal copy of it) are what the function works out afresh."""
    from rulesets.mercenarium import moves

    asked = 0
    for state, p in seats_at_turn_decisions():
        args = (P, p, not state.hymnal, not state.deck)
        fresh = moves._own_actions.__wrapped__(p.seat, *args)
        assert moves._own_actions(p.seat, *args) == fresh
        assert moves._own_actions(p.seat, P, msgspec.structs.replace(p), *args[2:]) == fresh
        asked += 1
    assert asked > 100


def seats_at_turn_decisions() -> Iterator[tuple[State, Player]]:
    """Every seat at every turn decision (play, no chance step, no Singularity) of three
    seeded games of two, three and four players."""
    for players, seed, bot in ((2, 5, "random"), (3, 8, "heuristic"), (4, 2, "random")):
        log = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
        state = R.ruleset.setup(P, log[0])
        for event in log[1:-1]:
            if state.stage == "play" and R.ruleset.chance(P, state) is None and not state.singularity:
                for p in state.players:
                    yield state, p
            state = R.ruleset.apply(P, state, event)


def test_a_seat_s_own_actions_are_its_songs_offerings_and_draws_asked_plainly() -> None:
    """The songs made once per seat and hymns held (`moves._songs_held`) are each held hymn's
    song, for random hymns held (unknown ids among them); and at every decision of seeded games
    of two to four players, for every seat, a seat's own actions (`moves._own_actions`, worked
    out afresh) are its songs (`moves._songs`), the offerings the plain filter keeps and its
    draws (`moves._draws`), in that order."""
    from rulesets.mercenarium import moves

    rng = random.Random(18)
    pool = [*cards.HYMNS, "nothing", next(iter(cards.CARDS))]
    for _ in range(500):
        hymns = tuple(rng.choice(pool) for _ in range(rng.randrange(4)))
        assert moves._songs_held("red", hymns) == tuple(HymnSung(by="red", hymn=h) for h in hymns if h in cards.HYMNS)
    asked = 0
    for state, p in seats_at_turn_decisions():
        capture = tuple(c.card for c in p.captures if not c.spent)[:1]
        offerings = plain_acceptable(p.seat, p.hand, p.hymns, capture) if state.hymnal else ()
        plain = (*moves._songs(P, state, p, True), *offerings, *moves._draws(P, state, p))
        assert moves._own_actions.__wrapped__(p.seat, P, p, not state.hymnal, not state.deck)[0] == plain, p.seat
        asked += 1
    assert asked > 100


def plain_moved(state: State, event: CardMoved) -> State:
    """A move as the rules applied it before: the board and the last action in one copy, then the
    turn passed on (`plain_finish`) in another."""
    index = next((i for i, p in enumerate(state.board) if p.card == event.card), -1)
    taken = any(p.space == event.to for p in state.board)
    if taken or index < 0 or not board.on_board(event.to, P.board_size):
        return plain_finish(state, moved=True)
    piece = state.board[index]
    pieces = (*state.board[:index], Placed(piece.card, event.to, piece.owner), *state.board[index + 1:])
    return plain_finish(msgspec.structs.replace(state, board=pieces, last=Last("move", piece.owner, (piece.space, event.to))), moved=True)


def plain_finish(state: State, *, moved: bool) -> State:
    """`rules._finish` as it read before: Limbo judged on the state, then the next seat's turn begun."""
    if state.pending or state.stage != "play" or state.current is None:
        return state
    seat = state.current
    if len(state.seats) == 2 and state.limbo_at_start and in_limbo(P, state, seat):
        state = msgspec.structs.replace(state, eliminated=seat)
    coming = next_seat(state, seat)
    history = (*state.history, (coming, state.board)) if moved else ((coming, state.board),)
    contracts = tuple(c for c in state.contracts if c[1] != coming)
    return msgspec.structs.replace(state, current=coming, turns=state.turns + 1, contracts=contracts,
                                   limbo_at_start=in_limbo(P, state, coming), history=history)


def test_a_move_and_the_turn_it_passes_on_in_one_copy_are_the_move_applied_in_two() -> None:
    """At every move of seeded games of two to four players, and at every space around each
    moved card (taken ones, off the board: what a table may record), the move applied in one copy
    of the state (`rules._apply_moved`) is the state the two copies gave."""
    moved = 0
    for players, seed, bot in ((2, 5, "random"), (2, 7, "heuristic"), (3, 8, "random"), (4, 2, "heuristic")):
        log = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
        state = R.ruleset.setup(P, log[0])
        for event in log[1:-1]:
            if isinstance(event, CardMoved):
                piece = next(p for p in state.board if p.card == event.card)
                for to in (event.to, *[(piece.space[0] + dx, piece.space[1] + dy) for dx, dy in ((0, -1), (1, 0), (0, 1), (-2, 0))]):
                    tried = msgspec.structs.replace(event, to=to)
                    assert rules._apply_moved(P, state, tried) == plain_moved(state, tried), (seed, event, to)
                moved += 1
            state = R.ruleset.apply(P, state, event)
    assert moved > 100


def test_where_legal_says_a_turn_s_songs_are_is_where_they_are() -> None:
    """At every decision of seeded games of two to four players (hymns held at many): the songs a
    turn's `songs` names are exactly the songs among its last part, side by side."""
    from rulesets.mercenarium.moves import TurnEvents

    named = 0
    for players, seed, bot in ((2, 5, "random"), (2, 11, "random"), (3, 8, "heuristic"), (4, 2, "random")):
        log = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
        state = R.ruleset.setup(P, log[0])
        for event in log[1:-1]:
            legal = R.ruleset.legal(P, state) if state.stage == "play" and R.ruleset.chance(P, state) is None else None
            if type(legal) is TurnEvents and legal.songs is not None:
                first, count = legal.songs
                sung = [i for i, e in enumerate(legal.rest) if isinstance(e, HymnSung)]
                assert sung == list(range(first, first + count)), (seed, event.seq)
                named += count > 0
            state = R.ruleset.apply(P, state, event)
    assert named > 20


def test_an_action_s_last_and_the_turn_it_passes_on_in_one_copy_are_the_two_copies() -> None:
    """At every event of seeded games of two to four players (steps pending, Limbo, contracts
    ending among them), the turn passed on with a last action set in the same copy
    (`rules._finish_on`, as a summon, a capture, an annihilation and a buy ask it) is the last
    action set, then the turn passed on."""
    asked = 0
    for players, seed, bot in ((2, 5, "random"), (2, 7, "heuristic"), (3, 8, "random"), (4, 2, "heuristic")):
        log = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
        state = R.ruleset.setup(P, log[0])
        for event in log[1:-1]:
            last = Last("summon", state.current or "", ((3, 3),))
            for moved in (False, True):
                expected = plain_finish(msgspec.structs.replace(state, last=last), moved=moved)
                assert rules._finish_on(P, state, state.board, last, moved) == expected, (seed, event.seq)
            asked += 1
            state = R.ruleset.apply(P, state, event)
    assert asked > 300


def plain_acceptable(seat: str, hand: tuple[str, ...], hymns: tuple[str, ...], capture: tuple[str, ...]) -> tuple[object, ...]:
    """Every offering `_offered` makes, kept where `rules.offering_form` accepts it and it leaves no hymn held."""
    from rulesets.mercenarium import moves

    return tuple(event for event in moves._offered(seat, hand, hymns, capture)
                 if rules.offering_form(event.offering, event.captures) is not None and all(h in event.offering for h in hymns))


def test_offerings_kept_without_their_form_asked_are_the_acceptable_ones() -> None:
    """`moves._acceptable` keeps a dealt hand's offerings without asking each its form: for random
    hands of deck cards with no hymn, one, or two (hymns and unknown ids among the hand, as a
    table may record), with a capture and without, and for every seat at every decision of
    seeded games, it keeps what the plain filter keeps (a one-hymn hand's offerings read from
    the events kept per seat, hymn and card, `moves._learning`, as the hands before met them)."""
    from rulesets.mercenarium import moves

    rng = random.Random(18)
    pool = [*cards.CARDS, *cards.HYMNS, "nothing"]
    for _ in range(3_000):
        hand = tuple(rng.choice(pool if rng.random() < 0.2 else list(cards.CARDS)) for _ in range(rng.randrange(8)))
        hymns = tuple(rng.choice(pool if rng.random() < 0.2 else list(cards.HYMNS)) for _ in range(rng.choice((0, 1, 1, 2))))
        capture = rng.choice(((), (rng.choice(list(cards.CARDS)),)))
        assert moves._acceptable.__wrapped__("red", hand, hymns, capture) == plain_acceptable("red", hand, hymns, capture)
    asked = 0
    for players, seed, bot in ((2, 5, "heuristic"), (3, 8, "random"), (4, 2, "heuristic")):
        log = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
        state = R.ruleset.setup(P, log[0])
        for event in log[1:-1]:
            if state.stage == "play" and R.ruleset.chance(P, state) is None:
                for p in state.players:
                    args = (p.seat, p.hand, p.hymns, tuple(c.card for c in p.captures if not c.spent)[:1])
                    assert moves._acceptable(*args) == plain_acceptable(*args)
                    asked += len(p.hymns) + 1
            state = R.ruleset.apply(P, state, event)
    assert asked > 300


def plain_accepted_by(base_id: str, hand: tuple[str, ...]) -> int:
    """The hand cards (bit i) a base accepts, each asked as the text reads it: a deck card of its
    suit or of a face value no lower (any deck card beside a card that is not one)."""
    base = cards.card(base_id)
    bits = 0
    for i, card_id in enumerate(hand):
        incoming = cards.card(card_id)
        if incoming is not None and (base is None or incoming.suit == base.suit or incoming.value >= base.value):
            bits |= 1 << i
    return bits


def test_the_hand_cards_a_base_accepts_read_from_its_set_are_those_asked_plainly() -> None:
    """`moves._accepted_by` reads each hand card in the base's set of accepted cards: for every
    base (every deck card, a hymn, an unknown id) and random hands (hymns and unknown ids among
    them, as a table may record), it is each card asked plainly."""
    from rulesets.mercenarium import moves

    rng = random.Random(18)
    pool = [*cards.CARDS, *cards.HYMNS, "nothing"]
    for base in pool:
        for _ in range(60):
            hand = tuple(rng.choice(pool) for _ in range(rng.randrange(8)))
            assert moves._accepted_by.__wrapped__(base, hand) == plain_accepted_by(base, hand), (base, hand)


def test_the_mercenaries_by_id_are_the_cards_whose_rank_makes_them_mercenaries() -> None:
    """`cards.MERCENARIES` (a buy's and a contract's test by id) holds every deck card that is a
    Mercenary and nothing else: no other deck card, no hymn, no unknown id."""
    for card_id in (*cards.CARDS, *cards.HYMNS, "nothing", ""):
        found = cards.card(card_id)
        assert (card_id in cards.MERCENARIES) == (found is not None and found.mercenary), card_id
    assert len(cards.MERCENARIES) == 16
