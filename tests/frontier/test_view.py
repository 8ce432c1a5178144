"""The board view: the table to scale with terrain, units by side with shaken markers, tokens,
zones and the last action's line of sight or path."""

from __future__ import annotations

from rulesets.frontier.events import ActionDeclared, Passed, UnitMoved
from rulesets.frontier.state import Token
from tests.frontier import golden
from tests.frontier.scenario import P, R, block, legally, position, put

SAB = "p1/saboteur-1"
CAP = "p2/captain-1"


def view(state, seat=None):
    return R.ruleset.view(P, state, seat)


def test_the_table_is_drawn_to_scale_in_inches() -> None:
    board = view(position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")))
    assert board.geometry == "inches" and (board.width, board.height) == (44.0, 30.0)


def test_terrain_is_drawn_as_its_outline_with_its_scale_and_rules() -> None:
    house = block("house", 10, 10, 16, 16, 3, (0, ("cover",)), (3, ("exposed",)))
    regions = [r for r in view(position(house, put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"))).regions if r.kind == "terrain"]
    assert len(regions) == 1 and regions[0].points == house.outline and regions[0].height == 3
    assert regions[0].label == "house - ground: cover; height 3: exposed"  # the name on the table, the rules in the tooltip


def test_units_are_drawn_by_side_with_their_shaken_marker() -> None:
    board = view(position(put("saboteur", (5, 15), shaken=True), put("captain", (20, 15), side="p2", level=0)))
    pieces = {p.id: p for p in board.pieces}
    assert pieces[SAB].side == "p1" and pieces[SAB].badges == ("shaken",) and (pieces[SAB].x, pieces[SAB].y) == (5, 15)
    assert pieces[CAP].side == "p2" and pieces[CAP].badges == () and pieces[CAP].label == "Captain"


def test_tokens_and_markers_are_drawn() -> None:
    tokens = (Token(id="mine-1", kind="mine", owner="p1", at=(30.0, 5.0)), Token(id="strong_point", kind="strong_point", owner="p1", at=(22.0, 15.0)))
    pieces = {p.id: p for p in view(position(put("saboteur", (5, 15)), put("captain", (20, 25), side="p2"), tokens=tokens)).pieces}
    assert pieces["token:mine-1"].label == "mine" and pieces["token:mine-1"].badges == ("token",)
    assert pieces["token:strong_point"].badges == ("marker",)


def test_evac_zones_are_drawn_for_each_side() -> None:
    evac = [r for r in view(position(put("saboteur", (5, 15)), put("captain", (20, 25), side="p2"))).regions if r.kind == "evac"]
    assert {(r.side, r.id.split("-")[-1]) for r in evac} == {("p2", "south"), ("p1", "north"), ("p1", "west"), ("p1", "east")}


def test_the_last_actions_line_of_sight_then_the_path_of_its_move() -> None:
    wall = block("wall", 12, 0, 13, 30, 1)
    state = legally(position(wall, put("specialist", (5, 15)), put("pathfinder", (14, 3)), put("captain", (20, 15), side="p2"),
                             designated=((CAP, "p1/pathfinder-1"),)), ActionDeclared(by="p1", unit="p1/specialist-1", action="open_fire", target=CAP))
    (line,) = view(state).lines
    assert line.kind == "line-of-sight" and not line.clear and line.points == ((5, 15), (20, 15))  # Smart Mortars fire blind
    state = legally(position(put("saboteur", (5, 15)), put("captain", (20, 25), side="p2")), ActionDeclared(by="p1", unit=SAB, action="advance"),
                    Passed(by="p2", step="reaction"), UnitMoved(by="p1", unit=SAB, to=(9, 18), path=((7, 15),)))
    (path,) = view(state).lines
    assert path.kind == "path" and path.points == ((5, 15), (7, 15), (9, 18))


def test_every_state_of_a_golden_game_has_a_view_from_each_seat() -> None:
    from projections.read.replay import replay

    for step in replay(golden.read_log("frontier-escort"), golden.rules(), audit=False):
        for seat in (None, "p1", "p2"):
            board = R.ruleset.view(P, step.state, seat)
            assert board.seat == seat and board.panels
