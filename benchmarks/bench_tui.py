"""How fast the TUI answers a keystroke: Pilot presses a key, we time until the table changes.

Run: ``.venv/bin/python benchmarks/bench_tui.py [--changes 20] [--view VIEW] [--scenario F]``.
Each change is one keystroke in a parameter field that leaves a valid value (ARR
0.019 <-> 0.01, and on the default scenario rebuild hours 12 <-> 1, alternately), so every
key press is one recompute. The clock starts when Pilot sends the key and stops when the
compare table has been refilled with the new results (polled every 0.5 ms alongside
Pilot). In the sensitivity view a second clock stops when the tornado has been redrawn
too. Prints the medians and spread; issue 3's goal is a median under 50 ms.

``--scenario scenarios/ns3574-table9-250mb.yaml`` times a scenario with a workload (the
compare table then shows the sizing columns, computed on every keystroke).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from textual.widgets import Input

from planner.tui import make_app
from planner.tui.compare import CompareView
from planner.tui.tornado import SensitivityView

NEXT_KEY = {"0.01": "9", "1": "2"}
"""After a backspace turned 0.019 into 0.01 (or 12 into 1), the key that turns it back."""


async def measure(
    changes: int, size: tuple[int, int], view_key: str, scenario: Path | None
) -> tuple[list[float], list[float]]:
    """Key-press-to-table and (sensitivity view) key-press-to-tornado times, ms."""
    if scenario is None:
        app = make_app(None, overrides=["drive.arr=0.019"])
    else:
        app = make_app(scenario, overrides=["drive.arr=0.019"])
    timings: list[float] = []
    tornado_timings: list[float] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        view = app.query_one(CompareView)
        tornado = app.query_one(SensitivityView)
        arr = app.query_one("#input-drive-arr", Input)
        fields = [arr]
        if app.query("#input-restore-rebuild-hours"):
            fields.append(app.query_one("#input-restore-rebuild-hours", Input))
        arr.value = "0.019"  # typed as a fraction, so one backspace still leaves a number
        await pilot.press(view_key)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        for i in range(changes):
            field = fields[(i // 2) % len(fields)]
            field.focus()
            field.action_end()
            await pilot.pause()
            key = "backspace" if i % 2 == 0 else NEXT_KEY[field.value]
            before, tornado_before = view.renders, tornado.renders
            start = time.perf_counter()
            press = asyncio.create_task(pilot.press(key))
            while view.renders == before:
                await asyncio.sleep(0.0005)
            timings.append((time.perf_counter() - start) * 1000)
            if view_key == "f5":
                while tornado.renders == tornado_before:
                    await asyncio.sleep(0.0005)
                tornado_timings.append((time.perf_counter() - start) * 1000)
            await press
            await app.workers.wait_for_complete()
            await pilot.pause()
    return timings, tornado_timings


def _summary(timings: list[float]) -> str:
    return (
        f"median {statistics.median(timings):.1f} ms, min {min(timings):.1f} ms, "
        f"max {max(timings):.1f} ms (goal: median < 50 ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--width", type=int, default=120)
    parser.add_argument("--height", type=int, default=40)
    parser.add_argument(
        "--view",
        choices=["compare", "sweep", "model", "sensitivity"],
        default="compare",
        help="view shown while typing (the sweep and sensitivity views also recompute "
        "their plots / tornado in a worker)",
    )
    parser.add_argument("--scenario", type=Path, default=None, help="default: bundled")
    args = parser.parse_args()
    key = {"compare": "f2", "sweep": "f3", "model": "f4", "sensitivity": "f5"}[args.view]
    timings, tornado_timings = asyncio.run(
        measure(args.changes, (args.width, args.height), key, args.scenario)
    )
    name = args.scenario.name if args.scenario else "default scenario"
    print(
        f"TUI: key press -> compare table updated ({name}, {args.view} view, "
        f"{args.width}x{args.height}, {len(timings)} changes)"
    )
    print(f"  {_summary(timings)}")
    print("  each (ms): " + " ".join(f"{t:.1f}" for t in timings))
    if tornado_timings:
        print(f"TUI: key press -> tornado redrawn: {_summary(tornado_timings)}")
        print("  each (ms): " + " ".join(f"{t:.1f}" for t in tornado_timings))


if __name__ == "__main__":
    main()
