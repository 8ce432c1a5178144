"""The local worker pool under `simulate`, `sync` and `audit --all`: order, errors, and
workers killed at the moments that used to hang `ProcessPoolExecutor`.

Each run that could hang is driven in a child process with a deadline, so a regression
fails here in seconds instead of stalling the suite."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pytest

from events.errors import TabletapeError
from projections.corpus.pool import WorkerTraceback, ordered_map


class PoolError(TabletapeError):
    """What these runs raise when a worker dies."""


def slow_when_small(n: int) -> int:
    """Early tasks finish last, so results arrive out of order."""
    time.sleep(0.02 * (6 - n % 6))
    return n * n


def fails_on_three(n: int) -> int:
    if n == 3:
        raise ValueError(f"task {n} is bad")
    return n


def run(tasks, fn, workers=2):  # type: ignore[no-untyped-def]
    return list(ordered_map(fn, tasks, workers=workers, error=PoolError, work="test", lost="nothing kept"))


def test_results_come_back_in_task_order_whatever_finishes_first() -> None:
    tasks = list(range(13))
    assert run(tasks, slow_when_small) == [n * n for n in tasks]
    assert run(tasks, slow_when_small, workers=5) == [n * n for n in tasks]


def test_a_task_that_raises_raises_its_own_error_with_the_worker_s_traceback() -> None:
    with pytest.raises(ValueError, match="task 3 is bad") as raised:
        run(list(range(8)), fails_on_three)
    assert isinstance(raised.value.__cause__, WorkerTraceback)
    assert "fails_on_three" in str(raised.value.__cause__)


DRIVER = textwrap.dedent("""
    import os, signal, sys, threading, time
    from events.errors import TabletapeError
    from projections.corpus.pool import ordered_map

    class PoolError(TabletapeError):
        pass

    MODE = sys.argv[1]

    def task(n):
        if MODE == "mid-send" and n == 5:  # killed while pickling or writing 64 MB
            threading.Timer(0.005, os.kill, (os.getpid(), signal.SIGKILL)).start()
            return b"x" * (64 << 20)
        if MODE == "after-last" and n == 11:  # killed once its last answer is sent
            threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGKILL)).start()
        time.sleep(0.01)
        return n

    try:
        results = list(ordered_map(task, list(range(12)), workers=2, error=PoolError, work="test", lost="nothing kept"))
        time.sleep(0.4)  # the late kill lands while the pool is being let go
        print("done", len(results), results[-1])
    except PoolError as error:
        print("error", error)
""")


def drive(mode: str) -> str:
    proc = subprocess.run([sys.executable, "-c", DRIVER, mode], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_a_worker_killed_halfway_through_sending_a_result_stops_the_run_in_one_line() -> None:
    assert drive("mid-send") == "error a worker process died mid-test (killed by SIGKILL); nothing kept"


def test_a_worker_killed_after_its_last_result_leaves_a_finished_run_whole() -> None:
    assert drive("after-last") == "done 12 11"
