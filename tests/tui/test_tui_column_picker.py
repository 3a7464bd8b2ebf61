"""Issue 21, item 16: a buyer chooses and orders the compare table's columns, and scrolls.

At 80x24 the table showed layout, drives/group, overhead and the two P(loss) columns, the
rest (total drives, usable TB, every cost) behind a six-line note. Now every declared
column is in the table, a buyer's first (drives, usable TB, cost), the table scrolls
sideways with the layout column kept in view, and ``o`` opens a picker that chooses and
orders them; the choice is kept in the user's settings file (comments kept).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pilot_helpers import SCENARIO, settle
from textual.pilot import Pilot
from textual.widgets import SelectionList

from planner.report.comparison import comparison_columns
from planner.tui import make_app
from planner.tui.compare_view import CompareView
from planner.tui.settings import settings_path

TODAY = Path(__file__).parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"


def headers(pilot: Pilot[None]) -> list[str]:
    """The compare table's headers, each on one line."""
    table = pilot.app.query_one(CompareView).table
    return [" ".join(str(c.label).split()) for c in table.columns.values()]


def in_view(pilot: Pilot[None]) -> list[str]:
    """Headers of the columns wholly on screen at the table's scroll position."""
    table = pilot.app.query_one(CompareView).table
    width = table.scrollable_content_region.width
    left = 0
    shown = []
    for index, column in enumerate(table.columns.values()):
        right = left + column.get_render_width(table)
        fixed = index < table.fixed_columns
        start, end = (left, right) if fixed else (left - table.scroll_x, right - table.scroll_x)
        if start >= 0 and end <= width:
            shown.append(" ".join(str(column.label).split()))
        left = right
    return shown


def one_line(header: str) -> str:
    return " ".join(header.split())


@pytest.fixture
def today_copy(tmp_path: Path) -> Path:
    target = tmp_path / "today.yaml"
    shutil.copy(TODAY, target)
    return target


async def open_picker(pilot: Pilot[None]) -> SelectionList[str]:
    pilot.app.query_one(CompareView).table.focus()
    await pilot.press("o")
    await settle(pilot)
    return pilot.app.screen.query_one(SelectionList)


async def assert_horizontal_scroll_reaches_every_column(pilot: Pilot[None]) -> None:
    """Every declared column is in the table; scrolling right shows each, the label kept."""
    view = pilot.app.query_one(CompareView)
    comparison = view.comparison
    assert comparison is not None
    declared = {one_line(c.narrow_header) for c in comparison_columns(comparison)}
    assert set(headers(pilot)) == declared  # every column is in the table
    view.table.focus()
    seen: set[str] = set(in_view(pilot))
    table = view.table
    for _ in range(30):
        at_end = table.scroll_x == table.max_scroll_x
        await pilot.press("right")
        await pilot.pause()
        seen |= set(in_view(pilot))
        if at_end:  # one key past the end (it stays there); more would show nothing new
            break
    assert table.scroll_x == table.max_scroll_x
    assert seen == declared
    assert "Layout" in in_view(pilot)  # the label column stays in view
    note = str(pilot.app.query_one("#compare-notes").render()).splitlines()[0]
    assert note.startswith("← "), note  # the note follows the scroll
    assert "columns to the left" in note, note


@pytest.mark.asyncio
async def test_80x24_default_picker_escape_and_reset_then_the_scroll_reaches_every_column() -> None:
    """Today's scenario at 80x24, one session for what were three.

    A buyer's columns come first; in the picker Escape changes nothing and r restores the
    default; scrolling right reaches every column.
    """
    async with make_app(TODAY).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = in_view(pilot)
        for needed in ("Layout", "Total drives", "Usable TB", "TCO (USD)", "P(loss) aggregate"):
            assert needed in shown, (needed, shown)
        assert "Not shown" not in str(pilot.app.query_one("#compare-notes").render())

        # The picker: Escape changes nothing, r restores the default.
        before = headers(pilot)
        picker = await open_picker(pilot)
        await pilot.press("space", "shift+down", "escape")
        await settle(pilot)
        assert headers(pilot) == before
        assert not settings_path().exists()
        picker = await open_picker(pilot)
        await pilot.press("space", "enter")
        await settle(pilot)
        assert headers(pilot) != before
        picker = await open_picker(pilot)
        await pilot.press("r", "enter")
        await settle(pilot)
        assert headers(pilot) == before
        assert picker is not None

        # Scrolling right reaches every column (the default's again).
        await assert_horizontal_scroll_reaches_every_column(pilot)


@pytest.mark.asyncio
async def test_horizontal_scroll_reaches_every_column_at_120_columns() -> None:
    async with make_app(TODAY).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await assert_horizontal_scroll_reaches_every_column(pilot)


@pytest.mark.asyncio
async def test_picker_chooses_orders_and_keeps_the_choice(today_copy: Path) -> None:
    async with make_app(today_copy).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = pilot.app.query_one(CompareView)
        comparison = view.comparison
        assert comparison is not None
        declared = [c.header for c in comparison_columns(comparison)][1:]  # Layout stays
        picker = await open_picker(pilot)
        labels = [str(picker.get_option_at_index(i).prompt) for i in range(picker.option_count)]
        assert sorted(labels) == sorted(declared)
        # Hide Total drives; move P(loss) aggregate to the top.
        picker.highlighted = labels.index("Total drives")
        await pilot.press("space")
        picker.highlighted = labels.index("P(loss) aggregate")
        await pilot.press(*["shift+up"] * len(labels))
        await pilot.press("enter")
        await settle(pilot)
        assert view.table.has_focus
        shown = headers(pilot)
        assert shown[:2] == ["Layout", "P(loss) aggregate"]
        assert "Total drives" not in shown
        assert settings_path().is_file()
        chosen = shown

        await pilot.press("ctrl+r")  # reload the scenario: the choice stays
        await settle(pilot)
        assert headers(pilot) == chosen

    async with make_app(today_copy).run_test(size=(80, 24)) as pilot:  # a new session
        await settle(pilot)
        assert headers(pilot) == chosen


@pytest.mark.asyncio
async def test_saving_the_choice_keeps_the_settings_files_comments() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "# planner TUI settings, shared by our team\n"
        "columns:\n"
        "  compare:   # the buyer's view\n"
        "    hidden: [Groups]\n"
        "other: kept  # a key of a newer version\n",
        encoding="utf-8",
    )
    async with make_app(TODAY).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Groups" not in headers(pilot)
        await open_picker(pilot)
        await pilot.press("space", "enter")
        await settle(pilot)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# planner TUI settings, shared by our team\n")
    assert "# the buyer's view" in text
    assert "other: kept  # a key of a newer version" in text


@pytest.mark.asyncio
async def test_a_broken_settings_file_is_named_not_fatal() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("columns: [unclosed\n\x00", encoding="utf-8")
    async with make_app(TODAY).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Total drives" in headers(pilot)
        picker = await open_picker(pilot)
        await pilot.press(*"xyz!@#", "up", "down", "shift+up", "tab", "space", "enter")
        await settle(pilot)
        assert picker is not None
        assert pilot.app.is_running


@pytest.mark.asyncio
async def test_80x24_without_prices_drives_first_and_random_picker_keys_never_crash() -> None:
    """The fixed scenario (no prices) at 80x24, one session for what were two."""
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = in_view(pilot)
        assert shown[:3] == ["Layout", "Total drives", "Usable TB"], shown

        # Keys typed at random into the picker never crash it.
        await open_picker(pilot)
        keys = ["shift+down", "shift+up", "space", "down", "up", "home", "end", "a", "r", "["]
        for _ in range(3):
            await pilot.press(*keys, "]", "pageup", "pagedown", "enter")
            await settle(pilot)
            await open_picker(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.is_running
        assert headers(pilot)[0] == "Layout"


@pytest.mark.asyncio
async def test_the_sizing_table_has_its_own_choice() -> None:
    workload = Path(__file__).with_name("tui_workload.yaml")
    async with make_app(workload).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert pilot.app.query_one(CompareView).showing_sizing
        assert headers(pilot)[1] == "Disks needed"
        picker = await open_picker(pilot)
        labels = [str(picker.get_option_at_index(i).prompt) for i in range(picker.option_count)]
        assert "Bound by" in labels
        assert "Total drives" not in labels  # the fixed aggregate's column, not this table's
        await pilot.press("space", "enter")  # hide Disks needed
        await settle(pilot)
        assert "Disks needed" not in headers(pilot)
        await pilot.press("c")  # the fixed aggregate's table keeps its default
        await settle(pilot)
        assert headers(pilot)[1] == "Total drives"
    text = settings_path().read_text(encoding="utf-8")
    assert "sizing:" in text
    assert "compare:" not in text
