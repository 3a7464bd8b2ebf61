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
import subprocess
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


def _start_tui() -> tuple[int, int]:
    """``planner tui`` on a new pseudo-terminal (80x24), once its first frame is shown:
    its process id and the terminal's other end."""
    planner = Path(sys.executable).with_name("planner")
    scenario = Path(__file__).resolve().parents[2] / "scenarios" / "three-tier-plan.yaml"
    pid, controller = pty.fork()
    if pid == 0:  # the child: a session whose controlling terminal is the new one
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
        os.execve(str(planner), [str(planner), "tui", str(scenario)], env)
    fcntl.ioctl(controller, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    shown = _read_until(controller, b"Compare", 60)
    assert b"Compare" in shown, shown[-500:]
    return pid, controller


def _read_until(controller: int, wanted: bytes, seconds: float) -> bytes:
    """What the terminal shows until ``wanted`` appears, the terminal closes or time is up."""
    shown = b""
    deadline = time.monotonic() + seconds
    while wanted not in shown and time.monotonic() < deadline:
        ready, _, _ = select.select([controller], [], [], 1.0)
        if ready:
            try:
                shown += os.read(controller, 65536)
            except OSError:
                break
    return shown


def _exit_status(pid: int, seconds: float) -> int | None:
    """The exit status of ``pid`` within ``seconds``; None (and the process killed) if
    it is still running then."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.2)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def _hang_up_a_running_tui() -> int | None:
    """Start the TUI on a new pseudo-terminal, wait for its first frame, close the
    terminal's other end, and return the exit status (None if it is still running)."""
    pid, controller = _start_tui()
    os.write(controller, b"\x1b[19~\x1b[19~\x1bOR")  # F8, F8, F3: as the lingering runs had
    time.sleep(1.0)
    os.close(controller)  # the terminal hangs up: SIGHUP to the session
    return _exit_status(pid, 20)


def test_sigterm_quits_the_tui_and_gives_the_terminal_back() -> None:
    """``kill`` (SIGTERM) quits as Ctrl+Q does: exit code 143, the terminal restored (the
    alternate screen left), not a process ended on the spot in raw mode."""
    pid, controller = _start_tui()
    try:
        os.kill(pid, signal.SIGTERM)
        shown = _read_until(controller, b"\x1b[?1049l", 20)
        status = _exit_status(pid, 20)
    finally:
        os.close(controller)
    assert status is not None, "still running 20 s after SIGTERM"
    assert os.waitstatus_to_exitcode(status) == 128 + signal.SIGTERM
    assert b"\x1b[?1049l" in shown, shown[-300:]


_BLOCKED_APP = """
import os, sys, threading
from textual.app import App
from planner.tui.hangup import exit_on_signals

class Blocked(App[None]):
    def on_mount(self) -> None:
        exit_on_signals(self)
        self.set_timer(0.2, self.block)

    def block(self) -> None:
        # The event loop's thread stops here for good, as it did waiting to hand a frame
        # to Textual's output thread, which had died on the hung-up terminal.
        print("blocked", flush=True)
        threading.Event().wait()

Blocked().run(headless=True)
"""


def test_a_hangup_ends_the_app_even_while_its_event_loop_is_stuck() -> None:
    """SIGHUP ends the app within seconds even when its event loop never runs again.

    The one full-suite failure of the test above (stop 35): the event loop's thread was
    blocked handing a frame to Textual's output thread (a full queue, the thread gone with
    the terminal), so a handler scheduled on that loop never ran and the app lived on.
    """
    child = subprocess.Popen(
        [sys.executable, "-c", _BLOCKED_APP],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "blocked"
        child.send_signal(signal.SIGHUP)
        code = child.wait(timeout=20)
    except subprocess.TimeoutExpired:
        code = None
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert code == 128 + signal.SIGHUP, f"exit status {code}: still running 20 s after SIGHUP"
