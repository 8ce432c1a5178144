"""The board view: a grid of the 3 x 5 tiles with their spaces, nodes, buildings, workers and
mercenary tokens; the mercenary row and the zones off the board; metrics and progress."""

from __future__ import annotations

from tests.mercyfrontier.scenario import position, rules


def test_the_view_is_a_grid_of_3_by_5_tiles_with_every_piece() -> None:
    r = rules()
    state = position(mercs={"warden-1": ("orange", (3, 9)), "raider-1": ("yellow", (0, 5)), "scout-1": ("yellow", None)},
                     workers={"orange": [(3, 13)]}, health={"warden-1": 4})
    seen = r.ruleset.view(r.params, state, None)
    assert (seen.geometry, seen.width, seen.height) == ("grid", 9, 15)
    territory = [g for g in seen.regions if g.kind == "territory"]
    assert sorted(g.side for g in territory) == ["orange"] * 3 + ["yellow"] * 3 and not any(g.label for g in seen.regions)
    assert sum(1 for c in seen.cells if c.kind == "covered tile") == 81
    tiles = next(p for p in seen.panels if p.title == "Tiles").rows
    assert len(tiles) == 15 and ("D13–F15", "orange base, orange") in tiles
    pieces = {p.id: p for p in seen.pieces}
    assert pieces["warden-1"].x == 4 and pieces["warden-1"].y == 10 and pieces["warden-1"].health == (4, 7)
    assert "scout-1" not in pieces and "worker-orange-0" in pieces and "base-4-13" in pieces
    assert any(g.id == "token-warden-1" and len(g.cells) == 9 for g in seen.regions)
    rows = {row.id: row for row in seen.rows}
    assert len(rows["market"].cards) == 4 and rows["market"].cards[0] == "Raider 2/2 (4 cr)"
    assert any("not placed" in c for c in rows["contracts-yellow"].cards)


def test_a_worker_on_a_building_is_a_badge_of_the_building_not_a_second_piece_on_its_square() -> None:
    r = rules()
    base = next(b for b in position().buildings if b.kind == "base" and b.owner == "orange")
    state = position(workers={"orange": [base.at, (3, 12)]})
    pieces = {p.id: p for p in r.ruleset.view(r.params, state, None).pieces}
    assert "worker-orange-0" not in pieces and "worker of orange" in pieces[f"base-{base.at[0]}-{base.at[1]}"].badges
    assert (pieces["worker-orange-1"].x, pieces["worker-orange-1"].y) == (3, 12)
    assert len({(p.x, p.y) for p in pieces.values()}) == len(pieces)


def test_every_seat_sees_the_same_board() -> None:
    r = rules()
    state = position(mercs={"warden-1": ("orange", (3, 9))})
    views = [r.ruleset.view(r.params, state, seat) for seat in (None, "orange", "yellow")]
    assert len({(v.cells, v.pieces, v.rows) for v in views}) == 1


def test_metrics_and_progress() -> None:
    r = rules()
    state = position(phase="purchase", actor="yellow", mercs={"raider-1": ("orange", (0, 10))})
    numbers = r.ruleset.metrics(r.params, state)
    assert numbers["resources_orange"] == 9 and numbers["mercs_orange"] == 1 and numbers["score"] == 0
    now = r.ruleset.progress(r.params, state)
    assert (now.turn, now.phase, now.actor) == (2, "purchase", "yellow")
