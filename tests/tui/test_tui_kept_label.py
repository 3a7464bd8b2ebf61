"""The TUI's compare view notes a layout ``--set`` reshaped under its own label.

tui_scenario.yaml labels its n+3 layout of 12 drives ``triple 12`` by hand; started with
``--set layouts[3].group_size=15`` its row showed 15 drives as "triple 12" and nothing said
so. The note of ``planner evaluate`` (tests/analysis/test_kept_label.py) is under the table,
first after the line on the columns, so that a terminal of 80x24, which cuts the notes at
its foot, shows it; and it stays after an edit of another field. This test failed first.
"""

from __future__ import annotations

import pytest
from pilot_helpers import SCENARIO, app_of, retype, settle
from textual.widgets import Static

from planner.tui import make_app

pytestmark = pytest.mark.asyncio

NOTE = (
    "Layout 'triple 12' is now n+3 15, groups of 12+3 drives, set by --set "
    "layouts[3].group_size=15; it keeps the label the file gives it: rename it with --set "
    "'layouts[3].label=n+3 15'."
)


async def test_the_compare_notes_say_the_label_was_kept() -> None:
    async with make_app(SCENARIO, overrides=["layouts[3].group_size=15"]).run_test(
        size=(80, 24)
    ) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        assert app.scenario.layouts[3].group_size == 15
        notes = app.query_one("#compare-notes", Static)
        assert str(notes.render()).splitlines()[1] == NOTE
        assert notes.region.y + 1 < app.size.height - 1  # above the footer

        await retype(pilot, "drive-arr", "2.5%")
        assert app.scenario.drive.arr == pytest.approx(0.025)
        assert str(notes.render()).splitlines()[1] == NOTE
