"""Named queries (the `.sql` files beside this module) and the read-only SQL box.

A named query's header says what it answers and which parameters it takes, with their
defaults: `-- params: ruleset = NULL, source = 'playtest'`. Values given by the user
override the defaults; every query runs on a read-only connection to the warehouse
replica that cannot read or write files or attach databases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from events.errors import TabletapeError
from projections.sql_limits import SqlLimits, run_interruptible
from projections.warehouse import Warehouse

QUERY_DIR = Path(__file__).parent / "queries"
_PARAM = re.compile(r"(\w+)\s*=\s*('(?:[^']*)'|NULL|-?\d+(?:\.\d+)?)")


class QueryError(TabletapeError):
    """A query that cannot run: unknown name or parameter, or an SQL error."""


@dataclass(frozen=True)
class NamedQuery:
    """One analysis: its name, the question it answers, its parameters and SQL."""

    name: str
    description: str
    params: dict[str, Any]
    sql: str


@dataclass(frozen=True)
class Result:
    """Column names and rows."""

    columns: list[str]
    rows: list[tuple[Any, ...]]

    def records(self) -> list[dict[str, Any]]:
        """Rows as dicts (for JSON)."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


def _literal(text: str) -> Any:
    if text == "NULL":
        return None
    if text.startswith("'"):
        return text[1:-1]
    return float(text) if "." in text else int(text)


def load(path: Path) -> NamedQuery:
    """Parse a named query file's header comments."""
    sql = path.read_text()
    comments = [line[2:].strip() for line in sql.splitlines() if line.startswith("--")]
    params: dict[str, Any] = {}
    description = []
    for line in comments:
        if line.startswith("params:"):
            params = {name: _literal(value) for name, value in _PARAM.findall(line)}
        else:
            description.append(line)
    return NamedQuery(name=path.stem, description=" ".join(description), params=params, sql=sql)


def named_queries() -> dict[str, NamedQuery]:
    """Every named query, by name."""
    return {q.name: q for q in map(load, sorted(QUERY_DIR.glob("*.sql")))}


def coerce(value: str) -> Any:
    """A command-line value: NULL, a number, or text."""
    if value.upper() == "NULL":
        return None
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def run_named(warehouse: Warehouse, name: str, given: dict[str, Any] | None = None) -> Result:
    """Run a named query with its defaults overridden by `given`."""
    queries = named_queries()
    if name not in queries:
        raise QueryError(f"unknown query {name!r}; named queries: {', '.join(queries)}")
    query = queries[name]
    unknown = set(given or {}) - set(query.params)
    if unknown:
        raise QueryError(f"query {name} has no parameter {sorted(unknown)[0]!r}; its parameters: {', '.join(query.params) or 'none'}")
    return _run(warehouse, query.sql, {**query.params, **(given or {})}, where=f"query {name}")


def run_sql(warehouse: Warehouse, sql: str, limits: SqlLimits | None = None) -> Result:
    """Ad-hoc SQL on the sandboxed, read-only connection, under the time, memory and row
    limits (`projections/sql_limits.py`)."""
    if not re.sub(r"[\s;]", "", sql):
        raise QueryError("--sql: no statement given")
    return _run(warehouse, sql, None, where="--sql", limits=limits or SqlLimits.from_env(), cap_rows=True)


def _run(warehouse: Warehouse, sql: str, params: dict[str, Any] | None, *, where: str,
         limits: SqlLimits | None = None, cap_rows: bool = False) -> Result:
    limits = limits or SqlLimits.from_env()
    con = warehouse.connect(sandboxed=True, memory_limit=limits.memory)

    def fetch() -> Result:
        cursor = con.execute(sql, params) if params else con.execute(sql)
        columns = [d[0] for d in cursor.description or ()] if cursor is not None else []
        if cursor is None or not columns:
            return Result(columns=[], rows=[])
        rows = cursor.fetchmany(limits.rows + 1) if cap_rows else cursor.fetchall()
        if cap_rows and len(rows) > limits.rows:
            raise QueryError(f"{where}: more than {limits.rows:,} rows (TABLETAPE_SQL_ROWS); add a LIMIT or aggregate")
        return Result(columns=columns, rows=rows)

    try:
        return run_interruptible(con, fetch, seconds=limits.seconds, where=where)
    except duckdb.Error as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise QueryError(f"{where}: {first}") from None
    finally:
        con.close()
