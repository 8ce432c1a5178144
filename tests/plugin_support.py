"""A designer's own games in the tests: the examples (examples/pig at level 4, examples/gofish),
which `make setup` installs through their `tabletape.games` entry points as a designer would,
and Pig at levels 1 and 2 and on a track with heatmaps (tests/plugin_games/pig_levels),
installed for one test as pip would, as the distribution `pig-levels` 0.2."""

from __future__ import annotations

import importlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesets import registry

EXAMPLES = Path(__file__).parent.parent / "examples"
LEVELS = Path(__file__).parent / "plugin_games" / "pig_levels"
PACKAGES = ("pig_levels", "solo")
"""The packages tests install for one test, unloaded after each."""
GAMES = {"pig-replay": "pig_levels:REPLAY", "pig-checked": "pig_levels:CHECKED", "pig-track": "pig_levels:TRACK"}
PACKAGE = "pig-levels 0.2"
"""The distribution those games come from, as a log names it."""


def install(site: Path, games: dict[str, str], *, name: str = "pig-levels", version: str = "0.2", code: Path = LEVELS) -> Path:
    """The distribution `name` installed into `site` as pip would: its code (the package
    folder `code`) and a dist-info declaring its games as `tabletape.games` entry points."""
    if not (site / code.name).exists():
        shutil.copytree(code, site / code.name, ignore=shutil.ignore_patterns("__pycache__"))
    dist = site / f"{name.replace('-', '_')}-{version}.dist-info"  # as pip names it: `pig-levels-0.2` would read as `pig`
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (dist / "entry_points.txt").write_text("[tabletape.games]\n" + "".join(f"{g} = {target}\n" for g, target in games.items()))
    return site


def examples_installed() -> None:
    """Fail, saying how to fix it, where the examples are not installed in this environment."""
    missing = [game for game in ("pig", "gofish") if game not in registry.names()]
    assert not missing, f"examples/{' and examples/'.join(missing)} not installed: run `make setup`"


def forget_pig() -> None:
    """Unload the games installed for one test and look for games again."""
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
    """Pig at level 4 (the example) and, installed into `site`, at levels 1 and 2."""
    examples_installed()
    install(site, GAMES)
    registry.refresh()
    return site
