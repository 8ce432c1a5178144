"""BoardView: plain data that says what to draw, for any game, with no UI import.

A ruleset's `view` builds one of these; the dashboard turns it into SVG. Coordinates are
in the board's own units, named by `geometry`: hex nodes (column, row), grid squares, or
inches on a free-form table. A seat's view leaves out what that seat could not see.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from events.base import STAMPED, Event

Geometry = Literal["hex-even-q", "grid", "inches"]
"""`hex-even-q`: flat-topped hexes, even columns shifted half a hex down."""


class Cell(msgspec.Struct, frozen=True, kw_only=True):
    """One board space that is not plain open ground (terrain, altar, spawn...)."""

    col: int
    row: int
    kind: str
    """Terrain or feature: `impassable`, `altar`, `zone`, `spawn`, `house`, ..."""
    owner: str | None = None
    label: str = ""


class Piece(msgspec.Struct, frozen=True, kw_only=True):
    """A figure or card on the board."""

    id: str
    label: str
    side: str | None
    x: float
    y: float
    health: tuple[int, int] | None = None
    """(current, max) where the game tracks it."""
    badges: tuple[str, ...] = ()
    """Short status words: `burning 2`, `stunned`, `shaken`, `contract`..."""
    facing: int = 0
    """Degrees clockwise; a card's orientation (its owner's edge at the bottom)."""
    detail: str = ""


class Region(msgspec.Struct, frozen=True, kw_only=True):
    """An area: a zone of cells, or a polygon in table units."""

    id: str
    kind: str
    label: str = ""
    side: str | None = None
    cells: tuple[tuple[int, int], ...] = ()
    points: tuple[tuple[float, float], ...] = ()
    height: float = 0.0


class Line(msgspec.Struct, frozen=True, kw_only=True):
    """A drawn line: the last attack's line of sight, a move's path."""

    kind: str
    points: tuple[tuple[float, float], ...]
    clear: bool = True
    label: str = ""


class CardRow(msgspec.Struct, frozen=True, kw_only=True):
    """A row of cards off the board: a hand, a market, a discard pile."""

    id: str
    label: str
    owner: str | None
    cards: tuple[str, ...]
    """Card faces, or `?` for a card this view may not see."""


class Panel(msgspec.Struct, frozen=True, kw_only=True):
    """Side information as label/value rows: scores, meters, turn, blessings."""

    title: str
    rows: tuple[tuple[str, str], ...]


class BoardView(msgspec.Struct, frozen=True, kw_only=True):
    """Everything needed to draw one state from one seat's point of view."""

    geometry: Geometry
    width: float
    height: float
    cells: tuple[Cell, ...] = ()
    pieces: tuple[Piece, ...] = ()
    regions: tuple[Region, ...] = ()
    lines: tuple[Line, ...] = ()
    rows: tuple[CardRow, ...] = ()
    panels: tuple[Panel, ...] = ()
    seat: str | None = None
    """Whose view this is; None sees everything."""
    note: str = ""
    """E.g. 'all of MortalGate is open information: every seat sees the same board'."""

    @property
    def has_board(self) -> bool:
        """Whether there is a board to draw. A game that gives no `view` is shown as a panel
        of its state's fields on a one-space grid with nothing on it: pages show that panel
        where the board would be, not an empty square."""
        return bool(self.cells or self.pieces or self.regions or self.lines or self.rows) or self.width * self.height > 1


# --- where an event is on the board --------------------------------------------------------


class Touch(msgspec.Struct, frozen=True, kw_only=True):
    """Where a legal event is made on the board: the thing tapped first, the place tapped second.

    The recorder groups the legal events by these keys, so a table records a move as two
    taps (the piece, then where it goes) and never reads a list of coordinates. Keys name
    things the BoardView draws (`piece_key`, `space_key`, `card_key`); a `space_key` the
    view does not draw as a cell (an inch position, an empty hex) is drawn as a tap spot.
    """

    source: str | None = None
    """The piece or card the action starts from; None: the target alone says it (a spawn to
    place on, a card to pick) or, with no target either, a button beside the board."""
    target: str | None = None
    """Where it goes or whom it hits; None: tapping the source is the whole act."""
    words: str
    """The choice in the game's own words, for the picker when several events share the
    same source and target ('Fireball', 'attack', 'end the turn')."""


class Part(msgspec.Struct, frozen=True, kw_only=True):
    """One thing a table points at while composing a choice: a hero, a unit type."""

    value: str
    """What the event's field holds for it (a hero id, a unit type id)."""
    words: str
    """How the table names it ('Seiren', 'Ranger squad · 15 pts')."""
    cost: int = 0
    """What it spends of the composition's `budget` (a unit's points)."""


class Compose(msgspec.Struct, frozen=True, kw_only=True):
    """A choice a table makes by pointing at several things in turn, too many to list whole
    (a turn order of four heroes is 24 orders; an army of units within points, thousands):
    the recorder shows the parts, each tap adds one, and the event is `template` with `field`
    set to the parts tapped. The rules still judge the result (`check`)."""

    title: str
    """What is being chosen, in the game's words ('blue's turn order')."""
    template: Event
    """The event made, with every field but `field` already right (who, which team)."""
    field: str
    """The tuple field the parts tapped fill, in the order tapped."""
    parts: tuple[Part, ...]
    ordered: bool = False
    """Whether the order of the taps is the choice (a turn order) or only what was tapped
    (an army: shown sorted as tapped, but any order is the same army)."""
    repeats: bool = False
    """Whether one part may be tapped more than once (two units of one type)."""
    size: int | None = None
    """Exactly this many parts (every hero in the order): the last tap writes the event."""
    budget: int | None = None
    """The most the parts' costs may add up to (the mission's points)."""
    hint: str = ""
    """What a tap does, for the table ('tap the heroes, first to act first')."""

    def make(self, values: tuple[str, ...]) -> Event:
        """The event these taps compose."""
        return msgspec.structs.replace(self.template, **{self.field: values})

    def covers(self, event: Event) -> bool:
        """Whether `event` is one this composition makes (same type and fields but `field`)."""
        if type(event) is not type(self.template):
            return False
        kept = {name: getattr(self.template, name) for name in (self.field, *STAMPED)}
        return msgspec.structs.replace(event, **kept) == self.template

    def left(self, chosen: tuple[str, ...]) -> dict[str, str]:
        """Each part that cannot be tapped after `chosen` -> why not, in words."""
        spent = self.spent(chosen)
        why: dict[str, str] = {}
        for part in self.parts:
            if not self.repeats and part.value in chosen:
                why[part.value] = f"{part.words} is already number {chosen.index(part.value) + 1}"
            elif self.size is not None and len(chosen) >= self.size:
                why[part.value] = f"all {self.size} are chosen"
            elif self.budget is not None and spent + part.cost > self.budget:
                why[part.value] = f"{part.cost} is over the {self.budget - spent} left of {self.budget}"
        return why

    def spent(self, chosen: tuple[str, ...]) -> int:
        """What `chosen` costs of the budget."""
        costs = {p.value: p.cost for p in self.parts}
        return sum(costs.get(v, 0) for v in chosen)


def piece_key(piece_id: str) -> str:
    """The tap key of a Piece drawn by a view."""
    return f"piece:{piece_id}"


def space_key(x: float, y: float) -> str:
    """The tap key of a board space (hex, square) or a point of the table in inches."""
    return f"at:{x:g},{y:g}"


def card_key(row: str, face: str) -> str:
    """The tap key of a card in one of the view's CardRows."""
    return f"card:{row}:{face}"


def key_position(key: str) -> tuple[float, float] | None:
    """The board position a `space_key` names; None for pieces and cards."""
    kind, _, rest = key.partition(":")
    if kind != "at":
        return None
    x, _, y = rest.partition(",")
    return float(x), float(y)


def column_name(col: int) -> str:
    """Spreadsheet-style column letters: 0 -> A, 25 -> Z, 26 -> AA."""
    if col < 0:
        raise ValueError(f"column {col} is off the board")
    name = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def space_name(geometry: Geometry, x: float, y: float) -> str:
    """How a person names a place on the board, as the board prints it at its edges:
    `F7` for a hex or square (column letter, row number from 1), `12.5″ × 30″` on a table
    in inches (from the left edge, from the top edge)."""
    if geometry == "inches":
        return f"{x:g}″ × {y:g}″"
    if x < 0 or y < 0:  # a table's mistake may name a place past the edge
        return f"off the board ({x:g}, {y:g})"
    return f"{column_name(round(x))}{round(y) + 1}"
