"""The TUI's "Rebuilds" field: restore.parallel_rebuilds (1, a number of streams, or all)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import app_of, field_input, retype, settle

from planner.scenario import load_scenario
from planner.tui import make_app

SIZE = (120, 40)

pytestmark = pytest.mark.asyncio


async def test_parallel_rebuilds_field_lowers_the_risk_says_why_not_and_is_saved(
    scenario_copy: Path,
) -> None:
    """One session on a copy of the fixed scenario, for what were two."""
    async with make_app(scenario_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        assert field_input(app, "restore-parallel-rebuilds").value == "1"
        assert app.comparison is not None
        before = {r.layout.label: r.p_loss_group for r in app.comparison.results}
        await retype(pilot, "restore-parallel-rebuilds", "all")
        assert app.scenario.restore.parallel_rebuilds is True
        after = {r.layout.label: r.p_loss_group for r in app.comparison.results}
        assert after["raid5 8"] == pytest.approx(before["raid5 8"], rel=1e-12)  # k = 1
        assert after["raid6 16"] < before["raid6 16"]
        assert after["triple 12"] < before["triple 12"]
        await retype(pilot, "restore-parallel-rebuilds", "2")
        assert app.scenario.restore.rebuild_streams == 2
        await retype(pilot, "restore-parallel-rebuilds", "all")  # as the file and derive -p
        assert app.field_errors == {}
        assert app.scenario.restore.parallel_rebuilds is True
        for typed, why in (
            ("1000000", "1000000 is more than 64 rebuilds at once"),
            ("2.5", "2.5 is not a whole number"),
        ):
            await retype(pilot, "restore-parallel-rebuilds", typed)
            reason = app.field_errors["restore-parallel-rebuilds"]
            assert reason == f"{why}: type a whole number from 1 to 64, or all"
            shown = str(app.query_one("#param-errors").render())
            assert f"Rebuilds: {why}" in shown

        # Parallel rebuilds are saved.
        await retype(pilot, "restore-parallel-rebuilds", "2")
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert "parallel_rebuilds: 2" in scenario_copy.read_text(encoding="utf-8")
    assert load_scenario(scenario_copy).restore.rebuild_streams == 2


async def test_all_rebuilds_are_saved_in_the_restore_section(tmp_path: Path) -> None:
    """The review's steps: Rebuilds all and Ctrl+S on a copy of the default scenario.

    ``parallel_rebuilds: true`` went after the blank line that ends ``restore:``, which
    left ``aggregate:`` right under it.
    """
    shipped = Path(__file__).parents[2] / "scenarios" / "ns3574-default.yaml"
    copy = tmp_path / "ns3574-default.yaml"
    text = shipped.read_text(encoding="utf-8")
    copy.write_text(text, encoding="utf-8")
    async with make_app(copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await retype(pilot, "restore-parallel-rebuilds", "all")
        await pilot.press("ctrl+s")
        await settle(pilot)
    saved = copy.read_text(encoding="utf-8")
    assert load_scenario(copy).restore.parallel_rebuilds is True
    before, gap, after = text.partition("  scrub_hours: 168\n\naggregate:\n")
    assert gap  # the shipped file's restore section ends so
    assert saved == before + "  scrub_hours: 168\n  parallel_rebuilds: true\n\naggregate:\n" + after
