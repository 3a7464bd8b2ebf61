"""The console script freezes the cycle collector when the command is done (planner/cli/app.py).

Python's shutdown walks every object it tracks in full collections: ~160 ms of CPU at the
end of ``planner evaluate`` on a loaded 2-core machine, for nothing (the process is ending).
The objects are frozen instead; they are still freed by reference counting, and the output
is complete (every CLI test that runs the script checks its output and files).
"""

from __future__ import annotations

import subprocess
import sys

_PROBE = (
    "import atexit, gc, sys\n"
    "from planner.cli import main\n"
    "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
    "sys.argv = ['planner', '--version']\n"
    "main()\n"
)


def test_the_console_script_freezes_the_collector_before_shutdown() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "frozen True", done.stdout
    assert lines[0].startswith("planner"), done.stdout  # the command's own output came first
