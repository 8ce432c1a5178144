"""Bulk export: events, steps and matches as Parquet, partitioned by ruleset and version,
readable by DuckDB, Spark or any Arrow reader."""

from __future__ import annotations

from pathlib import Path

from projections.warehouse import Warehouse

EXPORTED = {
    "matches": "SELECT * FROM matches",
    "events": "SELECT e.*, m.ruleset, m.version FROM events e JOIN matches m USING (match_id)",
    "steps": "SELECT s.*, m.ruleset, m.version FROM steps s JOIN matches m USING (match_id)",
}


def export_parquet(warehouse: Warehouse, directory: Path) -> dict[str, Path]:
    """Write each table to `directory/<table>/ruleset=.../version=.../*.parquet`."""
    directory.mkdir(parents=True, exist_ok=True)
    con = warehouse.connect(sandboxed=False)
    written = {}
    try:
        for table, select in EXPORTED.items():
            target = directory / table
            quoted = str(target).replace("'", "''")
            con.execute(f"COPY ({select}) TO '{quoted}' (FORMAT PARQUET, PARTITION_BY (ruleset, version), OVERWRITE_OR_IGNORE)")
            written[table] = target
    finally:
        con.close()
    return written
