"""The sizing's columns and export fields, each declared once (issue 9).

:func:`sizing_fields` lists them in the JSON contract's order (the records of JSON and
CSV); :func:`sizing_columns` shows the same declarations in the table's order, for the
Rich table, Markdown and the TUI's sizing columns (:mod:`planner.report.sizing`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from planner.core.design.sizing import SizingResult
from planner.core.markov.transient import relative_risk
from planner.report.costs import cost_fields
from planner.report.numbers import (
    format_count,
    groups_text,
    integer_column,
    percent_column,
    ratio_column,
    significant_column,
    tb_column,
)
from planner.report.table import Column, export_field, finite_or_none, shown_columns

if TYPE_CHECKING:
    from planner.report.sizing import SizingReport


def hours_text(hours: float) -> str:
    """Hours to 3 significant figures, as the rebuild column and notes show them."""
    return format_count(hours, 3)


@dataclass(frozen=True)
class SizedRow:
    """One sized layout and its aggregate's risk relative to the baseline's sized aggregate.

    Attributes:
        result: the layout sized for the workload.
        relative_risk: P(loss) of its sized aggregate over the baseline's (NaN without a
            baseline).
    """

    result: SizingResult
    relative_risk: float


def sized_rows(report: SizingReport) -> list[SizedRow]:
    """The report's layouts in order, each sized aggregate's risk over the baseline's."""
    base = next((r for r in report.results if r.label == report.baseline), None)
    return [
        SizedRow(
            r,
            math.nan if base is None else relative_risk(r.p_loss_aggregate, base.p_loss_aggregate),
        )
        for r in report.results
    ]


def _hours_column(hours: Sequence[float]) -> list[str]:
    return [hours_text(h) for h in hours]


def _penalty_column(penalties: Sequence[float]) -> list[str]:
    return [f"{p:g}" for p in penalties]


def _iops_column(iops: Sequence[float]) -> list[str]:
    return [f"{x:,.0f}" for x in iops]


def _bound_by_column(bounds: Sequence[str]) -> list[str]:
    return ["IOPS" if b == "iops" else "capacity" for b in bounds]


def _groups_column(groups: Sequence[int]) -> list[str]:
    return [groups_text(g, True) for g in groups]


def _sizing_fields() -> list[Column[SizedRow]]:
    """The layout, its workload and the disks it needs: in both orders, before the costs."""
    return [
        Column("Layout", lambda s: s.result.label, numeric=False, key="label"),
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
        Column(
            "Bound by",
            lambda s: s.result.bound_by,
            _bound_by_column,
            numeric=False,
            short_header="Bound\nby",
            key="bound_by",
        ),
        Column("Groups", lambda s: s.result.groups, _groups_column, priority=4, key="groups"),
        export_field("data_disks", lambda s: s.result.data_disks),
        Column(
            "Usable TB",
            lambda s: s.result.usable_tb,
            tb_column,
            short_header="Usable\nTB",
            priority=7,
            unit="TB",
            key="usable_tb",
        ),
        export_field("iops_available", lambda s: s.result.iops_available),
    ]


def _risk_fields() -> list[Column[SizedRow]]:
    """The rebuild and the sized aggregate's P(loss) and its split: after the costs."""
    return [
        Column(
            "Rebuild hours",
            lambda s: s.result.rebuild_hours,
            _hours_column,
            short_header="Rebuild\nhours",
            priority=8,
            unit="h",
            key="rebuild_hours",
        ),
        export_field("rebuild_source", lambda s: s.result.rebuild_source),
        Column(
            "P(loss) group",
            lambda s: s.result.p_loss_group,
            percent_column,
            short_header="P(loss)\ngroup",
            priority=3,
            risk=True,
            key="p_loss_group",
        ),
        Column(
            "P(loss) sized aggregate",
            lambda s: s.result.p_loss_aggregate,
            percent_column,
            short_header="P(loss) of\nsized aggr.",
            risk=True,
            key="p_loss_aggregate",
        ),
        export_field("p_group_lost", lambda s: s.result.p_group_lost),
        export_field("p_sectors_lost", lambda s: s.result.p_sectors_lost),
        export_field(
            "expected_sector_loss_events_group",
            lambda s: s.result.expected_sector_loss_events_group,
        ),
        # What is lost (issue 20, they do not sum to P(loss)); on a narrow screen these go first
        Column(
            "P(group lost) aggregate",
            lambda s: s.result.p_group_lost_aggregate,
            percent_column,
            short_header="P(group lost)\naggregate",
            priority=9,
            key="p_group_lost_aggregate",
        ),
        Column(
            "P(sectors lost) aggregate",
            lambda s: s.result.p_sectors_lost_aggregate,
            percent_column,
            short_header="P(sectors lost)\naggregate",
            priority=8,
            key="p_sectors_lost_aggregate",
        ),
        Column(
            "Sector-loss events sized aggregate",
            lambda s: s.result.expected_sector_loss_events,
            significant_column,
            short_header="Sector-loss\nevents aggr.",
            priority=8,
            key="expected_sector_loss_events",
        ),
    ]


def _baseline_fields(report: SizingReport) -> list[Column[SizedRow]]:
    """The sized aggregate's risk against the baseline's, when there is a baseline."""
    if report.baseline is None:
        return []
    return [
        Column(
            "Risk vs baseline (sized aggregate)",
            lambda s: s.relative_risk,
            ratio_column,
            short_header="Risk vs base\nper aggr.",
            risk=True,
            key="relative_risk_aggregate",
            export=finite_or_none,
        )
    ]


def sizing_fields(report: SizingReport) -> list[Column[SizedRow]]:
    """Every column and export field of the sizing, in the JSON contract's order.

    The records of JSON and CSV (:func:`sizing_records`) are these fields' keys in this
    order: the sized layout's, its costs, then its risk against the baseline.
    """
    return [
        *_sizing_fields(),
        *_risk_fields(),
        *cost_fields(lambda s: s.result.cost, sized_rows(report)),
        *_baseline_fields(report),
    ]


def sizing_columns(report: SizingReport) -> list[Column[SizedRow]]:
    """The columns of the sizing table (CLI and the TUI's sizing columns).

    The declarations of :func:`sizing_fields` in the table's order (the costs after the
    capacity). A narrow screen drops the highest priority first: rebuild hours, usable TB,
    back-end IOPS, write penalty, groups, P(loss) of a group, the two disk counts; disks
    needed, bound by, the sized aggregate's P(loss) and its risk against the baseline stay.
    """
    return shown_columns(
        [
            *_sizing_fields(),
            *cost_fields(lambda s: s.result.cost, sized_rows(report)),
            *_risk_fields(),
            *_baseline_fields(report),
        ]
    )
