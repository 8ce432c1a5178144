"""Everything computed from logs, by job: one subpackage each, and one API over them all.

`workspace` is the Python API the command line, the service and the dashboard call; the
subpackages beneath it are `read` (folding one log: replay, scrubbing, audit, compare),
`record` (writing a playtest at the table), `warehouse` (every log as DuckDB tables, and the
queries over them), `corpus` (many games at once: bot games, batches, injected mistakes),
`stats` (balance verdicts) and `authoring` (a designer's own game). Nothing here knows a
game: every game is reached through the Ruleset protocol.
"""
