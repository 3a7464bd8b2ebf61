"""A newcomer's 80x24 walk through a plan: the rough edges their review found, one session.

Each check failed on the code before its fix (the commit that added it says so). One Pilot
session on the shipped three-tier plan, the smallest terminal the app is made for, with
the tier bar above the fields: the rows are fewest there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import app_of, field_input, settle
from textual.containers import Vertical
from textual.geometry import Region
from textual.widgets import Markdown

from planner.tui import make_app
from planner.tui.dialogs import HelpScreen

PLAN = Path(__file__).parents[2] / "scenarios" / "three-tier-plan.yaml"

pytestmark = pytest.mark.asyncio


def top_row(widget: Vertical) -> str:
    """The text of ``widget``'s first row as painted, its border included."""
    return widget.render_lines(Region(0, 0, widget.outer_size.width, 1))[0].text


async def test_a_plan_at_80x24_wastes_no_rows_and_keeps_its_words_true() -> None:
    async with make_app(PLAN).run_test(size=(80, 24)) as pilot:
        app = app_of(pilot)
        await settle(pilot)

        # F1: the help's title on its top row, the text right under it (three blank rows
        # stood above a title inside the scrolled text).
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        dialog = app.screen.query_one("#help-dialog", Vertical)
        assert "planner: keys" in top_row(dialog)
        text = app.screen.query_one(Markdown)
        first = text.children[0]
        assert first.region.y == dialog.content_region.y
        assert str(first.render()).startswith("Type in a parameter field")
        await pilot.press("escape")
        await settle(pilot)

        # F8 from a field: the next tier's same field has the focus, its text selected, so
        # what is typed next replaces the value (the fields were rebuilt for the tier and
        # the focus was left nowhere: the keys went unheard).
        arr = field_input(app, "drive-arr")
        assert app.focused is arr
        await pilot.press("f8")
        await settle(pilot)
        assert app.scenario.name == "SAS"
        arr = field_input(app, "drive-arr")
        assert app.focused is arr
        await pilot.press("2", "%")
        await settle(pilot)
        assert arr.value == "2%"
        assert app.scenario.drive.arr == pytest.approx(0.02)
