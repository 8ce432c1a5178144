"""The action roll: which die each side rolls, how many, which one counts, and who wins.

frontier.md, Action Roll: "check the unit's rating for the associated action or reaction
and roll the corresponding dice. The player with the highest result wins ... The active
player wins in the event of a draw." Advantage and Disadvantage: "roll twice and use the
highest / lowest result ... cancel out on a one to one basis ... you never roll more than
two dice". Every source the text names is collected here, by name, so the audit can say
why a roll needed two dice.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from rulesets.frontier.params import Params
from rulesets.frontier.state import (
    ATTRIBUTE,
    NEAR,
    State,
    Unit,
    designated,
    enemies_of,
    find,
    friends_of,
    gap,
    has,
    kind,
    on_board,
    sees,
    terrain_rules,
    turn_number,
    until,
)
from rulesets.frontier.units import ABILITY_IDS
from rulesets.memo import last_state

Keep = Literal["only", "high", "low"]

TARGETS_ACTIVE = ("overwatch", "counter_attack", "firefight")
"""Reactions aimed at the active unit ("Active unit becomes shaken", "moves the active unit")."""
TARGETS_TARGET = ("open_fire", "fight_through")
"""Actions aimed at their target."""
IMPOSING = frozenset({"crowd_suppression_systems", "technological_horror", "com_jammer"})
"""Enemy abilities that put disadvantage on a discipline roll (`_imposed`)."""
NONE: frozenset[str] = frozenset()


class Roll(NamedTuple):
    """What one side rolls: the die (or the dice it may choose between), how many, which counts."""

    unit: str
    kind: str
    """The action or reaction rolled for (or `discipline_test`)."""
    attribute: str
    dice: tuple[int, ...]
    """Die sizes the unit may roll: its own rating first, then any Inspiring unit's discipline."""
    advantage: tuple[str, ...]
    disadvantage: tuple[str, ...]
    number: int
    """How many dice: 1, or 2 under net advantage or disadvantage."""
    keep: Keep

    @property
    def die(self) -> int:
        """The largest die the unit may roll (a player takes the best Inspiring offers)."""
        return max(self.dice)


def dice_count(params: Params, advantage: int, disadvantage: int) -> tuple[int, Keep]:
    """"Advantage and disadvantage ... cancel out on a one to one basis"; never more than two dice."""
    net = advantage - disadvantage
    if net == 0:
        return 1, "only"
    return min(2, params.max_dice), "high" if net > 0 else "low"


def kept(dice: tuple[int, ...], keep: Keep) -> int:
    """The die that counts: the highest under advantage, the lowest under disadvantage."""
    if not dice:
        return 0
    return min(dice) if keep == "low" else max(dice)


def winner(active: int, reactive: int) -> str:
    """"The player with the highest result wins ... The active player wins in the event of a draw"."""
    return "active" if active >= reactive else "reactive"


def sources(params: Params, state: State, roller: Unit, roll_kind: str, *, target: Unit | None = None,
            opponent: Unit | None = None, targeted_by: str | None = None, reacting: bool = False) -> tuple[list[str], list[str]]:
    """Every source of advantage and of disadvantage on one roll, named.

    `target` is the unit the roll is aimed at (open fire's target; the active unit for
    overwatch, counter attack and firefight); `opponent` the other side's roller;
    `targeted_by` the action or reaction aimed at the roller.
    """
    attribute = ATTRIBUTE.get(roll_kind, "discipline")
    adv: list[str] = []
    dis: list[str] = []
    now = turn_number(state)
    here = terrain_rules(state, roller)
    # Terrain Rules
    if "rough" in here and attribute == "mobility":
        dis.append("Rough terrain: disadvantage to mobility")
    if "firing_position" in here and attribute == "firepower":
        adv.append("Firing Position: advantage on firepower")
    if roll_kind == "take_cover" and "exposed" in here:
        dis.append("Exposed terrain: disadvantage on take cover")
    if roll_kind == "take_cover" and "cover" in here:
        adv.append("Cover: advantage on take cover")
    # the roller's own abilities (its printed entry's, read once: `has` for each below)
    own = ABILITY_IDS.get(roller.type, NONE)
    if "experimental_targeting_system" in roller.primed and attribute == "firepower":
        adv.append("Experimental Targeting System")
    if "inexorable_advance" in own and targeted_by in ("overwatch", "counter_attack"):
        adv.append("Inexorable Advance: target of an overwatch or counter attack reaction")
    if "shock_tactics" in own and attribute == "assault" and target is not None and target.at and gap(roller, target) <= NEAR:
        adv.append('Shock Tactics: assault against an enemy within 5"')
    if "kill_zone" in own and roll_kind == "overwatch":
        adv.append("Kill Zone: overwatch")
    if "override_safety_parameters" in roller.primed and roll_kind == "open_fire":
        adv.append("Override Safety Parameters")
    if roller.nanites is not None and roller.nanites == attribute:
        adv.append(f"Experimental Nanites: {attribute}")
    if "friendly_competition" in own and _breacher_nearby(state, roller):
        adv.append('Friendly Competition: a friendly breacher within 10" and line of sight')
    if until(roller, "forward_maggots", now) and roll_kind in ("advance", "fight_through"):
        adv.append("Forward Maggots: moved this turn")
    if "targeting_assist" in own and _assisted(state, target, opponent, reacting):
        adv.append("Targeting Assist: a designated target")
    if until(roller, "orbital_drop", now):
        dis.append("Orbital Drop: disadvantage on all actions this turn")
    if "experimental_holtzmann_field" in roller.primed and targeted_by in ("open_fire", "overwatch"):
        adv.append("Experimental Holtzmann Field")
    if "escape_plan" in roller.primed and roll_kind == "fall_back":
        adv.append("Escape Plan")
    if until(roller, "ambush", now) and attribute == "assault":
        adv.append("Ambush: assault until the end of the turn")
    dis += _imposed(state, roller, roll_kind, attribute, target)
    return adv, dis


def _breacher_nearby(state: State, roller: Unit) -> bool:
    return any(f.type == "breacher" and gap(roller, f) <= 10 and sees(state, roller, f) for f in friends_of(state, roller))


def _assisted(state: State, target: Unit | None, opponent: Unit | None, reacting: bool) -> bool:
    """"when targeting or reacting to a designated target"."""
    if target is not None and designated(state, target):
        return True
    return reacting and opponent is not None and designated(state, opponent)


def _imposed(state: State, roller: Unit, roll_kind: str, attribute: str, target: Unit | None) -> list[str]:
    """Disadvantage the other side's units put on the roller."""
    dis = []
    if attribute == "discipline" and roller.at is not None:
        for enemy in enemies_of(state, roller):
            if not IMPOSING & ABILITY_IDS.get(enemy.type, NONE):
                continue  # none of the three below (most units)
            if has(enemy, "crowd_suppression_systems") and gap(roller, enemy) <= 10:
                dis.append(f'Crowd Suppression Systems ({enemy.id} within 10")')
            if has(enemy, "technological_horror") and gap(roller, enemy) <= 10:
                dis.append(f'Technological Horror ({enemy.id} within 10")')
            if has(enemy, "com_jammer") and gap(roller, enemy) <= 20:
                dis.append(f'Com Jammer ({enemy.id} within 20")')
    if target is not None:
        if target.ghost:
            dis.append(f"Ghost Field on {target.id}")
        if has(target, "active_camouflage") and attribute == "firepower":
            dis.append(f"Active Camouflage on {target.id}")
        if roll_kind == "open_fire" and target.at is not None:
            for guard in on_board(state, target.side):
                if has(guard, "countermeasures") and gap(guard, target) <= 10:
                    dis.append(f'Countermeasures ({guard.id} within 10" of the target)')
    return dis


def die_options(state: State, roller: Unit, attribute: str) -> tuple[int, ...]:
    """The unit's rating, and for discipline the rating of every friendly Inspiring unit within
    10" and line of sight ("may use this unit's discipline instead of their own")."""
    own = kind(roller).rating(attribute)
    if attribute != "discipline" or roller.at is None:
        return (own,)
    others = [kind(f).discipline for f in friends_of(state, roller)
              if has(f, "inspiring") and gap(roller, f) <= 10 and sees(state, roller, f)]
    return (own, *sorted(set(others) - {own}, reverse=True))


def roll_for(params: Params, state: State, roller: Unit, roll_kind: str, **context: object) -> Roll:
    """One side's roll with its sources counted."""
    attribute = ATTRIBUTE.get(roll_kind, "discipline")
    adv, dis = sources(params, state, roller, roll_kind, **context)  # type: ignore[arg-type]
    count, keep = dice_count(params, len(adv), len(dis))
    return Roll(unit=roller.id, kind=roll_kind, attribute=attribute, dice=die_options(state, roller, attribute),
                advantage=tuple(adv), disadvantage=tuple(dis), number=count, keep=keep)


@last_state  # the roll's check and its apply ask it of the same state (rulesets/memo.py)
def action_rolls(params: Params, state: State) -> tuple[Roll, Roll] | None:
    """Both sides' rolls for the activation waiting for its dice (None if none waits)."""
    turn = state.turn
    act = turn.activation if turn else None
    if act is None or act.reaction is None:
        return None
    active, reactor = find(state, act.unit), find(state, act.reactor)
    if active is None or reactor is None or active.at is None or reactor.at is None:
        return None
    target = find(state, act.target) if act.action in TARGETS_TARGET else None
    aims_at_active = act.reaction in TARGETS_ACTIVE
    mine = roll_for(params, state, active, act.action, target=target, opponent=reactor,
                    targeted_by=act.reaction if aims_at_active else None, reacting=False)
    theirs = roll_for(params, state, reactor, act.reaction, target=active if aims_at_active else None, opponent=active,
                      targeted_by=act.action if target is not None and target.id == reactor.id else None, reacting=True)
    return mine, theirs


def discipline_test(params: Params, state: State, unit: Unit) -> Roll:
    """Neural Trojan's test: the unit's discipline, with the discipline sources that apply."""
    return roll_for(params, state, unit, "discipline_test")
