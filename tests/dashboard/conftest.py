"""Fixtures for the dashboard's page tests: a small store built once, copied for each test.

The store holds the shipped playtests (with their notes) and one short bot game per
registered game, and a synced warehouse, so every page has something real to show.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.board.scrub import CHUNK
from projections.corpus.demo import import_playtests, save_events
from projections.corpus.simulate import play
from projections.warehouse.sync import Warehouse
from projections.workspace import Workspace
from rulesets import registry

APP = str(Path(__file__).parents[2] / "dashboard" / "app" / "main.py")
CAFE = "playtest-2026-03-05-cafe"
"""A finished 2.5 playtest: an undo, a range error, a claimed hit, a ruled capture, notes."""


PLAYABLE = [name for name in registry.names() if registry.game(name).default_bot is not None]
"""Games a bot plays, so the fixture store has a game of each (a log-only game has no bot)."""


def bot_game_id(game: str) -> str:
    """Id of the fixture store's bot game of `game`."""
    return f"bot-{game}"


@pytest.fixture(scope="session")
def built_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store every page test starts from (built once per session)."""
    home = tmp_path_factory.mktemp("dashboard") / "store"
    ws = Workspace(home)
    import_playtests(ws)
    for name in PLAYABLE:
        rules = registry.resolve(name)
        events = play(rules, rules.ruleset.example_seats, seed=1, match_id=bot_game_id(name), max_events=150)
        save_events(ws, events)
    Warehouse(ws).sync()
    return home


@pytest.fixture
def home(built_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the store, as the dashboard's $TABLETAPE_HOME."""
    mine = tmp_path / "store"
    shutil.copytree(built_store, mine)
    monkeypatch.setenv("TABLETAPE_HOME", str(mine))
    return mine


@pytest.fixture
def app(home: Path) -> Iterator[AppTest]:
    """The dashboard's entry file, run once (it shows the Matches page)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    yield at


def open_page(at: AppTest, page: str, **state: Any) -> AppTest:
    """Switch to `pages/<page>.py` (with session_state set first) and run it."""
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(f"pages/{page}.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


BOARD_DRAWN = {"replay.ready": True}
"""Replay's session once the browser has drawn its first board (it says so by the trigger
`shown`, and the page then draws what lies below the board). AppTest runs no browser: a
test that reads what lies below the board starts there."""


def open_replay(at: AppTest, match_id: str | None = None) -> AppTest:
    """The Replay page of `match_id` (None: the page's own choice) as the browser leaves it
    once its first board is on screen."""
    return open_page(at, "replay", **BOARD_DRAWN, **({"match_id": match_id} if match_id else {}))


def by_label(widgets: Iterable[Any], label: str) -> Any:
    """The one widget with this label."""
    found = [w for w in widgets if getattr(w, "label", None) == label]
    assert len(found) == 1, f"{len(found)} widgets labelled {label!r}: {[getattr(w, 'label', None) for w in widgets]}"
    return found[0]


def texts(at: AppTest) -> str:
    """Every markdown, caption, alert and metric text on the page, joined (for `in` checks)."""
    parts: list[str] = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "title", "header", "subheader"):
        parts += [str(e.value) for e in getattr(at, kind)]
    parts += [f"{m.label}: {m.value}" for m in at.metric]
    return "\n".join(parts)


def run_ok(at: AppTest) -> AppTest:
    """Run the script and fail on any exception it raised."""
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def board_frames(at: AppTest) -> dict[int, dict[str, Any]]:
    """The frames Replay hands its board component (the chunk the browser asked for last),
    by seq, with their drawings put back as the browser draws them."""
    import json

    from dashboard.board.scrub import unpack

    [board] = at.get("bidi_component")
    return {frame["seq"]: frame for frame in unpack(json.loads(board.proto.json)["chunk"])}


def handed(at: AppTest) -> dict[str, Any]:
    """What Replay hands its board component."""
    import json

    [board] = at.get("bidi_component")
    return dict(json.loads(board.proto.json))


def ask(at: AppTest, start: int, size: int = CHUNK) -> dict[int, dict[str, Any]]:
    """What the browser does when it lacks frames: ask Replay for `size` of them from `start`."""
    at.session_state["replay.asked"] = (handed(at)["id"], start, size)
    return board_frames(run_ok(at))
