"""The heuristic bot bounds its candidates and scores them best bound first, and at a turn it
weighs the summons and steps from what `legal` made them of, making only the event it plays
(`bots._turn_choice`). It must still choose exactly what a plain `max` over (score, tie-break,
first of equals) of every event it can play would choose, with the same draws, at every
decision of seeded games."""

from __future__ import annotations

import random

import pytest

from projections.corpus.simulate import play
from rulesets.mercenarium import bots, bots_reference, cards
from rulesets.mercenarium.events import CardMoved, CardSummoned
from rulesets.mercenarium.moves import TurnEvents
from rulesets.mercenarium.state import State
from tests.mercenarium.scenario import SEATS, R

every_score = bots_reference.score
"""An event's score with nothing bounded or kept: the heuristic as its strategy reads."""
scored_choice = bots_reference.heuristic_reference
"""The heuristic's choice as a plain max over every playable event's (score, draw, first)."""


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
    """A turn whose capture or buy scores above `bots._ceiling()` is decided without weighing a
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
                assert every_score(R.params, state, event) <= bots._ceiling(), (state, event)
                weighed += 1
    assert weighed > 1000
