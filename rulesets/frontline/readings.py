"""How tabletape reads Warcraft: Frontline where the text is ambiguous or leaves a gap.

Each entry names the rule, the passage, and the reading chosen. `tabletape rules
frontline` and the dashboard's Rulebook page show them, so a designer sees every choice
made for them. Numbers from the lost images are params (params.py) or card data
(data/cards.toml, data/map.toml) marked `assumed`.
"""

from __future__ import annotations

from rulesets.frontline.ruleids import RULE_IDS
from rulesets.protocol import Reading


def _a(rule: str, passage: str, reading: str) -> Reading:
    return Reading(rule=RULE_IDS.id(rule), kind="ambiguity", passage=passage, reading=reading)


READINGS: tuple[Reading, ...] = (
    _a("start.race", 'Start phase 3: "Each player picks a race".',
       "The race is the match option `races` ({seat: orc|human}); both players may pick the same race. A seat it leaves out plays orc if it is the "
       "first seat, human if the second. An unknown race is refused before the match is written."),
    _a("start.workers", 'Start phase 3-5: "gets 5 workers"; "a base building right next to the gold mine and forest"; '
       'Resource collection: "if Player had 3 workers in gold mine and 2 workers in the forest".',
       "The five workers start at work, 3 in the gold mine and 2 in the forest (params start_on_gold, assumed, after the collection example); "
       "the base, the gold mine and the forest are in each half's base area."),
    _a("play.first", 'Playing phase 1: "One player may start the action first and another player act after that."',
       "The first seat (in seating order) acts first in every bout; a bout is its action round and then the second seat's."),
    _a("collection.workers", 'Resource collection: "At the beginning of player\'s every action round, player gain resource base on the workers player had in their source area."',
       "Every action round begins with collection, the very first one included (the first seat starts its first round with 6 gold and 4 lumber). "
       "Tasks whose time has passed finish just before. Collection follows from the state and is not recorded as an event."),
    _a("combat.when", 'Playing phase 3: "After each player\'s turn, military force will be calculated." Combat Rules: '
       '"The position of frontline should change whenever there is a change on either player\'s military force."',
       "Both forces are counted, and the frontline moved, once at the end of each player's action round (RoundEnded, then the table's "
       "FrontlineMoved, checked). A change of force during a round (a unit finished, militia called) shows at the end of that round."),
    _a("combat.frontline", 'Combat Rules: "The difference of player\'s military force will decide where the frontline will be ... If B increased 2 military '
       'force then the frontline gets pushed back to the blue area."',
       "The frontline's position is a function of the difference now, not a running total: the stronger player pushes into the other's half as far "
       "as the difference allows, and an equal count puts it back in the middle. The number on a grid is the difference needed to push into it."),
    _a("combat.no-skip", 'Defense Power: "enemy player can not skip to that grid without passing through the previous grid. Meaning if enemy player had '
       '18 military power and we had 10, with difference of 8, enemy player can only push the frontline to the grid with the green mark."',
       "A push goes grid by grid from the middle and stops before the first grid whose defense is higher than the difference, even if a grid behind "
       "it needs less. A table that moves the marker past such a grid breaks frontline/combat.no-skip; any other wrong position breaks "
       "frontline/combat.frontline."),
    _a("defense.area", 'Defense Power: "every watch tower build increase defense power by 3 in that area. There are research that can increase all '
       'building\'s defense power. Defense power provided by buildings only increase the defense power in that area".',
       "Each standing building adds its own defense (a tower 3, others 0) plus what its owner's research adds per building (Reinforced Buildings +1, "
       "assumed) to every grid of its area; towers stack. Only the half owner's buildings defend its grids (a building on a taken enemy area "
       "defends nothing). Each orc worker in a burrow adds 1 to the burrow's area."),
    _a("destroy.frontline", 'Destroying enemy buildings: "Once frontline pushes through these lines, builds in front of the lines are destroyed ... because '
       'these area are behind the front line now, we can now build in these areas."',
       "An area is held by its half's owner until the frontline enters it; while the frontline stands inside it, nobody builds there; once the "
       "frontline has passed its far border it is the pusher's: the owner's buildings there are destroyed (burrowed workers die with a burrow, "
       "tasks are lost) and the pusher may build on its sites."),
    _a("destroy.own", 'Playing phase 2b: "Destroy buildings".',
       "The action destroys one of the player's own buildings (freeing its site), with no refund; enemy buildings fall only to the frontline."),
    _a("build.time", '"### Building cards:" (lost). "The round marker are simply there to keep track of the units that are being trained by the structure."',
       "A building is paid when placed and stands after its build time (assumed per card) in its owner's action rounds; it needs no worker. "
       "It gives capacity, defense, training or research only once it stands, but can be destroyed while going up. Training in it, or workers "
       "entering it (a burrow), before then breaks frontline/build.time; research there breaks research.war-mill (\"when warmill or "
       "blacksmith is built\")."),
    _a("train.time", 'Base: "Each worker cost 1 gold, take 1 population and takes 1 round to produce."',
       "A unit is paid and takes its population when training starts; a worker started in round r waits idle at the base from the start of its "
       "owner's round r+1; a combat unit joins the force then. A building trains or researches one thing at a time."),
    _a("population.dials", '"The capacity will be represented as 2 D10 dice which can represent up to 99. Every time a player builds a population capacity '
       'building or trains a unit that consumes this capacity, this player need to turn the dice into the correct number".',
       "Capacity is the sum of standing bases (10) and farms or burrows (5), capped at 99. As both building and training turn the dice, the dice "
       "are read as showing the free population (capacity less population used); the board shows that number."),
    _a("militia.return", 'Human research: "all workers can turn into militia, each contributes 1 military force, but takes one extra round before going back to work."',
       "After Call to Arms, any number of workers may become militia (WorkersMoved to `militia`). Sent back to work, they give no force and "
       "collect nothing at the start of their player's next round, and arrive at the place named one round later. Moving them on from "
       "there before they arrive breaks frontline/militia.return; the replay follows the table and moves them on at once."),
    _a("burrow.room", 'Orc research: "workers can enter burrow, each worker in burrow increase defense power by 1. Can go back to work at anytime".',
       "After Battle Stations, workers may enter a standing burrow (at most 4 a burrow, assumed) and leave it in any own action round; in a "
       "burrow they collect nothing. Workers of a burrow that was destroyed are dead: moving them breaks frontline/burrow.destroyed."),
    _a("victory.points", 'Winning condition 3: "a. Researched techs. b. The total frontline pushed. Each grid pushed gives the player 2 points."',
       "Each finished research counts 1 point (params points_per_tech, assumed; the cards' values are lost). 'The total frontline pushed' is where "
       "the frontline stands after bout 15: 2 points a grid into the other half, for the player who pushed it there. Equal points are a draw."),
    _a("victory.base-line", 'Winning condition 1: "If one player pushed the front line to the base line(the grid with 24), this player wins."',
       "The game ends as soon as the table's frontline move puts the marker on the last grid of a half."),
    _a("research.grey", 'Race: "Grey color research are shared technologies."',
       "The only grey card the text describes raises every building's defense (Reinforced Buildings). Forged Weapons (+1 force a combat unit) "
       "stands in for the lost grey cards and is marked assumed in data/cards.toml."),
)
