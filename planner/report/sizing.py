"""Render a sizing (``planner size``) as a Rich table, GitHub Markdown, CSV or JSON.

One :class:`~planner.report.table.Column` list drives every format and the TUI's sizing
columns, so they always agree.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planner.core.design.sizing import MailboxWorkload, PlainWorkload, SizingResult
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.report.comparison_columns import LOSS_FIGURES_NOTE
from planner.report.inputs import Inputs, inputs_lines, with_inputs
from planner.report.numbers import format_count
from planner.report.sizing_columns import (
    SizedRow,
    hours_text,
    sized_rows,
    sizing_columns,
    sizing_fields,
)
from planner.report.table import (
    Column,
    csv_text,
    export_records,
    fit_columns,
    json_text,
    markdown_document,
    rich_table_for,
    table_cells,
)

if TYPE_CHECKING:
    from rich.table import Table

    from planner.core.arrays.rebuild import Drive

__all__ = [
    "SizedRow",
    "SizingReport",
    "notes",
    "rebuild_note",
    "short_notes",
    "sized_rows",
    "sizing_columns",
    "sizing_fields",
    "sizing_records",
    "to_csv",
    "to_json",
    "to_markdown",
    "to_rich_table",
]


@dataclass(frozen=True)
class SizingReport:
    """Everything a sizing report shows.

    Attributes:
        title: the scenario's name.
        results: one sized layout per row, in the scenario's order.
        workload: what was sized for.
        drive: the drive every layout is built from.
        drive_class: the drive's class name (``10k``), or None when IOPS were given.
        rebuild: one line saying where the mean restore time comes from (:func:`rebuild_note`).
        baseline: label of the layout relative risks are measured against, if any.
        inputs: the scenario's assumptions, printed by every export (None: not known).
        cost_note: how the cost columns are made, or "" when the drives are not priced.
    """

    title: str
    results: tuple[SizingResult, ...]
    workload: MailboxWorkload | PlainWorkload
    drive: Drive
    drive_class: str | None
    rebuild: str
    baseline: str | None = None
    inputs: Inputs | None = None
    cost_note: str = ""

    @property
    def mission_hours(self) -> float:
        """Mission of the loss probabilities, hours (the same for every row)."""
        return self.results[0].mission_hours


def rebuild_note(
    *,
    hours: float,
    capacity_tb: float | None = None,
    rebuild_mb_per_s: float | None = None,
    load_factor: float = 1.0,
    load: str | None = None,
    delay_hours: float = 0.0,
    rate_field: str = "restore.rebuild_mb_per_s",
) -> str:
    """Where the mean restore time comes from, in one line.

    ``Rebuild 3.09 h: 0.3 TB at 27 MB/s, load busy (x3.96), + 24 h to replace the drive.``
    """
    if rebuild_mb_per_s is None or capacity_tb is None:
        return f"Rebuild {hours_text(hours)} h (restore.rebuild_hours, as given)."
    parts = [f"{capacity_tb:g} TB at {rebuild_mb_per_s:g} MB/s"]
    if load is not None:
        parts.append(f"load {load} (x{load_factor:.3g})")
    elif load_factor != 1.0:
        parts.append(f"load factor {load_factor:g}")
    if delay_hours > 0:
        parts.append(f"+ {delay_hours:g} h to replace the drive")
    return f"Rebuild {hours_text(hours)} h: {', '.join(parts)} ({rate_field})."


def _workload_note(workload: MailboxWorkload | PlainWorkload, required_tb: float) -> str:
    reads, writes = workload.read_iops, workload.write_iops
    flow = f"{reads:,.0f} reads + {writes:,.0f} writes/s; {format_count(required_tb, 3)} TB"
    if isinstance(workload, MailboxWorkload):
        return (
            f"Workload: {workload.users:,} mailboxes of {workload.mailbox_mb:,g} MB x "
            f"{workload.iops_per_user:g} IOPS + {workload.iops_headroom_fraction:.0%} headroom "
            f"= {workload.database_iops:,.0f} database IOPS ({workload.read_fraction:.0%} "
            f"reads) + {workload.log_iops:,.0f} log writes/s: {flow}."
        )
    return f"Workload: {workload.iops:,.0f} IOPS ({workload.read_fraction:.0%} reads): {flow}."


def notes(report: SizingReport) -> list[str]:
    """Footnotes: workload, drive, rebuild, counting rules, mission."""
    drive = report.drive
    kind = f" ({report.drive_class} class)" if report.drive_class else ""
    years = report.mission_hours / HOURS_PER_YEAR
    return [
        _workload_note(report.workload, report.results[0].required_tb),
        f"Drive: {drive.capacity_tb:g} TB, {drive.iops:g} IOPS{kind}, "
        f"{drive.usable_fraction:.0%} usable. {report.rebuild}",
        "Back-end IOPS = reads + writes x write penalty; counts round up to whole groups "
        "(IOPS count every drive, capacity only data drives); the larger decides.",
        f"P(loss) over {years:g} years ({report.mission_hours:,.0f} h) of the sized aggregate"
        + (
            f"; risk vs baseline: over the sized aggregate of {report.baseline}."
            if report.baseline is not None
            else "."
        ),
        LOSS_FIGURES_NOTE,
        *([report.cost_note] if report.cost_note else []),
    ]


def short_notes(report: SizingReport, data_disks: int) -> list[str]:
    """Short notes for the TUI's sizing columns: workload, drive, rules, which risk is shown."""
    first = report.results[0]
    drive = report.drive
    kind = f" ({report.drive_class})" if report.drive_class else ""
    years = report.mission_hours / HOURS_PER_YEAR
    return [
        f"Sized for {first.read_iops:,.0f} reads + {first.write_iops:,.0f} writes/s and "
        f"{format_count(first.required_tb, 3)} TB on {drive.capacity_tb:g} TB drives of "
        f"{drive.iops:g} IOPS{kind}. {report.rebuild}",
        "Back-end IOPS = reads + writes × write penalty; disks round up to whole groups; "
        "the larger count decides (bound by).",
        f"P(loss) over {years:g} years and risk vs baseline are those of each layout's SIZED "
        f"aggregate (disks needed) · c: a fixed aggregate of {data_disks} data drives.",
        "P(group lost) and P(sectors lost) do not sum to P(loss) (docs/loss.md).",
        *([report.cost_note] if report.cost_note else []),
    ]


def _rows(report: SizingReport) -> tuple[list[Column[SizedRow]], list[list[str]]]:
    columns = sizing_columns(report)
    return columns, table_cells(columns, sized_rows(report))


def to_rich_table(report: SizingReport, max_width: int | None = None) -> Table:
    """A Rich table; the layout needing the fewest disks is in bold.

    With ``max_width`` the least important columns are left out to fit the terminal.
    """
    columns, rows = _rows(report)
    keep = fit_columns(columns, rows, max_width)
    table = rich_table_for(report.title, columns, keep)
    fewest = min(r.disks_needed for r in report.results)
    for result, cells in zip(report.results, rows, strict=True):
        table.add_row(
            *(cells[i] for i in keep), style="bold" if result.disks_needed == fewest else ""
        )
    return table


def to_markdown(report: SizingReport) -> str:
    """A GitHub-flavoured Markdown table with a heading and footnotes."""
    columns, rows = _rows(report)
    return markdown_document(
        report.title, columns, rows, inputs_lines(report.inputs, notes(report))
    )


def sizing_records(report: SizingReport) -> list[dict[str, Any]]:
    """One flat record of raw values per layout (the JSON contract's ``layouts``)."""
    return list(export_records(sizing_fields(report), sized_rows(report)))


def to_json(report: SizingReport) -> str:
    """The JSON contract: scenario, mission_hours, workload, drive, layouts (raw values)."""
    workload = report.workload
    document = {
        "scenario": report.title,
        "mission_hours": report.mission_hours,
        "workload": {
            "kind": "mailbox" if isinstance(workload, MailboxWorkload) else "plain",
            "read_iops": workload.read_iops,
            "write_iops": workload.write_iops,
            "host_iops": workload.host_iops,
            "required_tb": workload.required_tb,
        },
        "drive": {"class": report.drive_class, **dataclasses.asdict(report.drive)},
        "rebuild_hours": report.results[0].rebuild_hours,
        "layouts": sizing_records(report),
    }
    return json_text(with_inputs(document, report.inputs))


def to_csv(report: SizingReport) -> str:
    """CSV with a header row and raw values for spreadsheets."""
    return csv_text(sizing_records(report), report.inputs)
