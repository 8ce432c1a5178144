"""All 16 hero abilities and the 8 blessings, as "Our Heroes and Abilities" and
"Blessing Types" write them."""

from __future__ import annotations

import msgspec
import pytest

from rulesets.mortalgate import board
from rulesets.mortalgate.events import AbilityUsed, AttackDeclared, AttackRolled, TurnStarted
from rulesets.mortalgate.state import Timed, chance_to_hit, game_map, movement_allowance, stats
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

R = rules("2.5")


def cast(state, caster, ability, target=None):
    event = AbilityUsed(seq=1, by=hero(state, caster).seat, hero=caster, ability=ability, target=target)
    assert violations(R, state, event) == []
    return play(R, state, event)


def near(caster, target, distance=1, direction=0, **more):
    origin = clearing(R)
    at = {caster: origin, target: step(origin, direction, distance), **{k: step(origin, *v) for k, v in more.items()}}
    return position(R, at, turn=caster)


def health(state, name):
    return hero(state, name).health


def base(name):
    return stats(R.params, name).damage


def test_long_shot_attacks_at_base_range_plus_3_with_a_roll() -> None:
    reach = stats(R.params, "greven").range + 3
    state = near("greven", "drexir", distance=reach)
    assert "mortalgate/combat.range" in violations(R, state, AttackDeclared(seq=1, by="blue", hero="greven", target="drexir"))
    state = cast(state, "greven", "long_shot", "drexir")
    assert state.turn.pending and state.turn.pending[0].kind == "long_shot"
    after = play(R, state, AttackRolled(seq=2, target="drexir", tens=0, ones=0))
    assert health(after, "drexir") == health(state, "drexir") - base("greven")
    assert hero(after, "greven").cooldowns == (("long_shot", 2),)
    too_far = near("greven", "drexir", distance=reach + 1)
    assert "mortalgate/combat.range" in violations(R, too_far, AbilityUsed(seq=1, by="blue", hero="greven", ability="long_shot", target="drexir"))


def test_explosive_shot_deals_base_damage_plus_2_without_a_roll() -> None:
    state = near("greven", "drexir", distance=3)
    after = cast(state, "greven", "explosive_shot", "drexir")
    assert health(after, "drexir") == health(state, "drexir") - base("greven") - 2
    assert after.turn.pending == ()


@pytest.mark.parametrize(("caster", "ability", "reach"), [("seiren", "full_draw", 3), ("yodan", "life_ward", 2)])
def test_heals_restore_4_health_capped_at_maximum(caster: str, ability: str, reach: int) -> None:
    ally = "drexir" if caster == "seiren" else "sabea"
    state = near(caster, ally, distance=reach)
    wounded = with_hero(state, ally, health=stats(R.params, ally).health - 5)
    assert health(cast(wounded, caster, ability, ally), ally) == stats(R.params, ally).health - 1
    scratched = with_hero(state, ally, health=stats(R.params, ally).health - 1)
    assert health(cast(scratched, caster, ability, ally), ally) == stats(R.params, ally).health
    far = near(caster, ally, distance=reach + 1)
    assert "mortalgate/combat.range" in violations(R, far, AbilityUsed(seq=1, by=hero(far, caster).seat, hero=caster, ability=ability, target=ally))


def test_a_heal_cannot_target_an_enemy() -> None:
    state = near("seiren", "sabea", distance=2)
    assert violations(R, state, AbilityUsed(seq=1, by="red", hero="seiren", ability="full_draw", target="sabea")) == ["mortalgate/abilities.heals"]


def test_precision_targeting_adds_1_damage_for_her_next_3_turns() -> None:
    state = near("seiren", "sabea", distance=2)
    state = cast(state, "seiren", "precision_targeting")
    damages = []
    for turn in range(4):
        state = play(R, state, TurnStarted(seq=10 + turn, by="red", hero="seiren"))
        declared = play(R, state, AttackDeclared(seq=20, by="red", hero="seiren", target="sabea"))
        hit = play(R, declared, AttackRolled(seq=21, target="sabea", tens=0, ones=0))
        damages.append(health(state, "sabea") - health(hit, "sabea"))
    assert damages == [base("seiren") + 1] * 3 + [base("seiren")]


def test_chain_lightning_spreads_through_adjacent_enemies_only() -> None:
    origin = clearing(R)
    target = step(origin, 0, 2)
    chained = step(target, 1)
    further = step(chained, 1)
    ally_of_caster = step(target, 4)
    state = position(R, {"elazar": origin, "sabea": target, "greven": chained, "yodan": further, "drexir": ally_of_caster,
                         "zadita": step(origin, 3, 4)}, turn="elazar")
    after = cast(state, "elazar", "chain_lightning", "sabea")
    for name in ("sabea", "greven", "yodan"):
        assert health(after, name) == health(state, name) - base("elazar")
    assert health(after, "zadita") == health(state, "zadita")
    assert health(after, "drexir") == health(state, "drexir")


def test_static_charge_adds_1_damage_to_the_next_two_basic_attacks() -> None:
    state = near("elazar", "sabea", distance=2)
    state = cast(state, "elazar", "static_charge")
    losses = []
    for _turn in range(3):
        state = play(R, state, TurnStarted(seq=10, by="red", hero="elazar"))
        state = play(R, state, AttackDeclared(seq=11, by="red", hero="elazar", target="sabea"))
        before = health(state, "sabea")
        state = play(R, state, AttackRolled(seq=12, target="sabea", tens=0, ones=0))
        losses.append(before - health(state, "sabea"))
        state = with_hero(state, "sabea", health=stats(R.params, "sabea").health)
    assert losses == [base("elazar") + 1, base("elazar") + 1, base("elazar")]


def test_blistering_pain_deals_3_and_burns_for_2_turns() -> None:
    state = near("yodan", "drexir", distance=2)
    after = cast(state, "yodan", "blistering_pain", "drexir")
    assert health(after, "drexir") == health(state, "drexir") - 3
    assert hero(after, "drexir").effects == (Timed("burning", 2),)


def test_mighty_blow_deals_base_plus_2_at_range_1() -> None:
    state = near("drexir", "sabea")
    assert health(cast(state, "drexir", "mighty_blow", "sabea"), "sabea") == health(state, "sabea") - base("drexir") - 2


def test_shield_wall_blocks_all_damage_until_drexirs_next_turn() -> None:
    state = near("drexir", "sabea")
    state = cast(state, "drexir", "shield_wall")
    state = play(R, state, TurnStarted(seq=2, by="blue", hero="sabea"))
    hit = play(R, state, AbilityUsed(seq=3, by="blue", hero="sabea", ability="rising_winds"))
    assert health(hit, "drexir") == health(state, "drexir")
    unshielded = play(R, hit, TurnStarted(seq=4, by="red", hero="drexir"))
    assert hero(unshielded, "drexir").shield_wall is False


def test_rising_winds_hits_every_adjacent_enemy_but_no_ally() -> None:
    origin = clearing(R)
    state = position(R, {"sabea": origin, "drexir": step(origin, 0), "seiren": step(origin, 2), "greven": step(origin, 4),
                         "elazar": step(origin, 0, 3)}, turn="sabea")
    after = cast(state, "sabea", "rising_winds")
    assert health(after, "drexir") == health(state, "drexir") - base("sabea")
    assert health(after, "seiren") == health(state, "seiren") - base("sabea")
    assert health(after, "greven") == health(state, "greven")
    assert health(after, "elazar") == health(state, "elazar")


def test_ring_the_bell_stuns_for_one_turn() -> None:
    state = near("sabea", "drexir")
    assert hero(cast(state, "sabea", "ring_the_bell", "drexir"), "drexir").effects == (Timed("stunned", 1),)


def test_infected_wounds_poisons_for_3_turns() -> None:
    state = near("dekhar", "sabea")
    assert hero(cast(state, "dekhar", "infected_wounds", "sabea"), "sabea").effects == (Timed("poisoned", 3),)


def test_cheap_shot_rolls_one_attack_on_each_adjacent_enemy() -> None:
    origin = clearing(R)
    state = position(R, {"dekhar": origin, "sabea": step(origin, 0), "greven": step(origin, 3), "yodan": step(origin, 0, 2)}, turn="dekhar")
    after = cast(state, "dekhar", "cheap_shot")
    assert sorted(p.target for p in after.turn.pending) == ["greven", "sabea"]
    assert "mortalgate/combat.dice" in violations(R, after, AttackRolled(seq=2, target="yodan", tens=0, ones=0))


def test_quick_blade_allows_two_basic_attacks() -> None:
    state = near("zadita", "drexir")
    state = cast(state, "zadita", "quick_blade")
    for seq in (2, 4):
        attack = AttackDeclared(seq=seq, by="blue", hero="zadita", target="drexir")
        assert violations(R, state, attack) == []
        state = play(R, state, attack, AttackRolled(seq=seq + 1, target="drexir", tens=9, ones=9))
    assert "mortalgate/combat.one-action" in violations(R, state, AttackDeclared(seq=6, by="blue", hero="zadita", target="drexir"))


def test_mercy_killing_slays_a_target_under_4_health_only() -> None:
    state = near("zadita", "drexir")
    assert hero(cast(with_hero(state, "drexir", health=3), "zadita", "mercy_killing", "drexir"), "drexir").alive is False
    assert hero(cast(with_hero(state, "drexir", health=4), "zadita", "mercy_killing", "drexir"), "drexir").health == 4


def test_an_ability_on_cooldown_is_named() -> None:
    state = with_hero(near("drexir", "sabea"), "drexir", cooldowns=(("mighty_blow", 1),))
    assert "mortalgate/abilities.cooldown" in violations(R, state, AbilityUsed(seq=1, by="red", hero="drexir", ability="mighty_blow", target="sabea"))


def test_a_hero_cannot_use_another_heros_ability() -> None:
    state = near("drexir", "sabea")
    assert "mortalgate/abilities.unknown" in violations(R, state, AbilityUsed(seq=1, by="red", hero="drexir", ability="quick_blade"))


# --- Blessings (2.5: one per altar, held by the team that holds the altar) ---------------------


def holding(state, blessing, team):
    altars = game_map(R.params).altars
    owners = tuple(team if a.blessing == blessing else None for a in altars)
    assert team in owners, f"no altar carries {blessing}"
    return msgspec.structs.replace(state, altars=owners)


def test_pinpoint_adds_5_and_evasive_takes_10_from_the_chance_to_hit() -> None:
    state = near("drexir", "sabea")
    plain = chance_to_hit(R.params, state, hero(state, "drexir"), hero(state, "sabea"))
    assert chance_to_hit(R.params, holding(state, "pinpoint", "red"), hero(state, "drexir"), hero(state, "sabea")) == plain + 5
    assert chance_to_hit(R.params, holding(state, "evasive", "blue"), hero(state, "drexir"), hero(state, "sabea")) == plain - 10


@pytest.mark.parametrize(("blessing", "team", "delta"), [("forceful", "red", 1), ("divine_shield", "blue", -1)])
def test_forceful_and_divine_shield_change_basic_attack_damage(blessing: str, team: str, delta: int) -> None:
    state = holding(near("drexir", "sabea"), blessing, team)
    state = play(R, state, AttackDeclared(seq=1, by="red", hero="drexir", target="sabea"))
    after = play(R, state, AttackRolled(seq=2, target="sabea", tens=0, ones=0))
    assert health(state, "sabea") - health(after, "sabea") == base("drexir") + delta


def test_sprint_adds_1_movement() -> None:
    state = near("drexir", "sabea", distance=3)
    turn = state.turn
    assert movement_allowance(R.params, holding(state, "sprint", "red"), hero(state, "drexir"), turn) == stats(R.params, "drexir").movement + 1


def test_leech_heals_the_attacker_1_on_a_hit_within_maximum() -> None:
    state = with_hero(holding(near("drexir", "sabea"), "leech", "red"), "drexir", health=5)
    state = play(R, state, AttackDeclared(seq=1, by="red", hero="drexir", target="sabea"), AttackRolled(seq=2, target="sabea", tens=0, ones=0))
    assert health(state, "drexir") == 6


@pytest.mark.parametrize("blessing", ["splinter", "shockwave"])
def test_splinter_and_shockwave_hit_the_enemies_on_their_nodes(blessing: str) -> None:
    origin = clearing(R)
    target = step(origin, 0, 2)
    nodes = board.splinter_nodes(origin, target) if blessing == "splinter" else board.shockwave_nodes(origin, target)
    at = {"seiren": origin, "sabea": target, "greven": nodes[0], "yodan": nodes[1]}
    state = holding(position(R, at, turn="seiren"), blessing, "red")
    state = play(R, state, AttackDeclared(seq=1, by="red", hero="seiren", target="sabea"))
    after = play(R, state, AttackRolled(seq=2, target="sabea", tens=0, ones=0))
    for name in ("sabea", "greven", "yodan"):
        assert health(after, name) == health(state, name) - base("seiren"), name


def test_losing_the_altar_loses_its_blessing() -> None:
    state = near("drexir", "sabea")
    held = holding(state, "pinpoint", "red")
    lost = holding(state, "pinpoint", "blue")
    drexir, sabea = hero(state, "drexir"), hero(state, "sabea")
    assert chance_to_hit(R.params, lost, drexir, sabea) == chance_to_hit(R.params, held, drexir, sabea) - 5
