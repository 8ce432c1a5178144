"""Action Phase, passage by passage: abilities before movement, movement by rarity in one
orthogonal direction, no overlapping, trampling one's own, simultaneous combat (the 2/2
against the 3/2, the 3x3 heroic against two), the victor finishing its movement, and the
1 hp of buildings and workers."""

from __future__ import annotations

from rulesets.mercyfrontier.events import AbilityUsed, CombatResolved, MercenaryMoved, StepFinished
from rulesets.mercyfrontier.state import Building
from tests.mercyfrontier.scenario import (
    health_of,
    legal,
    merc_at,
    messages,
    play,
    position,
    violations,
)


def move(card: str, direction: str, spaces: int, by: str = "orange", trample: tuple[str, ...] = ()) -> MercenaryMoved:
    return MercenaryMoved(seq=30, by=by, card=card, direction=direction, spaces=spaces, trample=trample)  # type: ignore[arg-type]


def combat_of(state) -> CombatResolved:  # type: ignore[no-untyped-def]
    """The one combat event `legal` offers."""
    (event,) = [e for e in legal(state) if isinstance(e, CombatResolved)]
    return event


# --- movement by rarity (Movement 2.a) ------------------------------------------------------------


def test_common_heroic_and_legendary_move_2_3_and_4_spaces() -> None:
    state = position(mercs={"raider-1": ("orange", (0, 10)), "warden-1": ("orange", (3, 9)), "juggernaut-1": ("orange", (7, 10))})
    assert violations(state, move("raider-1", "north", 2)) == []
    assert violations(state, move("raider-1", "north", 3)) == ["mercyfrontier/action.rarity"]
    assert violations(state, move("warden-1", "north", 3)) == []
    assert violations(state, move("warden-1", "north", 4)) == ["mercyfrontier/action.rarity"]
    assert violations(state, move("juggernaut-1", "north", 4)) == []
    assert violations(state, move("juggernaut-1", "north", 5)) == ["mercyfrontier/action.rarity"]


def test_sprint_adds_a_space_and_a_mercenary_moves_once() -> None:
    state = position(mercs={"scout-1": ("orange", (0, 10))})
    assert violations(state, move("scout-1", "north", 3)) == []
    after = play(state, move("scout-1", "north", 1))
    assert merc_at(after, "scout-1") == (0, 9)
    assert violations(after, move("scout-1", "north", 1)) == ["mercyfrontier/action.once"]


def test_a_move_may_not_leave_the_board() -> None:
    state = position(mercs={"raider-1": ("orange", (0, 10))})
    assert violations(state, move("raider-1", "west", 1)) == ["mercyfrontier/action.board"]


def test_only_ones_own_placed_mercenaries_move_and_only_in_ones_action_phase() -> None:
    state = position(mercs={"raider-1": ("yellow", (0, 5)), "brute-1": ("orange", (4, 9))})
    assert violations(state, move("raider-1", "south", 1)) == ["mercyfrontier/action.card"]
    assert violations(state, move("brute-1", "north", 1, by="yellow")) == ["mercyfrontier/turn.priority", "mercyfrontier/action.card"]
    assert "mercyfrontier/turn.priority" in violations(state, move("raider-1", "south", 1, by="yellow"))
    building = position(phase="building", mercs={"brute-1": ("orange", (4, 9))})
    assert violations(building, move("brute-1", "north", 1)) == ["mercyfrontier/turn.phase"]


# --- no overlapping, trampling (Movement 2.b) ---------------------------------------------------------


def test_an_own_mercenary_in_front_blocks_the_move() -> None:
    state = position(mercs={"raider-1": ("orange", (4, 10)), "militia-1": ("orange", (4, 9))})
    assert violations(state, move("raider-1", "north", 2)) == ["mercyfrontier/action.no-overlap"]
    assert "cannot overlap unless it tramples" in messages(state, move("raider-1", "north", 2))[0]
    assert violations(state, move("raider-1", "east", 2)) == []


def test_trampling_destroys_the_own_mercenary_and_the_trampler_moves_on() -> None:
    state = position(mercs={"raider-1": ("orange", (4, 10)), "militia-1": ("orange", (4, 9))})
    event = move("raider-1", "north", 2, trample=("militia-1",))
    assert violations(state, event) == []
    after = play(state, event)
    assert merc_at(after, "raider-1") == (4, 8)
    assert merc_at(after, "militia-1") is None and "militia-1" in after.discard


def test_only_an_own_mercenary_in_the_way_can_be_trampled() -> None:
    state = position(mercs={"raider-1": ("orange", (4, 10)), "militia-1": ("orange", (0, 9)), "brute-1": ("yellow", (4, 7))})
    assert violations(state, move("raider-1", "north", 1, trample=("militia-1",))) == ["mercyfrontier/action.trample"]


def test_a_legal_trample_is_offered_when_an_own_token_is_in_the_way() -> None:
    state = position(mercs={"raider-1": ("orange", (4, 10)), "militia-1": ("orange", (4, 9))})
    offered = [e for e in legal(state) if isinstance(e, MercenaryMoved) and e.card == "raider-1" and e.direction == "north"]
    assert [(e.spaces, e.trample) for e in offered] == [(1, ("militia-1",)), (2, ("militia-1",))]


# --- combat (Combat 3) -------------------------------------------------------------------------------------


def test_a_2_2_and_a_3_2_defeat_each_other_whoever_initiates() -> None:
    """Combat 3.b.iii: "a mercenary with 2 attack and 2 health and a mercenary with 3 attack and
    2 health will defeat each other in combat, no matter who was the initiator"."""
    for attacker, defender, owner in (("raider-1", "brute-1", "orange"), ("brute-1", "raider-1", "orange")):
        state = position(mercs={attacker: (owner, (4, 10)), defender: ("yellow", (4, 7))})
        after = play(state, move(attacker, "north", 2))
        assert merc_at(after, attacker) == (4, 8)
        combat = combat_of(after)
        assert (combat.attacker, combat.defenders) == (attacker, (defender,))
        assert dict(combat.damage) == {attacker: 3 if attacker == "raider-1" else 2, defender: 2 if attacker == "raider-1" else 3}
        done = play(after, combat)
        assert health_of(done, attacker) is None and health_of(done, defender) is None
        assert {attacker, defender} <= set(done.discard)


def test_a_3x3_heroic_fights_two_enemies_at_once() -> None:
    """Combat 3.b.iv: the heroic's damage to BOTH enemies, their damage combined on it."""
    state = position(mercs={"warden-1": ("orange", (3, 9)), "raider-1": ("yellow", (3, 7)), "brute-1": ("yellow", (5, 7))})
    after = play(state, move("warden-1", "north", 1))
    combat = combat_of(after)
    assert combat.defenders == ("brute-1", "raider-1")
    # the Warden (2 attack, 7 health, armor) deals 2 to each; takes 3 + 2 less 1 armor per hit
    assert dict(combat.damage) == {"warden-1": 3, "raider-1": 2, "brute-1": 2}
    done = play(after, combat)
    assert health_of(done, "warden-1") == 4
    assert health_of(done, "raider-1") is None and health_of(done, "brute-1") is None


def test_the_audit_names_damage_that_was_not_simultaneous() -> None:
    state = play(position(mercs={"raider-1": ("orange", (4, 10)), "brute-1": ("yellow", (4, 7))}), move("raider-1", "north", 2))
    wrong = CombatResolved(seq=31, attacker="raider-1", defenders=("brute-1",), damage=(("brute-1", 2),))
    assert violations(state, wrong) == ["mercyfrontier/combat.simultaneous"]
    assert "raider-1 takes 3" in messages(state, wrong)[0]


def test_combat_comes_before_anything_else_and_a_move_stops_at_contact() -> None:
    state = position(mercs={"raider-1": ("orange", (4, 10)), "brute-1": ("yellow", (4, 8)), "militia-1": ("orange", (0, 10))})
    assert violations(state, move("raider-1", "north", 2)) == ["mercyfrontier/action.no-overlap"]
    after = play(state, move("raider-1", "north", 1))
    assert violations(after, move("militia-1", "north", 1)) == ["mercyfrontier/turn.pending"]


def test_the_victor_finishes_its_movement_from_the_6th_play_test() -> None:
    """Combat 3.c and the 6th play test; before it the victor stops."""
    state = position(mercs={"juggernaut-1": ("orange", (4, 10)), "militia-1": ("yellow", (4, 8))})
    fought = play(state, move("juggernaut-1", "north", 1))
    won = play(fought, combat_of(fought))
    assert health_of(won, "militia-1") is None
    onward = move("juggernaut-1", "north", 3)
    assert violations(won, onward) == []
    assert violations(won, move("juggernaut-1", "north", 4)) == ["mercyfrontier/action.rarity"]
    assert violations(won, move("juggernaut-1", "east", 1)) == ["mercyfrontier/action.direction"]
    old = position("playtest-4", mercs={"juggernaut-1": ("orange", (4, 10)), "militia-1": ("yellow", (4, 8))}, uncovered={(1, 3): "barren-1"})
    old_won = play(play(old, move("juggernaut-1", "north", 1), version="playtest-4"), combat_of(fought), version="playtest-4")
    assert violations(old_won, onward, "playtest-4") == ["mercyfrontier/combat.victor-continues"]


def test_a_mercenary_that_did_not_fight_cannot_move_twice() -> None:
    state = play(position(mercs={"raider-1": ("orange", (4, 10))}), move("raider-1", "north", 1))
    assert violations(state, move("raider-1", "north", 1)) == ["mercyfrontier/action.once"]


# --- abilities (Action Phase 1) ----------------------------------------------------------------------------


def test_a_noncombat_ability_triggers_before_movement() -> None:
    state = position(mercs={"medic-1": ("orange", (1, 10)), "raider-1": ("orange", (4, 10))}, health={"medic-1": 1})
    assert violations(state, move("raider-1", "north", 1)) == ["mercyfrontier/action.abilities-first"]
    assert violations(state, StepFinished(seq=30, by="orange")) == ["mercyfrontier/action.abilities-first"]
    healed = play(state, AbilityUsed(seq=30, by="orange", card="medic-1", ability="mend"))
    assert health_of(healed, "medic-1") == 2
    assert violations(healed, move("raider-1", "north", 1)) == []
    moved = play(healed, move("raider-1", "north", 1))
    assert violations(moved, AbilityUsed(seq=31, by="orange", card="medic-1", ability="mend")) == ["mercyfrontier/action.ability", "mercyfrontier/action.abilities-first"]


def test_mend_never_heals_above_printed_health() -> None:
    state = position(mercs={"medic-1": ("orange", (1, 10))})
    assert health_of(play(state, AbilityUsed(seq=30, by="orange", card="medic-1", ability="mend")), "medic-1") == 3
    assert violations(state, AbilityUsed(seq=30, by="orange", card="medic-1", ability="sprint")) == ["mercyfrontier/action.ability"]


# --- buildings and workers have 1 hp ------------------------------------------------------------------------


def test_a_mercenary_destroys_the_buildings_and_workers_it_passes_over() -> None:
    state = position(mercs={"raider-1": ("yellow", (4, 11))}, actor="yellow", workers={"orange": [(4, 13), (3, 13)]})
    after = play(state, move("raider-1", "south", 2, by="yellow"))
    orange = next(p for p in after.players if p.seat == "orange")
    assert orange.lost == 1 and all(b.at != (4, 13) for b in after.buildings)
    assert orange.placed == ((3, 13),) and orange.workers == 1


def test_before_the_4th_play_test_workers_were_not_harmed() -> None:
    state = position("playtest-3", mercs={"raider-1": ("yellow", (4, 11))}, actor="yellow", workers={"orange": [(4, 13)]})
    after = play(state, move("raider-1", "south", 2, by="yellow"), version="playtest-3")
    orange = next(p for p in after.players if p.seat == "orange")
    assert orange.lost == 1 and orange.placed == ((4, 13),) and orange.workers == 2


def test_own_buildings_are_not_harmed_by_own_mercenaries() -> None:
    state = position(mercs={"raider-1": ("orange", (4, 11))}, buildings=[Building("outpost", "orange", (4, 10))])
    after = play(state, move("raider-1", "north", 1))
    assert any(b.at == (4, 10) for b in after.buildings)
