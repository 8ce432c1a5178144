"""How tabletape reads MortalGate where the text is ambiguous or contradicts itself.

Each entry names the rule, the passage, and the reading chosen (the newest version's
where versions differ). `tabletape rules mortalgate` and the dashboard's Rulebook page
show them, so a designer sees every choice made for them.
"""

from __future__ import annotations

from rulesets.protocol import Reading

READINGS: tuple[Reading, ...] = (
    Reading(
        rule="mortalgate/grace.capture", kind="contradiction",
        passage='General Rules, Grace Points: "Capturing and altar awards a team 2 (two) grace points"; FAQ: "You get 3 Grace Points for capturing an altar."',
        reading="2.5 awards 2 (its changelog: capture Grace 'decreased to 2'). The FAQ's 3 is read as the older value and used for 1.5-2.1 (assumed).",
    ),
    Reading(
        rule="mortalgate/victory.grace", kind="contradiction",
        passage='End Game Conditions: "The first team to reach 20 Grace points achieves victory"; FAQ: "The maximum amount of points a hero can gain is 50 Grace Points."',
        reading="2.5 ends at 20. 2.5 'reduced' the total from an unstated number; the FAQ's 50 is the only other figure and is used for 1.5-2.1 (assumed).",
    ),
    Reading(
        rule="mortalgate/appendix.quick-reference", kind="contradiction",
        passage='Appendix: the table is headed "Defender" across and "Attacker" down, but its example says "Drexir needs to roll greater than or equal to 22 in order to hit Sabea", which is printed in row Sabea, column Drexir.',
        reading="The worked example wins: rows are defenders, columns attackers. Read the other way, 20+ would be Drexir's roll and the archers would be the least accurate heroes.",
    ),
    Reading(
        rule="mortalgate/appendix.quick-reference", kind="contradiction",
        passage="Appendix: Sabea attacking Seiren is printed 70+.",
        reading="No set of accuracy and dodge values gives 70+ while fitting the other 55 cells; they give 30+. `tabletape rulebook mortalgate` reports the cell.",
    ),
    Reading(
        rule="mortalgate/heroes.names", kind="contradiction",
        passage='Heroes: "Greven"; Appendix table: "Grevan".',
        reading="One hero, id greven; both spellings are accepted when reading the table.",
    ),
    Reading(
        rule="mortalgate/turn-sequence.order", kind="ambiguity",
        passage='Turn Sequence: "Turns will alternate between teams and then between players ... A player\'s turn consists of four phases" while a player may control one to four heroes.',
        reading="Each hero takes its own turn (its four phases) in the order its team fixed; the teams' heroes alternate: A1, B1, A2, B2, ... The seat controlling the hero records it.",
    ),
    Reading(
        rule="mortalgate/draft.roll", kind="ambiguity",
        passage='Draft Phase: "The team with the highest roll may decide" (ties not covered).',
        reading="A tied roll is rolled again (assumed).",
    ),
    Reading(
        rule="mortalgate/status.stun", kind="ambiguity",
        passage='Status Effects: "stunned heroes are unable to move or attack."',
        reading="A stunned hero may not move, make a basic attack or use an ability on an enemy; it may heal, use a self ability and capture.",
    ),
    Reading(
        rule="mortalgate/status.poison", kind="ambiguity",
        passage='Status Effects: "Poison: poisoned heroes suffers 1 damage at the beginning of their turn and mobility is reduced by 2 for the duration of the poison."',
        reading="'Mobility' is the Movement attribute: a poisoned hero has 2 fewer movement points (never below 0) in each turn it begins poisoned. "
                "A move that only those 2 points forbid is named by the poison; a move past the full movement, by movement.points.",
    ),
    Reading(
        rule="mortalgate/death.slain", kind="ambiguity",
        passage='Death: "Upon death, a player must remove his or her hero figure from the board ... At the beginning of that hero\'s next turn, his or her hero may return".',
        reading="Until it returns, a slain hero takes no action: a move, attack, ability or capture by it is named by its death, not by the range, "
                "zone or path it would have had.",
    ),
    Reading(
        rule="mortalgate/status.duration", kind="ambiguity",
        passage='Upkeep Phase: resolve each status, "After doing so the player will reduce the counter"; Status Effects: "The time remaining ... will be reduced at each beginning of the sufferer\'s turn."',
        reading="An effect 'for N turns' resolves at the sufferer's next N upkeeps (burning for 2 turns deals damage twice; stun for one turn costs one turn). Precision Targeting's '3 turns' likewise covers Seiren's next 3 turns.",
    ),
    Reading(
        rule="mortalgate/abilities.shield_wall", kind="ambiguity",
        passage='Shield Wall: "Drexir blocks all attacks, taking no damage until his next turn".',
        reading="Until Drexir's next turn begins he takes no damage from any source (attacks, abilities, burn spread) and no new status; it ends before his own upkeep resolves.",
    ),
    Reading(
        rule="mortalgate/abilities.cheap_shot", kind="ambiguity",
        passage='Cheap Shot: "Dekhar attacks all enemies around him within 1 node".',
        reading="One basic attack, with its own two-d10 roll, on each adjacent enemy. Splinter and Shockwave add no splash to them (every neighbour is attacked already).",
    ),
    Reading(
        rule="mortalgate/abilities.rising_winds", kind="ambiguity",
        passage='Rising Winds: "inflicts Sabea\'s base damage to all nodes adjacent to her position".',
        reading="Enemies on the adjacent nodes take the damage; allies do not (a damaging ability is an attack, and attacks target enemies).",
    ),
    Reading(
        rule="mortalgate/abilities.heals", kind="ambiguity",
        passage='Full Draw: "heals target teammate by 4 health"; Life Ward: "heal targeted teammate for 4 health".',
        reading="The target is another hero of the caster's team, within the ability's range; no line of sight is needed (it is not an attack).",
    ),
    Reading(
        rule="mortalgate/combat.damage", kind="ambiguity",
        passage='Determining a Hit: "Total Damage = attacker\'s damage attribute + blessing mods + ability mods"; Mechanics: blessings "augment the player\'s hero\'s basic attack".',
        reading="Forceful, Static Charge and Precision Targeting add to basic attacks only; abilities that deal 'base damage' use the damage attribute. Divine Shield ('1 less damage from all attacks') also reduces ability damage.",
    ),
    Reading(
        rule="mortalgate/abilities.quick_blade", kind="ambiguity",
        passage='Quick Blade: "Zadita may attack twice this turn."',
        reading="Casting it is the turn's combat action; two basic attacks follow in the same combat phase.",
    ),
    Reading(
        rule="mortalgate/blessings.held", kind="ambiguity",
        passage="Version 2.1: five blessing kinds on eight altars (Evasive, Divine Shield and Sprint came in 2.5).",
        reading="On the 2.1 map some kinds sit on two altars; holding both stacks them (+10 accuracy for two Pinpoint altars; assumed).",
    ),
    Reading(
        rule="mortalgate/enchantments.take", kind="ambiguity",
        passage='Version 2.00: "Weapon cards were removed ... replaced with enchantment spots on the map ... not every hero will be able to have one."',
        reading="A hero standing on an enchantment spot during its turn may take it; one per hero, kept for the rest of the game (assumed), with the matching blessing's effect for that hero alone.",
    ),
    Reading(
        rule="mortalgate/combat.weapons", kind="ambiguity",
        passage="Version 1.5 used weapon cards; their text did not survive.",
        reading="1.5 applies no weapon bonus: chance to hit is the flat base 50 (assumed).",
    ),
    Reading(
        rule="mortalgate/death.respawn", kind="ambiguity",
        passage='Death: "At the beginning of that hero\'s next turn, his or her hero may return to the game at the team\'s spawn point".',
        reading="The hero returns at full health on a free node of its spawn, before moving; a hero that does not return stays off the board for that turn. A kill by burning or poison also gives the killers' team its Grace.",
    ),
    Reading(
        rule="mortalgate/victory.wipe", kind="ambiguity",
        passage='End Game Conditions: "If all enemies are defeated before having the opportunity to respawn, the team wins."',
        reading="All four enemy heroes are slain at the same moment.",
    ),
    Reading(
        rule="mortalgate/combat.line-of-sight", kind="ambiguity",
        passage='Line-of-Sight: "the attacker must be able to draw a straight line through the nodes of the board to the target."',
        reading="A line running exactly along the edge between two hexes is clear if either side is clear.",
    ),
    Reading(
        rule="mortalgate/altars.zone", kind="ambiguity",
        passage="Altars: the altar zone's size is on the lost map.",
        reading="The altar node and its six neighbours (assumed, in the map data). Capturing an altar your team already holds is flagged (it earns nothing).",
    ),
)
