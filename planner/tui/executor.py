"""Thread workers that never keep the app from quitting.

Textual runs ``@work(thread=True)`` workers in the event loop's default executor, and
``asyncio.run`` joins that executor's threads before it returns; Python joins them again at
exit. A thread cannot be killed, so a worker deep in a SymPy derivation (minutes for n+8)
held the terminal for minutes after Ctrl+Q. This executor runs each job on a daemon thread
of its own and does not wait for them on shutdown: quitting is immediate, and a job still
running when the process ends is dropped (workers only compute; every file is written on
the UI thread).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class DaemonThreadExecutor(ThreadPoolExecutor):
    """An executor whose jobs run on daemon threads and whose shutdown never waits.

    It subclasses ThreadPoolExecutor only because ``loop.set_default_executor`` requires one;
    no pool thread is ever started.
    """

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` on a new daemon thread; its future."""
        future: Future[T] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(result)

        threading.Thread(target=run, name="planner-worker", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Return at once: running jobs are abandoned, never joined."""


def install_daemon_executor() -> None:
    """Make the running loop's default executor a :class:`DaemonThreadExecutor`."""
    asyncio.get_running_loop().set_default_executor(DaemonThreadExecutor())
