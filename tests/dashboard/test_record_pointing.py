"""Choices a table makes by pointing, made by pointing on the Record page (AppTest): a
MortalGate team's turn order by tapping its heroes in order, Mercenarium's deal one tap a
card, a Frontier army unit by unit within the mission's points."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.app.state import die_key
from events.base import Event
from projections.corpus.simulate import play
from projections.read.replay import Fold
from projections.record.tapplan import plan
from projections.workspace import Workspace
from rulesets import registry
from tests.dashboard.test_record import PAGE, events_of, texts


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETAPE_HOME", str(tmp_path / "store"))
    return tmp_path / "store"


def _open_before(home: Path, game: str, kind: str, *, seed: int = 1) -> tuple[AppTest, Workspace, str, Any, Event]:
    """A bot game of `game` stored as a playtest up to the first event recorded as `kind`
    (`compose`, or `deal` for a one-tap chance step), continued on the Record page; returns
    the page, the store, the match, the state there and that event."""
    rules = registry.resolve(game)
    seats = dict(rules.ruleset.example_seats)
    played = play(rules, seats, seed=seed)
    fold = Fold(rules, audit=False)
    step = fold.first(played[0])  # type: ignore[arg-type]
    for event in played[1:]:
        how = plan(rules, step.state, event)
        if how.kind == kind or (kind == "deal" and how.kind == "dice" and len(how.taps) == 1):
            break
        step = fold(step, event)
    else:
        raise AssertionError(f"{game}'s bot game never records a {kind}")
    ws = Workspace(home)
    match_id = f"{game}-pointing"
    ws.new_match(rules.spec, seats, match_id=match_id, source="playtest")
    ws.append_events(match_id, played[1:event.seq])
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params["match"] = match_id
    at.run()
    at.button(key="rec_continue").click().run()
    assert not at.exception, at.exception
    return at, ws, match_id, step.state, event


def _part(at: AppTest, seq: int, compose: int, words: str) -> Any:
    """The part button of composition `compose` labelled `words`."""
    found = [b for b in at.button if (b.key or "").startswith(f"rec_part_{seq}_{compose}_") and b.label == words]
    assert len(found) == 1, f"{words!r} not among {[b.label for b in at.button if (b.key or '').startswith('rec_part_')]}"
    return found[0]


def test_a_turn_order_is_made_by_tapping_the_heroes_first_to_act_first(home: Path) -> None:
    from rulesets.mortalgate.events import TurnOrderSet
    from rulesets.mortalgate.table import hero_name

    at, ws, match_id, _, event = _open_before(home, "mortalgate", "compose")
    seq = event.seq - 1
    assert not [b for b in at.selectbox if (b.key or "").startswith(f"rec_choose_{seq}")]  # no list of 24 orders
    team = "red"
    index = next(i for i in range(2) if f"rec_part_{seq}_{i}_0" in {b.key for b in at.button}
                 and "red's turn order" in texts(at.markdown))
    mine = [b.label for b in at.button if (b.key or "").startswith(f"rec_part_{seq}_{index}_")]
    wanted = list(reversed(mine))
    _part(at, seq, index, wanted[0]).click().run()
    _part(at, seq, index, wanted[0]).click().run()  # the same hero again: not added, and why
    assert f"{wanted[0]} is already number 1" in texts(at.warning)
    for words in wanted[1:-1]:
        _part(at, seq, index, words).click().run()
    assert len(events_of(ws, match_id)) == event.seq  # three heroes tapped: nothing written yet
    assert [b.label for b in at.button if (b.key or "").startswith(f"rec_chosen_{seq}_{index}_")] == [
        f"{n}. {w} ✕" for n, w in enumerate(wanted[:-1], start=1)]
    _part(at, seq, index, wanted[-1]).click().run()  # the fourth tap writes the order
    assert not at.exception, at.exception
    written = events_of(ws, match_id)[event.seq]
    assert isinstance(written, TurnOrderSet) and written.team == team
    assert [hero_name(h) for h in written.heroes] == wanted
    assert not ws.audit(match_id).errors


def test_a_tap_on_a_card_of_the_deal_records_it_at_once(home: Path) -> None:
    from rulesets.mercenarium.events import CardDealt

    at, ws, match_id, _, event = _open_before(home, "mercenarium", "deal")
    seq = event.seq - 1
    assert isinstance(event, CardDealt)
    for n in range(2):
        pad = at.button_group(key=f"rec_die_{seq + n}_{die_key('card')}")
        face = next(o for o in pad.options if str(o) != str(event.card)) if n else event.card
        pad.set_value(face).run()
        assert not at.exception, at.exception
        written = events_of(ws, match_id)
        assert len(written) == event.seq + n + 1, "one tap, one card dealt"
        assert isinstance(written[-1], CardDealt) and written[-1].card == face
        assert not [b for b in at.button if (b.key or "").startswith("rec_record_roll_")]
    assert not ws.audit(match_id).errors


def test_a_frontier_army_is_built_unit_by_unit_within_the_missions_points(home: Path) -> None:
    from rulesets.frontier import units
    from rulesets.frontier.events import ArmySelected
    from rulesets.frontier.moves import army_options

    at, ws, match_id, state, event = _open_before(home, "frontier", "compose")
    seq = event.seq - 1
    assert isinstance(event, ArmySelected)
    faction = units.FACTIONS[units.UNITS[event.units[0]].faction]
    cheapest = min(faction.units, key=lambda t: units.UNITS[t].points)
    label = {t: f"{units.UNITS[t].points} pts · {units.UNITS[t].name}" for t in faction.units}
    fits = state.points // units.UNITS[cheapest].points
    for _ in range(fits):  # the same unit as often as the points allow: no preset list does that
        _part(at, seq, 0, label[cheapest]).click().run()
    assert f"{fits * units.UNITS[cheapest].points} of {state.points} points" in texts(at.markdown)
    over = max(faction.units, key=lambda t: units.UNITS[t].points)
    _part(at, seq, 0, label[over]).click().run()
    assert "not added" in texts(at.warning) and f"of {state.points}" in texts(at.warning)
    at.button(key=f"rec_chosen_{seq}_0_0").click().run()  # taken out again
    assert len(events_of(ws, match_id)) == event.seq
    at.button(key=f"rec_compose_{seq}_0").click().run()
    assert not at.exception, at.exception
    written = events_of(ws, match_id)[event.seq]
    assert isinstance(written, ArmySelected) and written.units == (cheapest,) * (fits - 1)
    assert written.units not in army_options(faction.id, state.points)
    assert not ws.audit(match_id).errors
