"""MortalGate's rules: setup, the check of every event, its effect, and the outcome.

One small handler per event type for `check` and one for `apply`. `check` names every
rule an event breaks; `apply` folds the event in as the table played it, legal or not,
so a replay goes on past a table's mistake exactly as the game did. Comments cite the
passage of ../shared/rules/mortalgate.txt each rule encodes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets.memo import last_state
from rulesets.mortalgate import board, heroes
from rulesets.mortalgate.events import (
    AbilityUsed,
    AltarCaptured,
    AttackDeclared,
    AttackRolled,
    DraftChoiceMade,
    DraftRolled,
    EnchantmentTaken,
    HeroMoved,
    HeroPicked,
    HeroPlaced,
    HeroRespawned,
    Node,
    TurnOrderSet,
    TurnStarted,
)
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.ruleids import RULE_IDS
from rulesets.mortalgate.state import (
    PHASES,
    TEAMS,
    Attack,
    Hero,
    Pending,
    State,
    Timed,
    Turn,
    altar_index,
    attack_range,
    blessings,
    chance_to_hit,
    contested,
    cooldown,
    find,
    game_map,
    has_line_of_sight,
    heroes_with,
    is_hit,
    movement_allowance,
    next_hero,
    occupied,
    other,
    seat_team,
    sequence,
    stats,
    team_index,
    zone_of,
)
from rulesets.protocol import Outcome, Severity, Violation

replace = msgspec.structs.replace

# Abilities by what they do (mortalgate.txt, "Our Heroes and Abilities").
HEALS = {"full_draw": 4, "life_ward": 4}
SELF_ABILITIES = frozenset({"precision_targeting", "static_charge", "shield_wall", "quick_blade", "cheap_shot", "rising_winds"})
HARMLESS = frozenset({"precision_targeting", "static_charge", "shield_wall", "quick_blade"})
"""Abilities a stunned hero may still use: "stunned heroes are unable to move or attack", and these attack no one."""
MERCY_THRESHOLD = 4
"""Mercy Killing: "if target is under 4 health, they are instantly killed"."""


# --- setup --------------------------------------------------------------------------


def validate_start(params: Params, started: MatchStarted) -> list[str]:
    """Seats must form two teams of 2-8 players in all ("Game Overview", "Draft Phase")."""
    problems = []
    seats = list(started.seats)
    if not params.players_min <= len(seats) <= params.players_max:
        problems.append(f"MortalGate is played by {params.players_min}-{params.players_max} players, not {len(seats)}")
    teams = [seat_team(seat) for seat in seats]
    for seat, team in zip(seats, teams, strict=True):
        if team is None:
            problems.append(f"seat {seat!r} names no team: seat ids start with 'red' or 'blue' (e.g. red, red2, blue)")
    for team in TEAMS:
        count = teams.count(team)
        if count == 0:
            problems.append(f"team {team} has no player")
        elif count > params.heroes_per_team:
            problems.append(f"team {team} has {count} players but only {params.heroes_per_team} heroes to share")
    return problems


def setup(params: Params, started: MatchStarted) -> State:
    """The board set up: blessing tokens at altars, Grace meters at their start (0 and 0 in
    the rules; a variant may start a team higher), draft not yet rolled."""
    seats = tuple((seat, seat_team(seat) or "red") for seat in started.seats)
    gmap = game_map(params)
    enchantments = gmap.enchantments if params.bonuses == "enchantments" else ()
    return State(seats=seats, altars=(None,) * len(gmap.altars), enchantments=enchantments, grace=params.starting_grace)


# --- violations ------------------------------------------------------------------------

Problems = list[Violation]


ON_THE_MAP = frozenset({"movement.impassable", "combat.line-of-sight", "altars.zone"})
"""Rules judged on the map's layout, which is assumed data (params: `map`): their findings say so."""


def _v(event: Event, rule: str, message: str, severity: Severity = "error") -> Violation:
    """The event broke the declared rule `rule` (see `ruleids.RULE_IDS`)."""
    if rule in ON_THE_MAP:
        message += " (on the assumed map layout)"
    return RULE_IDS.violation(event, rule, message, severity)


def _check_by(event: Event, hero: Hero | None) -> Problems:
    """The player who controls the hero records its actions (a warning, not an error).

    A hero's seat is the seat that picked it ("Draft Phase"), kept on its sheet.
    """
    if event.by is not None and hero is not None and event.by != hero.seat:
        return [_v(event, "turn-sequence.player", f"{hero.id} is controlled by seat {hero.seat}, not {event.by}", "warning")]
    return []


def _check_acting(params: Params, state: State, event: Event, hero_id: str) -> tuple[Problems, Hero | None, Turn | None]:
    """Common checks for an action in a hero's turn: game on, its turn, phase not over."""
    hero = find(state, hero_id)
    if hero is None:
        return [_v(event, "heroes.unknown", f"no hero {hero_id!r} is in this game")], None, None
    if state.stage != "play" or state.turn is None:
        return [_v(event, "turn-sequence.order", f"{hero_id} acts before the first turn has started")], hero, None
    problems = _check_by(event, hero)
    if (result := outcome(params, state)) is not None:
        problems.append(_v(event, "victory.game-over", f"the game is already over: {result.reason}"))
    turn = state.turn
    if turn.hero != hero_id:
        problems.append(_v(event, "turn-sequence.order", f"it is {turn.hero}'s turn, not {hero_id}'s"))
    elif turn.phase == "done":
        problems.append(_v(event, "altars.capture-ends-turn", f"{hero_id}'s turn ended when it captured an altar"))
    if turn.pending:
        problems.append(_v(event, "combat.dice", f"the attack on {turn.pending[0].target} has not been rolled yet"))
    return problems, hero, turn


_PHASE_RANK: dict[str, int] = {phase: rank for rank, phase in enumerate(PHASES)}


def _check_phase(event: Event, turn: Turn, phase: str) -> Problems:
    """"Once a phase has been completed or exited, the player may not return back to it"."""
    if turn.phase == "done":
        return []  # the capture ended the turn: `altars.capture-ends-turn` names that once
    if _PHASE_RANK[turn.phase] > _PHASE_RANK[phase]:
        return [_v(event, "turn-sequence.phases", f"{phase} phase after the {turn.phase} phase: phases go upkeep, movement, combat, capture")]
    return []


# --- draft and setup checks ("Draft Phase") -----------------------------------------------


def _check_draft_rolled(params: Params, state: State, event: DraftRolled) -> Problems:
    problems = [_v(event, "draft.roll", f"a d6 cannot show {value}") for value in (event.red, event.blue) if not 1 <= value <= 6]
    if state.draft.winner is not None:
        problems.append(_v(event, "draft.roll", "the draft roll is already decided"))
    return problems


def _check_draft_choice(params: Params, state: State, event: DraftChoiceMade) -> Problems:
    if state.draft.winner is None:
        return [_v(event, "draft.choice", "no team has won the draft roll yet")]
    problems = []
    if event.team != state.draft.winner:
        problems.append(_v(event, "draft.choice", f"{state.draft.winner} won the roll, so {state.draft.winner} chooses, not {event.team}"))
    if state.draft.first_pick is not None:
        problems.append(_v(event, "draft.choice", "the choice was already made"))
    return problems


def picking_team(state: State) -> str | None:
    """The team whose member picks next: teams alternate, first-pick team first.

    Counted per team rather than by the number of picks, so a pick the table let a team make
    out of turn is named once: the team it skipped still picks next.
    """
    first = state.draft.first_pick
    if first is None:
        return None
    second = other(first)
    teams = [seat_team(seat) for _, seat in state.draft.picks]  # (one pass: every draft decision asks, twice)
    return first if teams.count(first) <= teams.count(second) else second


def _check_hero_picked(params: Params, state: State, event: HeroPicked) -> Problems:
    if state.draft.first_pick is None:
        return [_v(event, "draft.pick-order", "heroes are picked after the roll and the winner's choice")]
    problems = []
    if event.hero not in heroes.HEROES:
        problems.append(_v(event, "draft.pool", f"there is no hero {event.hero!r}; heroes: {', '.join(heroes.HEROES)}"))
    elif any(hero == event.hero for hero, _ in state.draft.picks):
        problems.append(_v(event, "draft.pool", f"{event.hero} was already picked: the pool is non-replacing"))
    if len(state.draft.picks) >= 2 * params.heroes_per_team:
        return [*problems, _v(event, "draft.pick-order", f"all {2 * params.heroes_per_team} heroes are already chosen")]
    team = picking_team(state)
    seat_team_ = seat_team(event.by or "")
    if event.by is None or seat_team_ is None:
        problems.append(_v(event, "draft.pick-order", "a pick must say which seat picked (by)"))
    elif seat_team_ != team:
        problems.append(_v(event, "draft.pick-order", f"it is {team}'s pick, not {seat_team_}'s"))
    else:
        problems += _check_fair_share(params, state, event)
    return problems


def _check_fair_share(params: Params, state: State, event: HeroPicked) -> Problems:
    """Every player controls one to four heroes ("Game Overview")."""
    team = seat_team(event.by or "")
    members = [seat for seat, t in state.seats if t == team]
    held = {seat: sum(1 for _, s in state.draft.picks if s == seat) for seat in members}
    left = params.heroes_per_team - sum(held.values())
    empty = [seat for seat in members if held[seat] == 0]
    if event.by in held and held[event.by] >= params.heroes_per_player_max:
        return [_v(event, "draft.heroes-per-player", f"seat {event.by} already controls {held[event.by]} heroes")]
    if len(empty) >= left and event.by not in empty:
        return [_v(event, "draft.heroes-per-player", f"{', '.join(empty)} must pick: every player controls at least one hero")]
    return []


def _check_hero_placed(params: Params, state: State, event: HeroPlaced) -> Problems:
    hero = find(state, event.hero)
    if hero is None or state.stage == "draft":
        return [_v(event, "draft.spawn", f"{event.hero} is placed before the draft is over")]
    problems = _check_by(event, hero)
    if state.stage == "play" or hero.node is not None:
        problems.append(_v(event, "draft.spawn", f"{event.hero} is already on the board"))
    if event.node not in game_map(params).spawns[hero.team]:
        problems.append(_v(event, "draft.spawn", f"{event.node} is not on {hero.team}'s spawn point (on the assumed map layout)"))
    elif event.node in occupied(state):
        problems.append(_v(event, "movement.occupied", f"{event.node} already holds a hero"))
    return problems


def _check_turn_order(params: Params, state: State, event: TurnOrderSet) -> Problems:
    """"This turn order, once decided, will remain constant throughout the remainder of the game"."""
    if state.stage != "placement":
        when = "during the draft" if state.stage == "draft" else "after play began: the order stays constant"
        return [_v(event, "draft.turn-order", f"turn order set {when}")]
    team_heroes = sorted(h.id for h in state.heroes if h.team == event.team)
    if sorted(event.heroes) != team_heroes:
        return [_v(event, "draft.turn-order", f"{event.team}'s order must list each of its heroes once: {', '.join(team_heroes)}")]
    return []


# --- turn checks ("Turn Sequence", "Upkeep", "Movement", "Combat", "Capture") ----------------


def _check_turn_started(params: Params, state: State, event: TurnStarted) -> Problems:
    if state.stage != "play":
        return [_v(event, "turn-sequence.order", "the game starts once every hero is placed and both turn orders are set")]
    problems = _check_by(event, find(state, event.hero))
    if (result := outcome(params, state)) is not None:
        problems.append(_v(event, "victory.game-over", f"the game is already over: {result.reason}"))
    if state.turn is not None and state.turn.pending:
        problems.append(_v(event, "combat.dice", f"the attack on {state.turn.pending[0].target} was never rolled"))
    expected = next_hero(state)
    if event.hero != expected:
        problems.append(_v(event, "turn-sequence.order", f"{expected} acts next in the fixed turn order, not {event.hero}"))
    return problems


def _check_respawned(params: Params, state: State, event: HeroRespawned) -> Problems:
    """"At the beginning of that hero's next turn, his or her hero may return ... at the team's spawn point"."""
    problems, hero, turn = _check_acting(params, state, event, event.hero)
    if hero is None or turn is None:
        return problems
    if hero.alive:
        problems.append(_v(event, "death.respawn", f"{event.hero} is not slain"))
    if turn.phase != "upkeep":
        problems.append(_v(event, "death.respawn", "a slain hero returns at the beginning of its turn"))
    elif not hero.alive and not turn.returning:
        problems.append(_v(event, "death.respawn", f"{event.hero} was slain in this turn's upkeep: it returns at the "
                                                   "beginning of its next turn, not in this one"))
    if event.node not in game_map(params).spawns[hero.team]:
        problems.append(_v(event, "death.respawn", f"{event.node} is not on {hero.team}'s spawn point (on the assumed map layout)"))
    elif event.node in occupied(state):
        problems.append(_v(event, "movement.occupied", f"{event.node} already holds a hero"))
    return problems


def _check_moved(params: Params, state: State, event: HeroMoved) -> Problems:
    problems, hero, turn = _check_acting(params, state, event, event.hero)
    if hero is None or turn is None:
        return problems
    problems += _check_phase(event, turn, "movement")
    if not hero.alive or hero.node is None:
        return [*problems, _v(event, "death.slain", f"{event.hero} is slain and not on the board")]
    if turn.stunned:
        problems.append(_v(event, "status.stun", f"{event.hero} is stunned: stunned heroes are unable to move"))
    allowance = movement_allowance(params, state, hero, turn)
    if not turn.stunned and turn.moved + len(event.path) > allowance:
        problems.append(_over_allowance(params, state, event, hero, turn, allowance))
    return problems + _check_path(params, state, event, hero.node)


def _over_allowance(params: Params, state: State, event: HeroMoved, hero: Hero, turn: Turn, allowance: int) -> Violation:
    """A move past the hero's movement: named by the poison when only the poison's 2 points
    forbid it ("Poison: ... mobility is reduced by 2 for the duration of the poison")."""
    walked = turn.moved + len(event.path)
    if turn.poisoned and walked <= movement_allowance(params, state, hero, replace(turn, poisoned=False)):
        return _v(event, "status.poison", f"{event.hero} moves {walked} nodes this turn but is poisoned: its movement is reduced by 2, to {allowance}")
    return _v(event, "movement.points", f"{event.hero} moves {walked} nodes this turn but has {allowance} movement")


def _check_path(params: Params, state: State, event: HeroMoved, start: Node) -> Problems:
    """"Heroes may not move through impassable terrain or through nodes occupied by another hero"."""
    gmap = game_map(params)
    taken = occupied(state)
    problems = []
    here = start
    for node in event.path:
        if node in board.neighbours(here, gmap.width, gmap.height) and node not in gmap.impassable and node not in taken:
            here = node  # the usual step: to an open neighbour on the board
            continue
        if board.distance(here, node) != 1:
            problems.append(_v(event, "movement.adjacent", f"{here} to {node} is not one node: a hero moves one node per point"))
        if not (0 <= node[0] < gmap.width and 0 <= node[1] < gmap.height):
            problems.append(_v(event, "movement.board", f"{node} is off the board"))
        elif node in gmap.impassable:
            problems.append(_v(event, "movement.impassable", f"{node} is impassable terrain"))
        elif node in taken:
            problems.append(_v(event, "movement.occupied", f"{node} is occupied by {_name_at(state, node)}"))
        here = node
    if not event.path:
        problems.append(_v(event, "movement.adjacent", "a move needs at least one node"))
    return problems


def _name_at(state: State, node: Node) -> str:
    return next((h.id for h in state.heroes if h.node == node), "a hero")


def _check_enchantment(params: Params, state: State, event: EnchantmentTaken) -> Problems:
    problems, hero, turn = _check_acting(params, state, event, event.hero)
    if hero is None or turn is None:
        return problems
    if params.bonuses != "enchantments":
        return [*problems, _v(event, "enchantments.take", "this version has no enchantment spots")]
    if hero.enchantment is not None:
        problems.append(_v(event, "enchantments.take", f"{event.hero} already holds {hero.enchantment}"))
    if not any(node == hero.node for node, _ in state.enchantments):
        problems.append(_v(event, "enchantments.take", f"no enchantment lies on {hero.node}"))
    return problems


def _check_target(params: Params, state: State, event: Event, attacker: Hero, target_id: str | None,
                  ability: str | None, friendly: bool) -> Problems:
    """Target, range and line of sight of an attack or targeted ability ("Attacking")."""
    target = find(state, target_id) if target_id else None
    if target is None or not target.alive or target.node is None:
        return [_v(event, "combat.target", f"{target_id} is not a hero on the board")]
    if attacker.node is None:
        return []
    if friendly and target.team != attacker.team:  # Full Draw, Life Ward: "heals target teammate"
        return [_v(event, "abilities.heals", f"{ability} targets a teammate; {target.id} is an enemy")]
    if friendly and target.id == attacker.id:
        return [_v(event, "abilities.heals", f"{ability} targets a teammate, not the caster itself")]
    if not friendly and target.team == attacker.team:
        return [_v(event, "combat.target", f"{target.id} is not an enemy")]
    problems = []
    reach = attack_range(params, attacker, ability)
    if board.distance(attacker.node, target.node) > reach:
        what = ability or "basic attack"
        problems.append(_v(event, "combat.range", f"{target.id} is {board.distance(attacker.node, target.node)} nodes away; {what} reaches {reach}"))
    if not friendly and not has_line_of_sight(params, state, attacker, target):
        problems.append(_v(event, "combat.line-of-sight", f"{attacker.id} has no line of sight to {target.id}: an enemy or impassable terrain is in the way"))
    return problems


def _check_attack(params: Params, state: State, event: AttackDeclared) -> Problems:
    problems, hero, turn = _check_acting(params, state, event, event.hero)
    if hero is None or turn is None:
        return problems
    problems += _check_phase(event, turn, "combat")
    if not hero.alive:
        return [*problems, _v(event, "death.slain", f"{event.hero} is slain")]
    if turn.stunned:
        problems.append(_v(event, "status.stun", f"{event.hero} is stunned: stunned heroes are unable to attack"))
    if turn.attacks_left <= 0:
        problems.append(_v(event, "combat.one-action", f"{event.hero} has no combat action left: one combat action per turn"))
    return problems + _check_target(params, state, event, hero, event.target, None, friendly=False)


def _check_ability(params: Params, state: State, event: AbilityUsed) -> Problems:
    problems, hero, turn = _check_acting(params, state, event, event.hero)
    if hero is None or turn is None:
        return problems
    problems += _check_phase(event, turn, "combat")
    ability = heroes.ABILITIES.get(event.ability)
    own = heroes.ABILITIES_OF[hero.id]
    if ability is None or event.ability not in own:
        return [*problems, _v(event, "abilities.unknown", f"{hero.id} has no ability {event.ability!r}; its abilities: {', '.join(sorted(own))}")]
    if not hero.alive:
        return [*problems, _v(event, "death.slain", f"{event.hero} is slain")]
    if turn.combat_used:
        problems.append(_v(event, "combat.one-action", f"{event.hero} already took its combat action this turn"))
    if (left := cooldown(hero, event.ability)) > 0:
        problems.append(_v(event, "abilities.cooldown", f"{ability.name} is on cooldown for {left} more turn(s)"))
    harmful = event.ability not in HEALS and event.ability not in HARMLESS
    if turn.stunned and harmful:
        problems.append(_v(event, "status.stun", f"{event.hero} is stunned: stunned heroes are unable to attack"))
    if event.ability in SELF_ABILITIES:
        if event.target is not None:
            problems.append(_v(event, "combat.target", f"{ability.name} takes no target (range n/a)"))
        return problems
    return problems + _check_target(params, state, event, hero, event.target, event.ability, friendly=event.ability in HEALS)


def _check_rolled(params: Params, state: State, event: AttackRolled) -> Problems:
    turn = state.turn
    if turn is None or not turn.pending:
        return [_v(event, "combat.dice", "no attack is waiting for its roll")]
    problems = [_v(event, "combat.dice", f"a d10 shows 0-9, not {value}") for value in (event.tens, event.ones) if not 0 <= value <= 9]
    pending = _pending_for(turn, event.target)
    if pending is None:
        targets = ", ".join(p.target for p in turn.pending)
        return [*problems, _v(event, "combat.dice", f"the roll is for {event.target}, but the attack waiting is on {targets}")]
    attacker, target = find(state, pending.attacker), find(state, pending.target)
    if attacker is None or target is None or problems:
        return problems
    chance = chance_to_hit(params, state, attacker, target)
    hit = is_hit(chance, event.tens, event.ones)
    roll = (event.tens * 10 + event.ones) or 100
    if event.hit is not None and event.hit != hit:
        said = "a hit" if event.hit else "a miss"
        problems.append(_v(event, "combat.hit", f"the table called {said}, but {roll} {'>=' if hit else '<'} {100 - chance} (chance {chance}) is a {'hit' if hit else 'miss'}"))
    if event.damage is not None and (event.hit if event.hit is not None else hit):
        rules_damage = attack_damage(params, state, attacker, target, turn)
        if target.shield_wall and event.damage > 0:  # Shield Wall: "Drexir blocks all attacks, taking no damage until his next turn"
            problems.append(_v(event, "abilities.shield_wall", f"the table dealt {event.damage} damage to {target.id}, "
                                                               "whose Shield Wall blocks all attacks until his next turn"))
        elif event.damage != rules_damage:
            problems.append(_v(event, "combat.damage", f"the table dealt {event.damage} damage; the rules give {rules_damage}"))
    return problems


def _pending_for(turn: Turn, target: str) -> Pending | None:
    for pending in turn.pending:
        if pending.target == target:
            return pending
    return None


def _check_captured(params: Params, state: State, event: AltarCaptured) -> Problems:
    problems, hero, turn = _check_acting(params, state, event, event.hero)
    if hero is None or turn is None:
        return problems
    index = altar_index(params, event.altar)
    if index is None:
        return [*problems, _v(event, "altars.unknown", f"there is no altar {event.altar!r}")]
    if not hero.alive:  # "Upon death, a player must remove his or her hero figure from the board"
        return [*problems, _v(event, "death.slain", f"{event.hero} is slain and not on the board")]
    if hero.node not in zone_of(params, event.altar):
        problems.append(_v(event, "altars.zone", f"{event.hero} is not in {event.altar}'s altar zone"))
    if contested(params, state, event.altar, hero.team):
        problems.append(_v(event, "altars.contested", f"{event.altar} is contested: an enemy is in its zone"))
    if state.altars[index] == hero.team:
        problems.append(_v(event, "altars.held", f"{hero.team} already controls {event.altar}"))
    return problems


_CHECKS: dict[type, Callable[[Params, State, Any], Problems]] = {
    DraftRolled: _check_draft_rolled,
    DraftChoiceMade: _check_draft_choice,
    HeroPicked: _check_hero_picked,
    HeroPlaced: _check_hero_placed,
    TurnOrderSet: _check_turn_order,
    TurnStarted: _check_turn_started,
    HeroRespawned: _check_respawned,
    HeroMoved: _check_moved,
    EnchantmentTaken: _check_enchantment,
    AttackDeclared: _check_attack,
    AbilityUsed: _check_ability,
    AttackRolled: _check_rolled,
    AltarCaptured: _check_captured,
}


def check(params: Params, state: State, event: Event) -> list[Violation]:
    """Every rule the event breaks in this state (empty when it is legal)."""
    handler = _CHECKS.get(type(event))
    return handler(params, state, event) if handler else []


# --- damage, healing and death ("Determining a Hit", "Death", "Blessing Types") -------------


def attack_damage(params: Params, state: State, attacker: Hero, target: Hero, turn: Turn | None) -> int:
    """"Total Damage = attacker's damage attribute + blessing mods + ability mods (if active)"."""
    damage = stats(params, attacker.id).damage + blessings(params, state, attacker).get("forceful", 0)
    if attacker.static_charges > 0:
        damage += 1  # Static Charge: "next two basic attacks will deal an addition 1 damage"
    if turn is not None and turn.hero == attacker.id and turn.precision:
        damage += 1  # Precision Targeting: "+1 damage to her attacks for 3 turns"
    return shielded(params, state, target, damage)


def shielded(params: Params, state: State, target: Hero, damage: int) -> int:
    """Divine Shield: "Heroes take 1 less damage from all attacks"; Shield Wall: none."""
    if target.shield_wall:
        return 0
    return max(damage - blessings(params, state, target).get("divine_shield", 0), 0)


def hurt(params: Params, state: State, hero: Hero, amount: int) -> State:
    """The hero loses health; at or below 0 it is slain ("Determining a Hit", "Death").

    Every damage helper takes the hero's sheet as it stands in `state` (not its id): the
    caller has just looked it up, and `heroes_with` finds it again by identity.
    """
    if not hero.alive or amount <= 0:
        return state
    if hero.shield_wall:
        return state  # Shield Wall: "taking no damage until his next turn"
    if hero.health - amount > 0:
        return replace(state, heroes=heroes_with(state, hero, replace(hero, health=hero.health - amount)))
    return slay(params, state, hero)


def slay(params: Params, state: State, hero: Hero) -> State:
    """"Upon death ... remove his or her hero figure ... cooldowns reset and status effects removed"."""
    dead = replace(hero, node=None, health=0, alive=False, cooldowns=(), effects=(), static_charges=0, shield_wall=False)
    grace = list(state.grace)
    grace[team_index(other(hero.team))] += params.kill_grace  # "Upon killing an enemy, a team receives 1"
    turn = state.turn
    if turn is not None and turn.pending:  # attacks on the fallen have no target left
        turn = replace(turn, pending=tuple([p for p in turn.pending if p.target != hero.id]))
    return replace(state, heroes=heroes_with(state, hero, dead), grace=(grace[0], grace[1]), turn=turn)


def heal(params: Params, state: State, hero: Hero, amount: int) -> State:
    """Heals never raise health above the hero's maximum (Leech: "cannot exceed Hero's max health")."""
    if not hero.alive:
        return state
    health = min(hero.health + amount, stats(params, hero.id).health)
    if health <= hero.health:
        return state
    return replace(state, heroes=heroes_with(state, hero, replace(hero, health=health)))


def add_effect(state: State, hero: Hero, kind: str, turns: int) -> State:
    """Put a status or buff on a hero; a repeat application restarts its duration."""
    if not hero.alive or hero.shield_wall:
        return state
    effects = (*[e for e in hero.effects if e.kind != kind], Timed(kind, turns))
    return replace(state, heroes=heroes_with(state, hero, replace(hero, effects=effects)))


# --- apply ------------------------------------------------------------------------------


def _apply_draft_rolled(params: Params, state: State, event: DraftRolled) -> State:
    """"The team with the highest roll may decide"; a tie is rolled again (assumed)."""
    if event.red == event.blue or state.draft.winner is not None:
        return state
    winner = "red" if event.red > event.blue else "blue"
    return replace(state, draft=replace(state.draft, winner=winner))


def _apply_draft_choice(params: Params, state: State, event: DraftChoiceMade) -> State:
    """"If the team decides to receive the opening turn, they will choose second"."""
    chooser = event.team
    first_pick = chooser if event.choice == "first_pick" else other(chooser)
    return replace(state, draft=replace(state.draft, first_pick=first_pick, first_turn=other(first_pick)))


def _apply_hero_picked(params: Params, state: State, event: HeroPicked) -> State:
    if find(state, event.hero) is not None:
        return state  # a hero is in the game once: the table wrote its pick again
    seat = event.by or ""
    team = seat_team(seat) or picking_team(state) or "red"
    picks = (*state.draft.picks, (event.hero, seat))
    health = stats(params, event.hero).health if event.hero in heroes.HEROES else 0
    hero = Hero(id=event.hero, team=team, seat=seat, node=None, health=health)
    stage = "placement" if len(picks) >= 2 * params.heroes_per_team else state.stage
    return replace(state, draft=replace(state.draft, picks=picks), heroes=(*state.heroes, hero), stage=stage)


def _apply_hero_placed(params: Params, state: State, event: HeroPlaced) -> State:
    """Follows the table: a hero placed before its pick was written is picked by the placing
    seat, and placing a hero ends the draft (the table went on to set up)."""
    if find(state, event.hero) is None and event.hero in heroes.HEROES:
        state = _apply_hero_picked(params, state, HeroPicked(seq=event.seq, by=event.by, hero=event.hero))
    hero = find(state, event.hero)
    if hero is None:
        return state
    if state.stage == "draft":
        state = replace(state, stage="placement")
    return _maybe_begin(params, replace(state, heroes=heroes_with(state, hero, replace(hero, node=event.node))))


def _apply_turn_order(params: Params, state: State, event: TurnOrderSet) -> State:
    order = list(state.order)
    order[team_index(event.team)] = event.heroes
    return _maybe_begin(params, replace(state, order=(order[0], order[1])))


def _maybe_begin(params: Params, state: State) -> State:
    """Play begins once every hero stands at spawn and both teams fixed their order."""
    ready = state.stage == "placement" and all(h.node is not None for h in state.heroes) and all(state.order)
    return replace(state, stage="play", play_order=sequence(state)) if ready else state


def _apply_turn_started(params: Params, state: State, event: TurnStarted) -> State:
    """The turn passes to the hero; a slain hero's turn is only its chance to respawn."""
    hero_id = event.hero
    order = state.play_order or sequence(state)
    try:
        cursor = order.index(hero_id) + 1
    except ValueError:  # (a hero not in the order: a table's mistake)
        cursor = state.cursor + 1
    for hero in state.heroes:
        if hero.id == hero_id:
            if hero.alive:
                return _upkeep(params, state, hero, cursor)
            break
    return replace(state, turns=state.turns + 1, cursor=cursor, turn=Turn(hero=hero_id, attacks_left=1, returning=True))


def _upkeep(params: Params, state: State, hero: Hero, cursor: int) -> State:
    """"Upkeep Phase", its steps in the text's order: the hero's turn begins; "he or she will
    first reduce the cooldown counter of any abilities on cooldown by 1"; "Once cooldowns have
    been resolved, the player will then resolve any current status effects"; "After doing so
    the player will reduce the counter on the associated status effect marker".

    The turn's start and the ticked cooldowns go into one copy of the state, and a hero with
    no status effect stops there: a third of all events are turn starts.
    """
    ready = _cooldowns_ticked(hero)
    state = replace(state, heroes=state.heroes if ready is hero else heroes_with(state, hero, ready),
                    turns=state.turns + 1, cursor=cursor, turn=_turn_of(hero))
    if not hero.effects:
        return state
    state = _statuses_resolve(params, state, ready)
    return _status_counters_tick(state, hero.id)


def _turn_of(hero: Hero) -> Turn:
    """The hero's turn, under the statuses it begins with: "stunned heroes are unable to move
    or attack", a poisoned hero's "mobility is reduced by 2", Precision Targeting holds."""
    if not hero.effects:
        return Turn(hero=hero.id, attacks_left=1)
    kinds = {e.kind for e in hero.effects}
    return Turn(hero=hero.id, attacks_left=1, stunned="stunned" in kinds, poisoned="poisoned" in kinds,
                precision="precision" in kinds)


def _cooldowns_ticked(hero: Hero) -> Hero:
    """The hero's sheet once the turn has begun: "reduce the cooldown counter of any abilities
    on cooldown by 1 (one). If this would reduce the current cooldown of an ability to 0
    (zero), the counter can be removed"; its Shield Wall ends ("taking no damage until his
    next turn")."""
    if not (hero.cooldowns or hero.shield_wall):
        return hero
    return replace(hero, cooldowns=_ticked(hero.cooldowns), shield_wall=False)


def _statuses_resolve(params: Params, state: State, hero: Hero) -> State:
    """"fulfill the conditions of the status effect" ("Status Effects"): "Burning heroes suffer
    1 damage at the beginning of their turn. Burn damage spreads to other members of the
    sufferer's team occupying nodes adjacent to the sufferer"; "poisoned heroes suffers 1
    damage at the beginning of their turn". `hero` is the sheet as it stands in `state`."""
    kinds = {e.kind for e in hero.effects}
    if "burning" in kinds and hero.node is not None:
        near = board.neighbours(hero.node)
        mates = [h for h in state.heroes if h.team == hero.team and h.node in near]
        for burnt in (hero, *mates):  # each hurt changes only its own hero: the others stay current
            state = hurt(params, state, burnt, 1)
    if "poisoned" in kinds and (current := find(state, hero.id)) is not None:
        state = hurt(params, state, current, 1)
    return state


def _status_counters_tick(state: State, hero_id: str) -> State:
    """"reduce the counter on the associated status effect marker. If this reduces the counter
    to 0 (zero), the player may remove the status effect marker" (a hero its statuses slew has
    none left: "status effects are removed")."""
    hero = find(state, hero_id)
    if hero is None or not hero.effects:
        return state
    effects = tuple([Timed(e.kind, e.turns - 1) for e in hero.effects if e.turns > 1])
    return replace(state, heroes=heroes_with(state, hero, replace(hero, effects=effects)))


@lru_cache(maxsize=1024)
def _ticked(cooldowns: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Cooldowns a turn later, those ending left out (remembered: a hero's few abilities and
    their turns left make a few dozen tuples, and every turn start of a hero with an ability
    cooling asks)."""
    return tuple([(name, left - 1) for name, left in cooldowns if left > 1])


def _apply_respawned(params: Params, state: State, event: HeroRespawned) -> State:
    hero = find(state, event.hero)
    if hero is None:
        return state
    health = stats(params, hero.id).health
    return replace(state, heroes=heroes_with(state, hero, replace(hero, node=event.node, alive=True, health=health)))


def _with_turn(state: State, **changes: Any) -> State:
    return state if state.turn is None else replace(state, turn=replace(state.turn, **changes))


def _apply_moved(params: Params, state: State, event: HeroMoved) -> State:
    """"A hero may move one node per movement point": the hero stands on its path's last node,
    and the turn is in its movement phase with one point spent per node walked."""
    hero = find(state, event.hero)
    if hero is None or not event.path:
        return state
    state = replace(state, heroes=heroes_with(state, hero, replace(hero, node=event.path[-1])))
    turn = state.turn
    if turn is None:
        return state
    return replace(state, turn=replace(turn, phase="movement", moved=turn.moved + len(event.path)))


def _apply_enchantment(params: Params, state: State, event: EnchantmentTaken) -> State:
    hero = find(state, event.hero)
    spot = next(((node, kind) for node, kind in state.enchantments if node == hero.node), None) if hero else None
    if hero is None or spot is None:
        return state
    state = replace(state, enchantments=tuple(e for e in state.enchantments if e != spot))
    return replace(state, heroes=heroes_with(state, hero, replace(hero, enchantment=spot[1])))


def _aim(state: State, attacker: Hero, target_id: str | None) -> Attack | None:
    """The last attack's line for the board view (unchanged when there is none to draw)."""
    target = find(state, target_id) if target_id else None
    if attacker.node is None or target is None or target.node is None:
        return state.last_attack
    return Attack(attacker.node, target.node)


def _apply_attack(params: Params, state: State, event: AttackDeclared) -> State:
    hero = find(state, event.hero)
    turn = state.turn
    if hero is None or turn is None:
        return state
    pending = (*turn.pending, Pending(event.hero, event.target, "basic"))
    turn = replace(turn, phase="combat", combat_used=True, attacks_left=turn.attacks_left - 1, pending=pending)
    return replace(state, turn=turn, last_attack=_aim(state, hero, event.target))


def _apply_ability(params: Params, state: State, event: AbilityUsed) -> State:
    """The ability's effect as its text gives it; it goes on cooldown."""
    hero = find(state, event.hero)
    ability = heroes.ABILITIES.get(event.ability)
    turn = state.turn
    if hero is None or ability is None or turn is None:
        return state
    used = replace(hero, cooldowns=_cooling(hero.cooldowns, ability.id, ability.cooldown))
    if (on_self := _ON_SELF.get(ability.id)) is not None:
        used = on_self(used)
    attacks_left = 2 if ability.id == "quick_blade" else 0  # Quick Blade: "Zadita may attack twice this turn"
    state = replace(state, heroes=heroes_with(state, hero, used),
                    turn=replace(turn, phase="combat", combat_used=True, attacks_left=attacks_left),
                    last_attack=state.last_attack if event.target is None else _aim(state, hero, event.target))
    effect = _ABILITY_EFFECTS.get(event.ability)
    return effect(params, state, hero, event.target) if effect else state


@lru_cache(maxsize=1024)
def _cooling(cooldowns: tuple[tuple[str, int], ...], ability: str, turns: int) -> tuple[tuple[str, int], ...]:
    """Cooldowns with `ability` put on cooldown for `turns` (last; remembered, as `_ticked`)."""
    return (*[(name, left) for name, left in cooldowns if name != ability], (ability, turns))


def _base(params: Params, hero: Hero) -> int:
    return stats(params, hero.id).damage


def _strike(params: Params, state: State, target_id: str | None, amount: int) -> State:
    """Ability damage on an enemy, after Divine Shield and Shield Wall."""
    target = find(state, target_id) if target_id else None
    if target is None:
        return state
    return hurt(params, state, target, shielded(params, state, target, amount))


def _adjacent_enemies(state: State, hero: Hero) -> list[Hero]:
    """Enemies on the hero's neighbouring nodes, by id (the order their damage is dealt)."""
    if hero.node is None:
        return []
    near = board.neighbours(hero.node)
    return sorted([h for h in state.heroes if h.team != hero.team and h.node in near], key=_by_id)


def _by_id(hero: Hero) -> str:
    return hero.id


def _chain_lightning(params: Params, state: State, hero: Hero, target_id: str | None) -> State:
    """"deals Elazar's base damage to target and all enemies in nodes adjacent to target. Damage will
    continue to spread to adjacent nodes, not counting nodes already affected, as long as an enemy
    inhabits them"."""
    first = find(state, target_id) if target_id else None
    if first is None or first.node is None:
        return state
    enemies = {h.node: h.id for h in state.heroes if h.team != hero.team and h.node is not None}
    struck, frontier = {first.node}, [first.node]
    while frontier:
        node = frontier.pop(0)
        for near in board.neighbours(node):
            if near in enemies and near not in struck:
                struck.add(near)
                frontier.append(near)
    for node in sorted(struck):
        state = _strike(params, state, enemies.get(node, first.id), _base(params, hero))
    return state


def _rising_winds(params: Params, state: State, hero: Hero, target_id: str | None) -> State:
    """"inflicts Sabea's base damage to all nodes adjacent to her position" (enemies only; assumed)."""
    for enemy in _adjacent_enemies(state, hero):
        state = _strike(params, state, enemy.id, _base(params, hero))
    return state


def _cheap_shot(params: Params, state: State, hero: Hero, target_id: str | None) -> State:
    """"Dekhar attacks all enemies around him within 1 node": one rolled attack per enemy."""
    pending = tuple(Pending(hero.id, enemy.id, "cheap_shot") for enemy in _adjacent_enemies(state, hero))
    return _with_turn(state, pending=pending)


def _mercy_killing(params: Params, state: State, hero: Hero, target_id: str | None) -> State:
    """"if target is under 4 health, they are instantly killed"."""
    target = find(state, target_id) if target_id else None
    if target is None or not target.alive or target.health >= MERCY_THRESHOLD or target.shield_wall:
        return state
    return slay(params, state, target)


def _status(kind: str, turns: int, damage: int = 0) -> Callable[[Params, State, Hero, str | None], State]:
    def effect(params: Params, state: State, hero: Hero, target_id: str | None) -> State:
        if target_id is None:
            return state
        state = _strike(params, state, target_id, damage)
        target = find(state, target_id)
        return state if target is None else add_effect(state, target, kind, turns)
    return effect


def _damage(bonus: int) -> Callable[[Params, State, Hero, str | None], State]:
    def effect(params: Params, state: State, hero: Hero, target_id: str | None) -> State:
        return _strike(params, state, target_id, _base(params, hero) + bonus)
    return effect


def _heal(amount: int) -> Callable[[Params, State, Hero, str | None], State]:
    def effect(params: Params, state: State, hero: Hero, target_id: str | None) -> State:
        target = find(state, target_id) if target_id else None
        return state if target is None else heal(params, state, target, amount)
    return effect


def _long_shot(params: Params, state: State, hero: Hero, target_id: str | None) -> State:
    """"increases Greven's basic attack range by 3 units for a single attack": a rolled attack."""
    return state if target_id is None else _with_turn(state, pending=(Pending(hero.id, target_id, "long_shot"),))


_ON_SELF: dict[str, Callable[[Hero], Hero]] = {
    "precision_targeting": lambda h: replace(h, effects=(*[e for e in h.effects if e.kind != "precision"], Timed("precision", 3))),
    "static_charge": lambda h: replace(h, static_charges=2),
    "shield_wall": lambda h: replace(h, shield_wall=True),
}
"""Abilities that only change the caster's own sheet, applied with its cooldown
(Precision Targeting: "+1 damage to her attacks for 3 turns"; Static Charge: "next two
basic attacks"; Shield Wall: "taking no damage until his next turn")."""

_ABILITY_EFFECTS: dict[str, Callable[[Params, State, Hero, str | None], State]] = {
    "long_shot": _long_shot,
    "explosive_shot": _damage(2),
    "full_draw": _heal(HEALS["full_draw"]),
    "chain_lightning": _chain_lightning,
    "life_ward": _heal(HEALS["life_ward"]),
    "blistering_pain": _status("burning", 2, damage=3),
    "mighty_blow": _damage(2),
    "rising_winds": _rising_winds,
    "ring_the_bell": _status("stunned", 1),
    "infected_wounds": _status("poisoned", 3),
    "cheap_shot": _cheap_shot,
    "mercy_killing": _mercy_killing,
}


def _apply_rolled(params: Params, state: State, event: AttackRolled) -> State:
    """Resolve the pending attack as the table did: the table's hit and damage if it said."""
    turn = state.turn
    pending = _pending_for(turn, event.target) if turn else None
    if turn is None or pending is None:
        return state
    state = replace(state, turn=replace(turn, pending=tuple([p for p in turn.pending if p is not pending])))
    attacker, target = find(state, pending.attacker), find(state, pending.target)
    if attacker is None or target is None:
        return state
    hit = event.hit if event.hit is not None else is_hit(chance_to_hit(params, state, attacker, target), event.tens, event.ones)
    if hit:
        state = _land(params, state, attacker, target, pending, event.damage)
    attacker = find(state, attacker.id)
    if attacker is not None and attacker.static_charges > 0:
        state = replace(state, heroes=heroes_with(state, attacker, replace(attacker, static_charges=attacker.static_charges - 1)))
    return state


def _land(params: Params, state: State, attacker: Hero, target: Hero, pending: Pending, claimed: int | None) -> State:
    """A successful basic attack: damage, then Splinter and Shockwave splash, then Leech."""
    gifts = blessings(params, state, attacker)
    splash: list[Hero] = []
    # Cheap Shot attacks every neighbour anyway; a table that let two heroes share a node
    # gives the splash no direction, so it has none
    if pending.kind != "cheap_shot" and attacker.node and target.node and attacker.node != target.node:
        nodes = set()
        if gifts.get("splinter"):
            nodes |= set(board.splinter_nodes(attacker.node, target.node))
        if gifts.get("shockwave"):
            nodes |= set(board.shockwave_nodes(attacker.node, target.node))
        splash = [h for h in state.heroes if h.node in nodes and h.team != attacker.team]
    # every amount is worked out on the board as it was when the attack landed; each hurt
    # changes only its own hero (splash nodes never hold the target), so the rest stay current
    damages = [(h, attack_damage(params, state, attacker, h, state.turn)) for h in splash]
    state = hurt(params, state, target, claimed if claimed is not None else attack_damage(params, state, attacker, target, state.turn))
    for hero, amount in damages:
        state = hurt(params, state, hero, amount)
    if gifts.get("leech"):
        state = heal(params, state, attacker, gifts["leech"])  # "Heal for 1 health on successful basic attack"
    return state


def _apply_captured(params: Params, state: State, event: AltarCaptured) -> State:
    """The altar changes hands, its blessing with it; +Grace; "Capturing an altar immediately ends the player's turn"."""
    hero = find(state, event.hero)
    index = altar_index(params, event.altar)
    if hero is None or index is None:
        return state
    altars = list(state.altars)
    grace = list(state.grace)
    if altars[index] != hero.team:
        grace[team_index(hero.team)] += params.capture_grace
    altars[index] = hero.team
    state = replace(state, altars=tuple(altars), grace=(grace[0], grace[1]))
    return _with_turn(state, phase="done")


_APPLY: dict[type, Callable[[Params, State, Any], State]] = {
    DraftRolled: _apply_draft_rolled,
    DraftChoiceMade: _apply_draft_choice,
    HeroPicked: _apply_hero_picked,
    HeroPlaced: _apply_hero_placed,
    TurnOrderSet: _apply_turn_order,
    TurnStarted: _apply_turn_started,
    HeroRespawned: _apply_respawned,
    HeroMoved: _apply_moved,
    EnchantmentTaken: _apply_enchantment,
    AttackDeclared: _apply_attack,
    AbilityUsed: _apply_ability,
    AttackRolled: _apply_rolled,
    AltarCaptured: _apply_captured,
}


def apply(params: Params, state: State, event: Event) -> State:
    """The state after the event, as the table played it (legal or not)."""
    handler = _APPLY.get(type(event))
    return handler(params, state, event) if handler else state


# --- victory ("End Game Conditions") -------------------------------------------------------


@last_state  # the play loop asks it after each event, and `legal` again of the same state (rulesets/memo.py)
def outcome(params: Params, state: State) -> Outcome | None:
    """The first victory condition met, or None while the game goes on.

    Asked before every action (no action after the end), so the common case, nothing
    met, is decided from the Grace meters, the first altar and who still stands.
    """
    if state.stage != "play":
        return None
    win = params.grace_to_win
    red, blue = state.grace
    if red >= win or blue >= win:  # "The first team to reach 20 Grace points achieves victory"
        team = "red" if red >= win else "blue"
        return Outcome(winner=team, reason=f"{team} reached {win} Grace", rule=RULE_IDS.id("victory.grace"))
    altars = state.altars
    if altars and altars[0] is not None and altars.count(altars[0]) == len(altars):  # "a single team controls all 8 altar points"
        team = str(altars[0])
        return Outcome(winner=team, reason=f"{team} controls all {len(altars)} altars", rule=RULE_IDS.id("victory.altars"))
    for hero in state.heroes:
        if not hero.alive:
            break
    else:
        return None  # nobody slain: nobody wiped out
    standing = {h.team for h in state.heroes if h.alive}
    if len(standing) == 1:  # "If all enemies are defeated before having the opportunity to respawn"
        team = standing.pop()
        return Outcome(winner=team, reason=f"{team} slew every enemy before any could respawn", rule=RULE_IDS.id("victory.wipe"))
    return None
