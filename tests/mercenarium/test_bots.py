"""A random and a heuristic bot finish 2-, 3- and 4-player games that audit clean."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from events.shared import MatchEnded
from projections.corpus.simulate import play
from projections.read.audit import audit
from rulesets import registry
from rulesets.mercenarium.events import CardCaptured, CardSummoned, HymnSung
from tests.mercenarium.scenario import SEATS, R


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_finish_clean_games_at_every_table_size(players: int, bot: str) -> None:
    for seed in (1, 2):
        events = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
        assert isinstance(events[-1], MatchEnded), (players, bot, seed, len(events))
        report = audit(events, R)
        assert report.errors == () and report.result.agrees, report.errors[:3]


def test_a_mixed_table_of_bots_plays_too() -> None:
    events = play(R, {s: s for s in SEATS[4]}, seed=3, bot={"red": "heuristic", "orange": "random", "yellow": "heuristic", "green": "random"})
    assert isinstance(events[-1], MatchEnded) and audit(events, R).clean


def test_the_heuristic_bot_captures_and_never_sings_a_hymn_it_cannot_know() -> None:
    events = play(R, {s: s for s in SEATS[2]}, seed=5, bot="heuristic")
    assert any(isinstance(e, CardCaptured) for e in events)
    assert not any(isinstance(e, HymnSung) for e in events)  # outside Singularity every hymn's text is lost


def test_a_designer_variant_with_a_smaller_board_plays_clean(tmp_path: Path) -> None:
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "small-board.toml").write_text('extends = "mercenarium@1.0"\ntitle = "5 x 5"\n[params]\nboard_size = 5\n')
    rules = registry.resolve("mercenarium@small-board", tmp_path)
    assert rules.params.board_size == 5
    events = play(rules, {s: s for s in SEATS[4]}, seed=1, bot="heuristic")
    assert isinstance(events[-1], MatchEnded) and audit(events, rules).clean
    assert all(0 <= c < 5 for e in events if isinstance(e, CardSummoned) for c in e.space)


@pytest.mark.parametrize("players", [2, 4])
def test_bots_pick_the_same_event_from_the_lazy_legal_as_from_its_list(players: int) -> None:
    """`legal` at a turn makes its board steps only when read (`rulesets.legal.Chain`); a
    bot handed it picks what it picks from the listed events with the same draws, so a
    seed's game is the one it always was."""
    from projections.read.replay import replay
    from rulesets.legal import Chain
    from rulesets.mercenarium.bots import heuristic_bot, random_bot

    events = play(R, {s: s for s in SEATS[players]}, seed=4, bot="random")
    states = [step.state for step in replay(events[:-1], R, audit=False)]
    turns = [s for s in states if isinstance(R.ruleset.legal(R.params, s), Chain)]
    assert len(turns) > 20
    for index, state in enumerate(turns[::3]):
        for bot in (random_bot, heuristic_bot):
            lazy = R.ruleset.legal(R.params, state)
            listed = list(R.ruleset.legal(R.params, state))
            first, second = random.Random(index), random.Random(index)
            picked = bot(R.params, state, lazy, first)
            assert picked == bot(R.params, state, listed, second) and first.random() == second.random()
            assert picked in lazy


def test_the_heuristic_bot_knows_which_step_brings_back_a_position_already_seen() -> None:
    """A repeated position is the same cards on the same spaces under the same owners with the
    same seat to move (`state.position_key`): the bot finds it for the one step that makes
    it, whichever other cards stand still, and for no other step."""
    from rulesets.mercenarium.bots import Look
    from rulesets.mercenarium.events import CardMoved
    from tests.mercenarium.scenario import P, position
    from tests.mercenarium.scenario import play as apply_events

    start = position(board={"7B": ((3, 5), "red"), "7G": ((3, 1), "yellow"), "9S": ((0, 0), "yellow")})
    steps = [("red", "7B", (3, 4)), ("yellow", "7G", (3, 2)), ("red", "7B", (3, 5)), ("yellow", "7G", (3, 1))]
    state = apply_events(start, *(CardMoved(seq=20 + i, by=by, card=card, to=to) for i, (by, card, to) in enumerate(steps)))
    look = Look(P, state)
    assert look.repeats("7B", (3, 4), "red")  # the position after the first step, yellow to move
    assert not look.repeats("7B", (2, 5), "red")
    assert not look.repeats("7B", (4, 5), "red")


def test_the_heuristic_bot_reads_each_space_s_distance_to_the_nearest_goal() -> None:
    """A seat's distance from any space, on the board or off it, is its fewest orthogonal steps
    to an enemy card or an empty enemy's House (each goal's steps read from a table per goal)."""
    from rulesets.mercenarium.bots import Look
    from rulesets.mercenarium.state import house
    from tests.mercenarium.scenario import P, position

    state = position(board={"7B": ((3, 5), "red"), "7G": ((3, 1), "yellow"), "9S": ((0, 0), "yellow")})
    look = Look(P, state)
    size = P.board_size
    goals = [(3, 1), (0, 0), *(house(P, s) for s in state.seats if s not in ("red", "yellow"))]
    for x in range(-1, size + 1):
        for y in range(-1, size + 1):
            assert look.distance("red", (x, y)) == min(abs(x - gx) + abs(y - gy) for gx, gy in goals)
    assert look.distance("yellow", (3, 3)) == 2  # its one enemy card, two steps away


def test_a_turn_filtered_by_kind_keeps_exactly_the_events_a_list_would() -> None:
    """`TurnEvents.keep` looks only at the turn's last part when no summon or step is of the
    kinds filtered (the bots leave out hymns), and at every part otherwise: either way the
    events kept are those a filter of the listed events keeps, in order."""
    from projections.read.replay import replay
    from rulesets.legal import keep
    from rulesets.mercenarium.events import CardMoved, HymnLearned
    from rulesets.mercenarium.moves import TurnEvents

    events = play(R, {s: s for s in SEATS[2]}, seed=6, bot="random")
    states = [step.state for step in replay(events[:-1], R, audit=False)]
    turns = [s for s in states if isinstance(R.ruleset.legal(R.params, s), TurnEvents)]
    assert len(turns) > 20
    dropped = 0
    for index, state in enumerate(turns):
        def odd(event: object, index: int = index) -> bool:
            return len(repr(event)) % 3 != index % 3
        for kinds in ((HymnSung,), (HymnLearned, HymnSung), (CardMoved,), (CardSummoned, CardCaptured)):
            listed = [e for e in R.ruleset.legal(R.params, state) if not isinstance(e, kinds) or odd(e)]
            kept = keep(R.ruleset.legal(R.params, state), odd, kinds)
            assert list(kept) == listed and len(kept) == len(listed)
            assert [kept[i] for i in range(len(kept))] == listed
            dropped += len(listed) < len(R.ruleset.legal(R.params, state))
    assert dropped > 20


@pytest.mark.parametrize(("players", "seed"), [(2, 8), (3, 9)])
def test_the_random_bot_picks_from_a_turn_what_it_picks_from_the_turn_listed(players: int, seed: int) -> None:
    """The random bot counts a turn's playable events without a filtered view (the hymns it
    leaves out are all in the turn's last part): at every turn of a seeded game it picks the
    event, with the same draw, that it picks from the listed events filtered as a list,
    including turns where hymns are left out and picks that land on a summon."""
    from projections.read.replay import replay
    from rulesets.mercenarium.bots import checkable, random_bot
    from rulesets.mercenarium.moves import TurnEvents

    events = play(R, {s: s for s in SEATS[players]}, seed=seed, bot="random")
    states = [step.state for step in replay(events[:-1], R, audit=False)]
    turns = [s for s in states if isinstance(R.ruleset.legal(R.params, s), TurnEvents)]
    left_out = summoned = 0
    for index, state in enumerate(turns):
        listed = list(R.ruleset.legal(R.params, state))
        playable = [e for e in listed if checkable(state, e)] or listed
        first, second = random.Random(index), random.Random(index)
        picked = random_bot(R.params, state, R.ruleset.legal(R.params, state), first)
        assert picked == playable[second.randrange(len(playable))] and first.random() == second.random()
        left_out += len(playable) < len(listed)
        summoned += isinstance(picked, CardSummoned)
    assert left_out > 10 and summoned > 5
