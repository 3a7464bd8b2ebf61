"""The compare, model and tornado tables render a cell again only when it changed."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult

from planner.tui.steady_table import SteadyTable

pytestmark = pytest.mark.asyncio


class TableApp(App[None]):
    """One table of two rows and two columns."""

    def compose(self) -> ComposeResult:
        table = SteadyTable(id="t", cursor_type="row", zebra_stripes=True)
        table.add_column("layout", key="layout")
        table.add_column("P(loss)", key="p")
        table.add_row("raid5 8", Text("1.0%", style="red", justify="right"), key="a")
        table.add_row("raid6 16", Text("0.01%", justify="right"), key="b")
        yield table


def screen_lines(table: SteadyTable) -> list[str]:
    """The table's first lines as shown (header and two rows)."""
    return [table.render_line(y).text for y in range(3)]


def style_of(table: SteadyTable, y: int, text: str) -> str:
    """The style of the first segment of line ``y`` that shows ``text``."""
    segment = next(s for s in table.render_line(y) if text in s.text)
    return str(segment.style)


async def test_a_changed_cell_shows_its_new_value_and_only_it_is_rendered() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 6)) as pilot:
        table = app.query_one(SteadyTable)
        await pilot.pause()
        assert "1.0%" in screen_lines(table)[1]
        before = table.cells_rendered
        table.update_cell("a", "p", Text("2.5%", style="red", justify="right"))
        lines = screen_lines(table)
        assert "2.5%" in lines[1]
        assert "1.0%" not in lines[1]
        assert "0.01%" in lines[2]
        # The new cell only: the header, the labels and the other row come from the cache.
        assert table.cells_rendered == before + 1


async def test_a_new_style_or_alignment_of_the_same_text_is_rendered_again() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 6)) as pilot:
        table = app.query_one(SteadyTable)
        await pilot.pause()
        plain = style_of(table, 2, "0.01%")  # row 1 is under the cursor, which recolours it
        table.update_cell("b", "p", Text("0.01%", style="green", justify="right"))
        assert style_of(table, 2, "0.01%") != plain
        right = screen_lines(table)[2]
        table.update_cell("b", "p", Text("0.01%", style="green", justify="left"))
        assert screen_lines(table)[2] != right
        assert screen_lines(table)[2].index("0.01%") < right.index("0.01%")


async def test_focus_and_cursor_moves_repaint_with_the_new_styles() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 6)) as pilot:
        table = app.query_one(SteadyTable)
        table.blur()
        await pilot.pause()
        unfocused = style_of(table, 1, "raid5 8")
        table.focus()
        await pilot.pause()
        focused = style_of(table, 1, "raid5 8")
        assert focused != unfocused  # the cursor row is highlighted differently
        table.move_cursor(row=1)
        await pilot.pause()
        assert style_of(table, 1, "raid5 8") != focused  # the cursor left the first row
        assert style_of(table, 2, "raid6 16") == focused
