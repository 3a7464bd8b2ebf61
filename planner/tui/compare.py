"""The compare view: every layout side by side in one table, coloured by risk."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from planner.analysis.compare import (
    SORT_KEYS,
    CompareData,
    SortKey,
    sorted_results,
    sorted_sized,
)
from planner.core.layouts import Comparison
from planner.report.comparison import comparison_columns, notes
from planner.report.sizing import short_notes, sizing_columns
from planner.report.table import Column, hidden_note, risk_style, table_cells
from planner.tui.columns import column_widths, fit_to_width, table_width, two_line_header
from planner.tui.table import SteadyTable

ColumnSet = Literal["sizing", "fixed"]
"""What the table shows for a scenario with a workload: the sized aggregates, or the
aggregate of ``aggregate.data_disks`` (the only set without a workload)."""


GROWTH_ROOM = 1
"""Cells a fit leaves spare for values that widen while typing (a cell gaining a digit).

Without it a table fitted to the last cell (today's drives at 120 columns) lost a column
on the first key that lengthened a probability by one digit."""


SORT_NAMES: dict[SortKey, str] = {
    "scenario": "scenario order",
    "risk": "risk (lowest first)",
    "overhead": "overhead drives (fewest first)",
}

SIZED_SORT_NAMES: dict[SortKey, str] = {
    **SORT_NAMES,
    "overhead": "disks needed (fewest first)",
}


class CompareView(Vertical):
    """The layouts table with a status line; keys add, remove, rebase and sort layouts.

    For a scenario with a workload it shows the sizing columns (and the sized aggregates'
    risk) by default; ``c`` switches to the aggregate of ``aggregate.data_disks`` and back.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add_layout", "Add layout"),
        Binding("x,delete", "remove_layout", "Remove"),
        Binding("b", "set_baseline", "Baseline"),
        Binding("s", "cycle_sort", "Sort"),
        Binding("c", "toggle_columns", "Columns"),
    ]

    data: reactive[CompareData | None] = reactive(None)
    """The latest complete results; None until the first computation finishes."""

    sort_key: reactive[SortKey] = reactive[SortKey]("scenario")
    """Row order: the scenario's, by aggregate risk, or by overhead drives (disks needed)."""

    column_set: reactive[ColumnSet] = reactive[ColumnSet]("sizing")
    """With a workload: sizing columns or the fixed aggregate's; ignored without one."""

    renders: int = 0
    """How many times the table has been filled (the benchmark waits on it)."""

    _notes_text: str = ""

    _width: int | None = None
    """The view's width in cells at the last resize (None before the first layout)."""

    _fitted: tuple[Any, list[int]] | None = None
    """The shape the columns were last fitted to, and the columns shown."""

    _stale: bool = False
    """Results came while the view was hidden: the table shows older ones until shown."""

    _hidden: str | None = None
    """The note naming the columns the width leaves out, if any."""

    class AddRequested(Message):
        """The user asked to add a layout."""

    class RemoveRequested(Message):
        """The user asked to remove the layout ``label``."""

        def __init__(self, label: str) -> None:
            super().__init__()
            self.label = label

    class BaselineRequested(Message):
        """The user asked to measure relative risks against the layout ``label``."""

        def __init__(self, label: str) -> None:
            super().__init__()
            self.label = label

    class Selected(Message):
        """The cursor moved to the layout ``label``."""

        def __init__(self, label: str) -> None:
            super().__init__()
            self.label = label

    def compose(self) -> ComposeResult:
        """The table and, below it, the notes (mission, baseline, uneven groups, order)."""
        table = SteadyTable(
            id="compare-table", cursor_type="row", zebra_stripes=True, header_height=2
        )
        yield table
        yield Static("computing…", id="compare-notes", markup=False)

    def on_mount(self) -> None:
        """Fit the columns again when the table's vertical scrollbar comes or goes."""
        self.watch(self.table, "show_vertical_scrollbar", self._render_table, init=False)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the columns to the new width (the table spans the view)."""
        if event.size.width != self._width:
            self._width = event.size.width
            self._render_table()

    @property
    def table(self) -> DataTable[Text]:
        """The layouts table."""
        return self.query_one("#compare-table", DataTable)

    @property
    def comparison(self) -> Comparison | None:
        """The comparison shown (None before the first results)."""
        return None if self.data is None else self.data.comparison

    @property
    def showing_sizing(self) -> bool:
        """Whether the table shows the sizing columns (a workload, and not toggled off)."""
        return (
            self.data is not None and self.data.sizing is not None and (self.column_set == "sizing")
        )

    @property
    def selected_label(self) -> str | None:
        """Label of the layout under the cursor, or None when the table is empty."""
        table = self.table
        if table.row_count == 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return row_key.value

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer the column toggle only when there is a workload (two column sets)."""
        if action == "toggle_columns":
            return self.data is not None and self.data.sizing is not None
        return True

    def watch_data(self, old: CompareData | None, new: CompareData | None) -> None:
        """Refill the table when new results arrive (once shown, if another view is)."""
        had = old is not None and old.sizing is not None
        if had != (new is not None and new.sizing is not None):
            self.refresh_bindings()
        if self.is_on_screen:
            self._render_table()
        else:
            # Typing in another view: filling a hidden table would only delay that view's
            # frame (the results are kept in ``data``; exports read them from there).
            self._stale = True

    def on_show(self) -> None:
        """Shown again: fill the table with the results that came while it was hidden."""
        if self._stale:
            self._render_table()

    def watch_sort_key(self) -> None:
        """Reorder the rows."""
        self._render_table()

    def watch_column_set(self) -> None:
        """Show the other column set."""
        self._render_table()

    def _render_table(self) -> None:
        self._stale = False
        data = self.data
        if data is None:
            return
        comparison = data.comparison
        if self.showing_sizing and data.sizing is not None:
            sized = sorted_sized(data.sized_rows(), self.sort_key)
            columns: list[Column[Any]] = list(sizing_columns(data.sizing))
            labels = [s.result.label for s in sized]
            risks = [s.relative_risk for s in sized]
            items: list[Any] = sized
        else:
            results = sorted_results(comparison, self.sort_key)
            columns = list(comparison_columns(comparison))
            labels = [r.layout.label for r in results]
            risks = [r.relative_risk_aggregate for r in results]
            items = results
        rows = [
            self._cells(comparison.baseline, label, columns, texts, risk)
            for label, texts, risk in zip(labels, table_cells(columns, items), risks, strict=True)
        ]
        table = self.table
        keep = self._fit(columns, rows, labels)
        headers = [two_line_header(columns[i]) for i in keep]
        rows = [[row[i] for i in keep] for row in rows]
        widths = column_widths(headers, rows)
        same_shape = [str(c.label) for c in table.columns.values()] == headers and [
            key.value for key in table.rows
        ] == labels
        if same_shape:
            # Same layouts and columns: change the cells in place. Clearing and refilling
            # would lay the screen out again, which costs more than the evaluation itself.
            # Re-measuring the table lays the whole screen out again: only when a column's
            # width changes (the DataTable measures on idle whenever asked to).
            # Columns keep their width while typing (they grow, never shrink): a column
            # that narrows and widens with every keystroke would re-lay the screen out on
            # each one. A fresh fit happens when the columns or the layouts change.
            shown = [column.width for column in table.columns.values()]
            sticky = [max(old, new) for old, new in zip(shown, widths, strict=True)]
            if self._width is None or sum(sticky) + 2 * len(sticky) <= self._room():
                widths = sticky
            resized = shown != widths
            for column, width in zip(table.columns.values(), widths, strict=True):
                column.width = width
            for label, cells in zip(labels, rows, strict=True):
                for header, cell in zip(headers, cells, strict=True):
                    table.update_cell(label, header, cell, update_width=resized)
        else:
            selected = self.selected_label
            table.clear(columns=True)
            table.add_column(Text(headers[0]), key=headers[0], width=widths[0])
            for header, width in zip(headers[1:], widths[1:], strict=True):
                table.add_column(Text(header, justify="right"), key=header, width=width)
            for label, cells in zip(labels, rows, strict=True):
                table.add_row(*cells, key=label)
            if selected in labels:
                table.move_cursor(row=labels.index(selected), animate=False)
        self.renders += 1
        self._hidden = hidden_note(
            columns, keep, "a wider terminal or Ctrl+O, the Markdown export, shows every column"
        )
        self._render_notes(data)

    def _fit(
        self, columns: list[Column[Any]], rows: list[list[Text]], labels: list[str]
    ) -> list[int]:
        """The columns that fit the view's width, chosen again only when the shape changes.

        The shape is the view's width, the columns and the layouts (not their order): new
        values while typing never change which columns show, so the table does not jump
        about, unless they no longer fit. A fit leaves :data:`GROWTH_ROOM` cells spare, so
        a value that gains a digit while typing keeps the columns; cells that grow more (ARR
        99.99%, 100,000 data drives) or a vertical scrollbar that comes can make the columns
        chosen wider than the table, which would cut the last one short behind a horizontal
        scrollbar: the columns are then fitted again, to the new cells, and the one that
        goes is named under the table. Columns come back only with a new shape.
        """
        if self._width is None:
            return list(range(len(columns)))
        shape = (self._width, tuple(c.header for c in columns), tuple(sorted(labels)))
        width = self._room()
        plain = [[cell.plain for cell in row] for row in rows]
        if (
            self._fitted is None
            or self._fitted[0] != shape
            or table_width(columns, plain, self._fitted[1]) > width
        ):
            keep = fit_to_width(columns, plain, width - GROWTH_ROOM)
            self._fitted = (shape, keep)
        return self._fitted[1]

    def _room(self) -> int:
        """Cells the table's columns may take: the view's width less a vertical scrollbar."""
        return (self._width or 0) - self.table.scrollbar_size_vertical

    @staticmethod
    def _cells(
        baseline: str, label: str, columns: list[Column[Any]], texts: list[str], relative: float
    ) -> list[Text]:
        style = risk_style(relative)
        first = Text(f"◆ {label}", style="bold") if label == baseline else Text(f"  {label}")
        return [
            first,
            *(
                Text(text, style=style if c.risk else "", justify="right" if c.numeric else "left")
                for c, text in zip(columns[1:], texts[1:], strict=True)
            ),
        ]

    def _render_notes(self, data: CompareData) -> None:
        comparison = data.comparison
        if self.showing_sizing and data.sizing is not None:
            lines = short_notes(data.sizing, comparison.data_disks)
            order = SIZED_SORT_NAMES[self.sort_key]
        else:
            lines = [*notes(comparison, data.inputs.mission_years), *data.notes]
            if data.sizing is not None:
                lines.append(
                    "Risk of a fixed aggregate of aggregate.data_disks, not sized for the "
                    "workload · c: the sizing columns."
                )
            order = SORT_NAMES[self.sort_key]
        if self._hidden is not None:
            # First: the notes are cut at the foot of a short terminal, and this one says
            # what the table does not show (at 80x24 on today's drives it was off screen).
            lines.insert(0, self._hidden)
        lines.append(
            f"◆ baseline · order: {order} · red >10× the baseline's risk, yellow >1.5×, green <⅔×"
        )
        text = "\n".join(lines)
        if text != self._notes_text:  # an unchanged Static needs no new layout
            self._notes_text = text
            self.query_one("#compare-notes", Static).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Tell the app which layout is selected (the model view follows it)."""
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.Selected(event.row_key.value))

    def action_add_layout(self) -> None:
        """Ask the app to open the add-layout dialog."""
        self.post_message(self.AddRequested())

    def action_remove_layout(self) -> None:
        """Ask the app to remove the layout under the cursor."""
        if (label := self.selected_label) is not None:
            self.post_message(self.RemoveRequested(label))

    def action_set_baseline(self) -> None:
        """Ask the app to make the layout under the cursor the baseline."""
        if (label := self.selected_label) is not None:
            self.post_message(self.BaselineRequested(label))

    def action_cycle_sort(self) -> None:
        """Scenario order -> by risk -> by overhead -> scenario order."""
        self.sort_key = SORT_KEYS[(SORT_KEYS.index(self.sort_key) + 1) % len(SORT_KEYS)]

    def action_toggle_columns(self) -> None:
        """Sizing columns <-> the fixed aggregate's columns (scenario with a workload)."""
        self.column_set = "fixed" if self.column_set == "sizing" else "sizing"
