"""How fast the TUI answers a keystroke: Pilot presses a key, we time until the table changes.

Run: ``.venv/bin/python benchmarks/bench_tui.py [--changes 20]``. Each change is one
keystroke in a parameter field of the default scenario that leaves a valid value (ARR
0.019 <-> 0.01, rebuild hours 12 <-> 1, alternately), so every key press is one recompute.
The clock starts when Pilot sends the key and stops when the compare table has been
refilled with the new results (polled every 0.5 ms alongside Pilot). Prints the median and
spread; issue 3's goal is a median under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from textual.widgets import Input

from planner.tui import make_app
from planner.tui.compare import CompareView


async def measure(changes: int, size: tuple[int, int], view_key: str) -> list[float]:
    app = make_app(None, overrides=["drive.arr=0.019"])
    timings: list[float] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        view = app.query_one(CompareView)
        arr = app.query_one("#input-drive-arr", Input)
        rebuild = app.query_one("#input-restore-rebuild-hours", Input)
        arr.value = "0.019"  # typed as a fraction, so one backspace still leaves a number
        await pilot.press(view_key)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        for i in range(changes):
            field = (arr, rebuild)[(i // 2) % 2]
            field.focus()
            field.action_end()
            await pilot.pause()
            key = "backspace" if i % 2 == 0 else {"0.01": "9", "1": "2"}[field.value]
            before = view.renders
            start = time.perf_counter()
            press = asyncio.create_task(pilot.press(key))
            while view.renders == before:
                await asyncio.sleep(0.0005)
            timings.append((time.perf_counter() - start) * 1000)
            await press
            await app.workers.wait_for_complete()
            await pilot.pause()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--width", type=int, default=120)
    parser.add_argument("--height", type=int, default=40)
    parser.add_argument(
        "--view",
        choices=["compare", "sweep", "model"],
        default="compare",
        help="view shown while typing (the sweep view also recomputes its plots)",
    )
    args = parser.parse_args()
    key = {"compare": "f2", "sweep": "f3", "model": "f4"}[args.view]
    timings = asyncio.run(measure(args.changes, (args.width, args.height), key))
    print(
        f"TUI: key press -> compare table updated (default scenario, {args.view} view, "
        f"{args.width}x{args.height}, {len(timings)} changes)"
    )
    print(
        f"  median {statistics.median(timings):.1f} ms, min {min(timings):.1f} ms, "
        f"max {max(timings):.1f} ms (goal: median < 50 ms)"
    )
    print("  each (ms): " + " ".join(f"{t:.1f}" for t in timings))


if __name__ == "__main__":
    main()
