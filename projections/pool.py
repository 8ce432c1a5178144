"""One function over many tasks on local processes or a Dask cluster, results in task order.

Simulation (`batch.simulate`) and corpus work (`sync`, `audit --all`) hand out chunks the
same way: in this process when one worker is asked for, else a process pool, else the
Dask scheduler given. Results come back in task order, whatever order they finish in, so
a seed gives the same bytes and a sync writes the same rows however the work was spread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from events.errors import TabletapeError

T = TypeVar("T")
R = TypeVar("R")


def ordered_map(fn: Callable[[T], R], tasks: Sequence[T], *, workers: int, scheduler: str | None = None,
                error: type[TabletapeError], work: str, lost: str) -> Iterator[R]:
    """fn over tasks, in order. A dead worker or an unreachable cluster raises `error` in
    one line: "a worker process died mid-<work> (...); <lost>"."""
    if scheduler:
        yield from _dask(fn, tasks, scheduler, error, work, lost)
    elif workers == 1 or len(tasks) <= 1:
        yield from map(fn, tasks)
    else:
        try:
            with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
                yield from pool.map(fn, tasks)
        except BrokenProcessPool as died:
            raise error(f"a worker process died mid-{work} ({died}); {lost}") from None


def _dask(fn: Callable[[T], R], tasks: Sequence[T], scheduler: str, error: type[TabletapeError], work: str,
          lost: str) -> Iterator[R]:
    """Tasks on a Dask cluster; a lost worker's tasks are retried on the others."""
    try:
        from distributed import Client
    except ImportError:
        raise error("--scheduler needs the Dask extra: pip install 'tabletape[dask]'") from None
    try:
        client = Client(scheduler, timeout=10)
    except OSError as unreachable:
        raise error(f"cannot reach the Dask scheduler at {scheduler}: {unreachable}") from None
    try:
        for future in client.map(fn, list(tasks), pure=False, retries=3):
            try:
                yield future.result()
            except Exception as failed:
                raise error(f"the cluster could not finish the {work} ({type(failed).__name__}: {failed}); {lost}") from None
    finally:
        client.close()
