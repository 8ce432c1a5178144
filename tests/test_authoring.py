"""A designer goes from nothing to an audited log of their own game: `init-game` writes a
package that installs and audits at once, and `check-game` holds any installed game to the
contract its parts call for (the example is examples/pig, at level 4)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesets import registry
from tests.cli_support import run
from tests.plugin_support import examples_installed, site

__all__ = ["site"]  # fixture

EXAMPLES = Path(__file__).parent.parent / "examples"


def install(site: Path, project: Path) -> str:
    """The package in `project` installed into `site` as pip would: its code, and a dist-info
    with the entry points its own pyproject.toml declares. Returns the distribution's name."""
    meta = tomllib.loads((project / "pyproject.toml").read_text())
    name, version = meta["project"]["name"], meta["project"]["version"]
    for package in meta["tool"]["setuptools"]["packages"]:
        shutil.copytree(project / package, site / package, ignore=shutil.ignore_patterns("__pycache__"))
    dist = site / f"{name}-{version}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    games = meta["project"]["entry-points"]["tabletape.games"]
    (dist / "entry_points.txt").write_text("[tabletape.games]\n" + "".join(f"{g} = {t}\n" for g, t in games.items()))
    registry.refresh()
    return name


@pytest.fixture
def games(site: Path) -> Iterator[Path]:
    """`site`, and every game module loaded from it forgotten afterwards."""
    yield site
    for module in [m for m in sys.modules if m.split(".")[0] == "dice_race"]:
        del sys.modules[module]
    registry.refresh()


@pytest.fixture
def dice_race(games: Path, tmp_path: Path) -> Path:
    """A new game written by `init-game` and installed: the folder it was written into."""
    code, out, err = run(tmp_path / "store", "init-game", "dice_race", "--dir", str(tmp_path / "dice_race"))
    assert code == 0, err
    assert "wrote dice_race, a level 2 game" in out
    install(games, tmp_path / "dice_race")
    return tmp_path / "dice_race"


def test_a_new_game_is_listed_and_passes_check_game_at_level_two(dice_race: Path, tmp_path: Path) -> None:
    home = tmp_path / "store"
    assert "dice_race  (Dice Race; bare name = 1; level 2; next: view" in run(home, "rulesets")[1]
    code, out, err = run(home, "check-game", "dice_race", "--log", str(dice_race / "sample.jsonl"))
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[0] == "dice_race: level 2"
    assert ("  passed   check names the game's rule ids: 1 finding(s) in the log(s) given, each naming a rule of dice_race "
            "declared in its table of 5 rule ids") in lines
    assert "  passed   apply never changes its input: over 1 log(s), 16 events" in lines
    assert "  skipped  a seeded bot game finishes clean: the game has no `legal`" in lines
    assert "  skipped  legal is exactly what check accepts: the game has no `candidates` (optional)" in lines
    assert "  legal (level 4): pickers when recording, a random bot, simulate and compare-versions" in lines
    assert lines[-1].endswith("0 failed, 7 skipped")


def test_the_sample_log_of_a_new_game_audits_with_its_one_planted_mistake(dice_race: Path, tmp_path: Path) -> None:
    home = tmp_path / "store"
    assert run(home, "new", "--ruleset", "dice_race", "--seats", "red=ana,blue=ben", "--id", "first")[0] == 0
    code, out, err = run(home, "append", "first", "--file", str(dice_race / "sample.jsonl"))
    assert code == 0, err
    code, out, _ = run(home, "audit", "first")
    assert code == 1
    findings = [line for line in out.splitlines() if line.startswith("seq ")]
    assert findings == ["seq     8  error    dice_race/turn.order  it is blue's turn, not red's"]
    assert "result OK: declared result matches the rules: red won: red reached 20" in out


def test_the_test_a_new_game_comes_with_passes(dice_race: Path) -> None:
    spec = importlib.util.spec_from_file_location("dice_race_test_game", dice_race / "test_game.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tests = [getattr(module, name) for name in dir(module) if name.startswith("test_")]
    assert len(tests) == 2
    for test in tests:
        test()


def test_init_game_refuses_a_folder_in_use_and_a_name_that_cannot_be_a_package(tmp_path: Path) -> None:
    home, used = tmp_path / "store", tmp_path / "used"
    used.mkdir()
    (used / "notes.txt").write_text("mine\n")
    code, out, err = run(home, "init-game", "dice_race", "--dir", str(used))
    assert (code, out, err) == (2, "", f"error: {used}: not an empty folder; choose another with --dir\n")
    assert [p.name for p in used.iterdir()] == ["notes.txt"]
    for name in ("Dice-Race", "class", "random", "mortalgate"):
        code, out, err = run(home, "init-game", name, "--dir", str(tmp_path / "new"))
        assert code == 2 and err.startswith(f"error: {name!r} cannot name a game: ") and err.count("\n") == 1, err
    assert not (tmp_path / "new").exists()


def test_check_game_says_the_example_pig_reaches_level_four(tmp_path: Path) -> None:
    examples_installed()  # through its entry point, by `make setup`
    code, out, err = run(tmp_path / "store", "check-game", "pig", "--log", str(EXAMPLES / "pig" / "sample.jsonl"))
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[0] == "pig: level 4"
    assert any(line.startswith("  passed   a seeded bot game finishes clean: the random bot finished in") for line in lines)
    assert any(line.startswith("  passed   every chance outcome offered is accepted: ") for line in lines)
    assert any(line.startswith("  passed   one table mistake gives one finding: ") for line in lines)
    assert "  describe (level 5): events in the game's own words in every event list" in lines


def test_check_game_fails_a_broken_game_naming_each_check_it_breaks(dice_race: Path, tmp_path: Path) -> None:
    game = dice_race / "dice_race" / "game.py"
    text = game.read_text().replace("import msgspec\n", "import random\n\nimport msgspec\n", 1)
    undeclared = "[Violation(seq=event.seq, rule=rule, message=message)]"  # rule ids of no game, in no table
    game.write_text(text.replace("[RULE_IDS.violation(event, rule, message)]", undeclared))
    shutil.rmtree(tmp_path / "site" / "dice_race")
    shutil.copytree(dice_race / "dice_race", tmp_path / "site" / "dice_race")
    code, out, _ = run(tmp_path / "store", "check-game", "dice_race", "--log", str(dice_race / "sample.jsonl"))
    assert code == 1
    failed = [line for line in out.splitlines() if line.startswith("  failed")]
    assert failed == [
        f"  failed   rules modules are pure: {tmp_path / 'site' / 'dice_race' / 'game.py'}: imports {{'random'}}",
        "  failed   check names the game's rule ids: seq 8: the rule id 'turn.order' does not start with `dice_race/`",
    ]
    assert out.splitlines()[-1] == "7 passed, 2 failed, 7 skipped"


def test_check_game_of_a_game_not_installed_says_so_in_one_line(tmp_path: Path) -> None:
    code, _, err = run(tmp_path / "store", "check-game", "no_such_game")
    assert code == 2 and err.startswith("error: unknown ruleset 'no_such_game'; known: ") and err.count("\n") == 1


def test_every_command_the_authoring_guide_gives_is_one_tabletape_has() -> None:
    import re

    from dashboard.cli.commands import cli

    guide = (Path(__file__).parent.parent / "docs" / "authoring.md").read_text()
    named = set(re.findall(r"(?:^|`)tabletape ([a-z][a-z-]*)", guide, flags=re.MULTILINE))
    assert {"init-game", "check-game", "new", "append", "audit", "simulate", "compare-versions"} <= named
    assert named <= set(cli.commands)
