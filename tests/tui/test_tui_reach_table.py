"""The note under the compare table says how to reach it: F2 focuses the table.

A newcomer's review: the note said "←/→ scroll the table" while the focus starts in the
first parameter field and Tab goes through eight fields before the table. F2, the compare
view's key, now also puts the focus in its table, and the note and help say so.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import settle
from textual.widgets import Input

from planner.tui import make_app
from planner.tui.compare_view import CompareView
from planner.tui.dialogs import HELP_TEXT

TODAY = Path(__file__).parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"


@pytest.mark.asyncio
async def test_f2_from_a_field_or_from_another_view_focuses_the_table() -> None:
    """One session for what were two: F2 from a field focuses the table the note names;
    from another view, F2 reaches it at once. It gave the focus back to the field left
    first, so a newcomer's ``a`` (add a layout) right after F2 replaced Scrub h with "a"."""
    async with make_app(TODAY).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = pilot.app.query_one(CompareView).table
        assert isinstance(pilot.app.focused, Input)  # the focus starts in the fields
        field = pilot.app.focused
        note = str(pilot.app.query_one("#compare-notes").render()).splitlines()[0]
        assert "F2 then ←/→ scroll" in note, note
        await pilot.press("f2")
        await settle(pilot)
        assert table.has_focus
        await pilot.press("right")
        await pilot.pause()
        assert table.scroll_x > 0

        # From another view, the focus left in a field.
        field.focus()
        await settle(pilot)
        assert not table.has_focus
        before = field.value
        await pilot.press("f3", "f2")
        await settle(pilot)
        assert pilot.app.query_one(CompareView).table.has_focus
        await pilot.press("a")  # the table's key: the add-layout dialog, not a letter typed
        await settle(pilot)
        assert field.value == before
        await pilot.press("escape")


def test_help_says_f2_focuses_the_table() -> None:
    line = next(line for line in HELP_TEXT.splitlines() if line.startswith("| **F2**"))
    assert "focus" in line, line
    assert "focus it with Tab or a click" not in HELP_TEXT
