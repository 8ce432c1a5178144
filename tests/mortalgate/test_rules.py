"""MortalGate's rules, passage by passage, through the public Ruleset functions."""

from __future__ import annotations

import pytest

from rulesets.mortalgate.events import (
    AbilityUsed,
    AltarCaptured,
    AttackDeclared,
    AttackRolled,
    HeroMoved,
    HeroRespawned,
    TurnStarted,
)
from rulesets.mortalgate.state import Timed, chance_to_hit, game_map, stats
from tests.mortalgate.scenario import (
    clearing,
    hero,
    play,
    position,
    rules,
    step,
    violations,
    with_hero,
)

R25 = rules("2.5")


def duel(r=R25, attacker="drexir", target="sabea", distance=1, direction=0, **turn):
    """Attacker in a clearing, target `distance` nodes away in one direction."""
    origin = clearing(r)
    return position(r, {attacker: origin, target: step(origin, direction, distance)}, turn=attacker, **turn), origin


def attack(state, attacker, target, tens, ones, r=R25, **claims):
    declared = AttackDeclared(seq=1, by=hero(state, attacker).seat, hero=attacker, target=target)
    assert violations(r, state, declared) == []
    state = play(r, state, declared)
    rolled = AttackRolled(seq=2, target=target, tens=tens, ones=ones, **claims)
    return state, rolled


# --- Determining a Hit -------------------------------------------------------------------


def test_chance_to_hit_is_75_plus_accuracy_minus_dodge_in_2_5() -> None:
    state, _ = duel()
    a, t = hero(state, "drexir"), hero(state, "sabea")
    expected = 75 + stats(R25.params, "drexir").accuracy - stats(R25.params, "sabea").dodge
    assert chance_to_hit(R25.params, state, a, t) == expected


def test_base_chance_was_50_before_2_1() -> None:
    r = rules("2.0")
    state, _ = duel(r)
    a, t = hero(state, "drexir"), hero(state, "sabea")
    assert chance_to_hit(r.params, state, a, t) == 50 + stats(r.params, "drexir").accuracy - stats(r.params, "sabea").dodge


def test_a_roll_equal_to_100_minus_chance_hits_and_one_below_misses() -> None:
    state, _ = duel()
    need = 100 - chance_to_hit(R25.params, state, hero(state, "drexir"), hero(state, "sabea"))
    health = hero(state, "sabea").health
    hit_state, hit = attack(state, "drexir", "sabea", need // 10, need % 10)
    after = play(R25, hit_state, hit)
    assert hero(after, "sabea").health == health - stats(R25.params, "drexir").damage
    miss_state, miss = attack(state, "drexir", "sabea", (need - 1) // 10, (need - 1) % 10)
    assert hero(play(R25, miss_state, miss), "sabea").health == health


def test_double_zero_reads_as_100_and_always_hits() -> None:
    state, _ = duel()
    state, rolled = attack(state, "drexir", "sabea", 0, 0)
    assert hero(play(R25, state, rolled), "sabea").health < hero(state, "sabea").health


def test_a_hit_claimed_on_a_low_roll_is_named_and_still_applied_as_played() -> None:
    state, _ = duel()
    state, rolled = attack(state, "drexir", "sabea", 0, 1, hit=True)
    assert "mortalgate/combat.hit" in violations(R25, state, rolled)
    assert hero(play(R25, state, rolled), "sabea").health < hero(state, "sabea").health


def test_wrong_damage_claimed_is_named() -> None:
    state, _ = duel()
    state, rolled = attack(state, "drexir", "sabea", 9, 9, damage=99)
    assert violations(R25, state, rolled) == ["mortalgate/combat.damage"]


def test_a_d10_showing_10_is_named() -> None:
    state, _ = duel()
    state, rolled = attack(state, "drexir", "sabea", 10, 0)
    assert "mortalgate/combat.dice" in violations(R25, state, rolled)


# --- Range, line of sight, one combat action -----------------------------------------


def test_an_attack_beyond_range_is_named() -> None:
    reach = stats(R25.params, "drexir").range
    state, _ = duel(distance=reach + 1)
    event = AttackDeclared(seq=1, by="red", hero="drexir", target="sabea")
    assert violations(R25, state, event) == ["mortalgate/combat.range"]


@pytest.mark.parametrize("direction", range(6))
def test_an_enemy_between_blocks_line_of_sight_but_an_ally_does_not(direction: int) -> None:
    origin = clearing(R25)
    between, target = step(origin, direction, 1), step(origin, direction, 2)
    blocked = position(R25, {"greven": origin, "yodan": between, "sabea": target}, turn="greven")
    event = AttackDeclared(seq=1, by="blue", hero="greven", target="sabea")
    # greven is blue: yodan (blue) is his ally, so sight is clear; make the blocker an enemy instead
    clear_state = position(R25, {"seiren": origin, "elazar": between, "sabea": target}, turn="seiren")
    shot = AttackDeclared(seq=1, by="red", hero="seiren", target="sabea")
    assert violations(R25, clear_state, shot) == []
    enemy_between = position(R25, {"seiren": origin, "zadita": between, "sabea": target}, turn="seiren")
    assert violations(R25, enemy_between, shot) == ["mortalgate/combat.line-of-sight"]
    assert "mortalgate/combat.line-of-sight" not in violations(R25, blocked, event)


def test_line_of_sight_is_not_required_before_2_1() -> None:
    r = rules("2.0")
    origin = clearing(r)
    state = position(r, {"seiren": origin, "zadita": step(origin, 0, 1), "sabea": step(origin, 0, 2)}, turn="seiren")
    assert violations(r, state, AttackDeclared(seq=1, by="red", hero="seiren", target="sabea")) == []


def test_a_second_combat_action_is_named() -> None:
    state, _ = duel()
    state, rolled = attack(state, "drexir", "sabea", 9, 9)
    state = play(R25, state, rolled)
    again = AttackDeclared(seq=3, by="red", hero="drexir", target="sabea")
    assert "mortalgate/combat.one-action" in violations(R25, state, again)


def test_moving_after_the_combat_phase_is_named() -> None:
    state, origin = duel(distance=2)
    state = play(R25, state, AbilityUsed(seq=1, by="red", hero="drexir", ability="shield_wall"))
    move = HeroMoved(seq=2, by="red", hero="drexir", path=(step(origin, 3),))
    assert "mortalgate/turn-sequence.phases" in violations(R25, state, move)


# --- Movement -----------------------------------------------------------------------------


def test_a_move_through_another_hero_is_named() -> None:
    state, origin = duel(distance=1)
    path = (step(origin, 0), step(origin, 0, 2))
    assert "mortalgate/movement.occupied" in violations(R25, state, HeroMoved(seq=1, by="red", hero="drexir", path=path))


def test_a_move_through_impassable_terrain_is_named() -> None:
    gmap = game_map(R25.params)
    wall = sorted(gmap.impassable)[len(gmap.impassable) // 2]
    from rulesets.mortalgate import board

    start = next(n for n in board.neighbours(wall) if n not in gmap.impassable)
    state = position(R25, {"drexir": start}, turn="drexir")
    assert "mortalgate/movement.impassable" in violations(R25, state, HeroMoved(seq=1, by="red", hero="drexir", path=(wall,)))


def test_moving_more_nodes_than_the_movement_attribute_is_named() -> None:
    origin = clearing(R25, radius=4)
    state = position(R25, {"drexir": step(origin, 3, 4)}, turn="drexir")
    movement = stats(R25.params, "drexir").movement
    path = tuple(step(origin, 3, 4 - i) for i in range(1, 5)) + tuple(step(origin, 0, i) for i in range(1, 5))
    path = path[: movement + 1]
    assert violations(R25, state, HeroMoved(seq=1, by="red", hero="drexir", path=path[:movement])) == []
    assert "mortalgate/movement.points" in violations(R25, state, HeroMoved(seq=1, by="red", hero="drexir", path=path))


def test_a_jump_of_two_nodes_is_named() -> None:
    state, origin = duel(distance=3)
    assert "mortalgate/movement.adjacent" in violations(R25, state, HeroMoved(seq=1, by="red", hero="drexir", path=(step(origin, 0, 2),)))


# --- Upkeep and status effects ------------------------------------------------------------------


def start_turn(state, name, r=R25):
    return play(r, state, TurnStarted(seq=9, by=hero(state, name).seat, hero=name))


def test_cooldowns_tick_down_at_the_start_of_the_heroes_turn() -> None:
    state, _ = duel()
    state = with_hero(state, "drexir", cooldowns=(("mighty_blow", 3), ("shield_wall", 1)))
    after = start_turn(state, "drexir")
    assert hero(after, "drexir").cooldowns == (("mighty_blow", 2),)


def test_burning_deals_1_and_spreads_to_adjacent_teammates_for_its_duration() -> None:
    origin = clearing(R25)
    state = position(R25, {"sabea": origin, "greven": step(origin, 1), "zadita": step(origin, 3, 3)}, turn="drexir")
    state = with_hero(state, "sabea", effects=(Timed("burning", 2),))
    full = {n: hero(state, n).health for n in ("sabea", "greven", "zadita")}
    once = start_turn(state, "sabea")
    assert hero(once, "sabea").health == full["sabea"] - 1
    assert hero(once, "greven").health == full["greven"] - 1
    assert hero(once, "zadita").health == full["zadita"]
    twice = start_turn(once, "sabea")
    assert hero(twice, "sabea").health == full["sabea"] - 2
    assert hero(twice, "sabea").effects == ()
    assert hero(start_turn(twice, "sabea"), "sabea").health == full["sabea"] - 2


def test_poison_deals_1_and_cuts_movement_by_2() -> None:
    state, origin = duel(distance=4)
    state = with_hero(state, "drexir", effects=(Timed("poisoned", 3),))
    after = start_turn(state, "drexir")
    assert hero(after, "drexir").health == stats(R25.params, "drexir").health - 1
    movement = stats(R25.params, "drexir").movement
    path = tuple(step(origin, 3, i) for i in range(1, movement - 1))
    assert violations(R25, after, HeroMoved(seq=10, by="red", hero="drexir", path=path)) == []
    longer = (*path, step(origin, 3, movement - 1))
    assert violations(R25, after, HeroMoved(seq=10, by="red", hero="drexir", path=longer)) == ["mortalgate/status.poison"]


def test_a_stunned_hero_can_neither_move_nor_attack_that_turn() -> None:
    state, origin = duel()
    state = start_turn(with_hero(state, "drexir", effects=(Timed("stunned", 1),)), "drexir")
    assert "mortalgate/status.stun" in violations(R25, state, HeroMoved(seq=10, by="red", hero="drexir", path=(step(origin, 3),)))
    assert "mortalgate/status.stun" in violations(R25, state, AttackDeclared(seq=10, by="red", hero="drexir", target="sabea"))
    assert hero(state, "drexir").effects == ()


# --- Death, respawn and Grace -------------------------------------------------------------------


def test_a_kill_gives_the_other_team_1_grace_and_clears_the_hero() -> None:
    state, _ = duel()
    state = with_hero(state, "sabea", health=1, cooldowns=(("ring_the_bell", 2),), effects=(Timed("burning", 1),))
    state, rolled = attack(state, "drexir", "sabea", 0, 0)
    after = play(R25, state, rolled)
    dead = hero(after, "sabea")
    assert (dead.alive, dead.node, dead.cooldowns, dead.effects) == (False, None, (), ())
    assert after.grace == (1, 0)


def test_a_slain_hero_respawns_at_its_spawn_at_full_health_on_its_next_turn() -> None:
    state, _ = duel()
    state = with_hero(state, "sabea", alive=False, node=None, health=0)
    state = start_turn(state, "sabea")
    spawn = game_map(R25.params).spawns["blue"]
    free = next(n for n in spawn if all(h.node != n for h in state.heroes))
    event = HeroRespawned(seq=10, by="blue", hero="sabea", node=free)
    assert violations(R25, state, event) == []
    after = play(R25, state, event)
    assert hero(after, "sabea").node == free and hero(after, "sabea").health == stats(R25.params, "sabea").health
    wrong = HeroRespawned(seq=10, by="blue", hero="sabea", node=game_map(R25.params).spawns["red"][0])
    assert "mortalgate/death.respawn" in violations(R25, state, wrong)


def test_a_hero_slain_by_poison_in_its_own_upkeep_returns_only_on_its_next_turn() -> None:
    """"At the beginning of that hero's next turn": dying in this turn's upkeep is not that."""
    state, _ = duel()
    state = with_hero(state, "sabea", health=1, effects=(Timed("poisoned", 3),))
    state = start_turn(state, "sabea")
    assert not hero(state, "sabea").alive
    spawn = game_map(R25.params).spawns["blue"]
    free = next(n for n in spawn if all(h.node != n for h in state.heroes))
    found = violations(R25, state, HeroRespawned(seq=10, by="blue", hero="sabea", node=free))
    assert found == ["mortalgate/death.respawn"]


def test_an_action_after_a_capture_is_named_once_by_the_capture_rule() -> None:
    """"Capturing an altar ends the hero's turn": one mistake, one finding (not also the phase order)."""
    state, origin = duel(phase="done")
    moved = HeroMoved(seq=10, by=hero(state, "drexir").seat, hero="drexir", path=(step(origin, 3),))
    assert violations(R25, state, moved) == ["mortalgate/altars.capture-ends-turn"]
    declared = AttackDeclared(seq=10, by=hero(state, "drexir").seat, hero="drexir", target="sabea")
    assert violations(R25, state, declared) == ["mortalgate/altars.capture-ends-turn"]


# --- Altars --------------------------------------------------------------------------------------


def altar_position(r=R25, contested_by=None, index=0):
    altar = game_map(r.params).altars[index]
    zone = sorted(altar.zone)
    at = {"drexir": zone[0]}
    if contested_by:
        at[contested_by] = zone[1]
    return position(r, at, turn="drexir"), altar


def test_capturing_an_uncontested_altar_gives_grace_and_ends_the_turn() -> None:
    state, altar = altar_position()
    event = AltarCaptured(seq=1, by="red", hero="drexir", altar=altar.id)
    assert violations(R25, state, event) == []
    after = play(R25, state, event)
    assert after.grace == (2, 0) and after.altars[0] == "red"
    assert "mortalgate/altars.capture-ends-turn" in violations(R25, after, AttackDeclared(seq=2, by="red", hero="drexir", target="sabea"))


def test_a_capture_was_worth_3_grace_before_2_5() -> None:
    r = rules("2.1")
    state, altar = altar_position(r)
    assert play(r, state, AltarCaptured(seq=1, by="red", hero="drexir", altar=altar.id)).grace == (3, 0)


def test_capturing_a_contested_altar_is_named() -> None:
    state, altar = altar_position(contested_by="sabea")
    assert violations(R25, state, AltarCaptured(seq=1, by="red", hero="drexir", altar=altar.id)) == ["mortalgate/altars.contested"]


def test_capturing_from_outside_the_zone_is_named() -> None:
    state, _ = duel()
    altar = game_map(R25.params).altars[0]
    assert "mortalgate/altars.zone" in violations(R25, state, AltarCaptured(seq=1, by="red", hero="drexir", altar=altar.id))


# --- Victory ------------------------------------------------------------------------------------


def test_twenty_grace_wins_in_2_5() -> None:
    state, _ = duel()
    from msgspec.structs import replace

    assert R25.ruleset.outcome(R25.params, replace(state, grace=(19, 0))) is None
    result = R25.ruleset.outcome(R25.params, replace(state, grace=(20, 3)))
    assert result is not None and result.winner == "red" and result.rule == "mortalgate/victory.grace"


def test_holding_all_altars_wins() -> None:
    state, _ = duel()
    from msgspec.structs import replace

    result = R25.ruleset.outcome(R25.params, replace(state, altars=("blue",) * 8))
    assert result is not None and result.winner == "blue" and result.rule == "mortalgate/victory.altars"


def test_slaying_every_enemy_before_any_respawns_wins() -> None:
    state, _ = duel()
    for name in ("sabea", "greven", "yodan", "zadita"):
        state = with_hero(state, name, alive=False, node=None, health=0)
    result = R25.ruleset.outcome(R25.params, state)
    assert result is not None and result.winner == "red" and result.rule == "mortalgate/victory.wipe"
