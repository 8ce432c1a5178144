"""Heatmaps on the game's board: counts from the warehouse agree with the logs, and the
shades are per 100 games on one scale for both versions."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from dashboard.heatmap import heatmap_svg, per_hundred, shades
from projections.demo import save_events
from projections.queries import run_named
from projections.simulate import play
from projections.warehouse import Warehouse
from projections.workspace import Workspace


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """Three bot games of MortalGate 2.5, synced."""
    ws = Workspace(tmp_path_factory.mktemp("heat") / "store")
    rules = ws.rules("mortalgate@2.5")
    for seed in (1, 2, 3):
        save_events(ws, play(rules, rules.ruleset.example_seats, seed=seed, match_id=f"g{seed}"))
    Warehouse(ws).sync()
    return ws


def direct_places(ws: Workspace) -> Counter[tuple[str, int, int]]:
    """Where heroes fell and altars were captured, read straight from the logs."""
    found: Counter[tuple[str, int, int]] = Counter()
    for match_id in ws.matches():
        at: dict[str, tuple[int, int]] = {}
        for e in ws.events(match_id):
            kind = type(e).__name__
            if kind == "HeroRespawned" and e.hero in at:  # type: ignore[attr-defined]
                found[("hero fell", *at[e.hero])] += 1  # type: ignore[attr-defined]
            if kind == "AltarCaptured":
                found[("altar captured", *at[e.hero])] += 1  # type: ignore[attr-defined]
            if kind in ("HeroPlaced", "HeroRespawned"):
                at[e.hero] = tuple(e.node)  # type: ignore[attr-defined]
            if kind == "HeroMoved" and e.path:  # type: ignore[attr-defined]
                at[e.hero] = tuple(e.path[-1])  # type: ignore[attr-defined]
    return found


def test_the_places_query_counts_what_the_logs_say(ws: Workspace) -> None:
    rows = run_named(Warehouse(ws), "mortalgate_places", {"version": "2.5", "bots": "true"}).records()
    assert Counter({(r["what"], r["col"], r["row"]): r["times"] for r in rows}) == direct_places(ws)
    assert {r["what"] for r in rows} == {"hero fell", "altar captured"}


def test_the_heatmap_shades_spaces_per_100_games_on_one_scale(ws: Workspace) -> None:
    rates = per_hundred({(3, 4): 2, (5, 6): 1}, games=4)
    assert rates == {(3, 4): 50.0, (5, 6): 25.0}
    shaded = shades(rates, colour="#E69F00", top=100.0, what="hero fell")
    assert shaded[(3, 4)][1] > shaded[(5, 6)][1] and shaded[(3, 4)][1] < 0.85  # the other version's 100 is the top
    rules = ws.rules("mortalgate@2.5")
    view = rules.ruleset.view(rules.params, ws.state_at("g1", 10).state, None)
    svg = heatmap_svg(view, rates, colour="#E69F00", top=100.0, what="hero fell", title="2.5")
    assert len(re.findall(r'class="heat"', svg)) == 2
    assert "hero fell at 3,4: 50.0 per 100 games" in svg and 'class="piece' not in svg


def test_where_the_frontline_stops_is_its_last_position_on_the_track(tmp_path: Path) -> None:
    """Frontline bot games: the query's stops are each finished match's last frontline,
    and they land on the track row of the half they are pushed into, at the grid counted
    from the middle of the map (the board's right edge, where it is folded)."""
    from dashboard.heatmap import PLACES, counts
    from rulesets.frontline.view import track_row

    ws = Workspace(tmp_path / "store")
    rules = ws.rules("frontline@1.0")
    for seed in (1, 2, 3):
        save_events(ws, play(rules, rules.ruleset.example_seats, seed=seed, match_id=f"f{seed}"))
    Warehouse(ws).sync()
    rows = run_named(Warehouse(ws), "frontline_places", {"version": "1.0"}).records()
    fronts: Counter[int] = Counter()
    for match_id in ws.matches():
        final = list(ws.replay(match_id, audit=False))[-1].state
        fronts[int(rules.ruleset.metrics(rules.params, final)["frontline"])] += 1
    assert Counter({r["front"]: r["times"] for r in rows}) == fronts
    view = rules.ruleset.view(rules.params, ws.state_at("f1", 0).state, None)
    spaces = counts(PLACES["frontline"], rows, "frontline stopped", view)
    upper, lower = track_row(rules.params, 0), track_row(rules.params, 1)
    assert sum(spaces.values()) == 3 and {row for _, row in spaces} <= {upper, lower}
    edge = int(view.width)
    assert counts(PLACES["frontline"], [{"what": "frontline stopped", "front": 2, "times": 1}], "frontline stopped", view) == {(edge - 2, lower): 1.0}
    assert counts(PLACES["frontline"], [{"what": "frontline stopped", "front": -1, "times": 1}], "frontline stopped", view) == {(edge - 1, upper): 1.0}
    assert counts(PLACES["frontline"], [{"what": "frontline stopped", "front": 0, "times": 2}], "frontline stopped", view) == {
        (edge - 1, upper): 1.0, (edge - 1, lower): 1.0}
