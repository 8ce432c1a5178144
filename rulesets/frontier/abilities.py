"""Every special ability a unit uses (`AbilityUsed`): when it may, and what it does.

frontier.md, Special Abilities: "Active: An active ability may be used by a unit once per
game. Passive: The effects and abilities from passive abilities always apply to the unit."
Passive abilities are not used: the rules apply them where they act (rolls.py, movement.py).
Only Target Designator, printed Passive but used "As a strategic action", is used here
(again and again). Each ability's passage is quoted at its handler.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from events.base import Event
from rulesets.frontier import board, effects, missions, movement, units
from rulesets.frontier.events import AbilityUsed
from rulesets.frontier.params import Params
from rulesets.frontier.state import (
    NEAR,
    State,
    Unit,
    Window,
    designated,
    enemies_of,
    find,
    gap,
    heights_at,
    kind,
    on_board,
    piece_at,
    position,
    replace_unit,
    sees,
    turn_number,
)
from rulesets.frontier.timing import Problems, front, strategic_problems, violation
from rulesets.memo import last_args
from rulesets.protocol import Violation

replace = msgspec.structs.replace

STRATEGIC = frozenset({
    "knife_missile", "experimental_nanites", "stim_packs", "forward_maggots", "neural_trojan", "target_designator",
    "focus_fire", "orbital_drop", "ambush", "minefield", "infiltration", "self_destruct",
})
"""Abilities used "As a strategic action" (step 1 of the owner's turn)."""
PRIMED = frozenset({"experimental_targeting_system", "override_safety_parameters", "jump_packs"})
"""Used "prior to" an action, reaction or move: they wait on the unit for it."""
RESERVES = frozenset({"orbital_drop", "infiltration"})
"""Held in reserve at deployment ("Instead of deploying this unit as normal"), deployed later."""


def absent(event: Event, unit: Unit, rule: str) -> Violation:
    """`rule` broken by a unit that is not on the table; one held in reserve breaks the ability
    that holds it (Orbital Drop, Infiltration: "Instead of deploying this unit as normal you may
    hold it in reserve. As a strategic action you may deploy it")."""
    if unit.status == "reserve":
        ability = "infiltration" if "infiltration" in unit.used else "orbital_drop"
        return violation(event, f"abilities.{ability}", f"{unit.id} is held in reserve ({ability.replace('_', ' ').title()}): it comes onto the table only as a strategic action")
    return violation(event, rule, f"{unit.id} is not on the table")


def _v(event: AbilityUsed, ability: str, message: str) -> Problems:
    return [violation(event, f"abilities.{ability}", message)]


def check(params: Params, state: State, event: AbilityUsed) -> Problems:
    """Every rule the use of an ability breaks."""
    unit = find(state, event.unit)
    if unit is None:
        return [violation(event, "abilities.unit", f"no unit {event.unit!r} is in this game")]
    printed = units.ability(unit.type, event.ability)
    if printed is None:
        own = ", ".join(a.id for a in kind(unit).abilities)
        return [violation(event, "abilities.unknown", f"{unit.id} has no ability {event.ability!r}; its abilities: {own}")]
    problems: Problems = []
    if state.stage != "play":
        problems.append(violation(event, "turn.sequence", f"{printed.name} is used in play, not during {state.stage}"))
    if event.by != unit.side:
        problems.append(violation(event, "abilities.owner", f"{unit.id} belongs to {unit.side}, not {event.by or 'an unnamed seat'}"))
    if printed.kind == "passive" and event.ability != "target_designator":
        return [*problems, violation(event, "abilities.passive", f"{printed.name} is passive: it always applies and is never used")]
    if event.ability in RESERVES:
        if unit.status != "reserve" or event.ability not in unit.used:
            problems.append(violation(event, "abilities.reserve", f"{unit.id} was not held in reserve by {printed.name}"))
    else:
        if unit.status != "board":
            return [*problems, absent(event, unit, "abilities.unit")]
        if printed.kind == "active" and event.ability in unit.used:
            problems.append(violation(event, "abilities.once-per-game", f"{unit.id} already used {printed.name}: an active ability is used once per game"))
    if event.ability in STRATEGIC:
        problems += strategic_problems(state, event, printed.name)
    handler = _CHECKS.get(event.ability)
    return problems + (handler(params, state, event, unit) if handler else [])


def apply(params: Params, state: State, event: AbilityUsed) -> State:
    """The ability's effect as its text gives it; an active one is spent."""
    unit = find(state, event.unit)
    if unit is None:
        return state
    printed = units.ability(unit.type, event.ability)
    if printed is not None and printed.kind == "active" and event.ability not in unit.used:
        unit = replace(unit, used=(*unit.used, event.ability))
        state = replace_unit(state, unit)
    if event.ability in STRATEGIC and state.turn is not None:
        state = replace(state, turn=replace(state.turn, strategic=event.ability, step="action"))
    handler = _EFFECTS.get(event.ability)
    return handler(params, state, event, unit) if handler else state


# --- checks ------------------------------------------------------------------------------------


def _one_point(event: AbilityUsed, ability: str) -> Problems:
    if len(event.points) != 1:
        return _v(event, ability, f"{ability} places one point, not {len(event.points)}")
    if not missions.on_table(event.points[0]):
        return _v(event, ability, f"{event.points[0]} is off the table")
    return []


def _friend_within(state: State, event: AbilityUsed, unit: Unit, ability: str) -> Problems:
    """"choose a friendly unit within 5"" (the unit itself counts: readings.py)."""
    target = find(state, event.target)
    if target is None or target.status != "board" or target.side != unit.side:
        return _v(event, ability, f"{event.target} is not a friendly unit on the table")
    if gap(unit, target) > NEAR + board.EPS:
        return _v(event, ability, f'{target.id} is {gap(unit, target):.1f}" away; it must be within 5"')
    return []


def _enemy(state: State, event: AbilityUsed, unit: Unit, ability: str) -> Unit | Problems:
    target = find(state, event.target)
    if target is None or target.status != "board" or target.side == unit.side:
        return _v(event, ability, f"{event.target} is not an enemy unit on the table")
    return target


def _placement(state: State, event: AbilityUsed, unit: Unit, ability: str) -> Problems:
    """Where a unit is put down: a height it can stand at, not on another unit, not in impassable terrain."""
    at = event.points[0]
    problems = []
    if event.level not in heights_at(state, at):
        problems += _v(event, ability, f"nothing at {at} stands {event.level} high")
    found = piece_at(state, at)
    if found is not None and found.impassable():
        problems += _v(event, ability, f"{at} is in impassable terrain")
    for other in on_board(state):
        if other.id != unit.id and board.distance(at, position(other)) < kind(unit).base + kind(other).base - movement.SLACK:
            problems += _v(event, ability, f"{at} is on top of {other.id}")
    return problems


def _check_knife_missile(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"As a strategic action place a token within 5" of this unit"."""
    problems = _one_point(event, "knife_missile")
    if not problems and board.distance(event.points[0], position(unit)) > NEAR + board.EPS:
        problems += _v(event, "knife_missile", f'the token must be placed within 5" of {unit.id}')
    return problems


def _check_friend(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    return _friend_within(state, event, unit, event.ability)


def _check_designator(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"select a target enemy unit within line of sight of the pathfinder"."""
    target = _enemy(state, event, unit, "target_designator")
    if isinstance(target, list):
        return target
    if not sees(state, unit, target):
        return _v(event, "target_designator", f"{target.id} is not within line of sight of {unit.id}")
    return []


def _check_focus_fire(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"choose an enemy unit that is a designated target"."""
    target = _enemy(state, event, unit, "focus_fire")
    if isinstance(target, list):
        return target
    if not designated(state, target):
        return _v(event, "focus_fire", f"{target.id} is not a designated target")
    return []


def _check_orbital_drop(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"As a strategic action you may deploy it anywhere on the battlefield"."""
    problems = _one_point(event, "orbital_drop")
    return problems or _placement(state, event, unit, "orbital_drop")


def _check_ambush(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"if this unit is out of line of sight of enemy units, you may immediately place it anywhere
    within 15" that is also out of line of sight"."""
    problems = _one_point(event, "ambush")
    if problems:
        return problems
    seen = spotters(state, unit)
    if seen:
        problems += _v(event, "ambush", f"{unit.id} is in line of sight of {', '.join(seen)}")
    at = event.points[0]
    if board.distance(at, position(unit)) > 15 + board.EPS:
        problems += _v(event, "ambush", f'{at} is {board.distance(at, position(unit)):.1f}" away; the commando is placed within 15"')
    watchers = [e.id for e in enemies_of(state, unit) if sees(state, e, unit, b_at=at, b_level=event.level)]
    if watchers:
        problems += _v(event, "ambush", f"{at} is in line of sight of {', '.join(watchers)}")
    return problems + _placement(state, event, unit, "ambush")


@last_args  # each of a decision's two dozen Ambush points asks it of the same commando (rulesets/memo.py)
def spotters(state: State, unit: Unit) -> tuple[str, ...]:
    """The enemy units that see a unit where it stands (an Ambush needs none)."""
    return tuple(e.id for e in enemies_of(state, unit) if sees(state, e, unit))


def _check_minefield(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"place 2 markers within 10" of this unit, and at least 5" from each other and any enemy units"."""
    if len(event.points) != 2:
        return _v(event, "minefield", f"Minefield places 2 markers, not {len(event.points)}")
    problems = []
    for at in event.points:
        if not missions.on_table(at):
            problems += _v(event, "minefield", f"{at} is off the table")
        if board.distance(at, position(unit)) > 10 + board.EPS:
            problems += _v(event, "minefield", f'{at} is not within 10" of {unit.id}')
        close = [e.id for e in enemies_of(state, unit) if board.distance(at, position(e)) < NEAR - board.EPS]
        if close:
            problems += _v(event, "minefield", f'{at} is less than 5" from {", ".join(close)}')
    if board.distance(*event.points) < NEAR - board.EPS:
        problems += _v(event, "minefield", 'the two markers must be at least 5" from each other')
    return problems


def _check_infiltration(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"you may deploy the conspirator at the location of one of the tokens"."""
    problems = _one_point(event, "infiltration")
    if problems:
        return problems
    mine = [t for t in state.tokens if t.kind == "infiltration" and t.id.startswith(f"{unit.id}:")]
    if not any(board.distance(t.at, event.points[0]) <= 0.01 for t in mine):
        return _v(event, "infiltration", f"{event.points[0]} is not the location of one of {unit.id}'s infiltration tokens")
    return _placement(state, event, unit, "infiltration")


def _check_flame(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"Use at any point while within 5" of an enemy unit, that unit immediately becomes shaken"."""
    target = _enemy(state, event, unit, "flame_units")
    if isinstance(target, list):
        return target
    if gap(unit, target) > NEAR + board.EPS:
        return _v(event, "flame_units", f'{target.id} is {gap(unit, target):.1f}" away: Flame Units needs an enemy within 5"')
    return []


def _check_freedom(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"Use at any point when this unit shaken, it is no longer shaken"."""
    return [] if unit.shaken else _v(event, "freedom_fighters", f"{unit.id} is not shaken")


def _check_holtzmann(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"Activate when this unit is targeted by an open fire action or overwatch reaction"."""
    act = state.turn.activation if state.turn else None
    if act is not None and act.phase in ("react", "roll"):
        if act.action == "open_fire" and act.target == unit.id:
            return []
        if act.reaction == "overwatch" and act.unit == unit.id:
            return []
    return _v(event, "experimental_holtzmann_field", f"{unit.id} is not the target of an open fire action or an overwatch reaction waiting for its roll")


def _check_holofield(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"When a friendly unit within 10" is targeted by an open fire action you may activate this ability"."""
    act = state.turn.activation if state.turn else None
    target = find(state, act.target) if act else None
    if act is None or act.action != "open_fire" or act.phase != "react" or target is None or target.status != "board":
        return _v(event, "holofield", "no open fire action is waiting for its reaction")
    if target.side != unit.side or target.id == unit.id:
        return _v(event, "holofield", f"the target {target.id} is not another friendly unit")
    if gap(unit, target) > 10 + board.EPS:
        return _v(event, "holofield", f'{target.id} is {gap(unit, target):.1f}" away; Holofield covers friendly units within 10"')
    return []


def _check_escape_plan(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"Activate when this unit makes a fall back reaction"."""
    act = state.turn.activation if state.turn else None
    aimed = act is not None and act.action == "fight_through" and act.target == unit.id
    if aimed and act is not None and (act.phase == "react" or (act.phase == "roll" and act.reaction == "fall_back" and act.reactor == unit.id)):
        return []
    return _v(event, "escape_plan", f"{unit.id} is not making a fall back reaction")


def _check_demolition(params: Params, state: State, event: AbilityUsed, unit: Unit) -> Problems:
    """"Activate when this unit successfully completes a fall back reaction"."""
    window = front(state.turn)
    if window is None or window.kind != "demolition" or window.unit != unit.id:
        return _v(event, "unscheduled_demolition", f"{unit.id} has not just completed a successful fall back reaction")
    return []


_CHECKS: dict[str, Callable[[Params, State, AbilityUsed, Unit], Problems]] = {
    "knife_missile": _check_knife_missile,
    "experimental_nanites": _check_friend,
    "stim_packs": _check_friend,
    "target_designator": _check_designator,
    "focus_fire": _check_focus_fire,
    "orbital_drop": _check_orbital_drop,
    "ambush": _check_ambush,
    "minefield": _check_minefield,
    "infiltration": _check_infiltration,
    "flame_units": _check_flame,
    "freedom_fighters": _check_freedom,
    "experimental_holtzmann_field": _check_holtzmann,
    "holofield": _check_holofield,
    "escape_plan": _check_escape_plan,
    "unscheduled_demolition": _check_demolition,
}


# --- effects -------------------------------------------------------------------------------------


def _windows(state: State, *added: Window, first: bool = False) -> State:
    turn = state.turn
    if turn is None:
        return state
    windows = (*added, *turn.windows) if first else (*turn.windows, *added)
    return replace(state, turn=replace(turn, windows=windows))


def _knife_missile(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    return effects.place_token(state, "knife_missile", unit.side, event.points[0]) if event.points else state


def _nanites(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"Roll a D6": the roll follows as its own chance event."""
    turn = state.turn
    return state if turn is None or event.target is None else replace(state, turn=replace(turn, nanites=event.target))


def _stim_packs(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"Move the unit up to 5". If that unit is shaken it is no longer shaken"."""
    target = find(state, event.target)
    if target is None or target.status != "board":
        return state
    state = replace_unit(state, replace(target, shaken=False))
    if movement.cannot_move(target):
        return state
    return _windows(state, Window(kind="move", seat=unit.side, unit=target.id, purpose="stim_packs", allowance=params.short_move))


def _forward_maggots(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"move all friendly units within 10" up to 5"" (the bosun too: readings.py)."""
    near = [u for u in on_board(state, unit.side) if gap(unit, u) <= 10 + board.EPS and not movement.cannot_move(u)]
    return _windows(state, *(Window(kind="move", seat=unit.side, unit=u.id, purpose="forward_maggots", allowance=params.short_move) for u in near))


def _neural_trojan(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"every enemy unit within 20" must roll 4 or higher using their discipline": one test each, in unit order."""
    turn = state.turn
    tested = tuple(e.id for e in enemies_of(state, unit) if gap(unit, e) <= 20 + board.EPS)
    return state if turn is None else replace(state, turn=replace(turn, tests=tested))


def _target_designator(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    if event.target is None or (event.target, unit.id) in state.designated:
        return state
    return replace(state, designated=(*state.designated, (event.target, unit.id)))


def _focus_fire(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"immediately make an open fire action against that unit with another unit of your choice"."""
    return _windows(state, Window(kind="focus_fire", seat=unit.side, unit=unit.id, target=event.target))


def _orbital_drop(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"If this unit is deployed within 5" of another unit ... that unit becomes shaken. This unit
    gains disadvantage on all actions until the end of the controlling players turn"."""
    if not event.points:
        return state
    at = event.points[0]
    dropped = replace(unit, status="board", at=at, level=event.level, until=(*unit.until, ("orbital_drop", turn_number(state))))
    state = replace_unit(state, dropped)
    state = effects.shake_within(state, at, NEAR, besides=unit.id)
    return effects.unit_arrived(params, state, unit.id, (at,))


def _ambush(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"place it anywhere within 15" ... gains advantage on assault until the end of your turn"."""
    if not event.points:
        return state
    state = replace_unit(state, replace(unit, at=event.points[0], level=event.level, until=(*unit.until, ("ambush", turn_number(state)))))
    return effects.unit_arrived(params, state, unit.id, (event.points[0],))


def _minefield(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    for at in event.points:
        state = effects.place_token(state, "mine", unit.side, at)
    return state


def _infiltration(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"deploy the conspirator at the location of one of the tokens, then remove the tokens"."""
    if not event.points:
        return state
    state = replace_unit(state, replace(unit, status="board", at=event.points[0], level=event.level))
    state = replace(state, tokens=tuple(t for t in state.tokens if not (t.kind == "infiltration" and t.id.startswith(f"{unit.id}:"))))
    return effects.unit_arrived(params, state, unit.id, (event.points[0],))


def _self_destruct(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"All units (including friendly units) within 5" become shaken. Remove the [unit] from the
    battlefield, it does not count as destroyed"."""
    state = effects.shake_within(state, position(unit), NEAR, besides=unit.id)
    return effects.take_off(state, unit.id, "removed")


def _prime(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    current = find(state, unit.id) or unit
    return replace_unit(state, replace(current, primed=(*current.primed, event.ability)))


def _flame(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    return effects.shake(state, event.target)


def _repulsor(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """Every unit within 5" is pushed 5" straight away; a collision shakes; an enemy pushed off
    terrain falls ("as the result of an opponent's activity (e.g. ... the repulsor field")."""
    for push in movement.repulse(state, unit):
        pushed = find(state, push.unit)
        if pushed is None or pushed.status != "board" or pushed.at is None:
            continue
        start, z0 = pushed.at, pushed.level
        state = replace_unit(state, replace(pushed, at=push.to, level=push.level))
        if push.collided is not None:
            state = effects.shake(state, pushed.id)
        drop = movement.fallen(state, pushed, start, z0, push.to, push.level)
        if pushed.side != unit.side and drop:
            result = movement.fall(pushed, drop)
            state = effects.shake(state, pushed.id) if result == "shaken" else effects.destroy(state, pushed.id) if result == "destroyed" else state
        state = effects.unit_arrived(params, state, pushed.id, (start, push.to))
    return state


def _ghost(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    return replace_unit(state, replace(find(state, unit.id) or unit, ghost=True))


def _freedom(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    return replace_unit(state, replace(find(state, unit.id) or unit, shaken=False))


def _holofield(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"make this unit the target. If this results in the action being invalid (e.g. no line of
    sight) then the open fire action is nullified"."""
    turn = state.turn
    act = turn.activation if turn else None
    shooter = find(state, act.unit) if act else None
    if turn is None or act is None or shooter is None or shooter.at is None:
        return state
    act = replace(act, target=unit.id)
    if open_fire_problem(state, shooter, unit) is not None:
        act = replace(act, phase="resolve", won=None)
    return replace(state, turn=replace(turn, activation=act))


def open_fire_allowed(state: State, shooter: Unit, target: Unit) -> bool:
    """`open_fire_problem(...) is None`, without its message: the same questions in the same
    order (`legal` asks it of every enemy of every unit at a declaration)."""
    if target.at is None or shooter.at is None or gap(shooter, target) < 10 - board.EPS:
        return False
    return (shooter.type == "specialist" and designated(state, target)) or sees(state, shooter, target)


def open_fire_problem(state: State, shooter: Unit, target: Unit) -> str | None:
    """Why open fire may not target a unit: "within line of sight and at least 10" away".

    Smart Mortars: "Line of sight is not required when making an open fire action against a
    designated target"."""
    if target.at is None or shooter.at is None:
        return f"{target.id} is not on the table"
    if gap(shooter, target) < 10 - board.EPS:
        return f'{target.id} is {gap(shooter, target):.1f}" away: open fire needs a target at least 10" away'
    mortar = shooter.type == "specialist" and designated(state, target)
    if not mortar and not sees(state, shooter, target):
        return f"{shooter.id} has no line of sight to {target.id}"
    return None


def _demolition(params: Params, state: State, event: AbilityUsed, unit: Unit) -> State:
    """"the active unit becomes shaken"."""
    window = front(state.turn)
    if window is None or window.kind != "demolition" or state.turn is None:
        return state
    state = replace(state, turn=replace(state.turn, windows=state.turn.windows[1:]))
    return effects.shake(state, window.target)


_EFFECTS: dict[str, Callable[[Params, State, AbilityUsed, Unit], State]] = {
    "knife_missile": _knife_missile,
    "experimental_nanites": _nanites,
    "stim_packs": _stim_packs,
    "forward_maggots": _forward_maggots,
    "neural_trojan": _neural_trojan,
    "target_designator": _target_designator,
    "focus_fire": _focus_fire,
    "orbital_drop": _orbital_drop,
    "ambush": _ambush,
    "minefield": _minefield,
    "infiltration": _infiltration,
    "self_destruct": _self_destruct,
    "experimental_targeting_system": _prime,
    "override_safety_parameters": _prime,
    "jump_packs": _prime,
    "experimental_holtzmann_field": _prime,
    "escape_plan": _prime,
    "flame_units": _flame,
    "repulsor_field": _repulsor,
    "ghost_field": _ghost,
    "freedom_fighters": _freedom,
    "holofield": _holofield,
    "unscheduled_demolition": _demolition,
}
