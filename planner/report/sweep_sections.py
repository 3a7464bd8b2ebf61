"""The sweep's columns of the optional figures: availability, ageing and enclosures.

Each list is empty when the report has no such figures, so a plain sweep's contract is
unchanged (docs/availability.md, docs/ageing.md, docs/domains.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from planner.report.ageing import bracket_column
from planner.report.figures import (
    AGEING_FACTOR,
    CRITICAL_HOURS,
    DEGRADED_HOURS,
    ENCLOSURES_PER_GROUP,
    NOMDL,
    P_LOSS_AGEING,
    P_UNAVAILABLE_AGGREGATE,
    P_UNAVAILABLE_GROUP,
)
from planner.report.sweep_field import SweepField, figure_field, float_field

if TYPE_CHECKING:
    from planner.analysis.sweep import SweepReport


def availability_fields(report: SweepReport) -> list[SweepField]:
    """Hours degraded and critical, group losses, NOMDL (docs/availability.md).

    The NOMDL only when the scenario gives the drives' capacity: the exports keep their keys
    otherwise, as for the correlation's columns. With enclosures the going-on figures are not
    computed: NaN, written n/a in the tables and null in JSON.
    """
    hours = [
        figure_field(
            DEGRADED_HOURS, "float", lambda r: r.table.degraded_hours_per_year, priority=8
        ),
        figure_field(
            CRITICAL_HOURS, "float", lambda r: r.table.critical_hours_per_year, priority=9
        ),
    ]
    losses = [float_field("expected_group_losses_group"), float_field("expected_group_losses")]
    table = report.table
    computed = np.isfinite(table.expected_group_losses_group)  # not with enclosures: n/a
    if computed.any() and np.isnan(table.nomdl_bytes_per_tb[computed]).all():
        return [*hours, *losses]  # no capacity: no NOMDL anywhere
    nomdl = figure_field(NOMDL, "float", lambda r: r.table.nomdl_bytes_per_tb, priority=8)
    return [*hours, *losses, nomdl]


def ageing_fields(report: SweepReport) -> list[SweepField]:
    """P(loss) with ageing drives, its bracket and over the constant rate (docs/ageing.md).

    With the per-group figures, the pieces and whether the bracket reached its tolerance as
    export fields; none of them without an ageing section.
    """
    if report.table.aged is None:
        return []

    def aged(name: str) -> Callable[[SweepReport], npt.NDArray[Any]]:
        def read(r: SweepReport) -> npt.NDArray[Any]:
            assert r.table.aged is not None
            values: npt.NDArray[Any] = getattr(r.table.aged, name)
            return values

        return read

    def brackets(r: SweepReport) -> list[tuple[float, float]]:
        low = aged("p_loss_aggregate_low")(r).tolist()
        return list(zip(low, aged("p_loss_aggregate_high")(r).tolist(), strict=True))

    return [
        figure_field(P_LOSS_AGEING, "float", aged("p_loss_aggregate"), priority=4),
        SweepField(
            None,
            "text",
            aged("p_loss_aggregate"),
            "Ageing bracket",
            bracket_column,
            cells=brackets,
            short_header="Ageing\nbracket",
            priority=8,
        ),
        figure_field(AGEING_FACTOR, "float", aged("factor"), priority=5),
        SweepField("p_loss_aggregate_ageing_low", "float", aged("p_loss_aggregate_low")),
        SweepField("p_loss_aggregate_ageing_high", "float", aged("p_loss_aggregate_high")),
        SweepField("p_loss_group_ageing", "float", aged("p_loss_group")),
        SweepField("p_loss_group_ageing_low", "float", aged("p_loss_group_low")),
        SweepField("p_loss_group_ageing_high", "float", aged("p_loss_group_high")),
        SweepField("ageing_pieces", "int", aged("pieces")),
        SweepField("ageing_converged", "bool", aged("converged")),
    ]


def _present(values: npt.NDArray[Any] | None) -> npt.NDArray[Any]:
    """A column the report has (its fields are declared only then)."""
    assert values is not None
    return values


def enclosure_fields(report: SweepReport) -> list[SweepField]:
    """Enclosures per group and P(unavailable), when the sweep has enclosures (docs/domains.md)."""
    table = report.table
    if table.enclosures_per_group is None:
        return []
    return [
        figure_field(
            ENCLOSURES_PER_GROUP,
            "int",
            lambda r: _present(r.table.enclosures_per_group),
            priority=4,
        ),
        figure_field(
            P_UNAVAILABLE_GROUP,
            "float",
            lambda r: _present(r.table.p_unavailable_group),
            priority=5,
        ),
        figure_field(
            P_UNAVAILABLE_AGGREGATE,
            "float",
            lambda r: _present(r.table.p_unavailable_aggregate),
            priority=2,
        ),
    ]
