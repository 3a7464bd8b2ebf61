"""Seeded keystrokes and extreme numbers through the real TUI (Textual Pilot).

Every field gets extreme numbers typed into it (subnormals, overflow, NaN, 5,000 digits),
then a few dozen random keys go to whatever has the focus: the app must still be running
with no exception, every field either accepted or marked invalid with a one-line reason.
Seeds are fixed (more of them under ``make fuzz``), so a failure names its seed.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from fuzz_support import LONG, REPO, assert_one_line
from textual.pilot import Pilot
from textual.widgets import Input

from planner.tui import PlannerApp, make_app
from planner.tui.params import ParamsPanel

pytestmark = pytest.mark.asyncio

SCENARIO = REPO / "tests" / "tui" / "tui_scenario.yaml"
SEEDS = range(12) if LONG else range(1)
KEY_COUNT = 60 if LONG else 24
EXTREMES = ["5e-324", "1e-300", "1e308", "1e309", "nan", "-inf", "0", "-1", "9" * 400, "1e-7%"]
KEYS = [
    *"0123456789.e-+%x ",
    "backspace", "delete", "tab", "shift+tab", "enter", "escape", "up", "down", "left",
    "right", "home", "end", "f1", "f2", "f3", "f4", "f5", "a", "d", "b", "space", "ctrl+r",
    "ctrl+s", "ctrl+o", "o", "shift+up", "shift+down", "r", "f7",
]  # fmt: skip
"""Keys pressed at random; not Ctrl+Q (it ends the run) nor F6 (a Monte Carlo of seconds)."""


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def check(app: PlannerApp) -> None:
    assert app.is_running
    assert app._exception is None
    for reason in app.field_errors.values():
        assert_one_line(reason)


@pytest.mark.parametrize("seed", SEEDS)
async def test_keys_and_extreme_numbers_never_crash_the_tui(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    scenario = tmp_path / "scenario.yaml"
    shutil.copy(SCENARIO, scenario)
    app = make_app(scenario)
    app.animation_level = "none"  # a sliding tab underline is frames that check nothing
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        fields = list(app.query_one(ParamsPanel).query(Input))
        for field in fields:
            field.focus()
            extreme = rng.choice(EXTREMES)
            if len(extreme) < 10:
                field.value = ""
                await pilot.press(*extreme)  # typed, key by key
            else:
                field.value = extreme  # pasted
            await settle(pilot)
            check(app)
        for _ in range(KEY_COUNT):
            await pilot.press(rng.choice(KEYS))
            if rng.random() < 0.2:
                await settle(pilot)
                check(app)
            if len(app.screen_stack) > 1 and rng.random() < 0.5:
                await pilot.press("escape")
        await settle(pilot)
        check(app)
