"""A token's walks are traced once per state, trampling any own token in the way, and both
`legal` and the heuristic read every move from them: a walk that trampled exactly a move's
tokens must be the walk of that move (`movement.walk` with the move's own `trample`), and
the heuristic must score from them the event it scored before (same seeds, same logs)."""

from __future__ import annotations

from projections.corpus.batch import game_seed
from projections.corpus.simulate import play as simulate
from rulesets.mercyfrontier.events import MercenaryMoved
from rulesets.mercyfrontier.movement import trampling_walks, walk
from rulesets.mercyfrontier.state import merc
from tests.mercyfrontier.scenario import legal, position, rules


def test_a_walk_that_trampled_the_moves_tokens_is_the_moves_walk() -> None:
    state = position(mercs={"raider-1": ("orange", (4, 10)), "militia-1": ("orange", (4, 9)), "brute-1": ("yellow", (4, 6))})
    params = rules().params
    raider = merc(state, "raider-1")
    assert raider is not None
    shared = trampling_walks(params, state, raider, "north")
    assert [w.trampled for w in shared] == [("militia-1",), ("militia-1",)]
    for spaces, found in enumerate(shared, start=1):
        assert found == walk(params, state, raider, "north", spaces, ("militia-1",))
        assert walk(params, state, raider, "north", spaces, ()).blocked == "own"  # not trampling it: another walk
    assert trampling_walks(params, state, raider, "east") == tuple(walk(params, state, raider, "east", n, ()) for n in (1, 2))


def test_every_offered_move_reads_its_own_walk_along_a_heuristic_game() -> None:
    r = rules()
    ruleset, params = r.ruleset, r.params
    log = simulate(r, ruleset.example_seats, seed=game_seed(3, 1), bot="heuristic")
    state, moves = ruleset.setup(params, log[0]), 0
    for event in log[1:-1]:
        for offered in legal(state) if state.phase == "action" else ():
            m = merc(state, offered.card) if isinstance(offered, MercenaryMoved) else None
            if isinstance(offered, MercenaryMoved) and m is not None:
                shared = trampling_walks(params, state, m, offered.direction)[offered.spaces - 1]
                assert shared.trampled == offered.trample
                assert shared == walk(params, state, m, offered.direction, offered.spaces, offered.trample)
                moves += 1
        state = ruleset.apply(params, state, event)
    assert moves > 50
