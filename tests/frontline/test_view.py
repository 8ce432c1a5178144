"""The board view: the track with its defense numbers, the frontline, both halves' areas, buildings and workers."""

from __future__ import annotations

from msgspec.structs import replace

from rulesets.frontline.events import BuildingBuilt
from tests.frontline.scenario import RULESET, P, add_buildings, building, fresh, play


def test_the_track_shows_each_grids_defense_as_it_stands() -> None:
    state = add_buildings(fresh(), "b", building("tower", "B1"))
    view = RULESET.view(P, state, None)
    track = {(c.col, c.owner): c.label for c in view.cells if c.kind in ("track", "base line")}
    assert [track[(col, "b")] for col in range(11, 7, -1)] == ["5", "7", "9", "8"]
    assert [track[(col, "a")] for col in range(11, 7, -1)] == ["2", "4", "6", "8"]
    assert [c.label for c in view.cells if c.kind == "base line"] == ["24", "24"]


def test_both_halves_show_their_areas_buildings_and_workers() -> None:
    state = play(fresh(), BuildingBuilt(by="a", building="burrow", area="A3"))
    view = RULESET.view(P, state, None)
    assert [r.id for r in view.regions] == ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]
    labels = {p.id: p for p in view.pieces}
    assert labels["a:burrow-1"].badges == ("ready at round 2",) and labels["b:base-1"].label == "Base"
    assert {(c.kind, c.owner, c.label) for c in view.cells if c.kind in ("gold mine", "forest")} == {
        ("gold mine", "a", "3"), ("forest", "a", "2"), ("gold mine", "b", "3"), ("forest", "b", "2")}
    panel = next(p for p in view.panels if p.title.startswith("a "))
    assert ("population", "5 of 10 (the d10 dials show 05 free)") in panel.rows


def test_the_frontline_is_drawn_where_it_stands_and_areas_show_who_holds_them() -> None:
    state = replace(fresh(), front=4)
    view = RULESET.view(P, state, None)
    [line] = view.lines
    assert line.points[0][0] == 12 - 4 - 0.5 and line.label == "frontline 4 grids into b's half"
    b_rows = {c.row for c in view.cells if c.owner == "b"}
    assert {y for _, y in line.points} == {min(b_rows) - 0.5, max(b_rows) + 0.5}  # across b's half only
    held = {r.id: r.side for r in view.regions}
    assert (held["B1"], held["B2"], held["B3"]) == ("a", None, "b")


def test_every_seat_sees_the_same_board() -> None:
    state = fresh()
    assert replace(RULESET.view(P, state, "a"), seat=None) == RULESET.view(P, state, None)


def test_metrics_and_progress_follow_the_game() -> None:
    state = replace(fresh(), front=-2)
    metrics = RULESET.metrics(P, state)
    assert (metrics["points_b"], metrics["score"], metrics["gold_a"]) == (4, -4, 6)
    progress = RULESET.progress(P, state)
    assert (progress.turn, progress.round, progress.phase, progress.actor) == (1, 1, "action", "a")
    assert RULESET.roster is not None and RULESET.roster(P, state) == (("a", "orc"), ("b", "human"))
