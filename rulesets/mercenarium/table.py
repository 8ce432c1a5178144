"""Mercenarium at the table: each event in words, and where on the board it is made.

`describe` reads an event in the state before it, in the text's own terms ("red summons
the Queen of Souls to D7, red's House", "yellow's 7 of Blades captures red's 5 of Souls at
D4: 3 dots against 2"); `touch` says which card a table taps and where it goes, so a
summon, a move or a capture is two taps: the card (in the hand or on the board), then the
space or the enemy card. Cards off the board are tapped in the view's card rows: a hand,
a seat's hymn, a capture (flipped to buy), and the deck and hymnal piles (to draw, to
learn, to shuffle an extra back).
"""

from __future__ import annotations

from events.base import Event
from rulesets.mercenarium import cards
from rulesets.mercenarium.board import Space, house_space
from rulesets.mercenarium.events import (
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
from rulesets.mercenarium.rules import face_value
from rulesets.mercenarium.state import State, clash, placed, unspent
from rulesets.view import Touch, card_key, piece_key, space_key, space_name

PILES = "piles"
"""The card row of the two draw piles, tapped to draw, to learn or to shuffle back."""
DECK, HYMNAL = "deck", "hymnal"
"""The faces of the piles row."""


def hand_row(seat: str) -> str:
    """The card row of a seat's non-hymn cards."""
    return f"hand-{seat}"


def hymns_row(seat: str) -> str:
    """The card row of a seat's hymns."""
    return f"hymns-{seat}"


def captures_row(seat: str) -> str:
    """The card row of a seat's captures."""
    return f"captures-{seat}"


def name(card_id: str) -> str:
    """A card as the text names it: `the Queen of Souls`, `hymn VII. Primary`."""
    if cards.is_hymn(card_id):
        return cards.label(card_id)
    return f"the {cards.label(card_id)}" if cards.card(card_id) else card_id


def _names(card_ids: tuple[str, ...]) -> str:
    """`the 7 of Blades and the 3 of Souls`."""
    named = [name(c) for c in card_ids]
    return " and ".join(named) if len(named) <= 2 else ", ".join(named[:-1]) + " and " + named[-1]


def where(params: Params, space: Space) -> str:
    """A space as the board's edges print it (`D7`), and whose House it is."""
    at = space_name("grid", space[0], space[1])
    for colour, side in params.houses:
        if house_space(side, params.board_size) == space:
            return f"{at} ({colour}'s House)"
    return at


def _owned(state: State, card_id: str) -> str:
    """`red's 7 of Blades` for a card in play."""
    piece = placed(state, card_id)
    return f"{piece.owner}'s {cards.label(card_id)}" if piece else name(card_id)


def _put(put: Put) -> str:
    """One change a hymn made: `the 7 of Blades to red's hand`, `... to the board at D4`."""
    if put.to == "board" and put.space is not None:
        whose = f" under {put.seat}" if put.seat else ""
        return f"{name(put.card)} to the board at {space_name('grid', put.space[0], put.space[1])}{whose}"
    whose = f"{put.seat}'s " if put.seat and put.to in ("hand", "captures") else "the "
    spent = " face up" if put.spent else ""
    return f"{name(put.card)} to {whose}{put.to}{spent}"


def _puts(puts: tuple[Put, ...]) -> str:
    return "; ".join(_put(p) for p in puts)


def describe(params: Params, state: State, event: Event) -> str:
    """One event in words, read in the state it was played in."""
    seat = event.by or "a player"
    match event:
        case CardDealt(seat=to, card=card):
            return f"{to} is dealt {name(card)}"
        case HymnDealt(seat=to, hymn=hymn):
            return f"{to} is dealt {name(hymn)}"
        case TurnOrderRolled():
            return _order(state, event)
        case CardSummoned(card=card, space=space):
            return f"{seat} summons {name(card)} to {where(params, space)}"
        case CardMoved(card=card, to=to):
            return f"{_owned(state, card)} moves to {where(params, to)}"
        case CardCaptured(card=card, target=target):
            return f"{_owned(state, card)} captures {_owned(state, target)}{_at(params, state, target)}{_clash(params, state, card, target)}"
        case CardsAnnihilated(card=card, target=target):
            return f"{_owned(state, card)} and {_owned(state, target)} annihilate each other{_at(params, state, target)}"
        case MercenaryBought(card=card, capture=capture):
            paid = capture or next(iter(unspent_of(state, seat)), None)
            return f"{seat} buys {_owned(state, card)}" + (f", flipping the captured {cards.label(paid)} face up" if paid else "")
        case HymnSung(hymn=hymn, puts=puts, kept=kept):
            done = f": {_puts(puts)}" if puts else ""
            return f"{seat} sings {name(hymn)}{done}" + (" (kept in hand)" if kept else "")
        case HymnLearned(offering=offering, captures=captures):
            gifts = [*(name(c) for c in offering), *(f"the captured {cards.label(c)}" for c in captures)]
            return f"{seat} offers {' and '.join(gifts) or 'nothing'} to learn a new hymn"
        case DrawDeclared(discard=discard):
            return f"{seat} discards {name(discard)} and draws a card" if discard else f"{seat} draws a card"
        case TurnPassed():
            return f"{seat} passes (the rules allow no pass)"
        case CardDrawn(seat=to, card=card):
            return f"{to} draws {name(card)}"
        case HymnDrawn(seat=to, hymn=hymn):
            return f"{to} draws {name(hymn)}"
        case ZodiacRolled(value=value):
            rolled = cards.roman(value)
            return f"the Zodiac shows {value}: it takes the effect of {name(rolled)}" if rolled in cards.HYMNS else f"the Zodiac shows {value}"
        case ZodiacResolved(hymn=hymn, puts=puts):
            return f"the Zodiac resolves as {name(hymn)}" + (f": {_puts(puts)}" if puts else ", nothing recorded")
        case ExtrasReturned(cards=extras):
            piles = " and ".join(dict.fromkeys("the hymnal" if cards.is_hymn(c) else "the deck" for c in extras))
            return f"{seat} shuffles {_names(extras)} back into {piles or 'the deck'}"
    return type(event).__name__


def unspent_of(state: State, seat: str) -> tuple[str, ...]:
    """The seat's face-down captures, in the order they are kept."""
    holder = next((p for p in state.players if p.seat == seat), None)
    return unspent(holder) if holder else ()


def _at(params: Params, state: State, target: str) -> str:
    piece = placed(state, target)
    return f" at {where(params, piece.space)}" if piece else ""


def _clash(params: Params, state: State, card: str, target: str) -> str:
    """Why the capture holds: more dots on the touching edge, or the Alchemy Wheel."""
    mine, theirs = placed(state, card), placed(state, target)
    if mine is None or theirs is None:
        return ""
    found = clash(params, state, mine, theirs)
    if found.kind == "apart":
        return " (not adjacent)"
    dots = f"{found.attacker_dots} {'dot' if found.attacker_dots == 1 else 'dots'} against {found.defender_dots}"
    return f": {dots}, decided by the Alchemy Wheel" if found.by_alchemy else f": {dots}"


def _order(state: State, event: TurnOrderRolled) -> str:
    """The die face, what it counts as, and what it decides once every roller has rolled:
    who goes first, or which seats tie and roll again."""
    face = event.face if isinstance(event.face, int) else f"the {str(event.face).replace('-', ' ')} (counts as 6)"
    head = f"{event.seat} rolls the {event.die.title()} die: {face}"
    rolls = (*state.rolls, (event.seat, face_value(event.face)))
    if len(rolls) < len(state.rollers):
        best = max(value for _, value in rolls)
        leaders = [s for s, v in rolls if v == best]
        return f"{head}; highest so far: {best} by {' and '.join(leaders)}"
    best = max(value for _, value in rolls)
    tied = [s for s, v in rolls if v == best]
    if len(tied) > 1:
        return f"{head}; {' and '.join(tied)} tie at {best} and roll again"
    return f"{head}; {tied[0]}'s {best} is highest: {tied[0]} takes the first turn"


def touch(params: Params, state: State, event: Event) -> Touch:
    """Where an event is made: the card (in a hand row or on the board), then the space,
    the enemy card or the pile it goes to."""
    words = describe(params, state, event)
    seat = event.by or ""
    match event:
        case CardSummoned(card=card, space=space):
            return Touch(source=card_key(hand_row(seat), card), target=space_key(*space), words="summon")
        case CardMoved(card=card, to=to):
            return Touch(source=piece_key(card), target=space_key(*to), words="move")
        case CardCaptured(card=card, target=target):
            return Touch(source=piece_key(card), target=piece_key(target), words="capture")
        case CardsAnnihilated(card=card, target=target):
            return Touch(source=piece_key(card), target=piece_key(target), words="annihilate (both discarded)")
        case MercenaryBought(card=card, capture=capture):
            paid = capture or next(iter(unspent_of(state, seat)), None)
            return Touch(source=card_key(captures_row(seat), paid) if paid else None, target=piece_key(card),
                         words=f"buy {cards.label(card)}")
        case HymnSung(hymn=hymn, puts=puts):
            return Touch(source=card_key(hymns_row(seat), hymn), words=f"sing: {_puts(puts)}" if puts else f"sing {name(hymn)}")
        case HymnLearned(offering=offering, captures=captures):
            return _learn(seat, offering, captures, words)
        case DrawDeclared(discard=discard):
            if discard:
                return Touch(source=card_key(hand_row(seat), discard), target=card_key(PILES, DECK),
                             words=f"discard {cards.label(discard)} and draw")
            return Touch(target=card_key(PILES, DECK), words="draw a card")
        case ExtrasReturned(cards=extras) if len(extras) == 1:
            extra = extras[0]
            row, pile = (hymns_row(seat), HYMNAL) if cards.is_hymn(extra) else (hand_row(seat), DECK)
            return Touch(source=card_key(row, extra), target=card_key(PILES, pile), words="shuffle back (over the limit)")
    return Touch(words=words)


def _learn(seat: str, offering: tuple[str, ...], captures: tuple[str, ...], words: str) -> Touch:
    """LEARN: the first card offered (a hymn given up, a hand card, or a capture), then the
    hymnal; the picker names the whole offering where several start from the same card."""
    first = offering[0] if offering else None
    if first is not None:
        row = hymns_row(seat) if cards.is_hymn(first) else hand_row(seat)
        source = card_key(row, first)
    elif captures:
        source = card_key(captures_row(seat), captures[0])
    else:
        return Touch(target=card_key(PILES, HYMNAL), words=words)
    gifts = [cards.label(c) for c in offering] + [f"a capture ({cards.label(c)})" for c in captures]
    return Touch(source=source, target=card_key(PILES, HYMNAL), words="offer " + " + ".join(gifts))
