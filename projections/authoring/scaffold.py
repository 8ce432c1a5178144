"""A designer's own game from nothing: a package that installs, replays and audits at once.

`init_game` writes a complete level-2 game (a two-player dice race) with its pyproject and
entry point, a sample log and a test running the contract checks, from the templates that
ship inside tabletape (`rulesets/template/`), so an installed tabletape has them too.
`tabletape check-game` then says how far the game has got (`projections.authoring.contract.check_game`).
"""

from __future__ import annotations

import keyword
import re
import sys
from importlib.resources import files
from pathlib import Path

from events.errors import TabletapeError
from rulesets import registry

NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
"""A game's name is its package's name too: lower-case letters, digits and underscores."""

FILES = {"pyproject.toml": "pyproject.toml.tmpl", "{name}/__init__.py": "__init__.py.tmpl",
         "{name}/game.py": "game.py.tmpl", "sample.jsonl": "sample.jsonl.tmpl", "test_game.py": "test_game.py.tmpl"}
"""Each file written -> the template it is made from."""


class GameNameError(TabletapeError):
    """A name a new game cannot take, or a folder it cannot be written into."""


def title_of(name: str) -> str:
    """`dice_race` -> `Dice Race`."""
    return " ".join(word.capitalize() for word in name.split("_") if word)


def refusal(name: str, directory: Path) -> str | None:
    """Why `init_game` would not write `name` into `directory`, in one line; None if it would."""
    if not NAME.fullmatch(name) or keyword.iskeyword(name):
        return (f"{name!r} cannot name a game: use lower-case letters, digits and underscores, "
                "starting with a letter (it is the package's name too), e.g. dice_race")
    if name in sys.stdlib_module_names or name in {"events", "projections", "rulesets", "dashboard", "tests"}:
        return f"{name!r} cannot name a game: it is the name of a module Python or tabletape already has"
    if name in registry.names():
        return f"{name!r} cannot name a game: an installed game has it already (`tabletape rulesets`)"
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        return f"{directory}: not an empty folder; choose another with --dir"
    return None


def init_game(name: str, directory: Path) -> list[Path]:
    """Write the package of a new game `name` into `directory` (new or empty); the files written."""
    problem = refusal(name, directory)
    if problem is not None:
        raise GameNameError(problem)
    templates = files("rulesets") / "template"
    written = []
    for target, template in FILES.items():
        path = directory / target.format(name=name)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = templates.joinpath(template).read_text(encoding="utf-8")
        path.write_text(text.replace("{{name}}", name).replace("{{title}}", title_of(name)), encoding="utf-8")
        written.append(path)
    return written
