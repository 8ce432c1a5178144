"""frontier.md, Turn Sequence and Actions and Reactions, passage by passage.

The saboteur (p1) and the captain (p2) have no passive ability, so their rolls are plain:
saboteur D6 in everything, captain firepower D6, mobility D6, assault D10, discipline D8.
"""

from __future__ import annotations

from rulesets.frontier.events import (
    AbilityUsed,
    ActionDeclared,
    ActionRolled,
    Passed,
    ReactionDeclared,
    UnitMoved,
)
from tests.frontier.scenario import (
    P,
    R,
    block,
    legally,
    phase,
    play,
    position,
    put,
    roll,
    unit,
    violations,
)

SAB = "p1/saboteur-1"
CAP = "p2/captain-1"


def duel(at: tuple[float, float] = (20.0, 15.0), *extra: object, active: str = "p1", **fields: object):
    """The saboteur at (5, 15), the captain at `at`."""
    return position(put("saboteur", (5.0, 15.0)), put("captain", at, side="p2"), *extra, active=active, **fields)  # type: ignore[arg-type]


def declared(state, action: str, target: str | None = None, unit_id: str = SAB):
    return legally(state, ActionDeclared(by=unit_id.split("/")[0], unit=unit_id, action=action, target=target))


# --- Turn Sequence ------------------------------------------------------------------------


def test_an_advance_nobody_reacts_to_succeeds_and_moves_the_unit_up_to_10_inches() -> None:
    state = declared(duel(), "advance")
    assert phase(state) == "reaction"
    state = legally(state, Passed(by="p2", step="reaction"))
    assert phase(state) == "advance"
    assert violations(state, UnitMoved(by="p1", unit=SAB, to=(15.5, 15.0))) == ["frontier/movement.distance"]
    state = legally(state, UnitMoved(by="p1", unit=SAB, to=(14.9, 15.0)))
    assert unit(state, SAB).at == (14.9, 15.0)


def test_after_the_action_resolves_the_reactive_player_becomes_the_active_player() -> None:
    state = legally(declared(duel(), "advance"), Passed(by="p2", step="reaction"), Passed(by="p1", step="move", unit=SAB))
    assert state.turn is not None and state.turn.seat == "p2" and state.turn.number == 2 and state.turns == 2


def test_only_the_active_player_chooses_a_unit_and_action() -> None:
    event = ActionDeclared(by="p2", unit=CAP, action="advance")
    assert "frontier/turn.player" in violations(duel(), event)
    assert "frontier/units.owner" in violations(duel(), event)


def test_one_strategic_action_per_turn() -> None:
    """"Active player may make one strategic action"."""
    state = position(put("pathfinder", (5, 15)), put("captain", (20, 15), side="p2"), put("lobo", (20, 25), side="p2"))
    state = legally(state, AbilityUsed(by="p1", unit="p1/pathfinder-1", ability="target_designator", target=CAP))
    again = AbilityUsed(by="p1", unit="p1/pathfinder-1", ability="target_designator", target="p2/lobo-1")
    assert violations(state, again) == ["frontier/turn.one-strategic-action"]


def test_a_strategic_action_comes_before_the_unit_and_action() -> None:
    state = position(put("pathfinder", (5, 15)), put("captain", (20, 15), side="p2"))
    state = legally(state, Passed(by="p1", step="strategic"))
    event = AbilityUsed(by="p1", unit="p1/pathfinder-1", ability="target_designator", target=CAP)
    assert violations(state, event) == ["frontier/turn.sequence"]


def test_a_second_action_in_the_same_turn_is_out_of_sequence() -> None:
    state = declared(duel(), "advance")
    assert "frontier/turn.sequence" in violations(state, ActionDeclared(by="p1", unit=SAB, action="bug_out"))


# --- Open Fire, Firefight, Take Cover ------------------------------------------------------------


def test_open_fire_needs_a_target_at_least_10_inches_away() -> None:
    """"Select a target enemy unit within line of sight and at least 10" away": Open Fire at 8" is named."""
    assert violations(duel((13.0, 15.0)), ActionDeclared(by="p1", unit=SAB, action="open_fire", target=CAP)) == ["frontier/open-fire.range"]
    assert violations(duel((15.0, 15.0)), ActionDeclared(by="p1", unit=SAB, action="open_fire", target=CAP)) == []


def test_open_fire_needs_line_of_sight() -> None:
    wall = block("wall", 12, 0, 13, 30, 1)
    assert violations(duel((20.0, 15.0), wall), ActionDeclared(by="p1", unit=SAB, action="open_fire", target=CAP)) == ["frontier/open-fire.line-of-sight"]


def test_open_fire_targets_an_enemy() -> None:
    state = position(put("saboteur", (5, 15)), put("saboteur", (20, 15), n=2), put("captain", (30, 15), side="p2"))
    assert violations(state, ActionDeclared(by="p1", unit=SAB, action="open_fire", target="p1/saboteur-2")) == ["frontier/open-fire.target"]


def test_an_open_fire_nobody_reacts_to_shakes_the_target_and_a_second_destroys_it() -> None:
    """"Target unit becomes shaken"; "If a unit that is shaken is required to become shaken again, it is instead destroyed"."""
    state = legally(declared(duel(), "open_fire", CAP), Passed(by="p2", step="reaction"))
    assert unit(state, CAP).shaken and state.turn.seat == "p2"
    state = legally(play(state, Passed(by="p2", step="strategic")), ActionDeclared(by="p2", unit=CAP, action="advance"),
                    Passed(by="p1", step="reaction"), Passed(by="p2", step="move", unit=CAP))
    state = legally(declared(state, "open_fire", CAP), Passed(by="p2", step="reaction"))
    assert unit(state, CAP).status == "destroyed" and unit(state, CAP).at is None


def test_firefight_is_the_targets_reaction_with_sight_and_at_least_10_inches() -> None:
    state = declared(duel(), "open_fire", CAP)
    assert violations(state, ReactionDeclared(by="p2", unit=CAP, reaction="firefight")) == []
    state = legally(state, ReactionDeclared(by="p2", unit=CAP, reaction="firefight"), roll((2,), (5,)))
    assert unit(state, SAB).shaken and not unit(state, CAP).shaken  # "Active unit becomes shaken"


def test_only_the_target_may_firefight_or_take_cover() -> None:
    state = position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"), put("captain", (20, 25), side="p2", n=2))
    state = declared(state, "open_fire", CAP)
    for reaction in ("firefight", "take_cover"):
        assert violations(state, ReactionDeclared(by="p2", unit="p2/captain-2", reaction=reaction)) == [f"frontier/reactions.{reaction}"]


def test_a_won_take_cover_has_no_further_effect() -> None:
    state = legally(declared(duel(), "open_fire", CAP), ReactionDeclared(by="p2", unit=CAP, reaction="take_cover"), roll((2,), (6,)))
    assert not unit(state, CAP).shaken and not unit(state, SAB).shaken and state.turn.seat == "p2"


def test_a_reaction_the_action_does_not_list_is_named() -> None:
    state = declared(duel(), "open_fire", CAP)
    assert violations(state, ReactionDeclared(by="p2", unit=CAP, reaction="overwatch")) == ["frontier/reactions.allowed"]


# --- Advance: Overwatch and Flank ---------------------------------------------------------------------


def test_overwatch_needs_sight_of_the_advancing_unit_and_at_least_10_inches_before_it_moves() -> None:
    assert violations(declared(duel((20.0, 15.0)), "advance"), ReactionDeclared(by="p2", unit=CAP, reaction="overwatch")) == []
    assert violations(declared(duel((12.0, 15.0)), "advance"), ReactionDeclared(by="p2", unit=CAP, reaction="overwatch")) == ["frontier/reactions.overwatch"]
    hidden = declared(duel((20.0, 15.0), block("wall", 12, 0, 13, 30, 1)), "advance")
    assert violations(hidden, ReactionDeclared(by="p2", unit=CAP, reaction="overwatch")) == ["frontier/reactions.overwatch"]


def test_a_won_overwatch_lets_the_reactive_player_move_the_active_unit_up_to_5_inches() -> None:
    state = legally(declared(duel(), "advance"), ReactionDeclared(by="p2", unit=CAP, reaction="overwatch"), roll((1,), (6,)))
    assert phase(state) == "overwatch" and state.turn.windows[0].seat == "p2"
    assert violations(state, UnitMoved(by="p1", unit=SAB, to=(5.0, 19.0))) == ["frontier/turn.player"]
    assert violations(state, UnitMoved(by="p2", unit=SAB, to=(5.0, 20.5))) == ["frontier/movement.distance"]
    state = legally(state, UnitMoved(by="p2", unit=SAB, to=(5.0, 19.5)))
    assert unit(state, SAB).at == (5.0, 19.5) and state.turn.seat == "p2"


def test_flank_needs_sight_and_the_reacting_unit_within_10_inches() -> None:
    assert violations(declared(duel((12.0, 15.0)), "advance"), ReactionDeclared(by="p2", unit=CAP, reaction="flank")) == []
    assert violations(declared(duel((20.0, 15.0)), "advance"), ReactionDeclared(by="p2", unit=CAP, reaction="flank")) == ["frontier/reactions.flank"]


def test_a_won_flank_moves_the_reactive_unit_and_the_advance_does_not_happen() -> None:
    state = legally(declared(duel((12.0, 15.0)), "advance"), ReactionDeclared(by="p2", unit=CAP, reaction="flank"), roll((2,), (4,)))
    assert phase(state) == "flank"
    state = legally(state, UnitMoved(by="p2", unit=CAP, to=(12.0, 19.9)))
    assert unit(state, SAB).at == (5.0, 15.0) and state.turn.seat == "p2"


def test_a_lost_reaction_lets_the_action_resolve() -> None:
    state = legally(declared(duel(), "advance"), ReactionDeclared(by="p2", unit=CAP, reaction="overwatch"), roll((5,), (5,)))
    assert phase(state) == "advance" and state.turn.windows[0].seat == "p1"  # a tie goes to the active player


# --- Fight Through: Counter Attack and Fall Back ---------------------------------------------------------


def test_fight_through_moves_up_to_5_inches_so_the_target_is_in_sight_within_10() -> None:
    """"Move the active unit up to 5" such that a target enemy unit is within line of sight and within 10""."""
    state = declared(duel((20.0, 15.0)), "fight_through", CAP)
    assert phase(state) == "fight_through"
    assert violations(state, UnitMoved(by="p1", unit=SAB, to=(8.0, 15.0))) == ["frontier/actions.fight_through"]
    assert violations(state, Passed(by="p1", step="move", unit=SAB)) == ["frontier/actions.fight_through"]
    state = legally(state, UnitMoved(by="p1", unit=SAB, to=(10.0, 15.0)))  # 5" moved, 10" to go: both "up to"
    assert phase(state) == "reaction"


def test_fight_through_is_named_when_no_5_inch_move_can_bring_the_target_within_10() -> None:
    assert violations(duel((25.0, 15.0)), ActionDeclared(by="p1", unit=SAB, action="fight_through", target=CAP)) == ["frontier/fight-through.range"]


def test_counter_attack_comes_after_the_first_move_and_needs_sight_within_10_inches() -> None:
    state = declared(duel((20.0, 15.0)), "fight_through", CAP)
    counter = ReactionDeclared(by="p2", unit=CAP, reaction="counter_attack")
    assert violations(state, counter) == ["frontier/turn.sequence"]
    state = legally(state, UnitMoved(by="p1", unit=SAB, to=(10.0, 15.0)))
    assert violations(state, counter) == []


def test_a_won_fight_through_shakes_the_target_and_the_unit_moves_up_to_5_more_inches() -> None:
    state = legally(declared(duel((14.0, 15.0)), "fight_through", CAP), Passed(by="p1", step="move", unit=SAB),
                    ReactionDeclared(by="p2", unit=CAP, reaction="counter_attack"), roll((6,), (3,)))
    assert unit(state, CAP).shaken and phase(state) == "fight_through_additional"
    state = legally(state, UnitMoved(by="p1", unit=SAB, to=(9.9, 15.0)))
    assert state.turn.seat == "p2"


def test_a_won_counter_attack_shakes_the_active_unit() -> None:
    state = legally(declared(duel((14.0, 15.0)), "fight_through", CAP), Passed(by="p1", step="move", unit=SAB),
                    ReactionDeclared(by="p2", unit=CAP, reaction="counter_attack"), roll((3,), (8,)))
    assert unit(state, SAB).shaken and not unit(state, CAP).shaken


def test_fall_back_is_the_targets_and_must_end_further_from_the_active_unit() -> None:
    state = legally(declared(duel((14.0, 15.0)), "fight_through", CAP), Passed(by="p1", step="move", unit=SAB),
                    ReactionDeclared(by="p2", unit=CAP, reaction="fall_back"), roll((1,), (7,)))
    assert phase(state) == "fall_back"
    assert violations(state, UnitMoved(by="p2", unit=CAP, to=(11.0, 15.0))) == ["frontier/reactions.fall_back"]
    state = legally(state, UnitMoved(by="p2", unit=CAP, to=(18.9, 15.0)))
    assert unit(state, CAP).at == (18.9, 15.0)


# --- Bug Out ------------------------------------------------------------------------------------------------


def test_bug_out_needs_an_evac_zone_within_10_inches() -> None:
    """Assault, defender on the south edge: the attacker's evac zones are the other three edges."""
    near = position(put("saboteur", (5, 15)), put("captain", (30, 25), side="p2"))
    assert violations(near, ActionDeclared(by="p1", unit=SAB, action="bug_out")) == []
    far = position(put("saboteur", (22, 15)), put("captain", (30, 25), side="p2"))
    assert violations(far, ActionDeclared(by="p1", unit=SAB, action="bug_out")) == ["frontier/bug-out.evac"]


def test_a_successful_bug_out_removes_the_unit_without_destroying_it() -> None:
    state = legally(duel((30.0, 25.0)), ActionDeclared(by="p1", unit=SAB, action="bug_out"), Passed(by="p2", step="reaction"))
    assert unit(state, SAB).status == "evacuated"
    assert R.ruleset.metrics(P, state)["attacker_destroyed"] == 0


def test_bug_out_allows_overwatch_and_counter_attack_against_the_leaving_unit() -> None:
    state = declared(duel((20.0, 15.0)), "bug_out")
    assert violations(state, ReactionDeclared(by="p2", unit=CAP, reaction="overwatch")) == []
    assert violations(state, ReactionDeclared(by="p2", unit=CAP, reaction="counter_attack")) == ["frontier/reactions.counter_attack"]
    close = declared(duel((12.0, 15.0)), "bug_out")
    assert violations(close, ReactionDeclared(by="p2", unit=CAP, reaction="counter_attack")) == []
    state = legally(close, ReactionDeclared(by="p2", unit=CAP, reaction="counter_attack"), roll((1,), (9,)))
    assert unit(state, SAB).status == "board" and unit(state, SAB).shaken


# --- Action roll and no reaction ----------------------------------------------------------------------------


def test_with_no_reaction_the_action_succeeds_without_dice() -> None:
    """"If there is no chosen reaction, the action automatically succeeds"."""
    state = legally(declared(duel(), "open_fire", CAP), Passed(by="p2", step="reaction"))
    assert R.ruleset.chance(P, state) is None
    assert violations(state, ActionRolled(active=(3,), reactive=(4,))) == ["frontier/action-roll.no-reaction"]


def test_dice_are_a_chance_step_once_a_reaction_is_chosen() -> None:
    state = legally(declared(duel(), "open_fire", CAP), ReactionDeclared(by="p2", unit=CAP, reaction="firefight"))
    outcomes = R.ruleset.chance(P, state)
    assert outcomes is not None and len(outcomes) == 6 * 6  # one D6 against one D6
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert R.ruleset.progress(P, state).actor is None


# --- Hazardous (Terrain Rules) --------------------------------------------------------------------------------


def test_a_unit_activated_in_hazardous_terrain_becomes_shaken() -> None:
    spill = block("spill", 3, 13, 7, 17, 0, (0, ("hazardous",)))
    state = declared(duel((20.0, 15.0), spill), "advance")
    assert unit(state, SAB).shaken


def test_a_shaken_unit_activated_in_hazardous_terrain_is_destroyed_and_the_turn_passes() -> None:
    spill = block("spill", 3, 13, 7, 17, 0, (0, ("hazardous",)))
    state = position(put("saboteur", (5.0, 15.0), shaken=True), put("captain", (20, 15), side="p2"), spill)
    state = declared(state, "advance")
    assert unit(state, SAB).status == "destroyed" and state.turn.seat == "p2"


def test_commandos_ignore_hazardous_terrain() -> None:
    spill = block("spill", 3, 13, 7, 17, 0, (0, ("hazardous",)))
    state = position(put("interstellar_commandos", (5.0, 15.0)), put("captain", (20, 15), side="p2"), spill)
    state = declared(state, "advance", unit_id="p1/interstellar_commandos-1")
    assert not unit(state, "p1/interstellar_commandos-1").shaken


def test_the_params_name_the_10_inch_thresholds() -> None:
    assert P.engagement_range == 10 and P.advance_move == 10 and P.short_move == 5


def test_a_reactor_destroyed_before_the_dice_leaves_the_action_to_succeed() -> None:
    """Flame Units used "at any point" on the reacting unit: no reaction is left to roll for."""
    state = position(put("colonial_exploration_team", (5, 15)), put("captain", (8, 15), side="p2", shaken=True), put("saboteur", (5, 25)))
    state = legally(state, ActionDeclared(by="p1", unit="p1/saboteur-1", action="advance"), ReactionDeclared(by="p2", unit=CAP, reaction="overwatch"))
    state = legally(state, AbilityUsed(by="p1", unit="p1/colonial_exploration_team-1", ability="flame_units", target=CAP))
    assert unit(state, CAP).status == "destroyed" and R.ruleset.chance(P, state) is None and phase(state) == "advance"
