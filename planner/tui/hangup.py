"""Quit when the terminal goes away.

Closing the terminal (a window, ``tmux kill-server``) hangs it up: ``planner tui`` gets
SIGHUP. The command line's handler (SystemExit, :func:`planner.cli.app.main`) must not
end the app: raised past Textual, it left Textual's input thread running, spinning on the
closed terminal, and the interpreter waited for ever to join it, a core busy. So the app
takes SIGHUP and SIGTERM itself (:func:`exit_on_signals`), and quits as
Ctrl+Q does (Textual stops its threads and restores the terminal).

Started through ``make run``, the app got no SIGHUP at all: make ended and the app, its
terminal gone, kept a core busy. So on a real terminal the app also looks each second
whether its input is still a terminal (``os.ttyname`` fails with EIO once it is hung up)
and exits when it is not.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from typing import Any

from textual.app import App

CHECK_SECONDS = 1.0
"""How often the app looks at its terminal (s)."""

GONE_GRACE_SECONDS = 3.0
"""How long an app whose terminal is gone has to quit before its process is ended (s)."""


def terminal_gone(fd: int) -> bool:
    """True when ``fd`` is not (or no longer) a terminal."""
    try:
        os.ttyname(fd)
    except OSError:
        return True
    return False


def exit_on_signals(app: App[Any]) -> None:
    """Quit ``app`` on SIGHUP or SIGTERM as Ctrl+Q does, exit code 128 + the signal.

    The handlers are the interpreter's, not the event loop's: a handler the loop would
    call never ran when the loop's thread was stuck handing a frame to Textual's output
    thread (a full queue, the thread gone with the hung-up terminal), and the app lived on
    (stop 35, one full run in many). The interpreter runs a handler even while its main
    thread waits on a lock; the handler arms SIGHUP's watchdog at once and asks the loop to
    quit. On SIGHUP the terminal is gone, and Textual's shutdown can block on it for ever
    (:func:`quit_without_terminal`).
    """
    loop = asyncio.get_running_loop()

    def quit_as_asked(number: int, _frame: object) -> None:
        loop.call_soon_threadsafe(app.exit, None, 128 + number)

    terminate = getattr(signal, "SIGTERM", None)
    if terminate is not None:
        signal.signal(terminate, quit_as_asked)
    hangup = getattr(signal, "SIGHUP", None)  # Windows has no SIGHUP
    if hangup is not None:
        signal.signal(hangup, lambda number, _: quit_without_terminal(app, 128 + number, loop))


def quit_without_terminal(app: App[Any], code: int, loop: asyncio.AbstractEventLoop) -> None:
    """Quit ``app`` whose terminal is gone, and end the process within seconds whatever.

    Textual's shutdown writes the terminal's last frames through its output thread; with
    the terminal hung up, that thread and the shutdown waiting on it could block for ever,
    a core busy or not (seen after ``tmux kill-server``, one time in two). Nobody is left
    to see the screen, and no file is being written (saving is done before a key is read
    again), so a process still there :data:`GONE_GRACE_SECONDS` later is ended at once.
    Safe from any thread and from a signal handler: the quit is handed to ``loop``.
    """
    watchdog = threading.Timer(GONE_GRACE_SECONDS, os._exit, (code,))
    watchdog.daemon = True
    watchdog.start()
    loop.call_soon_threadsafe(app.exit, None, code)


def watch_terminal(app: App[Any]) -> None:
    """Exit ``app`` once the terminal it started on is gone (not headless, not a pipe).

    Also takes SIGHUP and SIGTERM from the command line's handler (:func:`exit_on_signals`).
    The terminal is looked at from a thread of its own, so a stuck event loop cannot keep
    the app from noticing.
    """
    stream = sys.__stdin__
    if app.is_headless or stream is None:
        return
    exit_on_signals(app)
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        return
    if terminal_gone(fd):
        return  # never a terminal: nothing to watch
    loop = asyncio.get_running_loop()

    def watch() -> None:
        while not terminal_gone(fd):
            time.sleep(CHECK_SECONDS)
        quit_without_terminal(app, 128 + getattr(signal, "SIGHUP", 1), loop)

    threading.Thread(target=watch, name="planner-terminal-watch", daemon=True).start()
