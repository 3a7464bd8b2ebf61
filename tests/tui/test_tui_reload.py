"""Ctrl+R (reload from disk) asks before it throws unsaved edits away, as Ctrl+Q does.

Each test failed on the code before the fix: Ctrl+R reloaded at once, edits or not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import app_of, field_input, retype, settle
from textual.screen import ModalScreen
from textual.widgets import Static

from planner.tui import make_app

SIZE = (120, 40)

pytestmark = pytest.mark.asyncio


def on_disk_arr(path: Path, text: str) -> None:
    """Edit the scenario file behind the app's back: ARR becomes ``text``."""
    original = path.read_text(encoding="utf-8")
    assert "arr: 1.9%" in original
    path.write_text(original.replace("arr: 1.9%", f"arr: {text}"), encoding="utf-8")


async def test_reload_at_once_or_after_asking_with_unsaved_changes(scenario_copy: Path) -> None:
    """One session for what were three (the file written back between steps): without
    changes Ctrl+R reloads at once; with unsaved changes it asks, Escape keeps them and r
    reloads (an invalid field counts as a change too)."""
    original = scenario_copy.read_text(encoding="utf-8")
    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        # Without changes Ctrl+R reloads at once.
        assert not app.dirty
        on_disk_arr(scenario_copy, "2.5%")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert not isinstance(app.screen, ModalScreen)
        assert app.scenario.drive.arr == pytest.approx(0.025)
        assert field_input(app, "drive-arr").value == "2.5%"
        scenario_copy.write_text(original, encoding="utf-8")  # 1.9% again, read at once
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.scenario.drive.arr == pytest.approx(0.019)
        assert not app.dirty

        # With unsaved changes it asks, and Escape keeps them.
        await retype(pilot, "restore-rebuild-hours", "30")
        on_disk_arr(scenario_copy, "2.5%")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, ModalScreen)  # a question, not a reload
        question = " ".join(str(app.screen.query_one(Static).render()).split())
        assert "Unsaved changes" in question
        assert "[r]eload" in question
        assert "Esc" in question
        assert app.scenario.rebuild_hours == pytest.approx(30)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ModalScreen)
        assert field_input(app, "restore-rebuild-hours").value == "30"  # kept
        assert app.scenario.rebuild_hours == pytest.approx(30)
        assert app.scenario.drive.arr == pytest.approx(0.019)  # the file was not read
        assert app.dirty

        # With an invalid field too, r reloads (the file still says 2.5%).
        await retype(pilot, "restore-scrub-hours", "xyz")  # an invalid field counts too
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, ModalScreen)
        assert field_input(app, "restore-scrub-hours").value == "xyz"
        await pilot.press("r")
        await settle(pilot)
        assert not isinstance(app.screen, ModalScreen)
        assert field_input(app, "drive-arr").value == "2.5%"
        assert field_input(app, "restore-scrub-hours").value == "168"
        assert app.scenario.drive.arr == pytest.approx(0.025)
        assert app.field_errors == {}
        assert not app.dirty
