"""Bots: a random and a heuristic bot finish every mission with a clean audit, and `legal`
only ever offers what `check` accepts (it samples positions, so it is also checked here)."""

from __future__ import annotations

import pytest

from events.shared import MatchEnded
from projections.read.audit import audit
from rulesets.frontier.params import MISSIONS
from tests.frontier import golden
from tests.frontier.scenario import P, R


@pytest.mark.parametrize("mission", MISSIONS)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_finish_every_mission_with_a_clean_audit(mission: str, bot: str) -> None:
    for seed in (7, 8):
        events = golden.simulate({"mission": mission}, seed=seed, bot=bot)
        assert isinstance(events[-1], MatchEnded), f"{mission} {bot} seed {seed} did not finish in {len(events)} events"
        report = audit(events, golden.rules())
        assert report.errors == () and report.result.agrees, report.errors[:3]


def test_every_faction_plays_through() -> None:
    factions = ("colonial_government", "interstellar_raiders", "central_systems_marine_corp", "rebels")
    for i, faction in enumerate(factions):
        options = {"mission": MISSIONS[i], "factions": {"p1": faction, "p2": factions[(i + 1) % 4]}}
        events = golden.simulate(options, seed=i, bot="heuristic")
        assert isinstance(events[-1], MatchEnded)
        assert audit(events, golden.rules()).errors == ()


def test_legal_offers_only_what_check_accepts_at_every_step_of_a_game() -> None:
    state = None
    for event in golden.simulate({"mission": "escort"}, seed=3, bot="random"):
        if state is None:
            state = R.ruleset.setup(P, event)  # type: ignore[arg-type]
            continue
        if R.ruleset.chance(P, state) is None and R.ruleset.outcome(P, state) is None:
            for option in R.ruleset.legal(P, state):
                assert R.ruleset.check(P, state, option) == [], option
        state = R.ruleset.apply(P, state, event)


def test_the_same_seed_plays_the_same_game() -> None:
    assert golden.simulate({"mission": "ambush"}, seed=4, bot="random") == golden.simulate({"mission": "ambush"}, seed=4, bot="random")


def test_legal_offers_a_path_round_a_unit_in_the_way() -> None:
    from rulesets.frontier.events import ActionDeclared, Passed, UnitMoved
    from tests.frontier.scenario import legally, position, put

    state = position(put("saboteur", (5, 15)), put("saboteur", (8, 15), n=2), put("captain", (14, 15), side="p2"))
    state = legally(state, ActionDeclared(by="p1", unit="p1/saboteur-1", action="advance"), Passed(by="p2", step="reaction"))
    round_about = [e for e in R.ruleset.legal(P, state) if isinstance(e, UnitMoved) and e.path]
    assert round_about and all(R.ruleset.check(P, state, e) == [] for e in round_about)
