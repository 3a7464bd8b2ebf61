"""What a newcomer met first at 80x24: the add-layout dialog's focus.

Each part failed before its fix: the dialog's focused button looked like the other one
(only its label reversed) and a focused field kept its background, so typing on a button
went nowhere with no sign of where the focus was.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import app_of, open_add_dialog, settle
from textual.color import Color
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static

from planner.tui import make_app

SIZE = (80, 24)
MODERN = Path(__file__).parents[2] / "scenarios" / "example-modern-nl-sas.yaml"
"""A shipped scenario whose baseline (RAID 6 (10+2)) is its third layout, not its first."""

pytestmark = pytest.mark.asyncio


def look(widget: Widget) -> tuple[Color, Color]:
    """The colours that mark focus: the left border's and the background."""
    styles = widget.styles
    return styles.border_left[1], styles.background


async def test_a_newcomer_sees_the_focus_the_layout_and_the_path() -> None:
    """One session at 80x24 (see the module docstring)."""
    async with make_app(MODERN).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)

        # The add-layout dialog: each field and button shows when it has the focus (its
        # frame and its background change, not only a tint or the label's reverse), a line
        # says where the focus is, and the dialog fits the screen above its footer.
        dialog = await open_add_dialog(pilot)
        preset = dialog.query_one("#add-preset", Select)
        size = dialog.query_one("#add-size", Input)
        add, cancel = dialog.query_one("#add-ok", Button), dialog.query_one("#add-cancel", Button)
        focus_line = dialog.query_one("#add-focus", Static)

        def box(widget: Widget) -> Widget:
            # a Select draws its frame on the part that shows the choice
            return widget.query_one("SelectCurrent") if isinstance(widget, Select) else widget

        parts = ((preset, "Preset"), (size, "Group size N"), (add, "Add"), (cancel, "Cancel"))
        for widget, named in parts:
            before = look(box(widget))
            widget.focus()
            await settle(pilot)
            focused = look(box(widget))
            assert focused[0] != before[0], named  # the frame
            assert focused[1] != before[1], named  # the background
            assert named in str(focus_line.render()), str(focus_line.render())
        # A key typed on a button goes nowhere, and the line says where typing goes.
        size.value = "12"
        add.focus()
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        assert app.screen is dialog
        assert size.value == "12"
        assert "field" in str(focus_line.render())
        frame = dialog.query_one("#add-dialog").region
        assert frame.y >= 0
        assert frame.bottom <= SIZE[1] - 1  # the footer's line stays below
        assert add.region.bottom <= frame.bottom
        await pilot.press("escape")
        await settle(pilot)
