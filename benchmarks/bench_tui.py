"""How fast the TUI answers a keystroke, from the key press until the new frame is painted.

Run: ``.venv/bin/python benchmarks/bench_tui.py [--view compare|sweep|model|sensitivity|choose|all]
[--changes 20] [--scenario FILE] [--timeout 120] [--against OTHER_CHECKOUT]``.

What the user waits for is measured end to end, from outside the app: ``planner tui`` runs
as a real process in a pseudo-terminal of 120x40; its output is fed to a terminal emulator
(pyte), so the benchmark sees the screen a terminal would show. Each change is one keystroke
in the ARR field that completes a value never typed before (``0.01`` -> ``1``; backspace;
``2`` -> ``0.012`` ...; the backspaces are not measured), so every measured key is one
recompute of the view on screen with new numbers, none served from a cache. For each key the
clock starts when the byte is written to the terminal and two times are taken from the
screen's text (styles, such as the blinking cursor, are ignored). A reader thread stamps
each chunk of output when it arrives, so the time is when the terminal got the frame, not
when pyte (a pure-Python emulator, tens of ms for a repainted view) finished parsing it:

* **echo**: the first frame that shows the changed field (the keystroke painted, no
  computation): the baseline, measured in the same run on the same keys;
* **frame**: the last frame that changes the screen before it stays still for
  ``--settle`` ms: the view repainted with the new results.

It prints the median and spread of both and their ratio; with ``--against DIR`` it also
times the planner of another checkout (``git worktree add --detach /tmp/base <commit>``)
on the same keys right after, and prints now/before. The goal (issue 9) is a median
key-to-frame under 50 ms in every view. Every wait has a timeout: a key whose screen never
changes, or any one wait longer than ``--timeout`` seconds, ends the benchmark with exit status 1
and says what it was waiting for, never a hang.

``--scenario scenarios/ns3574-table9-250mb.yaml`` times a scenario with a workload (the
compare view then shows the sizing columns, computed on every keystroke).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import queue
import signal
import statistics
import struct
import subprocess
import sys
import termios
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

try:
    import pyte
except ImportError:  # a virtualenv made by `make run` only
    sys.exit("bench_tui.py needs the test tools (pyte): run `make bench` or `make test` first")

VIEW_KEYS = {
    "compare": b"\x1bOQ",
    "sweep": b"\x1bOR",
    "model": b"\x1bOS",
    "sensitivity": b"\x1b[15~",
    "choose": b"\x1b[18~",
}
"""F2..F5 and F7 as an xterm sends them."""

BACKSPACE = b"\x7f"

VALUES = [f"0.0{tens}{units}" for tens in range(1, 10) for units in range(1, 10)]
"""The ARR values the measured keys complete, in turn: 0.011 to 0.099 (81 keys at most)."""


def planner_command(*args: str) -> list[str]:
    """The command that runs ``python -m planner *args`` with the environment's planner.

    ``-P``: without it, ``-m`` puts the current directory first on ``sys.path``, so run from
    a checkout it would import that checkout's planner whatever ``PYTHONPATH`` says, and
    ``--against`` would time the same code twice.
    """
    return [sys.executable, "-P", "-m", "planner", *args]


def planner_origin(pythonpath: Path | None) -> str:
    """The directory of the planner package the app's process imports (with ``pythonpath``)."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    command = [*planner_command()[:-2], "-c", "import planner; print(planner.__file__)"]
    found = subprocess.run(command, env=env, capture_output=True, text=True, check=True, timeout=60)
    return str(Path(found.stdout.strip()).parent)


class BenchError(RuntimeError):
    """A wait that timed out: the message says what the benchmark was waiting for."""


@dataclass
class Terminal:
    """``planner tui`` in a pseudo-terminal, its screen kept by pyte."""

    width: int
    height: int
    argv: list[str]
    pythonpath: Path | None = None
    screen: pyte.Screen = field(init=False)
    stream: pyte.ByteStream = field(init=False)
    pid: int = field(init=False)
    fd: int = field(init=False)
    text: str = field(init=False, default="")
    chunks: queue.Queue[tuple[float, bytes]] = field(init=False, default_factory=queue.Queue)

    def __post_init__(self) -> None:
        self.screen = pyte.Screen(self.width, self.height)
        self.stream = pyte.ByteStream(self.screen)
        env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(self.width))
        if self.pythonpath is not None:  # another checkout's planner (--against)
            env["PYTHONPATH"] = str(self.pythonpath)
        env["LINES"] = str(self.height)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the app
            os.execvpe(self.argv[0], self.argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", self.height, self.width, 0, 0))
        threading.Thread(target=self._read, name="pty-reader", daemon=True).start()

    def pump(self, wait_s: float) -> float | None:
        """Take what the app wrote within ``wait_s``; the time the screen's text changed.

        The time is when the bytes reached the terminal (stamped by the reader thread), not
        when pyte finished parsing them: pyte parses a repainted view in tens of ms where a
        real terminal takes microseconds, and the app is not to be charged for that.
        """
        try:
            arrived, data = self.chunks.get(timeout=wait_s)
        except queue.Empty:
            return None
        if not data:
            raise BenchError("the app exited")
        self.stream.feed(data)
        text = "\n".join(self.screen.display)
        if text != self.text:
            self.text = text
            return arrived
        return None

    def _read(self) -> None:
        """The reader thread: each chunk the app writes, stamped on arrival."""
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except OSError:
                data = b""
            self.chunks.put((time.perf_counter(), data))
            if not data:
                return

    def settle(self, settle_s: float, timeout_s: float, what: str) -> float:
        """Read until the screen stays still for ``settle_s``; the time of its last change."""
        deadline = time.perf_counter() + timeout_s
        last = time.perf_counter()
        quiet_since = last
        while time.perf_counter() - quiet_since < settle_s:
            if time.perf_counter() > deadline:
                raise BenchError(f"timed out after {timeout_s:g} s waiting for {what}")
            changed = self.pump(0.005)
            if changed is not None:
                last = quiet_since = changed
        return last

    def wait_for(self, needle: str, timeout_s: float) -> None:
        """Read until ``needle`` is on the screen."""
        deadline = time.perf_counter() + timeout_s
        while needle not in self.text:
            if time.perf_counter() > deadline:
                raise BenchError(f"timed out after {timeout_s:g} s waiting for {needle!r}")
            self.pump(0.05)

    def send(self, data: bytes) -> float:
        """Write ``data`` as typed keys; the time it was written."""
        start = time.perf_counter()
        os.write(self.fd, data)
        return start

    def click(self, column: int, row: int) -> None:
        """A left click at a 0-based screen cell (SGR mouse reporting, as Textual enables)."""
        self.send(f"\x1b[<0;{column + 1};{row + 1}M".encode())
        self.send(f"\x1b[<0;{column + 1};{row + 1}m".encode())

    def find(self, needle: str) -> tuple[int, int]:
        """The (column, row) of ``needle`` on the screen, as the first word of a row.

        A label starts its row (after the margin); the title may hold the same word
        ("96 x 20 TB NL-SAS, 1% ARR, ...": the click once landed in the title, and no key
        reached the field).
        """
        for row, line in enumerate(self.screen.display):
            if line.strip().startswith(needle):
                return line.index(needle), row
        raise BenchError(f"{needle!r} does not start a row on the screen")

    def close(self) -> None:
        """End the app (it may be waiting on an unsaved-changes prompt)."""
        try:
            os.kill(self.pid, signal.SIGTERM)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


def arr_field_text(term: Terminal, column: int, row: int) -> str:
    """The ARR field's text, read off the screen to the right of its label."""
    return term.screen.display[row][column:].split("│")[0]


def start_value(term: Terminal, value: str, settle_ms: float, budget: float) -> None:
    """Empty the focused field (End, Ctrl+U) and type ``value`` (not measured)."""
    term.send(b"\x1b[F\x15")
    term.settle(0.3, budget, "the emptied ARR field")
    term.send(value.encode())
    term.settle(settle_ms / 1000, budget, f"ARR = {value}")
    term.send(b"\x1b[F")  # End: no selection, cursor after the last digit
    term.settle(0.3, budget, "the End key")
    if value not in term.text:
        raise BenchError(f"could not type {value} into the ARR field; is it on screen?")


def measure(
    args: argparse.Namespace, view: str, pythonpath: Path | None = None
) -> tuple[list[float], list[float]]:
    """Per key: (echo ms, frame ms) in ``view``."""
    argv = planner_command("tui")
    if args.scenario is not None:
        argv.append(str(args.scenario))
    term = Terminal(args.width, args.height, argv, pythonpath)
    budget = args.timeout
    echoes: list[float] = []
    frames: list[float] = []
    try:
        term.wait_for("ARR", budget)
        term.settle(0.5, budget, "the first frame")
        term.send(VIEW_KEYS[view])
        term.settle(args.settle / 1000, budget, f"the {view} view")
        # Focus the ARR field by a click on it. Each measured key types the last digit of a
        # value never typed before (0.011, 0.012, ... 0.019, 0.021, ...); the backspace or
        # the new prefix before it is not measured. Repeated values would be served by
        # caches, and digits far down would not change what the view shows.
        col, row = term.find("ARR")
        term.click(col + 14, row)
        term.settle(0.3, budget, "the click on the ARR field")
        for i in range(args.changes):
            value = VALUES[i % len(VALUES)]
            if i % 9 == 0:
                start_value(term, value[:-1], args.settle, budget)
            else:
                term.send(BACKSPACE)
                term.settle(args.settle / 1000, budget, f"the backspace before {value}")
            key = value[-1].encode()
            before = term.text
            start = term.send(key)
            echo: float | None = None
            deadline = start + budget
            while echo is None:
                if time.perf_counter() > deadline:
                    raise BenchError(f"key {i + 1}: the screen never changed")
                echo = term.pump(0.005)
            last = term.settle(args.settle / 1000, budget, f"key {i + 1}'s frame")
            if term.text == before:
                raise BenchError(f"key {i + 1}: the screen changed and came back unchanged")
            echoes.append((echo - start) * 1000)
            frames.append((last - start) * 1000)
    finally:
        term.close()
    return echoes, frames


def _summary(timings: list[float]) -> str:
    return (
        f"median {statistics.median(timings):6.1f} ms  "
        f"min {min(timings):6.1f}  max {max(timings):6.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=20, help=f"at most {len(VALUES)}")
    parser.add_argument("--width", type=int, default=120)
    parser.add_argument("--height", type=int, default=40)
    parser.add_argument("--view", choices=[*VIEW_KEYS, "all"], default="all")
    parser.add_argument("--scenario", type=Path, default=None, help="default: bundled")
    parser.add_argument(
        "--settle", type=float, default=400, help="ms of a still screen that end a frame"
    )
    parser.add_argument("--timeout", type=float, default=120, help="seconds per wait")
    parser.add_argument(
        "--against",
        type=Path,
        default=None,
        help="another checkout (e.g. a git worktree of main): its planner is timed too, "
        "right after this one, view by view",
    )
    args = parser.parse_args()
    if not 1 <= args.changes <= len(VALUES):
        parser.error(f"--changes must be 1 to {len(VALUES)} (new values only)")
    # The reader thread stamps each chunk when it arrives; switch to it within 0.1 ms
    # rather than Python's default 5 ms while pyte parses an earlier chunk.
    sys.setswitchinterval(1e-4)
    views = list(VIEW_KEYS) if args.view == "all" else [args.view]
    name = args.scenario.name if args.scenario else "default scenario"
    print(
        f"TUI key press -> painted frame, {name}, {args.width}x{args.height}, "
        f"{args.changes} keys per view (real process in a pseudo-terminal)"
    )
    print(f"  now:    {planner_origin(None)}")
    if args.against is not None:
        before_origin = planner_origin(args.against)
        print(f"  before: {before_origin}")
        if before_origin == planner_origin(None):
            print("--against imports the same planner as this checkout", file=sys.stderr)
            return 1
    failed = False
    for view in views:
        try:
            echoes, frames = measure(args, view)
            before = None if args.against is None else measure(args, view, args.against)[1]
        except BenchError as err:
            print(f"  {view:<12} FAILED: {err}")
            failed = True
            continue
        ratio = statistics.median(frames) / statistics.median(echoes)
        goal = "ok" if statistics.median(frames) < 50 else "OVER the 50 ms goal"
        print(f"  {view:<12} frame {_summary(frames)}  ({goal})")
        print(f"  {'':<12} echo  {_summary(echoes)}  frame/echo x{ratio:.1f}")
        if before is not None:
            change = statistics.median(frames) / statistics.median(before)
            print(f"  {'':<12} before {_summary(before)}  now/before x{change:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
