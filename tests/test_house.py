"""The tree speaks of the game and the design, never of how the work on it was organised:
round numbers and issue numbers belong in git's history, where they stay true."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORGANISATION = re.compile(r"\bsessions? [0-9]|\bissue[- ]?[0-9]", re.IGNORECASE)
"""`session 9`, `issue 18`, `issue-18mm`: words about the work, not about the code."""


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.py", "*.md", "*.toml", "*.tmpl", "Makefile"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / name for name in listed if (ROOT / name).is_file()]


def test_no_code_or_doc_speaks_of_how_the_work_was_organised() -> None:
    files = tracked_text_files()
    assert len(files) > 100, "git ls-files found too few files to be this tree"
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}"
             for path in files
             for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
             if ORGANISATION.search(line) and path.name != "test_house.py"]
    assert not found, "\n".join(found)


def _statements(node: ast.AST) -> list[list[ast.stmt]]:
    """Every statement list under `node` that runs as part of it (not a nested def or class)."""
    blocks = []
    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
        block = getattr(node, field, None)
        if isinstance(block, list):
            blocks.append([s for s in block if isinstance(s, ast.stmt)])
            for child in block:
                if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    blocks += _statements(child)
    return blocks


def test_no_string_literal_stands_in_for_a_comment_inside_a_function() -> None:
    found = []
    for path in tracked_text_files():
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for number, block in enumerate(_statements(function)):  # the function's own body first
                for index, statement in enumerate(block):
                    docstring = number == 0 and index == 0
                    if (not docstring and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
                            and isinstance(statement.value.value, str)):
                        found.append(f"{path.relative_to(ROOT)}:{statement.lineno}")
    assert not found, "a string where a # comment belongs:\n" + "\n".join(found)


def test_every_module_says_its_job_and_every_public_function_of_the_api_says_why() -> None:
    silent = [str(path.relative_to(ROOT)) for path in tracked_text_files()
              if path.suffix == ".py" and path.read_text().strip() and not ast.get_docstring(ast.parse(path.read_text()))]
    assert not silent, "modules without a docstring: " + ", ".join(silent)
    undocumented = [f"{name}:{function.name}"
                    for name in ("rulesets/protocol.py", "projections/workspace.py")
                    for function in ast.walk(ast.parse((ROOT / name).read_text()))
                    if isinstance(function, ast.FunctionDef) and not function.name.startswith("_")
                    and not ast.get_docstring(function)]
    assert not undocumented, "public functions of the protocol and the Workspace without a docstring: " + ", ".join(undocumented)


def test_the_architecture_page_stays_a_description_of_at_most_600_lines() -> None:
    lines = (ROOT / "docs" / "architecture.md").read_text().splitlines()
    assert len(lines) <= 600, f"docs/architecture.md has {len(lines)} lines: describe the design, not its history"
