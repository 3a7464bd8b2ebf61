"""The sizing's columns and export fields, each declared once (issue 9).

The figures every table shares come from :mod:`planner.report.figures`.

:func:`sizing_fields` lists them in the JSON contract's order (the records of JSON and
CSV); :func:`sizing_columns` shows the same declarations in the table's order, for the
Rich table, Markdown and the TUI's sizing columns (:mod:`planner.report.sizing`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from planner.analysis.sizing_report import SizedRow, sized_rows
from planner.report import figures
from planner.report.ageing import ageing_columns
from planner.report.availability import availability_columns
from planner.report.correlation import correlation_columns
from planner.report.costs import cost_fields
from planner.report.enclosures import enclosure_columns
from planner.report.numbers import hours_text, integer_column
from planner.report.table import Column, export_field, shown_columns

if TYPE_CHECKING:
    from planner.analysis.sizing_report import SizingReport


def _hours_column(hours: Sequence[float]) -> list[str]:
    return [hours_text(h) for h in hours]


def _penalty_column(penalties: Sequence[float]) -> list[str]:
    return [f"{p:g}" for p in penalties]


def _iops_column(iops: Sequence[float]) -> list[str]:
    return [f"{x:,.0f}" for x in iops]


def _sizing_fields() -> list[Column[SizedRow]]:
    """The layout, its workload and the disks it needs: in both orders, before the costs."""
    return [*_workload_fields(), *_disk_fields()]


def _workload_fields() -> list[Column[SizedRow]]:
    """The layout and the I/O its aggregate does for the workload."""
    return [
        figures.LAYOUT.column(lambda s: s.result.label),
        export_field("raid", lambda s: s.result.raid),
        export_field("parity", lambda s: s.result.parity),
        export_field("group_size", lambda s: s.result.group_size),
        export_field("data_disks_per_group", lambda s: s.result.data_disks_per_group),
        Column(
            "Write penalty",
            lambda s: s.result.write_penalty,
            _penalty_column,
            short_header="Write\npen.",
            priority=5,
            key="write_penalty",
        ),
        export_field("read_iops", lambda s: s.result.read_iops),
        export_field("write_iops", lambda s: s.result.write_iops),
        Column(
            "Back-end IOPS",
            lambda s: s.result.backend_iops,
            _iops_column,
            short_header="Back-end\nIOPS",
            priority=6,
            key="backend_iops",
        ),
        export_field("required_tb", lambda s: s.result.required_tb),
    ]


def _disk_fields() -> list[Column[SizedRow]]:
    """The disks the capacity and the IOPS need, which decides, and what they hold."""
    return [
        Column(
            "Disks for capacity",
            lambda s: s.result.disks_for_capacity,
            integer_column,
            short_header="Disks for\ncapacity",
            priority=2,
            key="disks_for_capacity",
        ),
        Column(
            "Disks for IOPS",
            lambda s: s.result.disks_for_iops,
            integer_column,
            short_header="Disks\nfor IOPS",
            priority=1,
            key="disks_for_iops",
        ),
        Column(
            "Disks needed",
            lambda s: s.result.disks_needed,
            integer_column,
            short_header="Disks\nneeded",
            key="disks_needed",
        ),
        figures.BOUND_BY.column(lambda s: s.result.bound_by),
        figures.GROUPS.column(lambda s: s.result.groups, priority=4),
        export_field("data_disks", lambda s: s.result.data_disks),
        figures.USABLE_TB.column(lambda s: s.result.usable_tb, priority=7),
        export_field("iops_available", lambda s: s.result.iops_available),
    ]


def _risk_fields(report: SizingReport) -> list[Column[SizedRow]]:
    """The rebuild and the sized aggregate's P(loss) and its split: after the costs.

    Each aggregate's own latent-defect rate shows where the workload's reads make it (each
    takes its data drives' share); the exports carry it always.
    """
    own_defects = report.inputs is not None and report.inputs.latent_defects_from_workload
    return [
        # the rebuild model's hours to 3 figures, as the rebuild note gives them
        figures.REBUILD_HOURS.column(
            lambda s: s.result.rebuild_hours,
            format=_hours_column,
            short_header="Rebuild\nhours",
            priority=8,
        ),
        export_field("rebuild_source", lambda s: s.result.rebuild_source),
        figures.LATENT_DEFECTS.column(
            lambda s: s.result.latent_defects_per_hour, priority=9, shown=own_defects
        ),
        figures.P_LOSS_GROUP.column(lambda s: s.result.p_loss_group, priority=3, risk=True),
        figures.P_LOSS_SIZED_AGGREGATE.column(lambda s: s.result.p_loss_aggregate, risk=True),
        export_field("p_group_lost", lambda s: s.result.p_group_lost),
        export_field("p_sectors_lost", lambda s: s.result.p_sectors_lost),
        export_field(
            "expected_sector_loss_events_group",
            lambda s: s.result.expected_sector_loss_events_group,
        ),
        # What is lost (issue 20, they do not sum to P(loss)); on a narrow screen these go first
        figures.P_GROUP_LOST_AGGREGATE.column(
            lambda s: s.result.p_group_lost_aggregate, priority=9
        ),
        figures.P_SECTORS_LOST_AGGREGATE.column(
            lambda s: s.result.p_sectors_lost_aggregate, priority=8
        ),
        figures.SECTOR_LOSS_EVENTS_SIZED.column(
            lambda s: s.result.expected_sector_loss_events, priority=8
        ),
    ]


def _baseline_fields(report: SizingReport) -> list[Column[SizedRow]]:
    """The sized aggregate's risk against the baseline's, when there is a baseline."""
    if report.baseline is None:
        return []
    return [figures.RISK_VS_BASELINE_SIZED.column(lambda s: s.relative_risk, risk=True)]


def sizing_fields(report: SizingReport) -> list[Column[SizedRow]]:
    """Every column and export field of the sizing, in the JSON contract's order.

    The records of JSON and CSV (:func:`sizing_records`) are these fields' keys in this
    order: the sized layout's, its costs, then its risk against the baseline.
    """
    return [
        *_sizing_fields(),
        *_risk_fields(report),
        *_availability(report),
        *cost_fields(lambda s: s.result.cost, sized_rows(report)),
        *_baseline_fields(report),
        *correlation_columns(sized_rows(report), lambda s: s.result.independent),
        *enclosure_columns(sized_rows(report), lambda s: s.result.enclosures),
        *ageing_columns(sized_rows(report), lambda s: s.result.aged),
    ]


def _availability(report: SizingReport) -> list[Column[SizedRow]]:
    """Hours degraded and critical, group losses and NOMDL of the sized aggregates."""
    return availability_columns(sized_rows(report), lambda s: s.result.availability, 10)


def sizing_columns(report: SizingReport) -> list[Column[SizedRow]]:
    """The columns of the sizing table (CLI and the TUI's sizing columns).

    The declarations of :func:`sizing_fields` in the table's order (the costs after the
    capacity). On a screen both front ends take them in a buyer's order (disks needed,
    bound by, usable TB, the cost, the sized aggregate's P(loss) first) and a narrow one
    keeps the leading columns that fit (:mod:`planner.report.column_choice`).
    """
    return shown_columns(
        [
            *_sizing_fields(),
            *cost_fields(lambda s: s.result.cost, sized_rows(report)),
            *_risk_fields(report),
            *enclosure_columns(sized_rows(report), lambda s: s.result.enclosures),
            *correlation_columns(sized_rows(report), lambda s: s.result.independent),
            *ageing_columns(sized_rows(report), lambda s: s.result.aged),
            *_baseline_fields(report),
            *_availability(report),
        ]
    )
