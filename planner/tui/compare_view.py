"""The compare view: every layout side by side in one table, coloured by risk.

The table itself (its sideways scroll by whole columns) is :mod:`planner.tui.compare_table`.
"""

from __future__ import annotations

from functools import partial
from typing import Any, ClassVar, Literal

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from planner.analysis.compare import SORT_KEYS, CompareData, SortKey, sorted_results, sorted_sized
from planner.core.design.layout_comparison import Comparison
from planner.report.column_choice import ColumnChoice, chosen_columns, ordered_columns
from planner.report.comparison import comparison_columns, notes
from planner.report.sizing import short_notes, sizing_columns
from planner.report.table import Column, risk_style, table_cells
from planner.tui.column_picker import ColumnPickerScreen
from planner.tui.columns import column_widths, two_line_header
from planner.tui.compare_notes import NotesScroll, table_rows
from planner.tui.compare_table import CompareTable
from planner.tui.repaint import update_text
from planner.tui.settings import (
    SettingsError,
    column_choice,
    read_settings,
    save_column_choice,
    settings_path,
)

ColumnSet = Literal["sizing", "fixed"]
"""What the table shows for a scenario with a workload: the sized aggregates, or the
aggregate of ``aggregate.data_disks`` (the only set without a workload)."""


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

    Every column the report declares is in the table, in a buyer's order (drives, usable
    TB and cost first) or the one chosen with ``o`` (saved in :mod:`planner.tui.settings`);
    the table scrolls sideways with the layout column kept in view.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add_layout", "Add layout"),
        Binding("x,delete", "remove_layout", "Remove"),
        Binding("b", "set_baseline", "Baseline"),
        Binding("s", "cycle_sort", "Sort"),
        Binding("c", "toggle_columns", "Columns"),
        Binding("o", "pick_columns", "Pick columns"),
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

    _stale: bool = False
    """Results came while the view was hidden: the table shows older ones until shown."""

    _declared: tuple[str, list[Column[Any]]] = ("compare", [])
    """The table shown ("compare" or "sizing") and every column it declares."""

    _overflow: int = 0
    """Columns right of the view's edge when the table was last filled (scroll to see)."""

    _cursor_to_baseline: bool = True
    """The next fill puts the cursor on the baseline: it has not been on a layout yet (at
    start, or in the tier just shown), and the model and sensitivity views show that row."""

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

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.choices: dict[str, ColumnChoice | None] = {}
        """The columns chosen for each table ("compare", "sizing"); None: the default."""

    def compose(self) -> ComposeResult:
        """The table, then the notes (mission, baseline, uneven groups, order).

        The notes scroll where they do not fit; the line under them says what is out of view.
        """
        table = CompareTable(
            id="compare-table",
            cursor_type="row",
            zebra_stripes=True,
            header_height=2,
            fixed_columns=1,  # the layout stays in view while the table scrolls sideways
        )
        yield table
        more = Static("", id="compare-more", markup=False)
        with NotesScroll(more, id="compare-notes-scroll"):
            yield Static("computing…", id="compare-notes", markup=False)
        yield more

    def on_mount(self) -> None:
        """Read the columns chosen in an earlier session (a bad file is named, not fatal).

        The note under the table follows the table's sideways scroll, and its vertical
        scrollbar: when the rows outgrow the view, the bar covers the last cells, and a
        column under it is no longer whole (the note said 18 columns right of the edge
        where 19 were).
        """
        self.watch(self.table, "scroll_x", self._scrolled, init=False)
        self.watch(self.table, "show_vertical_scrollbar", self._scrolled, init=False)
        try:
            document = read_settings(settings_path())
        except SettingsError as problem:
            self.notify(
                f"Settings not read: {problem}", severity="warning", timeout=8, markup=False
            )
            return
        self.choices = {name: column_choice(document, name) for name in ("compare", "sizing")}

    def on_resize(self, event: events.Resize) -> None:
        """Leave the notes their least rows; say again how many columns are right of the edge."""
        self.table.styles.max_height = table_rows(event.size.height)
        self._scrolled()

    def _scrolled(self) -> None:
        if self.data is not None:
            self._render_notes(self.data)

    @property
    def table(self) -> CompareTable:
        """The layouts table."""
        return self.query_one("#compare-table", CompareTable)

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
        name = "sizing" if self.showing_sizing else "compare"
        self._declared = (name, columns)
        columns = chosen_columns(columns, self.choices.get(name))
        rows = [
            self._cells(comparison.baseline, label, columns, texts, risk)
            for label, texts, risk in zip(labels, table_cells(columns, items), risks, strict=True)
        ]
        headers = [two_line_header(column) for column in columns]
        start = comparison.baseline if self._cursor_to_baseline else None
        self._cursor_to_baseline = False
        self.table.fill(headers, labels, rows, column_widths(headers, rows), start)
        self.renders += 1
        self._render_notes(data)

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

    def _columns_note(self) -> str:
        """How many columns are right of the edge, and the keys that show them."""
        table = self.table
        first, stop = table.whole_columns()
        before = first - table.fixed_columns
        beyond = len(table.columns) - stop
        keys = "F2 then ←/→ scroll, o picks and orders them"
        if beyond:
            plural = "s" if beyond > 1 else ""
            also = f" ({before} to the left)" if before else ""
            return f"→ {beyond} more column{plural}{also}: {keys}"
        if before:
            plural = "s" if before > 1 else ""
            return f"← {before} more column{plural} to the left: {keys}"
        return "F2 then o picks and orders the columns"

    def _render_notes(self, data: CompareData) -> None:
        comparison = data.comparison
        if self.showing_sizing and data.sizing is not None:
            lines = short_notes(data.sizing, comparison.data_disks)
            order = SIZED_SORT_NAMES[self.sort_key]
        else:
            # a label a --set left on a reshaped layout first: its row misleads till read
            lines = notes(data, fixed=False)
            if data.sizing is not None:
                lines.append(
                    "Risk of a fixed aggregate of aggregate.data_disks, not sized for the "
                    "workload, here and in F4-F6 · F2 then c: the sizing columns."
                )
            order = SORT_NAMES[self.sort_key]
        # First: the notes are cut at the foot of a short terminal (issue 21: at 80x24 the
        # columns a buyer needs were to the right, and nothing said how to see them).
        lines.insert(0, self._columns_note())
        lines.append(
            f"◆ baseline · order: {order} · red >10× the baseline's risk, yellow >1.5×, green <⅔×"
        )
        text = "\n".join(lines)
        # A layout only when the notes take another number of lines: a sideways scroll
        # changes the first line's counts, and laid the whole screen out again on each key.
        update_text(self.query_one("#compare-notes", Static), text, self._notes_text or None)
        self._notes_text = text

    def cursor_to_baseline(self) -> None:
        """Put the cursor on the baseline when the table is next filled (a tier shown)."""
        self._cursor_to_baseline = True

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

    def action_pick_columns(self) -> None:
        """Open the column picker for the table shown; its choice is kept and saved."""
        name, declared = self._declared
        if not declared:
            return
        choice = self.choices.get(name)
        title = "Columns of the sizing table" if name == "sizing" else "Columns of the table"
        picker = ColumnPickerScreen(
            f"{title} (Layout stays first)",
            ordered_columns(declared, choice),
            frozenset() if choice is None else choice.hidden,
        )
        self.app.push_screen(picker, partial(self._columns_picked, name))

    def _columns_picked(self, name: str, choice: ColumnChoice | None) -> None:
        self.table.focus()
        if choice is None or choice == self.choices.get(name):
            return
        self.choices[name] = choice
        self._render_table()
        try:
            save_column_choice(settings_path(), name, choice)
        except SettingsError as problem:
            self.notify(
                f"Columns kept for this session, not saved: {problem}",
                severity="warning",
                timeout=8,
                markup=False,  # a path may hold [brackets]
            )

    def action_toggle_columns(self) -> None:
        """Sizing columns <-> the fixed aggregate's columns (scenario with a workload)."""
        self.column_set = "fixed" if self.column_set == "sizing" else "sizing"
