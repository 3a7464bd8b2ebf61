"""Issue 3, "sensible at 80x24", and issue 21: the compare table and the footer at 80x24.

The table once dropped its least important columns on a narrow terminal, total drives,
usable TB and every cost among them (issue 21, item 16). It now keeps every declared
column, a buyer's first, and scrolls sideways with the layout column in view; the note
under it says how many columns are right of the edge. The footer keeps Export, Save,
Reload and every view key in view (item 17).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from pilot_helpers import SCENARIO, retype, settle
from rich.cells import cell_len
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, TabbedContent

from planner.report.comparison import comparison_columns
from planner.scenario.edits import value_at
from planner.tui import PlannerApp, make_app
from planner.tui.chart_room import MIN_CHART_ROWS
from planner.tui.compare_view import CompareView
from planner.tui.footer import KeyFooter
from planner.tui.params import ParamField

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


def in_view(pilot: Pilot[None]) -> list[str]:
    """Headers of the columns wholly in view before any sideways scroll."""
    table = pilot.app.query_one(CompareView).table
    right = 0
    shown = []
    for column in table.columns.values():
        right += column.get_render_width(table)
        if right <= table.scrollable_content_region.width:
            shown.append(" ".join(str(column.label).split()))
    return shown


def declared(pilot: Pilot[None]) -> set[str]:
    """Every column the report declares for the comparison, by its one-line short header."""
    comparison = pilot.app.query_one(CompareView).comparison
    assert comparison is not None
    return {" ".join(c.narrow_header.split()) for c in comparison_columns(comparison)}


@pytest.mark.asyncio
async def test_80_columns_keep_every_column_say_what_is_right_of_the_edge_and_the_keys() -> None:
    """The fixed scenario from 80x24, one session for what were three (resizes between).

    Every column stays in the table at 80 and 120 columns; at 80 the note says how many
    columns are right of the edge (none at 260); the footer shows Export, Save, Reload and
    the view keys at 80 columns and still after F3 at 120.
    """
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Every column stays in the table at 80 and 120 columns.
        assert set(headers(pilot)) == declared(pilot)
        assert in_view(pilot)[:3] == ["Layout", "Total drives", "Usable TB"]
        assert not fits(pilot)  # the rest is a scroll away

        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert set(headers(pilot)) == declared(pilot)
        assert {"P(loss) aggregate", "Over- head"} <= set(in_view(pilot))

        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert set(headers(pilot)) == declared(pilot)

        # At 80 columns the note says how many columns are right of the edge.
        notes = str(pilot.app.query_one("#compare-notes").render()).splitlines()
        assert notes[0].startswith("→ ")
        assert "more columns: F2 then ←/→ scroll, o picks and orders them" in notes[0]
        # and no scrollbar says it again: its thumb painted a lone "▊" under the rows
        table = pilot.app.query_one("#compare-table", DataTable)
        assert table.max_scroll_x > 0
        assert table.scrollbar_size_horizontal == 0
        notes_y = pilot.app.query_one("#compare-notes").region.y
        assert notes_y == table.region.y + 2 + table.row_count  # two header rows, the layouts
        await pilot.resize_terminal(320, 40)
        await settle(pilot)
        notes = str(pilot.app.query_one("#compare-notes").render()).splitlines()
        assert notes[0] == "F2 then o picks and orders the columns"

        # The footer at 80 columns shows Export, Save, Reload and the view keys.
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert shown_keys(pilot) >= ESSENTIAL_KEYS | VIEW_KEYS  # issue 21: F3-F7 too

        await pilot.press("f3")
        await settle(pilot)
        assert pilot.app.query_one("#views", TabbedContent).active == "sweep"

        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert shown_keys(pilot) >= ESSENTIAL_KEYS | VIEW_KEYS


@pytest.mark.asyncio
async def test_the_sizing_columns_and_the_footer_with_the_table_focused_at_each_width() -> None:
    """The workload scenario, one session for what were five (a resize for each width).

    At 80x24 the sizing decision columns come first; with the table focused the footer
    keeps the file keys and overflows nothing at 160, 120, 100 and 80 columns.
    """
    async with make_app(WORKLOAD).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert pilot.app.query_one(CompareView).showing_sizing
        shown = in_view(pilot)
        for needed in ("Layout", "Disks needed", "Bound by"):
            assert needed in shown, shown
        assert "Write pen." in headers(pilot)  # a scroll away, not dropped

        for size in [(160, 40), (120, 40), (100, 30), (80, 24)]:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            pilot.app.query_one(CompareView).table.focus()
            await settle(pilot)
            await pilot.pause()
            assert shown_keys(pilot) >= ESSENTIAL_KEYS | VIEW_KEYS, size
            fitted = pilot.app.query_one(KeyFooter).fitted()
            edge = size[0] if fitted.palette is None else fitted.palette.start - 1
            if fitted.palette is not None:
                assert 0 < fitted.palette.start < fitted.palette.end <= size[0]
            if size[0] >= 160:
                assert {"a", "x"} <= shown_keys(pilot)  # the table's own keys, after the others
            for placed in fitted.keys:
                assert placed.end <= edge, (size, placed.entry.key)  # nothing under the palette key


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


TODAY = Path(__file__).parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"


def assert_every_header_whole(pilot: Pilot[None]) -> None:
    """Every declared column in the table, none narrower than its header or its cells."""
    table = pilot.app.query_one(CompareView).table
    assert set(headers(pilot)) == declared(pilot)
    for column in table.columns.values():
        longest = max(len(line) for line in str(column.label).split("\n"))
        assert column.width >= longest, column.label  # the header is not cut
        widest = max(len(str(cell)) for cell in table.get_column(column.key))
        assert column.width >= widest, column.label


@pytest.mark.asyncio
async def test_80_columns_on_todays_drives_keep_every_column_whole_and_the_note_on_screen() -> None:
    """Today's scenario at 80x24 (one session for what were two).

    Every column is whole, a buyer's first in view; the notes are cut at the screen's foot,
    so the one about the columns comes first.
    """
    async with make_app(TODAY).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert_every_header_whole(pilot)
        shown = in_view(pilot)
        for needed in ("Layout", "Total drives", "Usable TB", "TCO (USD)", "P(loss) aggregate"):
            assert needed in shown, shown

        view = pilot.app.query_one(CompareView)
        notes = pilot.app.query_one("#compare-notes")
        rows = view.region.bottom - notes.region.y  # the notes' rows on screen
        assert rows > 0
        outer = notes.outer_size
        strips = notes.render_lines(Region(0, 0, outer.width, min(rows, outer.height)))
        on_screen = " ".join(" ".join(strip.text for strip in strips).split())
        assert "F2 then ←/→ scroll, o picks and orders them" in on_screen

        # every field's value starts in the same column of its half: the drive's MB/s, which
        # shows the restore time it gives, once started two cells right of the others
        starts = {
            str(field.id): field.query_one(".param-input").region.x - field.region.x
            for field in pilot.app.query(".param-field")
        }
        assert len(set(starts.values())) == 1, starts
        assert_values_whole(pilot)

        # The choose view's chart has 9 rows here, 4 to plot in, and is shown: a rule of 10
        # hid it, leaving 8 blank rows under "The chart needs 10 rows, 9 are free".
        await pilot.press("f7")
        await settle(pilot)
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)
        chart = pilot.app.query_one("#choose-plot")
        assert chart.display, pilot.app.query_one("#choose-room").render()
        assert chart.size.height >= MIN_CHART_ROWS
        await pilot.press("f2")
        await settle(pilot)

        # Four fields a row from 100 columns: the drive's MB/s beside its restore time
        # ("= 77.2 h") had one cell left at 100 columns, and 285 read "2".
        for width in (100, 110, 120, 160):
            await pilot.resize_terminal(width, 30)
            await settle(pilot)
            assert_values_whole(pilot)

        # A value wider than its field, once left, reads as the number in use: it was cut,
        # 1.23456789012% painted "1.23456789" (the % gone) and 1e-15 "0.00000000" (zero).
        app = pilot.app
        assert isinstance(app, PlannerApp)
        await pilot.resize_terminal(100, 30)
        await retype(pilot, "drive-arr", LONG_ARR)
        await retype(pilot, "drive-unrecoverable-read-errors-per-bit", "0.000000000000001")
        app.query_one("#compare-table").focus()
        await settle(pilot)
        assert (app.scenario.drive.arr, app.scenario.drive.unrecoverable_read_errors_per_bit) == (
            float("1.23456789012") / 100,  # as the model reads a percentage
            1e-15,
        )
        arr = app.query_one("#input-drive-arr", Input)
        for width, height in ((80, 24), (100, 30)):
            await pilot.resize_terminal(width, height)
            await settle(pilot)
            assert_values_read_as_in_use(app)
            whole = painted(arr) == LONG_ARR  # room for it at 80 (two a row), not at 100
            assert whole == (width != 100), painted(arr)
            if not whole:
                assert painted(arr).startswith("≈"), painted(arr)
                assert painted(arr).endswith("%"), painted(arr)
            assert (LONG_ARR in str(arr.tooltip)) != whole  # the whole value, as typed
        ure = app.query_one("#input-drive-unrecoverable-read-errors-per-bit", Input)
        assert painted(ure) == "1e-15"  # the same number, in the form the field loads it
        arr.focus()  # focused, the field shows and edits the text as typed
        await settle(pilot)
        assert arr.value == LONG_ARR
        assert "≈" not in painted(arr)
        assert painted(arr) in LONG_ARR
        await retype(pilot, "drive-arr", "1.2345678901234x")  # refused: cut, and says so
        app.query_one("#compare-table").focus()
        await settle(pilot)
        assert painted(arr).endswith("…")
        assert "1.2345678901234x".startswith(painted(arr)[:-1])


LONG_ARR = "1.23456789012%"


def painted(field: Input) -> str:
    """The text ``field`` paints, without the padding."""
    return field.render_line(0).text.strip()


def assert_values_read_as_in_use(app: PlannerApp) -> None:
    """Each field not focused paints its value as typed, or the value in use in a form
    that reads as it: exactly, or marked ≈ and right to the digits it shows."""
    for field in app.query(ParamField):
        text = painted(field.input)
        if field.input.has_focus or text == field.input.value:
            continue
        in_use = float(value_at(app.scenario, field.spec.path))
        number = text.removeprefix("≈").replace(",", "")
        read = float(number.removesuffix("%")) / (100 if number.endswith("%") else 1)
        if not text.startswith("≈"):
            assert read == in_use, (field.spec.label, text)
            continue
        mantissa = number.removesuffix("%").split("e")[0].replace(".", "").lstrip("0")
        digits = len(mantissa)  # significant digits shown
        assert digits >= 2, text
        shown_unit = 10 ** (math.floor(math.log10(abs(read))) - digits + 1)  # last digit's
        assert abs(read - in_use) <= 0.5 * shown_unit * (1 + 1e-9), (field.spec.label, text)


def assert_values_whole(pilot: Pilot[None]) -> None:
    """Every parameter field shows its whole value, with the cursor's cell after it."""
    for field in pilot.app.query(ParamField):
        shown = field.input.content_size.width
        assert shown > cell_len(field.input.value), (pilot.app.size, field.spec.label, shown)


@pytest.mark.asyncio
async def test_at_120_columns_no_column_drops_while_typing_and_extremes_stay_whole() -> None:
    """Today's scenario at 120x40 (one session for what were two).

    Drive TB 1 on today's drives (rebuilds in parallel) widened cells until a scrollbar
    came, and a column went: no column drops while typing. Back to the file's values,
    extreme values keep every cell whole.
    """
    async with make_app(TODAY).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        parallel = pilot.app.query_one("#input-restore-parallel-rebuilds", Input).value
        await retype(pilot, "restore-parallel-rebuilds", "all")
        before = headers(pilot)
        field = pilot.app.query_one("#input-drive-capacity-tb", Input)
        field.focus()
        await pilot.pause()
        for key in ["ctrl+u", "1", "0", "backspace", "backspace", "2", "0"]:
            await pilot.press(key)
            await settle(pilot)
            assert headers(pilot) == before, key

        await retype(pilot, "restore-parallel-rebuilds", parallel)
        app = pilot.app
        assert isinstance(app, PlannerApp)
        assert app.scenario == app.saved_scenario
        assert_every_header_whole(pilot)
        await retype(pilot, "drive-arr", "99.99%")
        assert_every_header_whole(pilot)
        await retype(pilot, "aggregate-data-disks", "100000")
        assert_every_header_whole(pilot)
