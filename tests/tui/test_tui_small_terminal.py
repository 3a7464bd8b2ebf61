"""A newcomer's 80x24 walk through a plan: the rough edges their review found, one session.

Each check failed on the code before its fix (the commit that added it says so). One Pilot
session on the shipped three-tier plan, the smallest terminal the app is made for, with
the tier bar above the fields: the rows are fewest there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import app_of, field_input, settle
from rich.cells import cell_len
from textual.containers import Vertical
from textual.geometry import Region
from textual.widgets import Markdown, Static

from planner.tui import make_app
from planner.tui.compare_notes import NotesScroll
from planner.tui.compare_view import CompareView
from planner.tui.dialogs import HelpScreen
from planner.tui.title_bar import TitleParts, fitted_title

PLAN = Path(__file__).parents[2] / "scenarios" / "three-tier-plan.yaml"


def top_row(widget: Vertical) -> str:
    """The text of ``widget``'s first row as painted, its border included."""
    return widget.render_lines(Region(0, 0, widget.outer_size.width, 1))[0].text


@pytest.mark.asyncio
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

        # Unsaved now: the mark, the plan's name cut short with an ellipsis, the file whole
        # (the mark pushed the file name off the right edge).
        assert app.dirty
        title = app.query_one("#title", Static)
        shown = str(title.render())
        assert shown.startswith("planner · ● Three tiers, SSD")
        assert shown.endswith("… (three-tier-plan.yaml)")
        assert cell_len(shown) <= title.content_region.width

        # The notes under the table: cut at the foot of the screen, with nothing saying
        # more followed. A line under them says how many and how to see them; they scroll.
        view = app.query_one(CompareView)
        notes = view.query_one(NotesScroll)
        more = view.query_one("#compare-more", Static)
        below = notes.max_scroll_y
        assert below > 0
        assert more.display
        assert more.region.bottom <= view.region.bottom  # on screen
        assert str(more.render()).startswith(f"▼ {below} more lines of notes: F2, Tab, then ↓")
        await pilot.press("f2", "tab")  # the table, then the notes
        await settle(pilot)
        assert notes.has_focus
        await pilot.press("pagedown")
        await settle(pilot)
        assert 0 < notes.scroll_y < below
        assert str(more.render()).startswith(f"▼ {below - round(notes.scroll_y)} more lines")
        await pilot.press("end")
        await settle(pilot)
        assert str(more.render()).startswith(f"▲ {below} lines of notes above: ↑ / PgUp")
        last = view.query_one("#compare-notes", Static).region.bottom
        assert last == more.region.y  # the last note right above the line, not cut


def test_the_title_gives_up_the_name_before_the_mark_or_the_file() -> None:
    parts = TitleParts(unsaved=True, name="Three tiers, SSD", source="plan.yaml")
    assert fitted_title(parts, 80) == "planner · ● Three tiers, SSD (plan.yaml)"
    assert fitted_title(parts, 30) == "planner · ● Three… (plan.yaml)"
    assert fitted_title(parts, 16) == "● T… (plan.yaml)"  # the app's name goes too
    assert fitted_title(parts, 10) == "● (plan.yaml)"  # the file at least, cut at the edge
    # no space or comma left before the ellipsis ("Three …", "Three tiers,…")
    saved = parts._replace(unsaved=False)
    assert fitted_title(saved, 29) == "planner · Three… (plan.yaml)"
    assert fitted_title(saved, 35) == "planner · Three tiers… (plan.yaml)"
