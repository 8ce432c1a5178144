"""The layers point down (events -> rulesets -> projections -> dashboard), and no two modules
need each other to load: a reader can start at the bottom and meet nothing from above."""

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


def imported(tree: ast.AST, known: dict[str, Path], *, top_level_only: bool) -> set[str]:
    """The modules of `known` an import names (`from pkg import module` names the module)."""
    nodes = ast.iter_child_nodes(tree) if top_level_only else ast.walk(tree)
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names if alias.name in known}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{alias.name}" for alias in node.names} & set(known)
            out |= subs or ({node.module} & set(known))
    return out


def test_no_module_imports_a_layer_above_its_own() -> None:
    known = modules()
    upward = [f"{name} imports {target}" for name, path in known.items()
              for target in imported(ast.parse(path.read_text()), known, top_level_only=False)
              if LAYERS.index(target.split(".")[0]) > LAYERS.index(name.split(".")[0])]
    assert not upward, upward


def test_no_two_modules_need_each_other_to_load() -> None:
    known = modules()
    graph = {name: {t for t in imported(ast.parse(path.read_text()), known, top_level_only=True)
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
