"""A keystroke's new plot is built by the view's worker; the UI thread only paints it."""

from __future__ import annotations

import asyncio
import time

import pytest
from pilot_helpers import SCENARIO, app_of, field_input, settle
from textual.pilot import Pilot

from planner.analysis.compare import CompareData, compare_data
from planner.analysis.sweep_series import SweepSeries, group_size_series
from planner.scenario import Scenario
from planner.tui import workers
from planner.tui.app import make_app
from planner.tui.plot import CachedPlot

pytestmark = pytest.mark.asyncio


def chart_text(pilot: Pilot[None], plot_id: str) -> tuple[CachedPlot, list[str]]:
    """The plot widget and its lines as painted."""
    plot = app_of(pilot).query_one(plot_id, CachedPlot)
    return plot, [plot.render_line(y).text for y in range(plot.size.height)]


@pytest.mark.parametrize(("view", "plot_id"), [("f3", "#sweep-risk"), ("f7", "#choose-plot")])
async def test_a_new_value_is_painted_from_the_workers_chart_before_the_comparison(
    view: str, plot_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A keystroke's new chart is built by the view's worker, not the UI thread, and the
    compare table's results (not on screen) are computed after the frame the user waits
    for: computed meanwhile, they would take turns with its painting. (One session for
    what were two: the recording wrapper only watches compare_data.)"""
    seen: list[object] = []
    app = make_app(SCENARIO)

    def compare_after_paint(*args: object) -> CompareData:
        seen.append(next((p.painted for p in app.query(plot_id).results(CachedPlot)), None))
        return compare_data(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(workers, "compare_data", compare_after_paint)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(view)
        await settle(pilot)
        plot, before = chart_text(pilot, plot_id)
        built = plot.built_here
        painted = plot.painted
        field = field_input(app_of(pilot), "drive-arr")  # 1.9%: one key makes it 11.9%
        field.focus()
        await pilot.pause()  # the focus selects the text; End then leaves the cursor last
        field.action_end()
        seen.clear()
        await pilot.press("left", "left", "left", "1")
        await settle(pilot)
        assert field.value == "11.9%"
        _, after = chart_text(pilot, plot_id)
        assert after != before  # the new figure is shown ...
        assert any("P(loss)" in line for line in after)
        assert plot.built_here == built  # ... and the UI thread did not build it
        assert plot.painted != painted
        assert seen == [plot.painted]  # the new chart was on screen when the work began


async def test_the_comparison_waits_for_no_chart_that_is_not_painted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One session in the sweep view, for what were two.

    The drive's size does not move the sweep (rebuild hours are given): its equal chart is
    never painted again, and the comparison must not wait for it. A key, then F2 before
    the sweep is done: the new chart is never painted, and the compare table's results
    must not wait for it either.
    """
    monkeypatch.setattr(workers, "PAINT_WAIT_S", 60.0)  # a wait would outlast the test

    def slow_sweep(scenario: Scenario) -> tuple[SweepSeries, ...]:
        time.sleep(0.3)  # F2 is handled meanwhile
        return group_size_series(scenario)

    monkeypatch.setattr(workers, "group_size_series", slow_sweep)
    async with make_app(SCENARIO).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        # An edit that leaves the chart as it was does not hold the comparison.
        series, before = app_of(pilot).sweep_series, app_of(pilot).results
        field = field_input(app_of(pilot), "drive-capacity-tb")
        field.focus()
        field.action_end()
        await pilot.press("ctrl+u", "5")
        await asyncio.wait_for(settle(pilot), timeout=20)
        assert app_of(pilot).scenario.drive.capacity_tb == 5
        assert app_of(pilot).sweep_series == series  # the same chart ...
        assert app_of(pilot).results is not before  # ... and the new comparison came

        # Leaving the view before its chart is painted does not hold the comparison.
        before = app_of(pilot).results
        field = field_input(app_of(pilot), "drive-arr")
        field.focus()
        field.action_end()
        await pilot.press("ctrl+u", "2", "%", "f2")
        await asyncio.wait_for(settle(pilot), timeout=20)
        assert app_of(pilot).scenario.drive.arr == pytest.approx(0.02)
        assert app_of(pilot).results is not before  # the new comparison came
