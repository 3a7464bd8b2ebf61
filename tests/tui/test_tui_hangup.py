"""The TUI ends when its terminal goes away (found at the end of stop 27: after
``tmux kill-server`` on ``make run``, the orphaned ``planner tui`` kept a core busy).

The check is the one the app runs each second on a real terminal: ``os.ttyname`` of its
input fails once the terminal is gone. Here on a pseudo-terminal whose other end closes.
"""

from __future__ import annotations

import os

from planner.tui.hangup import terminal_gone


def test_a_terminal_whose_other_end_closed_is_gone() -> None:
    controller, terminal = os.openpty()
    try:
        assert not terminal_gone(terminal)
        os.close(controller)
        assert terminal_gone(terminal)
    finally:
        os.close(terminal)


def test_what_is_no_terminal_never_was_one() -> None:
    read, write = os.pipe()
    try:
        assert terminal_gone(read)  # the app arms the check only on a terminal
    finally:
        os.close(read)
        os.close(write)
