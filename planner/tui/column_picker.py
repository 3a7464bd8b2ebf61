"""The column picker: which of the compare table's declared columns show, and their order.

It lists the columns the report declares for the table shown (:mod:`planner.report`), by
their one-line headers, so a column declared later appears here with nothing to add. The
first column, the layout, always shows first and is not listed. It returns a
:class:`~planner.report.column_choice.ColumnChoice`, or None when cancelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, SelectionList, Static
from textual.widgets.selection_list import Selection

from planner.report.column_choice import ColumnChoice, column_id, default_order
from planner.report.table import Column
from planner.tui.footer import KeyFooter

HINT = "Space shows or hides · Shift+↑/↓ or [ ] move · r defaults · Enter applies · Esc cancels"


class ColumnPickerScreen(ModalScreen[ColumnChoice | None]):
    """Tick the columns to show and move them up and down; Enter applies."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "apply", "Apply", priority=True),
        Binding("escape", "cancel", "Cancel"),
        Binding("shift+up,left_square_bracket", "move(-1)", "Up"),
        Binding("shift+down,right_square_bracket", "move(1)", "Down"),
        Binding("r", "reset", "Defaults"),
    ]

    def __init__(self, title: str, columns: Sequence[Column[Any]], hidden: frozenset[str]) -> None:
        """``columns`` in the order shown now (the label first), ``hidden`` by id."""
        super().__init__()
        self.title_text = title
        self.columns = list(columns)
        self._order = self.columns[1:]
        self._shown = {column_id(c) for c in self._order if column_id(c) not in hidden}

    def compose(self) -> ComposeResult:
        """A title, the list of columns and a line of keys."""
        with Vertical(id="picker-dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield SelectionList[str](*self._selections(), id="picker-list")
            yield Static(HINT, classes="dialog-hint", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        """Start on the first column."""
        self.picker.focus()

    @property
    def picker(self) -> SelectionList[str]:
        """The list of columns."""
        return self.query_one("#picker-list", SelectionList)

    def _selections(self) -> list[Selection[str]]:
        return [Selection(c.header, column_id(c), column_id(c) in self._shown) for c in self._order]

    def _refill(self, highlighted: int | None) -> None:
        picker = self.picker
        self._shown = set(picker.selected)
        picker.clear_options()
        picker.add_options(self._selections())
        if highlighted is not None and self._order:
            picker.highlighted = max(0, min(highlighted, len(self._order) - 1))

    def action_move(self, step: int) -> None:
        """Move the highlighted column up (-1) or down (1)."""
        index = self.picker.highlighted
        if index is None or not 0 <= index + step < len(self._order):
            return
        order = self._order
        order[index], order[index + step] = order[index + step], order[index]
        self._refill(index + step)

    def action_reset(self) -> None:
        """Every column, in the default order (a buyer's: drives, capacity, cost first)."""
        self._order = default_order(self.columns)[1:]
        self.picker.select_all()
        self._refill(self.picker.highlighted or 0)

    def action_apply(self) -> None:
        """Close with the columns ticked, in the order listed."""
        self.dismiss(ColumnChoice.of(self._order, self.picker.selected))

    def action_cancel(self) -> None:
        """Close without a change."""
        self.dismiss(None)
