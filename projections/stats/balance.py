"""Two cohorts of one game out of the warehouse, and their balance verdicts.

A cohort is the matches of one version (or variant) of one kind: bot games, or human
logs (playtests and imports), never both (projections/stats/verdicts.py refuses to pool them).
Optionally only some simulation batches: compare-versions compares exactly the games it
just played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from events.errors import TabletapeError
from projections.stats import verdicts
from projections.stats.verdicts import Verdict
from projections.warehouse.queries import run_named
from projections.warehouse.sync import Warehouse
from projections.workspace import Workspace

KINDS = {"bots": True, "humans": False}
"""Cohort kinds and the `bots` parameter of the match_outcomes query."""


@dataclass(frozen=True)
class BalanceReport:
    """Cohorts A and B compared: every verdict, and where their games are."""

    a: str
    b: str
    kind: str
    """"bots" or "humans"."""
    verdicts: list[Verdict]
    games: tuple[int, int]
    batches: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    stored: str = ""
    """Where the games are (the store's batches folder), for a comparison that simulated them."""
    rounds: list[dict[str, Any]] = field(default_factory=list)
    """For --until-decided: each look's games and decisions."""

    def significant(self) -> list[str]:
        """Measures whose Holm-corrected p-value is under 5%."""
        return [v.key for v in self.verdicts if v.significant]

    def rows(self) -> list[dict[str, Any]]:
        """One row per verdict (the CLI table, CSV and JSON)."""
        return verdicts.table(self.verdicts)

    def sentences(self) -> list[str]:
        """Each verdict in words, with its sample-size advice."""
        return [f"{v.question} {verdicts.sentence(v, self.a, self.b)}" + ("" if v.missing else f" {verdicts.advice(v).capitalize()}.")
                for v in self.verdicts]

    def heading(self) -> str:
        """What is compared with what (the same order as the last line and the table: B minus A)."""
        kind = "bot games" if self.kind == "bots" else "human playtests"
        return f"{self.a} (A) vs {self.b} (B), {kind}: {self.games[0]} and {self.games[1]} games; differences are B - A"

    def conclusion(self) -> str:
        """The last line: what differs, in the heading's order."""
        found = self.significant()
        return (f"{self.a} vs {self.b}: significant differences (Holm-corrected, 5%) in "
                + (", ".join(found) if found else "nothing"))


def check_detect(detect: float) -> None:
    """Refuse a games-needed target that is not a change in a rate (before anything is played)."""
    if not 0 < detect < 1:
        raise TabletapeError(f"--detect {detect}: a change in a rate between 0 and 1 (0.05 is 5 points)")


def cohort(wh: Warehouse, ruleset: str, version: str, *, kind: str, batches: Sequence[str] | None = None,
           branches: bool = False) -> list[dict[str, Any]]:
    """The per-match rows of one cohort (all of them, or only those of `batches`); what-if
    branches only when asked, since a line of play a designer tried is not a game a table chose."""
    if kind not in KINDS:
        raise TabletapeError(f"cohort kind {kind!r}: choose one of {', '.join(KINDS)}")
    rows = run_named(wh, "match_outcomes", {"ruleset": ruleset, "version": version, "bots": KINDS[kind], "branches": branches}).records()
    if batches is not None:
        keep = set(batches)
        rows = [r for r in rows if r["batch"] in keep]
    return rows


def compare_cohorts(ws: Workspace, a: str, b: str, *, kind: str, batches: tuple[Sequence[str], Sequence[str]] | None = None,
                    stored: str = "", wh: Warehouse | None = None, detect: float = verdicts.DETECT,
                    branches: bool = False) -> BalanceReport:
    """Every verdict for versions (or variants) `a` and `b` of one game, from the warehouse;
    `detect` is the change in a rate the games-needed advice is about."""
    rules_a, rules_b = ws.rules(a), ws.rules(b)
    if rules_a.ruleset.name != rules_b.ruleset.name:
        raise TabletapeError(f"{rules_a.spec} and {rules_b.spec} are versions of different games")
    check_detect(detect)
    if rules_a.spec == rules_b.spec:
        raise TabletapeError(f"{rules_a.spec} compared with itself: choose two different versions or variants")
    wh = wh or Warehouse(ws)
    rows_a = cohort(wh, rules_a.ruleset.name, rules_a.version, kind=kind, batches=batches[0] if batches else None, branches=branches)
    rows_b = cohort(wh, rules_b.ruleset.name, rules_b.version, kind=kind, batches=batches[1] if batches else None, branches=branches)
    return BalanceReport(a=rules_a.spec, b=rules_b.spec, kind=kind, verdicts=verdicts.verdicts(rows_a, rows_b, detect=detect),
                         games=(len(rows_a), len(rows_b)),
                         batches=(tuple(batches[0]), tuple(batches[1])) if batches else ((), ()), stored=stored)
