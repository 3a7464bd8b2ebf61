"""The sweep's columns and export fields, each declared once (issue 9).

A :class:`SweepField` reads a whole column of a :class:`~planner.analysis.sweep.SweepReport`
(whose rows are columns already) and says how the exports write it and how a table shows
it. :func:`sweep_fields` lists them in the JSON contract's order (the columns of JSON and
CSV, :func:`export_columns`); :func:`sweep_columns` shows the same declarations in the
table's order, as :class:`~planner.report.table.Column` objects over row indices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from planner.analysis.varied_fields import SPARES_FIELDS
from planner.report.field_values import field_column
from planner.report.numbers import drives_column, groups_text, integer_column, significant_column
from planner.report.percentages import risk_column
from planner.report.sweep_export import ExportColumn
from planner.report.sweep_field import SweepField, float_field
from planner.report.sweep_sections import ageing_fields, availability_fields, enclosure_fields
from planner.report.table import Column

if TYPE_CHECKING:
    from planner.analysis.sweep import SweepReport
    from planner.analysis.varied_fields import ScenarioField


def parity_text(parity: int) -> str:
    """The paper's name for a parity count: ``n+2``."""
    return f"n+{parity}"


def _drives(values: npt.NDArray[np.float64]) -> list[float]:
    """Drive counts as the tables take them: ints when whole."""
    return [int(v) if v.is_integer() else v for v in values.tolist()]


def _whole_provided(report: SweepReport) -> npt.NDArray[np.bool_]:
    provided = report.table.data_disks_provided
    whole: npt.NDArray[np.bool_] = provided == np.round(provided)
    return whole


def extra_data_disks(report: SweepReport) -> npt.NDArray[np.float64]:
    """Data drives the groups hold beyond those asked for (0 for an even division).

    A pool's fraction of a drive to one decimal (Python's correctly rounded ``round``).
    """
    table = report.table
    extra = table.data_disks_provided - table.data_disks
    whole = _whole_provided(report)
    for index in np.flatnonzero(~whole).tolist():
        extra[index] = round(float(extra[index]), 1)
    return extra


def _extra_cells(report: SweepReport) -> list[float]:
    whole = _whole_provided(report).tolist()
    return [
        int(x) if w else x for x, w in zip(extra_data_disks(report).tolist(), whole, strict=True)
    ]


def _parity_column(parities: Sequence[int]) -> list[str]:
    return [parity_text(p) for p in parities]


def _extra_column(extras: Sequence[float]) -> list[str]:
    return [f"+{x}" if x else "" for x in extras]


def _group_texts(report: SweepReport) -> list[str]:
    texts = [layout.group_text() for layout in report.table.layouts]
    return [texts[i] for i in report.table.layout.tolist()]


def _groups_cells(report: SweepReport) -> list[str]:
    table = report.table
    return [
        groups_text(g, e)
        for g, e in zip(table.groups.tolist(), table.exact_division.tolist(), strict=True)
    ]


def _name_fields(report: SweepReport) -> list[SweepField]:
    """The layout's label (the scenario's layouts) or its parity."""
    parity = SweepField(
        "parity",
        "int",
        lambda r: r.table.parity,
        "Parity",
        _parity_column,
        numeric=False,
        shown=not report.by_layout,
    )
    if not report.by_layout:
        return [parity]
    label = SweepField(
        "label",
        "text",
        lambda r: r.table.layout,
        "Layout",
        numeric=False,
        distinct_texts=lambda r: tuple(x or "" for x in r.labels),
    )
    return [label, parity]


def _shape_fields() -> list[SweepField]:
    """The group size and the groups."""
    return [
        SweepField(
            None,
            "text",
            lambda r: r.table.group_size,
            "Drives/group",
            cells=_group_texts,
            short_header="Drives/\ngroup",
        ),
        SweepField("group_size", "int", lambda r: r.table.group_size),
        SweepField(
            None, "text", lambda r: r.table.groups, "Groups", cells=_groups_cells, priority=1
        ),
        SweepField("groups", "int", lambda r: r.table.groups),
    ]


def _drive_fields(report: SweepReport) -> list[SweepField]:
    """The drives each point costs: in all, and beyond the data drives.

    A sweep of the hot spares asks how many drives to buy: its narrow table keeps the
    total drives and lets the overhead go first, where others keep the paper's overhead.
    """
    spares = report.varied in SPARES_FIELDS
    return [
        SweepField(
            "total_disks",
            "int",
            lambda r: r.table.total_disks,
            "Total drives",
            integer_column,
            short_header="Total\ndrives",
            priority=0 if spares else 6,
        ),
        SweepField(
            "overhead_disks",
            "drives",
            lambda r: r.table.overhead_disks,
            "Overhead drives",
            drives_column,
            cells=lambda r: _drives(r.table.overhead_disks),
            short_header="Over-\nhead",
            priority=6 if spares else 0,
        ),
    ]


def _risk_fields() -> list[SweepField]:
    """The risk at each point (the loss split and the inputs export only)."""
    return [
        SweepField("exact_division", "bool", lambda r: r.table.exact_division),
        SweepField(
            "p_loss_group",
            "float",
            lambda r: r.table.p_loss_group,
            "P(loss) group",
            risk_column,
            short_header="P(loss)\ngroup",
            priority=3,
        ),
        SweepField(
            "p_loss_aggregate",
            "float",
            lambda r: r.table.p_loss_aggregate,
            "P(loss) aggregate",
            risk_column,
            short_header="P(loss)\naggregate",
        ),
        SweepField(
            "losses_per_10k_groups",
            "float",
            lambda r: r.table.losses_per_10k_groups,
            "Losses/10k groups",
            significant_column,
            short_header="Losses/\n10k groups",
            priority=7,
        ),
        SweepField("data_disks", "int", lambda r: r.table.data_disks),
        SweepField("data_disks_provided", "drives", lambda r: r.table.data_disks_provided),
        float_field("mission_hours"),
        float_field("p_group_lost"),
        float_field("p_sectors_lost"),
        float_field("p_group_lost_aggregate"),
        float_field("p_sectors_lost_aggregate"),
        float_field("expected_sector_loss_events_group"),
        float_field("expected_sector_loss_events"),
    ]


def _extra_fields(report: SweepReport) -> list[SweepField]:
    """Data drives beyond those asked for: shown when some division is uneven."""
    return [
        SweepField(
            "extra_data_disks",
            "drives",
            extra_data_disks,
            "Extra data drives",
            _extra_column,
            cells=_extra_cells,
            short_header="Extra\ndata",
            priority=2,
            shown=not bool(report.table.exact_division.all()),
            whole=_whole_provided,
        )
    ]


def _varied_fields(report: SweepReport) -> list[SweepField]:
    """The varied field's name (export only) and value, when a field is varied."""
    varied = report.varied
    values = report.values
    if varied is None or values is None:
        return []
    return [
        SweepField(
            "varied",
            "text",
            lambda r: np.zeros(len(r), dtype=np.intp),
            distinct_texts=lambda _: (varied.name,),
        ),
        SweepField(
            "value",
            "float",
            lambda _: values,
            varied.name,
            lambda column: _field_texts(varied, column),
            short_header=varied.name.replace(".", ".\n"),
        ),
    ]


def sweep_fields(report: SweepReport) -> list[SweepField]:
    """Every column and export field of the sweep, in the JSON contract's order.

    The columns of JSON and CSV (:func:`export_columns`) are these fields' keys in this
    order; :func:`sweep_columns` shows the same declarations in the table's.
    """
    return [
        *_name_fields(report),
        *_shape_fields(),
        *_drive_fields(report),
        *_risk_fields(),
        *availability_fields(report),
        *_extra_fields(report),
        *_varied_fields(report),
        *enclosure_fields(report),
        *ageing_fields(report),
    ]


def export_columns(report: SweepReport) -> list[ExportColumn]:
    """The JSON contract's columns of ``report``, in order (fields without a key skipped)."""
    fields = [f for f in sweep_fields(report) if f.key is not None]
    keys = [f.key for f in fields]
    repeated = sorted({key for key in keys if key is not None and keys.count(key) > 1})
    if repeated:
        raise ValueError(f"export keys declared twice: {', '.join(repeated)}")
    return [f.export(report) for f in fields]


def sweep_columns(report: SweepReport) -> list[Column[int]]:
    """The data columns of every format (the terminal adds a bar); priority 0 always shown.

    The declarations of :func:`sweep_fields` in the table's order: the varied value after
    the layout, the extra data drives after the groups. Rows are row indices.
    """
    fields = [
        *_name_fields(report),
        *_varied_fields(report),
        *_shape_fields(),
        *_extra_fields(report),
        *_drive_fields(report),
        *_risk_fields(),
        *availability_fields(report),
        *enclosure_fields(report),
        *ageing_fields(report),
    ]
    return [f.column(report) for f in fields if f.header and f.shown]


def _field_texts(varied: ScenarioField, values: Sequence[float | None]) -> list[str]:
    """``varied``'s values in one notation, ``""`` where a row has none."""
    cells = iter(field_column(varied, [v for v in values if v is not None]))
    return ["" if v is None else next(cells) for v in values]
