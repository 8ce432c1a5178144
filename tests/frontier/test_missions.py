"""frontier.md, Missions (objectives and their strategic actions) and Ending the Game.

p1 attacks in every position here; p2 defends.
"""

from __future__ import annotations

import pytest

from rulesets.frontier.events import (
    AbilityUsed,
    ActionDeclared,
    ChargeDefused,
    ChargePlaced,
    ChargesDetonated,
    MarkerPlaced,
    Passed,
    StrongPointSeized,
    VipEscorted,
)
from rulesets.frontier.state import Token, Unit
from tests.frontier.scenario import (
    P,
    R,
    block,
    held,
    legally,
    phase,
    play,
    position,
    put,
    unit,
    violations,
)

SAB = "p1/saboteur-1"
CAP = "p2/captain-1"
FAR = put("captain", (40, 28), side="p2")


def marker(kind: str, at: tuple[float, float], owner: str = "p1") -> Token:
    return Token(id=kind, kind=kind, owner=owner, at=at)


def lost(kind: str, side: str, n: int = 1) -> Unit:
    """A unit that was destroyed."""
    return Unit(id=f"{side}/{kind}-{n}", type=kind, side=side, status="destroyed")


def outcome(state):
    return R.ruleset.outcome(P, state)


# --- Assault -------------------------------------------------------------------------------


def test_the_attacker_seizes_a_strong_point_with_a_unit_within_5_inches() -> None:
    state = position(put("saboteur", (10, 15)), FAR, tokens=(marker("strong_point", (14, 15)),))
    state = legally(state, StrongPointSeized(by="p1", unit=SAB))
    assert state.seized == 1 and not any(t.kind == "strong_point" for t in state.tokens)
    far = position(put("saboteur", (10, 15)), FAR, tokens=(marker("strong_point", (16, 15)),))
    assert violations(far, StrongPointSeized(by="p1", unit=SAB)) == ["frontier/missions.assault.seize"]


def test_the_defender_places_the_new_strong_point_exactly_15_inches_from_the_old() -> None:
    state = legally(position(put("saboteur", (10, 15)), FAR, tokens=(marker("strong_point", (14, 15)),)), StrongPointSeized(by="p1", unit=SAB))
    assert R.ruleset.progress(P, state).actor == "p2"
    assert violations(state, MarkerPlaced(by="p2", marker="strong_point", point=(14, 25))) == ["frontier/missions.assault.strong-point"]
    assert violations(state, MarkerPlaced(by="p1", marker="strong_point", point=(29, 15))) == ["frontier/turn.player"]
    state = legally(state, MarkerPlaced(by="p2", marker="strong_point", point=(29, 15)))
    assert any(t.kind == "strong_point" and t.at == (29, 15) for t in state.tokens)
    assert phase(state) == "action" and state.turn.seat == "p1"  # the attacker goes on to step 2


def test_the_second_seize_completes_the_assault_and_no_new_strong_point_is_placed() -> None:
    state = position(put("saboteur", (10, 15)), FAR, tokens=(marker("strong_point", (14, 15)),), seized=1)
    state = legally(state, StrongPointSeized(by="p1", unit=SAB))
    assert state.seized == 2 and not state.turn.windows


def test_only_the_attacker_seizes_and_only_in_step_1() -> None:
    state = position(put("captain", (10, 15), side="p1"), put("saboteur", (12, 15), side="p2"), tokens=(marker("strong_point", (14, 15)),), active="p2")
    assert "frontier/missions.assault" in violations(state, StrongPointSeized(by="p2", unit="p2/saboteur-1"))
    after = play(state, StrongPointSeized(by="p2", unit="p2/saboteur-1"))
    assert after.seized == 0 and any(t.kind == "strong_point" for t in after.tokens)  # not the attacker's objective
    late = play(position(put("saboteur", (10, 15)), FAR, tokens=(marker("strong_point", (14, 15)),)), Passed(by="p1", step="strategic"))
    assert violations(late, StrongPointSeized(by="p1", unit=SAB)) == ["frontier/turn.sequence"]


# --- Sabotage -------------------------------------------------------------------------------------


def sabotage(*things: object, charges: int = 0, active: str = "p1"):
    return position(*things, mission="sabotage", tokens=(marker("target", (5, 15), "p2"),), short_edge="west", charges=charges, active=active)  # type: ignore[arg-type]


def test_charges_are_placed_from_within_5_inches_of_the_target() -> None:
    state = legally(sabotage(put("saboteur", (9, 15)), FAR), ChargePlaced(by="p1", unit=SAB))
    assert state.charges == 1
    assert violations(sabotage(put("saboteur", (11, 15)), FAR), ChargePlaced(by="p1", unit=SAB)) == ["frontier/missions.sabotage.charges"]


def test_detonation_needs_a_charge_and_shakes_every_unit_within_15_inches() -> None:
    assert violations(sabotage(put("saboteur", (9, 15)), FAR), ChargesDetonated(by="p1")) == ["frontier/missions.sabotage.detonate"]
    state = sabotage(put("saboteur", (9, 15)), put("captain", (18, 15), side="p2"), put("lobo", (25, 15), side="p2"), charges=1)
    state = legally(state, ChargesDetonated(by="p1"))
    assert unit(state, SAB).shaken and unit(state, CAP).shaken and not unit(state, "p2/lobo-1").shaken
    assert state.detonated and not any(t.kind == "target" for t in state.tokens)


def test_the_defender_defuses_a_charge_from_within_5_inches_in_its_own_turn() -> None:
    state = sabotage(put("saboteur", (20, 25)), put("captain", (8, 15), side="p2"), charges=2, active="p2")
    state = legally(state, ChargeDefused(by="p2", unit=CAP))
    assert state.charges == 1
    assert "frontier/missions.sabotage" in violations(sabotage(put("saboteur", (9, 15)), FAR, charges=1), ChargeDefused(by="p1", unit=SAB))


def test_detonation_completes_the_sabotage() -> None:
    state = legally(sabotage(put("saboteur", (36, 25)), FAR, charges=1), ChargesDetonated(by="p1"))
    state = legally(state, ActionDeclared(by="p1", unit=SAB, action="bug_out"), Passed(by="p2", step="reaction"))
    state = legally(state, Passed(by="p2", step="strategic"), ActionDeclared(by="p2", unit=CAP, action="bug_out"), Passed(by="p1", step="reaction"))
    assert outcome(state) is None  # p1's step 1: it could still bring a unit on
    state = legally(state, Passed(by="p1", step="strategic"))
    result = outcome(state)
    assert result is not None and result.winner == "p1" and "Decisive Victory" in result.reason


# --- Escort ------------------------------------------------------------------------------------------


def escort(*things: object):
    return position(*things, mission="escort", tokens=(marker("vip", (30, 15)),), short_edge="west", defender_edges=("south",))  # type: ignore[arg-type]


def test_the_attacker_escorts_the_vip_up_to_10_inches_from_a_unit_within_5() -> None:
    state = legally(escort(put("saboteur", (33, 15)), FAR), VipEscorted(by="p1", unit=SAB, to=(39, 15)))
    assert next(t for t in state.tokens if t.kind == "vip").at == (39, 15)
    assert violations(escort(put("saboteur", (33, 15)), FAR), VipEscorted(by="p1", unit=SAB, to=(41, 15))) == ["frontier/missions.escort.distance"]
    assert violations(escort(put("saboteur", (36, 15)), FAR), VipEscorted(by="p1", unit=SAB, to=(39, 15))) == ["frontier/missions.escort.escort"]


def test_no_escort_while_an_enemy_within_10_inches_sees_the_vip() -> None:
    watched = escort(put("saboteur", (33, 15)), put("captain", (30, 22), side="p2"))
    assert violations(watched, VipEscorted(by="p1", unit=SAB, to=(39, 15))) == ["frontier/missions.escort.watched"]
    hidden = escort(put("saboteur", (33, 15)), put("captain", (30, 22), side="p2"), block("wall", 26, 18, 34, 19, 2))
    assert violations(hidden, VipEscorted(by="p1", unit=SAB, to=(39, 15))) == []


def test_the_vip_touching_the_attackers_evac_edge_is_removed_and_the_mission_is_complete() -> None:
    state = position(put("saboteur", (38, 15)), FAR, mission="escort", tokens=(marker("vip", (36, 15)),), short_edge="west", defender_edges=("south",))
    state = legally(state, VipEscorted(by="p1", unit=SAB, to=(43.6, 15)))  # the marker's edge touches the east edge
    assert state.vip_out and not any(t.kind == "vip" for t in state.tokens)


# --- Ambush --------------------------------------------------------------------------------------------


def test_ambush_is_won_by_destroying_half_the_defenders_starting_points() -> None:
    state = position(put("saboteur", (5, 5)), put("captain", (20, 15), side="p2"), lost("lobo", "p2"), mission="ambush",
                     attacker_edges=("south", "west"))
    metrics = R.ruleset.metrics(P, state)
    assert metrics["defender_destroyed"] == 32  # of 62: not yet half
    state = position(put("saboteur", (5, 5)), lost("captain", "p2"), lost("lobo", "p2"), put("bosun", (20, 20), side="p2"),
                     mission="ambush", attacker_edges=("south", "west"))
    view = {p.title: dict(p.rows) for p in R.ruleset.view(P, state, None).panels}
    assert view["Objective"]["defender destroyed"].startswith("62 of 92")


# --- Ending the Game and the victory table -------------------------------------------------------------


def test_the_game_ends_when_the_active_player_has_no_units_at_the_start_of_step_2() -> None:
    state = position(lost("saboteur", "p1"), FAR, active="p1")
    assert outcome(state) is None  # step 1: a strategic action could still bring a unit on
    state = legally(state, Passed(by="p1", step="strategic"))
    result = outcome(state)
    assert result is not None and result.rule == "frontier/ending.no-units"


def test_a_unit_in_reserve_is_not_on_the_board_but_may_be_dropped_in_step_1() -> None:
    state = position(held("cap_trooper", "orbital_drop"), FAR, active="p1")
    state = legally(state, AbilityUsed(by="p1", unit="p1/cap_trooper-1", ability="orbital_drop", points=((20, 15),)))
    assert outcome(state) is None and phase(state) == "action"


def test_the_game_ends_at_once_when_the_objective_is_achieved_with_half_the_attacking_points_lost() -> None:
    """"At any point if the attacker has achieved their objective and at least 50% of the maximum points
    for the mission of the attacking force has been destroyed" (the mission's 150 points)."""
    losses = (lost("interstellar_commandos", "p1"), lost("interstellar_commandos", "p1", 2), lost("saboteur", "p1"))
    state = position(put("saboteur", (10, 15), n=2), *losses, FAR, tokens=(marker("strong_point", (14, 15)),), seized=1)
    assert outcome(state) is None  # 96 points lost, objective not yet achieved
    state = legally(state, StrongPointSeized(by="p1", unit="p1/saboteur-2"))
    result = outcome(state)
    assert result is not None and result.rule == "frontier/ending.objective-and-losses" and result.winner == "p1"
    assert "Pyrrhic Victory" in result.reason and "Narrow Defeat" in result.reason


@pytest.mark.parametrize(("seized", "losses", "winner", "attacker", "defender"), [
    (2, 3, "p1", "Pyrrhic Victory", "Narrow Defeat"),
    (2, 1, "p1", "Decisive Victory", "Crushing Defeat"),
    (0, 3, "p2", "Crushing Defeat", "Decisive Victory"),
    (0, 1, "p2", "Narrow Defeat", "Victory"),
])
def test_the_victory_table(seized: int, losses: int, winner: str, attacker: str, defender: str) -> None:
    """Objective achieved? At least 50% (75 of 150 points) of the attacking force destroyed?"""
    dead = tuple(lost("interstellar_commandos", "p1", n) for n in range(1, losses + 1))  # 36 points each
    state = position(*dead, put("captain", (40, 28), side="p2"), seized=seized, active="p1")
    state = play(state, Passed(by="p1", step="strategic"))
    result = outcome(state)
    assert result is not None and result.winner == winner
    assert f"attacker p1 {attacker}, defender p2 {defender}" in result.reason


def test_nothing_may_happen_once_the_game_is_over() -> None:
    state = play(position(lost("saboteur", "p1"), FAR, active="p1"), Passed(by="p1", step="strategic"))
    assert violations(state, Passed(by="p1", step="strategic")) == ["frontier/ending.game-over"]
    assert R.ruleset.legal(P, state) == []


def test_bug_out_and_self_destruct_are_not_losses() -> None:
    evacuated = Unit(id="p1/interstellar_commandos-1", type="interstellar_commandos", side="p1", status="evacuated")
    removed = Unit(id="p1/patrol_drone-1", type="patrol_drone", side="p1", status="removed")
    state = play(position(evacuated, removed, lost("saboteur", "p1"), FAR, seized=2, active="p1"), Passed(by="p1", step="strategic"))
    result = outcome(state)
    assert result is not None and "Decisive Victory" in result.reason and "24 points" in result.reason
