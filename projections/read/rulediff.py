"""The rule diff of two versions of a game: params side by side with provenance, and the
changelogs that lead from one to the other.

Versions are data (`Params` plus a changelog per version), so the diff is a plain
comparison of `Workspace.describe` for both; designer variants diff like versions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from events.errors import TabletapeError
from projections.workspace import Workspace


@dataclass(frozen=True)
class ParamRow:
    """One param in both versions: values, where each comes from, and whether it changed."""

    name: str
    a: str
    b: str
    source_a: str
    source_b: str
    note_a: str
    note_b: str

    @property
    def changed(self) -> bool:
        """Whether the value differs between the versions."""
        return self.a != self.b


@dataclass(frozen=True)
class Entry:
    """One changelog line, with the version that made it."""

    version: str
    rules: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class RuleDiff:
    """Everything a designer compares before playing two versions against each other."""

    a: str
    b: str
    params: list[ParamRow]
    changelog_a: list[Entry]
    """What version a changed from the one before it."""
    changelog_b: list[Entry]
    between: list[Entry]
    """Every changelog line after a's base version up to b's, oldest first (going back in
    history when b is the older one): the path of design changes from a to b."""

    @property
    def changed(self) -> list[ParamRow]:
        """Only the params whose value differs."""
        return [row for row in self.params if row.changed]


def show(value: Any) -> str:
    """A param value as text that compares equal exactly when the values do."""
    plain = msgspec.to_builtins(value)
    return plain if isinstance(plain, str) else msgspec.json.encode(plain).decode()


def rule_diff(ws: Workspace, a: str, b: str) -> RuleDiff:
    """Diff versions (or variants) `a` and `b` of one game."""
    rules_a, rules_b = ws.rules(a), ws.rules(b)
    if rules_a.ruleset.name != rules_b.ruleset.name:
        raise TabletapeError(f"{rules_a.spec} and {rules_b.spec} are versions of different games")
    da, db = ws.describe(rules_a.spec), ws.describe(rules_b.spec)
    pb = {p["name"]: p for p in db["params"]}
    rows = [ParamRow(name=p["name"], a=show(p["value"]), b=show(pb[p["name"]]["value"]),
                     source_a=p["source"], source_b=pb[p["name"]]["source"], note_a=p["note"], note_b=pb[p["name"]]["note"])
            for p in da["params"]]
    order = list(rules_a.ruleset.versions)
    lo, hi = sorted((order.index(rules_a.base), order.index(rules_b.base)))
    path = [_entries(ws, f"{rules_a.ruleset.name}@{v}", v) for v in order[lo + 1 : hi + 1]]
    between = [e for entries in path for e in entries]
    return RuleDiff(a=rules_a.spec, b=rules_b.spec, params=rows,
                    changelog_a=_entries(ws, rules_a.spec, rules_a.base), changelog_b=_entries(ws, rules_b.spec, rules_b.base),
                    between=between)


def _entries(ws: Workspace, spec: str, version: str) -> list[Entry]:
    return [Entry(version=version, rules=tuple(c["rules"]), text=c["text"]) for c in ws.describe(spec)["changelog"]]
