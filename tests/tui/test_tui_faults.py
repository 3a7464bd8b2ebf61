"""The TUI under bad input and faults (issue 13): no crash, no silent overwrite, clear notices."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from pilot_helpers import app_of, record_notifications, retype, settle

from planner.tui import make_app

SIZE = (120, 40)

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("key", ["restore-scrub-hours", "restore-rebuild-hours"])
async def test_a_subnormal_restore_time_is_refused_not_a_crash(
    scenario_copy: Path, key: str
) -> None:
    # 5e-324 h once validated, gave a NaN in the table and closed the app with a traceback.
    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        await retype(pilot, key, "5e-324")
        assert app.is_running
        assert "at least 0.001 hours" in app.field_errors[key]
        assert app.scenario.restore.scrub_hours >= 1e-3
        assert app.scenario.rebuild_hours >= 1e-3


RECURSIVE_MERGE = "drive: &m\n  <<: *m\n"


async def test_reload_of_a_recursive_merge_key_is_a_notice(scenario_copy: Path) -> None:
    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        said = record_notifications(app)
        before = app.scenario
        scenario_copy.write_text(RECURSIVE_MERGE, encoding="utf-8")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.is_running
        assert app.scenario is before
        (message,) = [m for m in said if m.startswith("Reload failed")]
        assert f"{scenario_copy}:2:" in message
        assert "\n" not in message


async def test_save_over_a_read_only_scenario_is_refused_unwritten(scenario_copy: Path) -> None:
    # Even for root, who may write anywhere: the mode itself must stop the save.
    original = scenario_copy.read_bytes()
    scenario_copy.chmod(0o444)
    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        said = record_notifications(app)
        await retype(pilot, "aggregate-data-disks", "48")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.is_running
        (message,) = [m for m in said if m.startswith("Not saved")]
        assert scenario_copy.name in message
        assert "read-only" in message
        assert app.dirty
    assert scenario_copy.read_bytes() == original
    assert stat.S_IMODE(scenario_copy.stat().st_mode) == 0o444
    assert sorted(p.name for p in scenario_copy.parent.iterdir()) == ["aggregate.yaml"]


async def test_a_failed_save_names_the_scenario_not_a_temporary_file(
    scenario_copy: Path,
) -> None:
    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        said = record_notifications(app)
        await retype(pilot, "aggregate-data-disks", "48")
        # The folder goes away under the app: the temporary file cannot be made.
        folder = scenario_copy.parent
        moved = folder.with_name(folder.name + "-gone")
        folder.rename(moved)
        try:
            await pilot.press("ctrl+s")  # "removed since loaded: Ctrl+S again to overwrite"
            await settle(pilot)
            await pilot.press("ctrl+s")
            await settle(pilot)
        finally:
            moved.rename(folder)
        (message,) = [m for m in said if m.startswith("Save failed")]
        assert str(scenario_copy) in message
        assert ".tmp" not in message


async def test_a_symlinked_scenario_saves_through_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_bytes((Path(__file__).with_name("tui_scenario.yaml")).read_bytes())
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    async with make_app(link).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await retype(pilot, "aggregate-data-disks", "48")
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert link.is_symlink()
    assert "data_disks: 48" in real.read_text(encoding="utf-8")
