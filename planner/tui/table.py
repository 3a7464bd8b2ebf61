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

from rich.segment import Segment
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
            lines = self._render_one_line(row_index, column_index, base_style, width, cursor, hover)
            if lines is None:
                lines = super()._render_cell(
                    row_index, column_index, base_style, width, cursor, hover
                )
            self._rendered[key] = lines
            self.cells_rendered += 1
        return lines

    def _render_one_line(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool,
        hover: bool,
    ) -> SegmentLines | None:
        """A one-line text cell that fits its width, rendered straight to segments.

        The same segments as DataTable's renderer (a test compares them over many cells,
        styles and cursor states) at a tenth of the cost: Rich's general path measures,
        wraps, pads and crops a renderable for every cell. None for anything else (headers,
        several lines, a cell wider than its column): DataTable renders those.
        """
        if row_index < 0 or column_index < 0 or self.ordered_rows[row_index].height != 1:
            return None
        value = self.get_cell_at(Coordinate(row_index, column_index))
        text = Text(value) if isinstance(value, str) else value
        pad = self.cell_padding
        inner = width - 2 * pad
        if not isinstance(text, Text) or "\n" in text.plain or text.cell_len > inner:
            return None
        justify = text.justify or "default"
        line = text.copy()
        if justify == "left":  # as Rich's Lines.justify does it
            line.truncate(inner, pad=True)
        elif justify == "right":
            line.rstrip()
            line.pad_left(inner - line.cell_len)
        elif justify == "center":
            line.rstrip()
            line.pad_left((inner - line.cell_len) // 2)
            line.pad_right(inner - line.cell_len)
        elif justify != "default":
            return None
        console = self.app.console
        if line.spans:
            body = list(line.render(console))
        else:
            body = [Segment(line.plain, console.get_style(line.style) if line.style else None)]
        fill = inner - line.cell_len
        segments = [
            *([Segment(" " * pad)] if pad else []),
            *body,
            *([Segment(" " * fill)] if fill else []),
            *([Segment(" " * pad)] if pad else []),
        ]
        fixed = row_index < self.fixed_rows or column_index < self.fixed_columns
        component_style, post_style = self._get_styles_to_render_cell(
            False,
            False,
            fixed,
            hover,
            cursor,
            self.show_cursor,
            getattr(self, "_show_hover_cursor", False),
            self.cursor_foreground_priority == "css",
            self.cursor_background_priority == "css",
        )
        style = base_style + Style.from_meta({"row": row_index, "column": column_index})
        return [list(Segment.apply_style(segments, style + component_style, post_style))]

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
