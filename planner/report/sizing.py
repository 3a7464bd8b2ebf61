"""Render a sizing (``planner size``) as a Rich table, GitHub Markdown, CSV or JSON.

One column list (:mod:`planner.report.sizing_columns`) drives every format, through
:mod:`planner.report.render`, and the TUI's sizing columns, so they always agree.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from planner.analysis.sizing_report import SizingReport, sized_rows
from planner.core.design.sizing import MailboxWorkload, PlainWorkload
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.report import render
from planner.report.availability import AVAILABILITY_NOTE
from planner.report.column_choice import screen_columns
from planner.report.comparison import rebuild_note
from planner.report.comparison_columns import LOSS_FIGURES_NOTE
from planner.report.numbers import format_count
from planner.report.sizing_columns import sizing_columns, sizing_fields

if TYPE_CHECKING:
    from rich.table import Table

    from planner.analysis.sizing_report import SizedRow

__all__ = [
    "notes",
    "rebuild_text",
    "short_notes",
    "sizing_columns",
    "sizing_fields",
    "sizing_records",
    "to_csv",
    "to_json",
    "to_markdown",
    "to_rich_table",
]


def rebuild_text(report: SizingReport) -> str:
    """The rebuild's line: what the capacity does not change, else where the time comes from."""
    return report.capacity_note or rebuild_note(report.rebuild)


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


def counting_rule(report: SizingReport, times: str = "x") -> str:
    """How the drive counts are made, the layouts that count stripe I/Os named apart."""
    labels = report.stripe_io_labels
    stripes = (
        f"; {', '.join(labels)} count stripe I/Os instead: a small read or write is one I/O "
        "across a whole stripe (write penalty 1), so a RAID-Z group serves one drive's IOPS "
        "and a dRAID pool floor((C - s) / (d + p)) drives' worth, docs/sizing.md"
        if labels
        else ""
    )
    return (
        f"Back-end IOPS = reads + writes {times} write penalty; counts round up to whole groups "
        f"(IOPS count every drive of a group, capacity only data drives{stripes}); the larger "
        "count decides (bound by)."
    )


def notes(report: SizingReport) -> list[str]:
    """Footnotes: workload, drive, rebuild, counting rules, mission."""
    drive = report.drive
    kind = f" ({report.drive_class} class)" if report.drive_class else ""
    years = report.mission_hours / HOURS_PER_YEAR
    return [
        _workload_note(report.workload, report.results[0].required_tb),
        f"Drive: {drive.capacity_tb:g} TB, {drive.iops:g} IOPS{kind}, "
        f"{drive.usable_fraction:.0%} usable. {rebuild_text(report)}",
        counting_rule(report),
        f"P(loss) over {years:g} years ({report.mission_hours:,.0f} h) of the sized aggregate"
        + (
            f"; risk vs baseline: over the sized aggregate of {report.baseline}."
            if report.baseline is not None
            else "."
        ),
        LOSS_FIGURES_NOTE,
        AVAILABILITY_NOTE,
        *([report.spares_note] if report.spares_note else []),
        *([report.cost_note] if report.cost_note else []),
        *report.label_notes,
        *report.input_notes,
    ]


def short_notes(report: SizingReport, data_disks: int) -> list[str]:
    """Short notes for the TUI's sizing columns: workload, drive, rules, which risk is shown."""
    first = report.results[0]
    drive = report.drive
    kind = f" ({report.drive_class})" if report.drive_class else ""
    years = report.mission_hours / HOURS_PER_YEAR
    return [
        *report.label_notes,  # first: its row misleads till read, and the foot may be cut
        f"Sized for {first.read_iops:,.0f} reads + {first.write_iops:,.0f} writes/s and "
        f"{format_count(first.required_tb, 3)} TB on {drive.capacity_tb:g} TB drives of "
        f"{drive.iops:g} IOPS{kind}. {rebuild_text(report)}",
        counting_rule(report, "×"),
        f"P(loss) over {years:g} years and risk vs baseline, here and in F4-F6, are those of "
        f"each layout's SIZED aggregate (disks needed) · F2 then c: a fixed aggregate of "
        f"{data_disks} data drives.",
        "P(group lost) and P(sectors lost) do not sum to P(loss) (docs/loss.md); Degraded and "
        "Critical h/yr are one group's, NOMDL the bytes lost per usable TB "
        "(docs/availability.md).",
        *([report.spares_note] if report.spares_note else []),
        *([report.cost_note] if report.cost_note else []),
        *report.input_notes,
    ]


def sizing_view(report: SizingReport) -> render.TableView[SizedRow]:
    """The sizing as every format shows it; the layout needing the fewest disks in bold."""
    workload = report.workload
    fewest = min(r.disks_needed for r in report.results)
    columns = sizing_columns(report)
    return render.TableView(
        title=report.title,
        columns=columns,
        screen_columns=screen_columns(columns),  # the TUI's order on a terminal
        rows=sized_rows(report),
        notes=notes(report),
        inputs=report.inputs,
        fields=sizing_fields(report),
        document={
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
        },
        styles=["bold" if r.disks_needed == fewest else "" for r in report.results],
    )


def to_rich_table(report: SizingReport, max_width: int | None = None) -> Table:
    """A Rich table; the layout needing the fewest disks is in bold.

    With ``max_width`` the least important columns are left out to fit the terminal.
    """
    return render.rich_table(sizing_view(report), max_width)


def to_markdown(report: SizingReport) -> str:
    """A GitHub-flavoured Markdown table with a heading and footnotes."""
    return render.markdown(sizing_view(report))


def sizing_records(report: SizingReport) -> list[dict[str, Any]]:
    """One flat record of raw values per layout (the JSON contract's ``layouts``)."""
    return render.records(sizing_view(report))


def to_json(report: SizingReport) -> str:
    """The JSON contract: scenario, mission_hours, workload, drive, layouts (raw values)."""
    return render.json(sizing_view(report))


def to_csv(report: SizingReport) -> str:
    """CSV with a header row and raw values for spreadsheets."""
    return render.csv(sizing_view(report))
