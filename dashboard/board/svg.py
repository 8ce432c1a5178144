"""BoardView -> SVG: a pure function that draws any game's board, and the match timeline strip.

Three geometries (`rulesets.view.Geometry`):

- `hex-even-q`: flat-topped hexes in columns, even columns half a hex lower; a piece at
  (col, row) sits in that hex's centre.
- `grid`: squares; a piece at (col, row) sits in that square's centre.
- `inches`: a free-form table measured in inches; pieces, regions and lines are placed at
  their exact coordinates.

Everything a view holds is drawn: terrain and feature cells, regions (zones of cells or
polygons), lines (line of sight clear or blocked, paths), pieces (side colour, health bar,
badge count, facing) and card rows; a legend names what the colours mean. Text is
escaped; each piece's `<title>` carries its label, health, badges and detail as a tooltip.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from rulesets.view import (
    BoardView,
    CardRow,
    Cell,
    Geometry,
    Line,
    Piece,
    Region,
    card_key,
    column_name,
    key_position,
    piece_key,
    space_key,
    space_name,
)

HEX_SIZE = 15.0
"""Pixels from a hex's centre to a corner."""
SQUARE = 56.0
"""Pixels per grid square."""
INCH = 16.0
"""Pixels per inch of table."""
PAD = 12.0
LEGEND_WIDTH = 190.0
CARD_W, CARD_H, CARD_GAP = 64.0, 84.0, 6.0
CARD_LINES = 5
"""Lines of a face a card shows; a card is as tall as its rows' longest face needs (`_card_h`)."""
CARD_MIN_H = 40.0
"""The shortest card: a fingertip's target on a tablet."""
ROW_LABEL_H = 18.0
EDGE = 16.0
"""Room above and left of the board for its coordinates (column letters, row numbers, inches)."""
RULER_STEP = 6
"""Inches between the printed marks of a free-form table's rulers."""

SIDE_COLOURS: Mapping[str, str] = {
    "red": "#d64541", "blue": "#3867d6", "green": "#20a162", "yellow": "#e1b12c", "orange": "#e67e22",
    "purple": "#8854d0", "black": "#2d3436", "white": "#f5f6fa", "grey": "#8395a7", "gray": "#8395a7",
}
"""Sides named after a colour are drawn in a readable shade of it."""
PALETTE = ("#d64541", "#3867d6", "#20a162", "#e1b12c", "#8854d0", "#e67e22", "#0fb9b1", "#a5673f")
"""Other side names get one of these, chosen by a hash of the name (stable across steps)."""
CELL_COLOURS: Mapping[str, str] = {
    "impassable": "#5d5d5d", "wall": "#5d5d5d", "blocked": "#5d5d5d", "water": "#74b9ff", "forest": "#55a868",
    "altar": "#f1c40f", "spawn": "#dfe6e9", "enchantment": "#b388ff", "zone": "#ffeaa7", "house": "#fab1a0",
    "objective": "#fdcb6e", "ruins": "#b2bec3", "hill": "#c8b273",
    "biofuel node": "#a8e6a1", "neosteel node": "#a9c4f5", "crystal node": "#f4f4f4",
}
"""Fill of a cell by kind; an unknown kind gets a palette colour from its name."""
OPEN_GROUND = "#f7f3e8"
NEUTRAL_REGION = "#8d7b4a"
"""Terrain and other regions no side holds: earth, never a side's colour."""
GRID_LINE = "#c9c2ad"
CLEAR_LINE = "#2e9e4f"
BLOCKED_LINE = "#d63031"
PATH_LINE = "#636e72"


@dataclass(frozen=True)
class _Frame:
    """How board units map to pixels for one view."""

    geometry: str
    unit: float
    width: float
    height: float

    def centre(self, x: float, y: float) -> tuple[float, float]:
        """Pixel centre of a board position (a node, a square, or a point in inches)."""
        if self.geometry == "hex-even-q":
            s = self.unit
            h = math.sqrt(3) * s
            col, row = x, y
            shift = h / 2 if round(col) % 2 == 0 else 0.0
            return PAD + s + col * 1.5 * s, PAD + h / 2 + row * h + shift
        if self.geometry == "grid":
            return PAD + (x + 0.5) * self.unit, PAD + (y + 0.5) * self.unit
        return PAD + x * self.unit, PAD + y * self.unit

    def cell_points(self, col: int, row: int) -> str:
        """The polygon (hex) or square of one board space, as SVG points."""
        cx, cy = self.centre(col, row)
        if self.geometry == "hex-even-q":
            s = self.unit
            corners = [(cx + s * math.cos(math.radians(a)), cy + s * math.sin(math.radians(a))) for a in range(0, 360, 60)]
        else:
            u = self.unit / 2
            corners = [(cx - u, cy - u), (cx + u, cy - u), (cx + u, cy + u), (cx - u, cy + u)]
        return " ".join(f"{px:.1f},{py:.1f}" for px, py in corners)

    @property
    def piece_radius(self) -> float:
        """How big a piece is drawn."""
        if self.geometry == "hex-even-q":
            return self.unit * 0.72
        if self.geometry == "grid":
            return self.unit * 0.4
        return max(self.unit * 0.6, 6.0)


def _frame(view: BoardView) -> _Frame:
    return _frame_of(view.geometry, view.width, view.height)


def _frame_of(geometry: str, width: float, height: float) -> _Frame:
    if geometry == "hex-even-q":
        s = HEX_SIZE
        return _Frame(geometry, s, 1.5 * s * max(width - 1, 0) + 2 * s, math.sqrt(3) * s * (height + 0.5))
    if geometry == "grid":
        return _Frame(geometry, SQUARE, width * SQUARE, height * SQUARE)
    return _Frame(geometry, INCH, width * INCH, height * INCH)


def side_colour(side: str | None) -> str:
    """The colour a side is drawn in; None (neutral) is grey."""
    if side is None:
        return "#7f8c8d"
    key = side.lower()
    return SIDE_COLOURS.get(key) or PALETTE[zlib.crc32(key.encode()) % len(PALETTE)]


def cell_colour(kind: str, owner: str | None = None) -> str:
    """The fill of a cell kind; an owned altar or spawn takes a light shade of its owner."""
    if owner is not None and kind in ("spawn", "altar", "house", "zone", "objective"):
        return _tint(side_colour(owner), 0.55 if kind != "altar" else 0.25)
    return CELL_COLOURS.get(kind) or _tint(PALETTE[zlib.crc32(kind.encode()) % len(PALETTE)], 0.6)


def _tint(colour: str, amount: float) -> str:
    """Mix a #rrggbb colour with white."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    r, g, b = (round(c + (255 - c) * amount) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def _text(x: float, y: float, text: str, *, size: float = 10, anchor: str = "middle", fill: str = "#222",
          weight: str = "normal", extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}" font-family="sans-serif"{extra}>{escape(text)}</text>')


# --- the board ------------------------------------------------------------------------------


MOVING = '<g class="moving"></g>'
"""Where a frame holds the moving part of a board (`Layers`)."""


@dataclass(frozen=True)
class Layers:
    """A board drawing in two parts, so a browser that keeps one redraws only the other.

    `frame` is the <svg> with what changes rarely (coordinates, every space of the map,
    terrain and features, the legend) and an empty `MOVING` group; `moving` is what changes
    with nearly every event (pieces, regions, lines, tap spots, heat). On a 22 x 28 hex map
    the frame is nearly all of the markup, so a step redraws a few kilobytes, not 160.
    """

    frame: str
    moving: str
    parts: tuple[str, ...] = ()
    """`moving` cut into the drawings it is made of (a region, a line, a piece): from one
    event to the next most of them are the same strings, so a browser handed a match's
    boards at once is handed each drawing once (`dashboard.board.scrub`)."""

    def whole(self) -> str:
        """The one <svg> element both parts make."""
        return self.frame.replace(MOVING, f'<g class="moving">{self.moving}</g>', 1)


def board_svg(view: BoardView, *, title: str = "", legend: bool = True, spots: Iterable[str] = (), rows: bool = True,
              heat: Mapping[tuple[int, int], tuple[str, float, str]] | None = None) -> str:
    """The whole picture of one BoardView: board, coordinates, legend and card rows, as one
    <svg> element (`board_layers` says what each argument does)."""
    return board_layers(view, title=title, legend=legend, spots=spots, rows=rows, heat=heat).whole()


def board_layers(view: BoardView, *, title: str = "", legend: bool | str = True, spots: Iterable[str] = (), rows: bool = True,
                 heat: Mapping[tuple[int, int], tuple[str, float, str]] | None = None) -> Layers:
    """One BoardView drawn as a frame and its moving part (`Layers`). Every piece, space and
    card carries its tap key (`data-key`); `spots` are space keys to draw as tap spots where
    the view draws nothing (a point on an inch table). `rows=False` leaves the card rows to
    `card_rows_svg`, so a tall hand does not shrink the board when both must fit a screen.
    `heat` shades board spaces (colour, opacity, tooltip) above the terrain: a heatmap.
    `legend="below"` lays the legend in lines under the board, not in a column beside it,
    so a tablet gives the board its whole width."""
    frame = _frame(view)
    board_w, board_h = frame.width + 2 * PAD + EDGE, frame.height + 2 * PAD + EDGE
    legend_items = _legend_items(view) if legend else []
    below = legend == "below"
    legend_h = _legend_below_height(legend_items, board_w) if below else 28 + 18 * len(legend_items)
    width = board_w + (LEGEND_WIDTH if legend and not below else 0)
    rows_h = _rows_height(view.rows, width) if rows else 0.0
    top = 22.0 if title else 0.0
    height = top + (board_h + legend_h if below else max(board_h, legend_h)) + rows_h
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tabletape-board" data-geometry="{escape(view.geometry)}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
        f'style="max-width:100%;height:auto;background:#fff">',
    ]
    if title:
        parts.append(_text(PAD, 16, title, size=13, anchor="start", weight="bold"))
    parts.append(f'<g transform="translate(0,{top:.0f})">')
    parts.append(_coordinates(view.geometry, view.width, view.height))
    parts.append(f'<g class="board" transform="translate({EDGE:.0f},{EDGE:.0f})">')
    parts.append(_ground(view.geometry, view.width, view.height))
    parts.append(_cells(view.cells, view.geometry, view.width, view.height))
    parts.append(MOVING)
    parts.append("</g>")
    if below:
        parts += _legend_below(legend_items, board_w, board_h)
    elif legend:
        parts += _legend(legend_items, board_w, 0.0)
    if rows:
        parts += _card_rows(view.rows, board_h + legend_h if below else max(board_h, legend_h), width)
    parts.append("</g></svg>")
    shapes, names = _regions(view.regions, frame)
    moving = [*shapes, *_heat(heat or {}, frame), *names, *_lines(view.lines, frame), *_spots(spots, frame),
              *_pieces(view.pieces, frame)]
    return Layers(frame="".join(parts), moving="".join(moving), parts=tuple(moving))


def card_rows_svg(view: BoardView, width: float = 8 * (CARD_W + CARD_GAP) + 2 * PAD) -> str:
    """The view's card rows (hands, a market, a draft pool) alone, as one <svg>, cards at
    their natural size; empty when the view has none."""
    if not view.rows:
        return ""
    height = _rows_height(view.rows, width)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="tabletape-cards" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'width="{width:.0f}" height="{height:.0f}" style="max-width:100%;height:auto;background:#fff">'
            + "".join(_card_rows(view.rows, 0.0, width)) + "</svg>")


def card_rows_html(view: BoardView) -> str:
    """The view's card rows as HTML: each row's label, then its cards as small <svg>s that
    wrap to whatever width the page gives them (beside a tall board on a tablet, under a wide
    one on a laptop); the same cards, keys and faces as `card_rows_svg`."""
    if not view.rows:
        return ""
    card_h = _card_h(view.rows)
    out = []
    for row in view.rows:
        owner = f" ({row.owner})" if row.owner and row.owner.lower() not in row.label.lower() else ""
        cards = "".join(f'<svg xmlns="http://www.w3.org/2000/svg" class="tabletape-card" viewBox="-1 -1 {CARD_W + 2:g} {card_h + 2:g}" '
                        f'width="{CARD_W + 2:g}" height="{card_h + 2:g}">{_card(0, 0, face, row.owner, card_key(row.id, face), card_h)}</svg>'
                        for face in row.cards)
        out.append(f'<div class="card-row" data-id="{escape(row.id)}"><div class="row-label">{escape(row.label)}{escape(owner)}: '
                   f'{len(row.cards)} card(s)</div><div class="row-cards">{cards}</div></div>')
    return "".join(out)


def _heat(heat: Mapping[tuple[int, int], tuple[str, float, str]], frame: _Frame) -> list[str]:
    """Shaded board spaces with a tooltip each (dashboard/board/heatmap.py chooses the shades),
    each over a pale ground so its colour reads the same on any terrain."""
    return [f'<polygon class="heat-ground" points="{frame.cell_points(col, row)}" fill="#fff" fill-opacity="0.75" stroke="none"/>'
            f'<polygon class="heat" points="{frame.cell_points(col, row)}" fill="{escape(colour)}" fill-opacity="{opacity:.2f}" '
            f'stroke="none"><title>{escape(tip)}</title></polygon>' for (col, row), (colour, opacity, tip) in sorted(heat.items())]


@lru_cache(maxsize=32)
def _ground(geometry: str, width: float, height: float) -> str:
    """Open ground: every hex or square of the board, or the table's rectangle. The same for
    every state of a board, so drawn once (a 22 x 28 hex map is most of a board's markup)."""
    frame = _frame_of(geometry, width, height)
    if geometry == "inches":
        return (f'<rect class="ground" x="{PAD}" y="{PAD}" width="{frame.width:.1f}" height="{frame.height:.1f}" '
                f'fill="{OPEN_GROUND}" stroke="{GRID_LINE}"/>')
    # The spaces' paint is said once, on their group: a fifth less markup for the browser to
    # take in, for every distinct map a match hands it.
    out = [f'<g class="spaces" fill="{OPEN_GROUND}" stroke="{GRID_LINE}" stroke-width="0.6">']
    for col in range(int(width)):
        for row in range(int(height)):
            out.append(f'<polygon class="space" data-key="{space_key(col, row)}" points="{frame.cell_points(col, row)}"/>')
    out.append("</g>")
    return "".join(out)


@lru_cache(maxsize=32)
def _coordinates(geometry: str, width: float, height: float) -> str:
    """The names a person reads a place by, printed at the board's edges: column letters
    and row numbers on hex and square boards, a ruler every few inches on an open table.
    They are the names event lists use (`rulesets.view.space_name`)."""
    frame = _frame_of(geometry, width, height)
    out = ['<g class="coordinates">']
    if geometry == "inches":
        for inch in range(0, int(width) + 1, RULER_STEP):
            x, _ = frame.centre(inch, 0)
            out.append(_text(EDGE + x, EDGE - 4, f"{inch}″", size=9, fill="#666"))
        for inch in range(0, int(height) + 1, RULER_STEP):
            _, y = frame.centre(0, inch)
            out.append(_text(EDGE - 3, EDGE + y + 3, f"{inch}″", size=9, fill="#666", anchor="end"))
    else:
        for col in range(int(width)):
            x, _ = frame.centre(col, 0)
            out.append(_text(EDGE + x, EDGE - 3, column_name(col), size=9, fill="#666"))
        for row in range(int(height)):
            x, y = frame.centre(0, row)
            if geometry == "hex-even-q":
                y -= frame.unit * math.sqrt(3) / 4  # between the shifted and unshifted columns
            out.append(_text(EDGE - 2, EDGE + y + 3, str(row + 1), size=9, fill="#666", anchor="end"))
    out.append("</g>")
    return "".join(out)


def _spots(keys: Iterable[str], frame: _Frame) -> list[str]:
    """Tap spots at space keys: hidden until the board lights them as targets."""
    out = []
    for key in keys:
        where = key_position(key)
        if where is None:
            continue
        cx, cy = frame.centre(*where)
        out.append(f'<circle class="spot" data-key="{escape(key)}" cx="{cx:.1f}" cy="{cy:.1f}" r="{max(frame.piece_radius * 0.7, 7):.1f}"/>')
    return out


@lru_cache(maxsize=64)
def _cells(cells: tuple[Cell, ...], geometry: Geometry, width: float, height: float) -> str:
    """Terrain and features; a map's cells change rarely (an altar changing hands), so a
    drawing is kept per set of cells."""
    frame = _frame_of(geometry, width, height)
    out = []
    for cell in cells:
        fill = cell_colour(cell.kind, cell.owner)
        tip = f"{cell.kind} at {space_name(geometry, cell.col, cell.row)}" + (f": {cell.label}" if cell.label else "") + (f", held by {cell.owner}" if cell.owner else "")
        if frame.geometry == "inches":
            cx, cy = frame.centre(cell.col, cell.row)
            shape = f'<rect x="{cx - frame.unit / 2:.1f}" y="{cy - frame.unit / 2:.1f}" width="{frame.unit:.1f}" height="{frame.unit:.1f}" fill="{fill}"/>'
        else:
            stroke = side_colour(cell.owner) if cell.owner else GRID_LINE
            shape = f'<polygon points="{frame.cell_points(cell.col, cell.row)}" fill="{fill}" stroke="{stroke}" stroke-width="{1.6 if cell.owner else 0.6}"/>'
        out.append(f'<g class="cell cell-{escape(_slug(cell.kind))}" data-key="{space_key(cell.col, cell.row)}"><title>{escape(tip)}</title>{shape}')
        if cell.kind == "altar":
            cx, cy = frame.centre(cell.col, cell.row)
            out.append(_text(cx, cy + 3.5, "★", size=frame.unit * 0.8, fill=side_colour(cell.owner) if cell.owner else "#8a6d00"))
        elif cell.label and len(cell.label) <= 4 and geometry == "grid":  # a square has room for a number or a code
            cx, cy = frame.centre(cell.col, cell.row)
            out.append(_text(cx, cy + frame.unit * 0.4, cell.label, size=9, fill="#333"))
        out.append("</g>")
    return "".join(out)


def _regions(regions: Iterable[Region], frame: _Frame) -> tuple[list[str], list[str]]:
    """The regions' shapes, and their names apart: the names go above a heatmap's shades
    and carry a white halo, so neither heat nor dark terrain (a wall hex) hides them."""
    drawn = [_region(region, frame) for region in regions]
    return [shape for shape, _ in drawn], [name for _, name in drawn if name]


@lru_cache(maxsize=4096)
def _region(region: Region, frame: _Frame) -> tuple[str, str]:
    """One region's shape and its name (empty when it has none), each one string: most
    regions stand still from one event to the next, so each is drawn once."""
    colour = side_colour(region.side) if region.side else _region_colour(region.kind)
    label = region.label or region.id
    if region.height:
        label += f" (height {region.height:g})"
    title = f"<title>{escape(region.kind + ': ' + label)}</title>"
    shapes = [f'<g class="region region-{escape(_slug(region.kind))}">{title}']
    label = _brief(label)
    if region.points:
        pts = [frame.centre(x, y) for x, y in region.points]
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        shapes.append(f'<polygon points="{points}" fill="{colour}" fill-opacity="0.18" stroke="{colour}" stroke-width="1.5"/>')
        cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    elif region.cells:
        for col, row in region.cells:
            shapes.append(f'<polygon points="{frame.cell_points(col, row)}" fill="{colour}" fill-opacity="0.12" '
                          f'stroke="{colour}" stroke-width="1.2" stroke-dasharray="3,2"/>')
        centres = [frame.centre(c, r) for c, r in region.cells]
        cx, cy = sum(p[0] for p in centres) / len(centres), min(p[1] for p in centres) - frame.unit * 0.55
    else:
        return "".join(shapes) + "</g>", ""
    shapes.append("</g>")
    if not (region.label or region.height):
        return "".join(shapes), ""
    half = len(label) * 2.4  # about half the text's width at 9 px
    cx = min(max(cx, PAD + half), PAD + frame.width - half)
    return "".join(shapes), f'<g class="region-name">{title}' + _text(cx, max(cy, 9.0), label, size=9, fill="#333", extra=HALO) + "</g>"


HALO = ' font-style="italic" stroke="#fff" stroke-width="2.5" stroke-opacity="0.85" paint-order="stroke"'
"""A region's name in italics over a white outline: readable on any ground."""


def _lines(lines: Iterable[Line], frame: _Frame) -> list[str]:
    return [_line(line, frame) for line in lines if len(line.points) >= 2]


@lru_cache(maxsize=4096)
def _line(line: Line, frame: _Frame) -> str:
    """One line (of sight, a path) with its end mark and label, as one string."""
    out = []
    pts = [frame.centre(x, y) for x, y in line.points]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
    if line.kind == "line-of-sight" or "sight" in line.kind:
        colour = CLEAR_LINE if line.clear else BLOCKED_LINE
        dash = "" if line.clear else ' stroke-dasharray="6,4"'
        state = "clear" if line.clear else "blocked"
    else:
        colour, dash, state = PATH_LINE, ' stroke-dasharray="2,3"', line.kind
    tip = f"{line.kind}: {state}" + (f" - {line.label}" if line.label else "")
    out.append(f'<g class="line line-{escape(_slug(line.kind))} {"clear" if line.clear else "blocked"}"><title>{escape(tip)}</title>'
               f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"{dash} stroke-linecap="round"/>')
    ex, ey = pts[-1]
    if not line.clear:
        out.append(f'<path d="M{ex - 5:.1f},{ey - 5:.1f} L{ex + 5:.1f},{ey + 5:.1f} M{ex + 5:.1f},{ey - 5:.1f} L{ex - 5:.1f},{ey + 5:.1f}" '
                   f'stroke="{BLOCKED_LINE}" stroke-width="2.5"/>')
    else:
        out.append(f'<circle cx="{ex:.1f}" cy="{ey:.1f}" r="3" fill="{colour}"/>')
    if line.label:
        mx, my = (pts[0][0] + ex) / 2, (pts[0][1] + ey) / 2
        out.append(_text(mx, my - 4, line.label, size=9, fill=colour))
    out.append("</g>")
    return "".join(out)


def _pieces(pieces: Iterable[Piece], frame: _Frame) -> list[str]:
    return [_piece(piece, frame) for piece in pieces]


@lru_cache(maxsize=4096)
def _piece(piece: Piece, frame: _Frame) -> str:
    """One piece with its tooltip, notch, label, health bar and badge count, as one string:
    a piece that did not change is drawn once, and a browser keeping the string reuses it."""
    out = []
    r = frame.piece_radius
    cx, cy = frame.centre(piece.x, piece.y)
    colour = side_colour(piece.side)
    tip = [piece.label + (f" ({piece.side})" if piece.side else "")]
    if piece.health:
        tip.append(f"health {piece.health[0]}/{piece.health[1]}")
    tip += list(piece.badges)
    if piece.detail:
        tip.append(piece.detail)
    out.append(f'<g class="piece" data-key="{escape(piece_key(piece.id))}" data-id="{escape(piece.id)}" data-side="{escape(piece.side or "")}"><title>{escape(chr(10).join(tip)).replace(chr(10), "&#10;")}</title>')
    if frame.geometry == "grid":
        out.append(f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" rx="3" '
                   f'fill="{colour}" stroke="#222" stroke-width="1" transform="rotate({piece.facing:g} {cx:.1f} {cy:.1f})"/>')
    else:
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{colour}" stroke="#222" stroke-width="1"/>')
    if piece.facing or frame.geometry == "grid":
        # A small notch on the owner's edge: which way the card or figure faces.
        angle = math.radians(piece.facing - 90)
        fx, fy = cx + math.cos(angle) * r * 0.92, cy + math.sin(angle) * r * 0.92
        out.append(f'<circle cx="{fx:.1f}" cy="{fy:.1f}" r="{max(r * 0.15, 1.5):.1f}" fill="#fff" stroke="#222" stroke-width="0.5"/>')
    text_colour = "#222" if piece.side and piece.side.lower() in ("white", "yellow") else "#fff"
    shown = _short(piece.label, frame)
    size = max(min(r * 0.8, 2.6 * r / max(len(shown), 1)), 7)  # a longer label in a smaller font, inside the piece
    out.append(_text(cx, cy + size * 0.35, shown, size=size, fill=text_colour, weight="bold"))
    if piece.health and piece.health[1] > 0:
        out.append(_health_bar(cx, cy + r + 2, r * 2, piece.health))
    if piece.badges:
        bx, by = cx + r * 0.8, cy - r * 0.8
        out.append(f'<circle class="badge" cx="{bx:.1f}" cy="{by:.1f}" r="5.5" fill="#fdcb6e" stroke="#222" stroke-width="0.6"/>')
        out.append(_text(bx, by + 3, str(len(piece.badges)), size=8))
    out.append("</g>")
    return "".join(out)


def _region_colour(kind: str) -> str:
    """A neutral region's colour by its kind (terrain, zone, objective...)."""
    return CELL_COLOURS.get(kind) or NEUTRAL_REGION


def _brief(label: str, limit: int = 26) -> str:
    """A label short enough to print on the board (the tooltip keeps the whole of it)."""
    head = label.split(" - ")[0].split(": ")[0]
    return head if len(head) <= limit else head[: limit - 1] + "…"


def _health_bar(cx: float, top: float, width: float, health: tuple[int, int]) -> str:
    current, maximum = health
    share = max(0.0, min(1.0, current / maximum))
    colour = "#27ae60" if share > 0.6 else "#f39c12" if share > 0.3 else "#c0392b"
    x = cx - width / 2
    return (f'<rect class="health" x="{x:.1f}" y="{top:.1f}" width="{width:.1f}" height="3.5" fill="#dcdde1" stroke="#555" stroke-width="0.4"/>'
            f'<rect x="{x:.1f}" y="{top:.1f}" width="{width * share:.1f}" height="3.5" fill="{colour}"/>')


def _short(label: str, frame: _Frame) -> str:
    """A label short enough to sit on a piece: a short word on a square (`Barracks`), two
    letters or a short number on a hex or a figure on a table."""
    room = 8 if frame.geometry == "grid" else 3
    return label if len(label) <= room else label[: room if frame.geometry == "grid" else 2]


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower())


# --- legend and card rows -------------------------------------------------------------------


def _legend_items(view: BoardView) -> list[tuple[str, str, str]]:
    """(shape, colour, words) for every side, cell kind, region kind and line kind drawn."""
    items: list[tuple[str, str, str]] = []
    sides = sorted({p.side for p in view.pieces if p.side} | {c.owner for c in view.cells if c.owner}
                   | {r.side for r in view.regions if r.side} | {r.owner for r in view.rows if r.owner})
    items += [("piece", side_colour(s), s) for s in sides]
    kinds = sorted({c.kind for c in view.cells})
    items += [("cell", cell_colour(k), k) for k in kinds]
    items += [("region", side_colour(s) if s else _region_colour(k), f"{k} ({s})" if s else k)
              for k, s in sorted({(r.kind, r.side) for r in view.regions}, key=lambda ks: (ks[0], ks[1] or ""))]
    for line in view.lines:
        if "sight" in line.kind:
            items.append(("line", CLEAR_LINE if line.clear else BLOCKED_LINE, f"{line.kind}: {'clear' if line.clear else 'blocked'}"))
        else:
            items.append(("line", PATH_LINE, line.kind))
    if any(p.badges for p in view.pieces):
        items.append(("badge", "#fdcb6e", "status effects (hover a piece)"))
    if any(p.health for p in view.pieces):
        items.append(("health", "#27ae60", "health"))
    seen: set[tuple[str, str, str]] = set()
    return [i for i in items if not (i in seen or seen.add(i))]  # type: ignore[func-returns-value]


def _legend(items: Sequence[tuple[str, str, str]], left: float, top: float) -> list[str]:
    x = left + 6
    out = ['<g class="legend">', _text(x, top + PAD + 8, "Legend", size=11, anchor="start", weight="bold")]
    y = top + PAD + 24
    for shape, colour, words in items:
        out += _legend_item(shape, colour, words, x, y)
        y += 18
    out.append("</g>")
    return out


def _legend_places(items: Sequence[tuple[str, str, str]], width: float) -> list[tuple[float, float]]:
    """Where each item of a legend laid in lines under the board starts (x, baseline)."""
    places, x, y = [], PAD + EDGE, 16.0
    for _, _, words in items:
        wide = 26 + 5.6 * len(words)
        if x + wide > width - PAD and x > PAD + EDGE:
            x, y = PAD + EDGE, y + 18
        places.append((x, y))
        x += wide
    return places


def _legend_below_height(items: Sequence[tuple[str, str, str]], width: float) -> float:
    places = _legend_places(items, width)
    return places[-1][1] + 8 if places else 0.0


def _legend_below(items: Sequence[tuple[str, str, str]], width: float, top: float) -> list[str]:
    out = ['<g class="legend">']
    for (shape, colour, words), (x, y) in zip(items, _legend_places(items, width), strict=True):
        out += _legend_item(shape, colour, words, x, top + y)
    out.append("</g>")
    return out


def _legend_item(shape: str, colour: str, words: str, x: float, y: float) -> list[str]:
    """One legend entry: its mark at (x, y - 4) and its words after it."""
    out = []
    if shape == "piece":
        out.append(f'<circle cx="{x + 6}" cy="{y - 4}" r="6" fill="{colour}" stroke="#222" stroke-width="0.8"/>')
    elif shape == "line":
        out.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 12}" y2="{y - 4}" stroke="{colour}" stroke-width="2.5"/>')
    elif shape == "badge":
        out.append(f'<circle cx="{x + 6}" cy="{y - 4}" r="5" fill="{colour}" stroke="#222" stroke-width="0.6"/>')
    elif shape == "health":
        out.append(f'<rect x="{x}" y="{y - 6}" width="12" height="4" fill="{colour}" stroke="#555" stroke-width="0.4"/>')
    elif shape == "region":  # words: the region's kind (a side's zone in that side's colour)
        out.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{colour}" fill-opacity="0.15" stroke="{colour}" stroke-dasharray="3,2"/>')
    else:
        out.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{colour}" stroke="{GRID_LINE}"/>')
    out.append(_text(x + 18, y, words, size=10, anchor="start"))
    return out


def _per_line(width: float) -> int:
    """How many cards fit across the picture."""
    return max(int((width - 2 * PAD) // (CARD_W + CARD_GAP)), 1)


def _card_h(rows: Sequence[CardRow]) -> float:
    """Cards as tall as the longest face of `rows` needs, at most `CARD_H`: a hero's name is
    one line, a unit's three, so a row of names leaves the board more of a tablet's height."""
    lines = max((len(_wrap(face, 10)[:CARD_LINES]) for row in rows for face in row.cards), default=1)
    return min(CARD_H, max(CARD_MIN_H, 16.0 + lines * 13.0 + 4.0))


def _row_height(row: CardRow, width: float, card_h: float = CARD_H) -> float:
    """A row's label and its cards, wrapped onto as many lines as they need (every card is
    drawn: a card a table taps must be on screen)."""
    lines = -(-len(row.cards) // _per_line(width))
    return ROW_LABEL_H + (lines * (card_h + CARD_GAP) + 4 if row.cards else 4)


def _rows_height(rows: Sequence[CardRow], width: float) -> float:
    card_h = _card_h(rows)
    return sum(_row_height(row, width, card_h) for row in rows)


def _card_rows(rows: Sequence[CardRow], top: float, width: float) -> list[str]:
    out = []
    y = top
    per_line = _per_line(width)
    card_h = _card_h(rows)
    for row in rows:
        owner = f" ({row.owner})" if row.owner and row.owner.lower() not in row.label.lower() else ""
        out.append(f'<g class="card-row" data-id="{escape(row.id)}">')
        out.append(_text(PAD, y + 13, f"{row.label}{owner}: {len(row.cards)} card(s)", size=11, anchor="start", weight="bold"))
        for index, face in enumerate(row.cards):
            line, place = divmod(index, per_line)
            out.append(_card(PAD + place * (CARD_W + CARD_GAP), y + ROW_LABEL_H + line * (card_h + CARD_GAP), face, row.owner,
                             card_key(row.id, face), card_h))
        out.append("</g>")
        y += _row_height(row, width, card_h)
    return out


def _card(x: float, y: float, face: str, owner: str | None, key: str, height: float = CARD_H) -> str:
    hidden = face == "?"
    border = side_colour(owner) if owner else "#555"
    out = [f'<g class="card{" hidden" if hidden else ""}" data-key="{escape(key)}"><title>{escape("hidden card" if hidden else face)}</title>']
    if hidden:
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" height="{height}" rx="5" fill="#636e72" stroke="{border}" stroke-width="1.5"/>')
        out.append(_text(x + CARD_W / 2, y + height / 2 + 6, "?", size=20, fill="#dfe6e9", weight="bold"))
    else:
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" height="{height}" rx="5" fill="#fff" stroke="{border}" stroke-width="1.5"/>')
        for i, word in enumerate(_wrap(face, 10)[:CARD_LINES]):
            out.append(_text(x + CARD_W / 2, y + 16 + i * 13, word, size=9.5))
    out.append("</g>")
    return "".join(out)


def _wrap(text: str, width: int) -> list[str]:
    """Break a card face into short lines on spaces (long words are cut)."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word[:width])
    return lines or [""]


# --- the timeline strip ---------------------------------------------------------------------


def timeline_svg(
    last_seq: int,
    current: int,
    *,
    violations: Mapping[int, str] | None = None,
    notes: Iterable[tuple[int, int]] = (),
    width: float = 800.0,
) -> str:
    """A strip under the slider: a tick per violated event (by severity), a bar per note, and
    where the replay stands now."""
    height = 30.0
    span = max(last_seq, 1)

    def at(seq: float) -> float:
        return 4 + (width - 8) * seq / span

    colours = {"error": BLOCKED_LINE, "warning": "#e67e22", "info": "#95a5a6"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="tabletape-timeline" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'width="100%" height="{height:.0f}" preserveAspectRatio="none">',
             f'<rect x="0" y="10" width="{width:.0f}" height="10" fill="#ecf0f1"/>']
    for start, end in notes:
        x0, x1 = at(start), at(end)
        parts.append(f'<rect class="note-mark" x="{x0 - 1:.1f}" y="2" width="{max(x1 - x0, 0) + 2:.1f}" height="6" fill="#3867d6">'
                     f'<title>note on {start}{"" if end == start else f"-{end}"}</title></rect>')
    for seq, severity in sorted((violations or {}).items()):
        parts.append(f'<rect class="violation-mark {escape(severity)}" x="{at(seq) - 1:.1f}" y="10" width="2" height="10" '
                     f'fill="{colours.get(severity, BLOCKED_LINE)}"><title>{escape(severity)} at event {seq}</title></rect>')
    x = at(current)
    parts.append(f'<path class="current" d="M{x - 5:.1f},30 L{x + 5:.1f},30 L{x:.1f},21 Z" fill="#2d3436"/>'
                 f'<rect x="{x - 0.75:.1f}" y="8" width="1.5" height="14" fill="#2d3436"/>')
    parts.append("</svg>")
    return "".join(parts)
