"""A DataTable that paints a line again only when what the line shows changed.

Textual's DataTable keys its render caches on a counter that every ``update_cell`` bumps,
so one new value re-renders every cell on screen, the headers too, each through Rich's
general path (measure, wrap, pad, crop), and every column of a row, those scrolled out of
view as well. On a keystroke that was most of a view's frame (``benchmarks/bench_tui.py``):
the compare table's labels, drive counts and headers stay the same while its probabilities
change.

:class:`SteadyTable` overrides only the Line API's public ``render_lines`` and
``render_line``. It keeps each line it painted under everything the line shows (the row's
cells, the columns' widths, the scroll offset, the cursor and the styles it is drawn in), so
an unchanged line is reused. A row of one-line text cells it paints itself, straight to
segments, from cells kept the same way, and only the columns in view. Anything else
(taller rows, row labels, a cell or column cursor, the row under the mouse, a cell wider
than its column) DataTable paints; a header DataTable paints once and it is kept. A change
of the table's styles (focus, hover, theme) forgets every line, as DataTable's own caches
do. A test compares every painted line with a plain DataTable's.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.color import Color
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable

CACHED_LINES = 1024
"""Painted lines kept (a few views' worth of lines at several widths)."""

CACHED_CELLS = 4096
"""Painted cells kept."""


@dataclass(frozen=True)
class Frame:
    """What every line of the table is painted from, bar its row (read once a frame)."""

    one_line_rows: bool
    """Every row is one line high without a label, no row is fixed and the cursor is a row
    cursor or none: line ``y`` is a row, and SteadyTable may paint it."""
    header_height: int
    """Lines of the header (0: no header shown)."""
    scroll_x: int
    scroll_y: int
    width: int
    """The table's width (cells)."""
    padding: int
    """Blank cells each side of a cell's text."""
    widths: tuple[int, ...]
    """Every column's width with its padding, in order (cells)."""
    labels: tuple[Hashable, ...]
    """What every column's header shows."""
    fixed_columns: int
    base: Style
    """The table's own style."""
    header: Style
    stripes: tuple[Style, Style] | None
    """The even and odd rows' styles with zebra stripes (None: the table's style)."""
    fixed: Style
    """The fixed columns' style."""
    cursor: Style | None
    """The cursor's style (None: no cursor shown)."""
    fixed_cursor: Style
    """What the cursor adds over the fixed columns."""
    row_cursor: bool
    """The cursor is a row cursor (else none: a row's blank end is drawn faded)."""
    css_foreground: bool
    css_background: bool
    background: Color
    """The colour behind the table (a faded blank end blends with it)."""


class SteadyTable(DataTable[Any]):
    """A DataTable whose unchanged lines are not painted again (see the module docstring)."""

    cells_rendered: int = 0
    """Cells this table painted itself (not served from its cache) since it was made."""

    lines_painted_here: int = 0
    """Row lines this table painted itself rather than through DataTable."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._steady_lines: LRUCache[Hashable, Strip] = LRUCache(CACHED_LINES)
        self._steady_cells: LRUCache[Hashable, list[Segment]] = LRUCache(CACHED_CELLS)
        self._steady_frame: Frame | None = None
        """The frame being painted (:meth:`render_lines`), None between frames."""

    def notify_style_update(self) -> None:
        """The table's styles changed (focus, hover, theme): paint every line afresh."""
        super().notify_style_update()
        self._steady_lines.clear()
        self._steady_cells.clear()

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines in ``crop``, the table's geometry and styles read once for them all."""
        self._steady_frame = self._read_frame()
        try:
            return super().render_lines(crop)
        finally:
            self._steady_frame = None

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the table, from the cache when nothing it shows changed."""
        frame = self._steady_frame or self._read_frame()
        if not frame.one_line_rows:
            return super().render_line(y)
        if y < frame.header_height:
            if self._hovered(-1):
                return super().render_line(y)
            return self._cached(("header", y, frame), partial(DataTable.render_line, self, y))
        row_index = y - frame.header_height + frame.scroll_y
        if not 0 <= row_index < self.row_count or self._hovered(row_index):
            return super().render_line(y)
        texts = _one_line_texts(self.get_row_at(row_index), frame)
        if texts is None:
            return super().render_line(y)
        cursor = frame.cursor is not None and row_index == self.cursor_row
        key = (row_index, cursor, tuple(_content_key(text) for text in texts), frame)
        return self._cached(key, partial(self._paint_row, row_index, cursor, texts, frame))

    def _read_frame(self) -> Frame:
        pad = self.cell_padding
        columns = self.ordered_columns
        rows = self.rows.values()
        cursor_type = self.cursor_type
        scroll_x, scroll_y = self.scroll_offset
        style = self.get_component_rich_style
        return Frame(
            one_line_rows=(
                not self.fixed_rows
                and cursor_type in ("row", "none")
                and all(row.height == 1 and row.label is None for row in rows)
            ),
            header_height=self.header_height if self.show_header else 0,
            scroll_x=scroll_x,
            scroll_y=scroll_y,
            width=self.size.width,
            padding=pad,
            widths=tuple((c.content_width if c.auto_width else c.width) + 2 * pad for c in columns),
            labels=tuple(_content_key(column.label) for column in columns),
            fixed_columns=self.fixed_columns,
            base=self.rich_style,
            header=style("datatable--header"),
            stripes=(
                (
                    self.get_component_styles("datatable--even-row").rich_style,
                    self.get_component_styles("datatable--odd-row").rich_style,
                )
                if self.zebra_stripes
                else None
            ),
            fixed=self.get_component_styles("datatable--fixed").rich_style,
            cursor=style("datatable--cursor")
            if cursor_type == "row" and self.show_cursor
            else None,
            fixed_cursor=style("datatable--fixed-cursor"),
            row_cursor=cursor_type == "row",
            css_foreground=self.cursor_foreground_priority == "css",
            css_background=self.cursor_background_priority == "css",
            background=self.background_colors[1],
        )

    def _hovered(self, row_index: int) -> bool:
        """Whether the mouse may be showing its hover cursor on ``row_index`` (-1: header).

        DataTable shows it only while the mouse is over the table, and keeps whether to
        show it to itself: that row is left to DataTable.
        """
        return self.cursor_type != "none" and self.mouse_hover and self.hover_row == row_index

    def _cached(self, key: Hashable, paint: Callable[[], Strip]) -> Strip:
        strip = self._steady_lines.get(key)
        if strip is None:
            strip = paint()
            self._steady_lines[key] = strip
        return strip

    def _paint_row(
        self, row_index: int, cursor: bool, texts: Sequence[Text], frame: Frame
    ) -> Strip:
        """The row's line, as DataTable paints it (see the module docstring)."""
        self.lines_painted_here += 1
        widths = frame.widths
        row_style = frame.base if frame.stripes is None else frame.stripes[row_index % 2]
        on_cursor = frame.cursor if cursor and frame.cursor is not None else Style()
        components = (on_cursor, on_cursor + frame.fixed_cursor if cursor else on_cursor)
        posts = [_post_style(c, frame.css_foreground, frame.css_background) for c in components]

        def cell(column: int, style: Style, fixed: bool) -> list[Segment]:
            pre = style + Style.from_meta({"row": row_index, "column": column}) + components[fixed]
            return self._cell(texts[column], widths[column], pre, posts[fixed], frame.padding)

        fixed_width = sum(widths[: frame.fixed_columns])
        fixed_style = frame.fixed + Style.from_meta({"fixed": True})
        fixed_line = [
            segment
            for column in range(frame.fixed_columns)
            for segment in cell(column, fixed_style, fixed=True)
        ]
        # The scrolling part holds every column, the fixed ones too (under the fixed part),
        # then a blank end to the widget's edge; only the columns in view are painted.
        start = frame.scroll_x + fixed_width
        end = frame.scroll_x + frame.width
        scrolling: list[Segment] = []
        x = painted_from = 0
        for column, column_width in enumerate(widths):
            if x + column_width <= start:
                painted_from = x + column_width
            elif x < end:
                scrolling += cell(column, row_style, column < frame.fixed_columns)
            x += column_width
        blank = max(0, frame.width - (x - fixed_width))
        scrolling.append(Segment(" " * blank, _blank_end(row_index, row_style, on_cursor, frame)))
        shown = Strip(scrolling).crop(start - painted_from, end - painted_from)
        return Strip([*fixed_line, *shown]).adjust_cell_length(frame.width, frame.base).simplify()

    def _cell(self, text: Text, width: int, pre: Style, post: Style, pad: int) -> list[Segment]:
        """One cell's segments, ``width`` wide with its padding, as DataTable paints it."""
        key = (_content_key(text), width, pre, post)
        segments = self._steady_cells.get(key)
        if segments is None:
            body = _cell_body(text, width - 2 * pad, self.app.console)
            padding = [Segment(" " * pad)] if pad else []
            segments = list(Segment.apply_style([*padding, *body, *padding], pre, post))
            self._steady_cells[key] = segments
            self.cells_rendered += 1
        return segments


def _cell_body(text: Text, inner: int, console: Console) -> Iterator[Segment]:
    """``text`` justified in ``inner`` cells, as Rich's ``Lines.justify`` lays out one line.

    DataTable renders a cell through it; a test compares the result with DataTable's over
    many cells.
    """
    justify = text.justify or "default"
    line = text.copy()
    if justify == "left":
        line.truncate(inner, pad=True)
    elif justify == "right":
        line.rstrip()
        line.pad_left(inner - line.cell_len)
    elif justify == "center":
        line.rstrip()
        line.pad_left((inner - line.cell_len) // 2)
        line.pad_right(inner - line.cell_len)
    if line.spans:
        yield from line.render(console)
    else:
        yield Segment(line.plain, console.get_style(line.style) if line.style else None)
    if fill := inner - line.cell_len:
        yield Segment(" " * fill)


def _blank_end(row_index: int, row_style: Style, cursor: Style, frame: Frame) -> Style:
    """The style of the blank right of the last column (as DataTable extends a row)."""
    if frame.row_cursor:
        style = row_style + cursor
    elif row_style.bgcolor is not None:
        faded = Color.from_rich_color(row_style.bgcolor).blend(frame.background, 0.25)
        style = Style.from_color(color=row_style.color, bgcolor=faded.rich_color)
    else:
        style = Style.from_color(row_style.color, row_style.bgcolor)
    return style + Style.from_meta({"row": row_index, "column": 0, "out_of_bounds": True})


def _post_style(component: Style, css_foreground: bool, css_background: bool) -> Style:
    """The cursor's colours laid over a cell's own when the CSS has priority (DataTable's)."""
    foreground = Style.from_color(color=component.color) if css_foreground else Style.null()
    background = Style.from_color(bgcolor=component.bgcolor) if css_background else Style.null()
    return foreground + background


def _one_line_texts(cells: Sequence[object], frame: Frame) -> list[Text] | None:
    """The cells as one-line Texts that fit, as DataTable would show them; None if any is not.

    A string is markup to DataTable: only one without markup or emoji codes is taken.
    Tabs, new lines, justification ``full`` and a text wider than its column are left to
    DataTable.
    """
    texts = []
    for value, width in zip(cells, frame.widths, strict=True):
        if isinstance(value, str):
            if any(mark in value for mark in "[:\n\t"):
                return None
            text = Text(value)
        elif isinstance(value, Text):
            if "\n" in value.plain or "\t" in value.plain or value.justify == "full":
                return None
            text = value
        else:
            return None
        if text.cell_len > width - 2 * frame.padding:
            return None
        texts.append(text)
    return texts


def _content_key(value: object) -> Hashable:
    """What a cell or header shows, as a hashable value."""
    if isinstance(value, Text):
        return (
            value.plain,
            value.style,
            value.justify,
            value.overflow,
            value.no_wrap,
            tuple(value.spans),
        )
    return ("str", value) if isinstance(value, str) else ("object", id(value))
