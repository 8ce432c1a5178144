"""MortalGate's chance steps answer `Uniform` (every face of the dice equally likely), so the
play loop draws from running totals instead of weighing each outcome: read any way, they
must be the plain list of every face with its probability, and a seed must draw the face
`random.choices` draws from that list."""

from __future__ import annotations

import random

import pytest

from projections.corpus.simulate import draw, play
from rulesets.mortalgate.events import AttackRolled, DraftRolled
from rulesets.outcomes import Uniform

from .scenario import rules


@pytest.mark.parametrize("version", ["1.5", "2.5"])
def test_every_chance_step_of_a_game_is_every_face_of_its_dice_and_draws_as_choices(version: str) -> None:
    r = rules(version)
    log = play(r, r.ruleset.example_seats, seed=11, bot="heuristic")
    state, kinds, rng, plain_rng = r.ruleset.setup(r.params, log[0]), set(), random.Random(5), random.Random(5)
    for event in log[1:-1]:
        outcomes = r.ruleset.chance(r.params, state)
        if outcomes is not None:
            assert type(outcomes) is Uniform
            if isinstance(event, DraftRolled):
                plain = [(DraftRolled(red=red, blue=blue), 1 / 36) for red in range(1, 7) for blue in range(1, 7)]
            else:
                assert isinstance(event, AttackRolled)
                plain = [(AttackRolled(target=event.target, tens=t, ones=o), 1 / 100) for t in range(10) for o in range(10)]
            assert list(outcomes) == plain and len(outcomes) == len(plain)
            assert [outcomes[i] for i in range(len(plain))] == plain
            faces, weights = zip(*plain, strict=True)
            for _ in range(3):
                assert draw(outcomes, rng) == plain_rng.choices(faces, weights)[0]
            kinds.add(type(event))
        state = r.ruleset.apply(r.params, state, event)
    assert kinds == {DraftRolled, AttackRolled}
