"""The TUI ends when its terminal goes away (found at the end of stop 27: after
``tmux kill-server`` on ``make run``, the orphaned ``planner tui`` kept a core busy).

The check is the one the app runs each second on a real terminal: ``os.ttyname`` of its
input fails once the terminal is gone. Here on a pseudo-terminal whose other end closes.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

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


def test_the_app_ends_when_its_terminal_hangs_up() -> None:
    """``planner tui`` on a pseudo-terminal whose other end closes (``tmux kill-server``)
    exits within seconds, every time.

    It once lingered for ever, a core busy: the SIGHUP handler raised SystemExit past
    Textual, whose input thread, never told to stop, spun on the closed terminal while the
    interpreter waited to join it. Three runs in a row (it lingered two times in three).
    """
    for run in range(3):
        code = _hang_up_a_running_tui()
        assert code is not None, f"run {run}: still running 20 s after its terminal hung up"


def _hang_up_a_running_tui() -> int | None:
    """Start the TUI on a new pseudo-terminal, wait for its first frame, close the
    terminal's other end, and return the exit status (None if it is still running)."""
    planner = Path(sys.executable).with_name("planner")
    scenario = Path(__file__).resolve().parents[2] / "scenarios" / "three-tier-plan.yaml"
    pid, controller = pty.fork()
    if pid == 0:  # the child: a session whose controlling terminal is the new one
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
        os.execve(str(planner), [str(planner), "tui", str(scenario)], env)
    fcntl.ioctl(controller, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    shown = b""
    deadline = time.monotonic() + 60
    while b"Compare" not in shown and time.monotonic() < deadline:
        ready, _, _ = select.select([controller], [], [], 1.0)
        if ready:
            try:
                shown += os.read(controller, 65536)
            except OSError:
                break
    assert b"Compare" in shown, shown[-500:]
    os.write(controller, b"\x1b[19~\x1b[19~\x1bOR")  # F8, F8, F3: as the lingering runs had
    time.sleep(1.0)
    os.close(controller)  # the terminal hangs up: SIGHUP to the session
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.2)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None
