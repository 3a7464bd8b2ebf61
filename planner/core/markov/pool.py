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
    from concurrent.futures import Future, ThreadPoolExecutor

__all__ = ["MAX_THREADS", "TaskStream", "default_threads", "run_tasks"]

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


class TaskStream:
    """Tasks run by pool threads as they are added, the caller free to prepare more.

    :func:`run_tasks` for work that comes in batches, each prepared on the calling thread
    (a generator stack built in NumPy, holding the GIL) while the pool threads run the last
    batch's tasks (the compiled kernel, which releases it): the two overlap. ``threads``
    counts the calling thread, which runs what is left when :meth:`finish` is called; so
    ``threads - 1`` pool threads, none for 1 (then every task runs in :meth:`finish`).
    Tasks run in the order they were added; the first error of any is raised by
    :meth:`finish`, once every thread has stopped. Use it in a ``with`` block: leaving
    it finishes the stream, or, on an error, drops the tasks not started and lets the pool
    threads go.
    """

    def __init__(self, threads: int | None = None) -> None:
        self._threads = default_threads() if threads is None else max(1, int(threads))
        self._tasks: list[Callable[[], object]] = []
        self._next = 0
        self._closed = False
        self._errors: list[BaseException] = []
        self._ready = threading.Condition()
        self._helpers: list[Future[None]] = []

    def add(self, tasks: Sequence[Callable[[], object]]) -> None:
        """Queue ``tasks``; the pool threads start on them at once."""
        with self._ready:
            self._tasks.extend(tasks)
            self._ready.notify_all()
        if not self._helpers and self._threads > 1 and tasks:
            self._helpers = [_pool().submit(self._work, True) for _ in range(self._threads - 1)]

    def __enter__(self) -> TaskStream:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.finish()
            return
        # the caller failed: drop what was not started, let the pool threads go
        with self._ready:
            self._next = len(self._tasks)
            self._closed = True
            self._ready.notify_all()
        for helper in self._helpers:
            helper.result()

    def finish(self) -> None:
        """Run what is left on this thread too, wait for the pool threads, raise an error."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
        self._work(False)
        for helper in self._helpers:
            helper.result()
        if self._errors:
            raise self._errors[0]

    def _take(self, wait: bool) -> Callable[[], object] | None:
        with self._ready:
            while self._next >= len(self._tasks):
                if self._closed or not wait:
                    return None
                self._ready.wait()
            task = self._tasks[self._next]
            self._next += 1
            return task

    def _work(self, wait: bool) -> None:
        while (task := self._take(wait)) is not None:
            try:
                task()
            except BaseException as err:  # raised by finish(), on the calling thread
                with self._ready:
                    self._errors.append(err)


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
