"""Render a group-size or parameter sweep as a Rich table, GitHub Markdown, CSV or JSON.

Rows are grouped by layout (parity, then group size, as NS3574 Tables 2 and 3 list them),
then by the varied value. The report (:class:`~planner.analysis.sweep.SweepReport`) holds
its rows as columns; the same field declarations (:mod:`planner.report.sweep_columns`)
drive every format: the tables see them as :class:`~planner.report.table.Column` objects
over row indices, JSON and CSV are written column by column, streamed
(:mod:`planner.report.sweep_export`). The terminal table adds a bar of log P(loss) of the
aggregate.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from planner.analysis.sweep import SweepReport
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.report.field_values import field_text
from planner.report.inputs import csv_comment, inputs_lines, titled, with_inputs
from planner.report.percentages import near_certain_notes
from planner.report.sweep_columns import export_columns, sweep_columns
from planner.report.sweep_export import csv_rows, json_rows
from planner.report.table import (
    Column,
    fit_columns,
    markdown_cell,
    markdown_table,
    rich_table_for,
    table_cells,
)

if TYPE_CHECKING:
    from rich.table import Table

__all__ = [
    "SweepReport",
    "csv_stream",
    "decade_range",
    "json_stream",
    "log_bar",
    "notes",
    "table_notes",
    "to_csv",
    "to_json",
    "to_markdown",
    "to_rich_table",
]

BAR_CELLS = 12
"""Width of the log P(loss) bar in terminal cells."""

_EIGHTHS = " ▏▎▍▌▋▊▉"


def decade_range(probabilities: Sequence[float] | npt.NDArray[np.float64]) -> tuple[int, int]:
    """Whole powers of ten around the positive ``probabilities``: the bar's log axis."""
    values = np.asarray(probabilities, dtype=np.float64)
    positive = values[values > 0]
    if not positive.size:
        return (-1, 0)
    # log10 is increasing: the axis needs only the smallest and the largest
    low = math.floor(math.log10(float(positive.min())))
    high = math.ceil(math.log10(float(positive.max())))
    return (low, high) if high > low else (low, low + 1)


def log_bar(p: float, decades: tuple[int, int], cells: int = BAR_CELLS) -> str:
    """A bar ``cells`` wide whose length is ``log10 p`` on the ``decades`` axis (1/8 cells)."""
    if p <= 0:
        return " " * cells
    low, high = decades
    fraction = min(1.0, max(0.0, (math.log10(p) - low) / (high - low)))
    eighths = max(1, round(fraction * cells * 8))
    full, part = divmod(eighths, 8)
    text = "█" * full + (_EIGHTHS[part] if part else "")
    return text.ljust(cells)


def _bar_column(report: SweepReport) -> Column[int]:
    risks = report.table.p_loss_aggregate.tolist()
    decades = decade_range(risks)
    return Column(
        f"log P(loss) 1e{decades[0]}..1e{decades[1]}",
        lambda r: log_bar(risks[r], decades),
        numeric=False,
        short_header=f"1e{decades[0]}..\n1e{decades[1]}",
        priority=5,
    )


def to_rich_table(report: SweepReport, max_width: int | None = None) -> Table:
    """A Rich table, one section per parity count (or layout, when a field is varied).

    Repeated group names are left blank; uneven divisions are dimmed; with ``max_width``
    the least important columns are left out.
    """
    columns = [*sweep_columns(report), _bar_column(report)]
    indices = range(len(report))
    rows = table_cells(columns, indices)
    keep = fit_columns(columns, rows, max_width)
    table = rich_table_for(_table_title(report), columns, keep)
    sections = _sections(report)
    exact = report.table.exact_division.tolist()
    # A section is one layout when a field is varied, else one parity count.
    shape = [i for i, c in enumerate(columns) if c.header in _LAYOUT_HEADERS]
    if report.varied is None:
        shape = [0]
    shown = [list(cells) for cells in rows]
    for index, cells in enumerate(shown):
        if index > 0 and sections[index - 1] == sections[index]:
            # Within a section, the layout's description is not repeated.
            for i in shape:
                if rows[index - 1][i] == rows[index][i]:
                    cells[i] = ""
        last = index + 1 == len(sections) or sections[index + 1] != sections[index]
        table.add_row(
            *(cells[i] for i in keep),
            style="" if exact[index] else "dim",
            end_section=last,
        )
    return table


_LAYOUT_HEADERS = frozenset(
    (
        "Layout",
        "Parity",
        "Drives/group",
        "Groups",
        "Extra data drives",
        "Total drives",
        "Overhead drives",
    )
)


def _sections(report: SweepReport) -> list[Any]:
    """Each row's section: its layout (a field varied, or the scenario's), else its parity."""
    table = report.table
    column = table.layout if report.by_layout or report.varied is not None else table.parity
    sections: list[Any] = column.tolist()
    return sections


def _table_title(report: SweepReport) -> str:
    what = f"by {report.varied.name}" if report.varied is not None else "by group size"
    return titled(f"{report.title}: P(loss) {what}", report.inputs)


def notes(report: SweepReport) -> list[str]:
    """Footnotes: mission and aggregate, which sizes are shown, the range, uneven rows."""
    varied = report.varied
    lines = [
        f"{'Base: m' if varied is not None else 'M'}ission "
        f"{report.mission_hours / HOURS_PER_YEAR:g} years ({report.mission_hours:,.0f} h); "
        f"{report.data_disks:,} data drives."
    ]
    if varied is not None and report.values is not None and len(report):
        values = report.values.tolist()
        spacing = "log-spaced" if report.log else "evenly spaced"
        distinct = sorted(set(values))
        unit = f" ({varied.unit})"
        if varied.integer:  # 0..4:4 is 0, 1.33, 2.67, 4 rounded: say which
            shown = ", ".join(field_text(varied, v) for v in distinct[:12])
            unit = f", rounded to whole {varied.unit}: {shown}{', ...' * (len(distinct) > 12)}"
        lines.append(
            f"{varied.name} from {field_text(varied, min(values))} to "
            f"{field_text(varied, max(values))}, {len(distinct)} values {spacing}{unit}."
        )
    if not report.include_uneven and not report.by_layout:
        lines.append(
            f"Only group sizes whose data drives divide the {report.data_disks:,} data drives "
            "evenly (NS3574 Tables 2 and 3); --all shows every size."
        )
    if not bool(report.table.exact_division.all()):
        lines.append(
            "* (in the Groups column) uneven division: the groups hold more data drives than "
            "asked (Extra data drives)."
        )
    return [*lines, *near_certain_notes(report.table.p_loss_aggregate), *report.section_notes]


def table_notes(report: SweepReport) -> list[str]:
    """:func:`notes` plus the legend of the terminal bar."""
    low, high = decade_range(report.table.p_loss_aggregate)
    return [
        *notes(report),
        f"Bar: P(loss) of the aggregate on a log scale from 1e{low} (empty) to 1e{high} (full).",
    ]


def to_markdown(report: SweepReport) -> str:
    """A GitHub-flavoured Markdown table with a heading and the notes as a list."""
    columns = sweep_columns(report)
    rows = table_cells(columns, range(len(report)))
    lines = [f"### {_table_title(report)}", "", *markdown_table(columns, rows), ""]
    lines += [
        f"- {markdown_cell(note.removeprefix('* '))}"
        for note in inputs_lines(report.inputs, notes(report))
    ]
    return "\n".join(lines) + "\n"


def _document(report: SweepReport) -> dict[str, Any]:
    return with_inputs(
        {
            "scenario": report.title,
            "mission_hours": report.mission_hours,
            "data_disks": report.data_disks,
            "include_uneven": report.include_uneven,
            "varied": None if report.varied is None else report.varied.name,
            "log": report.log,
        },
        report.inputs,
    )


def json_stream(report: SweepReport) -> Iterator[bytes]:
    """The JSON contract in UTF-8 chunks: the setup, then ``rows`` one per line (streamed).

    Written from the report's columns (:mod:`planner.report.sweep_export`): no record per
    row, memory flat in the rows.
    """
    return json_rows(_document(report), "rows", export_columns(report), len(report))


def csv_stream(report: SweepReport) -> Iterator[bytes]:
    """The CSV (inputs comment, header, raw values) in UTF-8 chunks, from the columns."""
    comment = None if report.inputs is None else csv_comment(report.inputs)
    return csv_rows(export_columns(report), len(report), comment)


def to_json(report: SweepReport) -> str:
    """The JSON contract: scenario, mission_hours, rows (raw floats); plus the sweep's setup."""
    return b"".join(json_stream(report)).decode()


def to_csv(report: SweepReport) -> str:
    """CSV with a header row and raw values (full precision floats) for spreadsheets."""
    return b"".join(csv_stream(report)).decode()
