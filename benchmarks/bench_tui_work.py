"""Main-thread work of the TUI per keystroke: laying out and painting the screen.

Run: ``.venv/bin/python benchmarks/bench_tui_work.py [--keys 20]``; for a before/after, run
it again with ``PYTHONPATH`` at another checkout (the other planner is imported).

``bench_tui.py`` times key to painted frame from outside, which on a shared machine swings
by tens of ms between runs. This one counts, inside the app (headless, 120x40, Textual's
Pilot), the time the event loop spends per keystroke in Textual's layout
(``Screen._refresh_layout``) and in painting (``Compositor.render_update``): the work a
keystroke costs the UI thread whatever the machine's load. Each key completes a new ARR
value, as in ``bench_tui.py``; the view's workers are
waited for after each key. Every wait has a timeout (``--timeout`` seconds per view).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from typing import Any

from textual._compositor import Compositor
from textual.screen import Screen
from textual.widgets import Input

import planner
from planner.tui import make_app

VIEW_KEYS = {"compare": "f2", "sweep": "f3", "model": "f4", "sensitivity": "f5", "choose": "f7"}

VALUES = [f"0.0{tens}{units}" for tens in range(1, 10) for units in range(1, 10)]
"""The ARR values the measured keys complete, in turn (as in bench_tui.py)."""


class Stopwatch:
    """Milliseconds spent in wrapped functions while recording, by name."""

    def __init__(self) -> None:
        self.recording = False
        self.spent: dict[str, float] = {}

    def wrap(self, owner: type[Any], name: str, label: str) -> None:
        """Time every call of ``owner.name`` under ``label``."""
        original: Callable[..., Any] = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                if self.recording:
                    elapsed = (time.perf_counter() - start) * 1000
                    self.spent[label] = self.spent.get(label, 0.0) + elapsed

        setattr(owner, name, timed)


async def measure(view: str, keys: int, watch: Stopwatch) -> dict[str, float]:
    """Milliseconds per key in layout and painting, in ``view``."""
    app = make_app(None)
    async with app.run_test(size=(120, 40)) as pilot:

        async def settle(pause: float = 0.0) -> None:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause(pause)

        await settle()
        await pilot.press(VIEW_KEYS[view])
        await settle()
        field = app.query_one("#input-drive-arr", Input)
        field.focus()
        watch.spent = {}
        for i in range(keys):
            # As in bench_tui.py: each measured key completes a value never typed before
            # (0.011, 0.012, ...); the backspace or new prefix before it is not counted.
            value = VALUES[i % len(VALUES)]
            if i % 9 == 0:
                await pilot.press("end", "ctrl+u", *value[:-1], "end")
            else:
                await pilot.press("backspace")
            await settle(0.05)
            watch.recording = True
            await pilot.press(value[-1])
            await settle(0.05)
            watch.recording = False
    return {label: total / keys for label, total in watch.spent.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=20)
    parser.add_argument("--view", choices=[*VIEW_KEYS, "all"], default="all")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per view")
    args = parser.parse_args()
    watch = Stopwatch()
    watch.wrap(Screen, "_refresh_layout", "layout")
    watch.wrap(Compositor, "render_update", "paint")
    print(f"TUI main-thread work per keystroke, 120x40, {args.keys} keys ({planner.__file__})")
    views = list(VIEW_KEYS) if args.view == "all" else [args.view]
    for view in views:
        try:
            per_key = asyncio.run(asyncio.wait_for(measure(view, args.keys, watch), args.timeout))
        except TimeoutError:
            print(f"  {view:<12} FAILED: timed out after {args.timeout:g} s")
            return 1
        except Exception as err:
            # Cancelling the app mid-keystroke at the timeout can end in Textual's own error
            # (no screens on the stack) rather than TimeoutError: still a failed run.
            print(f"  {view:<12} FAILED: {type(err).__name__}: {err} (timeout {args.timeout:g} s)")
            return 1
        layout, paint = per_key.get("layout", 0.0), per_key.get("paint", 0.0)
        print(
            f"  {view:<12} layout {layout:6.1f} ms  paint {paint:6.1f} ms  "
            f"total {layout + paint:6.1f} ms per key"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
