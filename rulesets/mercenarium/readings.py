"""How tabletape reads Mercenarium where the text is ambiguous, incomplete or contradicts itself.

Each entry names the rule, the passage, and the reading chosen. `tabletape rules
mercenarium` and the dashboard's Rulebook page show them, so a designer sees every choice
made for them. Values taken from lost images live in the data files, marked `assumed`.
"""

from __future__ import annotations

from rulesets.mercenarium.ruleids import RULE_IDS
from rulesets.protocol import Reading

READINGS: tuple[Reading, ...] = (
    Reading(
        rule=RULE_IDS.id("setup.board"), kind="ambiguity",
        passage='SET UP 1: "colored circles in the center space of each side, that are either Red, Orange, Yellow, or Green" (Fig. 1.1, lost).',
        reading="A 7 x 7 board (param board_size, assumed) with each House on the centre space of its side; red south, orange west, yellow north, "
                "green east (param houses, assumed). Seats are named by House colour; 2 players take opposite Houses (red-yellow or orange-green).",
    ),
    Reading(
        rule=RULE_IDS.id("setup.deal"), kind="ambiguity",
        passage='SET UP 2: "shuffle the deck and deal five (5) cards to each player. Then, shuffle the hymnal, and deal one (1) hymn to each player."',
        reading="Each dealt card is a chance event naming the card (the log holds every hidden fact); every card left in the pile is equally likely. "
                "The order in which seats receive their cards is not checked; hymns dealt before the cards are a warning.",
    ),
    Reading(
        rule=RULE_IDS.id("setup.turn-order"), kind="ambiguity",
        passage='SET UP 3: "Take turns rolling 6-sided dice ... these symbols count as 6s."',
        reading="Each seat rolls once (the Fool or the Fox die; in simulations seats take them in turn); the sphere and the seed of life count as 6, "
                "and a symbol on the wrong die is named. A face recorded as 6 is taken as the symbol with a warning. Only tied top rollers re-roll.",
    ),
    Reading(
        rule=RULE_IDS.id("turn.order"), kind="ambiguity",
        passage='TURN ACTIONS: "Once an action has been taken, that player\'s turn is over"; "Turns proceed in clockwise order."',
        reading="A turn is exactly one action; clockwise is the order of the Houses around the board (red, orange, yellow, green), from the seat "
                "that won the roll. A draw, a hymn draw or a Zodiac roll belongs to the action that caused it. A recorded pass is named (turn.no-pass).",
    ),
    Reading(
        rule=RULE_IDS.id("capture.aura"), kind="ambiguity",
        passage='CAPTURING CARDS: "If, at the start of your turn, one of your cards is THREATENING an enemy card ... you may CAPTURE".',
        reading="A turn is a single action, so the position at the start of the turn is the position the capture is made in: the threat is judged "
                "there. The touching edges are compared after turning each card to its controller (a bought card's edges turn with it).",
    ),
    Reading(
        rule=RULE_IDS.id("alchemy.wheel"), kind="ambiguity",
        passage='Alchemy: "Blades ... will always defeat Claws in ties, as Blades consume Claws"; Lords: "the Lord of Blades is always defeated by Gears"; opposed pairs Blades-Souls and Claws-Gears (Fig. 1.8, lost).',
        reading="The wheel is read as the one cycle through both arrows with those opposites: Gears consume Blades, Blades consume Claws, Claws consume "
                "Souls, Souls consume Gears. 'Claws consume Souls' and 'Souls consume Gears' are derived, not printed.",
    ),
    Reading(
        rule=RULE_IDS.id("alchemy.lords"), kind="ambiguity",
        passage='ALCHEMY: THE LORDS: "Lords always resolve captures using Alchemy."',
        reading="Any encounter with a Lord, attacking or defending, Lord against Lord included, is decided by the two suits alone (dots are ignored): "
                "consume = capture, consumed = no capture, opposed = annihilation, same suit = deadlock.",
    ),
    Reading(
        rule=RULE_IDS.id("summon.base"), kind="ambiguity",
        passage='THE LORDS: "once played, only other Lords and other cards of that Lord\'s suit may be field summoned adjacent to them (unless that space is also adjacent to a separate valid card)."',
        reading="This is the base rule at value 15: a field summon needs one own base of the same suit or no higher value. An enemy Lord restricts "
                "nothing (enemy cards are never bases, and an own valid base is the 'separate valid card'); both readings give the same verdicts.",
    ),
    Reading(
        rule=RULE_IDS.id("summon.house"), kind="ambiguity",
        passage='House Summoning: "If your HOUSE is empty ..., any card in your hand may be placed there, regardless of suit or face value."',
        reading="Only your own empty House takes a card without a base; an enemy's empty House may be field summoned into like any other space.",
    ),
    Reading(
        rule=RULE_IDS.id("alchemy.annihilation"), kind="ambiguity",
        passage='Annihilation: "either of these cards may initiate an Annihilation, in which case both cards are discarded from play".',
        reading="An annihilation is the turn's CAPTURE action (CardsAnnihilated); both cards go face up to the discard pile. A capture recorded where "
                "the rules give an annihilation is named, and replayed as the table played it.",
    ),
    Reading(
        rule=RULE_IDS.id("buy.contract"), kind="ambiguity",
        passage='Contracts: "A bought or summoned Mercenary is considered \'Under Contract\' until it is once again the turn of the player who bought or summoned the Mercenary."',
        reading="A contract only stops other players from buying the Mercenary (it may still be captured); it ends when its holder's next turn begins.",
    ),
    Reading(
        rule=RULE_IDS.id("hand.limit"), kind="ambiguity",
        passage='SET UP 2: "you should never hold more than one (1) hymn card, or more than five (5) non-hymn cards ... shuffle extras back"; DRAWING CARDS: "you must first discard one".',
        reading="Extras are returned (ExtrasReturned) before the game goes on. A draw at five cards without a discard, or the table going on with "
                "extras in a hand, is named once per excess. A face-up Zodiac counts as the held hymn. No limits in Singularity.",
    ),
    Reading(
        rule=RULE_IDS.id("draw.discard"), kind="ambiguity",
        passage='DRAWING CARDS: "discard one (1) non-hymn card"; Alchemy and offerings also "discard".',
        reading="Discarded cards (and sung hymns) lie face up on one discard pile that every seat sees; extras shuffled back into the deck or hymnal "
                "are seen only by their holder. A discard before a draw with less than a full hand is a warning.",
    ),
    Reading(
        rule=RULE_IDS.id("hymns.effect"), kind="ambiguity",
        passage='SINGING HYMNS: "These effects are summarized in the table below" (the table is lost).',
        reading="A sung hymn whose text is lost is recorded as the concrete changes it made (HymnSung.puts: each card and where it went), replayed "
                "exactly so, and audited as info 'effect unchecked: text not available'; nothing is guessed. Bots cannot know a lost effect and "
                "record none. Only Fireyes and Primary in Singularity are checked.",
    ),
    Reading(
        rule=RULE_IDS.id("hymns.zodiac"), kind="ambiguity",
        passage='SINGULARITY: "These hymns are also changed when rolled for hymn XIII. Zodiac"; LEARNING HYMNS: "a player has the face-up Zodiac card as their current hymn".',
        reading="Singing the Zodiac rolls the d12 (ZodiacRolled); face N is hymn N (I-XII), whose effect follows as it would if sung (recorded as "
                "ZodiacResolved, checked where known). The Zodiac then stays face up in its holder's hand as the current hymn, seen by all; singing "
                "it again is not forbidden by the surviving text.",
    ),
    Reading(
        rule=RULE_IDS.id("hymns.learn-holding"), kind="ambiguity",
        passage='LEARNING HYMNS: "If any of these offerings are made and a player no longer has a hymn in their hand, they may then draw a hymn".',
        reading="Learning draws a hymn, so an offering that leaves a hymn in the hand is named: a holder offers its hymn with one card or one capture. "
                "An offering is exactly one of the five forms (one capture stands for any); the hymn drawn can be sung from the next turn.",
    ),
    Reading(
        rule=RULE_IDS.id("hymns.learn"), kind="ambiguity",
        passage='SINGULARITY: "hymns no longer require offerings to draw (... any player may draw that hymn for free)". Limbo: "buy hymns".',
        reading="In Singularity there is no hymnal, so there is nothing to learn: hymns come with ordinary draws from the Singularity deck. "
                "'buy hymns' in the 3-4 player Limbo passage is read as learning them.",
    ),
    Reading(
        rule=RULE_IDS.id("singularity.deck"), kind="ambiguity",
        passage='SINGULARITY: "If at any point no cards remain in the main deck, the game enters Singularity ... all the cards that are not currently in-play, captured, or in a player\'s hand ... are shuffled into a single deck".',
        reading="Singularity begins the moment the last deck card is drawn: the discard pile and the hymnal become the Singularity deck. Cards "
                "discarded later stay on the discard pile. When the Singularity deck is empty the game ends at once in a universal stalemate (a draw).",
    ),
    Reading(
        rule=RULE_IDS.id("victory.limbo-2p"), kind="ambiguity",
        passage='In 2-Player Games: "they must have no summoned cards in play and an enemy card must move to occupy their House ... If a player cannot escape from Limbo on their next turn, they lose ... If they don\'t have a hymn that can remove them from Limbo, or if there are no available mercenaries on the board, that player is eliminated".',
        reading="Limbo is judged from the board: no own card in play and an enemy card (moved or summoned) on the House. A player in Limbo when its "
                "turn begins loses at once if it holds no hymn and cannot buy (no face-down capture, or no enemy Mercenary free of contract); "
                "otherwise it takes the turn and loses if still in Limbo at its end. One who enters Limbo in its own turn is judged at its next turn.",
    ),
    Reading(
        rule=RULE_IDS.id("victory.limbo"), kind="ambiguity",
        passage='In 3- and 4- player games: "you must place all your opponents into Limbo simultaneously, at which point the last player with cards in play is declared the winner."',
        reading="Checked after every event: all seats but one in Limbo and that one with cards in play. Players in Limbo keep taking turns.",
    ),
    Reading(
        rule=RULE_IDS.id("stalemate.repetition"), kind="ambiguity",
        passage='STALEMATES: "If, at any time, the only reasonable course of action for players is to repeat or cycle through the same moves, a stalemate is declared after three (3) repetitions."',
        reading="Whether a course is 'the only reasonable' one cannot be judged from a log; the game is drawn when the same board (every card, "
                "space and controller) with the same player to act comes up for the third time. Only moves can bring a position back.",
    ),
    Reading(
        rule=RULE_IDS.id("victory.captures"), kind="ambiguity",
        passage='STANDARD VICTORY: "Spent captures ... still count towards your total"; Annihilation: "no player receives a capture point".',
        reading="A seat wins the moment it holds five captures, spent or not; an annihilation adds none.",
    ),
)
