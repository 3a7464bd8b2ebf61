"""Render a group-size or parameter sweep as a Rich table, GitHub Markdown, CSV or JSON.

Rows are grouped by layout (parity, then group size, as NS3574 Tables 2 and 3 list them),
then by the varied value. The same :class:`~planner.report.comparison.Column` list drives
every format; the terminal table adds a bar of log P(loss) of the aggregate.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planner.analysis.inputs import Inputs
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.report.field_values import field_text
from planner.report.inputs import inputs_lines, with_inputs
from planner.report.sweep_columns import sweep_columns, sweep_fields
from planner.report.table import (
    Column,
    csv_chunks,
    export_records,
    fit_columns,
    json_chunks,
    markdown_cell,
    markdown_table,
    rich_table_for,
    table_cells,
)

if TYPE_CHECKING:
    from rich.table import Table

    from planner.analysis.varied_fields import ScenarioField
    from planner.core.design.sweep import SweepRow

BAR_CELLS = 12
"""Width of the log P(loss) bar in terminal cells."""

_EIGHTHS = " ▏▎▍▌▋▊▉"


@dataclass(frozen=True)
class SweepLine:
    """One row of the report: a core sweep row, its layout label and the varied value.

    Attributes:
        row: capacity and risk of the layout at this point.
        label: the scenario layout's label when sweeping the scenario's layouts, else None.
        value: the varied field's value in the field's unit (ARR as a fraction), or None.
    """

    row: SweepRow
    label: str | None = None
    value: float | None = None

    @property
    def extra_data_disks(self) -> float:
        """Data drives the groups hold beyond those asked for (0 for an even division)."""
        extra = self.row.data_disks_provided - self.row.data_disks
        return extra if isinstance(extra, int) else round(extra, 1)


@dataclass(frozen=True)
class SweepReport:
    """Everything a sweep report shows.

    Attributes:
        title: the scenario's name.
        mission_hours: the scenario's mission (h); rows carry their own when it is varied.
        data_disks: the scenario's data drives; likewise.
        lines: the rows, grouped by layout then varied value.
        varied: the scenario field varied (``--vary``), or None.
        include_uneven: every group size was kept (``--all``), not only even divisions.
        by_layout: the rows are the scenario's own layouts (labelled), not a size range.
        log: the varied values are log-spaced.
        inputs: the scenario's assumptions (the base values), printed by every export.
    """

    title: str
    mission_hours: float
    data_disks: int
    lines: tuple[SweepLine, ...]
    varied: ScenarioField | None = None
    include_uneven: bool = False
    by_layout: bool = False
    log: bool = False
    inputs: Inputs | None = None


def decade_range(probabilities: Sequence[float]) -> tuple[int, int]:
    """Whole powers of ten around the positive ``probabilities``: the bar's log axis."""
    logs = [math.log10(p) for p in probabilities if p > 0]
    if not logs:
        return (-1, 0)
    low, high = math.floor(min(logs)), math.ceil(max(logs))
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


def _bar_column(report: SweepReport) -> Column[SweepLine]:
    decades = decade_range([x.row.p_loss_aggregate for x in report.lines])
    return Column(
        f"log P(loss) 1e{decades[0]}..1e{decades[1]}",
        lambda x: log_bar(x.row.p_loss_aggregate, decades),
        numeric=False,
        short_header=f"1e{decades[0]}..\n1e{decades[1]}",
        priority=5,
    )


def _group_key(line: SweepLine) -> tuple[Any, ...]:
    return (line.label, line.row.parity, line.row.group_size)


def to_rich_table(report: SweepReport, max_width: int | None = None) -> Table:
    """A Rich table, one section per parity count (or layout, when a field is varied).

    Repeated group names are left blank; uneven divisions are dimmed; with ``max_width``
    the least important columns are left out.
    """
    columns = [*sweep_columns(report), _bar_column(report)]
    rows = table_cells(columns, report.lines)
    keep = fit_columns(columns, rows, max_width)
    table = rich_table_for(_table_title(report), columns, keep)
    section = _section_key(report)
    # A section is one layout when a field is varied, else one parity count.
    shape = [i for i, c in enumerate(columns) if c.header in _LAYOUT_HEADERS]
    if report.varied is None:
        shape = [0]
    shown = [list(cells) for cells in rows]
    for index, (line, cells) in enumerate(zip(report.lines, shown, strict=True)):
        if index > 0 and section(report.lines[index - 1]) == section(line):
            # Within a section, the layout's description is not repeated.
            for i in shape:
                if rows[index - 1][i] == rows[index][i]:
                    cells[i] = ""
        last = index + 1 == len(report.lines) or section(report.lines[index + 1]) != section(line)
        table.add_row(
            *(cells[i] for i in keep),
            style="" if line.row.exact_division else "dim",
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


def _section_key(report: SweepReport) -> Any:
    if report.by_layout:
        return lambda x: x.label
    if report.varied is not None:
        return _group_key
    return lambda x: x.row.parity


def _table_title(report: SweepReport) -> str:
    what = f"by {report.varied.name}" if report.varied is not None else "by group size"
    return f"{report.title}: P(loss) {what}"


def notes(report: SweepReport) -> list[str]:
    """Footnotes: mission and aggregate, which sizes are shown, the range, uneven rows."""
    varied = report.varied
    lines = [
        f"{'Base: m' if varied is not None else 'M'}ission "
        f"{report.mission_hours / HOURS_PER_YEAR:g} years ({report.mission_hours:,.0f} h); "
        f"{report.data_disks:,} data drives."
    ]
    if varied is not None:
        values = [x.value for x in report.lines if x.value is not None]
        spacing = "log-spaced" if report.log else "evenly spaced"
        lines.append(
            f"{varied.name} from {field_text(varied, min(values))} to "
            f"{field_text(varied, max(values))}, "
            f"{len(set(values))} values {spacing} ({varied.unit})."
        )
    if not report.include_uneven and not report.by_layout:
        lines.append(
            f"Only group sizes whose data drives divide the {report.data_disks:,} data drives "
            "evenly (NS3574 Tables 2 and 3); --all shows every size."
        )
    if any(not x.row.exact_division for x in report.lines):
        lines.append(
            "* uneven division: the groups hold more data drives than asked (Extra data drives)."
        )
    return lines


def table_notes(report: SweepReport) -> list[str]:
    """:func:`notes` plus the legend of the terminal bar."""
    low, high = decade_range([x.row.p_loss_aggregate for x in report.lines])
    return [
        *notes(report),
        f"Bar: P(loss) of the aggregate on a log scale from 1e{low} (empty) to 1e{high} (full).",
    ]


def to_markdown(report: SweepReport) -> str:
    """A GitHub-flavoured Markdown table with a heading and the notes as a list."""
    columns = sweep_columns(report)
    rows = table_cells(columns, report.lines)
    lines = [f"### {_table_title(report)}", "", *markdown_table(columns, rows), ""]
    lines += [
        f"- {markdown_cell(note.removeprefix('* '))}"
        for note in inputs_lines(report.inputs, notes(report))
    ]
    return "\n".join(lines) + "\n"


def sweep_records(report: SweepReport) -> Iterator[dict[str, Any]]:
    """One flat record of raw values per row (the JSON contract's ``rows``), lazily.

    With a varied field, ``varied`` is its scenario name (``drive.arr``) and ``value`` its
    value in the field's unit (ARR as a fraction, mission in years). Built key by key:
    ``dataclasses.asdict`` cost more than the sweep itself at 40,000 rows.
    """
    return export_records(sweep_fields(report), report.lines)


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


def json_stream(report: SweepReport) -> Iterator[str]:
    """The JSON contract in chunks: the setup, then ``rows`` one per line (streamed)."""
    return json_chunks(_document(report), "rows", sweep_records(report))


def csv_stream(report: SweepReport) -> Iterator[str]:
    """The CSV (inputs comment, header, raw values) in chunks."""
    return csv_chunks(sweep_records(report), report.inputs)


def to_json(report: SweepReport) -> str:
    """The JSON contract: scenario, mission_hours, rows (raw floats); plus the sweep's setup."""
    return "".join(json_stream(report))


def to_csv(report: SweepReport) -> str:
    """CSV with a header row and raw values (full precision floats) for spreadsheets."""
    return "".join(csv_stream(report))
