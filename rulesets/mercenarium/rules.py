"""Mercenarium's rules: setup, the check of every event, its effect, and the outcome.

One small handler per event type for `check` and one for `apply`. `check` names every
rule an event breaks; `apply` folds the event in as the table played it, legal or not, so
a replay goes on past a table's mistake exactly as the game did. Comments cite the passage
of ../shared/rules/mercenarium.txt each rule encodes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets.memo import last_state
from rulesets.mercenarium import board, cards
from rulesets.mercenarium.events import (
    TURN_ACTIONS,
    CardCaptured,
    CardDealt,
    CardDrawn,
    CardMoved,
    CardsAnnihilated,
    CardSummoned,
    DrawDeclared,
    ExtrasReturned,
    HymnDealt,
    HymnDrawn,
    HymnLearned,
    HymnSung,
    MercenaryBought,
    Put,
    TurnOrderRolled,
    TurnPassed,
    ZodiacResolved,
    ZodiacRolled,
)
from rulesets.mercenarium.params import Params
from rulesets.mercenarium.ruleids import RULE_IDS
from rulesets.mercenarium.state import (
    Capture,
    Last,
    Pending,
    Placed,
    Player,
    Position,
    State,
    any_over_limits,
    at,
    clash,
    clockwise,
    contract_of,
    house,
    in_limbo,
    in_play,
    inserted,
    known_by_space,
    limbo_on,
    over_limits,
    placed,
    player,
    put_on_board,
    replace_player,
    side,
    sort_cards,
    take_off_board,
    unspent,
    without,
)
from rulesets.protocol import Outcome, Severity, Violation

replace = msgspec.structs.replace

SYMBOLS = {"fool": "sphere", "fox": "seed-of-life"}
"""The sixth face of each d6: "the (sphere) is on the white Fool die, and the (seed of life)
is on the purple Fox die. For the purpose of establishing turn order, these symbols count as 6s"."""
UNCHECKED = "effect unchecked: text not available"


# --- setup ------------------------------------------------------------------------------


def validate_start(params: Params, started: MatchStarted) -> list[str]:
    """2-4 seats named by their Houses; two players sit across from each other; the board has
    a centre space on each side (SET UP 1)."""
    problems = []
    seats = list(started.seats)
    colours = [colour for colour, _ in params.houses]
    if not params.players_min <= len(seats) <= params.players_max:
        problems.append(f"Mercenarium is played by {params.players_min}-{params.players_max} players, not {len(seats)}")
    for seat in seats:
        if seat not in colours:
            problems.append(f"seat {seat!r} is not a House: seats are named by House colour ({', '.join(colours)})")
    if params.board_size < 3 or params.board_size % 2 == 0:
        problems.append(f"board_size {params.board_size}: a House sits on the centre space of each side, so the board needs an odd size of 3 or more")
    if len(seats) == 2 and all(s in colours for s in seats):
        a, b = (board.SIDES[side(params, s)] for s in seats)
        if (a - b) % 360 != 180:
            problems.append(f"in 2-player games players sit directly across from each other: {seats[0]} and {seats[1]} are neighbours")
    return problems


def setup(params: Params, started: MatchStarted) -> State:
    """The board open, the hymnal set apart from the deck; nothing dealt yet (SET UP 1-2)."""
    seats = clockwise(params, list(started.seats))
    return State(seats=seats, players=tuple(Player(seat=s) for s in seats), deck=cards.DECK, hymnal=cards.HYMNAL)


# --- violations ------------------------------------------------------------------------------

Problems = list[Violation]


def _v(event: Event, rule: str, message: str, severity: Severity = "error") -> Violation:
    """The event broke the declared rule `rule` (see `ruleids.RULE_IDS`)."""
    return RULE_IDS.violation(event, rule, message, severity)


def name(card_id: str) -> str:
    """A card as the messages say it: `the Queen of Souls (QS)`."""
    return f"the {cards.label(card_id)} ({card_id})" if cards.card(card_id) else cards.label(card_id)


def deal_complete(params: Params, state: State) -> bool:
    """Every seat holds its five cards and its hymn."""
    return all(len(p.hand) >= params.deal and len(p.hymns) >= 1 for p in state.players)


def _check_dealt(params: Params, state: State, event: CardDealt) -> Problems:
    """SET UP 2: "shuffle the deck and deal five (5) cards to each player"."""
    p = player(state, event.seat)
    problems = []
    if state.stage != "deal" or p is None:
        return [_v(event, "setup.deal", f"no card is dealt to {event.seat!r} now: the deal is over or the seat is not in the game")]
    if event.card not in state.deck:
        problems.append(_v(event, "setup.deal", f"{name(event.card)} is not in the deck"))
    if len(p.hand) >= params.deal:
        problems.append(_v(event, "setup.deal", f"{event.seat} already has its {params.deal} cards"))
    return problems


def _check_hymn_dealt(params: Params, state: State, event: HymnDealt) -> Problems:
    """SET UP 2: "Then, shuffle the hymnal, and deal one (1) hymn to each player"."""
    p = player(state, event.seat)
    if state.stage != "deal" or p is None:
        return [_v(event, "setup.deal", f"no hymn is dealt to {event.seat!r} now")]
    problems = []
    if event.hymn not in state.hymnal:
        problems.append(_v(event, "setup.deal", f"{event.hymn} is not in the hymnal"))
    if p.hymns:
        problems.append(_v(event, "setup.deal", f"{event.seat} already has its hymn"))
    if any(len(q.hand) < params.deal for q in state.players):
        problems.append(_v(event, "setup.deal", "hymns are dealt after the five cards each", "warning"))
    return problems


def face_value(face: int | str) -> int:
    """A turn-order die face as counted: 1-5, or 6 for either symbol."""
    if isinstance(face, str):
        return 6 if face in SYMBOLS.values() else 0
    return face


def _check_order_rolled(params: Params, state: State, event: TurnOrderRolled) -> Problems:
    """SET UP 3: "The player who rolls the highest number goes first. If there is a tie, tied
    players re-roll the dice until the tie is broken"."""
    if state.stage != "order":
        return [_v(event, "setup.turn-order", "turn order is rolled once the hands are dealt, before the first turn")]
    problems = []
    if event.seat not in state.rollers:
        problems.append(_v(event, "setup.turn-order", f"{event.seat} is not rolling now: only {', '.join(state.rollers)} (tied players re-roll)"))
    elif any(seat == event.seat for seat, _ in state.rolls):
        problems.append(_v(event, "setup.turn-order", f"{event.seat} already rolled this round"))
    symbol = SYMBOLS.get(event.die)
    if isinstance(event.face, str):
        if event.face != symbol:
            problems.append(_v(event, "setup.turn-order", f"the {event.die} die's sixth face is the {symbol}, not {event.face!r}"))
    elif event.face == 6:
        problems.append(_v(event, "setup.turn-order", f"the {event.die} die has no 6: its sixth face is the {symbol} (counted as 6)", "warning"))
    elif not 1 <= event.face <= 5:
        problems.append(_v(event, "setup.turn-order", f"a d6 cannot show {event.face}"))
    return problems


# --- the turn ("TURN ACTIONS": one action, no passing) -----------------------------------------


def _check_turn(params: Params, state: State, event: Event) -> Problems:
    """Any turn action: the game is on, it is this seat's turn, nothing is waiting."""
    if state.stage != "play" or state.current is None:
        return [_v(event, "turn.order", "the game starts after the deal and the roll for the first turn")]
    problems = []
    if (result := outcome(params, state)) is not None:
        problems.append(_v(event, "victory.game-over", f"the game is already over: {result.reason}"))
    if state.pending:
        problems.append(_v(event, "turn.pending", _waiting(state.pending[0])))
    if event.by != state.current:
        problems.append(_v(event, "turn.order", f"it is {state.current}'s turn (turns go clockwise), not {event.by or 'nobody'}'s"))
    return problems + _check_excess(params, state, event)


def _waiting(pending: Pending) -> str:
    what = {"draw": "draw", "hymn": "hymn draw", "zodiac-roll": "Zodiac roll", "zodiac-effect": "Zodiac's rolled effect"}
    return f"{pending.seat}'s {what[pending.kind]} has not been recorded yet: one action per turn"


def _check_excess(params: Params, state: State, event: Event) -> Problems:
    """SET UP 2: "you should never hold ... more than five (5) non-hymn cards ... shuffle extras
    back"; named once, when the table goes on with the extras still in a hand."""
    problems = []
    for p in state.players:
        if p.seat not in state.noted and over_limits(params, state, p.seat):
            problems.append(_v(event, "hand.limit", f"{p.seat} kept {len(p.hand)} non-hymn cards and {len(p.hymns)} hymn(s): "
                                                    f"at most {params.hand_limit} and {params.hymn_limit}; extras go back into the deck or hymnal"))
    return problems


def _own(state: State, event: Event, card_id: str, rule: str) -> tuple[Problems, Placed | None]:
    """The acting seat's card in play, or why not."""
    piece = placed(state, card_id)
    if piece is None:
        return [_v(event, rule, f"{name(card_id)} is not in play")], None
    if piece.owner != event.by:
        return [_v(event, rule, f"{name(card_id)} is {piece.owner}'s card, not {event.by}'s")], piece
    return [], piece


def _check_summoned(params: Params, state: State, event: CardSummoned) -> Problems:
    """SUMMONING CARDS: House Summoning and Field Summoning."""
    problems = _check_turn(params, state, event)
    p = player(state, event.by)
    incoming = cards.card(event.card)
    if incoming is None:
        return [*problems, _v(event, "summon.hand", f"{name(event.card)} is not a deck card: hymns are sung, not summoned")]
    if p is None or event.card not in p.hand:
        problems.append(_v(event, "summon.hand", f"{name(event.card)} is not in {event.by}'s hand: 'To summon a card, it must first be in your hand'"))
    if not board.on_board(event.space, params.board_size):
        return [*problems, _v(event, "summon.board", f"{event.space} is off the {params.board_size} x {params.board_size} board")]
    if (occupant := at(state, event.space)) is not None:
        return [*problems, _v(event, "summon.occupied", f"{event.space} holds {name(occupant.card)}: summons go to empty spaces")]
    if event.by is not None and event.space == house(params, event.by):
        return problems  # House Summoning: "any card in your hand may be placed there, regardless of suit or face value"
    return problems + _check_base(params, state, event, incoming)


def _check_base(params: Params, state: State, event: CardSummoned, incoming: cards.Card) -> Problems:
    """Field Summoning: next to one of your own cards' four edges, same suit or a face value no
    lower than that base; never diagonally, never on an enemy base."""
    near = [at(state, space) for _, space in board.neighbours(event.space, params.board_size)]
    own = [p for p in near if p is not None and p.owner == event.by]
    if not own:
        corners = [p for p in state.board if p.owner == event.by and board.diagonal(p.space, event.space)]
        enemies = [p for p in near if p is not None]
        if corners:
            return [_v(event, "summon.orthogonal", f"{event.space} touches {name(corners[0].card)} only at a corner: "
                                                   "'You may not summon cards diagonally'")]
        if enemies:
            return [_v(event, "summon.enemy-base", f"{event.space} is next to {name(enemies[0].card)}, an enemy card: "
                                                   "'Field summons must always be based on a card that you control'")]
        return [_v(event, "summon.adjacent", f"{event.space} is neither {event.by}'s empty House nor next to one of {event.by}'s cards")]
    for base in own:
        found = cards.card(base.card)
        if found is None or found.suit == incoming.suit or incoming.value >= found.value:
            return []
    bases = ", ".join(name(b.card) for b in own)
    return [_v(event, "summon.base", f"{name(event.card)} (value {incoming.value}) shares no suit with and is lower than "
                                     f"every adjacent base ({bases}): 'same suit as, or a face value no lower than'")]


def _check_moved(params: Params, state: State, event: CardMoved) -> Problems:
    """MOVING CARDS: "one (1) space, either North, South, East or West ... You may not move into
    a space occupied by one of your own cards, and you may not move a card diagonally"."""
    problems = _check_turn(params, state, event)
    found, piece = _own(state, event, event.card, "move.card")
    problems += found
    if piece is None:
        return problems
    if board.direction(piece.space, event.to) is None:
        how = "diagonally" if board.diagonal(piece.space, event.to) else f"from {piece.space} to {event.to}"
        problems.append(_v(event, "move.one-space", f"{name(event.card)} moves {how}: a card moves one space N, S, E or W"))
    if not board.on_board(event.to, params.board_size):
        return [*problems, _v(event, "move.board", f"{event.to} is off the board")]
    occupant = at(state, event.to)
    if occupant is not None and occupant.owner == event.by:
        problems.append(_v(event, "move.occupied", f"{event.to} holds {name(occupant.card)}, {event.by}'s own card"))
    elif occupant is not None:
        problems.append(_v(event, "move.occupied", f"{event.to} holds the enemy {name(occupant.card)}: moving into it is a capture"))
    return problems


def _check_attack(params: Params, state: State, event: CardCaptured | CardsAnnihilated) -> tuple[Problems, Placed | None, Placed | None]:
    """Common to a capture and an annihilation: your card, next to an enemy card."""
    problems = _check_turn(params, state, event)
    found, attacker = _own(state, event, event.card, "capture.card")
    problems += found
    target = placed(state, event.target)
    if target is None:
        return [*problems, _v(event, "capture.target", f"{name(event.target)} is not in play")], attacker, None
    if target.owner == event.by:
        problems.append(_v(event, "capture.target", f"{name(event.target)} is {event.by}'s own card"))
    if attacker is not None and attacker.owner != event.by:
        return problems, None, target  # not the mover's card: nothing more to judge
    if attacker is not None and board.direction(attacker.space, target.space) is None:
        how = "only at a corner" if board.diagonal(attacker.space, target.space) else "not at all"
        problems.append(_v(event, "capture.adjacent", f"{name(event.card)} touches {name(event.target)} {how}: captures move one space N, S, E or W"))
        return problems, None, target
    return problems, attacker, target


def _check_captured(params: Params, state: State, event: CardCaptured) -> Problems:
    """CAPTURING CARDS: threatened means "adjacent to an enemy card that has fewer aura dots
    along its touching edge"; ties and Lords go to the Alchemy Wheel."""
    problems, attacker, target = _check_attack(params, state, event)
    if attacker is None or target is None or target.owner == event.by:
        return problems
    result = clash(params, state, attacker, target)
    dots = f"{name(event.card)} shows {result.attacker_dots} dot(s) toward {name(event.target)}, which shows {result.defender_dots}"
    lords = any((c := cards.card(x.card)) is not None and c.lord for x in (attacker, target))
    why = "a Lord always resolves by alchemy" if lords else f"a tie at {result.attacker_dots}"
    messages = {
        "weaker": ("capture.aura", f"{dots}: a card captures only through a stronger edge"),
        "consumed": ("alchemy.consumption", f"{_alchemy_words(attacker, target, why)}: only the consuming card may initiate a capture"),
        "annihilation": ("alchemy.annihilation", f"{_alchemy_words(attacker, target, why)}: opposed suits annihilate; nobody captures"),
        "deadlock": ("alchemy.deadlock", f"{_alchemy_words(attacker, target, why)}: the same suit deadlocks; neither can capture"),
    }
    if result.kind in messages:
        rule, message = messages[result.kind]
        problems.append(_v(event, rule, message))
    return problems


def _alchemy_words(attacker: Placed, target: Placed, why: str) -> str:
    a, d = cards.card(attacker.card), cards.card(target.card)
    return f"{name(attacker.card)} meets {name(target.card)} ({why}; {a.suit if a else '?'} against {d.suit if d else '?'})"


def _check_annihilated(params: Params, state: State, event: CardsAnnihilated) -> Problems:
    """Annihilation: "a tie between two cards whose suits are directly across from each other
    ... either of these cards may initiate an Annihilation"."""
    problems, attacker, target = _check_attack(params, state, event)
    if attacker is None or target is None or target.owner == event.by:
        return problems
    result = clash(params, state, attacker, target)
    if result.kind != "annihilation":
        why = "suits that are not opposed" if result.by_alchemy else f"no tie ({result.attacker_dots} against {result.defender_dots} dots)"
        problems.append(_v(event, "alchemy.annihilation", f"{name(event.card)} and {name(event.target)} meet with {why}: only a tie of opposed suits annihilates"))
    return problems


def _check_bought(params: Params, state: State, event: MercenaryBought) -> Problems:
    """BUYING MERCENARIES: a face-down capture flipped for an enemy J, Q, K or A not under contract."""
    problems = _check_turn(params, state, event)
    p = player(state, event.by)
    free = unspent(p) if p else ()
    if not free:
        problems.append(_v(event, "buy.capture", f"{event.by} has no face-down capture to spend"))
    elif event.capture is not None and event.capture not in free:
        problems.append(_v(event, "buy.capture", f"{name(event.capture)} is not one of {event.by}'s face-down captures"))
    found = cards.card(event.card)
    if found is None or not found.mercenary:
        what = "a Lord" if found and found.lord else "a 10" if found and found.rank == "10" else "Materia" if found else "not a deck card"
        problems.append(_v(event, "buy.mercenary", f"{name(event.card)} is {what}: only Jacks, Queens, Kings and Aces are Mercenaries "
                                                   "('10s and Lords are NOT considered mercenaries')"))
    target = placed(state, event.card)
    if target is None:
        return [*problems, _v(event, "buy.enemy", f"{name(event.card)} is not in play")]
    if target.owner == event.by:
        problems.append(_v(event, "buy.enemy", f"{name(event.card)} is already {event.by}'s"))
    elif (holder := contract_of(state, event.card)) is not None:
        problems.append(_v(event, "buy.contract", f"{name(event.card)} is under contract to {holder} until {holder}'s next turn"))
    return problems


# --- hymns ("SINGING HYMNS", "LEARNING HYMNS", "SINGULARITY") ----------------------------------


def _check_sung(params: Params, state: State, event: HymnSung) -> Problems:
    """SING: activate your held hymn; its effect is checked where the text survives."""
    problems = _check_turn(params, state, event)
    p = player(state, event.by)
    if event.hymn not in cards.HYMNS:
        return [*problems, _v(event, "hymns.hand", f"{event.hymn!r} is not a hymn (I to XV)")]
    if p is None or event.hymn not in p.hymns:
        problems.append(_v(event, "hymns.hand", f"{event.by} does not hold hymn {cards.HYMNS[event.hymn].name}"))
    problems += _check_puts(params, state, event, event.puts)
    return problems + _check_effect(params, state, event, event.hymn, event.puts, event.kept)


def _check_effect(params: Params, state: State, event: Event, hymn: str, puts: tuple[Put, ...], kept: bool | None) -> Problems:
    """A hymn's effect where the text gives it; otherwise an info: never guessed."""
    title = cards.HYMNS[hymn].name
    if hymn == cards.ZODIAC and isinstance(event, HymnSung):
        if puts:
            return [_v(event, "hymns.zodiac", f"{title} makes no change of its own: the hymn its d12 rolls takes effect after the roll")]
        return []
    if state.singularity and hymn == cards.FIREYES:
        problems = [] if not puts else [_v(event, "hymns.effect", f"in Singularity {title} is 'Draw 5 cards' (recorded as the draws that follow), not other changes")]
        return problems + _check_discarded(event, title, kept)
    if state.singularity and hymn == cards.PRIMARY:
        return _check_search(state, event, title, puts) + _check_discarded(event, title, kept)
    return [_v(event, "hymns.effect", f"{UNCHECKED} ({title})", "info")]


def _check_discarded(event: Event, title: str, kept: bool | None) -> Problems:
    """"After singing a hymn, it should be discarded, unless otherwise specified by the hymn's effects"."""
    if kept:
        return [_v(event, "hymns.discard", f"{title} was kept, but a sung hymn is discarded unless its effect says otherwise")]
    return []


def _check_search(state: State, event: Event, title: str, puts: tuple[Put, ...]) -> Problems:
    """Primary in Singularity: "Search the Singularity deck for any (1) card. Place that card into your hand"."""
    singer = state.pending[0].seat if isinstance(event, ZodiacResolved) and state.pending else event.by
    if len(puts) != 1 or puts[0].to != "hand" or puts[0].seat != singer or puts[0].card not in state.deck:
        return [_v(event, "hymns.effect", f"in Singularity {title} puts exactly one card from the Singularity deck into {singer}'s hand")]
    return []


def _check_puts(params: Params, state: State, event: Event, puts: tuple[Put, ...]) -> Problems:
    """The recorded changes must be possible on a real table (a card exists, a space is free)."""
    problems = []
    seats = set(state.seats)
    for put in puts:
        if cards.card(put.card) is None and not cards.is_hymn(put.card):
            problems.append(_v(event, "hymns.put", f"{put.card!r} is no card of the Anthromancer deck"))
        elif put.to in ("board", "hand", "captures") and put.seat not in seats:
            problems.append(_v(event, "hymns.put", f"{put.card} goes to the {put.to} of {put.seat!r}, who is not in the game"))
        elif put.to == "board":
            problems += _check_put_space(params, state, event, put)
    return problems


def _check_put_space(params: Params, state: State, event: Event, put: Put) -> Problems:
    if cards.is_hymn(put.card):
        return [_v(event, "hymns.put", f"hymn {put.card} cannot be put in play: only deck cards are")]
    if put.space is None or not board.on_board(put.space, params.board_size):
        return [_v(event, "hymns.put", f"{put.card} is put on the board at {put.space}, which is not a space")]
    occupant = at(state, put.space)
    if occupant is not None and occupant.card != put.card:
        return [_v(event, "hymns.put", f"{put.space} already holds {name(occupant.card)}")]
    return []


@functools.lru_cache(maxsize=1 << 14)  # pure: every offering a hand allows is asked at every decision
def offering_form(offering: tuple[str, ...], captures: tuple[str, ...]) -> str | None:
    """Which acceptable offering this is (LEARNING HYMNS), or None.

    `two-materia`: two cards valued 2-9; `one-high`: one 10, J, Q, K, A or L; `capture`:
    one capture; `hymn-and-card`: the current hymn and any one card; `hymn-and-capture`.
    """
    hymns = [c for c in offering if cards.is_hymn(c)]
    others = [cards.card(c) for c in offering if not cards.is_hymn(c)]
    if any(c is None for c in others) or len(hymns) > 1 or len(captures) > 1:
        return None
    values = [c.value for c in others if c is not None]
    if hymns:
        if len(values) == 1 and not captures:
            return "hymn-and-card"
        return "hymn-and-capture" if not values and captures else None
    if captures:
        return "capture" if not values else None
    if len(values) == 2 and all(2 <= v <= 9 for v in values):
        return "two-materia"
    return "one-high" if len(values) == 1 and values[0] >= 10 else None


def _check_learned(params: Params, state: State, event: HymnLearned) -> Problems:
    """LEARN: an acceptable offering from the hand or the captures, then a hymn from the hymnal."""
    problems = _check_turn(params, state, event)
    p = player(state, event.by)
    if p is None:
        return problems
    if state.singularity:
        return [*problems, _v(event, "hymns.learn", "in Singularity there is no hymnal: 'hymns no longer require offerings to draw'")]
    if not state.hymnal:
        problems.append(_v(event, "hymns.learn", "the hymnal is empty: there is no hymn to learn"))
    held = set(p.hand) | set(p.hymns)
    for card_id in event.offering:
        if card_id not in held:
            where = "in play" if placed(state, card_id) else "not in the hand"
            rule = "hymns.offering-in-play" if placed(state, card_id) else "hymns.offering"
            problems.append(_v(event, rule, f"{name(card_id)} is {where}: 'Offerings must be made from your hand or from your captures'"))
    for capture in event.captures:
        if capture not in unspent(p):
            problems.append(_v(event, "hymns.offering", f"{name(capture)} is not a face-down capture of {event.by}"))
    if offering_form(event.offering, event.captures) is None:
        problems.append(_v(event, "hymns.offering", "not an acceptable offering: two cards of 2-9, one 10/J/Q/K/A/L, one capture, "
                                                    "or the current hymn with one card or one capture"))
    kept = [h for h in p.hymns if h not in event.offering]
    if kept:
        problems.append(_v(event, "hymns.learn-holding", f"{event.by} still holds hymn {kept[0]} after the offering: "
                                                         "a hymn is drawn only by a player who 'no longer has a hymn in their hand'"))
    return problems


def _check_draw(params: Params, state: State, event: DrawDeclared) -> Problems:
    """DRAWING CARDS: "If you are already holding five non-hymn cards ... you must first discard one"."""
    problems = _check_turn(params, state, event)
    p = player(state, event.by)
    if p is None:
        return problems
    if not state.deck:
        problems.append(_v(event, "draw.empty", "the deck is empty"))
    if event.discard is not None:
        if event.discard not in p.hand:
            what = "a hymn" if cards.is_hymn(event.discard) else "not in the hand"
            problems.append(_v(event, "draw.discard", f"{name(event.discard)} is {what}: the discard before a draw is a non-hymn card from the hand"))
        elif len(p.hand) < params.hand_limit and not state.singularity:
            problems.append(_v(event, "draw.discard", f"{event.by} holds {len(p.hand)} non-hymn cards: only a full hand discards before drawing", "warning"))
    elif len(p.hand) >= params.hand_limit and not state.singularity:
        problems.append(_v(event, "hand.limit", f"{event.by} draws holding {len(p.hand)} non-hymn cards without discarding first: "
                                                 f"a hand keeps at most {params.hand_limit}"))
    return problems


def _check_passed(params: Params, state: State, event: TurnPassed) -> Problems:
    """TURN ACTIONS: "You may not 'pass' your turn without taking any action"."""
    return [*_check_turn(params, state, event), _v(event, "turn.no-pass", f"{event.by} passed: every turn takes one of the seven actions")]


def _check_drawn(params: Params, state: State, event: CardDrawn) -> Problems:
    """The card a pending draw gave; it comes from the deck (the Singularity deck in Singularity)."""
    pending = state.pending[0] if state.pending else None
    if pending is None or pending.kind != "draw":
        return [_v(event, "draw.pending", "no draw is waiting: a draw is a turn action (DrawDeclared) first")]
    problems = []
    if event.seat != pending.seat:
        problems.append(_v(event, "draw.pending", f"the draw is {pending.seat}'s, not {event.seat}'s"))
    if event.card not in state.deck:
        problems.append(_v(event, "draw.card", f"{name(event.card)} is not in the deck"))
    return problems


def _check_hymn_drawn(params: Params, state: State, event: HymnDrawn) -> Problems:
    pending = state.pending[0] if state.pending else None
    if pending is None or pending.kind != "hymn":
        return [_v(event, "hymns.learn", "no hymn draw is waiting: a hymn is drawn after an offering (HymnLearned)")]
    problems = []
    if event.seat != pending.seat:
        problems.append(_v(event, "hymns.learn", f"the hymn draw is {pending.seat}'s, not {event.seat}'s"))
    if event.hymn not in state.hymnal:
        problems.append(_v(event, "hymns.learn", f"{event.hymn} is not in the hymnal"))
    return problems


def _check_zodiac_rolled(params: Params, state: State, event: ZodiacRolled) -> Problems:
    pending = state.pending[0] if state.pending else None
    if pending is None or pending.kind != "zodiac-roll":
        return [_v(event, "hymns.zodiac", "no Zodiac roll is waiting: the d12 is rolled when hymn XIII is sung")]
    if not 1 <= event.value <= params.zodiac_faces:
        return [_v(event, "hymns.zodiac", f"the d{params.zodiac_faces} Zodiac die cannot show {event.value}")]
    return []


def _check_zodiac_resolved(params: Params, state: State, event: ZodiacResolved) -> Problems:
    pending = state.pending[0] if state.pending else None
    if pending is None or pending.kind != "zodiac-effect":
        return [_v(event, "hymns.zodiac", "no rolled Zodiac effect is waiting for its changes")]
    problems = []
    if event.by is not None and event.by != pending.seat:
        problems.append(_v(event, "turn.order", f"the Zodiac was sung by {pending.seat}, not {event.by}", "warning"))
    if event.hymn != pending.hymn or event.hymn not in cards.HYMNS:
        return [*problems, _v(event, "hymns.zodiac", f"the Zodiac rolled hymn {pending.hymn}, not {event.hymn}")]
    problems += _check_puts(params, state, event, event.puts)
    return problems + _check_effect(params, state, event, event.hymn, event.puts, None)


def _check_returned(params: Params, state: State, event: ExtrasReturned) -> Problems:
    """"If you find yourself with more than the allotted hymns or non-hymn cards, shuffle extras
    back into the deck or hymnal"."""
    p = player(state, event.by)
    if p is None:
        return [_v(event, "hand.extras", "extras are returned by the seat holding them (by)")]
    problems = []
    for card_id in event.cards:
        if card_id not in p.hand and card_id not in p.hymns:
            problems.append(_v(event, "hand.extras", f"{name(card_id)} is not in {event.by}'s hand"))
    hymns = sum(1 for c in event.cards if cards.is_hymn(c))
    extra_cards = max(len(p.hand) - params.hand_limit, 0) if not state.singularity else 0
    extra_hymns = max(len(p.hymns) - params.hymn_limit, 0) if not state.singularity else 0
    if len(event.cards) - hymns > extra_cards or hymns > extra_hymns:
        problems.append(_v(event, "hand.extras", f"{event.by} returns {len(event.cards)} card(s) but holds only "
                                                 f"{extra_cards} extra card(s) and {extra_hymns} extra hymn(s)"))
    return problems


_CHECKS: dict[type, Callable[[Params, State, Any], Problems]] = {
    CardDealt: _check_dealt,
    HymnDealt: _check_hymn_dealt,
    TurnOrderRolled: _check_order_rolled,
    CardSummoned: _check_summoned,
    CardMoved: _check_moved,
    CardCaptured: _check_captured,
    CardsAnnihilated: _check_annihilated,
    MercenaryBought: _check_bought,
    HymnSung: _check_sung,
    HymnLearned: _check_learned,
    DrawDeclared: _check_draw,
    TurnPassed: _check_passed,
    CardDrawn: _check_drawn,
    HymnDrawn: _check_hymn_drawn,
    ZodiacRolled: _check_zodiac_rolled,
    ZodiacResolved: _check_zodiac_resolved,
    ExtrasReturned: _check_returned,
}


def check(params: Params, state: State, event: Event) -> list[Violation]:
    """Every rule the event breaks in this state (empty when it is legal)."""
    handler = _CHECKS.get(type(event))
    return handler(params, state, event) if handler else []


# --- apply: set up -------------------------------------------------------------------------------


def _apply_dealt(params: Params, state: State, event: CardDealt) -> State:
    p = player(state, event.seat)
    if p is None:
        return state
    state = replace_player(state, replace(p, hand=sort_cards((*p.hand, event.card))), deck=without(state.deck, event.card))
    return _maybe_order(params, state)


def _apply_hymn_dealt(params: Params, state: State, event: HymnDealt) -> State:
    p = player(state, event.seat)
    if p is None:
        return state
    state = replace_player(state, replace(p, hymns=sort_cards((*p.hymns, event.hymn))), hymnal=without(state.hymnal, event.hymn))
    return _maybe_order(params, state)


def _maybe_order(params: Params, state: State) -> State:
    """Once every hand is dealt, every seat rolls for the first turn."""
    if state.stage == "deal" and deal_complete(params, state):
        early = state.rolls  # rolls the table made before the deal was done still count
        state = replace(state, stage="order", rollers=state.seats, rolls=())
        for seat, value in early:
            state = _apply_order_rolled(params, state, TurnOrderRolled(seat=seat, die="fool", face=value))
        return state
    return state


def _apply_order_rolled(params: Params, state: State, event: TurnOrderRolled) -> State:
    """The highest roll goes first; "tied players re-roll the dice until the tie is broken"."""
    if state.stage == "deal" and not any(s == event.seat for s, _ in state.rolls):
        # the table rolled before the deal was done: the roll stands once the deal is
        return replace(state, rolls=(*state.rolls, (event.seat, face_value(event.face))))
    if state.stage != "order" or event.seat not in state.rollers or any(s == event.seat for s, _ in state.rolls):
        return state
    rolls = (*state.rolls, (event.seat, face_value(event.face)))
    if len(rolls) < len(state.rollers):
        return replace(state, rolls=rolls)
    top = max(value for _, value in rolls)
    tied = tuple(seat for seat, value in rolls if value == top)
    if len(tied) > 1:
        return replace(state, rollers=tied, rolls=())
    state = replace(state, stage="play", first=tied[0], rollers=(), rolls=(), history=())
    return _begin_turn(params, state, tied[0], (), state.board, state.last, state.eliminated)


# --- apply: turns --------------------------------------------------------------------------------


def _begin_turn(params: Params, state: State, seat: str, history: tuple[Position, ...], pieces: tuple[Placed, ...], last: Last | None,
                eliminated: str | None) -> State:
    """A seat's turn begins: its contracts end ("until it is once again the turn of the player
    who bought or summoned the Mercenary"); note whether it starts in Limbo. The positions
    since the last action other than a move (`history`), the board (`pieces`), the last action
    and the eliminated seat are set in the same copy, named rather than passed as keywords (a
    keyword dict costs a copy of the state again): a move and the turn it passes on are one copy."""
    contracts = state.contracts
    if contracts:
        contracts = tuple([c for c in contracts if c[1] != seat])
    return replace(state, board=pieces, last=last, eliminated=eliminated, current=seat, turns=state.turns + 1, contracts=contracts,
                   limbo_at_start=limbo_on(params, pieces, seat), history=history)


def _finish(params: Params, state: State, *, moved: bool = False) -> State:
    """The action is complete: Limbo is judged, and the next seat clockwise begins its turn."""
    return _finish_on(params, state, state.board, state.last, moved)


def _finish_on(params: Params, state: State, pieces: tuple[Placed, ...], last: Last | None, moved: bool) -> State:
    """`_finish` of the state with its board `pieces` and its last action `last` (a move's, a
    summon's, a capture's...), in one copy of the state with the turn passed on (`_begin_turn`)."""
    if state.pending or state.stage != "play" or state.current is None:
        return state if pieces is state.board and last is state.last else replace(state, board=pieces, last=last)
    seat, seats = state.current, state.seats
    eliminated = state.eliminated
    if len(seats) == 2 and state.limbo_at_start and limbo_on(params, pieces, seat):
        eliminated = seat  # "If a player cannot escape from Limbo on their next turn, they lose"
    try:  # `next_seat`, read here: one look along the seats, no call (asked at every action)
        coming = seats[(seats.index(seat) + 1) % len(seats)]
    except ValueError:
        coming = seats[0]
    key = (coming, pieces)  # `position_key(pieces, coming)`
    history = (*state.history, key) if moved else (key,)
    return _begin_turn(params, state, coming, history, pieces, last, eliminated)


def _apply_summoned(params: Params, state: State, event: CardSummoned) -> State:
    """The card leaves the hand for the board, oriented to its summoner; a Mercenary is under contract."""
    seat = event.by or state.current or ""
    if at(state, event.space) is None and board.on_board(event.space, params.board_size):
        state = _lift(state, event.card, Placed(event.card, event.space, seat))  # from wherever the table took it, onto the space
        state = _contract(state, event.card, seat)
    return _finish_on(params, state, state.board, Last("summon", seat, (event.space,)), False)


def _contract(state: State, card_id: str, seat: str) -> State:
    """"A bought or summoned Mercenary is considered 'Under Contract'"."""
    if card_id not in cards.MERCENARIES:
        return state
    contracts = (*(c for c in state.contracts if c[0] != card_id), (card_id, seat))
    return replace(state, contracts=contracts)


def _apply_moved(params: Params, state: State, event: CardMoved) -> State:
    pieces, card, to = state.board, event.card, event.to
    index = -1
    where = known_by_space(pieces)
    if where is not None:  # the board's index by space, as `legal` left it: whether the space is taken at once
        if to in where:
            return _finish(params, state, moved=True)  # the space is taken: nothing moved
        for i, p in enumerate(pieces):  # the moved card's place
            if p.card == card:
                index = i
                break
    else:
        for i, p in enumerate(pieces):  # one pass: the moved card's place, and whether the space is taken
            if p.space == to:
                return _finish(params, state, moved=True)  # the space is taken: nothing moved
            if p.card == card and index < 0:
                index = i
    size = params.board_size
    if index < 0 or not (0 <= to[0] < size and 0 <= to[1] < size):  # `board.on_board`
        return _finish(params, state, moved=True)  # nothing on the board the table could have moved
    piece = pieces[index]
    moved = Placed(card, to, piece.owner)  # the board stays sorted by card: the card keeps its place
    return _finish_on(params, state, (*pieces[:index], moved, *pieces[index + 1:]), Last("move", piece.owner, (piece.space, to)), True)


def _apply_captured(params: Params, state: State, event: CardCaptured) -> State:
    """"Cards that you've captured should be removed from the board and placed face-down in front of you"."""
    attacker, target = placed(state, event.card), placed(state, event.target)
    seat = event.by or (attacker.owner if attacker else "")
    if target is None:
        return _finish(params, state)
    state = take_off_board(state, target.card)
    if attacker is not None:
        state = put_on_board(state, attacker.card, target.space, attacker.owner)
    p = player(state, seat)
    if p is not None:
        state = replace_player(state, replace(p, captures=(*p.captures, Capture(target.card))))
    spaces = (attacker.space, target.space) if attacker else (target.space,)
    return _finish_on(params, state, state.board, Last("capture", seat, spaces), False)


def _apply_annihilated(params: Params, state: State, event: CardsAnnihilated) -> State:
    """"both cards are discarded from play and no player receives a capture point"."""
    gone = [p for p in (placed(state, event.card), placed(state, event.target)) if p is not None]
    for piece in gone:
        state = take_off_board(state, piece.card)
    state = replace(state, discard=sort_cards((*state.discard, *(p.card for p in gone))))
    return _finish_on(params, state, state.board, Last("annihilation", event.by or "", tuple(p.space for p in gone)), False)


def _apply_bought(params: Params, state: State, event: MercenaryBought) -> State:
    """Flip a capture face up; the Mercenary turns to the buyer's edge and is under contract."""
    seat = event.by or state.current or ""
    p = player(state, seat)
    if p is not None:
        free = unspent(p)
        flip = event.capture if event.capture in free else (free[0] if free else None)
        state = replace_player(state, replace(p, captures=_flipped(p.captures, flip)))
    target = placed(state, event.card)
    if target is not None:
        state = _contract(put_on_board(state, target.card, target.space, seat), target.card, seat)
        return _finish_on(params, state, state.board, Last("buy", seat, (target.space,)), False)
    return _finish(params, state)


def _flipped(captures: tuple[Capture, ...], card_id: str | None) -> tuple[Capture, ...]:
    """The captures with one face-down capture turned face up (spent)."""
    out, done = [], False
    for c in captures:
        if not done and c.card == card_id and not c.spent:
            out.append(Capture(c.card, spent=True))
            done = True
        else:
            out.append(c)
    return tuple(out)


def _apply_sung(params: Params, state: State, event: HymnSung) -> State:
    """The hymn is discarded (the Zodiac stays face up), its recorded changes are made, and
    the effects the text gives follow: Fireyes draws 5 and the Zodiac rolls, in Singularity."""
    seat = event.by or state.current or ""
    p = player(state, seat)
    zodiac = event.hymn == cards.ZODIAC
    kept = event.kept if event.kept is not None else zodiac
    if p is not None and event.hymn in p.hymns:
        if kept:
            face_up = (*p.face_up, event.hymn) if zodiac and event.hymn not in p.face_up else p.face_up
            state = replace_player(state, replace(p, face_up=face_up))
        else:
            state = replace_player(state, replace(p, hymns=without(p.hymns, event.hymn), face_up=without(p.face_up, event.hymn)))
            state = replace(state, discard=sort_cards((*state.discard, event.hymn)))
    singularity = state.singularity
    state = apply_puts(params, state, event.puts)
    if zodiac:
        state = replace(state, pending=(Pending("zodiac-roll", seat),))
    elif singularity and event.hymn == cards.FIREYES:
        state = replace(state, pending=(Pending("draw", seat, params.fireyes_draws),))
    return _finish(params, state)


def apply_puts(params: Params, state: State, puts: tuple[Put, ...]) -> State:
    """Make the concrete changes a hymn made, one card at a time, as recorded."""
    for put in puts:
        state = _put(params, _lift(state, put.card), put)
    return state


def _lift(state: State, card_id: str, onto: Placed | None = None) -> State:
    """The state with the card taken from wherever it is (board, hands, captures, piles; a
    contract on it ends), in one copy of the state: every summon asks it, and a seat that does
    not hold the card keeps its very Player object (what is remembered per Player stays). With
    `onto`, the card is put on the board there in the same copy (`put_on_board` of the state
    lifted: a summon)."""
    players = state.players
    held = [_holds(p, card_id) for p in players]  # asked once per seat
    if True in held:
        players = tuple([_without_card(p, card_id) if holds else p for p, holds in zip(players, held, strict=True)])
    pieces = [p for p in state.board if p.card != card_id]
    return replace(state, board=tuple(pieces) if onto is None else inserted(pieces, onto),
                   contracts=tuple([c for c in state.contracts if c[0] != card_id]) if state.contracts else (), players=players,
                   deck=without(state.deck, card_id), hymnal=without(state.hymnal, card_id), discard=without(state.discard, card_id))


def _holds(p: Player, card_id: str) -> bool:
    """Whether the seat holds the card: in its hand, its hymns or its captures."""
    return card_id in p.hand or card_id in p.hymns or (bool(p.captures) and any(c.card == card_id for c in p.captures))


def _without_card(p: Player, card_id: str) -> Player:
    """The seat's cards less the card, wherever it holds it (hand, hymns, face up, captures)."""
    return replace(p, hand=without(p.hand, card_id), hymns=without(p.hymns, card_id), face_up=without(p.face_up, card_id),
                   captures=tuple([c for c in p.captures if c.card != card_id]))


def _put(params: Params, state: State, put: Put) -> State:
    p = player(state, put.seat)
    if put.to == "board" and put.space is not None and put.seat is not None and at(state, put.space) is None:
        return put_on_board(state, put.card, put.space, put.seat)
    if put.to == "hand" and p is not None:
        if cards.is_hymn(put.card):
            return replace_player(state, replace(p, hymns=sort_cards((*p.hymns, put.card))))
        return replace_player(state, replace(p, hand=sort_cards((*p.hand, put.card))))
    if put.to == "captures" and p is not None:
        return replace_player(state, replace(p, captures=(*p.captures, Capture(put.card, put.spent))))
    if put.to == "deck":
        return replace(state, deck=sort_cards((*state.deck, put.card)))
    if put.to == "hymnal":
        return replace(state, hymnal=sort_cards((*state.hymnal, put.card)))
    return replace(state, discard=sort_cards((*state.discard, put.card)))


def _apply_learned(params: Params, state: State, event: HymnLearned) -> State:
    """The offering is discarded and the captures flipped; a hymn draw follows."""
    seat = event.by or state.current or ""
    p = player(state, seat)
    if p is None:
        return _finish(params, state)
    hand, hymns, face_up, captures = p.hand, p.hymns, p.face_up, p.captures
    offered = []
    for card_id in event.offering:
        if card_id in hand or card_id in hymns:
            hand, hymns, face_up = without(hand, card_id), without(hymns, card_id), without(face_up, card_id)
            offered.append(card_id)
    for capture in event.captures:
        captures = _flipped(captures, capture)
    state = replace_player(state, replace(p, hand=hand, hymns=hymns, face_up=face_up, captures=captures))
    state = replace(state, discard=sort_cards((*state.discard, *offered)))
    if state.hymnal and not state.singularity:
        state = replace(state, pending=(Pending("hymn", seat),))
    return _finish(params, state)


def _apply_draw(params: Params, state: State, event: DrawDeclared) -> State:
    """The discard (if any) goes to the discard pile; the draw itself follows (CardDrawn)."""
    seat = event.by or state.current or ""
    p = player(state, seat)
    if p is not None and event.discard is not None and event.discard in p.hand:
        state = replace_player(state, replace(p, hand=without(p.hand, event.discard)))
        state = replace(state, discard=sort_cards((*state.discard, event.discard)))
    if not state.deck:
        return _finish(params, state)
    return replace(state, pending=(Pending("draw", seat),))


def _apply_passed(params: Params, state: State, event: TurnPassed) -> State:
    return _finish(params, state)


def _apply_drawn(params: Params, state: State, event: CardDrawn) -> State:
    """The card goes to the drawer's hand (a hymn drawn in Singularity is held as a hymn)."""
    p = player(state, event.seat)
    if p is not None:
        if cards.is_hymn(event.card):
            p = replace(p, hymns=sort_cards((*p.hymns, event.card)))
        else:
            p = replace(p, hand=sort_cards((*p.hand, event.card)))
        state = replace_player(state, p, deck=without(state.deck, event.card))
    return _next_pending(params, state)


def _next_pending(params: Params, state: State) -> State:
    """One pending step done: the next one, or the end of the action."""
    if not state.pending:
        return state
    head, rest = state.pending[0], state.pending[1:]
    if head.count > 1 and head.kind == "draw" and state.deck:
        return replace(state, pending=(replace(head, count=head.count - 1), *rest))
    return _finish(params, replace(state, pending=rest))


def _apply_hymn_drawn(params: Params, state: State, event: HymnDrawn) -> State:
    p = player(state, event.seat)
    if p is not None:
        state = replace_player(state, replace(p, hymns=sort_cards((*p.hymns, event.hymn))), hymnal=without(state.hymnal, event.hymn))
    return _next_pending(params, state)


def _apply_zodiac_rolled(params: Params, state: State, event: ZodiacRolled) -> State:
    """The rolled hymn takes effect: Fireyes' five draws in Singularity, else its recorded changes."""
    if not state.pending or state.pending[0].kind != "zodiac-roll":
        return state
    if not 1 <= event.value <= params.zodiac_faces:
        return state  # no such face: the table rolls again
    seat, rest = state.pending[0].seat, state.pending[1:]
    hymn = cards.roman(event.value)
    if state.singularity and hymn == cards.FIREYES:
        step = Pending("draw", seat, params.fireyes_draws)
        if not state.deck:
            return _finish(params, replace(state, pending=rest))
    else:
        step = Pending("zodiac-effect", seat, hymn=hymn)
    return replace(state, pending=(step, *rest))


def _apply_zodiac_resolved(params: Params, state: State, event: ZodiacResolved) -> State:
    if not state.pending or state.pending[0].kind != "zodiac-effect":
        return apply_puts(params, state, event.puts)
    state = apply_puts(params, state, event.puts)
    return _finish(params, replace(state, pending=state.pending[1:]))


def _apply_returned(params: Params, state: State, event: ExtrasReturned) -> State:
    """Non-hymn extras are shuffled into the deck, hymns into the hymnal."""
    p = player(state, event.by)
    if p is None:
        return state
    deck, hymnal = list(state.deck), list(state.hymnal)
    hand, hymns, face_up = p.hand, p.hymns, p.face_up
    for card_id in event.cards:
        if card_id in hand:
            hand = without(hand, card_id)
            deck.append(card_id)
        elif card_id in hymns:
            hymns, face_up = without(hymns, card_id), without(face_up, card_id)
            hymnal.append(card_id)
    return replace_player(state, replace(p, hand=hand, hymns=hymns, face_up=face_up), deck=sort_cards(deck), hymnal=sort_cards(hymnal))


_APPLY: dict[type, Callable[[Params, State, Any], State]] = {
    CardDealt: _apply_dealt,
    HymnDealt: _apply_hymn_dealt,
    TurnOrderRolled: _apply_order_rolled,
    CardSummoned: _apply_summoned,
    CardMoved: _apply_moved,
    CardCaptured: _apply_captured,
    CardsAnnihilated: _apply_annihilated,
    MercenaryBought: _apply_bought,
    HymnSung: _apply_sung,
    HymnLearned: _apply_learned,
    DrawDeclared: _apply_draw,
    TurnPassed: _apply_passed,
    CardDrawn: _apply_drawn,
    HymnDrawn: _apply_hymn_drawn,
    ZodiacRolled: _apply_zodiac_rolled,
    ZodiacResolved: _apply_zodiac_resolved,
    ExtrasReturned: _apply_returned,
}

_DECISIONS: frozenset[type] = frozenset((*TURN_ACTIONS, TurnPassed))
"""Events a seat decides on its turn (the handlers dispatch on the exact type, so do these)."""


def apply(params: Params, state: State, event: Event) -> State:
    """The state after the event, as the table played it (legal or not)."""
    handler = _APPLY.get(type(event))
    if handler is None:
        return state
    if state.stage == "play" and type(event) in _DECISIONS:
        if state.noted or type(event) is DrawDeclared or (not state.singularity and any_over_limits(params, state)):
            state = _note_excess(params, state, event)  # else nothing named before, nothing to name now: most turns
        if event.by != state.current and not state.pending and player(state, event.by) is not None:
            # the table let this seat act now: its turn it is, and the next seat clockwise follows it
            state = replace(state, current=event.by)
    state = handler(params, state, event)
    if state.noted or (not state.deck and state.stage == "play" and not state.singularity):
        return _settle(params, state)  # else nothing to settle: most events
    return state


def _note_excess(params: Params, state: State, event: Event) -> State:
    """Remember hands whose excess is named now, so the audit names each excess once. Asked by
    `apply` only when something was named before, a draw is declared, or a hand is over the
    limits outside Singularity (else there is nothing to name: most turns)."""
    over = not state.singularity
    noted = [p.seat for p in state.players
             if p.seat in state.noted or (over and (len(p.hand) > params.hand_limit or len(p.hymns) > params.hymn_limit))]  # `over_limits`
    p = player(state, event.by)
    if isinstance(event, DrawDeclared) and event.discard is None and p is not None and len(p.hand) >= params.hand_limit:
        noted.append(p.seat)
    unique = tuple(dict.fromkeys(noted))
    return state if unique == state.noted else replace(state, noted=unique)


def _settle(params: Params, state: State) -> State:
    """After any event: an empty deck starts Singularity; a hand back within limits is forgotten.
    Asked by `apply` only when a hand was named or the deck is empty outside Singularity."""
    if state.stage == "play" and not state.singularity and not state.deck:
        state = _enter_singularity(state)
    if state.noted:
        waiting = {p.seat for p in state.pending}
        noted = tuple(s for s in state.noted if over_limits(params, state, s) or s in waiting)
        if noted != state.noted:
            state = replace(state, noted=noted)
    return state


def _enter_singularity(state: State) -> State:
    """"all the cards that are not currently in-play, captured, or in a player's hand - both hymns
    and non-hymn cards - are shuffled into a single deck"."""
    return replace(state, singularity=True, deck=sort_cards((*state.discard, *state.hymnal)), discard=(), hymnal=())


# --- outcome ("WINNING THE GAME", "STALEMATES", "SINGULARITY") -------------------------------------


@last_state  # every candidate's check asks it again of the same state (rulesets/memo.py)
def outcome(params: Params, state: State) -> Outcome | None:
    """The first end condition met, or None while the game goes on. Asked after every event: in
    a 2-player game Limbo is looked at (`_elimination`) only when a seat was eliminated or the
    seat to act may be in it (`limbo_on`, read here: most turns one own card in play is found
    at once)."""
    if state.stage != "play":
        return None
    for p in state.players:
        if len(p.captures) >= params.captures_to_win:  # "Spent captures ... still count"
            return Outcome(winner=p.seat, reason=f"{p.seat} reached {params.captures_to_win} captures", rule=RULE_IDS.id("victory.captures"))
    may_end = len(state.seats) != 2 or state.eliminated is not None or (
        state.current is not None and not state.pending and limbo_on(params, state.board, state.current))
    if may_end and (ended := _elimination(params, state)) is not None:
        return ended
    if state.singularity and not state.deck:
        return Outcome(winner=None, draw=True, reason="the Singularity deck ran out: universal stalemate", rule=RULE_IDS.id("singularity.stalemate"))
    history = state.history
    if history and len(history) >= params.repetitions and history.count(history[-1]) >= params.repetitions:
        return Outcome(winner=None, draw=True, reason=f"the same position came up {params.repetitions} times: stalemate", rule=RULE_IDS.id("stalemate.repetition"))
    return None


def _elimination(params: Params, state: State) -> Outcome | None:
    """Limbo: in 2-player games the player who cannot escape loses; in 3-4 player games the last
    player with cards in play wins once every opponent is in Limbo at once."""
    if len(state.seats) == 2:
        loser = state.eliminated
        seat = state.current
        if loser is None and seat is not None and not state.pending and limbo_on(params, state.board, seat) and not can_escape(params, state, seat):
            loser = seat  # "If they don't have a hymn ..., or if there are no available mercenaries on the board, that player is eliminated"
        if loser is None:
            return None
        winner = next(s for s in state.seats if s != loser)
        return Outcome(winner=winner, reason=f"{loser} could not escape Limbo", rule=RULE_IDS.id("victory.limbo-2p"))
    standing = [s for s in state.seats if not in_limbo(params, state, s)]
    if len(standing) == 1 and in_play(state, standing[0]):
        return Outcome(winner=standing[0], reason=f"every opponent of {standing[0]} is in Limbo", rule=RULE_IDS.id("victory.limbo"))
    return None


def can_escape(params: Params, state: State, seat: str) -> bool:
    """A 2-player seat in Limbo has a way out this turn: a hymn to sing, or a capture to buy an
    available enemy Mercenary with."""
    p = player(state, seat)
    if p is None:
        return False
    if p.hymns:
        return True
    return bool(unspent(p)) and any(
        (found := cards.card(x.card)) is not None and found.mercenary and x.owner != seat and contract_of(state, x.card) is None
        for x in state.board
    )
