"""Results that come while the compare view is hidden reach its table when it is shown."""

from __future__ import annotations

import pytest
from pilot_helpers import SCENARIO, app_of, retype, settle
from textual.pilot import Pilot
from textual.widgets import DataTable

from planner.tui.app import make_app

pytestmark = pytest.mark.asyncio

SIZE = (120, 40)


def table_rows(pilot: Pilot[None]) -> list[list[str]]:
    """The compare table's cells as text, row by row."""
    table = app_of(pilot).query_one("#compare-table", DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def test_typing_in_another_view_then_f2_shows_the_new_numbers() -> None:
    """In the sweep view (a plot) and the choose view (a search), one session for what
    were four: the file's ARR is typed back in the compare view before each."""
    async with make_app(SCENARIO).run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = table_rows(pilot)
        await retype(pilot, "drive-arr", "4%")
        typed_in_compare = table_rows(pilot)
        for view in ("f3", "f7"):  # sweep: a plot; choose: a search
            await retype(pilot, "drive-arr", "1.9%")
            assert table_rows(pilot) == before, view
            await pilot.press(view)
            await settle(pilot)
            await retype(pilot, "drive-arr", "4%")
            await pilot.press("f2")
            await settle(pilot)
            assert table_rows(pilot) == typed_in_compare, view
            assert table_rows(pilot) != before, view
