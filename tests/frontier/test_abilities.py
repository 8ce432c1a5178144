"""frontier.md, Factions: every unit's two abilities, through check, apply and chance.

"Active: An active ability may be used by a unit once per game. Passive: The effects and
abilities from passive abilities always apply to the unit."
"""

from __future__ import annotations

from rulesets.frontier.events import (
    AbilityUsed,
    ActionDeclared,
    DisciplineTested,
    NanitesRolled,
    Passed,
    ReactionDeclared,
    TokenMoved,
    UnitMoved,
)
from rulesets.frontier.state import Token
from tests.frontier.scenario import (
    P,
    R,
    block,
    dice,
    held,
    legally,
    phase,
    play,
    position,
    put,
    roll,
    unit,
    violations,
)

CAP = "p2/captain-1"
FAR = put("captain", (40, 28), side="p2")


def use(unit_id: str, ability: str, **fields: object) -> AbilityUsed:
    return AbilityUsed(by=unit_id.split("/")[0], unit=unit_id, ability=ability, **fields)  # type: ignore[arg-type]


def act(unit_id: str, action: str, target: str | None = None) -> ActionDeclared:
    return ActionDeclared(by=unit_id.split("/")[0], unit=unit_id, action=action, target=target)


def react(unit_id: str, reaction: str) -> ReactionDeclared:
    return ReactionDeclared(by=unit_id.split("/")[0], unit=unit_id, reaction=reaction)


def passes(seat: str, step: str, unit_id: str | None = None) -> Passed:
    return Passed(by=seat, step=step, unit=unit_id)


# --- Special Abilities in general ------------------------------------------------------------------


def test_an_active_ability_is_used_once_per_game() -> None:
    state = position(put("captain", (5, 15), side="p1"), FAR)
    state = legally(state, use("p1/captain-1", "ghost_field"))
    assert violations(state, use("p1/captain-1", "ghost_field")) == ["frontier/abilities.once-per-game"]


def test_a_passive_ability_always_applies_and_is_never_used() -> None:
    state = position(put("sentry_gun", (5, 15)), FAR)
    assert violations(state, use("p1/sentry_gun-1", "kill_zone")) == ["frontier/abilities.passive"]


def test_a_unit_uses_only_its_own_abilities_and_its_player_uses_them() -> None:
    state = position(put("saboteur", (5, 15)), FAR)
    assert violations(state, use("p1/saboteur-1", "ghost_field")) == ["frontier/abilities.unknown"]
    assert "frontier/abilities.owner" in violations(state, AbilityUsed(by="p2", unit="p1/saboteur-1", ability="minefield", points=((9, 15), (5, 20))))


# --- Colonial Government ---------------------------------------------------------------------------


def test_jump_packs_add_5_inches_and_the_move_ignores_terrain_and_units() -> None:
    wall = block("wall", 8, 0, 9, 30, 3)
    team = "p1/colonial_exploration_team-1"
    state = position(wall, put("colonial_exploration_team", (3, 15)), put("saboteur", (6, 15)), FAR)
    state = legally(state, use(team, "jump_packs"), act(team, "advance"), passes("p2", "reaction"))
    assert violations(state, UnitMoved(by="p1", unit=team, to=(17.9, 15))) == []
    assert violations(state, UnitMoved(by="p1", unit=team, to=(18.5, 15))) == ["frontier/movement.distance"]
    state = legally(state, UnitMoved(by="p1", unit=team, to=(17.9, 15)))
    assert "jump_packs" not in unit(state, team).primed  # "for that move"


def test_flame_units_shake_an_enemy_within_5_inches_at_any_point() -> None:
    team = "p1/colonial_exploration_team-1"
    state = position(put("colonial_exploration_team", (5, 15)), put("captain", (9, 15), side="p2"), active="p2")
    assert unit(legally(state, use(team, "flame_units", target=CAP)), CAP).shaken  # in the opponent's turn
    far = position(put("colonial_exploration_team", (5, 15)), put("captain", (11, 15), side="p2"))
    assert violations(far, use(team, "flame_units", target=CAP)) == ["frontier/abilities.flame_units"]


def test_inexorable_advance_gives_advantage_against_overwatch() -> None:
    synth = "p1/mk1_combat_synths-1"
    state = position(put("mk1_combat_synths", (5, 15)), put("captain", (20, 15), side="p2"))
    state = legally(state, act(synth, "advance"), react(CAP, "overwatch"))
    assert dice(state)[:2] == (2, 4)


def test_experimental_targeting_system_gives_advantage_on_the_next_firepower_roll_only() -> None:
    synth = "p1/mk1_combat_synths-1"
    state = position(put("mk1_combat_synths", (5, 15)), put("captain", (20, 15), side="p2"))
    state = legally(state, use(synth, "experimental_targeting_system"), act(synth, "open_fire", CAP), react(CAP, "take_cover"))
    assert dice(state)[:2] == (2, 10)
    assert "experimental_targeting_system" not in unit(play(state, roll((1, 2), (8,))), synth).primed


def test_crowd_suppression_gives_enemies_within_10_inches_disadvantage_on_discipline() -> None:
    state = position(put("peacekeepers", (12, 15)), put("saboteur", (5, 5)), put("captain", (20, 15), side="p2"))
    state = legally(state, act("p1/saboteur-1", "open_fire", CAP), react(CAP, "take_cover"))
    assert dice(state)[2:] == (2, 8)


def test_shock_tactics_give_advantage_on_assault_against_an_enemy_within_5_inches() -> None:
    keepers = "p1/peacekeepers-1"
    state = position(put("peacekeepers", (5, 15)), put("captain", (9, 15), side="p2"))
    state = legally(state, act(keepers, "fight_through", CAP), passes("p1", "move", keepers), react(CAP, "counter_attack"))
    assert dice(state)[:2] == (2, 10)


def test_kill_zone_the_sentry_gun_never_moves_and_has_advantage_on_overwatch() -> None:
    sentry = "p1/sentry_gun-1"
    state = position(put("sentry_gun", (5, 15)), put("captain", (20, 15), side="p2"))
    assert violations(state, act(sentry, "advance")) == ["frontier/abilities.kill_zone"]
    assert act(sentry, "advance") not in R.ruleset.legal(P, state)
    watch = position(put("sentry_gun", (5, 15)), put("captain", (20, 15), side="p2"), active="p2")
    watch = legally(watch, act(CAP, "advance"), react(sentry, "overwatch"))
    assert dice(watch)[2:] == (2, 10)


def test_override_safety_parameters_give_advantage_then_the_sentry_is_shaken() -> None:
    sentry = "p1/sentry_gun-1"
    state = position(put("sentry_gun", (5, 15)), put("captain", (20, 15), side="p2"))
    state = legally(state, use(sentry, "override_safety_parameters"), act(sentry, "open_fire", CAP), react(CAP, "take_cover"))
    assert dice(state)[:2] == (2, 10)
    after = play(state, roll((9, 3), (2,)))
    assert unit(after, CAP).shaken and unit(after, sentry).shaken


def test_knife_missile_shakes_an_enemy_within_5_inches_and_is_removed() -> None:
    stalker = "p1/stalker_team-1"
    state = position(put("stalker_team", (5, 15)), put("captain", (14, 15), side="p2"))
    assert violations(state, use(stalker, "knife_missile", points=((11, 15),))) == ["frontier/abilities.knife_missile"]
    state = legally(state, use(stalker, "knife_missile", points=((8, 15),)))
    token = next(t for t in state.tokens if t.kind == "knife_missile")
    assert not unit(state, CAP).shaken  # 6" away
    state = legally(play(state, passes("p1", "strategic")), act(stalker, "advance"), passes("p2", "reaction"), passes("p1", "move", stalker))
    state = legally(state, passes("p2", "strategic"), act(CAP, "advance"), passes("p1", "reaction"), passes("p2", "move", CAP))
    assert violations(state, TokenMoved(by="p1", token=token.id, to=(14, 15))) == ["frontier/abilities.knife_missile"]  # 6": up to 5"
    state = legally(state, TokenMoved(by="p1", token=token.id, to=(10, 15)))
    assert unit(state, CAP).shaken and not any(t.kind == "knife_missile" for t in state.tokens)


def test_ag_harness_counts_terrain_of_scale_3_or_less_as_scale_0_for_movement() -> None:
    tower = block("tower", 8, 10, 12, 20, 3)
    stalker = "p1/stalker_team-1"
    state = position(tower, put("stalker_team", (5, 15)), FAR)
    state = legally(state, act(stalker, "advance"), passes("p2", "reaction"))
    assert violations(state, UnitMoved(by="p1", unit=stalker, to=(14.9, 15))) == []
    assert violations(state, UnitMoved(by="p1", unit=stalker, to=(11.9, 15), level=3)) == []


def test_self_destruct_shakes_every_unit_within_5_inches_and_does_not_count_as_destroyed() -> None:
    drone = "p1/patrol_drone-1"
    state = position(put("patrol_drone", (5, 15)), put("saboteur", (8, 15)), put("captain", (9, 15), side="p2"), FAR)
    state = legally(state, use(drone, "self_destruct"))
    assert unit(state, "p1/saboteur-1").shaken and unit(state, CAP).shaken  # "including friendly units"
    assert unit(state, drone).status == "removed" and R.ruleset.metrics(P, state)["attacker_destroyed"] == 0


def test_a_flying_drone_passes_tokens_without_setting_them_off() -> None:
    mine = Token(id="mine-1", kind="mine", owner="p2", at=(10.0, 15.0))
    drone = "p1/patrol_drone-1"
    state = position(put("patrol_drone", (5, 15)), FAR, tokens=(mine,))
    state = legally(state, act(drone, "advance"), passes("p2", "reaction"), UnitMoved(by="p1", unit=drone, to=(14.9, 15)))
    assert not unit(state, drone).shaken and state.tokens == (mine,)


# --- Interstellar Raiders --------------------------------------------------------------------------------


def test_technological_horror_gives_enemies_within_10_inches_disadvantage_on_discipline() -> None:
    state = position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"), put("lobo", (20, 5), side="p2"), active="p2")
    state = legally(state, act(CAP, "open_fire", "p1/saboteur-1"), react("p1/saboteur-1", "take_cover"))
    assert dice(state)[2:] == (1, 6)  # the lobo is 18" away
    near = position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"), put("lobo", (12, 18), side="p2"), active="p2")
    near = legally(near, act(CAP, "open_fire", "p1/saboteur-1"), react("p1/saboteur-1", "take_cover"))
    assert dice(near)[2:] == (2, 6)


def test_pneumatic_leap_shakes_an_enemy_the_lobo_moves_into_base_contact_with() -> None:
    lobo = "p1/lobo-1"
    state = position(put("lobo", (5, 15)), put("captain", (12, 15), side="p2"))
    state = legally(state, act(lobo, "advance"), passes("p2", "reaction"), UnitMoved(by="p1", unit=lobo, to=(11.0, 15)))
    assert unit(state, CAP).shaken


def test_experimental_nanites_roll_a_d6_for_mobility_or_assault_advantage() -> None:
    doctor = "p1/ships_doctor-1"
    base = position(put("ships_doctor", (5, 15)), put("lobo", (8, 15)), FAR)
    state = legally(base, use(doctor, "experimental_nanites", target="p1/lobo-1"))
    outcomes = R.ruleset.chance(P, state)
    assert outcomes is not None and [e.value for e, _ in outcomes] == [1, 2, 3, 4, 5, 6]  # type: ignore[attr-defined]
    assert unit(legally(state, NanitesRolled(value=3)), "p1/lobo-1").nanites == "mobility"
    assert unit(legally(state, NanitesRolled(value=4)), "p1/lobo-1").nanites == "assault"
    assert violations(state, NanitesRolled(value=7)) == ["frontier/abilities.experimental_nanites"]
    assert violations(base, use(doctor, "experimental_nanites", target=CAP)) == ["frontier/abilities.experimental_nanites"]


def test_stim_packs_unshake_a_friend_within_5_inches_and_move_it_up_to_5() -> None:
    doctor = "p1/ships_doctor-1"
    state = position(put("ships_doctor", (5, 15)), put("lobo", (8, 15), shaken=True), FAR)
    state = legally(state, use(doctor, "stim_packs", target="p1/lobo-1"))
    assert not unit(state, "p1/lobo-1").shaken and phase(state) == "stim_packs"
    assert violations(state, UnitMoved(by="p1", unit="p1/lobo-1", to=(13.5, 15))) == ["frontier/movement.distance"]
    state = legally(state, UnitMoved(by="p1", unit="p1/lobo-1", to=(12.9, 15)))
    assert phase(state) == "action"  # step 2 follows


def test_repulsor_field_pushes_every_unit_within_5_inches_5_inches_away() -> None:
    captain = "p1/captain-1"
    state = position(put("captain", (10, 15), side="p1"), put("saboteur", (13, 15), side="p2"), put("lobo", (10, 11), side="p2"), FAR)
    state = legally(state, use(captain, "repulsor_field"))
    assert unit(state, "p2/saboteur-1").at == (18.0, 15.0) and unit(state, "p2/lobo-1").at == (10.0, 6.0)
    assert not unit(state, "p2/saboteur-1").shaken


def test_repulsor_field_shakes_a_unit_that_collides_with_terrain_of_its_scale() -> None:
    wall = block("wall", 15, 0, 16, 30, 1)
    captain = "p1/captain-1"
    state = position(wall, put("captain", (10, 15), side="p1"), put("saboteur", (13, 15), side="p2"), FAR)
    state = legally(state, use(captain, "repulsor_field"))
    pushed = unit(state, "p2/saboteur-1")
    assert pushed.shaken and pushed.at is not None and 14.9 < pushed.at[0] < 15.0


def test_an_enemy_pushed_off_a_roof_falls() -> None:
    roof = block("roof", 11, 10, 14, 20, 2)
    state = position(roof, put("captain", (10, 15), side="p1"), put("saboteur", (12, 15), side="p2", level=2), FAR)
    state = legally(state, use("p1/captain-1", "repulsor_field"))
    assert unit(state, "p2/saboteur-1").status == "destroyed"  # scale 1 drops 2


def test_ghost_field_gives_disadvantage_to_units_targeting_it_until_the_next_roll_resolves() -> None:
    state = position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"))
    state = legally(state, act("p1/saboteur-1", "open_fire", CAP), use(CAP, "ghost_field"), react(CAP, "take_cover"))
    assert dice(state)[:2] == (2, 6)
    assert not unit(play(state, roll((1, 2), (3,))), CAP).ghost


def test_keen_to_impress_fight_through_first_move_is_7_inches() -> None:
    breacher = "p1/breacher-1"
    state = position(put("breacher", (5, 15)), put("captain", (21, 15), side="p2"))
    state = legally(state, act(breacher, "fight_through", CAP))
    assert violations(state, UnitMoved(by="p1", unit=breacher, to=(11.9, 15))) == []
    assert violations(state, UnitMoved(by="p1", unit=breacher, to=(12.5, 15))) == ["frontier/movement.distance"]


def test_friendly_competition_gives_advantage_with_a_friendly_breacher_in_sight_within_10() -> None:
    state = position(put("breacher", (5, 15)), put("breacher", (5, 20), n=2), put("captain", (20, 15), side="p2"))
    state = legally(state, act("p1/breacher-1", "open_fire", CAP), react(CAP, "take_cover"))
    assert dice(state)[:2] == (2, 6)


def test_forward_maggots_move_friends_within_10_and_give_them_advantage_to_advance_this_turn() -> None:
    bosun = "p1/bosun-1"
    state = position(put("bosun", (5, 15)), put("breacher", (10, 15)), put("lobo", (30, 15)), put("captain", (20, 28), side="p2"))
    state = legally(state, use(bosun, "forward_maggots"))
    movers = [w.unit for w in state.turn.windows]
    assert movers == [bosun, "p1/breacher-1"]  # the lobo is 25" away
    state = legally(state, UnitMoved(by="p1", unit="p1/breacher-1", to=(14.9, 15)), passes("p1", "move", bosun))
    state = legally(state, act("p1/breacher-1", "advance"), react(CAP, "overwatch"))
    assert dice(state)[:2] == (2, 6)


def test_com_jammer_gives_enemies_within_20_inches_disadvantage_on_discipline() -> None:
    state = position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"), put("techy", (24, 15), side="p2"), active="p2")
    state = legally(state, act(CAP, "open_fire", "p1/saboteur-1"), react("p1/saboteur-1", "take_cover"))
    assert dice(state)[2:] == (2, 6)


def test_neural_trojan_tests_every_enemy_within_20_inches_on_4_or_higher() -> None:
    techy = "p1/techy-1"
    state = position(put("techy", (5, 15)), put("captain", (20, 15), side="p2"), put("lobo", (22, 20), side="p2"), put("breacher", (40, 28), side="p2"))
    state = legally(state, use(techy, "neural_trojan"))
    assert state.turn.tests == (CAP, "p2/lobo-1")  # the breacher is 36" away
    outcomes = R.ruleset.chance(P, state)
    assert outcomes is not None and {len(e.dice) for e, _ in outcomes} == {2}  # type: ignore[attr-defined]  # Com Jammer: disadvantage
    assert violations(state, DisciplineTested(unit=CAP, dice=(6, 3), passed=True)) == ["frontier/abilities.neural_trojan"]  # keeps the 3
    state = legally(state, DisciplineTested(unit=CAP, dice=(6, 3)))
    assert unit(state, CAP).shaken
    state = legally(state, DisciplineTested(unit="p2/lobo-1", dice=(4, 4)))  # the lobo's D4: both dice 4
    assert not unit(state, "p2/lobo-1").shaken and phase(state) == "action"


# --- Central Systems Marine Corp ------------------------------------------------------------------------


def test_targeting_assist_gives_advantage_reacting_to_a_designated_target() -> None:
    state = position(put("rifleman", (5, 15)), put("pathfinder", (5, 25)), put("captain", (20, 15), side="p2"),
                     designated=((CAP, "p1/pathfinder-1"),), active="p2")
    state = legally(state, act(CAP, "advance"), react("p1/rifleman-1", "overwatch"))
    assert dice(state)[2:] == (2, 6)


def test_active_camouflage_gives_disadvantage_to_firepower_against_the_unit() -> None:
    state = position(put("saboteur", (5, 15)), put("jaeger", (20, 15), side="p2"))
    state = legally(state, act("p1/saboteur-1", "open_fire", "p2/jaeger-1"), react("p2/jaeger-1", "firefight"))
    assert dice(state) == (2, 6, 1, 10)


def test_target_designator_needs_sight_and_lasts_while_the_pathfinder_is_on_the_table() -> None:
    pathfinder = "p1/pathfinder-1"
    wall = block("wall", 10, 0, 11, 30, 1)
    hidden = position(wall, put("pathfinder", (5, 15)), put("captain", (20, 15), side="p2"))
    assert violations(hidden, use(pathfinder, "target_designator", target=CAP)) == ["frontier/abilities.target_designator"]
    state = legally(position(put("pathfinder", (5, 15)), put("captain", (20, 15), side="p2")), use(pathfinder, "target_designator", target=CAP))
    assert "designated" in next(p for p in R.ruleset.view(P, state, None).pieces if p.id == CAP).badges
    gone = play(state, passes("p1", "strategic"), act(pathfinder, "bug_out"), passes("p2", "reaction"))
    assert "designated" not in next(p for p in R.ruleset.view(P, gone, None).pieces if p.id == CAP).badges


def test_smart_mortars_need_no_sight_of_a_designated_target() -> None:
    wall = block("wall", 10, 0, 11, 30, 1)
    specialist = "p1/specialist-1"
    plain = position(wall, put("specialist", (5, 15)), put("captain", (20, 15), side="p2"))
    assert violations(plain, act(specialist, "open_fire", CAP)) == ["frontier/open-fire.line-of-sight"]
    marked = position(wall, put("specialist", (5, 15)), put("pathfinder", (15, 5)), put("captain", (20, 15), side="p2"),
                      designated=((CAP, "p1/pathfinder-1"),))
    assert violations(marked, act(specialist, "open_fire", CAP)) == []


def test_autoguns_fire_once_more_at_another_unit_within_5_inches_of_the_first_target() -> None:
    specialist = "p1/specialist-1"
    state = position(put("specialist", (5, 15)), put("captain", (20, 15), side="p2"), put("lobo", (20, 19), side="p2"), put("breacher", (20, 25), side="p2"))
    state = legally(state, act(specialist, "open_fire", CAP), passes("p2", "reaction"))
    assert phase(state) == "autoguns"
    assert violations(state, act(specialist, "open_fire", "p2/breacher-1")) == ["frontier/abilities.autoguns"]  # 10" from the captain
    assert violations(state, act(specialist, "open_fire", CAP)) == ["frontier/abilities.autoguns"]
    state = legally(state, act(specialist, "open_fire", "p2/lobo-1"), passes("p2", "reaction"))
    assert unit(state, "p2/lobo-1").shaken and state.turn.seat == "p2"  # only the first open fire triggers it


def test_focus_fire_makes_another_unit_open_fire_at_a_designated_target_before_step_2() -> None:
    commander, rifleman = "p1/field_commander-1", "p1/rifleman-1"
    state = position(put("field_commander", (5, 15)), put("rifleman", (5, 20)), put("pathfinder", (5, 5)), put("captain", (20, 15), side="p2"),
                     put("lobo", (30, 28), side="p2"), designated=((CAP, "p1/pathfinder-1"),))
    assert violations(state, use(commander, "focus_fire", target="p2/lobo-1")) == ["frontier/abilities.focus_fire"]
    state = legally(state, use(commander, "focus_fire", target=CAP))
    assert violations(state, act(commander, "open_fire", CAP)) == ["frontier/abilities.focus_fire"]
    state = legally(state, act(rifleman, "open_fire", CAP), passes("p2", "reaction"))
    assert unit(state, CAP).shaken and state.turn.seat == "p1" and phase(state) == "action"


def test_inspiring_field_commander_lends_its_d12_discipline() -> None:
    state = position(put("aegis_unit", (5, 15)), put("field_commander", (5, 20)), put("captain", (20, 15), side="p2"), active="p2")
    state = legally(state, act(CAP, "open_fire", "p1/aegis_unit-1"), react("p1/aegis_unit-1", "take_cover"))
    assert dice(state)[3] == 12


def test_orbital_drop_holds_the_trooper_in_reserve_then_drops_it_anywhere_shaking_units_within_5() -> None:
    trooper = "p1/cap_trooper-1"
    reserve = held("cap_trooper", "orbital_drop")
    state = position(reserve, put("saboteur", (5, 15)), put("captain", (22, 15), side="p2"))
    state = legally(state, use(trooper, "orbital_drop", points=((20, 15),)))
    assert unit(state, trooper).status == "board" and unit(state, CAP).shaken
    state = legally(state, act(trooper, "advance"), react(CAP, "flank"))
    assert dice(state)[:2] == (2, 6)  # "disadvantage on all actions until the end of the controlling players turn"


def test_experimental_holtzmann_field_gives_advantage_when_targeted_by_open_fire() -> None:
    trooper = "p2/cap_trooper-1"
    state = position(put("saboteur", (5, 15)), put("cap_trooper", (20, 15), side="p2"))
    state = legally(state, act("p1/saboteur-1", "open_fire", trooper))
    assert violations(position(put("saboteur", (5, 15)), put("cap_trooper", (20, 15), side="p2")), use(trooper, "experimental_holtzmann_field")) == ["frontier/abilities.experimental_holtzmann_field"]
    state = legally(state, use(trooper, "experimental_holtzmann_field"), react(trooper, "take_cover"))
    assert dice(state)[2:] == (2, 10)


def test_countermeasures_give_open_fire_at_a_friend_within_10_inches_disadvantage() -> None:
    state = position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"), put("aegis_unit", (25, 15), side="p2"))
    state = legally(state, act("p1/saboteur-1", "open_fire", CAP), react(CAP, "take_cover"))
    assert dice(state)[:2] == (2, 6)


def test_holofield_makes_the_aegis_the_target_and_nullifies_an_action_that_becomes_invalid() -> None:
    aegis = "p2/aegis_unit-1"
    wall = block("wall", 24, 0, 25, 30, 1)
    state = position(wall, put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"), put("aegis_unit", (28, 15), side="p2"))
    state = legally(state, act("p1/saboteur-1", "open_fire", CAP), use(aegis, "holofield"))
    assert not unit(state, CAP).shaken and state.turn.seat == "p2"  # no sight of the AEGIS behind the wall: nullified
    seen = position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"), put("aegis_unit", (22, 22), side="p2"))
    seen = legally(seen, act("p1/saboteur-1", "open_fire", CAP), use(aegis, "holofield"), passes("p2", "reaction"))
    assert unit(seen, aegis).shaken and not unit(seen, CAP).shaken


# --- Rebels ---------------------------------------------------------------------------------------------


def test_harsh_terrain_training_ignores_rough_terrain() -> None:
    swamp = block("swamp", 3, 13, 7, 17, 0, (0, ("rough",)))
    commando = "p1/interstellar_commandos-1"
    state = position(swamp, put("interstellar_commandos", (5, 15)), put("captain", (20, 15), side="p2"))
    state = legally(state, act(commando, "advance"), react(CAP, "overwatch"))
    assert dice(state)[:2] == (1, 10)


def test_ambush_places_a_hidden_commando_within_15_inches_out_of_sight_with_assault_advantage() -> None:
    commando = "p1/interstellar_commandos-1"
    wall = block("wall", 10, 0, 11, 30, 1)
    state = position(wall, put("interstellar_commandos", (5, 15)), put("captain", (30, 15), side="p2"))
    assert violations(state, use(commando, "ambush", points=((15, 15),))) == ["frontier/abilities.ambush"]  # seen there
    state = legally(state, use(commando, "ambush", points=((8, 25),)))
    assert unit(state, commando).at == (8, 25)
    seen = position(put("interstellar_commandos", (5, 15)), put("captain", (30, 15), side="p2"))
    assert "frontier/abilities.ambush" in violations(seen, use(commando, "ambush", points=((8, 25),)))


def test_indigenous_adds_2_inches_to_every_move() -> None:
    insurgent = "p1/insurgent-1"
    state = position(put("insurgent", (5, 15)), FAR)
    state = legally(state, act(insurgent, "advance"), passes("p2", "reaction"))
    assert violations(state, UnitMoved(by="p1", unit=insurgent, to=(16.9, 15))) == []
    assert violations(state, UnitMoved(by="p1", unit=insurgent, to=(17.5, 15))) == ["frontier/movement.distance"]


def test_freedom_fighters_unshake_the_insurgent_at_any_point() -> None:
    insurgent = "p1/insurgent-1"
    assert violations(position(put("insurgent", (5, 15)), FAR), use(insurgent, "freedom_fighters")) == ["frontier/abilities.freedom_fighters"]
    state = legally(position(put("insurgent", (5, 15), shaken=True), FAR, active="p2"), use(insurgent, "freedom_fighters"))
    assert not unit(state, insurgent).shaken


def test_slalom_a_biker_that_takes_cover_successfully_must_move() -> None:
    biker = "p2/recon_biker-1"
    state = position(put("saboteur", (5, 15)), put("recon_biker", (20, 15), side="p2"))
    state = legally(state, act("p1/saboteur-1", "open_fire", biker), react(biker, "take_cover"), roll((1,), (5,)))
    assert phase(state) == "slalom"
    assert violations(state, passes("p2", "move", biker)) == ["frontier/abilities.slalom"]
    state = legally(state, UnitMoved(by="p2", unit=biker, to=(20, 25)))  # up to 5" + 5" (Need for Speed)
    assert state.turn.seat == "p2"


def test_need_for_speed_adds_5_inches_but_the_biker_may_not_climb() -> None:
    biker = "p1/recon_biker-1"
    wall = block("wall", 10, 0, 11, 30, 1)
    state = position(put("recon_biker", (5, 15)), FAR)
    state = legally(state, act(biker, "advance"), passes("p2", "reaction"))
    assert violations(state, UnitMoved(by="p1", unit=biker, to=(19.9, 15))) == []
    walled = legally(position(wall, put("recon_biker", (5, 15)), FAR), act(biker, "advance"), passes("p2", "reaction"))
    assert violations(walled, UnitMoved(by="p1", unit=biker, to=(15, 15))) == ["frontier/abilities.need_for_speed"]


def test_escape_plan_gives_fall_back_advantage_and_5_more_inches() -> None:
    jaeger = "p2/jaeger-1"
    state = position(put("captain", (5, 15), side="p1"), put("jaeger", (12, 15), side="p2"))
    state = legally(state, act("p1/captain-1", "fight_through", jaeger), passes("p1", "move", "p1/captain-1"),
                    react(jaeger, "fall_back"), use(jaeger, "escape_plan"))
    assert dice(state)[2:] == (2, 6)
    state = legally(state, roll((2,), (5, 1)))
    assert violations(state, UnitMoved(by="p2", unit=jaeger, to=(21.9, 15))) == []  # 9.9": 5" + 5"


def test_unscheduled_demolition_shakes_the_active_unit_after_a_successful_fall_back() -> None:
    saboteur = "p2/saboteur-1"
    state = position(put("captain", (5, 15), side="p1"), put("saboteur", (12, 15), side="p2"))
    state = legally(state, act("p1/captain-1", "fight_through", saboteur), passes("p1", "move", "p1/captain-1"),
                    react(saboteur, "fall_back"), roll((2,), (5,)), UnitMoved(by="p2", unit=saboteur, to=(16.9, 15)))
    assert phase(state) == "demolition"
    state = legally(state, use(saboteur, "unscheduled_demolition"))
    assert unit(state, "p1/captain-1").shaken and state.turn.seat == "p2"


def test_minefield_places_two_markers_that_shake_the_first_enemy_within_5_inches() -> None:
    saboteur = "p1/saboteur-1"
    state = position(put("saboteur", (5, 15)), put("captain", (18, 15), side="p2"), active="p1")
    assert violations(state, use(saboteur, "minefield", points=((11, 15), (13, 15)))) == ["frontier/abilities.minefield"]  # 2" apart
    assert violations(state, use(saboteur, "minefield", points=((11, 15), (14.5, 15)))) == ["frontier/abilities.minefield"] * 2  # and 3.5" from the captain
    assert violations(state, use(saboteur, "minefield", points=((11, 15), (17, 24)))) == ["frontier/abilities.minefield"]  # not within 10"
    state = legally(state, use(saboteur, "minefield", points=((11, 15), (5, 23))))
    state = legally(state, act(saboteur, "advance"), passes("p2", "reaction"), passes("p1", "move", saboteur))
    state = legally(state, act(CAP, "advance"), passes("p1", "reaction"), UnitMoved(by="p2", unit=CAP, to=(15, 15)))
    assert unit(state, CAP).shaken and len([t for t in state.tokens if t.kind == "mine"]) == 1


def test_infiltration_deploys_the_conspirator_at_one_of_its_tokens() -> None:
    conspirator = "p1/conspirator-1"
    tokens = tuple(Token(id=f"{conspirator}:token-{i}", kind="infiltration", owner="p1", at=at) for i, at in enumerate(((20.0, 10.0), (30.0, 20.0), (10.0, 25.0)), 1))
    reserve = held("conspirator", "infiltration")
    state = position(reserve, put("saboteur", (5, 5)), FAR, tokens=tokens)
    assert violations(state, use(conspirator, "infiltration", points=((21.0, 10.0),))) == ["frontier/abilities.infiltration"]
    state = legally(state, use(conspirator, "infiltration", points=((30.0, 20.0),)))
    assert unit(state, conspirator).at == (30.0, 20.0) and not state.tokens


def test_the_conspirators_self_destruct_is_not_a_loss() -> None:
    conspirator = "p1/conspirator-1"
    state = legally(position(put("conspirator", (5, 15)), put("captain", (9, 15), side="p2"), FAR), use(conspirator, "self_destruct"))
    assert unit(state, CAP).shaken and unit(state, conspirator).status == "removed"
