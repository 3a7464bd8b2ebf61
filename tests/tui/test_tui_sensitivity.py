"""Pilot tests of the sensitivity view (F5) and the Monte Carlo check (F6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pilot_helpers import SCENARIO, app_of, retype, settle
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import DataTable, Static
from typer.testing import CliRunner

from planner.analysis.varied_fields import field_for
from planner.cli import app as cli
from planner.report.sensitivity import sensitivity_columns
from planner.tui import make_app
from planner.tui.model_view import ModelView
from planner.tui.simulation_line import SimulationLine
from planner.tui.tornado import SensitivityView

WORKLOAD = Path(__file__).with_name("tui_workload.yaml")
SIZE = (120, 40)
INPUTS = {
    "drive.arr",
    "drive.latent_defects_per_hour",
    "restore.rebuild_hours",
    "restore.scrub_hours",
    "mission_years",
    "aggregate.data_disks",
}

pytestmark = pytest.mark.asyncio


def assert_same_markov_as_the_cli(line: SimulationLine) -> None:
    """The F6 line's exact Markov value is ``planner simulate``'s: raw and as shown."""
    assert line.request is not None
    args = ["simulate", str(SCENARIO), "--trials", "500", "--seed", "1"]
    args += ["--layout", line.request.label]
    runs = {f: CliRunner().invoke(cli, [*args, "-f", f]) for f in ("json", "markdown")}
    assert all(run.exit_code == 0 for run in runs.values()), runs
    record = json.loads(runs["json"].stdout)["layouts"][0]
    assert record["p_loss_markov"] == line.request.p_loss_markov
    table = [row for row in runs["markdown"].stdout.splitlines() if row.startswith("|")]
    headers = [cell.strip() for cell in table[0].strip("|").split("|")]
    cells = [cell.strip() for cell in table[2].strip("|").split("|")]
    shown = cells[headers.index("Markov P(loss) group")].removesuffix(" ✗")
    assert f"Exact Markov, constant rates: {shown};" in str(line.render())


async def test_the_tornado_ranks_follows_and_f6_simulates_next_to_markov() -> None:
    """The fixed scenario, one session for what were three (the ARR typed back between).

    The tornado ranks the inputs by swing; F6 simulates the selected layout next to the
    exact Markov value; the tornado follows an ARR change and the selected layout.
    """
    async with make_app(SCENARIO).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        # The tornado ranks the inputs by swing.
        # The compare table's cursor starts on the baseline, raid-dp 9 (the second row).
        assert app.tornado is None  # computed only once the view is shown
        await pilot.press("f5")
        await settle(pilot)
        view = app.query_one(SensitivityView)
        assert view.tornado is not None
        report = view.tornado
        assert report.label == "raid-dp 9"  # the compare table's cursor row
        assert not report.sized
        assert set(view.ranking) == INPUTS
        swings = [b.swing for b in report.sensitivity.bars]
        assert swings == sorted(swings, reverse=True)
        assert view.ranking == [field_for(b.parameter).name for b in report.sensitivity.bars]
        # Double parity, far from saturation: a loss needs two drive failures (and a latent
        # defect or a third failure), so P ~ lambda_op^2 and ARR moves the risk most, with
        # an elasticity near 2, then the rebuild time (~1: one rebuild window).
        assert view.ranking[:2] == ["drive.arr", "restore.rebuild_hours"]
        arr = report.sensitivity.bars[0]
        assert arr.elasticity == pytest.approx(2.0, abs=0.05)
        assert arr.p_loss_low < report.sensitivity.p_loss_aggregate < arr.p_loss_high
        assert arr.p_loss_high / arr.p_loss_low == pytest.approx(16, rel=0.1)  # (2 / 0.5)^2
        # The base is the compare view's P(loss) of the same aggregate.
        assert app.comparison is not None
        shown = next(r for r in app.comparison.results if r.layout.label == "raid-dp 9")
        assert report.sensitivity.p_loss_aggregate == pytest.approx(shown.p_loss_aggregate)
        tornado_table = app.query_one("#tornado-table", DataTable)
        assert tornado_table.row_count == 6
        headers = " ".join(str(c.label) for c in tornado_table.columns.values())
        assert "Elasti" in headers

        # F6 simulates the selected layout next to Markov (the first row again).
        await pilot.press("f2")
        await settle(pilot)
        app.query_one("#compare-table", DataTable).move_cursor(row=0)
        await settle(pilot)
        assert not app.query(ModelView)  # never shown yet: F6 builds it
        await pilot.press("f6")
        await settle(pilot)
        assert app.query_one("TabbedContent").active == "model"  # type: ignore[attr-defined]
        line = app.query_one(SimulationLine)
        assert line.request is not None
        assert line.result is not None
        assert line.request.label == "raid5 8"
        result = line.result
        assert result.ci95_low <= result.p_loss_group <= result.ci95_high
        # Constant rates: the estimate agrees with the exact Markov value within 4 sigma.
        assert abs(result.p_loss_group - line.request.p_loss_markov) < 4 * result.std_error
        assert "Exact Markov" in str(line.render())
        assert_same_markov_as_the_cli(line)
        # An edit makes the estimate stale: it is cleared.
        await retype(pilot, "drive-arr", "3%")
        assert line.result is None
        assert "F6: simulate" in str(line.render())
        await retype(pilot, "drive-arr", "1.9%")  # the file's ARR again
        assert app.scenario == app.saved_scenario

        # The tornado follows an ARR change and the selected layout.
        await pilot.press("f5")
        await settle(pilot)
        view = app.query_one(SensitivityView)
        assert view.tornado is not None
        before = view.tornado.sensitivity
        renders = view.renders
        await retype(pilot, "drive-arr", "4%")
        assert view.tornado is not None
        after = view.tornado.sensitivity
        assert view.renders > renders
        assert after.point.rates.op_failures_per_hour == pytest.approx(0.04 / 8760)
        assert after.p_loss_aggregate > before.p_loss_aggregate
        arr = next(b for b in after.bars if field_for(b.parameter).name == "drive.arr")
        assert arr.base_value == pytest.approx(0.04)

        # Another layout in the compare table: the tornado follows it.
        await pilot.press("f2")
        table = app.query_one("#compare-table", DataTable)
        table.focus()
        await pilot.press("down", "down", "down")  # triple 12
        await settle(pilot)
        assert view.tornado.label == "raid5 8"  # hidden view: not recomputed
        await pilot.press("f5")
        await settle(pilot)
        assert view.tornado.label == "triple 12"
        assert view.tornado.sensitivity.parity == 3


async def test_with_a_workload_the_tornado_is_of_the_sized_aggregate() -> None:
    async with make_app(WORKLOAD).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        app.query_one("#compare-table", DataTable).move_cursor(row=0)  # raid10 2
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        tornado = app.query_one(SensitivityView).tornado
        assert tornado is not None
        report = tornado
        assert report.sized
        assert report.rebuild_model
        # raid10 2: 12 sized pairs (aggregate.data_disks: 12)
        assert report.sensitivity.point.data_disks == 12
        assert report.sensitivity.groups == 12
        assert app.results is not None
        assert app.results.sizing is not None
        sized = app.results.sizing.results[0]
        assert report.sensitivity.p_loss_aggregate == pytest.approx(sized.p_loss_aggregate)
        rebuild = next(b for b in report.sensitivity.bars if b.parameter == "rebuild_hours")
        assert rebuild.base_value == pytest.approx(app.scenario.rebuild_hours)


def on_screen_text(pilot: Pilot[None], selector: str) -> str:
    """The text of the rows of widget ``selector`` that are inside its view (words joined)."""
    view = pilot.app.query_one(SensitivityView)
    widget = pilot.app.query_one(selector)
    top = max(widget.region.y, view.region.y)
    bottom = min(widget.region.bottom, view.region.bottom)
    if bottom <= top:
        return ""
    outer = widget.outer_size
    strips = widget.render_lines(Region(0, top - widget.region.y, outer.width, bottom - top))
    return " ".join(" ".join(strip.text for strip in strips).split())


async def test_the_tornado_shows_every_column_wide_and_names_those_left_out_narrow() -> None:
    """The default scenario from 200x50 down to 80x24, one session for what were three.

    A wide view shows every column and no note. A narrow view drops columns (as ``planner
    sensitivity`` does) and names each one; the note has to be on screen without
    scrolling: at 80x24 the chart and the notes under it are below the screen's foot.
    """
    async with make_app(None).run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        view = app_of(pilot).query_one(SensitivityView)
        assert view.tornado is not None
        assert len(view.table.columns) == 1 + len(sensitivity_columns(view.tornado))
        assert "Not shown" not in " ".join(str(w.render()) for w in view.query(Static))

        for size in [(120, 40), (80, 24)]:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert view.tornado is not None
            shown = {" ".join(str(c.label).split()) for c in view.table.columns.values()}
            hidden = [
                column.header
                for column in sensitivity_columns(view.tornado)
                if " ".join(column.narrow_header.split()) not in shown
            ]
            assert hidden, size  # both sizes are too narrow for every column
            assert "Elasticity (group)" in hidden
            if size == (80, 24):
                assert {"Base", "Low (×0.5)", "High (×2)"} <= set(hidden)
            text = " ".join(
                on_screen_text(pilot, f"#{w.id}") for w in view.children if w.id is not None
            )
            assert "Not shown at this width" in text, size
            for header in hidden:
                assert header in text, (size, header)
