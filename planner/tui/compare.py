"""The compare view: every layout side by side in one table, coloured by risk."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from planner.core.layouts import Comparison, LayoutResult
from planner.core.rates import HOURS_PER_YEAR
from planner.report.comparison import notes, risk_style
from planner.report.numbers import format_count, format_percent, format_ratio, format_tb
from planner.tui.state import SORT_KEYS, SortKey, sorted_results


@dataclass(frozen=True)
class TuiColumn:
    """A compare-table column: two-line header, cell text, and whether risk colours it."""

    header: str
    text: Callable[[LayoutResult], str]
    risk: bool = False


def _groups(r: LayoutResult) -> str:
    return f"{r.shape.groups}" if r.shape.exact_division else f"{r.shape.groups}*"


def _losses(losses: float) -> str:
    return f"{losses:,.2f}" if losses >= 0.01 else f"{losses:.2g}"


def tui_columns(comparison: Comparison) -> list[TuiColumn]:
    """The table's columns: the CLI report's numbers and formats, narrower headers.

    Usable TB only when the drive capacity is known; odds and the per-group relative risk
    are left to the Markdown export to fit 120 columns.
    """
    columns = [
        TuiColumn(
            "Drives\n/group",
            lambda r: f"{r.layout.group_size} ({r.layout.data_disks_per_group}+{r.layout.parity})",
        ),
        TuiColumn("\nGroups", _groups),
        TuiColumn("Total\ndrives", lambda r: f"{r.shape.total_disks:,}"),
        TuiColumn("Over-\nhead", lambda r: f"{r.shape.overhead_disks:,}"),
    ]
    if any(r.usable_tb is not None for r in comparison.results):
        columns.append(
            TuiColumn("Usable\nTB", lambda r: "" if r.usable_tb is None else format_tb(r.usable_tb))
        )
    columns += [
        TuiColumn("P(loss)\ngroup", lambda r: format_percent(r.p_loss_group), risk=True),
        TuiColumn("P(loss)\naggregate", lambda r: format_percent(r.p_loss_aggregate), risk=True),
        TuiColumn("Losses/\n10k grps", lambda r: _losses(r.losses_per_10k_groups)),
        TuiColumn("MTTDL, group\n(years)", lambda r: format_count(r.mttdl_hours / HOURS_PER_YEAR)),
        TuiColumn(
            "Risk vs\nbaseline", lambda r: format_ratio(r.relative_risk_aggregate), risk=True
        ),
    ]
    return columns


SORT_NAMES: dict[SortKey, str] = {
    "scenario": "scenario order",
    "risk": "risk (lowest first)",
    "overhead": "overhead drives (fewest first)",
}


class CompareView(Vertical):
    """The layouts table with a status line; keys add, remove, rebase and sort layouts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add_layout", "Add layout"),
        Binding("x,delete", "remove_layout", "Remove"),
        Binding("b", "set_baseline", "Baseline"),
        Binding("s", "cycle_sort", "Sort"),
    ]

    comparison: reactive[Comparison | None] = reactive(None)
    """The latest complete results; None until the first computation finishes."""

    sort_key: reactive[SortKey] = reactive[SortKey]("scenario")
    """Row order: the scenario's, by aggregate risk, or by overhead drives."""

    renders: int = 0
    """How many times the table has been filled (the benchmark waits on it)."""

    _notes_text: str = ""

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
        table: DataTable[Text] = DataTable(
            id="compare-table", cursor_type="row", zebra_stripes=True, header_height=2
        )
        yield table
        yield Static("computing…", id="compare-notes", markup=False)

    @property
    def table(self) -> DataTable[Text]:
        """The layouts table."""
        return self.query_one("#compare-table", DataTable)

    @property
    def selected_label(self) -> str | None:
        """Label of the layout under the cursor, or None when the table is empty."""
        table = self.table
        if table.row_count == 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return row_key.value

    def watch_comparison(self) -> None:
        """Refill the table when new results arrive."""
        self._render_table()

    def watch_sort_key(self) -> None:
        """Reorder the rows."""
        self._render_table()

    def _render_table(self) -> None:
        comparison = self.comparison
        if comparison is None:
            return
        table = self.table
        columns = tui_columns(comparison)
        headers = ["\nLayout", *(c.header for c in columns)]
        results = sorted_results(comparison, self.sort_key)
        labels = [r.layout.label for r in results]
        rows = [self._cells(comparison, columns, r) for r in results]
        same_shape = [str(c.label) for c in table.columns.values()] == headers and [
            key.value for key in table.rows
        ] == labels
        if same_shape:
            # Same layouts and columns: change the cells in place. Clearing and refilling
            # would lay the screen out again, which costs more than the evaluation itself.
            for label, cells in zip(labels, rows, strict=True):
                for header, cell in zip(headers, cells, strict=True):
                    table.update_cell(label, header, cell, update_width=True)
        else:
            keep = self.selected_label
            table.clear(columns=True)
            table.add_column(Text(headers[0]), key=headers[0])
            for column in columns:
                table.add_column(Text(column.header, justify="right"), key=column.header)
            for label, cells in zip(labels, rows, strict=True):
                table.add_row(*cells, key=label)
            if keep in labels:
                table.move_cursor(row=labels.index(keep), animate=False)
        self.renders += 1
        self._render_notes(comparison)

    def _cells(
        self, comparison: Comparison, columns: list[TuiColumn], result: LayoutResult
    ) -> list[Text]:
        style = risk_style(result.relative_risk_aggregate)
        label = result.layout.label
        if label == comparison.baseline:
            first = Text(f"◆ {label}", style="bold")
        else:
            first = Text(f"  {label}")
        return [
            first,
            *(
                Text(c.text(result), style=style if c.risk else "", justify="right")
                for c in columns
            ),
        ]

    def _render_notes(self, comparison: Comparison) -> None:
        years = comparison.mission_hours / 8_760.0
        lines = notes(comparison, years)
        lines.append(
            f"◆ baseline · order: {SORT_NAMES[self.sort_key]} · "
            "red >10× the baseline's risk, yellow >1.5×, green <⅔×"
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
