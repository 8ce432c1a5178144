"""One function over many tasks on local processes or a Dask cluster, results in task order.

Simulation (`batch.simulate`) and corpus work (`sync`, `audit --all`) hand out chunks the
same way: in this process when one worker is asked for, else local worker processes, else
the Dask scheduler given. Results come back in task order, whatever order they finish in,
so a seed gives the same bytes and a sync writes the same rows however the work was spread.

The local workers are a pool of our own rather than `concurrent.futures`'s: each worker
has a pipe of its own to this process, and nothing is shared between workers. A worker
killed at any moment (holding the shared queue's lock, halfway through sending a result,
or while the pool shuts down) left `ProcessPoolExecutor` waiting forever on a lock or a
message nobody would finish; here the dead worker's pipe simply ends, its exit is seen,
and the run stops in one line.
"""

from __future__ import annotations

import functools
import gc
import multiprocessing
import signal
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from events.errors import TabletapeError

T = TypeVar("T")
R = TypeVar("R")

AHEAD = 2
"""Tasks handed to a worker before its first result: one to work on, one waiting in its
pipe, so a worker never idles while this process takes its result."""


class WorkerTraceback(Exception):
    """Where a task failed inside its worker, as the worker printed it."""


def ordered_map(fn: Callable[[T], R], tasks: Sequence[T], *, workers: int, scheduler: str | None = None,
                error: type[TabletapeError], work: str, lost: str) -> Iterator[R]:
    """fn over tasks, in order. A dead worker or an unreachable cluster raises `error` in
    one line: "a worker process died mid-<work> (...); <lost>"."""
    if scheduler:
        yield from _dask(fn, tasks, scheduler, error, work, lost)
    elif workers == 1 or len(tasks) <= 1:
        yield from map(fn, tasks)
    else:
        yield from _local(fn, tasks, min(workers, len(tasks)), error, work, lost)


def _local(fn: Callable[[T], R], tasks: Sequence[T], workers: int, error: type[TabletapeError], work: str,
           lost: str) -> Iterator[R]:
    """Tasks on `workers` local processes, each fed through its own pipe."""
    context = multiprocessing.get_context()
    started: list[tuple[multiprocessing.process.BaseProcess, Connection]] = []
    finished = False
    try:
        for _ in range(workers):
            here, there = context.Pipe()
            process = context.Process(target=_serve, args=(fn, there), daemon=True)
            process.start()
            there.close()  # the worker's end lives only in the worker: its death ends the pipe
            started.append((process, here))
        yield from _results(tasks, started, error, work, lost)
        finished = True
    finally:
        _stop(started, gently=finished)


def _results(tasks: Sequence[T], started: list[tuple[multiprocessing.process.BaseProcess, Connection]],
             error: type[TabletapeError], work: str, lost: str) -> Iterator[Any]:
    """Hand out tasks as workers free up; yield results in task order. A worker that ends
    before every result is in stops the run, whatever it was doing when it went."""
    queued = iter(enumerate(tasks))
    owed: dict[Connection, deque[int]] = {conn: deque() for _, conn in started}
    process_of = {conn: process for process, conn in started}
    conn_at = {process.sentinel: conn for process, conn in started}
    arrived: dict[int, Any] = {}

    def hand_out(conn: Connection) -> None:
        task = next(queued, None)
        if task is not None:
            owed[conn].append(task[0])
            with suppress(OSError):  # a worker that has gone is buried when its end is seen
                conn.send(task)

    def take(conn: Connection) -> bool:
        """One result from conn: False once its pipe has ended."""
        try:
            index, ok, value = conn.recv()
        except (EOFError, OSError):
            return False
        owed[conn].popleft()
        if not ok:
            raise value[0] from WorkerTraceback(value[1])
        arrived[index] = value
        return True

    def bury(conn: Connection, yielded: int) -> None:
        """A worker has ended: keep what it sent before it went; stop the run if results are still owed."""
        while conn.poll() and take(conn):
            pass
        process = process_of[conn]
        process.join()
        del owed[conn], conn_at[process.sentinel]
        if len(arrived) + yielded < len(tasks):
            raise error(f"a worker process died mid-{work} ({_how(process.exitcode)}); {lost}")

    for _ in range(AHEAD):
        for conn in owed:
            hand_out(conn)
    for wanted in range(len(tasks)):
        while wanted not in arrived:
            for ready in wait([*owed, *conn_at]):  # a result, or a worker's end (its pipe or its exit)
                if isinstance(ready, Connection):
                    if ready in owed:  # not buried earlier in this round
                        if take(ready):
                            hand_out(ready)
                        else:
                            bury(ready, wanted)
                elif ready in conn_at:
                    bury(conn_at[ready], wanted)
        yield arrived.pop(wanted)


def _serve(fn: Callable[[Any], Any], conn: Connection) -> None:
    """A worker's life: a task in, its result (or its error and traceback) out, until the
    pipe says stop. Ctrl-C is the main process's to handle; it stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, task = message
        try:
            reply = (index, True, fn(task))
        except Exception as failed:
            reply = (index, False, (failed, traceback.format_exc()))
        try:
            conn.send(reply)
        except (BrokenPipeError, ConnectionResetError):
            return  # the main process has gone or given up on this run
        except Exception as unsendable:  # pickling failed before a byte was written: say so instead
            conn.send((index, False, (RuntimeError(f"a worker could not send its answer: {unsendable!r}"), traceback.format_exc())))


def _stop(started: list[tuple[multiprocessing.process.BaseProcess, Connection]], *, gently: bool) -> None:
    """Let the workers go: told to stop after a finished run, killed after a failed or
    abandoned one (their work is no longer wanted, and one may be stuck)."""
    for process, conn in started:
        if gently:
            with suppress(OSError):
                conn.send(None)
        else:
            process.kill()
        conn.close()
    for process, _ in started:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join()


def _how(exitcode: int | None) -> str:
    """How a worker ended, in words."""
    if exitcode is not None and exitcode < 0:
        with suppress(ValueError):
            return f"killed by {signal.Signals(-exitcode).name}"
    return f"exit code {exitcode}"


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


def without_cycle_collector(fn: Callable[[T], R]) -> Callable[[T], R]:
    """fn with the cycle collector paused while it runs, as `Warehouse.sync` pauses it:
    replay allocates millions of states and rows that reference counting frees, and each
    allocation burst would trigger a full scan that finds nothing. In a forked worker a scan
    also touches every inherited object, copying the parent's memory page by page."""

    @functools.wraps(fn)
    def paused(task: T) -> R:
        collecting = gc.isenabled()
        gc.disable()
        try:
            return fn(task)
        finally:
            if collecting:
                gc.enable()

    return paused
