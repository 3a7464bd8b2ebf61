"""Quit when the terminal goes away.

Closing the terminal (a window, ``tmux kill-server``) hangs it up: the shell and ``planner
tui`` started directly get SIGHUP and end. Started through ``make run``, the app did not: make
ended and the app, its terminal gone, kept a core busy. So on a real terminal the app looks
each second whether its input is still a terminal (``os.ttyname`` fails with EIO once it
is hung up) and exits when it is not.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from textual.app import App

CHECK_SECONDS = 1.0
"""How often the app looks at its terminal (s)."""


def terminal_gone(fd: int) -> bool:
    """True when ``fd`` is not (or no longer) a terminal."""
    try:
        os.ttyname(fd)
    except OSError:
        return True
    return False


def watch_terminal(app: App[Any]) -> None:
    """Exit ``app`` once the terminal it started on is gone (not headless, not a pipe)."""
    stream = sys.__stdin__
    if app.is_headless or stream is None:
        return
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        return
    if terminal_gone(fd):
        return  # never a terminal: nothing to watch

    def check() -> None:
        if terminal_gone(fd):
            app.exit()

    app.set_interval(CHECK_SECONDS, check)
