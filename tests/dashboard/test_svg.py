"""BoardView -> SVG for every geometry: positions, colours, health, badges, lines, legend, cards."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from dashboard.board.svg import HEX_SIZE, INCH, PAD, SQUARE, board_svg, side_colour, timeline_svg
from rulesets import registry
from rulesets.view import BoardView, CardRow, Cell, Line, Panel, Piece, Region

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    """The SVG as XML (it must be well formed)."""
    return ET.fromstring(svg)


def piece_centre(root: ET.Element, piece_id: str) -> tuple[float, float]:
    group = next(g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-id") == piece_id)
    card = group.find("svg:rect[@rx]", NS)  # a card (grid): its rounded square
    if card is not None:
        return float(card.get("x", 0)) + float(card.get("width", 0)) / 2, float(card.get("y", 0)) + float(card.get("height", 0)) / 2
    figure = group.find("svg:circle", NS)
    assert figure is not None
    return float(figure.get("cx", 0)), float(figure.get("cy", 0))


def test_hex_even_q_puts_even_columns_half_a_hex_lower() -> None:
    pieces = (Piece(id="a", label="A", side="red", x=0, y=0), Piece(id="b", label="B", side="blue", x=1, y=0),
              Piece(id="c", label="C", side="red", x=2, y=0), Piece(id="d", label="D", side="red", x=0, y=1))
    root = parse(board_svg(BoardView(geometry="hex-even-q", width=3, height=2, pieces=pieces)))
    a, b, c, d = (piece_centre(root, i) for i in "abcd")
    h = math.sqrt(3) * HEX_SIZE
    assert b[1] == pytest.approx(a[1] - h / 2, abs=0.2)  # odd column sits higher
    assert c[1] == pytest.approx(a[1], abs=0.2)
    assert b[0] - a[0] == pytest.approx(1.5 * HEX_SIZE, abs=0.2)  # flat-topped columns
    assert d[1] - a[1] == pytest.approx(h, abs=0.2)
    hexes = [p for p in root.iter("{http://www.w3.org/2000/svg}polygon") if p.get("class") == "space"]
    assert len(hexes) == 6
    corners = hexes[0].get("points", "").split()
    assert len(corners) == 6
    ys = sorted({round(float(c.split(",")[1]), 1) for c in corners})
    assert len(ys) == 3  # flat top and bottom: two corners share the top y


def test_grid_squares_and_card_facing() -> None:
    view = BoardView(geometry="grid", width=4, height=3, pieces=(Piece(id="k", label="Knight", side="north", x=2, y=1, facing=180),))
    svg = board_svg(view)
    root = parse(svg)
    x, y = piece_centre(root, "k")
    assert (x, y) == pytest.approx((PAD + 2.5 * SQUARE, PAD + 1.5 * SQUARE), abs=0.2)
    assert "rotate(180" in svg
    squares = [p for p in root.iter("{http://www.w3.org/2000/svg}polygon") if p.get("class") == "space"]
    assert len(squares) == 12 and len(squares[0].get("points", "").split()) == 4


def test_inches_draw_polygons_at_table_coordinates() -> None:
    view = BoardView(
        geometry="inches", width=44, height=30,
        regions=(Region(id="ruin", kind="ruins", label="Ruin", points=((10, 10), (14, 10), (14, 13)), height=3),
                 Region(id="hab", kind="terrain", label="Hab block (scale 3) - ground floor: cover; roof: exposed", points=((0, 0), (5, 0), (5, 4))),),
        pieces=(Piece(id="u", label="Squad", side="orks", x=22, y=15, health=(3, 10)),),
        lines=(Line(kind="line-of-sight", points=((22, 15), (30, 5)), clear=False, label="blocked by ruin"),),
    )
    svg = board_svg(view)
    root = parse(svg)
    assert piece_centre(root, "u") == pytest.approx((PAD + 22 * INCH, PAD + 15 * INCH))
    corners = [(PAD + x * INCH, PAD + y * INCH) for x, y in ((10, 10), (14, 10), (14, 13))]
    assert 'points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in corners) + '"' in svg
    assert "Ruin (height 3)" in svg
    assert ">Hab block (scale 3)</text>" in svg and "terrain: Hab block (scale 3) - ground floor: cover; roof: exposed" in svg
    assert 'stroke-dasharray="6,4"' in svg and "line-of-sight: blocked" in svg
    assert side_colour("orks") in svg  # an unknown side gets a stable palette colour


def test_pieces_carry_side_colour_health_badges_and_tooltips() -> None:
    view = BoardView(geometry="hex-even-q", width=3, height=3, pieces=(
        Piece(id="h", label="Greven", side="blue", x=1, y=1, health=(2, 10), badges=("burning 2", "stunned"), detail="seat blue"),))
    svg = board_svg(view)
    assert side_colour("blue") == "#3867d6" and 'fill="#3867d6"' in svg
    assert 'class="health"' in svg and 'fill="#c0392b"' in svg  # 20% health is red
    assert 'class="badge"' in svg
    assert "Greven (blue)&#10;health 2/10&#10;burning 2&#10;stunned&#10;seat blue" in svg
    assert "\n" not in svg  # one line: it sits in a page as one raw HTML block


def test_legend_names_sides_cells_lines_and_card_rows_hide_what_a_seat_cannot_see() -> None:
    view = BoardView(
        geometry="grid", width=3, height=3,
        cells=(Cell(col=0, row=0, kind="house", owner="south"), Cell(col=1, row=1, kind="water")),
        pieces=(Piece(id="p", label="Pikeman", side="south", x=2, y=2),),
        lines=(Line(kind="path", points=((0, 0), (2, 2))),),
        rows=(CardRow(id="hand-s", label="Hand", owner="south", cards=("Pikeman", "Fire & <Brimstone>")),
              CardRow(id="hand-n", label="Hand", owner="north", cards=("?", "?"))),
        panels=(Panel(title="Score", rows=(("south", "3"),)),),
    )
    svg = board_svg(view)
    root = parse(svg)  # escaped text keeps it well formed
    legend = next(g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "legend")
    words = [t.text for t in legend.iter("{http://www.w3.org/2000/svg}text")]
    assert {"south", "north", "house", "water", "path"} <= set(words)
    assert "Fire &amp; &lt;Brimstone&gt;" in svg
    assert svg.count('class="card hidden"') == 2
    assert "Hand (north): 2 card(s)" in svg


def test_every_registered_game_draws_its_opening_position() -> None:
    for name in registry.names():
        ruleset = registry.game(name)
        rules = registry.resolve(name)
        from events.shared import MatchStarted

        started = MatchStarted(seq=0, match_id="t", ruleset=name, version=rules.version, seats=dict(ruleset.example_seats))
        state = ruleset.setup(rules.params, started)
        for seat in (None, *ruleset.example_seats):
            root = parse(board_svg(ruleset.view(rules.params, state, seat)))
            assert root.get("data-geometry") in ("hex-even-q", "grid", "inches")


def test_timeline_marks_violations_notes_and_the_current_event() -> None:
    svg = timeline_svg(100, 50, violations={10: "error", 60: "warning"}, notes=[(20, 30)], width=208)
    root = parse(svg)
    marks = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if "violation-mark" in (r.get("class") or "")]
    assert [float(m.get("x", 0)) + 1 for m in marks] == [pytest.approx(24), pytest.approx(124)]
    assert 'class="violation-mark error"' in svg and 'class="violation-mark warning"' in svg
    note = next(r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("class") == "note-mark")
    assert float(note.get("width", 0)) == pytest.approx(22)
    assert re.search(r'class="current" d="M99.0,30', svg)
