"""Every figure that more than one table shows, declared once.

A :class:`Figure` is a column without its rows: its title (one line, and a short one for
narrow screens), its unit, how the whole column is formatted, and its JSON and CSV key.
Each table binds it to its own rows with :meth:`Figure.column`, adding only what is the
table's to choose: the column's priority on a narrow screen, whether the TUI colours it by
risk, whether it shows. So "P(loss) aggregate" reads, rounds and exports alike in the
comparison, the sizing, the simulation, the methods, the sweep and the recommendation.

A table that must say something else (the sizing's aggregate is a sized one) has its own
figure here, never a header of its own in a report module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from planner.report.numbers import (
    drives_column,
    format_count,
    format_rel_error,
    integer_column,
    rate_column,
    ratio_column,
    significant_column,
    tb_column,
    texts,
)
from planner.report.percentages import risk_column
from planner.report.table import Column, ColumnFormat, finite_or_none

RowT = TypeVar("RowT")


@dataclass(frozen=True)
class Figure:
    """A figure as every table shows it (see :class:`planner.report.table.Column`).

    Attributes:
        header: one-line title.
        format: the column formatter (it sees every value of the column at once).
        short_header: title for narrow screens; may break lines.
        unit: the values' unit, when the header does not say it.
        key: the JSON and CSV key; None for a figure only shown.
        numeric: right-aligned when True.
        export: turns the raw value into the exported one (None: as it is).
    """

    header: str
    format: ColumnFormat = texts
    short_header: str = ""
    unit: str = ""
    key: str | None = None
    numeric: bool = True
    export: Callable[[Any], Any] | None = None

    def column(self, value: Callable[[RowT], Any], **table: Any) -> Column[RowT]:
        """This figure over a table's rows, read by ``value``.

        ``table``: what the table chooses (``priority``, ``risk``, ``shown``), or what it
        must change (``short_header`` where its columns are many, ``key=None`` where the
        exports carry the raw value under another field).
        """
        declared: dict[str, Any] = {
            "format": self.format,
            "numeric": self.numeric,
            "short_header": self.short_header,
            "unit": self.unit,
            "key": self.key,
            "export": self.export,
        }
        return Column(self.header, value, **{**declared, **table})


def _optional(format_one: Callable[[Any], str]) -> ColumnFormat:
    """A column formatter that leaves None blank (a value a row does not have)."""

    def column(values: Sequence[Any]) -> list[str]:
        return ["" if v is None else format_one(v) for v in values]

    return column


def optional_finite(value: float | None) -> float | None:
    """``value`` for JSON: None for None, an infinity or NaN."""
    return None if value is None else finite_or_none(value)


def _known_only(column_format: ColumnFormat) -> ColumnFormat:
    """``column_format`` over the values a row has (one notation for them), None blank."""

    def column(values: Sequence[Any]) -> list[str]:
        known = iter(column_format([v for v in values if v is not None]))
        return ["" if v is None else next(known) for v in values]

    return column


# The layout and its groups
LAYOUT = Figure("Layout", numeric=False, key="label")
DRIVES_PER_GROUP = Figure("Drives/group", short_header="Drives/\ngroup")
GROUPS = Figure("Groups", integer_column, key="groups")
"""Groups (or pools) as a count."""
GROUPS_MARKED = Figure("Groups")
"""Groups as text, ``5*`` where they hold more data drives than asked
(:func:`planner.report.numbers.groups_text`); the exports carry the count as ``groups``."""
TOTAL_DRIVES = Figure("Total drives", integer_column, "Total\ndrives", key="total_disks")
OVERHEAD_DRIVES = Figure("Overhead drives", drives_column, "Over-\nhead", key="overhead_disks")
USABLE_TB = Figure("Usable TB", tb_column, "Usable\nTB", unit="TB", key="usable_tb")
REBUILD_HOURS = Figure(
    "Rebuild hours", significant_column, "Rebuild\nh", unit="h", key="rebuild_hours"
)


def _bound_by_column(bounds: Sequence[str | None]) -> list[str]:
    return ["IOPS" if b == "iops" else "capacity" if b == "capacity" else "" for b in bounds]


BOUND_BY = Figure("Bound by", _bound_by_column, "Bound\nby", key="bound_by", numeric=False)
"""What decided a sized aggregate's drives: the workload's IOPS or its capacity."""

LATENT_DEFECTS = Figure(
    "Latent defects /drive-h",
    rate_column,
    "Latent def.\n/drive-h",
    key="latent_defects_per_hour",
)
"""Each drive's latent-defect rate in a layout's chain: the workload's reads over its (sized)
aggregate's data drives, spread over its groups' drives (docs/drives.md)."""

# What is lost, per group and per aggregate (issue 20: the figures do not sum)
P_LOSS_GROUP = Figure("P(loss) group", risk_column, "P(loss)\ngroup", key="p_loss_group")
P_LOSS_AGGREGATE = Figure(
    "P(loss) aggregate", risk_column, "P(loss)\naggregate", key="p_loss_aggregate"
)
P_LOSS_SIZED_AGGREGATE = Figure(
    "P(loss) sized aggregate", risk_column, "P(loss) of\nsized aggr.", key="p_loss_aggregate"
)
P_GROUP_LOST_GROUP = Figure(
    "P(group lost) group", risk_column, "P(group lost)\ngroup", key="p_group_lost"
)
P_GROUP_LOST_AGGREGATE = Figure(
    "P(group lost) aggregate",
    risk_column,
    "P(group lost)\naggregate",
    key="p_group_lost_aggregate",
)
P_SECTORS_LOST_GROUP = Figure(
    "P(sectors lost) group", risk_column, "P(sectors lost)\ngroup", key="p_sectors_lost"
)
P_SECTORS_LOST_AGGREGATE = Figure(
    "P(sectors lost) aggregate",
    risk_column,
    "P(sectors lost)\naggregate",
    key="p_sectors_lost_aggregate",
)
SECTOR_LOSS_EVENTS = Figure(
    "Sector-loss events aggregate",
    significant_column,
    "Sector-loss\nevents aggr.",
    key="expected_sector_loss_events",
)
SECTOR_LOSS_EVENTS_SIZED = Figure(
    "Sector-loss events sized aggregate",
    significant_column,
    "Sector-loss\nevents aggr.",
    key="expected_sector_loss_events",
)
# Availability and magnitude (docs/availability.md): the going-on chain's hours and losses
DEGRADED_HOURS = Figure(
    "Degraded h/yr per group",
    _known_only(significant_column),
    "Degraded\nh/yr",
    key="degraded_hours_per_year",
    export=optional_finite,
)
CRITICAL_HOURS = Figure(
    "Critical h/yr per group",
    _known_only(significant_column),
    "Critical\nh/yr",
    key="critical_hours_per_year",
    export=optional_finite,
)
NOMDL = Figure(
    "NOMDL B/TB",
    _known_only(significant_column),
    "NOMDL\nB/TB",
    key="nomdl_bytes_per_tb",
    export=optional_finite,
)
"""Expected bytes lost over the mission per usable TB (Greenan, Plank and Wylie 2010)."""
# Correlated failures (docs/correlated.md): the risk if the drives failed independently
P_LOSS_INDEPENDENT = Figure(
    "P(loss) if independent",
    risk_column,
    "P(loss)\nindep.",
    key="p_loss_aggregate_independent",
)
INDEPENDENCE_FACTOR = Figure(
    "× independent",
    ratio_column,
    "×\nindep.",
    key="correlation_factor",
    export=finite_or_none,
)
# Failure domains (docs/domains.md): the placement and how often a group stops serving
ENCLOSURES_PER_GROUP = Figure(
    "Enclosures per group", integer_column, "Encl./\ngroup", key="enclosures_per_group"
)
P_UNAVAILABLE_GROUP = Figure(
    "P(unavailable) group", risk_column, "P(unavail.)\ngroup", key="p_unavailable_group"
)
P_UNAVAILABLE_AGGREGATE = Figure(
    "P(unavailable) aggregate",
    risk_column,
    "P(unavail.)\naggregate",
    key="p_unavailable_aggregate",
)
# Ageing drives (docs/ageing.md): P(loss) with the failure rate of the drives' age
P_LOSS_AGEING = Figure(
    "P(loss) ageing",
    risk_column,
    "P(loss)\nageing",
    key="p_loss_aggregate_ageing",
)
AGEING_FACTOR = Figure(
    "× ageing",
    ratio_column,
    "×\nageing",
    key="ageing_factor",
    export=finite_or_none,
)
LOSSES_PER_10K_GROUPS = Figure(
    "Losses/10k groups", significant_column, "Losses/\n10k groups", key="losses_per_10k_groups"
)
RISK_VS_BASELINE = Figure(
    "Risk vs baseline (aggregate)",
    ratio_column,
    "Risk vs base\nper aggr.",
    key="relative_risk_aggregate",
    export=finite_or_none,
)
RISK_VS_BASELINE_SIZED = Figure(
    "Risk vs baseline (sized aggregate)",
    ratio_column,
    "Risk vs base\nper aggr.",
    key="relative_risk_aggregate",
    export=finite_or_none,
)

# A simulation's precision
REL_ERROR = Figure(
    "Rel. error",
    _optional(format_rel_error),
    "Rel.\nerror",
    key="rel_error",
    export=optional_finite,
)
TRIALS = Figure("Trials", _optional(format_count), key="trials")
