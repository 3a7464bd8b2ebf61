"""The TUI under bad input and faults (issue 13): no crash, no silent overwrite, clear notices."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from pilot_helpers import app_of, record_notifications, retype, settle

from planner.tui import make_app

SIZE = (120, 40)

pytestmark = pytest.mark.asyncio


RECURSIVE_MERGE = "drive: &m\n  <<: *m\n"


async def test_bad_input_and_failed_saves_are_notices_not_crashes(scenario_copy: Path) -> None:
    """One session on a copy of the scenario, for what were five.

    A reload of a recursive merge key is a notice; a subnormal restore time is refused,
    not a crash; a save over a read-only scenario is refused and writes nothing; a failed
    save names the scenario, not a temporary file.
    """
    original = scenario_copy.read_bytes()
    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        said = record_notifications(app)

        # The reload of a recursive merge key is a notice.
        before = app.scenario
        scenario_copy.write_text(RECURSIVE_MERGE, encoding="utf-8")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.is_running
        assert app.scenario is before
        (message,) = [m for m in said if m.startswith("Reload failed")]
        assert f"{scenario_copy}:2:" in message
        assert "\n" not in message
        scenario_copy.write_bytes(original)  # the file as loaded again

        # 5e-324 h once validated, gave a NaN in the table and closed the app with a
        # traceback: a subnormal restore time is refused, not a crash.
        for key, shown in (("restore-scrub-hours", "168"), ("restore-rebuild-hours", "12")):
            await retype(pilot, key, "5e-324")
            assert app.is_running
            assert "at least 0.001 hours" in app.field_errors[key]
            assert app.scenario.restore.scrub_hours >= 1e-3
            assert app.scenario.rebuild_hours >= 1e-3
            await retype(pilot, key, shown)
        assert app.field_errors == {}
        assert app.scenario == app.saved_scenario

        # A save over a read-only scenario is refused, unwritten. Even for root, who may
        # write anywhere: the mode itself must stop the save.
        scenario_copy.chmod(0o444)
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
        scenario_copy.chmod(0o644)

        # A failed save names the scenario, not a temporary file. The folder goes away
        # under the app: the temporary file cannot be made.
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
        # the path on the lines under the reason, its first folders left out (…) if long
        shown = "".join(message.splitlines()[1:])
        assert shown.endswith(scenario_copy.name)
        assert str(scenario_copy).endswith(shown.removeprefix("…"))
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
