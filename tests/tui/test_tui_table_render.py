"""SteadyTable paints its lines as a plain DataTable does, whichever way it paints them.

Rows of one-line text cells that fit are painted by SteadyTable itself; this compares every
painted line of a SteadyTable with a DataTable holding the same cells, for several column
widths, every cursor row, focused and not, scrolled sideways under a fixed column, with a
two-line header, without a cursor, and under the mouse.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import pytest
from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import DataTable
from textual.widgets.data_table import CursorType

from planner.tui.steady_table import SteadyTable

pytestmark = pytest.mark.asyncio

T = TypeVar("T")
"""A step of :func:`assert_same_lines_at_each` (a cursor row, a scroll offset)."""

CELLS: list[str | Text] = [
    "raid6 16",
    "",
    Text("1.2e-05%", justify="right"),
    Text("0.0027%", style="red", justify="right"),
    Text("  raid-dp 9", style="bold"),
    Text("◆ raid5 8", style="bold on blue", justify="left"),
    Text("centred", style="italic", justify="center"),
    Text("trailing   ", style="underline", justify="right"),
    Text.assemble(("1,040", "bold red"), "× ", ("(agg.)", "dim")),
    Text("wide ≥ 日本", justify="right"),
    Text("a cell far wider than its column", style="green"),
    "[b]markup[/b]",
]


@dataclass(frozen=True)
class Shape:
    """How both tables are made: column width, cursor, fixed columns, header height."""

    width: int
    cursor_type: CursorType = "row"
    fixed_columns: int = 0
    header_height: int = 1
    columns: int = 2
    cells: tuple[str | Text, ...] = tuple(CELLS)


class Tables(App[None]):
    """The same cells in a SteadyTable and in a plain DataTable."""

    def __init__(self, shape: Shape) -> None:
        super().__init__()
        self.shape = shape

    def compose(self) -> ComposeResult:
        shape = self.shape
        for table in (SteadyTable(id="steady"), DataTable(id="plain")):
            table.zebra_stripes = True
            table.cursor_type = shape.cursor_type
            table.fixed_columns = shape.fixed_columns
            table.header_height = shape.header_height
            for column in range(shape.columns):
                label = Text(f"col\n{column}" if column else "first", justify="right")
                table.add_column(label, key=str(column), width=shape.width)
            count = len(shape.cells)
            for i in range(count):
                cells = [shape.cells[(i + k) % count] for k in range(shape.columns)]
                table.add_row(*cells, key=str(i))
            yield table


def painted(table: DataTable[object]) -> list[list[Segment]]:
    """Every line of the table as painted (header and rows), segments merged."""
    height = table.row_count + table.header_height
    return [list(Segment.simplify(table.render_line(y))) for y in range(height)]


async def assert_same_lines_at_each(
    pilot: Pilot[None], steps: Sequence[T], step_to: Callable[[T], None]
) -> None:
    """At each of ``steps`` (``step_to`` moves both tables there), the same lines, focused
    and not.

    One pause per focus state (neither, each table), then every step in it: a cursor move
    or a scroll is read by the next ``render_line`` as a repaint would read it, while a
    change of focus restyles the table only once the app is idle.
    """
    app = pilot.app
    steady = app.query_one(SteadyTable)
    plain = app.query_one("#plain", DataTable)
    app.set_focus(None)
    await pilot.pause()
    for step in steps:
        step_to(step)
        assert painted(steady) == painted(plain), (step, False)
    lines: dict[str | None, list[list[list[Segment]]]] = {}
    for table in (steady, plain):
        table.focus()
        await pilot.pause()
        lines[table.id] = []
        for step in steps:
            step_to(step)
            lines[table.id].append(painted(table))
    for step, in_steady, in_plain in zip(steps, lines["steady"], lines["plain"], strict=True):
        assert in_steady == in_plain, (step, True)


@pytest.mark.parametrize(
    "shape",
    [
        Shape(8),
        Shape(12),
        Shape(20),
        Shape(10, cursor_type="none"),
        Shape(10, header_height=2),
    ],
)
async def test_every_painted_line_matches_datatables(shape: Shape) -> None:
    app = Tables(shape)
    async with app.run_test(size=(100, 30)) as pilot:
        steady = app.query_one(SteadyTable)

        def move_to(row: int) -> None:
            for table in app.query(DataTable):
                table.move_cursor(row=row)

        await assert_same_lines_at_each(pilot, list(range(steady.row_count)), move_to)
        assert steady.lines_painted_here > 10  # most lines did take SteadyTable's path


@pytest.mark.parametrize("cursor_type", ["row", "none"])
async def test_lines_scrolled_sideways_under_a_fixed_column_match(cursor_type: CursorType) -> None:
    fitting = tuple(cell for cell in CELLS if cell_len(str(cell)) <= 9 and "[" not in str(cell))
    shape = Shape(9, cursor_type, fixed_columns=1, header_height=2, columns=9, cells=fitting)
    app = Tables(shape)
    async with app.run_test(size=(70, 40)) as pilot:
        steady = app.query_one(SteadyTable)

        def scroll_to(x: int) -> None:
            for table in app.query(DataTable):
                table.scroll_to(x=x, animate=False)
            assert steady.scroll_offset.x == min(x, steady.max_scroll_x)

        await assert_same_lines_at_each(pilot, [0, 1, 4, 9, 13, 40], scroll_to)
        assert steady.lines_painted_here > 10


async def test_the_row_under_the_mouse_matches() -> None:
    app = Tables(Shape(10))
    async with app.run_test(size=(60, 30)) as pilot:
        steady = app.query_one(SteadyTable)
        plain = app.query_one("#plain", DataTable)
        for row, focused in itertools.product((3, 0, 5, -1), (False, True)):
            lines = {}
            for table in (steady, plain):
                if focused:
                    table.focus()
                else:
                    app.set_focus(None)
                await pilot.hover(table, offset=(3, row + 1))
                await pilot.pause()
                assert table.hover_row == row
                lines[table.id] = painted(table)
            assert lines["steady"] == lines["plain"], (row, focused)
