"""Issue 3, "sensible at 80x24": the compare table and the footer fit the terminal.

The table drops its least important columns on a narrow terminal (as ``planner compare``
does) and takes them back when the terminal widens; the footer keeps Export, Save and
Reload in view by leaving the view keys to the tabs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import SCENARIO, retype, settle
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, TabbedContent

from planner.report.comparison import Column, comparison_columns
from planner.tui import make_app
from planner.tui.columns import fit_to_width
from planner.tui.compare import CompareView
from planner.tui.footer import KeyFooter

WORKLOAD = Path(__file__).with_name("tui_workload.yaml")

ESSENTIAL_KEYS = {"ctrl+q", "f1", "ctrl+o", "ctrl+s", "ctrl+r"}
VIEW_KEYS = {"f2", "f3", "f4", "f5", "f6", "f7"}


def headers(pilot: Pilot[None]) -> list[str]:
    """The compare table's headers, each on one line."""
    table = pilot.app.query_one("#compare-table", DataTable)
    return [" ".join(str(c.label).split()) for c in table.columns.values()]


def fits(pilot: Pilot[None]) -> bool:
    """Whether the whole compare table is in view (no sideways scrolling)."""
    table = pilot.app.query_one(CompareView).table
    return table.virtual_size.width <= table.scrollable_content_region.width


def shown_keys(pilot: Pilot[None]) -> set[str]:
    """Keys the footer draws, left of the palette key."""
    return {placed.entry.key for placed in pilot.app.query_one(KeyFooter).fitted().keys}


def test_fit_to_width_counts_a_datatable_cell_padding_of_one_each_side() -> None:
    # Content widths 8, 4, 4 -> 10 + 6 + 6 = 22 cells with DataTable's padding.
    columns = [
        Column("Label", str, numeric=False),
        Column("Two", str, priority=1),
        Column("One", str, priority=2),
    ]
    rows = [["12345678", "1234", "1234"]]
    assert fit_to_width(columns, rows, 22) == [0, 1, 2]
    assert fit_to_width(columns, rows, 21) == [0, 1]  # "One" goes first
    assert fit_to_width(columns, rows, 16) == [0, 1]
    assert fit_to_width(columns, rows, 15) == [0]
    assert fit_to_width(columns, rows, 5) == [0]  # priority 0 stays, whatever the width


def test_fit_to_width_drops_always_kept_columns_from_the_last_when_they_alone_overflow() -> None:
    # Priority 0 everywhere: 10 + 6 + 7 = 23 cells. A DataTable cannot wrap them as a Rich
    # table would, so the last ones go rather than being cut short; the first stays.
    columns = [
        Column("Label", str, numeric=False),
        Column("Two", str),
        Column("Three", str),
    ]
    rows = [["12345678", "1234", "12345"]]
    assert fit_to_width(columns, rows, 23) == [0, 1, 2]
    assert fit_to_width(columns, rows, 22) == [0, 1]
    assert fit_to_width(columns, rows, 15) == [0]
    assert fit_to_width(columns, rows, 3) == [0]


@pytest.mark.asyncio
async def test_80_columns_keep_the_risk_and_drop_the_minor_columns_until_widened() -> None:
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = headers(pilot)
        for needed in (
            "Layout",
            "Drives/ group",
            "Over- head",
            "P(loss) group",
            "P(loss) aggregate",
            "Risk vs base per aggr.",
        ):
            assert needed in shown
        assert "Total drives" not in shown
        assert "MTTDL group (years)" not in shown
        assert fits(pilot)

        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        shown = headers(pilot)
        assert "Total drives" in shown
        assert "MTTDL group (years)" in shown
        assert len(shown) == 11  # every column, as before issue 3's narrow layout
        assert fits(pilot)

        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert "Total drives" not in headers(pilot)
        assert fits(pilot)


@pytest.mark.asyncio
async def test_80_columns_keep_the_sizing_decision_columns() -> None:
    async with make_app(WORKLOAD).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert pilot.app.query_one(CompareView).showing_sizing
        shown = headers(pilot)
        for needed in (
            "Layout",
            "Disks needed",
            "Bound by",
            "P(loss) of sized aggr.",
            "Risk vs base per aggr.",
        ):
            assert needed in shown
        assert "Usable TB" not in shown
        assert "Write pen." not in shown
        assert fits(pilot)


@pytest.mark.asyncio
async def test_80_columns_footer_shows_export_save_reload_and_the_view_keys() -> None:
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert shown_keys(pilot) >= ESSENTIAL_KEYS | VIEW_KEYS  # issue 21: F3-F7 too

        await pilot.press("f3")
        await settle(pilot)
        assert pilot.app.query_one("#views", TabbedContent).active == "sweep"

        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert shown_keys(pilot) >= ESSENTIAL_KEYS | VIEW_KEYS


@pytest.mark.asyncio
async def test_80_columns_name_the_hidden_columns_under_the_table() -> None:
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        notes = " ".join(str(pilot.app.query_one("#compare-notes").render()).split())
        assert "Not shown at this width: Total drives" in notes
        assert "MTTDL group (years)" in notes
        await pilot.resize_terminal(260, 40)
        await settle(pilot)
        assert "Not shown" not in str(pilot.app.query_one("#compare-notes").render())


@pytest.mark.asyncio
@pytest.mark.parametrize("width", [84, 96])
async def test_the_column_set_does_not_change_while_typing(width: int) -> None:
    # The default scenario at these widths fitted one column more at ARR 40% than at 1.9%.
    async with make_app(None).run_test(size=(width, 30)) as pilot:
        await settle(pilot)
        before = headers(pilot)
        field = pilot.app.query_one("#input-drive-arr", Input)
        field.focus()
        field.action_end()
        await pilot.press("ctrl+u")  # delete to the start: the field is empty
        assert field.value == ""
        # 40% (probabilities near 1, short cells), then 0.0001% (tiny ones, long cells).
        for key in ["4", "0", "%", "backspace", "backspace", "backspace", *"0.0001%"]:
            await pilot.press(key)
            await settle(pilot)
            assert headers(pilot) == before, key


@pytest.mark.asyncio
async def test_a_scrollbar_that_comes_while_typing_drops_no_column() -> None:
    """Drive TB 1 on today's drives widened cells until a scrollbar came: a column went."""
    today = Path(__file__).parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"
    async with make_app(today).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await retype(pilot, "restore-parallel-rebuilds", "all")
        before = headers(pilot)
        field = pilot.app.query_one("#input-drive-capacity-tb", Input)
        field.focus()
        await pilot.pause()
        for key in ["ctrl+u", "1", "0", "backspace", "backspace", "2", "0"]:
            await pilot.press(key)
            await settle(pilot)
            assert headers(pilot) == before, key


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(160, 40), (120, 40), (100, 30), (80, 24)])
async def test_with_the_table_focused_the_footer_keeps_the_file_keys_and_overflows_nothing(
    size: tuple[int, int],
) -> None:
    async with make_app(WORKLOAD).run_test(size=size) as pilot:
        await settle(pilot)
        pilot.app.query_one(CompareView).table.focus()
        await settle(pilot)
        await pilot.pause()
        assert shown_keys(pilot) >= ESSENTIAL_KEYS | VIEW_KEYS
        fitted = pilot.app.query_one(KeyFooter).fitted()
        edge = size[0] if fitted.palette is None else fitted.palette.start - 1
        if fitted.palette is not None:
            assert 0 < fitted.palette.start < fitted.palette.end <= size[0]
        if size[0] >= 160:
            assert {"a", "x"} <= shown_keys(pilot)  # the table's own keys, after the others
        for placed in fitted.keys:
            assert placed.end <= edge, placed.entry.key  # nothing runs under the palette key


TODAY = Path(__file__).parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"


def assert_whole_table_in_view(pilot: Pilot[None]) -> None:
    """No sideways scrolling, every header whole, and every column left out named.

    The columns always-kept by the CLI (priority 0) can be wider than the terminal: the
    table then drops them too, from the last, rather than cutting the last one short.
    """
    view = pilot.app.query_one(CompareView)
    table = view.table
    region = table.scrollable_content_region.width
    assert table.virtual_size.width <= region, (table.virtual_size.width, region)
    assert not table.show_horizontal_scrollbar
    right = 0
    for column in table.columns.values():
        right += column.get_render_width(table)
        longest = max(len(line) for line in str(column.label).split("\n"))
        assert column.width >= longest, column.label  # the header is not cut
        assert right <= region, column.label  # nor beyond the edge
    comparison = view.comparison
    assert comparison is not None
    notes = " ".join(str(pilot.app.query_one("#compare-notes").render()).split())
    shown = set(headers(pilot))
    for column in comparison_columns(comparison):
        if " ".join(column.narrow_header.split()) not in shown:
            assert column.header in notes, column.header  # named under the table


@pytest.mark.asyncio
async def test_80_columns_on_todays_drives_fit_the_table_whole() -> None:
    """The always-kept columns are 83 cells here: the last went, it was not cut short."""
    async with make_app(TODAY).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert_whole_table_in_view(pilot)
        assert "Layout" in headers(pilot)
        assert "P(loss) aggregate" in headers(pilot)


@pytest.mark.asyncio
async def test_80x24_shows_the_note_naming_the_dropped_columns() -> None:
    """The notes are cut at the screen's foot: the one naming hidden columns comes first.

    It came after the mission, the P(loss) definition and the uneven-division notes, so
    on today's drives at 80x24 it was below the screen's last row.
    """
    async with make_app(TODAY).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = pilot.app.query_one(CompareView)
        notes = pilot.app.query_one("#compare-notes")
        rows = view.region.bottom - notes.region.y  # the notes' rows on screen
        assert rows > 0
        outer = notes.outer_size
        strips = notes.render_lines(Region(0, 0, outer.width, min(rows, outer.height)))
        on_screen = " ".join(" ".join(strip.text for strip in strips).split())
        comparison = view.comparison
        assert comparison is not None
        shown = set(headers(pilot))
        hidden = [
            c.header
            for c in comparison_columns(comparison)
            if " ".join(c.narrow_header.split()) not in shown
        ]
        assert "Risk vs baseline (aggregate)" in hidden
        for header in hidden:
            assert header in on_screen, header


@pytest.mark.asyncio
async def test_extreme_values_typed_at_120_columns_keep_the_table_whole() -> None:
    """Cells that grow while typing past the width drop a column, named in the note."""
    async with make_app(TODAY).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert_whole_table_in_view(pilot)
        await retype(pilot, "drive-arr", "99.99%")
        assert_whole_table_in_view(pilot)
        await retype(pilot, "aggregate-data-disks", "100000")
        assert_whole_table_in_view(pilot)
