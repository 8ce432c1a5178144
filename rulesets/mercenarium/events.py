"""Mercenarium's events: the facts of the table, in the order the rules text tells them.

Chance is its own step: a decision (`DrawDeclared`, `HymnLearned`, `HymnSung` of the
Zodiac) is followed by what the deck, the hymnal or the d12 gave (`CardDrawn`,
`HymnDrawn`, `ZodiacRolled`), each card or face recorded. The log therefore holds every
fact, hidden ones included (who was dealt which card); `view` decides what a seat may see.

Cards are named by rank and suit letter: `7B` is the 7 of Blades, `10C` the 10 of Claws,
`QS` the Queen of Souls, `LG` the Lord of Gears (suits: C Claws, S Souls, G Gears,
B Blades). Hymns are named by their roman numeral: `I` (Fireyes) ... `XV`.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from events.base import Event

Space = tuple[int, int]
"""(column, row) on the square board; column 0 is the west edge, row 0 the north edge."""

Zone = Literal["board", "hand", "deck", "hymnal", "discard", "captures"]


class Put(msgspec.Struct, frozen=True, kw_only=True):
    """One concrete change a hymn made: `card` went to `to`.

    The effects of most hymns are lost with the hymn table, so a sung hymn is recorded as
    what it did at the table, never as what tabletape guesses it does.
    """

    card: str
    to: Zone
    seat: str | None = None
    """The controller (`board`) or the holder (`hand`, `captures`)."""
    space: Space | None = None
    """Where on the board (`to = "board"` only)."""
    spent: bool = False
    """A capture put face up (`to = "captures"` only)."""


class MercenariumEvent(Event, frozen=True, kw_only=True, gc=False):
    """Base of Mercenarium's own events."""


# --- set up (mercenarium.txt, SET UP 2 Dealing, 3 Turn order) -----------------------------


class CardDealt(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """The dealer gave `seat` one card from the shuffled deck (five each)."""

    seat: str
    card: str


class HymnDealt(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """The dealer gave `seat` one hymn from the shuffled hymnal (one each)."""

    seat: str
    hymn: str


class TurnOrderRolled(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """`seat` rolled a six-sided die for the first turn.

    The Fool and Fox dice have no 6: their sixth faces are the sphere (Fool) and the seed
    of life (Fox), and "these symbols count as 6s". `face` is 1-5 or the symbol's name.
    """

    seat: str
    die: Literal["fool", "fox"]
    face: int | str


# --- the seven turn actions (mercenarium.txt, TURN ACTIONS) -----------------------------


class CardSummoned(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """SUMMON: a card from the hand was placed on `space`, oriented to its summoner."""

    card: str
    space: Space


class CardMoved(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """MOVE: an in-play card went one space to the empty space `to`."""

    card: str
    to: Space


class CardCaptured(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """CAPTURE: `card` moved into the space of the enemy card `target`, which became a
    face-down capture of the mover."""

    card: str
    target: str


class CardsAnnihilated(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """CAPTURE by Annihilation: `card` initiated on the enemy `target`; both were
    discarded from play and nobody gained a capture."""

    card: str
    target: str


class MercenaryBought(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """BUY: a face-down capture was flipped face up to take control of the enemy
    Mercenary `card`, turned to the buyer's edge.

    `capture` names the capture flipped; left out, the first face-down one.
    """

    card: str
    capture: str | None = None


class HymnSung(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """SING: the hymn's effects were activated.

    `puts` are the concrete changes the hymn made (for hymns whose text is lost, and the
    card Primary found in Singularity). `kept`: the hymn stayed in the hand instead of
    being discarded; left out, the rules decide (the Zodiac stays face up).
    """

    hymn: str
    puts: tuple[Put, ...] = ()
    kept: bool | None = None


class HymnLearned(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """LEARN: an offering was made (`offering`: cards discarded from the hand, the current
    hymn among them if it was given up; `captures`: captures flipped face up); a new hymn
    is then drawn from the hymnal (`HymnDrawn`)."""

    offering: tuple[str, ...] = ()
    captures: tuple[str, ...] = ()


class DrawDeclared(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """DRAW: the player draws one card (`CardDrawn` follows), discarding `discard` first
    when already holding five non-hymn cards."""

    discard: str | None = None


class TurnPassed(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """The player took no action. Never legal ("You may not 'pass' your turn"); kept so a
    table's pass is recorded and named by the audit."""


# --- what chance and the hymns gave ------------------------------------------------------


class CardDrawn(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """`seat` drew `card` from the deck (or from the Singularity deck)."""

    seat: str
    card: str


class HymnDrawn(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """`seat` drew `hymn` from the hymnal after an offering."""

    seat: str
    hymn: str


class ZodiacRolled(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """The d12 Zodiac die rolled for hymn XIII: `value` names the hymn (1 = I ... 12 = XII)
    whose effect the Zodiac takes."""

    value: int


class ZodiacResolved(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """The effect of the hymn the Zodiac rolled, as the concrete changes it made."""

    hymn: str
    puts: tuple[Put, ...] = ()


class ExtrasReturned(MercenariumEvent, frozen=True, kw_only=True, gc=False):
    """Cards over the hand limits were shuffled back: non-hymn cards into the deck, hymns
    into the hymnal ("shuffle extras back into the deck or hymnal")."""

    cards: tuple[str, ...]


EVENTS: tuple[type[MercenariumEvent], ...] = (
    CardDealt,
    HymnDealt,
    TurnOrderRolled,
    CardSummoned,
    CardMoved,
    CardCaptured,
    CardsAnnihilated,
    MercenaryBought,
    HymnSung,
    HymnLearned,
    DrawDeclared,
    TurnPassed,
    CardDrawn,
    HymnDrawn,
    ZodiacRolled,
    ZodiacResolved,
    ExtrasReturned,
)

TURN_ACTIONS: tuple[type[MercenariumEvent], ...] = (
    CardSummoned,
    CardMoved,
    CardCaptured,
    CardsAnnihilated,
    MercenaryBought,
    HymnSung,
    HymnLearned,
    DrawDeclared,
)
"""The seven turn actions (a capture or an annihilation is the one CAPTURE action)."""
