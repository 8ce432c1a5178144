"""Heatmaps on the game's board: counts from the warehouse agree with the logs, and the
shades are per 100 games on one scale for both versions."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dashboard.board.heatmap import heatmap_svg, per_hundred, shades
from projections.corpus.demo import save_events
from projections.corpus.simulate import play
from projections.warehouse.queries import run_named
from projections.warehouse.sync import Warehouse
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
    """Where heroes fell and altars were captured, read straight off the replay: a hero
    alive before an event and slain after it fell where it stood; an AltarCaptured's hero
    captured where it stood."""
    found: Counter[tuple[str, int, int]] = Counter()
    for match_id in ws.matches():
        before = None
        for step in ws.replay(match_id):
            if before is not None:
                standing = {h.id: h for h in before.state.heroes}
                for hero in step.state.heroes:
                    was = standing.get(hero.id)
                    if was is not None and was.alive and not hero.alive:
                        found[("hero fell", *was.node)] += 1
                if type(step.event).__name__ == "AltarCaptured":
                    found[("altar captured", *standing[step.event.hero].node)] += 1  # type: ignore[attr-defined]
            before = step
    return found


def test_the_places_query_counts_what_the_replay_says(ws: Workspace) -> None:
    rows = run_named(Warehouse(ws), "places", {"ruleset": "mortalgate", "version": "2.5", "bots": "true"}).records()
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
    from dashboard.board.heatmap import PLACES, counts
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


MERCY = ("accelerated", "current")


@pytest.fixture(scope="module")
def mercy(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """Three bot games of each of two Mercy Frontier versions, synced (mercenaries die in some)."""
    ws = Workspace(tmp_path_factory.mktemp("mercy") / "store")
    for version in MERCY:
        rules = ws.rules(f"mercyfrontier@{version}")
        for seed in (1, 2, 3):
            save_events(ws, play(rules, rules.ruleset.example_seats, seed=seed, match_id=f"{version}-{seed}"))
    Warehouse(ws).sync()
    return ws


def mercenary_deaths(ws: Workspace) -> Counter[tuple[str, int, int]]:
    """(version, col, row) of every space a dead mercenary's token covered, read from the
    events: a combat's damage that reaches the target's health, or an own token trampled."""
    from rulesets.mercyfrontier.board import footprint
    from rulesets.mercyfrontier.state import card_of

    found: Counter[tuple[str, int, int]] = Counter()
    for match_id in ws.matches():
        version = ws.header(match_id).version
        before: Any = None
        for step in ws.replay(match_id, audit=False):
            event, kind = step.event, type(step.event).__name__
            dead: list[str] = []
            if kind == "CombatResolved":
                health = {m.card: m.health for m in before.mercs}
                dead = [card for card, hit in event.damage if card in health and hit >= health[card]]  # type: ignore[attr-defined]
            elif kind == "MercenaryMoved":
                dead = [card for card in event.trample if all(m.card != card for m in step.state.mercs)]  # type: ignore[attr-defined]
            for card in dead:
                token = next(m for m in before.mercs if m.card == card)
                for col, row in footprint(token.at, card_of(card).size):
                    found[(version, col, row)] += 1
            before = step.state
    return found


def test_where_mercenaries_die_is_counted_at_sync_as_the_events_say(mercy: Workspace) -> None:
    rows = run_named(Warehouse(mercy), "places", {"ruleset": "mercyfrontier", "bots": "true"}).records()
    direct = mercenary_deaths(mercy)
    assert direct and Counter({(r["version"], r["col"], r["row"]): r["times"] for r in rows}) == direct
    assert {r["what"] for r in rows} == {"mercenary died"}
    from tests.cli_support import run

    code, out, _ = run(mercy.home, "query", "places", "--param", "ruleset=mercyfrontier", "--param", "version=current", "--format", "json")
    assert code == 0 and sum(r["times"] for r in json.loads(out)) == sum(n for (v, _, _), n in direct.items() if v == "current")


def test_the_compare_page_draws_where_mercenaries_die_on_mercy_frontiers_board(mercy: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    """AppTest: Mercy Frontier's two versions on the Compare page; each board's shaded
    spaces say the deaths per 100 games the events give, on one scale, A blue, B orange."""
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("TABLETAPE_HOME", str(mercy.home))
    at = AppTest.from_file(str(Path(__file__).parents[2] / "dashboard" / "app" / "pages" / "compare.py"), default_timeout=60).run()
    game = next(w for w in at.selectbox if w.label == "Game")
    game.select_index(game.options.index(next(o for o in game.options if "Mercy Frontier" in o or o == "mercyfrontier"))).run()
    for label, version in zip(("Version A", "Version B"), MERCY, strict=True):
        box = next(w for w in at.selectbox if w.label == label)
        box.select_index(box.options.index(version)).run()
    assert not at.exception, at.exception
    assert any("Where mercenaries die" in m.value for m in at.markdown)
    boards = [m.value for m in at.markdown if 'class="tabletape-board"' in m.value]
    assert len(boards) == 2
    direct = mercenary_deaths(mercy)
    for board, version, colour in zip(boards, MERCY, ("#0072B2", "#E69F00"), strict=True):
        shown = {(int(c), int(r)): float(rate) for c, r, rate in re.findall(r"mercenary died at (\d+),(\d+): ([\d.]+) per 100 games", board)}
        expected = {(c, r): round(100 * n / 3, 1) for (v, c, r), n in direct.items() if v == version}
        assert shown == expected and (not expected or f'fill="{colour}"' in board)


def test_where_frontier_units_are_destroyed_is_the_inch_they_stood_on(tmp_path: Path) -> None:
    """Frontier's places: each unit that went from the table to destroyed, at the rounded
    inch it stood on the step before; drawn as one-inch squares on the inch table."""
    ws = Workspace(tmp_path / "store")
    rules = ws.rules("frontier@1.0")
    for seed in (1, 2):
        save_events(ws, play(rules, rules.ruleset.example_seats, seed=seed, match_id=f"f{seed}"))
    Warehouse(ws).sync()
    direct: Counter[tuple[int, int]] = Counter()
    for match_id in ws.matches():
        standing: dict[str, tuple[float, float]] = {}
        for step in ws.replay(match_id, audit=False):
            for unit in step.state.units:
                if unit.status == "destroyed" and unit.id in standing:
                    x, y = standing.pop(unit.id)
                    direct[(round(x), round(y))] += 1
            standing = {u.id: u.at for u in step.state.units if u.status == "board" and u.at is not None}
    rows = run_named(Warehouse(ws), "places", {"ruleset": "frontier", "version": "1.0"}).records()
    assert direct and Counter({(r["col"], r["row"]): r["times"] for r in rows}) == direct
    from dashboard.board.heatmap import PLACES, counts

    view = rules.ruleset.view(rules.params, ws.state_at("f1", 0).state, None)
    rates = per_hundred(counts(PLACES["frontier"], rows, "unit destroyed", view), games=2)
    svg = heatmap_svg(view, rates, colour="#0072B2", top=max(rates.values()), what="unit destroyed", title="1.0")
    assert len(re.findall(r'class="heat"', svg)) == len(direct)


def test_a_retracted_kill_leaves_the_heatmap_and_a_grown_log_adds_to_it(tmp_path: Path) -> None:
    """The places of an event the table took back are not counted; a log synced, grown and
    synced again (incremental) counts the new deaths once."""
    from events.shared import Retracted

    ws = Workspace(tmp_path / "store")
    rules = ws.rules("mercyfrontier@accelerated")
    events = play(rules, rules.ruleset.example_seats, seed=1, match_id="m")
    kill = next(e for e in events if type(e).__name__ == "CombatResolved" and e.damage)  # type: ignore[attr-defined]
    save_events(ws, events[: kill.seq])
    Warehouse(ws).sync()

    def shown() -> Counter[tuple[str, int, int]]:
        rows = run_named(Warehouse(ws), "places", {"ruleset": "mercyfrontier"}).records()
        return Counter({(r["version"], r["col"], r["row"]): r["times"] for r in rows})

    before = shown()
    assert before == mercenary_deaths(ws)
    ws.append_events("m", [kill])
    assert Warehouse(ws).sync().extended == 1
    assert shown() == mercenary_deaths(ws) and sum(shown().values()) > sum(before.values())  # the kill, counted once
    ws.append_events("m", [Retracted(seq=kill.seq + 1, at=kill.at, target_seq=kill.seq, reason="misread the damage")])
    Warehouse(ws).sync()
    assert shown() == before


def test_zone_names_are_drawn_above_the_heat_with_a_halo(ws: Workspace) -> None:
    """A shaded space or a dark wall hex beside an altar must not hide the altar's name."""
    rules = ws.rules("mortalgate@2.5")
    view = rules.ruleset.view(rules.params, ws.state_at("g1", 10).state, None)
    named = next(r for r in view.regions if r.label)
    spot = next(iter(named.cells))
    svg = heatmap_svg(view, {spot: 50.0}, colour="#E69F00", top=100.0, what="hero fell", title="2.5")
    name = svg.index(f">{named.label}</text>")
    assert svg.rindex('class="heat"') < name  # drawn after (above) every shade
    assert 'paint-order="stroke"' in svg[svg.rindex("<text", 0, name):name]
