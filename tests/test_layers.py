"""The layers point down (events -> rulesets -> projections -> dashboard), and no module
imports one that imports it back, at load or inside a function: a reader can start at the
bottom and meet nothing from above, and any module can be read without its dependants."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("events", "rulesets", "projections", "dashboard")
"""Bottom to top: a module may import its own layer and those below it, never one above."""


def modules() -> dict[str, Path]:
    """Every module of the four packages, by dotted name (a package by its own name)."""
    found = {}
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(tree: ast.AST, known: dict[str, Path]) -> set[str]:
    """The modules of `known` an import anywhere in `tree` names (in a function or under
    TYPE_CHECKING too; `from pkg import module` names the module)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names if alias.name in known}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{alias.name}" for alias in node.names} & set(known)
            out |= subs or ({node.module} & set(known))
    return out


def test_no_module_imports_a_layer_above_its_own() -> None:
    known = modules()
    upward = [f"{name} imports {target}" for name, path in known.items()
              for target in imported(ast.parse(path.read_text()), known)
              if LAYERS.index(target.split(".")[0]) > LAYERS.index(name.split(".")[0])]
    assert not upward, upward


def test_no_module_imports_one_that_imports_it_back() -> None:
    known = modules()
    graph = {name: {t for t in imported(ast.parse(path.read_text()), known)
                    if not name.startswith(t + ".")}  # a package's own __init__ is loading already
             for name, path in known.items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append([*trail[trail.index(target):], target])
            elif target not in state:
                visit(target, [*trail, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, [" -> ".join(cycle) for cycle in cycles[:5]]
