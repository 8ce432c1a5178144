"""Bulk export: events, steps and matches as Parquet, partitioned by ruleset and version,
readable by DuckDB, Spark or any Arrow reader. Each event row carries its log line as
`detail`, read from the log (the warehouse does not keep a second copy of every line)."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

import pyarrow as pa

from events.errors import TabletapeError
from projections.warehouse.sync import Warehouse

EXPORTED = {
    "matches": "SELECT * FROM matches",
    "events": "SELECT e.*, l.detail, m.ruleset, m.version FROM events e JOIN matches m USING (match_id) "
              "LEFT JOIN event_lines l USING (match_id, seq)",
    "steps": "SELECT s.*, m.ruleset, m.version FROM steps s JOIN matches m USING (match_id)",
}


def export_parquet(warehouse: Warehouse, directory: Path) -> dict[str, Path]:
    """Write each table to `directory/<table>/ruleset=.../version=.../*.parquet`."""
    directory.mkdir(parents=True, exist_ok=True)
    con = warehouse.connect(sandboxed=False)
    written = {}
    try:
        matches = [match_id for (match_id,) in con.execute("SELECT match_id FROM matches ORDER BY match_id").fetchall()]
        con.register("event_lines", event_lines(warehouse, matches))
        for table, select in EXPORTED.items():
            target = directory / table
            quoted = str(target).replace("'", "''")
            con.execute(f"COPY ({select}) TO '{quoted}' (FORMAT PARQUET, PARTITION_BY (ruleset, version), OVERWRITE_OR_IGNORE)")
            written[table] = target
    finally:
        con.close()
    return written


def event_lines(warehouse: Warehouse, matches: list[str]) -> pa.Table:
    """(match_id, seq, detail): every line of the matches' logs as text, line i holding seq
    i as the sync requires; a log that cannot be read now leaves its rows without detail."""
    ids: list[str] = []
    seqs: list[int] = []
    lines: list[bytes] = []
    for match_id in matches:
        with suppress(TabletapeError, OSError):
            read = list(warehouse.ws.store.lines(match_id))
            ids += [match_id] * len(read)
            seqs += range(len(read))
            lines += read
    return pa.table({"match_id": pa.array(ids, pa.string()), "seq": pa.array(seqs, pa.int32()),
                     "detail": pa.array(lines, pa.string())})
