"""The dashboard over a designer's own game at low levels of the protocol: every page a
match opens on works with the parts the game defines, and says what a missing one adds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from projections.workspace import Workspace
from tests.cli_support import run
from tests.dashboard.conftest import APP, board_frames, open_replay, texts
from tests.plugin_support import PACKAGE, forget_pig, pig, site

__all__ = ["pig", "site"]  # fixtures

RECORD = str(Path(__file__).parents[2] / "dashboard" / "app" / "pages" / "record.py")
COMPARE = str(Path(__file__).parents[2] / "dashboard" / "app" / "pages" / "compare.py")
EXPLORE = str(Path(__file__).parents[2] / "dashboard" / "app" / "pages" / "explore.py")


@pytest.fixture
def home(pig: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store with a level-1 and a level-2 Pig match, as $TABLETAPE_HOME."""
    home = tmp_path / "store"
    ws = Workspace(home)
    for game in ("pig-replay", "pig-checked"):
        ws.new_match(game, {"a": "ana", "b": "ben"}, match_id=game)
        ws.append(game, b'{"type":"Rolled","by":"a"}\n{"type":"Landed","face":5}\n{"type":"Held","by":"a"}\n')
    monkeypatch.setenv("TABLETAPE_HOME", str(home))
    return home


@pytest.mark.parametrize("match_id", ["pig-replay", "pig-checked"])
def test_replay_shows_a_game_without_a_board_as_its_state(home: Path, match_id: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    shown = texts(open_replay(at, match_id))
    first = board_frames(at)[0]
    assert first["said"].startswith(f"the match starts: {'pig-replay' if match_id == 'pig-replay' else 'Pig, checked'} 1")
    assert ('<table class="state"><caption>state</caption><tr><th>seats</th><td>[&quot;a&quot;,&quot;b&quot;]</td></tr>'
            "<tr><th>scores</th><td>[0,0]</td></tr>") in first["board"]  # no view: the state's fields
    assert "no board: the state as the game keeps it" in first["side"]
    unchecked = "No event is checked: pig-replay is a level 1 game: audit needs level 2 (its `check` function)."
    assert (unchecked in shown) == (match_id == "pig-replay")


def test_record_starts_a_game_without_legal_moves(home: Path) -> None:
    at = AppTest.from_file(RECORD, default_timeout=60).run()
    box = next(w for w in at.selectbox if w.label == "Game")
    box.select_index(box.options.index("pig-replay"))
    at.run()
    at.text_area(key="rec_seats_pig-replay").input("a = ana\nb = ben")
    at.button(key="rec_start").click().run()
    assert not at.exception, [e.message for e in at.exception]
    handed = json.loads(at.get("bidi_component")[0].proto.json)
    assert (handed["panel"]["head"]["title"], handed["panel"]["head"]["match"]) == ("Playtest", "pig-replay@1 · a: ana, b: ben")
    assert '<caption>state</caption><tr><th>seats</th><td>[&quot;a&quot;,&quot;b&quot;]</td></tr>' in handed["still"]  # its state where the board would be
    [info] = [p["text"] for p in handed["panel"]["parts"] if p["kind"] == "info"]
    assert info.startswith("pig-replay is a level 1 game: pickers need level 4 (its `legal` function). Record what the table did under Any event")


def test_record_offers_a_level_four_games_moves_and_its_dice_pad(home: Path) -> None:
    at = AppTest.from_file(RECORD, default_timeout=60).run()
    box = next(w for w in at.selectbox if w.label == "Game")
    box.select_index(box.options.index("Pig"))
    at.run()
    at.button(key="rec_start").click().run()
    assert not at.exception, [e.message for e in at.exception]
    parts = json.loads(at.get("bidi_component")[0].proto.json)["panel"]["parts"]
    assert [p["choices"] for p in parts if p["kind"] == "buttons"] == [["Rolled", "Held"]]  # pressed, and its die rolled, in the browser


def test_matches_lists_a_match_whose_game_is_not_installed_and_shows_its_events(home: Path, pig: Path) -> None:
    shutil.rmtree(pig / "pig_levels-0.2.dist-info")  # uninstalled: the store keeps its logs
    forget_pig()
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception, [e.message for e in at.exception]
    missing = next(d.value for d in at.dataframe if "needs" in d.value.columns).set_index("match")
    assert dict(missing["needs"]) == {"pig-replay": f"needs the package {PACKAGE}", "pig-checked": f"needs the package {PACKAGE}"}
    assert "Matches whose game is not installed" in texts(at)
    at.selectbox(key="matches.missing_pick").set_value("pig-checked").run()
    shown = at.code[0].value.splitlines()
    assert shown[1:] == ["1. Rolled: by a", "2. Landed: face 5", "3. Held: by a"]


def test_compare_and_explore_key_a_designers_game_and_its_heatmaps_by_its_name(home: Path) -> None:
    (home / "variants").mkdir()
    (home / "variants" / "fifty.toml").write_text('extends = "pig-track@1"\ntitle = "first to 50"\n[params]\ntarget = 50\n')
    code, _, err = run(home, "compare-versions", "pig-track@1", "pig-track@fifty", "--games", "4", "--workers", "1")
    assert code == 0, err
    assert run(home, "sync")[0] == 0
    at = AppTest.from_file(COMPARE, default_timeout=120).run()
    box = at.selectbox(key="cmp_game")
    box.select_index(box.options.index("Pig on a track")).run()
    assert not at.exception, [e.message for e in at.exception]
    assert "**Where a die landed** (per 100 games; the darker, the more often)" in texts(at)
    drawn = [e.proto.body for e in at.get("markdown") if "a die landed at" in getattr(e.proto, "body", "")]
    assert len(drawn) == 2 and all("pig-track@" in svg for svg in drawn)  # A and B, each titled by its version

    at = AppTest.from_file(EXPLORE, default_timeout=120).run()
    at.selectbox(key="ex_query").set_value("places").run()
    at.text_input(key="ex_places_ruleset").input("pig-track").run()
    next(b for b in at.button if b.label == "Run").click().run()
    assert not at.exception, [e.message for e in at.exception]
    rows = at.dataframe[0].value
    assert set(rows["ruleset"]) == {"pig-track"} and set(rows["what"]) == {"a die landed"}
    assert set(rows["version"]) == {"1", "fifty"}

