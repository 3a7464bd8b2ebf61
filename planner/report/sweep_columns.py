"""The sweep's columns and export fields, each declared once (issue 9).

:func:`sweep_fields` lists them in the JSON contract's order (the records of JSON and
CSV, streamed); :func:`sweep_columns` shows the same declarations in the table's order
(:mod:`planner.report.sweep`). The accessors of the many-row fields are ``attrgetter``s:
a sweep can have 200,000 rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from planner.report.field_values import field_column
from planner.report.numbers import (
    drives_column,
    groups_text,
    integer_column,
    percent_column,
    significant_column,
)
from planner.report.table import Column, export_field, shown_columns

if TYPE_CHECKING:
    from planner.report.sweep import SweepLine, SweepReport


def parity_text(parity: int) -> str:
    """The paper's name for a parity count: ``n+2``."""
    return f"n+{parity}"


def _drives_text(line: SweepLine) -> str:
    return line.row.group


def _groups_text(line: SweepLine) -> str:
    return groups_text(line.row.groups, line.row.exact_division)


def _parity_column(parities: Sequence[int]) -> list[str]:
    return [parity_text(p) for p in parities]


def _extra_column(extras: Sequence[float]) -> list[str]:
    return [f"+{x}" if x else "" for x in extras]


def _name_fields(report: SweepReport) -> list[Column[SweepLine]]:
    """The layout's label (the scenario's layouts) or its parity."""
    parity: Column[SweepLine] = Column(
        "Parity",
        attrgetter("row.parity"),
        _parity_column,
        numeric=False,
        key="parity",
        shown=not report.by_layout,
    )
    if not report.by_layout:
        return [parity]
    return [Column("Layout", lambda x: x.label or "", numeric=False, key="label"), parity]


def _shape_fields() -> list[Column[SweepLine]]:
    """The group size and the groups."""
    return [
        Column("Drives/group", _drives_text, short_header="Drives/\ngroup"),
        export_field("group_size", attrgetter("row.group_size")),
        Column("Groups", _groups_text, priority=1),
        export_field("groups", attrgetter("row.groups")),
    ]


def _risk_fields() -> list[Column[SweepLine]]:
    """The drives and the risk at each point (the loss split and the inputs export only)."""
    return [
        Column(
            "Total drives",
            attrgetter("row.total_disks"),
            integer_column,
            short_header="Total\ndrives",
            priority=6,
            key="total_disks",
        ),
        Column(
            "Overhead drives",
            attrgetter("row.overhead_disks"),
            drives_column,
            short_header="Over-\nhead",
            key="overhead_disks",
        ),
        export_field("exact_division", attrgetter("row.exact_division")),
        Column(
            "P(loss) group",
            attrgetter("row.p_loss_group"),
            percent_column,
            short_header="P(loss)\ngroup",
            priority=3,
            key="p_loss_group",
        ),
        Column(
            "P(loss) aggregate",
            attrgetter("row.p_loss_aggregate"),
            percent_column,
            short_header="P(loss)\naggregate",
            key="p_loss_aggregate",
        ),
        Column(
            "Losses/10k groups",
            attrgetter("row.losses_per_10k_groups"),
            significant_column,
            short_header="Losses/\n10k groups",
            priority=7,
            key="losses_per_10k_groups",
        ),
        export_field("data_disks", attrgetter("row.data_disks")),
        export_field("data_disks_provided", attrgetter("row.data_disks_provided")),
        export_field("mission_hours", attrgetter("row.mission_hours")),
        export_field("p_group_lost", attrgetter("row.p_group_lost")),
        export_field("p_sectors_lost", attrgetter("row.p_sectors_lost")),
        export_field("p_group_lost_aggregate", attrgetter("row.p_group_lost_aggregate")),
        export_field("p_sectors_lost_aggregate", attrgetter("row.p_sectors_lost_aggregate")),
        export_field(
            "expected_sector_loss_events_group",
            attrgetter("row.expected_sector_loss_events_group"),
        ),
        export_field("expected_sector_loss_events", attrgetter("row.expected_sector_loss_events")),
    ]


def _extra_fields(report: SweepReport) -> list[Column[SweepLine]]:
    """Data drives beyond those asked for: shown when some division is uneven."""
    return [
        Column(
            "Extra data drives",
            lambda x: x.extra_data_disks,
            _extra_column,
            short_header="Extra\ndata",
            priority=2,
            key="extra_data_disks",
            shown=any(not x.row.exact_division for x in report.lines),
        )
    ]


def _varied_fields(report: SweepReport) -> list[Column[SweepLine]]:
    """The varied field's name (export only) and value, when a field is varied."""
    field = report.varied
    if field is None:
        return []

    def texts(values: Sequence[float | None]) -> list[str]:
        cells = iter(field_column(field, [v for v in values if v is not None]))
        return ["" if v is None else next(cells) for v in values]

    return [
        export_field("varied", lambda _: field.name),
        Column(
            field.name,
            lambda x: x.value,
            texts,
            short_header=field.name.replace(".", ".\n"),
            key="value",
        ),
    ]


def sweep_fields(report: SweepReport) -> list[Column[SweepLine]]:
    """Every column and export field of the sweep, in the JSON contract's order.

    The records of JSON and CSV (:func:`sweep_records`) are these fields' keys in this
    order; :func:`sweep_columns` shows the same declarations in the table's.
    """
    return [
        *_name_fields(report),
        *_shape_fields(),
        *_risk_fields(),
        *_extra_fields(report),
        *_varied_fields(report),
    ]


def sweep_columns(report: SweepReport) -> list[Column[SweepLine]]:
    """The data columns of every format (the terminal adds a bar); priority 0 always shown.

    The declarations of :func:`sweep_fields` in the table's order: the varied value after
    the layout, the extra data drives after the groups.
    """
    return shown_columns(
        [
            *_name_fields(report),
            *_varied_fields(report),
            *_shape_fields(),
            *_extra_fields(report),
            *_risk_fields(),
        ]
    )
