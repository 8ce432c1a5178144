"""Named queries (the `.sql` files beside this module) and the read-only SQL box.

A named query's header says what it answers and which parameters it takes, each with its
type and default: `-- params: ruleset: text = NULL, games: int = 10`. Values given by the
user are converted to the declared type (so `version=2.5` stays the text '2.5', and
`games=ten` is refused by name) and override the defaults; every query runs on a
read-only connection to the warehouse replica that cannot read or write files or attach
databases.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from events.errors import TabletapeError
from projections.warehouse.sql_limits import SqlLimits, run_interruptible
from projections.warehouse.sync import Warehouse

QUERY_DIR = Path(__file__).parent / "queries"
_PARAM = re.compile(r"(\w+)\s*:\s*(\w+)\s*=\s*('(?:[^']*)'|NULL|true|false|-?\d+(?:\.\d+)?)")
_TRUE, _FALSE = ("true", "yes", "1"), ("false", "no", "0")


class QueryError(TabletapeError):
    """A query that cannot run: unknown name or parameter, or an SQL error."""


@dataclass(frozen=True)
class Param:
    """One declared parameter of a named query: its type (text, int, float or bool) and default."""

    name: str
    kind: str
    default: Any

    def parse(self, value: Any, *, where: str) -> Any:
        """`value` (text from the command line or a form, or already typed) as this type;
        NULL or None means "any"."""
        if value is None or (isinstance(value, str) and value.strip().upper() == "NULL"):
            return None
        text = str(value).strip()
        try:
            if self.kind == "text":
                return text
            if self.kind == "bool":
                if text.lower() not in (*_TRUE, *_FALSE):
                    raise ValueError(text)
                return text.lower() in _TRUE
            return int(text) if self.kind == "int" else float(text)
        except ValueError:
            raise QueryError(f"{where}: parameter {self.name} must be {_KINDS[self.kind]}, got {text!r}") from None


_KINDS = {"text": "text", "int": "a whole number", "float": "a number", "bool": "true or false"}


@dataclass(frozen=True)
class NamedQuery:
    """One analysis: its name, the question it answers, its typed parameters and SQL."""

    name: str
    description: str
    params: dict[str, Param]
    sql: str

    def defaults(self) -> dict[str, Any]:
        """Each parameter's default value."""
        return {name: p.default for name, p in self.params.items()}


@dataclass(frozen=True)
class Result:
    """Column names and rows."""

    columns: list[str]
    rows: list[tuple[Any, ...]]

    def records(self) -> list[dict[str, Any]]:
        """Rows as dicts (for JSON)."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


def load(path: Path) -> NamedQuery:
    """Parse a named query file's header comments (a parameter without a known type is refused)."""
    sql = path.read_text()
    comments = [line[2:].strip() for line in sql.splitlines() if line.startswith("--")]
    params: dict[str, Param] = {}
    description = []
    for line in comments:
        if line.startswith("params:"):
            for name, kind, value in _PARAM.findall(line):
                if kind not in _KINDS:
                    raise QueryError(f"{path.name}: parameter {name} has unknown type {kind!r} (text, int, float or bool)")
                param = Param(name=name, kind=kind, default=None)
                default = value[1:-1] if value.startswith("'") else value
                params[name] = Param(name=name, kind=kind, default=param.parse(default, where=path.name))
        else:
            description.append(line)
    return NamedQuery(name=path.stem, description=" ".join(description), params=params, sql=sql)


def named_queries() -> dict[str, NamedQuery]:
    """Every named query, by name."""
    return {q.name: q for q in map(load, sorted(QUERY_DIR.glob("*.sql")))}


def parse_assignments(texts: Iterable[str]) -> dict[str, str]:
    """`name=value` pairs from the command line; a pair without `=` or a name is refused."""
    given: dict[str, str] = {}
    for text in texts:
        name, equals, value = text.partition("=")
        if not equals or not name.strip():
            raise QueryError(f"--param {text!r}: give it as name=value (NULL for any)")
        given[name.strip()] = value
    return given


def run_named(warehouse: Warehouse, name: str, given: dict[str, Any] | None = None) -> Result:
    """Run a named query with its defaults overridden by `given`."""
    queries = named_queries()
    if name not in queries:
        raise QueryError(f"unknown query {name!r}; named queries: {', '.join(queries)}")
    query = queries[name]
    unknown = set(given or {}) - set(query.params)
    if unknown:
        raise QueryError(f"query {name} has no parameter {sorted(unknown)[0]!r}; its parameters: {', '.join(query.params) or 'none'}")
    typed = {key: query.params[key].parse(value, where=f"query {name}") for key, value in (given or {}).items()}
    return _run(warehouse, query.sql, {**query.defaults(), **typed}, where=f"query {name}")


def run_sql(warehouse: Warehouse, sql: str, limits: SqlLimits | None = None) -> Result:
    """Ad-hoc SQL on the sandboxed, read-only connection, under the time, memory and row
    limits (`projections/warehouse/sql_limits.py`)."""
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
