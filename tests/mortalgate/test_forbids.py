"""Every MortalGate ability, status and effect that forbids an action is named where the
table first breaks it, by its own rule, once (mortalgate.txt, "Our Heroes and Abilities",
"Status Effects", "Death", "Altars").

Each case plays seeded 2.5 games until the situation arises, lets the table write the
forbidden event there, lets the bots play on, and audits the log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from msgspec.structs import replace

from events.base import Event
from rulesets.mortalgate import board, heroes
from rulesets.mortalgate.events import (
    AbilityUsed,
    AltarCaptured,
    AttackDeclared,
    AttackRolled,
    EnchantmentTaken,
    HeroMoved,
)
from rulesets.mortalgate.rules import HARMLESS, HEALS
from rulesets.mortalgate.state import (
    State,
    Turn,
    attack_range,
    contested,
    find,
    game_map,
    movement_allowance,
    occupied,
    stats,
)
from rulesets.registry import Rules
from tests.forbid_support import broken, findings
from tests.mortalgate.scenario import rules

R = rules("2.5")


def acting(state: State, phases: tuple[str, ...] = ("upkeep", "movement", "combat")) -> Any:
    """The hero whose turn it is, on the board and free to act in one of `phases`."""
    turn = state.turn
    if state.stage != "play" or turn is None or turn.pending or turn.phase not in phases:
        return None
    hero = find(state, turn.hero)
    return hero if hero is not None and hero.alive and hero.node is not None else None


def now(state: State) -> Turn:
    """The running turn (`acting` found one)."""
    assert state.turn is not None
    return state.turn


def lifted(rules_: Rules, state: State, **turn: Any) -> Sequence[Event]:
    """The legal events were the forbidding status lifted from the turn (so the table's event
    breaks only that)."""
    assert state.turn is not None
    return list(rules_.ruleset.legal(rules_.params, replace(state, turn=replace(state.turn, **turn))))


def open_step(rules_: Rules, state: State, hero: Any) -> Event | None:
    """A one-node move to a free, passable neighbour."""
    gmap = game_map(rules_.params)
    taken = occupied(state)
    for node in board.neighbours(hero.node, gmap.width, gmap.height):
        if node not in gmap.impassable and node not in taken:
            return HeroMoved(by=hero.seat, hero=hero.id, path=(node,))
    return None


def stunned_moves(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    hero = acting(state, ("upkeep", "movement"))
    return open_step(rules_, state, hero) if hero is not None and now(state).stunned and now(state).moved == 0 else None


def stunned_attacks(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    hero = acting(state)
    if hero is None or not now(state).stunned:
        return None
    return next((e for e in lifted(rules_, state, stunned=False) if isinstance(e, AttackDeclared)), None)


def stunned_casts(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    hero = acting(state)
    if hero is None or not now(state).stunned:
        return None
    harmful = (e for e in lifted(rules_, state, stunned=False)
               if isinstance(e, AbilityUsed) and e.ability not in HEALS and e.ability not in HARMLESS)
    return next(harmful, None)


def poisoned_walks_far(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    """A poisoned hero walking its full movement: "mobility is reduced by 2"."""
    hero = acting(state, ("upkeep", "movement"))
    if hero is None or not now(state).poisoned or now(state).stunned:
        return None
    allowance = movement_allowance(rules_.params, state, hero, now(state))
    far = (e for e in lifted(rules_, state, poisoned=False)
           if isinstance(e, HeroMoved) and now(state).moved + len(e.path) > allowance)
    return next(far, None)


def slain_captures(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    """A slain hero, not returned, captures an altar ("remove his or her hero figure")."""
    turn = state.turn
    hero = find(state, turn.hero) if state.stage == "play" and turn is not None and not turn.pending else None
    if hero is None or hero.alive:
        return None
    held = state.altars
    altar = next(a for a, owner in zip(game_map(rules_.params).altars, held, strict=True) if owner != hero.team)
    return AltarCaptured(by=hero.seat, hero=hero.id, altar=altar.id)


def slain_attacks(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    turn = state.turn
    hero = find(state, turn.hero) if state.stage == "play" and turn is not None and not turn.pending else None
    if hero is None or hero.alive:
        return None
    enemy = next(h for h in state.heroes if h.team != hero.team and h.alive)
    return AttackDeclared(by=hero.seat, hero=hero.id, target=enemy.id)


def moves_after_capture(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    """"Capturing an altar immediately ends the player's turn"."""
    turn = state.turn
    if state.stage != "play" or turn is None or turn.phase != "done":
        return None
    hero = find(state, turn.hero)
    if hero is None or hero.node is None or turn.moved >= movement_allowance(rules_.params, state, hero, turn):
        return None
    return open_step(rules_, state, hero)


def captures_contested(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    """"A contested altar may not be captured by either team"."""
    hero = acting(state, ("upkeep", "movement", "combat", "capture"))
    if hero is None:
        return None
    for altar, owner in zip(game_map(rules_.params).altars, state.altars, strict=True):
        if hero.node in altar.zone and owner != hero.team and contested(rules_.params, state, altar.id, hero.team):
            return AltarCaptured(by=hero.seat, hero=hero.id, altar=altar.id)
    return None


def damages_shield_wall(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    """A hit on Drexir behind his Shield Wall, the table dealing the attack's damage anyway."""
    turn = state.turn
    if moves is not None or turn is None or not turn.pending:
        return None
    target = find(state, turn.pending[0].target)
    if target is None or not target.shield_wall:
        return None
    return AttackRolled(target=target.id, tens=9, ones=9, hit=True, damage=stats(rules_.params, turn.pending[0].attacker).damage)


def _healing(rules_: Rules, state: State, pick: Callable[[Any, Any], bool]) -> Event | None:
    hero = acting(state)
    if hero is None or now(state).combat_used or now(state).stunned:
        return None
    for ability in heroes.ABILITIES_OF[hero.id]:
        if ability in HEALS and dict(hero.cooldowns).get(ability, 0) <= 0:
            reach = attack_range(rules_.params, hero, ability)
            for other in state.heroes:
                if other.node is not None and pick(hero, other) and board.distance(hero.node, other.node) <= reach:
                    return AbilityUsed(by=hero.seat, hero=hero.id, ability=ability, target=other.id)
    return None


def heals_an_enemy(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    """Full Draw, Life Ward: "heals target teammate"."""
    return _healing(rules_, state, lambda hero, other: other.team != hero.team)


def heals_itself(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    return _healing(rules_, state, lambda hero, other: other.id == hero.id)


def moves_after_combat(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    """"Once a phase has been completed or exited, the player may not return back to it"."""
    hero = acting(state, ("combat",))
    if hero is None or now(state).stunned or now(state).moved >= movement_allowance(rules_.params, state, hero, now(state)):
        return None
    return open_step(rules_, state, hero)


def attacks_again(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    """"Each hero is allowed one combat action per turn" (Quick Blade: "may attack twice")."""
    hero = acting(state, ("combat",))
    if hero is None or now(state).stunned or now(state).attacks_left > 0 or not now(state).combat_used:
        return None
    return next((e for e in lifted(rules_, state, attacks_left=1) if isinstance(e, AttackDeclared)), None)


def attacks_thrice(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    """Quick Blade: "Zadita may attack twice this turn", and no more."""
    hero = acting(state, ("combat",))
    blade = heroes.ABILITIES["quick_blade"].cooldown
    if hero is None or hero.id != "zadita" or dict(hero.cooldowns).get("quick_blade") != blade or now(state).pending:
        return None
    return attacks_again(rules_, state, moves)


def zadita_blades(state: State, event: Event) -> bool:
    """Zadita casts Quick Blade when she could attack instead, then attacks."""
    if isinstance(event, AttackDeclared):
        return event.hero == "zadita" and now(state).combat_used
    return casting("quick_blade")(state, event) and any(isinstance(e, AttackDeclared) for e in R.ruleset.legal(R.params, state))


def takes_a_second_enchantment(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
    """Version 2.00: "not every hero will be able to have one" (one enchantment per hero)."""
    hero = acting(state, ("upkeep", "movement", "combat", "capture"))
    if hero is None or hero.enchantment is None or not any(node == hero.node for node, _ in state.enchantments):
        return None
    return EnchantmentTaken(by=hero.seat, hero=hero.id)


def enchanting(state: State, event: Event) -> bool:
    return isinstance(event, EnchantmentTaken)


def casting(ability: str) -> Callable[[State, Event], bool]:
    return lambda state, event: isinstance(event, AbilityUsed) and event.ability == ability


def attacking(state: State, event: Event) -> bool:
    return isinstance(event, AttackDeclared)


def capturing(state: State, event: Event) -> bool:
    return isinstance(event, AltarCaptured)


CASES = {
    # Stun: "stunned heroes are unable to move or attack" (Ring the Bell: "stun target enemy for one turn")
    "a stunned hero moves": (stunned_moves, casting("ring_the_bell"), "mortalgate/status.stun"),
    "a stunned hero attacks": (stunned_attacks, casting("ring_the_bell"), "mortalgate/status.stun"),
    "a stunned hero casts on an enemy": (stunned_casts, casting("ring_the_bell"), "mortalgate/status.stun"),
    # Poison: "mobility is reduced by 2 for the duration of the poison" (Infected Wounds)
    "a poisoned hero walks its full movement": (poisoned_walks_far, casting("infected_wounds"), "mortalgate/status.poison"),
    # Shield Wall: "Drexir blocks all attacks, taking no damage until his next turn"
    "a hit on a Shield Wall deals damage": (damages_shield_wall, casting("shield_wall"), "mortalgate/abilities.shield_wall"),
    # Death: "Upon death, a player must remove his or her hero figure from the board"
    "a slain hero captures": (slain_captures, attacking, "mortalgate/death.slain"),
    "a slain hero attacks": (slain_attacks, attacking, "mortalgate/death.slain"),
    # Full Draw, Life Ward: "heals target teammate"
    "a heal on an enemy": (heals_an_enemy, None, "mortalgate/abilities.heals"),
    "a heal on the caster": (heals_itself, None, "mortalgate/abilities.heals"),
    # Turn Sequence and Combat Phase
    "a hero moves after its combat action": (moves_after_combat, attacking, "mortalgate/turn-sequence.phases"),
    "a second combat action": (attacks_again, attacking, "mortalgate/combat.one-action"),
    "a third attack after Quick Blade": (attacks_thrice, zadita_blades, "mortalgate/combat.one-action"),
    # Altars: "Capturing an altar immediately ends a player's turn"; "A contested altar may not be captured"
    "a hero moves after capturing": (moves_after_capture, capturing, "mortalgate/altars.capture-ends-turn"),
    "a contested altar is captured": (captures_contested, None, "mortalgate/altars.contested"),
}


def test_a_second_enchantment_is_named_once_where_it_is_taken() -> None:
    r = rules("2.0")
    events, seq = broken(r, takes_a_second_enchantment, prefer=enchanting, bot="random", seeds=range(20))
    assert findings(events, r) == [(seq, "mortalgate/enchantments.take")]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_forbidden_action_is_named_once_by_its_own_rule_where_it_is_made(case: str) -> None:
    breaker, prefer, rule = CASES[case]
    events, seq = broken(R, breaker, prefer=prefer)
    assert findings(events, R) == [(seq, rule)]


def on_cooldown(ability: str) -> Callable[[Rules, State, Sequence[Event] | None], Event | None]:
    """The hero casts `ability` again while its cooldown counter still stands."""
    def breaker(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Event | None:
        hero = acting(state)
        if hero is None or now(state).stunned or dict(hero.cooldowns).get(ability, 0) <= 0:
            return None
        ready = replace(hero, cooldowns=())
        cooled = replace(state, heroes=tuple(ready if h.id == hero.id else h for h in state.heroes))
        return next((e for e in rules_.ruleset.legal(rules_.params, cooled) if casting(ability)(cooled, e)), None)
    return breaker


@pytest.mark.parametrize("ability", sorted(heroes.ABILITIES))
def test_an_ability_cast_on_cooldown_is_named_once_by_the_cooldown(ability: str) -> None:
    """Combat Phase: "cast an ability, provided it is not on cooldown" (each hero's card gives the turns)."""
    events, seq = broken(R, on_cooldown(ability), prefer=casting(ability))
    assert findings(events, R) == [(seq, "mortalgate/abilities.cooldown")]
