"""The heuristic bot bounds its candidates and scores them best bound first, and at a turn it
weighs the summons and steps from what `legal` made them of, making only the event it plays
(`bots._turn_choice`). It must still choose exactly what a plain `max` over (score, tie-break,
first of equals) of every event it can play would choose, with the same draws, at every
decision of seeded games."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from events.base import Event
from projections.simulate import play
from rulesets.mercenarium import bots, cards
from rulesets.mercenarium.events import CardMoved, CardSummoned
from rulesets.mercenarium.moves import TurnEvents
from rulesets.mercenarium.params import Params
from rulesets.mercenarium.state import Placed, State, clash, house, next_seat
from tests.mercenarium.scenario import SEATS, R


def _value(card_id: str) -> int:
    found = cards.card(card_id)
    return found.value if found else 0


def _exposure(params: Params, state: State, piece: Placed, leaving: str | None) -> tuple[bool, bool]:
    """(an enemy beside it captures it, it captures an enemy beside it), asked of every neighbour."""
    size = params.board_size
    threatened = threatening = False
    x, y = piece.space
    for near in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
        if not (0 <= near[0] < size and 0 <= near[1] < size):
            continue
        other = next((p for p in state.board if p.space == near), None)
        if other is None or other.owner == piece.owner or other.card == leaving:
            continue
        threatened = threatened or clash(params, state, other, piece).kind == "capture"
        threatening = threatening or clash(params, state, piece, other).kind == "capture"
    return threatened, threatening


def _distance(params: Params, state: State, seat: str, space: tuple[int, int]) -> int:
    """Fewest orthogonal steps to an enemy card or an empty enemy's House (0 with none)."""
    owners = {p.owner for p in state.board}
    goals = [p.space for p in state.board if p.owner != seat]
    goals += [house(params, s) for s in state.seats if s != seat and s not in owners]
    return min((abs(space[0] - gx) + abs(space[1] - gy) for gx, gy in goals), default=0)


def every_score(params: Params, state: State, event: Event) -> float:
    """An event's score read straight from the heuristic's rules, with nothing bounded or kept:
    a move 18, +20 threatening an enemy where it lands, -35 threatened there, +25 leaving a
    threat, +12 onto an enemy House, less its distance to the nearest goal, -40 bringing back
    a position seen; a summon 40 (24 with two cards in play), +15/-35 likewise, +0.3 per face
    value, less half its distance; any other kind as the bot scores it exactly."""
    if isinstance(event, CardMoved):
        seat = event.by or ""
        piece = next((p for p in reversed(state.board) if p.card == event.card), None)  # the last, as a dict by card keeps
        if piece is None:
            return 0.0
        threatened, threatening = _exposure(params, state, Placed(event.card, event.to, seat), event.card)
        was_threatened = _exposure(params, state, piece, None)[0]
        score = 18.0 + 20.0 * threatening - 35.0 * threatened + 25.0 * was_threatened
        if event.to in [house(params, s) for s in state.seats if s != seat]:
            score += 12.0
        after = tuple(Placed(event.card, event.to, seat) if p.card == event.card else p for p in state.board)
        if (next_seat(state, seat), after) in state.history:
            score -= 40.0
        return score - 1.0 * _distance(params, state, seat, event.to)
    if isinstance(event, CardSummoned):
        seat = event.by or ""
        threatened, threatening = _exposure(params, state, Placed(event.card, event.space, seat), None)
        score = 40.0 if sum(p.owner == seat for p in state.board) < 2 else 24.0
        score += 15.0 * threatening - 35.0 * threatened + 0.3 * _value(event.card)
        return score - 0.5 * _distance(params, state, seat, event.space)
    return bots._exact_score(state, event)


def scored_choice(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """The heuristic's choice as a plain max over every playable event's (score, draw, first)."""
    events = list(legal)
    playable = [e for e in events if bots.checkable(state, e)] or events
    draws = [rng.random() for _ in playable]
    if len(playable) == 1:
        return playable[0]
    best = max(range(len(playable)), key=lambda i: (every_score(params, state, playable[i]), draws[i], -i))
    return playable[best]


def decisions(players: int, seed: int, bot: str) -> list[State]:
    """Every decision of a seeded game."""
    log = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
    state, out = R.ruleset.setup(R.params, log[0]), []
    for event in log[1:-1]:
        if R.ruleset.chance(R.params, state) is None:
            out.append(state)
        state = R.ruleset.apply(R.params, state, event)
    return out


@pytest.mark.parametrize(("players", "seed", "bot"), [(2, 1, "heuristic"), (2, 7, "random"), (3, 2, "heuristic"), (4, 3, "heuristic"), (2, 11, "heuristic"), (3, 5, "random")])
def test_the_heuristic_chooses_what_a_plain_max_over_every_score_chooses(players: int, seed: int, bot: str) -> None:
    """At every decision of seeded games: the bot handed `legal`'s lazy turn (or its list) picks
    the event a max over every event's plain score picks, and draws as many tie-breaks."""
    turns = 0
    for index, state in enumerate(decisions(players, seed, bot)):
        legal = R.ruleset.legal(R.params, state)
        turns += isinstance(legal, TurnEvents)
        expected = scored_choice(R.params, state, legal, reference := random.Random(index))
        for offered in (legal, R.ruleset.legal(R.params, state), list(legal)):
            rng = random.Random(index)
            picked = bots.heuristic_bot(R.params, state, offered, rng)
            assert picked == expected, (index, picked, expected)
            assert rng.getstate() == reference.getstate()
    assert turns > 50


def _singularity_positions() -> list[State]:
    """Turns in Singularity (no hymnal, no hand limits): songs of Fireyes and Primary, which the
    bot may sing, beside hymns it leaves out, with summons and steps around enemies."""
    from tests.mercenarium.scenario import position

    board = {"7B": ((3, 4), "red"), "QB": ((2, 5), "red"), "7G": ((3, 3), "yellow"), "9S": ((2, 3), "yellow"), "AS": ((4, 2), "yellow")}
    return [
        position(board=board, hands={"red": ("2C", "8B", "KG")}, hymns={"red": ("I", "II", "VII")}, singularity=True, hymnal=()),
        position(board=board, hands={"red": ("5S", "6S", "9G", "JC", "4B", "3G")}, hymns={"red": ("III", "VII")}, singularity=True, hymnal=()),
        position(board={"7B": ((3, 5), "red")}, hands={"red": ("2C",)}, hymns={"red": ("I", "IV", "IX")}, singularity=True, hymnal=(), deck=("3S",)),
        position(board={}, hymns={"red": ("II", "I")}, singularity=True, hymnal=(), deck=("3S", "4S")),
    ]


def _only_songs_it_leaves_out() -> State:
    """A turn whose only event is a song the bot cannot check (outside Singularity): it plays it."""
    from tests.mercenarium.scenario import position

    return position(board={"7G": ((3, 3), "yellow")}, hymns={"red": ("II",)}, deck=(), hymnal=())


def test_in_singularity_the_heuristic_chooses_what_a_plain_max_over_every_score_chooses() -> None:
    """The songs it may sing (Fireyes, Primary) are weighed with the rest of a turn, the others
    left out, and the choice and the draws are a plain max's, for many draws of the tie-breaks."""
    states = [*_singularity_positions(), _only_songs_it_leaves_out()]
    for state in states:
        legal = R.ruleset.legal(R.params, state)
        assert isinstance(legal, TurnEvents)
        for seed in range(40):
            expected = scored_choice(R.params, state, legal, reference := random.Random(seed))
            rng = random.Random(seed)
            assert bots.heuristic_bot(R.params, state, R.ruleset.legal(R.params, state), rng) == expected, (state, seed)
            assert rng.getstate() == reference.getstate()
    assert any(isinstance(e, bots.HymnSung) and e.hymn == cards.FIREYES for e in R.ruleset.legal(R.params, states[0]))


def test_tie_breaks_drawn_at_once_are_the_draws_made_one_at_a_time() -> None:
    """`bots.draw_ties` takes 64 bits per candidate at once: each tie-break is the very float the
    candidate's own `random()` would give, the generator is left where those calls leave it,
    and `comes_first` orders two candidates as (tie-break, -index) does."""
    for count in (1, 2, 3, 7, 16, 36, 200):
        for seed in range(10):
            one_by_one, at_once = random.Random(seed), random.Random(seed)
            draws = [one_by_one.random() for _ in range(count)]
            ties = bots.draw_ties(at_once, count)
            assert [bots.tie_break(ties, i) for i in range(count)] == draws
            assert at_once.getstate() == one_by_one.getstate()
            for i in range(min(count, 40)):
                for j in range(min(count, 40)):
                    if i != j:
                        assert bots.comes_first(ties, i, j) == ((draws[i], -i) > (draws[j], -j))


def test_no_move_or_summon_scores_above_the_ceiling() -> None:
    """A turn whose capture or buy scores above `bots._CEILING` is decided without weighing a
    move or a summon: none scores above it, at any decision of seeded games or in a position
    built for the most a move can score (threatened where it stands, onto an empty enemy's
    House that is its goal, beside an enemy it captures)."""
    from tests.mercenarium.scenario import position

    built = position(board={"2C": ((3, 1), "red"), "AS": ((3, 2), "yellow"), "KB": ((4, 0), "yellow")})
    states = [built, *decisions(2, 1, "heuristic"), *decisions(3, 2, "heuristic")]
    weighed = 0
    for state in states:
        for event in R.ruleset.legal(R.params, state):
            if isinstance(event, (CardMoved, CardSummoned)):
                assert every_score(R.params, state, event) <= bots._CEILING, (state, event)
                weighed += 1
    assert weighed > 1000
