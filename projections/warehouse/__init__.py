"""The warehouse: logs and notes as DuckDB tables, and the queries over them."""
