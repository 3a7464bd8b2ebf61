"""A keystroke's new plot is built by the view's worker; the UI thread only paints it."""

from __future__ import annotations

import pytest
from pilot_helpers import SCENARIO, app_of, field_input, settle
from textual.pilot import Pilot

from planner.tui.app import make_app
from planner.tui.plot import CachedPlot

pytestmark = pytest.mark.asyncio


def chart_text(pilot: Pilot[None], plot_id: str) -> tuple[CachedPlot, list[str]]:
    """The plot widget and its lines as painted."""
    plot = app_of(pilot).query_one(plot_id, CachedPlot)
    return plot, [plot.render_line(y).text for y in range(plot.size.height)]


@pytest.mark.parametrize(("view", "plot_id"), [("f3", "#sweep-risk"), ("f7", "#choose-plot")])
async def test_a_new_value_is_painted_from_the_workers_chart(view: str, plot_id: str) -> None:
    async with make_app(SCENARIO).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(view)
        await settle(pilot)
        plot, before = chart_text(pilot, plot_id)
        built = plot.built_here
        field = field_input(app_of(pilot), "drive-arr")  # 1.9%: one key makes it 11.9%
        field.focus()
        await pilot.pause()  # the focus selects the text; End then leaves the cursor last
        field.action_end()
        await pilot.press("left", "left", "left", "1")
        await settle(pilot)
        assert field.value == "11.9%"
        _, after = chart_text(pilot, plot_id)
        assert after != before  # the new figure is shown ...
        assert any("P(loss)" in line for line in after)
        assert plot.built_here == built  # ... and the UI thread did not build it
