"""Issue 21, item 17: the footer names every view key, F2 to F7, at 80 and 120 columns.

At 80 columns the footer showed no F-key but F1 and F6; at 120, F7 ran off the edge.
"""

from __future__ import annotations

import pytest
from pilot_helpers import SCENARIO, settle
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Input

from planner.tui import make_app
from planner.tui.compare_view import CompareView

VIEW_KEYS = ("f2", "f3", "f4", "f5", "f6", "f7")
FILE_KEYS = ("^q", "^o", "^s", "^r", "f1")


def bottom_row(pilot: Pilot[None]) -> str:
    """The text painted on the screen's last row, widget by widget from the left."""
    app = pilot.app
    width, height = app.size
    text = ""
    for x in range(width):
        widget, region = app.screen.get_widget_at(x, height - 1)
        strip = widget.render_lines(Region(0, height - 1 - region.y, region.width, 1))[0]
        text += strip.text[x - region.x : x - region.x + 1] or " "
    return text


async def assert_footer_names_every_view_key(pilot: Pilot[None]) -> None:
    """With the focus in a field, then on the table (whose own keys come too)."""
    size = pilot.app.size
    row = bottom_row(pilot)
    assert len(row) <= size[0]
    words = row.split()
    for key in (*FILE_KEYS, *VIEW_KEYS):
        assert key in words, (key, row)

    pilot.app.query_one(CompareView).table.focus()  # the table's own keys come too
    await settle(pilot)
    words = bottom_row(pilot).split()
    for key in (*FILE_KEYS, *VIEW_KEYS):
        assert key in words, (key, row)


@pytest.mark.asyncio
async def test_footer_names_every_view_key_and_a_key_clicked_runs_its_action() -> None:
    """One session for what were three: at 80 columns the footer names every view key and
    a clicked key runs its action; back in a field of the compare view, resized to 120,
    it still names every one."""
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        field = pilot.app.focused
        assert isinstance(field, Input)
        await assert_footer_names_every_view_key(pilot)

        # A footer key clicked runs its action (from a field, as at the start).
        field.focus()
        await settle(pilot)
        row = bottom_row(pilot)
        await pilot.click(offset=(row.index("f3") + 1, 23))
        await settle(pilot)
        assert pilot.app.query_one("#views").active == "sweep"  # type: ignore[attr-defined]

        await pilot.press("f2")
        await settle(pilot)
        field.focus()
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        await assert_footer_names_every_view_key(pilot)
