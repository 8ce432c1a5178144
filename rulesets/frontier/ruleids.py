"""Frontier's rule ids: every id its checks, outcomes and readings name, each with the section
of frontier.md it stands for and what breaking it looks like.

Three families are one rule per thing the text gives its own heading: an ability
(`abilities.knife_missile`, under its own name), a mission (`missions.escort`) and a reaction
(`reactions.overwatch`); they are declared from the game's data so none can be left out.
"""

from __future__ import annotations

from rulesets.frontier.params import MISSIONS
from rulesets.frontier.state import REACTIONS
from rulesets.frontier.units import ABILITY_NAMES
from rulesets.ruleids import RuleIds

_RULES: dict[str, tuple[str, str]] = {
    "setup": ("Setup", "a match set up other than Setup says"),
    "setup.order": ("Setup", "a setup step out of the order: mission, terrain, roles, factions and units"),
    "setup.seat": ("Setup", "a decision by a seat that is not at the table"),
    "setup.options": ("Setup", "announcing another faction than the match agreed"),
    "terrain.piece": ("Terrain", "two terrain pieces of one name"),
    "terrain.outline": ("Terrain", "a terrain outline that is not a simple polygon of three or more corners"),
    "terrain.scale": ("Terrain", "a terrain piece of negative scale"),
    "terrain.rules": ("Terrain Rules", "a terrain rule the text does not have"),
    "terrain.overlap": ("Terrain", "overlapping terrain pieces (a warning: the first placed counts)"),
    "terrain.levels": ("Terrain Rules", "a building's floors read with other rules than the text gives them"),
    "terrain.enter": ("Terrain", "entering terrain other than moving over lower scale and climbing equal or higher"),
    "terrain.mixture": ("Terrain", "a board without the mixture of scales the text asks for"),
    "terrain.move": ("Terrain", "terrain moved after the players agreed the board"),
    "terrain.impassable": ("Terrain Rules", "ending a move in impassable terrain"),
    "roles.roll": ("Setup", "attacker and defender decided other than by a roll"),
    "roles.choice": ("Setup", "choosing a role before anyone won the roll"),
    "selection.order": ("Faction and Unit Selection", "choosing factions before the roll for attacker and defender"),
    "selection.faction": ("Faction and Unit Selection", "announcing a second faction"),
    "selection.units": ("Faction and Unit Selection", "choosing units twice or from another faction"),
    "selection.points": ("Faction and Unit Selection", "units past the point limit for the mission"),
    "selection.secret": ("Faction and Unit Selection", "revealing a unit selection before both players picked"),
    "deployment.order": ("Deployment", "deploying before the long board edge is picked, or out of the mission's order"),
    "deployment.edges": ("Deployment", "choosing an edge when none is to be chosen"),
    "deployment.zone": ("Deployment", "deploying a unit outside its deployment zone, off the table or where it cannot stand"),
    "deployment.all": ("Deployment", "ending deployment before all of the side's units are set up"),
    "deployment.half": ("Deployment", "setting up more than 50% of the points where the mission allows only that"),
    "deployment.same-type": ("Deployment", "units of one type deployed more than 5\" from each other"),
    "deployment.reserve": ("Deployment", "holding in reserve a unit with no ability that lets it"),
    "deployment.strong-point": ("Assault", "a strong point 5\" or less from the attacker's deployment zone"),
    "deployment.sabotage-centre": ("Sabotage", "the defender's target placed other than the Sabotage mission says"),
    "deployment.ambush": ("Ambush", "ambushers deployed other than the Ambush mission says"),
    "deployment.infiltration": ("Infiltration", "infiltration tokens inside the enemy's deployment zone"),
    "turn.first-player": ("Turn Sequence", "a first turn taken by another player than the one the reading gives"),
    "turn.player": ("Turn Sequence", "a decision made by the other player"),
    "turn.sequence": ("Turn Sequence", "an ability used outside the turn sequence"),
    "turn.no-action": ("Turn Sequence", "a turn that chooses no unit and action"),
    "turn.one-strategic-action": ("Turn Sequence", "a second strategic action in one turn"),
    "units.owner": ("Turn Sequence", "activating the other player's unit"),
    "units.unknown": ("Turn Sequence", "a unit that is not on the table"),
    "actions.unit": ("Actions", "an action by a unit that is not on the table"),
    "actions.unknown": ("Actions", "an action the text does not have"),
    "actions.advance": ("Actions", "an advance farther than 10\" or by a unit that cannot move"),
    "actions.bug_out": ("Actions", "a bug out with a target"),
    "actions.fight_through": ("Actions", "a fight through that does not end with its target in line of sight"),
    "actions.hazardous": ("Terrain Rules", "a unit activated in hazardous terrain that is not shaken"),
    "open-fire.target": ("Actions", "open fire at something that is not an enemy unit on the table"),
    "open-fire.range": ("Actions", "open fire at a target less than 10\" away"),
    "open-fire.line-of-sight": ("Actions", "open fire at a target out of line of sight"),
    "fight-through.target": ("Actions", "fighting through to something that is not an enemy unit on the table"),
    "fight-through.range": ("Actions", "fighting through to a target no 5\" move brings within 10\""),
    "bug-out.evac": ("Actions", "bugging out more than 10\" from the side's evac zones"),
    "reactions.unit": ("Reactions", "a reaction by a unit that is not on the table"),
    "reactions.allowed": ("Actions and Reactions", "a reaction the action does not allow"),
    "reactions.bug-out": ("Actions and Reactions", "Bug Out's reactions read other than the reading gives"),
    "reactions.effect": ("Reactions", "resolving other than the winner's action or reaction"),
    "reactions.timing": ("Reactions", "a reaction resolved at another moment than its requirement names"),
    "action-roll.order": ("Action Roll", "rolling with no action and reaction waiting for their roll"),
    "action-roll.no-reaction": ("Action Roll", "rolling for an action no reaction answered: it succeeds without dice"),
    "action-roll.dice": ("Action Roll", "rolling other dice than the ratings give, or more than two"),
    "action-roll.die": ("Action Roll", "rolling another die than the unit's rating, or a face the die does not have"),
    "action-roll.winner": ("Action Roll", "giving the roll to the player who did not roll highest (the active player wins ties)"),
    "advantage.dice-count": ("Advantage and Disadvantage", "rolling another number of dice than advantage and disadvantage give"),
    "advantage.kept": ("Advantage and Disadvantage", "keeping another die than the highest (advantage) or lowest (disadvantage)"),
    "measuring": ("Actions", "a distance 'within' or 'at least' measured other than centre to centre of the bases"),
    "line-of-sight.five-inch": ("Line of Sight", "line of sight through terrain within 5\" of a unit of lower scale"),
    "line-of-sight.on-top": ("Line of Sight", "a unit on terrain whose scale is not raised by the terrain's"),
    "line-of-sight.open-sided": ("Terrain Rules", "Open Sided terrain that is not ignored"),
    "movement.when": ("Movement", "moving a unit that has no move to make now"),
    "movement.distance": ("Movement", "ending a move further than the allowed distance from its start"),
    "movement.path": ("Movement", "a path longer than the move allows"),
    "movement.table": ("Movement", "moving off the table"),
    "movement.through-units": ("Movement", "ending a move on top of another unit"),
    "climbing.cost": ("Climbing", "climbing without losing 1\" of movement per scale climbed"),
    "climbing.halfway": ("Climbing", "ending a move partway up terrain"),
    "jumping.gap": ("Jumping", "jumping a gap wider than the unit's scale in inches"),
    "falling.height": ("Falling", "a fall other than the text's penalties for its height"),
    "abilities.unit": ("Special Abilities", "an ability used by a unit that is not in the game"),
    "abilities.unknown": ("Special Abilities", "an ability the unit does not have"),
    "abilities.owner": ("Special Abilities", "using the other player's unit's ability"),
    "abilities.passive": ("Special Abilities", "using a passive ability: it always applies"),
    "abilities.reserve": ("Special Abilities", "deploying from reserve a unit no ability held there"),
    "abilities.once-per-game": ("Special Abilities", "using an active ability a second time in a game"),
    "abilities.prior-to": ("Special Abilities", "an ability used 'prior to' something at another moment"),
    "abilities.self": ("Special Abilities", "an ability on 'a friendly unit within 5\"' read without the unit itself"),
    "abilities.tokens": ("Special Abilities", "a token ability triggered other than when an enemy comes within 5\""),
    "abilities.move-bonus": ("Special Abilities", "a move bonus other than the ability's inches"),
    "abilities.holtzmann": ("Experimental Holtzmann Field", "the field activated other than when the unit is targeted"),
    "abilities.neural_trojan.die": ("Neural Trojan", "the discipline test rolled with another die than the target's rating"),
    "missions.strategic": ("Missions", "a mission's strategic action made other than as one"),
    "missions.assault.strong-point": ("Assault", "a strong point placed when the defender places none"),
    "missions.assault.seize": ("Assault", "seizing the strong point from more than 5\" away"),
    "missions.sabotage.charges": ("Sabotage", "placing charges more than 5\" from the target"),
    "missions.sabotage.detonate": ("Sabotage", "a detonation that does not shake every unit within 15\""),
    "missions.sabotage.defuse": ("Sabotage", "defusing more than 5\" from the target"),
    "missions.escort.escort": ("Escort", "escorting the VIP from more than 5\" away"),
    "missions.escort.contact": ("Escort", "a VIP not placed in contact with an evac zone"),
    "missions.escort.distance": ("Escort", "moving the VIP more than 10\""),
    "missions.escort.watched": ("Escort", "moving the VIP while an enemy within 10\" sees it"),
    "ending.game-over": ("Ending the Game", "playing on after the game ended"),
    "ending.no-units": ("Ending the Game", "a game ended by no units while the active player has some on the board"),
    "ending.objective": ("Ending the Game", "an attacker's objective counted as achieved when it is not"),
    "ending.losses": ("Ending the Game", "losses counted against another total than the mission's maximum points"),
    "ending.objective-and-losses": ("Ending the Game", "an end by objective and losses before both hold"),
}
for _ability, _name in ABILITY_NAMES.items():
    _RULES[f"abilities.{_ability}"] = (_name, f"{_name} used other than its text allows")
for _mission in MISSIONS:
    _RULES[f"missions.{_mission}"] = (_mission.title(), f"a step of the {_mission} mission taken in another mission, or by the other side")
    _RULES[f"missions.{_mission}.marker"] = (_mission.title(), f"a {_mission} mission marker placed where the mission does not allow")
for _reaction in sorted({r for reactions in REACTIONS.values() for r in reactions}):
    _name = _reaction.replace("_", " ").title()
    _RULES[f"reactions.{_reaction}"] = ("Reactions", f"a {_name} reaction that does not meet its requirements")

RULE_IDS = RuleIds("frontier", "frontier.md", _RULES)
"""Frontier's one table of rule ids: a check builds its findings through it."""
