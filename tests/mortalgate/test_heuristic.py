"""The heuristic bot scores best bound first and stops once nothing can reach the best: it
must still choose exactly what a `max` over (score, tie-break) of every event would choose,
with the same draws, at every decision of a game; and placement, whose events `legal`
offers without checking each, must still offer exactly what `check` accepts."""

from __future__ import annotations

import math
import random

import msgspec
import pytest

from events.base import Event
from projections.corpus.simulate import play
from rulesets.legal import Chain, keep
from rulesets.mortalgate import board, bots, bots_reference, moves
from rulesets.mortalgate.events import AbilityUsed, AttackDeclared, HeroMoved
from rulesets.mortalgate.state import State, acting_hero, find, game_map

from .scenario import rules

every_score = bots_reference.score
"""An event's score read straight from the heuristic's rules, a move measured to every goal."""
scored_choice = bots_reference.heuristic_reference
"""The heuristic's choice as a plain max over every event's (score, draw)."""


def decisions(version: str, seed: int) -> list[tuple[State, list[Event]]]:
    """Every decision of a heuristic game, with its legal events."""
    r = rules(version)
    log = play(r, r.ruleset.example_seats, seed=seed, bot="heuristic")
    state, out = r.ruleset.setup(r.params, log[0]), []
    for event in log[1:-1]:
        if r.ruleset.chance(r.params, state) is None:
            out.append((state, r.ruleset.legal(r.params, state)))
        state = r.ruleset.apply(r.params, state, event)
    return out


@pytest.mark.parametrize(("version", "seed"), [("1.5", 4), ("2.0", 5), ("2.5", 6)])
def test_the_heuristic_chooses_what_scoring_every_event_chooses(version: str, seed: int) -> None:
    params = rules(version).params
    for index, (state, legal) in enumerate(decisions(version, seed)):
        ours, plain = random.Random(index), random.Random(index)
        assert bots.heuristic_bot(params, state, legal, ours) == scored_choice(params, state, legal, plain)
        assert ours.random() == plain.random()  # the same draws taken


@pytest.mark.parametrize(("version", "seed"), [("2.0", 5), ("2.5", 6)])
def test_the_heuristic_chooses_alike_from_lazy_moves_and_from_a_list(version: str, seed: int) -> None:
    """`legal` hands a hero's moves over unmade (`moves.TurnEvents`, their paths read by the
    heuristic); a recorded list of the same events must get the same choice and draws."""
    params = rules(version).params
    lazy = 0
    for index, (state, legal) in enumerate(decisions(version, seed)):
        lazy += isinstance(legal, moves.TurnEvents)
        ours, listed = random.Random(index), random.Random(index)
        assert bots.heuristic_bot(params, state, legal, ours) == bots.heuristic_bot(params, state, list(legal), listed)
        assert ours.random() == listed.random()
    assert lazy


def test_moves_are_read_only_as_far_as_they_can_reach_the_best_score() -> None:
    """A move scores at most 50 (a zone) and else at most 20: a better event leaves them unread."""
    params = rules("2.5").params
    for state, legal in decisions("2.5", 6):
        moved = [e.path for e in legal if isinstance(e, HeroMoved)]
        if not moved:
            continue
        ends, reach = [board.cell(path[-1]) for path in moved], max(map(len, moved))
        assert bots._best_moves(params, state, acting_hero(state), ends, reach, 51.0)[0] <= 50.0
        score, reached = bots._best_moves(params, state, acting_hero(state), ends, reach, 21.0)
        assert score in (50.0, -math.inf) and (score == 50.0) == bool(reached)


@pytest.mark.parametrize(("version", "bot"), [("1.5", "heuristic"), ("2.0", "random"), ("2.5", "heuristic"), ("2.5", "random")])
def test_the_draft_offers_exactly_what_check_accepts(version: str, bot: str) -> None:
    """The draft checks one pick per seat (`moves._legal_draft`): at every draft decision of
    games of both bots, two players a team or one (where a player's fair share refuses some
    seats' picks), and with a seat whose team its name does not say (a pick `check`
    refuses), `legal` is the candidates `check` accepts."""
    r = rules(version)
    pairs = {"red-a": "ana", "red-b": "bo", "blue-a": "cy", "blue-b": "di"}
    for seed in range(6):
        log = play(r, pairs if seed % 2 else r.ruleset.example_seats, seed=seed, bot=bot)
        state = r.ruleset.setup(r.params, log[0])
        seen = 0
        for event in log[1:-1]:
            if state.stage == "draft" and r.ruleset.chance(r.params, state) is None:
                seen += 1
                for seats in (state.seats, tuple((f"seat-{seat}", team) for seat, team in state.seats)):
                    at = msgspec.structs.replace(state, seats=seats)
                    accepted = [e for e in moves.candidates(r.params, at) if not r.ruleset.check(r.params, at, e)]
                    assert r.ruleset.legal(r.params, at) == accepted
            state = r.ruleset.apply(r.params, state, event)
        assert seen


@pytest.mark.parametrize("version", ["1.5", "2.0", "2.5"])
def test_placement_offers_exactly_what_check_accepts(version: str) -> None:
    r = rules(version)
    placing = [state for state, _ in decisions(version, 8) if state.stage == "placement"]
    assert placing
    for state in placing:
        accepted = [e for e in moves.candidates(r.params, state) if not r.ruleset.check(r.params, state, e)]
        assert r.ruleset.legal(r.params, state) == accepted


@pytest.mark.parametrize("count", [1, 2, 30, 257])
def test_draws_passed_unread_leave_the_generator_where_random_would(count: int) -> None:
    """Where one event is best, the heuristic takes its decision's draws without reading any
    (`bots._pass_draws`): the generator must be left where `count` calls of `random()` leave
    it, for `random.Random` (one call of its bits) and for any other generator class."""

    class Halved(random.Random):
        def random(self) -> float:
            return super().random() / 2

    for seed in range(40):
        for kind in (random.Random, Halved):
            taken, plain = kind(seed), kind(seed)
            bots._pass_draws(taken, count)
            for _ in range(count):
                plain.random()
            assert taken.random() == plain.random()
            assert taken.getstate() == plain.getstate()


def test_turn_events_laid_out_by_hand_are_the_chain_of_their_parts() -> None:
    """`moves.TurnEvents` sets its parts itself (`Chain._laid`) instead of `Chain.__init__`'s
    loop: read by length, index, iteration, search and filter it must be the plain `Chain` of
    its moves and its other events."""
    laid = 0
    for state, legal in decisions("2.5", 6):
        if not isinstance(legal, moves.TurnEvents):
            continue
        laid += 1
        hero = find(state, state.turn.hero) if state.turn else None
        assert hero is not None
        made = [HeroMoved(by=hero.seat, hero=hero.id, path=path) for path in legal.paths]
        plain = Chain([made, legal.rest], [(HeroMoved,), ()])
        assert len(legal) == len(plain) and list(legal) == list(plain)
        assert [legal[i] for i in range(-len(plain), len(plain))] == [plain[i] for i in range(-len(plain), len(plain))]
        assert all(event in legal for event in plain)
        short = keep(legal, lambda event: len(event.path) > 1, (HeroMoved,))
        assert list(short) == [e for e in plain if not isinstance(e, HeroMoved) or len(e.path) > 1]
    assert laid


@pytest.mark.parametrize(("version", "seed"), [("1.5", 4), ("2.0", 5), ("2.5", 6)])
def test_events_scored_by_their_type_are_the_best_each_score_gives(version: str, seed: int) -> None:
    """Where no event is scored by what it does (the draft, placement, a respawn, a lone turn
    start), the heuristic scores the events per type (`bots._by_kind`): the positions it
    gives are those of the best `_score` of every event; where some event is scored by what
    it does, it gives none."""
    params = rules(version).params
    alike = 0
    for state, legal in decisions(version, seed):
        if isinstance(legal, moves.TurnEvents):
            continue
        events = list(legal)
        found = bots._by_kind(list(map(type, events)))
        if any(isinstance(event, (HeroMoved, AbilityUsed, AttackDeclared)) for event in events):
            assert found is None
            continue
        scores = [bots._score(params, state, event) for event in events]
        assert found == [i for i, score in enumerate(scores) if score == max(scores)]
        alike += len(events) > 1
    assert alike


@pytest.mark.parametrize(("version", "seed"), [("2.0", 5), ("2.5", 6), ("2.5", 7)])
def test_the_nearest_goal_read_by_its_bound_is_the_nearest_of_every_goal(version: str, seed: int) -> None:
    """`bots._nearest` reads only the goals that can still be as near as the one nearest the
    hero: at every move decision of seeded games, with the open altars and the enemies as
    goals, it gives the fewest steps from any end to any goal and every end that far, whether
    the goals are cells of the map's tables (as `_best_moves` asks) or tables of their own
    (as `_goal_tables` asks)."""
    params = rules(version).params
    gmap = game_map(params)
    every = board.distance_tables(gmap.width, gmap.height)
    read = 0
    for state, legal in decisions(version, seed):
        if not isinstance(legal, moves.TurnEvents):
            continue
        hero, paths = legal.hero, legal.paths
        assert hero.node is not None
        open_altars = [a.node for a, owner in zip(gmap.altars, state.altars, strict=True) if owner != hero.team]
        enemies = [h.node for h in state.heroes if h.team != hero.team and h.node is not None]
        nodes = open_altars + enemies
        if not nodes:
            continue
        goals = [board.distances_from(node, gmap.width, gmap.height) for node in nodes]
        ends = list(paths.ends)
        plain = min(goal[end] for goal in goals for end in ends)
        where = [j for j, end in enumerate(ends) if min(goal[end] for goal in goals) == plain]
        aways = [board.distance(hero.node, node) for node in nodes]
        cells = [board.cell(node, gmap.height) for node in nodes]
        assert bots._nearest(every, cells, aways, ends, paths.reach) == (plain, where)
        assert bots._nearest(goals, range(len(goals)), aways, ends, paths.reach) == (plain, where)
        read += 1
    assert read


@pytest.mark.parametrize("version", ["2.0", "2.5"])
def test_moves_are_scored_alike_with_a_hero_off_the_map(version: str) -> None:
    """A table's mistake may leave a hero off the map (or the acting hero nowhere), where a
    node has no cell: `_best_moves` then works out every goal's table (`_goal_tables`) and
    must give the plain best score of the moves and every move that reaches it."""
    params = rules(version).params
    checked = 0
    for index, (state, legal) in enumerate(decisions(version, 5)):
        if not isinstance(legal, moves.TurnEvents) or index % 3:
            continue
        hero = legal.hero
        enemy = next((h for h in state.heroes if h.team != hero.team and h.node is not None), None)
        if enemy is None:
            continue
        ends = list(legal.paths.ends)
        made = list(legal)[:legal.paths.size]
        for changed, acting in ((enemy, hero), (hero, msgspec.structs.replace(hero, node=None))):
            moved = msgspec.structs.replace(changed, node=(-3, 40) if changed is enemy else None)
            at = msgspec.structs.replace(state, heroes=tuple(moved if h is changed else h for h in state.heroes))
            scores = [every_score(params, at, event) for event in made]
            best = max(scores)
            expected = (best, [j for j, score in enumerate(scores) if score == best])
            assert bots._best_moves(params, at, acting, ends, legal.paths.reach, -math.inf) == expected
            checked += 1
    assert checked
