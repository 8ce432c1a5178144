"""The Anthromancer deck as Mercenarium uses it: 56 deck cards and the 15-card hymnal.

Suits, ranks and face values are printed in mercenarium.txt (`rules`). The aura dots were
printed on the card images and are lost: data/cards.toml holds an editable table, every
value marked `assumed` unless a designer marks a card `rules`. data/hymns.toml holds what
the text still says of each hymn. Both files are read once, at import, and checked.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, cast

import msgspec

from events.errors import TabletapeError
from rulesets.provenance import Source, Sourced

DATA = Path(__file__).parent / "data"

Suit = Literal["claws", "souls", "gears", "blades"]
SUITS: tuple[Suit, ...] = ("claws", "souls", "gears", "blades")
SUIT_LETTERS: Mapping[str, Suit] = {"C": "claws", "S": "souls", "G": "gears", "B": "blades"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "L")
VALUES: Mapping[str, int] = {**{str(n): n for n in range(2, 11)}, "J": 11, "Q": 12, "K": 13, "A": 14, "L": 15}
"""Face values: "Jack value is (11), Queen is (12), and King is (13). Aces are high, and
count as (14), and Lords ... have a value of (15)" (SUMMONING CARDS)."""
MERCENARY_RANKS = frozenset({"J", "Q", "K", "A"})
"""Court cards; "10s and Lords are NOT considered mercenaries" (BUYING MERCENARIES)."""
EDGES = ("top", "right", "bottom", "left")
"""A card's edges, clockwise from the top; `bottom` carries the orientation line."""
MAX_DOTS = 5
""""between zero (0) and five (5) aura dots per edge" (CAPTURING CARDS)."""
STRONG_EDGE: Mapping[Suit, str] = {"blades": "right", "claws": "bottom", "souls": "left", "gears": "top"}
""""Blades aura is strongest on the right ..., Claws ... bottom, Souls ... left, Gears ... top"."""
DECK_SIZE = 56
HYMNAL_SIZE = 15


class CardDataError(TabletapeError, ValueError):
    """A card or hymn data file that cannot be used; the message names the file and problem."""


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One deck card: Materia (2-10), Mercenary (J Q K A) or Lord (L)."""

    id: str
    suit: Suit
    rank: str
    value: int
    aura: tuple[int, int, int, int]
    """Dots on the top, right, bottom and left edges, relative to the card."""

    @property
    def lord(self) -> bool:
        """Lords have no aura and resolve every capture by alchemy."""
        return self.rank == "L"

    @property
    def mercenary(self) -> bool:
        """J, Q, K and A; never a 10 or a Lord."""
        return self.rank in MERCENARY_RANKS


class Hymn(msgspec.Struct, frozen=True, kw_only=True):
    """One hymn card and what the surviving text says of it."""

    id: str
    number: int
    title: str
    """"" where the title is lost."""
    effect: str
    """The effect outside Singularity; "" where lost."""
    singularity: str
    """The changed effect in Singularity; "" where the text gives none."""
    source: str
    """`rules`, `reading` (pieced together from other passages) or `lost`."""
    note: str = ""

    @property
    def name(self) -> str:
        """`VII. Primary`, or `IV` where the title is lost."""
        return f"{self.id}. {self.title}" if self.title else self.id


def parse_cards(text: str, *, name: str) -> tuple[dict[str, Card], dict[str, Sourced]]:
    """Read cards.toml's text: card id -> Card, and card id -> provenance of its aura."""
    raw = _toml(text, name)
    try:
        return _build_cards(raw, name)
    except CardDataError:
        raise
    except KeyError as error:
        raise CardDataError(f"{name}: missing key {error.args[0]!r}") from None
    except (TypeError, ValueError) as error:
        raise CardDataError(f"{name}: {str(error).splitlines()[0]}") from None


def _toml(text: str, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CardDataError(f"{name}: not valid TOML: {error}") from None


def _build_cards(raw: dict[str, Any], name: str) -> tuple[dict[str, Card], dict[str, Sourced]]:
    """Every card checked: the full deck once, ids matching suit and rank, 0-5 dots."""
    provenance = raw["provenance"]
    cards: dict[str, Card] = {}
    sources: dict[str, Sourced] = {}
    for entry in raw["cards"]:
        card = _card(entry, name)
        if card.id in cards:
            raise CardDataError(f"{name}: card {card.id} is listed twice")
        cards[card.id] = card
        basis = provenance["lords"] if card.lord else provenance["aura"]
        source = str(entry.get("aura_source", basis["source"]))
        if source not in ("rules", "assumed"):
            raise CardDataError(f"{name}: card {card.id}: aura_source must be 'rules' or 'assumed'")
        sources[card.id] = Sourced(value=card.aura, source=cast(Source, source), note=str(entry.get("aura_note", basis["note"])))
    expected = {f"{rank}{letter}" for rank in RANKS for letter in SUIT_LETTERS}
    if set(cards) != expected:
        missing, extra = sorted(expected - set(cards)), sorted(set(cards) - expected)
        raise CardDataError(f"{name}: the deck must hold each suit's 2-10, J, Q, K, A and L once; missing {missing}, unknown {extra}")
    return cards, sources


def _card(entry: dict[str, Any], name: str) -> Card:
    card_id, suit, rank = str(entry["id"]), str(entry["suit"]), str(entry["rank"])
    if suit not in SUITS or rank not in RANKS or card_id != f"{rank}{suit[0].upper()}":
        raise CardDataError(f"{name}: card {card_id!r}: id must be rank + suit letter (suit {suit!r}, rank {rank!r})")
    aura = entry["aura"]
    if set(aura) != set(EDGES):
        raise CardDataError(f"{name}: card {card_id}: aura must give exactly {', '.join(EDGES)}")
    dots = tuple(int(aura[edge]) for edge in EDGES)
    if any(not 0 <= d <= MAX_DOTS for d in dots):
        raise CardDataError(f"{name}: card {card_id}: an edge holds 0 to {MAX_DOTS} dots, not {dots}")
    if rank == "L" and any(dots):
        raise CardDataError(f"{name}: card {card_id}: Lords have no aura dots")
    return Card(id=card_id, suit=cast(Suit, suit), rank=rank, value=VALUES[rank], aura=(dots[0], dots[1], dots[2], dots[3]))


def parse_hymns(text: str, *, name: str) -> dict[str, Hymn]:
    """Read hymns.toml's text: hymn id -> Hymn, all fifteen, I to XV in order."""
    raw = _toml(text, name)
    try:
        hymns = {str(h["id"]): msgspec.convert(h, Hymn) for h in raw["hymns"]}
    except KeyError as error:
        raise CardDataError(f"{name}: missing key {error.args[0]!r}") from None
    except msgspec.ValidationError as error:
        raise CardDataError(f"{name}: {error}") from None
    numbers = [h.number for h in hymns.values()]
    if numbers != list(range(1, HYMNAL_SIZE + 1)) or [h.id for h in hymns.values()] != [roman(n) for n in numbers]:
        raise CardDataError(f"{name}: the hymnal holds hymns I to XV once each, in order")
    return hymns


def roman(number: int) -> str:
    """1 -> I ... 15 -> XV (hymn ids)."""
    out = ""
    for value, letters in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while number >= value:
            out += letters
            number -= value
    return out


_CARDS, _AURA_SOURCES = parse_cards((DATA / "cards.toml").read_text(encoding="utf-8"), name="cards.toml")

CARDS: Mapping[str, Card] = _CARDS
"""Card id -> Card: Claws, Souls, Gears, Blades; 2 ... A, L."""
AURA_SOURCES: Mapping[str, Sourced] = _AURA_SOURCES
"""Card id -> its aura with provenance (assumed unless a designer marked it rules)."""
HYMNS: Mapping[str, Hymn] = parse_hymns((DATA / "hymns.toml").read_text(encoding="utf-8"), name="hymns.toml")
"""Hymn id -> Hymn, I to XV."""
DECK: tuple[str, ...] = tuple(CARDS)
"""The 56 deck cards in their canonical order (the deck is kept sorted this way)."""
HYMNAL: tuple[str, ...] = tuple(HYMNS)
MERCENARIES: frozenset[str] = frozenset(card_id for card_id, found in CARDS.items() if found.mercenary)
"""The deck cards that are Mercenaries (`Card.mercenary`), by id: a buy or a contract asks by id."""
ORDER: Mapping[str, int] = {card: i for i, card in enumerate((*DECK, *HYMNAL))}
"""Canonical position of every card, to keep piles sorted (a shuffled pile has no order)."""

FIREYES, PRIMARY, ZODIAC = "I", "VII", "XIII"


def card(card_id: str) -> Card | None:
    """The deck card with that id, or None (a hymn, or no such card)."""
    return CARDS.get(card_id)


def is_hymn(card_id: str) -> bool:
    """Hymn cards: I to XV."""
    return card_id in HYMNS


def label(card_id: str) -> str:
    """A readable name: `Queen of Souls`, `VII. Primary`."""
    if card_id in HYMNS:
        return f"hymn {HYMNS[card_id].name}"
    found = CARDS.get(card_id)
    if found is None:
        return card_id
    names = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace", "L": "Lord"}
    return f"{names.get(found.rank, found.rank)} of {found.suit.title()}"
