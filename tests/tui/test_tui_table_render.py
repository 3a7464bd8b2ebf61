"""SteadyTable paints its cells as a plain DataTable does, whichever way it renders them.

One-line text cells that fit take a short path to segments; this compares every painted
line of a SteadyTable with a DataTable holding the same cells, for several column widths,
every cursor row, focused and not.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable

from planner.tui.table import SteadyTable

pytestmark = pytest.mark.asyncio

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
]


class CountingTable(SteadyTable):
    """A SteadyTable that counts the cells its short path rendered."""

    short_path = 0

    def _render_one_line(self, *args: Any) -> Any:
        lines = super()._render_one_line(*args)
        self.short_path += lines is not None
        return lines


class Tables(App[None]):
    """The same cells in a SteadyTable and in a plain DataTable, columns ``width`` wide."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.width = width

    def compose(self) -> ComposeResult:
        for table in (CountingTable(id="steady"), DataTable(id="plain")):
            table.zebra_stripes = True
            table.cursor_type = "row"
            table.add_column("a", key="a", width=self.width)
            table.add_column(Text("b", justify="right"), key="b", width=self.width)
            for i, (first, second) in enumerate(itertools.pairwise(CELLS)):
                table.add_row(first, second, key=str(i))
            yield table


def painted(table: DataTable[object]) -> list[list[Segment]]:
    """Every line of the table as painted (header and rows), segments merged."""
    return [list(Segment.simplify(table.render_line(y))) for y in range(table.row_count + 1)]


@pytest.mark.parametrize("width", [8, 12, 20])
async def test_every_painted_line_matches_datatables(width: int) -> None:
    app = Tables(width)
    async with app.run_test(size=(100, 30)) as pilot:
        steady = app.query_one(CountingTable)
        plain = app.query_one("#plain", DataTable)
        for row in range(steady.row_count):
            for table in (steady, plain):
                table.move_cursor(row=row)
            for focused in (False, True):
                lines = {}
                for table in (steady, plain):
                    if focused:
                        table.focus()
                    else:
                        app.set_focus(None)
                    await pilot.pause()
                    lines[table.id] = painted(table)
                assert lines["steady"] == lines["plain"], (width, row, focused)
        assert steady.short_path > 20  # most cells did take the short path
