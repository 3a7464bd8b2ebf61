"""Regenerate the README screenshots: SVGs saved by Textual from the real app.

Run from the repository root: ``.venv/bin/python docs/screenshots/make_screenshots.py``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from planner.tui.app import make_app

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

SHOTS = [
    # (file, scenario or None for the default, keys to press first)
    ("compare.svg", None, []),
    ("sweep.svg", None, ["f3"]),
    ("sensitivity.svg", None, ["f5"]),
    ("sizing.svg", ROOT / "scenarios" / "ns3574-table9-250mb.yaml", []),
    ("choose.svg", ROOT / "scenarios" / "recommend-400tb.yaml", ["f7"]),
    ("today.svg", ROOT / "scenarios" / "today-20tb-nl-sas.yaml", []),
]


async def shoot(name: str, scenario: Path | None, keys: list[str]) -> None:
    """Open the app on ``scenario``, press ``keys``, save the screen as ``name``."""
    app = make_app(scenario)
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
        app.save_screenshot(filename=name, path=str(HERE))
    print(f"wrote {HERE / name}")


async def main() -> None:
    """Take every screenshot in SHOTS."""
    for name, scenario, keys in SHOTS:
        await shoot(name, scenario, keys)


if __name__ == "__main__":
    asyncio.run(main())
