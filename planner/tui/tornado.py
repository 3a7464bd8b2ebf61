"""The sensitivity view: which input moves the selected layout's risk most (a tornado).

Each input is halved and doubled with the others held (``planner sensitivity``'s cases,
evaluated by the core's batch evaluator); the table ranks the inputs by the swing of the
aggregate's P(loss) and gives each one's elasticity, and the chart draws the same cases as
bars on a log scale around the base P(loss).
"""

from __future__ import annotations

from rich.console import JustifyMethod, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from planner.analysis.sensitivity import SensitivityReport
from planner.report.percentages import format_percent
from planner.report.sensitivity import notes, sensitivity_columns
from planner.report.table import fit_columns, hidden_note, table_cells
from planner.report.tornado_chart import tornado_chart
from planner.tui.columns import two_line_header
from planner.tui.repaint import update_text
from planner.tui.steady_table import SteadyTable


class SensitivityView(VerticalScroll):
    """A ranked table of the inputs with their elasticities, the tornado chart, and notes.

    Columns the width leaves out are named right under the table.
    """

    tornado: reactive[SensitivityReport | None] = reactive(None)
    """The latest tornado of the selected layout; None until the first one is computed."""

    renders: int = 0
    """How many times the view has been filled (tests and benchmarks wait on it)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._texts: dict[str, str] = {}
        self._shapes: dict[str, tuple[int, int]] = {}

    def compose(self) -> ComposeResult:
        """Title, the ranked table, the chart, the notes."""
        yield Static("computing the tornado…", id="tornado-title", markup=False)
        yield SteadyTable(
            id="tornado-table", cursor_type="none", zebra_stripes=True, header_height=2
        )
        # Right under the table, not with the notes: at 80x24 the chart pushes those below
        # the screen's foot, and this one says what the table does not show.
        yield Static("", id="tornado-hidden", markup=False)
        yield Static("", id="tornado-chart")
        yield Static("", id="tornado-notes", markup=False)

    @property
    def table(self) -> DataTable[Text]:
        """The ranked inputs."""
        return self.query_one("#tornado-table", DataTable)

    @property
    def ranking(self) -> list[str]:
        """Scenario names of the inputs, largest swing first (as the table lists them)."""
        return [str(key.value) for key in self.table.rows]

    def watch_tornado(self) -> None:
        """Show a new tornado."""
        self._show_tornado()

    def on_resize(self) -> None:
        """Fit the columns and the chart to the new width."""
        self._show_tornado()

    def _show_tornado(self) -> None:
        if self.tornado is None:
            return
        report = self.tornado
        width = max(40, self.scrollable_content_region.width)
        s = report.sensitivity
        aggregate = "sized aggregate" if report.sized else "aggregate"
        mark = " (◆ baseline)" if report.baseline else ""
        # a pool is no group of N drives: say it as the compare table does, 20 (8d+2p, 1s)
        pool = report.pool_rebuild_hours is not None
        shape = f"pool of {report.group}" if pool else f"{s.group_size} drives per group"
        groups = f"{s.groups} pool{'s' if s.groups != 1 else ''}" if pool else f"{s.groups} groups"
        self._set(
            "#tornado-title",
            f"Sensitivity of {report.label}{mark}: n+{s.parity}, {shape}; "
            f"P(loss) of the {aggregate} ({groups}) {format_percent(s.p_loss_aggregate)}",
        )
        columns = sensitivity_columns(report)
        rows = table_cells(columns, s.bars)
        keep = fit_columns(columns, rows, width - 6)
        headers = ["\n#", *(two_line_header(columns[i]) for i in keep)]
        justify: list[JustifyMethod] = [
            "left",
            *("right" if columns[i].numeric else "left" for i in keep),
        ]
        cells = [
            [
                Text(text, justify=how)
                for text, how in zip([str(rank), *(row[i] for i in keep)], justify, strict=True)
            ]
            for rank, row in enumerate(rows, start=1)
        ]
        self._fill_table(headers, justify, [row[0] for row in rows], cells)
        hidden = hidden_note(
            columns,
            keep,
            "a wider terminal or planner sensitivity --format markdown shows every column",
        )
        self.query_one("#tornado-hidden", Static).display = hidden is not None
        self._set("#tornado-hidden", hidden or "")
        # The chart's height: a row per input, the axis and the legend, at this width.
        self._set("#tornado-chart", tornado_chart(report, width - 2), (len(s.bars), width))
        lines = notes(report)
        lines.append("The selected row of the compare table (F2) picks the layout.")
        self._set("#tornado-notes", "\n".join(lines))
        self.renders += 1

    def _fill_table(
        self,
        headers: list[str],
        justify: list[JustifyMethod],
        keys: list[str],
        cells: list[list[Text]],
    ) -> None:
        """Fill the table; when only the numbers changed, change the cells in place.

        Clearing and refilling lays the screen out again, which costs more than the
        tornado itself (a couple of ms); the ranking rarely changes while typing.
        """
        table = self.table
        if [str(c.label) for c in table.columns.values()] == headers and self.ranking == keys:
            # Re-measuring a column lays the screen out again: only when a cell outgrows it.
            widths = [column.content_width for column in table.columns.values()]
            grown = any(
                cell.cell_len > width
                for row in cells
                for cell, width in zip(row, widths, strict=True)
            )
            for key, row in zip(keys, cells, strict=True):
                for header, cell in zip(headers, row, strict=True):
                    table.update_cell(key, header, cell, update_width=grown)
            return
        table.clear(columns=True)
        for header, how in zip(headers, justify, strict=True):
            table.add_column(Text(header, justify=how), key=header)
        for key, row in zip(keys, cells, strict=True):
            table.add_row(*row, key=key)

    def _set(
        self, selector: str, content: RenderableType, shape: tuple[int, int] | None = None
    ) -> None:
        """Update a Static unless it already shows ``content`` (text compared as text).

        Text is laid out again only when its wrapped height changes
        (:func:`planner.tui.repaint.update_text`); the chart when its ``shape`` (rows, width)
        does. New numbers of the same shape then repaint only the Static.
        """
        static = self.query_one(selector, Static)
        if isinstance(content, str):
            update_text(static, content, self._texts.get(selector))
            self._texts[selector] = content
            return
        same = shape is not None and self._shapes.get(selector) == shape
        if shape is not None:
            self._shapes[selector] = shape
        static.update(content, layout=not same)
