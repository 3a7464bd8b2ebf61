"""Threads for stacks of small matrix products (NumPy's matmul releases the GIL).

:func:`run_tasks` runs independent tasks on the calling thread and, when there are several,
on up to :func:`default_threads` minus one pool threads too, each taking the next task
from one counter. :mod:`planner.core.markov.expm` runs its chunks so: whichever thread runs
a chunk, it runs the same operations, so a result never depends on the number of threads.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

__all__ = ["MAX_THREADS", "default_threads", "run_tasks"]

MAX_THREADS = 8
"""Most threads one call uses (each holds its own workspace, ~1 MB a chunk)."""


def default_threads() -> int:
    """Threads for a large stack: the CPUs this process may run on (at most ``MAX_THREADS``)."""
    try:
        available = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        available = os.cpu_count() or 1
    return max(1, min(available, os.cpu_count() or 1, MAX_THREADS))


def run_tasks(tasks: Sequence[Callable[[], object]], threads: int | None = None) -> None:
    """Run every task once, on this thread and ``threads - 1`` pool threads, in turn.

    Tasks are taken in their order from one counter (put the longest first). ``threads``:
    default :func:`default_threads`; 1 runs them all here. The first error of a pool
    thread's task is raised here, once every thread has stopped.
    """
    workers = min(default_threads() if threads is None else max(1, int(threads)), len(tasks))
    counter = itertools.count()  # next() on it is atomic: each task is taken once

    def work() -> None:
        for index in iter(counter.__next__, None):
            if index >= len(tasks):
                return
            tasks[index]()

    helpers = [_pool().submit(work) for _ in range(workers - 1)]
    try:
        work()
    finally:
        for helper in helpers:
            helper.result()  # waits, and re-raises a task's error here


_pool_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    """The process's pool of helper threads, made on first use (idle threads sleep).

    concurrent.futures is imported here, not with the module: it costs 5 ms of start-up
    that a command evaluating a few layouts never uses.
    """
    from concurrent.futures import ThreadPoolExecutor

    global _executor
    with _pool_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=MAX_THREADS - 1, thread_name_prefix="planner-expm"
            )
        return _executor
