"""Installing a designer's own game (Pig, in tests/plugin_games/pig, or an example such as
examples/gofish) for one test, as pip would."""

from __future__ import annotations

import importlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesets import registry

PIG = Path(__file__).parent / "plugin_games" / "pig"
GOFISH = Path(__file__).parent.parent / "examples" / "gofish" / "gofish"
PACKAGES = ("pig", "gofish")
"""The games' packages tests install, unloaded after each test."""
GAMES = {"pig-replay": "pig:REPLAY", "pig": "pig:RULESET", "pig-bots": "pig:PLAYABLE"}


def install(site: Path, games: dict[str, str], *, name: str = "pig", version: str = "0.2", code: Path = PIG) -> Path:
    """The distribution `name` installed into `site` as pip would: its code (the package
    folder `code`) and a dist-info declaring its games as `tabletape.games` entry points."""
    if not (site / code.name).exists():
        shutil.copytree(code, site / code.name, ignore=shutil.ignore_patterns("__pycache__"))
    dist = site / f"{name}-{version}.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (dist / "entry_points.txt").write_text("[tabletape.games]\n" + "".join(f"{g} = {target}\n" for g, target in games.items()))
    return site


def forget_pig() -> None:
    """Unload the installed games and look for games again (the next test installs its own)."""
    for module in [m for m in sys.modules if m.split(".")[0] in PACKAGES]:
        del sys.modules[module]
    importlib.invalidate_caches()
    registry.refresh()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    """A folder on sys.path where packages are installed for this test only."""
    where = tmp_path / "site"
    where.mkdir()
    sys.path.insert(0, str(where))
    forget_pig()
    yield where
    sys.path.remove(str(where))
    forget_pig()


@pytest.fixture
def pig(site: Path) -> Path:
    """Pig at levels 1, 2 and 4, installed as the package `pig` 0.2."""
    install(site, GAMES)
    registry.refresh()
    return site


