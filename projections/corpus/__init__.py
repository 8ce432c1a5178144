"""Many games at once: bot-played games, batches of them, and mistakes planted in logs.

`simulate` plays one seeded game (the same seed, the same log byte for byte), `batch`
plays thousands on local processes or a Dask cluster through `pool`, `sequential` plays
in rounds until the chosen balance measures are decided, `mutations` plants one table
mistake in a log and counts what the audit says after it, `chances` plays a match out from
each of its turns to say each seat's chance to win along it, and `demo` fills an empty
store for a first look.
"""
