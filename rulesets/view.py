"""BoardView: plain data that says what to draw, for any game, with no UI import.

A ruleset's `view` builds one of these; the dashboard turns it into SVG. Coordinates are
in the board's own units, named by `geometry`: hex nodes (column, row), grid squares, or
inches on a free-form table. A seat's view leaves out what that seat could not see.
"""

from __future__ import annotations

from typing import Literal

import msgspec

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
