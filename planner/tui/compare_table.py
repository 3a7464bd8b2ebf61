"""The compare view's table: the layouts, scrolled sideways a whole column at a time."""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget

from planner.tui.steady_table import SteadyTable


def in_shown_view(widget: Widget) -> bool:
    """Whether ``widget`` and every container around it are displayed (its view is shown).

    The compare view's table and its notes take the focus only then. Hiding the view (F3,
    the palette, a click on a tab) takes the focus from the one focused, and Textual hands it
    to a focusable sibling without asking whether that sibling's view is shown: the table
    gave it to the scrolling notes and they to the table, and the tabs then showed the
    compare view again for the widget just focused. Every view key did nothing from there
    (newcomer review).
    """
    return all(node.display for node in widget.ancestors_with_self)


class CompareTable(SteadyTable):
    """The layouts table: ←/→ scroll it sideways a whole column at a time.

    DataTable scrolls one cell a key when its cursor selects rows: 200 keys to reach the
    last column of today's drives at 80 columns.

    Only whole columns show: a column cut by an edge of the view is blank until scrolled
    to. A cut figure misleads (``1 in 1`` of ``1 in 1.6 million`` reads as certain loss,
    under a header that is off screen).
    """

    def allow_focus(self) -> bool:
        """Focusable only while the compare view is shown (:func:`in_shown_view`)."""
        return super().allow_focus() and in_shown_view(self)

    def fill(
        self,
        headers: list[str],
        labels: list[str],
        rows: list[list[Text]],
        widths: list[int],
        start: str | None = None,
    ) -> None:
        """Show ``rows`` (one per layout label) under ``headers``, columns ``widths`` wide.

        With the same layouts and columns the cells change in place: clearing and refilling
        would lay the screen out again, which costs more than the evaluation itself, and so
        would re-measuring the table (the DataTable measures on idle whenever asked to),
        done only when a column's width changes. Columns keep their width while typing (they
        grow, never shrink): a column that narrows and widens with every keystroke would
        re-lay the screen out on each one. They are measured afresh when the columns or the
        layouts change; the cursor stays on its layout (a removed layout's row: on the one that
        takes its place), or goes to the one layout just added (a newcomer pressed ``x`` right
        after adding one and removed the layout under the old cursor instead). Given
        ``start``, the cursor goes to that layout (the baseline, before the user has moved it).
        """
        same_shape = [str(c.label) for c in self.columns.values()] == headers and [
            key.value for key in self.rows
        ] == labels
        if same_shape:
            shown = [column.width for column in self.columns.values()]
            widths = [max(old, new) for old, new in zip(shown, widths, strict=True)]
            resized = shown != widths
            for column, width in zip(self.columns.values(), widths, strict=True):
                column.width = width
            for label, cells in zip(labels, rows, strict=True):
                for header, cell in zip(headers, cells, strict=True):
                    self.update_cell(label, header, cell, update_width=resized)
            if start in labels:
                self.move_cursor(row=labels.index(start), animate=False)
            return
        selected, row = None, 0
        before = [key.value for key in self.rows]
        if self.row_count:
            selected = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
            row = self.cursor_row
        added = [label for label in labels if label not in before]
        if before and len(added) == 1 and len(labels) == len(before) + 1:
            selected = added[0]
        if start in labels:
            selected = start
        self.clear(columns=True)
        self.add_column(Text(headers[0]), key=headers[0], width=widths[0])
        for header, width in zip(headers[1:], widths[1:], strict=True):
            self.add_column(Text(header, justify="right"), key=header, width=width)
        for label, cells in zip(labels, rows, strict=True):
            self.add_row(*cells, key=label)
        if selected in labels:
            self.move_cursor(row=labels.index(selected), animate=False)
        elif labels:  # its layout was removed: the row that took its place, or the last
            self.move_cursor(row=min(row, len(labels) - 1), animate=False)

    def action_cursor_right(self) -> None:
        """Bring the next column to the left edge (beside the layout column)."""
        self._scroll_columns(1)

    def action_cursor_left(self) -> None:
        """Bring the previous column to the left edge."""
        self._scroll_columns(-1)

    def _scroll_columns(self, step: int) -> None:
        """Scroll a whole column left (-1), or right (1) until the next one is whole.

        Right by one column at a time, a press that dropped a narrow column on the left
        brought no wider one in whole on the right: blank cells opened at the edge and the
        key seemed to do nothing (a newcomer's find). It takes the nearest edge past which
        one more column ends on screen.
        """
        edges = [0]
        for column in list(self.columns.values())[self.fixed_columns :]:
            edges.append(edges[-1] + column.get_render_width(self))
        now = round(self.scroll_target_x)
        if step > 0:
            fixed, _ = self._edges()
            room = self.scrollable_content_region.width - fixed + self.cell_padding

            def whole(x: int) -> int:  # scrolling columns ending on screen at scroll x
                return sum(1 for e in edges[1:] if e - x <= room)

            later = [e for e in edges if e > now]
            target = next((e for e in later if whole(e) > whole(now)), max(later, default=now))
        else:
            target = max((e for e in edges if e < now), default=0)
        self.scroll_to(x=min(target, self.max_scroll_x), animate=False)

    def _edges(self) -> tuple[int, list[int]]:
        """The fixed columns' width; the scrolling columns' edges on screen (cells)."""
        columns = list(self.columns.values())
        fixed = sum(c.get_render_width(self) for c in columns[: self.fixed_columns])
        edges = [fixed - round(self.scroll_x)]
        for column in columns[self.fixed_columns :]:
            edges.append(edges[-1] + column.get_render_width(self))
        return fixed, edges

    def whole_columns(self) -> tuple[int, int]:
        """Indices ``(first, stop)`` of the scrolling columns wholly in view.

        Columns before ``first`` are cut or hidden at the left (under the layout column),
        those from ``stop`` at the right; ``first == stop`` when none fits whole. A column
        cut in its padding only counts as whole: its text is. The right edge is that of the
        cells beside a vertical scrollbar: judged by the widget's width, a column under the
        bar counted whole and showed ``2.`` for 2.1% (a newcomer's find at 80x24).
        """
        fixed, edges = self._edges()
        pad = self.cell_padding  # a column missing only its padding shows all its text
        count = len(edges) - 1
        first = next((i for i in range(count) if edges[i] + pad >= fixed), count)
        stop = first
        room = self.scrollable_content_region.width
        while stop < count and edges[stop + 1] - pad <= room:
            stop += 1
        return first + self.fixed_columns, stop + self.fixed_columns

    def render_line(self, y: int) -> Strip:
        """The line as DataTable renders it, the cut columns blanked (their styles kept)."""
        strip = super().render_line(y)
        fixed, edges = self._edges()
        first, stop = (i - self.fixed_columns for i in self.whole_columns())
        width = strip.cell_length
        start = min(max(edges[first], fixed), width)
        end = min(max(edges[stop], start), width) if stop > first else start
        if start == fixed and end == width:
            return strip
        head, cut_left, shown, cut_right = strip.divide([fixed, start, end, width])
        return Strip.join([head, _blank(cut_left), shown, _blank(cut_right)])


def _blank(strip: Strip) -> Strip:
    """``strip`` with its text replaced by spaces, its styles (zebra, cursor) kept."""
    return Strip(
        [Segment(" " * segment.cell_length, segment.style) for segment in strip],
        strip.cell_length,
    )
