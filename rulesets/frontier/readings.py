"""How tabletape reads Frontier where the text is ambiguous or contradicts itself.

Each entry names the rule, the passage, and the reading chosen. `tabletape rules frontier`
shows them, so a designer sees every choice made for them. Numbers the text does not give
are params marked `assumed` (params.py) or data marked `assumed` (data/*.toml).
"""

from __future__ import annotations

from rulesets.frontier.ruleids import RULE_IDS
from rulesets.protocol import Reading


def _a(rule: str, passage: str, reading: str) -> Reading:
    return Reading(rule=RULE_IDS.id(rule), kind="ambiguity", passage=passage, reading=reading)


def _c(rule: str, passage: str, reading: str) -> Reading:
    return Reading(rule=RULE_IDS.id(rule), kind="contradiction", passage=passage, reading=reading)


READINGS: tuple[Reading, ...] = (
    # --- setup ---
    _a("roles.roll", 'Setup: "3. Roll to decide attacker and defender."',
       "Each player rolls a D6 (assumed: params.role_die); the higher roll chooses to attack or defend; a tie is rolled again."),
    _a("turn.first-player", "Turn Sequence gives no first player.",
       "The attacker takes the first turn (assumed: params.first_player)."),
    _a("selection.points", '"select units from that faction up to the point limit for the mission" (no mission gives a number).',
       "The limit is the match option `points`; without it the version's `points` (150, assumed). An army has at least one unit; a unit type may be taken more than once."),
    _a("selection.secret", '"keep their unit selection a secret until both players have picked their units"',
       "Both ArmySelected events are in the log; a seat's board view shows the other army as secret until both have chosen. Factions are announced (FactionChosen) before either picks units."),
    _a("terrain.levels", 'Terrain: "The ground floor of a building might have the Cover terrain rule ... The roof of a building might have the Exposed terrain rule."',
       "A piece lists levels by height (in scale): a level below its scale is a floor a unit stands in, the level at its scale is its top. A unit's terrain rules are those of the level it stands at; its effective scale is its scale plus that height (for a floor as for the top)."),
    _a("terrain.enter", '"It may move over terrain of a lower scale without penalty"; "A unit may climb a piece of terrain of equal or higher scale".',
       "A piece with a level at height 0 (a building's ground floor, woods, a swamp, a trench) can be walked into at ground level without climbing; a piece without one is solid: a unit climbs it or goes round."),
    _a("terrain.mixture", '"A board should include a mixture of terrain from scale 0 up to at least scale 3. There should be very few places where line of sight can be drawn from one edge of a board to the opposite edge."',
       "Advice, not a rule: agreeing a board without scale 0 and scale 3+ terrain is a warning. The second sentence is not checked."),
    _a("terrain.move", 'Setup: "2. Setup the board with terrain"; Terrain: "You should agree with your opponent at the start of the battle on the scale and special rules of any terrain on the battlefield."',
       "Until the board is agreed (TerrainAgreed) a piece on the table may be moved (TerrainMoved: its centre to a new point, its shape, scale and rules kept); moving one once the board is agreed breaks setup.order. Turning a piece is not recorded (assumed)."),
    _a("terrain.impassable", '"Units may not move through impassable terrain."',
       "A piece with an Impassable level may not be crossed or stood in. Units that ignore terrain (Flying, Jump Packs) may cross it but not stop in it."),
    # --- deployment ---
    _a("deployment.same-type", '"all units of the same type must be deployed within 5" of all other units of the same type if they are deployed at the start of the game"',
       "Same type and same army, across every step of the deployment; units held in reserve are not deployed at the start of the game and are exempt."),
    _a("deployment.strong-point", 'Assault: "The attacker places a marker (strong point) anywhere more than 5" from their deployment zone."',
       "It is placed after the attacker has deployed. After the second seize the mission is complete and no new strong point is placed."),
    _a("deployment.sabotage-centre", 'Sabotage: "within 5" of the centre line of the board and outside the defenders deployment zone".',
       "The centre line runs halfway between the long edges, the length of the table (only that line overlaps the defender's area, which the text excludes). Each attacking unit may use either area."),
    _a("deployment.ambush", 'Ambush: "within 10" of the attackers deployment zone, and at least 10" from a board edge".',
       'At least 10" from every board edge.'),
    _a("deployment.infiltration", 'Infiltration: "place 3 tokens anywhere on the battlefield outside of your enemy\'s deployment zone".',
       "The enemy's deployment zone is every area the enemy sets up in; where it depends on a choice not yet made (an edge), the tokens must be outside every area it could be."),
    _a("deployment.half", '"up to 50% of their total points worth of units"',
       "50% of the points of the army selected; units held in reserve do not count."),
    # --- turn ---
    _a("ending.no-units", '"At the start of step 2 of the turn sequence, the active player has no units on the board."',
       "Units in reserve are not on the board. A player with no units on the board may still take a strategic action (e.g. deploy a reserve) or pass step 1 (Passed step=strategic); the game ends when step 2 begins with none."),
    _a("ending.losses", 'Ending the Game: "at least 50% of the maximum points for the mission of the attacking force"; victory table: "At least 50% of points of attacking force destroyed".',
       "Both read as 50% of the mission's points limit (params.losses_of = points_limit; a designer may switch to the army's own total). Units that bugged out or self destructed are not destroyed."),
    _a("ending.objective", 'Ending the Game: the game ends when the attacker "has achieved their objective and at least 50% ... has been destroyed".',
       "An attacker who achieved the objective with fewer losses plays on (e.g. bugs out its units); the victory table is read when the game ends. The winner in the log is the attacker if the objective was achieved (Pyrrhic or Decisive Victory), else the defender."),
    _a("actions.hazardous", 'Hazardous: "Units that are activated while in hazardous terrain become shaken."',
       "A unit is activated when it is chosen in step 2 (not by Focus Fire or Autoguns). A unit this destroys does not act, and the turn passes."),
    _a("actions.advance", 'Advance: "Move the unit up to 10""; Kill Zone: "This unit cannot move."',
       "Up to includes not moving, but an advance is a move: a unit that cannot move (Kill Zone) may not declare one (abilities.kill_zone)."),
    _a("turn.no-action", 'Turn Sequence: "2. Active player chooses a unit and action".',
       "A player none of whose units may take an action passes step 2 (Passed step=action) and the turn passes. Only units that cannot move "
       "(Kill Zone) can be left with none: no enemy to open fire on, none within line of sight and 10\" to fight through to, no evac zone within 10\"."),
    _a("reactions.bug-out", 'Bug Out allows "Overwatch (Firepower) or Counter Attack (Assault)", whose requirements speak of "a unit making an advance action" and "the active unit that is making a fight through action".',
       "Against Bug Out the same requirements apply to the unit bugging out: Overwatch needs line of sight and at least 10\", Counter Attack line of sight and within 10\". A won Overwatch moves the unit up to 5\" instead of its leaving; a won Counter Attack shakes it and it stays."),
    _a("reactions.effect", '"The player with the highest result wins and resolves the result of their action or reaction."',
       "Only the winner's effect happens: a won Overwatch or Flank replaces the advance; a lost reaction does nothing."),
    _a("reactions.timing", 'Overwatch and Flank: "before the unit moves"; Counter Attack: "after the active units initial 5" move".',
       "Distances and sight for Overwatch and Flank are measured from where the advancing unit stands when the action is declared; Counter Attack and Fall Back are chosen only after fight through's first move."),
    _a("action-roll.dice", '"roll the corresponding dice"; "never roll more than two dice"',
       "One ActionRolled event records both sides' dice. The audit checks each side's count (one die, or two under net advantage or disadvantage), the die size (and that no value exceeds it), the value kept and the winner, when the table states them."),
    # --- geometry ---
    _a("measuring", 'Distances are "within X"" and "at least X" away" between units.',
       "Measured centre to centre of the units' bases (a unit is a point with a round base, radius assumed in data/factions.toml); within means <=, at least means >=. A table records positions to a hundredth of an inch."),
    _a("line-of-sight.five-inch", 'Line of Sight: "If a unit is within 5" of a piece of terrain of an equal or larger scale than its effective scale then line of sight may not be drawn to or from the unit through that piece of terrain."',
       "A piece the line passes through blocks if its scale is at least the taller unit's, or if it is within 5\" of either unit and at least that unit's effective scale. Units block only by the first rule."),
    _a("line-of-sight.on-top", '"If a unit is on top of terrain then its scale is increased by the scale of that terrain."',
       "The piece a unit stands on top of never blocks that unit's own line of sight (it looks over the edge); otherwise a line from a roof would always pass 'through' the roof."),
    _a("line-of-sight.open-sided", 'Open Sided: "When drawing line of sight to or from a unit in Open Sided terrain, ignore this piece of terrain if the distance covered by line of sight inside the terrain is 2" or less."',
       "Only the piece the unit stands in, at a level with Open Sided, is ignored, when the whole line runs 2\" or less inside it. A line merely passing through a ruin between two units outside it is blocked as usual."),
    _a("climbing.cost", '"Climbing reduces the maximum movement distance by 1" per scale of the terrain climbed."',
       "Per piece climbed on a move: onto it, the height reached (its scale for the top); over it, its scale; down off it, the height left; between its floors, the difference. Only pieces of the unit's scale or more are climbed. The whole move may then end no further than the maximum less the climbing."),
    _a("jumping.gap", '"A unit may move freely over a gap between terrain equal or lower than its scale in inches."',
       "From one piece to another across a gap no wider than the unit's scale, at height: no climbing down and up, only any height gained is climbed."),
    _a("falling.height", '"If a unit falls off terrain of an equal or smaller scale then it suffers no penalties ..."',
       "The terrain's scale is the height the unit drops (its height on the piece less where it lands). Only moves the opponent makes (Overwatch) and enemy Repulsor Fields make a unit fall; a unit moving itself climbs down."),
    _a("movement.path", '"It may never end its move further than the specified distance from its starting point"',
       "Only the straight-line distance from start to end is limited; the path's length is free. UnitMoved.path lists the points it went round, checked for units and impassable terrain passed through."),
    # --- missions ---
    _a("missions.sabotage.detonate", 'Sabotage: "Any unit within 15" of the marker becomes shaken."',
       "Units of both sides are shaken. The target is destroyed: the marker and its charges are removed (the mission is complete)."),
    _a("missions.escort.contact", 'Escort: "place the VIP marker in contact with one of their evac zones".',
       "An evac zone is a board edge; the VIP is in contact when the marker (radius params.marker_radius, assumed) touches it. The VIP is a scale 1 marker for line of sight (assumed)."),
    _a("missions.strategic", "Seize, place charges, detonation, defuse and escort are strategic actions.",
       "Each is the one strategic action of the turn (step 1) of the side that may take it; defuse is the defender's in its own turn."),
    # --- abilities ---
    _c("abilities.target_designator", 'Target Designator is printed "Passive" but reads "As a strategic action select a target enemy unit".',
       "A strategic action with no once-per-game limit (passive). Designations add up; each lasts while its pathfinder is on the table."),
    _c("abilities.repulsor_field", 'Repulsor Field: "Activate this ability at any point"; Falling: "the repulsor field strategic action".',
       "Its own text wins: at any point. Pushes are worked out together from where units stood; a unit stops where it would collide with terrain it cannot stand in at its height or a unit of its scale or more, and is shaken; the table edge stops it without shaking. Only enemy units fall (an opponent's activity)."),
    _a("abilities.once-per-game", '"Active: An active ability may be used by a unit once per game"',
       "Per unit. Orbital Drop and Infiltration are used by holding the unit in reserve; deploying it later completes the same use. "
       "A unit in reserve that acts, reacts, moves or uses another ability before it is deployed breaks the ability that holds it. "
       "Knife Missile is used by placing the token; moving it is a strategic action any later turn."),
    _a("abilities.prior-to", '"Use prior to making an action of reaction" (Experimental Targeting System), "Use prior to making an open fire action" (Override Safety Parameters), "Use prior to moving the unit" (Jump Packs).',
       "'action of reaction' reads 'action or reaction'. Used ahead, the ability waits on the unit and changes its next firepower roll, open fire action, or move."),
    _a("abilities.self", '"choose a friendly unit within 5"" (Stim Packs, Experimental Nanites); "move all friendly units within 10"" (Forward Maggots); "a friendly unit within 10"" (Countermeasures).',
       "The unit itself counts as a friendly unit within range."),
    _a("abilities.tokens", 'Knife Missile: "If at any point this token is within 5" of an enemy unit"; Minefield: "Any time an enemy unit is within 5" of a marker".',
       "Checked whenever a unit moves or is placed (along its path) and whenever a token is placed or moved (along its path): the first enemy it reaches is shaken and the token removed. A move that ignores tokens (Flying, Jump Packs) sets none off, even where it ends."),
    _a("abilities.slalom", 'Slalom: "When this unit successfully completes a take cover reaction it must move 5"".',
       "It must make a move of up to 5\"; it may decline only if no move is possible. Passing it, or going on to the next turn without it, "
       "is named abilities.slalom; the turn then goes on without the move."),
    _a("abilities.escape_plan", 'Escape Plan: "if successful may move an additional 5"".',
       "The fall back move may go up to 10\" (5\" + 5\")."),
    _a("abilities.move-bonus", 'Indigenous: "Add 2" to the maximum move distance whenever this unit moves"; Need for Speed: "Add 5" ..."',
       "Every move window of the unit, including moves its opponent makes it take (Overwatch); not Repulsor Field's fixed 5\" push. Need for Speed's 'may not climb' forbids any move that climbs."),
    _a("abilities.kill_zone", 'Kill Zone: "This unit cannot move."',
       "It never moves, and it may not declare what moves it: Advance (\"Move the unit up to 10\"\"), Flank and Fall Back (\"Move the reactive "
       "unit up to 5\"\"), nor Fight Through unless its target is already within line of sight and 10\" (its 5\" moves are then no moves). "
       "Kill Zone is named at that declaration; where the table declared one anyway, the move that follows it (its own, or an overwatch's "
       "against that advance) is the same mistake and is not named again. Any other move of it is named where it is made. No move is opened "
       "for it otherwise (an overwatch won against its bug out, stim packs, forward maggots, fight through's additional move), and Repulsor "
       "Field does not push it."),
    _a("abilities.shock_tactics", 'Shock Tactics: "advantage on actions that use the assault attributes when targeting an enemy within 5"".',
       "Any roll on assault aimed at an enemy within 5\": fight through against its target and counter attack against the active unit."),
    _a("abilities.inspiring", 'Inspiring: "may use this unit\'s discipline instead of their own".',
       "The player may roll either die; the audit accepts any of them, and the rules (and bots) use the largest."),
    _a("abilities.friendly_competition", 'Friendly Competition: "This unit gains advantage whenever there is a friendly breacher within 10" and line of sight."',
       "On every roll of the breacher, Neural Trojan's test included."),
    _a("abilities.neural_trojan", 'Neural Trojan: "must roll 4 or higher using their discipline".',
       "The unit's discipline die (or an Inspiring unit's) with every advantage and disadvantage on discipline (Com Jammer, Crowd Suppression, Technological Horror): one DisciplineTested event per enemy within 20\", in unit order."),
    _a("abilities.holofield", 'Holofield: "make this unit the target. If this results in the action being invalid (e.g. no line of sight) then the open fire action is nullified."',
       "Used before the reaction; the AEGIS unit is then the target (it reacts, if anyone does). Invalid means no line of sight (unless Smart Mortars on a designated target) or less than 10\" away. "
       "A nullified open fire ends the turn: a reaction to it (or passing one) before the next player does anything breaks "
       "abilities.holofield, and the open fire is then followed as the table played it out."),
    _a("abilities.holtzmann", 'Experimental Holtzmann Field: "Activate when this unit is targeted by an open fire action or overwatch reaction."',
       "Used while that action or reaction waits for its roll; it gives advantage on that roll only."),
    _a("abilities.autoguns", 'Autoguns: "it may immediately make another open fire action against another unit within 5" of its original target".',
       "The second open fire needs open fire's own requirements (line of sight, at least 10\") and gets its own reaction and roll; it cannot trigger Autoguns again. "
       "Its resolution ends the turn: the same unit opening fire once more before the next player does anything breaks abilities.autoguns, "
       "and that open fire is followed as part of the activation it repeats."),
    _a("abilities.focus_fire", 'Focus Fire: "immediately make an open fire action against that unit with another unit of your choice".',
       "Another unit than the field commander; open fire's requirements apply; it is resolved in step 1 and step 2 follows. If no unit can fire, the follow-up is passed."),
    _a("abilities.orbital_drop", 'Orbital Drop: "This unit gains disadvantage on all actions until the end of the controlling players turn."',
       "Every roll the unit makes in the turn it dropped. 'within 5\" of another unit' shakes every unit within 5\" of where it lands."),
    _a("abilities.pneumatic_leap", 'Pneumatic Leap: "If this unit moves into base contact with an enemy unit, that unit becomes shaken."',
       "Bases within params.base_contact (0.1\", assumed) of touching at the end of the Lobo's move; every enemy it was not already in contact with."),
    _a("abilities.ambush", 'Ambush: "if this unit is out of line of sight of enemy units".',
       "No enemy unit has line of sight to it, before and at the new place; the place may be any height it can stand at."),
    _a("abilities.unscheduled_demolition", 'Unscheduled Demolition: "Activate when this unit successfully completes a fall back reaction".',
       "After the fall back move (or its pass), the saboteur's player may use it before the turn passes."),
)
