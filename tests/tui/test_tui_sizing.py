"""Pilot tests of the sizing columns and the rebuild-rate field on a workload scenario.

The scenario (tui_workload.yaml, copied into tmp_path) is sized by hand here:

* 1,000 host IOPS, 60 % reads: 600 reads + 400 writes per second; 10 TB on 1 TB drives
  of 100 IOPS, 90 % usable: ceil(10 / 0.9) = 12 data drives.
* raid10 (pairs, write penalty 2): back-end 600 + 2 x 400 = 1,400 IOPS = 14 drives;
  capacity 12 pairs = 24 drives. 24 needed, bound by capacity; 12 groups.
* raid5 5 (4+1, penalty 4): back-end 600 + 4 x 400 = 2,200 = 22 drives -> 5 groups = 25;
  capacity ceil(12 / 4) = 3 groups = 15. 25 needed, bound by IOPS; 5 groups.
* raid-dp 8 (6+2, penalty 1): back-end 1,000 = 10 drives -> 2 groups = 16; capacity
  2 groups = 16. 16 needed, a tie: bound by capacity; 2 groups.
* Rebuild: 1 TB at 50 MB/s = 10^6 MB / 50 MB/s = 5.56 h, x 2 load = 11.1 h.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pilot_helpers import app_of, retype, settle
from textual.widgets import DataTable, Input, Static

from planner.analysis.inputs import scenario_inputs
from planner.analysis.sizing_report import sizing_report
from planner.report import sizing
from planner.scenario import load_scenario
from planner.tui import PlannerApp, make_app
from planner.tui.compare_view import CompareView

WORKLOAD = Path(__file__).with_name("tui_workload.yaml")
SIZE = (120, 40)

pytestmark = pytest.mark.asyncio

HAND_SIZED = {
    # label: (write penalty, disks for capacity, for IOPS, needed, bound by, groups)
    "raid10 2": ("2", "24", "14", "24", "capacity", 12),
    "raid5 5": ("4", "15", "25", "25", "IOPS", 5),
    "raid-dp 8": ("1", "16", "16", "16", "capacity", 2),
}


@pytest.fixture
def workload_copy(tmp_path: Path) -> Path:
    target = tmp_path / "workload.yaml"
    shutil.copy(WORKLOAD, target)
    return target


def cells(app: PlannerApp, label: str) -> dict[str, str]:
    """The compare table's row ``label`` by one-line header."""
    table = app.query_one("#compare-table", DataTable)
    headers = [" ".join(str(c.label).split()) for c in table.columns.values()]
    return dict(zip(headers, (str(cell).strip() for cell in table.get_row(label)), strict=True))


def notes_text(app: PlannerApp) -> str:
    return str(app.query_one("#compare-notes", Static).render())


async def test_the_sizing_columns_toggle_sort_export_risk_and_the_rebuild_rate(
    workload_copy: Path,
) -> None:
    """One session on a copy of the workload scenario, for what were seven.

    The compare view shows the sizing columns worked out by hand; Ctrl+O exports the sizing
    table shown; c toggles to the fixed aggregate and back; s sorts by disks needed; a
    higher ARR raises the sized risk; the rebuild model is edited (and saved) as a rate;
    a narrow field shows its leading digits once left.
    """
    original = workload_copy.read_text(encoding="utf-8")
    async with make_app(workload_copy).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        # The compare view shows the sizing columns.
        assert app.query_one(CompareView).showing_sizing
        assert app.comparison is not None
        groups_of = {r.layout.label: r for r in app.comparison.results}
        for label, (penalty, capacity, iops, needed, bound, groups) in HAND_SIZED.items():
            row = cells(app, label)
            assert row["Write pen."] == penalty
            assert row["Disks for capacity"] == capacity
            assert row["Disks for IOPS"] == iops
            assert row["Disks needed"] == needed
            assert row["Bound by"] == bound
            assert row["Groups"] == str(groups)
            # The risk is the sized aggregate's: 1 - (1 - p_group)^groups for the sized
            # number of groups (not for aggregate.data_disks = 12).
            p_group = groups_of[label].p_loss_group
            p_sized = 1 - (1 - p_group) ** groups
            shown = float(row["P(loss) of sized aggr."].rstrip("%")) / 100
            assert shown == pytest.approx(p_sized, rel=0.05)
        assert cells(app, "raid-dp 8")["Risk vs base per aggr."] == "1.00×"
        assert "SIZED aggregate (disks needed)" in notes_text(app)
        assert (
            "Rebuild 11.1 h: 1 TB at 50 MB/s (restore.rebuild_mb_per_s), restore.load_factor: 2"
            in notes_text(app)
        )

        # Export writes the sizing table shown.
        await pilot.press("ctrl+o")
        await settle(pilot)
        exported = workload_copy.with_name("workload-sizing.md")
        scenario = load_scenario(workload_copy)
        report = sizing_report(scenario, scenario_inputs(scenario))
        assert report is not None
        assert exported.read_text(encoding="utf-8") == sizing.to_markdown(report)
        assert "| raid5 5 | 4 |" in exported.read_text(encoding="utf-8")

        # c toggles to the fixed aggregate and back.
        view = app.query_one(CompareView)
        view.table.focus()
        await pilot.press("c")
        await settle(pilot)
        assert not view.showing_sizing
        assert cells(app, "raid5 5")["Groups"] == "3"  # 12 data drives in groups of 4
        assert "fixed aggregate of aggregate.data_disks" in notes_text(app)
        await pilot.press("c")
        await settle(pilot)
        assert view.showing_sizing
        assert cells(app, "raid5 5")["Groups"] == "5"

        # Sort by disks needed in the sizing columns.
        await pilot.press("s", "s")
        await settle(pilot)
        assert [str(k.value) for k in view.table.rows] == ["raid-dp 8", "raid10 2", "raid5 5"]
        assert "disks needed (fewest first)" in notes_text(app)
        await pilot.press("s")  # the file's order again
        await settle(pilot)

        # A higher ARR raises the sized risk.
        assert app.results is not None
        assert app.results.sizing is not None
        before = {r.label: r.p_loss_aggregate for r in app.results.sizing.results}
        await retype(pilot, "drive-arr", "4%")
        assert app.results.sizing is not None
        after = {r.label: r.p_loss_aggregate for r in app.results.sizing.results}
        assert all(after[label] > before[label] for label in before)
        assert cells(app, "raid5 5")["Disks needed"] == "25"  # the workload did not change
        await retype(pilot, "drive-arr", "1.9%")  # the file's ARR again
        assert app.scenario == app.saved_scenario

        # The rebuild model is edited as a rate.
        assert not app.query("#input-restore-rebuild-hours")
        rate = app.query_one("#input-restore-rebuild-mb-per-s", Input)
        derived = app.query_one("#derived-restore-rebuild-mb-per-s", Static)
        assert rate.value == "50"
        assert str(derived.render()) == "= 11.1 h"
        assert app.results is not None
        assert app.results.sizing is not None
        p_before = app.results.sizing.results[0].p_loss_aggregate

        await retype(pilot, "restore-rebuild-mb-per-s", "100")
        assert app.scenario.restore.rebuild_mb_per_s == 100
        assert app.scenario.restore.rebuild_hours is None
        assert app.scenario.rebuild_hours == pytest.approx(1e6 / 100 / 3600 * 2)
        assert str(derived.render()) == "= 5.56 h"
        assert app.results.sizing.results[0].rebuild_hours == pytest.approx(5.5556, rel=1e-4)
        assert app.results.sizing.results[0].p_loss_aggregate < p_before

        # A rate that would take over a year is refused inline; the last results stay.
        results = app.results
        rate.value = "0.01"  # as if pasted
        await settle(pilot)
        assert "at most 8760 hours" in app.field_errors["restore-rebuild-mb-per-s"]
        assert app.results is results
        assert str(derived.render()) == "= 5.56 h"
        await retype(pilot, "restore-rebuild-mb-per-s", "100")
        assert app.field_errors == {}

        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = workload_copy.read_text(encoding="utf-8")
        assert "  rebuild_mb_per_s: 100     # 1 TB at 50 MB/s = 5.56 h" in saved
        assert "rebuild_hours" not in saved
        changed = [line for line in saved.splitlines() if line not in original.splitlines()]
        assert changed == ["  rebuild_mb_per_s: 100     # 1 TB at 50 MB/s = 5.56 h"]
        assert load_scenario(workload_copy).rebuild_hours == pytest.approx(5.5556, rel=1e-4)

        # At 120 columns the rate field showed '3.5' for 13.5 after Tab (scrolled to the
        # end): a narrow field shows its leading digits once left.
        await retype(pilot, "restore-rebuild-mb-per-s", "13.5")
        await pilot.press("tab")
        await settle(pilot)
        assert rate.value == "13.5"
        assert rate.render_line(0).text.strip().startswith("13.5")


async def test_without_a_workload_there_is_no_toggle() -> None:
    plain = Path(__file__).with_name("tui_scenario.yaml")
    async with make_app(plain).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        view = app.query_one(CompareView)
        view.table.focus()
        assert not view.showing_sizing
        assert view.check_action("toggle_columns", ()) is False
        await pilot.press("c")
        await settle(pilot)
        assert "Drives/ group" in cells(app, "raid5 8")
        assert app.query_one("#input-restore-rebuild-hours", Input).value == "12"
        assert not app.query(".param-derived")
