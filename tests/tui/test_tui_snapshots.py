"""Snapshot tests (pytest-textual-snapshot) of each view at 120x40 on a fixed scenario.

Regenerate with ``pytest tests/tui --snapshot-update`` and look at the report before
committing the new SVGs.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from planner.tui import make_app

SCENARIO = Path(__file__).with_name("tui_scenario.yaml")
WORKLOAD = Path(__file__).with_name("tui_workload.yaml")
SIZE = (120, 40)


async def _settle(pilot: Pilot[None]) -> None:
    for field in pilot.app.query(Input):
        field.cursor_blink = False  # a blinking cursor would make the snapshot flaky
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _after(*keys: str):  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        await _settle(pilot)
        for key in keys:
            await pilot.press(key)
            await _settle(pilot)

    return run_before


def test_compare_view(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(SCENARIO), terminal_size=SIZE, run_before=_after())


def test_compare_view_with_an_invalid_field(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(
        make_app(SCENARIO), terminal_size=SIZE, run_before=_after("end", "x", "y", "z")
    )


def test_sweep_view(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(SCENARIO), terminal_size=SIZE, run_before=_after("f3"))


def test_model_view(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(SCENARIO), terminal_size=SIZE, run_before=_after("f4"))


def test_help_screen(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(SCENARIO), terminal_size=SIZE, run_before=_after("f1"))


def test_compare_view_at_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(SCENARIO), terminal_size=(80, 24), run_before=_after())


def test_sensitivity_view(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(SCENARIO), terminal_size=SIZE, run_before=_after("f5"))


def test_compare_view_with_sizing(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(WORKLOAD), terminal_size=SIZE, run_before=_after())
