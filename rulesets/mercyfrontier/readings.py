"""How tabletape reads Mercy Frontier where the text is ambiguous, incomplete or contradicts itself.

Each entry names the rule, the passage, and the reading chosen (the newest rules' reading
where passages disagree). `tabletape rules mercyfrontier` and the dashboard's Rulebook page
show them. Values taken from lost cards and tiles live in data/, marked `assumed`.
"""

from __future__ import annotations

from rulesets.mercyfrontier.ruleids import RULE_IDS
from rulesets.protocol import Reading

READINGS: tuple[Reading, ...] = (
    Reading(
        rule=RULE_IDS.id("setup.seats"), kind="ambiguity",
        passage='Setup 6: "The oldest player starts first and takes the priority token."; Required materials: "10 Outpost Blocks (5 orange, 5 yellow)".',
        reading="Seats are the two outpost colours: yellow's home row is the north row of tiles, orange's the south. The seat listed first in "
                "MatchStarted is the oldest player and holds the priority token on turn 1; the token passes every turn.",
    ),
    Reading(
        rule=RULE_IDS.id("setup.tiles"), kind="ambiguity",
        passage='Setup 2: "Place the rest of the board tiles flipped over and randomly distributed over the rest of the map."',
        reading="Nobody sees a covered tile's face until it is uncovered, so its face is recorded then, as a chance event (TileUncovered) drawn "
                "from the faces not yet seen, each equally likely: the same odds as a random layout, and a log holds no unseen fact.",
    ),
    Reading(
        rule=RULE_IDS.id("relics.control"), kind="ambiguity",
        passage='Building Phase 3.a: "Middle Tiles have a relic card underneath ... last until a player loses control of the original tile. Once controlled again, the relic card is given to the new controller."',
        reading="The middle tiles are the middle row of three (8th play test: 'under the middle three tiles'). Its relic is turned up (RelicDrawn) "
                "when the tile is uncovered and stays with the tile: its holder is whoever controls the tile. A tile off the home rows is "
                "controlled by the owner of an outpost on it; when that outpost is destroyed the tile is nobody's until an outpost claims it again.",
    ),
    Reading(
        rule=RULE_IDS.id("outposts.worker"), kind="contradiction",
        passage='Worker Placement 1.a: "outposts may be built only if a worker is placed on a tile adjacent to an uncovered board tile"; Building Phase 2: "have a worker touching the covered tile in which you wish to build an outpost".',
        reading="The Building Phase passage (and the 7th play test's 'build an outpost to uncover') is the newest rule: a worker must stand on a "
                "space sharing an edge with the target tile, which is covered (or, once uncovered, controlled by nobody). 'uncovered' in Worker "
                "Placement is read as a slip.",
    ),
    Reading(
        rule=RULE_IDS.id("outposts.place"), kind="ambiguity",
        passage='Building Phase 2.a: "When an outpost is purchased, vertically flip over the covered board tile. An outpost may then be built on any free tile."',
        reading="'tile' here is a grid space of the flipped tile: the outpost block goes on any space of it with no building and no token "
                "(OutpostPlaced). The tile then belongs to the outpost's owner's territory.",
    ),
    Reading(
        rule=RULE_IDS.id("building.worker"), kind="ambiguity",
        passage='Building Phase 1.b: "Have at least 1 worker unit on a tile that the building will be built on"; 4th play test: "destroying a building with a worker on top also kills the worker".',
        reading="'tile' is the grid space: a worker stands on the very space the building goes on (a worker 'on top' of a building). "
                "Buildings occupy one space each (sizes lost; assumed) and go only in the builder's uncovered territory, where its workers are.",
    ),
    Reading(
        rule=RULE_IDS.id("building.refinery"), kind="ambiguity",
        passage='Resource Collection 2.a: "If there is a refinery on that tile, collect 2 tokens of that resource."; Setup 5.a: "a refinery on BOTH resources nodes".',
        reading="A refinery is built on a resource node and takes a refinery block of that node's resource (7 biofuel, 7 neosteel, 6 crystal).",
    ),
    Reading(
        rule=RULE_IDS.id("beacons.creature"), kind="ambiguity",
        passage='Abstract: "beacons are an end game objective that grants the first player to build 3 an enormously powerful creature"; Building Phase 3; Required materials: "6 temple blocks (2 ... biofuel, 2 ... neosteel, 2 ... crystal)".',
        reading="Beacons are the temples: one block of each of the three kinds per player. Building one gives its battle cry at once (assumed: 2 "
                "tokens of its resource). The first player with 3 beacons standing receives the Beacon Titan card (assumed stats), placed in "
                "the Mercenary Placement like a hired card. Its contract takes a mercenary zone; if defeated it leaves the game.",
    ),
    Reading(
        rule=RULE_IDS.id("workers.placement"), kind="ambiguity",
        passage='Worker Placement 1.a: "Each player takes their current worker units and places them anywhere in their uncovered territory."',
        reading="Priority first, each player places its workers (each on its own space of the uncovered tiles it controls), collects, may buy "
                "workers, then finishes; workers stay where they stand until its next placement, so they can be killed during the Action "
                "Phase. Placing fewer workers than owned is allowed.",
    ),
    Reading(
        rule=RULE_IDS.id("mercenaries.payment"), kind="ambiguity",
        passage='Mercenary Purchase 1.b.iii: "the value of total resources paid must be greater than or equal to the total credit cost".',
        reading="The table records the tokens paid (MercenaryHired.paid); their worth is each token at the card's own value for that resource. "
                "Overpaying is allowed and gives no change.",
    ),
    Reading(
        rule=RULE_IDS.id("mercenaries.refill"), kind="ambiguity",
        passage='Mercenary Purchase 1.d: "When a player is finished purchasing, replace all mercenaries that were bought with new cards."',
        reading="Bought slots stay empty until the buyer finishes; then cards are flipped (CardRevealed) up to four. A sweep sends the row to the "
                "discard pile and flips four at once. When the deck is empty the discard pile is shuffled into a new deck.",
    ),
    Reading(
        rule=RULE_IDS.id("mercenaries.must-place"), kind="ambiguity",
        passage='Mercenary Placement 2.a, 2.c: "places it anywhere on the board as long as the token overlaps at least one grid space on a tile within the player\'s zone of control"; "A player cannot place a mercenary until they have an uncovered tile with enough space".',
        reading="The zone of control is the uncovered tiles a player controls. The whole token lies on uncovered spaces free of tokens and "
                "buildings and overlaps at least one space of that zone. Priority first, each player places every hired card that fits; a card "
                "with no room waits on its contract card for a later Mercenary Placement.",
    ),
    Reading(
        rule=RULE_IDS.id("action.abilities-first"), kind="ambiguity",
        passage='Action Phase 1.b: "If a mercenary has a noncombat ability, it triggers before movement occurs."',
        reading="A noncombat ability is recorded (AbilityUsed) in its owner's action phase before its first move; an ability still untriggered "
                "when the player first moves or finishes is named once.",
    ),
    Reading(
        rule=RULE_IDS.id("action.no-overlap"), kind="ambiguity",
        passage='Movement 2.b: "Mercenaries cannot overlap, so a mercenary in front of another mercenary prevents the second from moving forward."; Combat 3.a: "When a mercenary comes into contact with an enemy mercenary, all mercenaries interacting this way enter combat".',
        reading="Each mercenary moves once per action phase, 1 up to its rarity's spaces in one direction. An own token in front blocks it unless "
                "trampled; an enemy token in front is contact: the move stops there and that combat is fought at once (CombatResolved), before "
                "anything else. Tokens that touch otherwise (side by side) do not fight. Mercenaries may cross covered tiles.",
    ),
    Reading(
        rule=RULE_IDS.id("combat.simultaneous"), kind="ambiguity",
        passage='Combat 3.b.iv: "A 3x3 heroic mercenary can fight two opposing mercenaries at once ... the heroic mercenary will do its damage to BOTH enemies, while the other two mercenaries will also combine their damage to hit the heroic mercenary."',
        reading="A combat is the mover against every enemy token in front of it: it deals its full damage to each, and their damage is combined "
                "on it, all at once; a mercenary with no health tokens left is defeated. Health tokens persist between turns.",
    ),
    Reading(
        rule=RULE_IDS.id("combat.victor-continues"), kind="ambiguity",
        passage='Combat 3.c: "Once combat is resolved, if the attacking mercenary or mercenaries have any remaining movement left, they may finish moving".',
        reading="The mover may move again in the same direction with the spaces it has left (a second MercenaryMoved); if the enemy survived, it "
                "still blocks the way. Before the 6th play test the victor stops (named combat.victor-continues).",
    ),
    Reading(
        rule=RULE_IDS.id("combat.buildings"), kind="ambiguity",
        passage='Building Phase 4: "All buildings have 1 hp."; Worker Phase 4: "All workers have 1 hp."; Objective: "destroy 3 of your opponent\'s buildings".',
        reading="How a building or worker is attacked is not said. A mercenary that moves over an enemy building's or worker's space destroys it "
                "(1 hp, no attack back) and keeps moving; the base, refineries, outposts and beacons all count toward the 3. Before the 4th "
                "play test workers were not harmed.",
    ),
    Reading(
        rule=RULE_IDS.id("victory.far-side"), kind="ambiguity",
        passage='Objective: "Get one merc to the other side of the board"; Abstract: "have one minion reach the other side of the board"; Mercenary Placement 2.a: "as long as the token overlaps at least one grid space on a tile within the player\'s zone of control".',
        reading="A mercenary wins the moment a move leaves its token covering a space of the board's far edge row (the edge of the "
                "opponent's home row), having started off it. Reaching the other side is a move: a token the table placed on the far row "
                "(out of its zone of control, named mercenaries.zone-of-control at the placement) has not reached it and wins nothing.",
    ),
    Reading(
        rule=RULE_IDS.id("turn.lanes"), kind="contradiction",
        passage='8th play test: "We decided to make the movement mandatory with a lane system and considered changing health to be persistent".',
        reading="The Rules section still says mercenaries 'can move' in any orthogonal direction and has no lanes; the lane system is not "
                "described, so movement stays optional and free of lanes, and health tokens persist (Mercenary Placement 2.b).",
    ),
    Reading(
        rule=RULE_IDS.id("mercenaries.purchase"), kind="ambiguity",
        passage='2nd play test: "Bidding for mercs existed but was clunky."; 5th: "We removed the bidding system".',
        reading="No rule of the bidding survives, so the play-test versions before the 5th buy mercenaries as the current rules do.",
    ),
    Reading(
        rule=RULE_IDS.id("setup.supply"), kind="ambiguity",
        passage='Required materials: "90 Resource Tokens (30 ...)", "50 Red Health Tokens".',
        reading="The bank's token and health-token counts are components, not limits the rules invoke; they are not checked. Refinery, outpost, "
                "temple and worker blocks are limited by their counts.",
    ),
)
