"""The match catalogue: listing, filtering and counting matches from the warehouse.

What the dashboard's Matches page shows (one row per match with its result, violations
and notes; the values a filter can take; counts per game, version and source) lives here,
so pages hold no SQL. `signature` tells cheaply whether the store changed since the
warehouse was last synced.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from events.errors import TabletapeError
from projections.warehouse.queries import Result
from projections.warehouse.sync import Warehouse
from projections.workspace import Workspace

NO_WINNER = "(none yet)"
"""How an unfinished match shows in the winner filter."""
DRAW = "(draw)"

_LIST_SQL = """
WITH note_counts AS (
    SELECT match_id, count(*) AS notes FROM notes WHERE NOT removed GROUP BY match_id
)
SELECT m.match_id, m.ruleset AS game, m.version, m.source, m.branch_of, m.title,
       m.started_at, m.events, m.turns,
       CASE WHEN m.draw THEN '(draw)' WHEN m.winner IS NULL THEN '(none yet)' ELSE m.winner END AS winner,
       CASE WHEN NOT m.declared THEN '' WHEN m.declared_draw THEN '(draw)'
            ELSE coalesce(m.declared_winner, '(abandoned)') END AS declared,
       m.result_agrees, m.violations, coalesce(n.notes, 0) AS notes
FROM matches m LEFT JOIN note_counts n USING (match_id)
WHERE ($games IS NULL OR list_contains($games, m.ruleset))
  AND ($versions IS NULL OR list_contains($versions, m.version))
  AND ($sources IS NULL OR list_contains($sources, m.source))
  AND ($winners IS NULL OR list_contains($winners,
        CASE WHEN m.draw THEN '(draw)' WHEN m.winner IS NULL THEN '(none yet)' ELSE m.winner END))
  AND ($since IS NULL OR CAST(m.started_at AS DATE) >= $since)
  AND ($until IS NULL OR CAST(m.started_at AS DATE) <= $until)
ORDER BY m.started_at DESC, m.match_id
"""


@dataclass(frozen=True)
class MatchFilter:
    """Which matches to list; an empty choice means every value."""

    games: tuple[str, ...] = ()
    versions: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    """Side names, `(draw)` or `(none yet)`."""
    since: date | None = None
    until: date | None = None

    def params(self) -> dict[str, Any]:
        """The query parameters (None where every value is wanted)."""
        return {
            "games": list(self.games) or None, "versions": list(self.versions) or None,
            "sources": list(self.sources) or None, "winners": list(self.winners) or None,
            "since": self.since, "until": self.until,
        }


@dataclass(frozen=True)
class Facets:
    """The values each filter can take in this store."""

    games: list[str] = field(default_factory=list)
    versions: dict[str, list[str]] = field(default_factory=dict)
    """Per game, its versions and variants that have matches."""
    sources: list[str] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    first: date | None = None
    last: date | None = None


@dataclass(frozen=True)
class Totals:
    """How many matches, events and rule violations a filtered list holds."""

    matches: int
    events: int
    violations: int
    notes: int


def _query(warehouse: Warehouse, sql: str, params: dict[str, Any] | None = None) -> Result:
    con = warehouse.connect(sandboxed=True)
    try:
        cursor = con.execute(sql, params) if params else con.execute(sql)
        return Result(columns=[d[0] for d in cursor.description or ()], rows=cursor.fetchall())
    finally:
        con.close()


def list_matches(warehouse: Warehouse, where: MatchFilter | None = None) -> Result:
    """One row per match: game, version, source, title, start, length, winner by the rules,
    declared winner, whether they agree, rule violations (errors) and live notes."""
    if where is not None and where.since and where.until and where.since > where.until:
        raise TabletapeError(f"date filter: {where.since} is after {where.until}")
    return _query(warehouse, _LIST_SQL, (where or MatchFilter()).params())


def totals(result: Result) -> Totals:
    """Sums over a `list_matches` result."""
    index = {name: i for i, name in enumerate(result.columns)}
    return Totals(
        matches=len(result.rows),
        events=sum(row[index["events"]] or 0 for row in result.rows),
        violations=sum(row[index["violations"]] or 0 for row in result.rows),
        notes=sum(row[index["notes"]] or 0 for row in result.rows),
    )


def counts(result: Result) -> Result:
    """Matches, events and violations per game, version and source of a `list_matches` result."""
    index = {name: i for i, name in enumerate(result.columns)}
    groups: dict[tuple[str, str, str], list[int]] = {}
    for row in result.rows:
        key = (row[index["game"]], row[index["version"]], row[index["source"]])
        sums = groups.setdefault(key, [0, 0, 0])
        sums[0] += 1
        sums[1] += row[index["events"]] or 0
        sums[2] += row[index["violations"]] or 0
    rows = [(*key, *sums) for key, sums in sorted(groups.items())]
    return Result(columns=["game", "version", "source", "matches", "events", "violations"], rows=rows)


def facets(warehouse: Warehouse) -> Facets:
    """Every game, version, source and winner present, and the first and last match date."""
    rows = _query(warehouse, """
        SELECT ruleset, version, source,
               CASE WHEN draw THEN '(draw)' WHEN winner IS NULL THEN '(none yet)' ELSE winner END,
               CAST(started_at AS DATE)
        FROM matches""").rows
    versions: dict[str, set[str]] = {}
    for game, version, *_ in rows:
        versions.setdefault(game, set()).add(version)
    dates = [row[4] for row in rows if row[4] is not None]
    return Facets(
        games=sorted(versions), versions={g: sorted(v, key=_version_key) for g, v in versions.items()},
        sources=sorted({row[2] for row in rows}), winners=sorted({row[3] for row in rows}),
        first=min(dates) if dates else None, last=max(dates) if dates else None,
    )


def _version_key(version: str) -> tuple[Any, ...]:
    """1.5 < 2.0 < 2.10, variants (names) after numbers."""
    parts = version.split(".")
    if all(p.isdigit() for p in parts):
        return (0, *map(int, parts))
    return (1, version)


def signature(ws: Workspace) -> tuple[Any, ...]:
    """A cheap fingerprint of every log, note stream and batch in the store: when it is
    unchanged, so is everything a sync would read."""
    found: list[Any] = []
    for folder in ("logs", "notes"):
        path = ws.home / folder
        if path.is_dir():
            found += sorted((folder, e.name, st.st_size, st.st_mtime_ns) for e in os.scandir(path) if (st := e.stat()))
    batches = ws.home / "batches"
    if batches.is_dir():
        found += sorted(("batch", e.name) for e in os.scandir(batches) if e.is_dir())
    return tuple(found)
