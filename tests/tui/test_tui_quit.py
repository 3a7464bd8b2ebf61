"""Quitting never waits for a worker (issue 13, item 5).

Textual runs thread workers in the event loop's default executor, and ``asyncio.run`` joins
that executor's threads before it returns: a SymPy derivation of n+8 (minutes) kept the
terminal for 4-6 minutes after Ctrl+Q. The check runs the app in a subprocess whose
derivation blocks forever; the process must end, well within the generous timeout.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pilot_helpers import SCENARIO

_BLOCKED_DERIVATION = """
import asyncio, sys, threading
from pathlib import Path
import planner.analysis.derivation_cache as derivation_cache

def forever(*args, **options):  # derivation_cache.model(parity, exact=..., ...)
    print("deriving", flush=True)
    threading.Event().wait()

derivation_cache.model = forever  # what the model view's closed form calls
from planner.tui import make_app

async def main():
    app = make_app(Path(sys.argv[1]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f4")  # the model view starts the derivation
        for _ in range(100):
            await pilot.pause(0.05)
            if any(w.group == "derive" and w.is_running for w in app.workers):
                break
        await pilot.press("ctrl+q")
    print("quit", flush=True)

asyncio.run(main())
print("exited", flush=True)
"""


def test_ctrl_q_does_not_wait_for_a_running_derivation(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", _BLOCKED_DERIVATION, str(SCENARIO)],
        capture_output=True,
        text=True,
        timeout=120,  # a hang, not a speed: the derivation never ends on its own
        check=False,
        cwd=tmp_path,
    )
    assert out.stdout.split() == ["deriving", "quit", "exited"], out.stderr[-2000:]
    assert out.returncode == 0
