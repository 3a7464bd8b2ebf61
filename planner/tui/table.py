"""A DataTable that renders a cell again only when the cell changed.

Textual's DataTable keys its render caches on a counter that every ``update_cell`` bumps,
so one new value re-renders every cell on screen, the headers too. On a keystroke that was
most of a view's frame (``benchmarks/bench_tui.py``): the compare table's labels, drive
counts and headers stay the same while its probabilities change. Here a rendered cell is
kept under everything its rendering depends on (its text, styles and justification, its
position, width and height, the row's style, cursor and hover state), so an unchanged cell
is reused; a change of the table's styles (focus, hover, theme) forgets them all, as
Textual's own caches do.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from rich.style import Style
from rich.text import Text
from textual._types import SegmentLines
from textual.cache import LRUCache
from textual.coordinate import Coordinate
from textual.widgets import DataTable

CACHED_CELLS = 4096
"""Rendered cells kept (a few views' worth of cells at several widths)."""


class SteadyTable(DataTable[Any]):
    """A DataTable whose unchanged cells are not rendered again (see the module docstring)."""

    cells_rendered: int = 0
    """Cells rendered since the table was made (not served from the cache)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._rendered: LRUCache[tuple[Hashable, ...], SegmentLines] = LRUCache(CACHED_CELLS)

    def notify_style_update(self) -> None:
        """The table's styles changed (focus, hover, theme): render every cell afresh."""
        super().notify_style_update()
        self._rendered.clear()

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> SegmentLines:
        """The cell as DataTable renders it, from the cache when nothing it shows changed."""
        content = self._content_key(row_index, column_index)
        if content is None:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        key = (
            row_index,
            column_index,
            content,
            base_style,
            width,
            cursor,
            hover,
            self.show_cursor,
            getattr(self, "_show_hover_cursor", None),
        )
        lines = self._rendered.get(key)
        if lines is None:
            lines = super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
            self._rendered[key] = lines
            self.cells_rendered += 1
        return lines

    def _content_key(self, row_index: int, column_index: int) -> tuple[Hashable, ...] | None:
        """What a cell shows, as a hashable value (its height included); None: do not cache.

        Row labels and cells other than text or strings are rendered as DataTable does.
        """
        if column_index < 0 or column_index >= len(self.columns):
            return None
        if row_index == -1:
            value: object = list(self.columns.values())[column_index].label
            height = self.header_height
        elif 0 <= row_index < self.row_count:
            value = self.get_cell_at(Coordinate(row_index, column_index))
            height = self.ordered_rows[row_index].height
        else:
            return None
        if isinstance(value, str):
            return (height, value)
        if isinstance(value, Text):
            return (
                height,
                value.plain,
                value.style,
                value.justify,
                value.overflow,
                value.no_wrap,
                tuple(value.spans),
            )
        return None
