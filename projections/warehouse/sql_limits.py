"""Limits on SQL typed by a person: time, memory and rows, and a way to stop it.

One Explore-page user (or one `tabletape query --sql`) must not be able to hold the
server: a cross join of the events table with itself runs for hours at many GB. Every
query therefore runs in a worker thread under a deadline; DuckDB's own `interrupt` stops
it when the deadline passes or when the person presses Ctrl+C, and the connection's
`memory_limit` caps what DuckDB may hold. The settings come from the environment, with
safe defaults:

    TABLETAPE_SQL_SECONDS   time limit per query (default 30)
    TABLETAPE_SQL_MEMORY    DuckDB memory limit (default 1GB)
    TABLETAPE_SQL_ROWS      rows an ad-hoc query may return (default 100000)
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import duckdb

from events.errors import TabletapeError

T = TypeVar("T")
_MEMORY = re.compile(r"\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)", re.IGNORECASE)


class SqlLimitError(TabletapeError):
    """A query stopped by a limit, or a limit setting that cannot be used."""


@dataclass(frozen=True)
class SqlLimits:
    """How long, how much memory and how many rows one query may take."""

    seconds: float = 30.0
    memory: str = "1GB"
    rows: int = 100_000

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> SqlLimits:
        """The limits set in the environment, the defaults for those not set."""
        env = dict(os.environ if env is None else env)
        try:
            limits = cls(seconds=float(env.get("TABLETAPE_SQL_SECONDS", cls.seconds)),
                         memory=env.get("TABLETAPE_SQL_MEMORY", cls.memory).strip(),
                         rows=int(env.get("TABLETAPE_SQL_ROWS", cls.rows)))
        except ValueError as error:
            raise SqlLimitError(f"TABLETAPE_SQL_SECONDS / TABLETAPE_SQL_ROWS: {error}") from None
        if not 0 < limits.seconds <= 86_400 or limits.rows < 1 or not _MEMORY.fullmatch(limits.memory):
            raise SqlLimitError(f"SQL limits out of range: {limits} (seconds in (0, 86400], rows >= 1, memory like 1GB)")
        return limits


WORKER = "tabletape-sql"
"""The thread a query runs in, by this name in the OS too (`ps -L`, `top -H`, /proc)."""


def _name_os_thread(name: str) -> None:
    """Give the calling thread its name in the OS as well, as Python 3.14 does for every
    thread: the thread busy with a person's SQL is then the one `top -H` names, and a
    process that has it is running a query. Linux only; elsewhere the name stays Python's."""
    with suppress(OSError):
        Path(f"/proc/self/task/{threading.get_native_id()}/comm").write_text(name[:15], encoding="utf-8")


def _stop(con: duckdb.DuckDBPyConnection, done: threading.Event) -> None:
    """Interrupt until the worker has finished: an interrupt sent before DuckDB began the
    query is lost, and a thread left inside DuckDB would outlive the connection."""
    while not done.is_set():
        con.interrupt()
        done.wait(0.1)


def run_interruptible(con: duckdb.DuckDBPyConnection, work: Callable[[], T], *, seconds: float, where: str) -> T:
    """Run `work` (which uses `con`) in a worker thread; interrupt it past `seconds` or
    on Ctrl+C. DuckDB releases the GIL while it runs, so this thread stays responsive.

    The wait is on an Event, not `Thread.join`: on Python 3.11 a join interrupted by
    Ctrl+C marks the thread finished while it still runs (and the connection, closed
    under it, aborts the process)."""
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def target() -> None:
        _name_os_thread(WORKER)
        try:
            outcome["value"] = work()
        except BaseException as error:  # handed to the caller's thread below
            outcome["error"] = error
        finally:
            done.set()

    worker = threading.Thread(target=target, name=WORKER, daemon=True)
    try:
        worker.start()  # in the try: Ctrl+C while it starts must stop the query it starts too
        if not done.wait(seconds):
            _stop(con, done)
            raise SqlLimitError(f"{where}: stopped after {seconds:g} s, the time limit (TABLETAPE_SQL_SECONDS)")
    except KeyboardInterrupt:
        _stop(con, done)
        raise
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value
