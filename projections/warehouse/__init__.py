"""The warehouse: every log and note as DuckDB tables, and the questions asked of them.

The logs are the truth; the warehouse is a read model rebuilt from them at any time.
`sync` keeps it in step incrementally (on one core or many, one writer), `parallel` holds
what all corpus work on many cores shares and the store-wide re-audit, `queries` runs the
named `.sql` files beside it and the read-only SQL box under `sql_limits`, `catalog` lists
and filters matches for the Matches page, and `export` writes Parquet for other tools.
"""
