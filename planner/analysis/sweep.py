"""Group-size and parameter sweeps of a scenario (``planner sweep`` and the TUI's F3 view).

Every probability comes from one batch evaluation (:func:`planner.core.design.sweep.sweep`); this
module chooses the points and layouts and orders the rows by layout, then varied value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from planner.analysis.inputs import scenario_inputs
from planner.analysis.spares import rows_with_spares
from planner.analysis.varied_fields import ScenarioField
from planner.core.arrays.layouts import Layout
from planner.core.design.sweep import (
    SweepPoint,
    SweepRow,
    group_size_sweep,
    parameter_points,
    parameter_values,
    sweep,
)
from planner.report.sweep import SweepLine, SweepReport
from planner.scenario import Scenario


@dataclass(frozen=True)
class VaryRange:
    """The values one scenario field takes in a sweep (``--vary``), in the field's unit.

    Attributes:
        field: the scenario field varied.
        values: its values, in order (whole numbers deduplicated for integer fields).
        log: the values are spaced evenly on a log scale.
    """

    field: ScenarioField
    values: tuple[float, ...]
    log: bool = False

    def core_values(self) -> list[float]:
        """The values in the core's unit (hours for ``mission_years``)."""
        return [self.field.to_core(v) for v in self.values]


def vary_range(
    field: ScenarioField, start: float, stop: float, count: int, log: bool = False
) -> VaryRange:
    """``count`` values of ``field`` from ``start`` to ``stop``, evenly or log-evenly spaced.

    Values keep 12 significant digits (4.5%, not linspace's 0.045000000000000005); an
    integer field's values are rounded to whole numbers and repeats dropped.
    """
    values = [float(f"{v:.12g}") for v in parameter_values(start, stop, count, log)]
    if field.integer:
        values = list(dict.fromkeys(float(math.floor(v + 0.5)) for v in values))
    return VaryRange(field, tuple(values), log)


def sweep_cases(
    scenario: Scenario,
    parities: Sequence[int],
    sizes: Sequence[int],
    varied: VaryRange | None,
    by_layout: bool,
) -> int:
    """How many layout-and-value cases a sweep evaluates (before dropping uneven sizes)."""
    layouts = len(scenario.layouts) if by_layout else len(parities) * len(sizes)
    return layouts * (1 if varied is None else len(varied.values))


def sweep_report(
    scenario: Scenario,
    parities: Sequence[int],
    sizes: Sequence[int],
    include_uneven: bool,
    varied: VaryRange | None,
    by_layout: bool,
    overrides: Sequence[str] = (),
) -> SweepReport:
    """The sweep the options describe; rows grouped by layout, then by varied value.

    Args:
        scenario: the validated scenario (its rates, mission and data drives are the base).
        parities: parity counts of the group-size sweep (ignored with ``by_layout``).
        sizes: group sizes of the group-size sweep (ignored with ``by_layout``).
        include_uneven: keep group sizes whose data drives do not divide the aggregate.
        varied: the field varied and its values, or None.
        by_layout: sweep the scenario's own layouts (labelled) instead of a size range.
        overrides: the ``--set`` texts applied, for the exports.

    Raises:
        ValueError: a varied value the model rejects.
    """
    base = SweepPoint(scenario.rates(), scenario.mission_hours, scenario.aggregate.data_disks)
    points = (
        [base]
        if varied is None
        else parameter_points(base, varied.field.parameter, varied.core_values())
    )
    labels: list[str | None]
    if by_layout:
        layouts: list[tuple[int, int] | Layout] = list(scenario.core_layouts())
        labels = [x.label for x in scenario.core_layouts()]
        include_uneven = True
    else:
        layouts = [(k, n) for k in parities for n in sizes]
        labels = [None] * len(layouts)
    rows = rows_with_spares(sweep(points, layouts, include_uneven), scenario.aggregate.hot_spares)
    if scenario.restore.on_unreadable_sector == "fail-rebuild":
        # an unreadable sector fails the rebuild: every loss ends the group (P(loss) same)
        rows = [
            replace(
                row,
                p_group_lost=row.p_loss_group,
                p_sectors_lost=0.0,
                p_group_lost_aggregate=row.p_loss_aggregate,
                p_sectors_lost_aggregate=0.0,
                expected_sector_loss_events_group=0.0,
                expected_sector_loss_events=0.0,
            )
            for row in rows
        ]
    if by_layout:
        # Every layout is evaluated at every point (uneven ones included), point by point
        # in layout order; layouts may share (k, N), so the index, not (k, N), says which.
        order = [p * len(layouts) + i for i in range(len(layouts)) for p in range(len(points))]
        owner = [i for i in range(len(layouts)) for _ in points]
    else:
        # Labels are all None here; group by (k, N) in the order asked, values in order.
        position = {layout: i for i, layout in enumerate(layouts)}
        order = sorted(range(len(rows)), key=lambda r: position[rows[r].parity, rows[r].group_size])
        owner = [0] * len(order)
    lines = tuple(
        SweepLine(rows[r], labels[i], _field_value(varied, rows[r]))
        for r, i in zip(order, owner, strict=True)
    )
    return SweepReport(
        title=scenario.name,
        mission_hours=scenario.mission_hours,
        data_disks=scenario.aggregate.data_disks,
        lines=lines,
        varied=None if varied is None else varied.field,
        include_uneven=include_uneven,
        by_layout=by_layout,
        log=varied is not None and varied.log,
        inputs=scenario_inputs(scenario, overrides),
    )


def _field_value(varied: VaryRange | None, row: SweepRow) -> float | None:
    if varied is None or row.value is None:
        return None
    return varied.field.from_core(row.value)


@dataclass(frozen=True)
class SweepSeries:
    """P(loss) of the aggregate against group size for one parity count (TUI sweep view).

    Attributes:
        parity: parity drives per group, k.
        points: the core's rows, one per group size, in increasing size.
    """

    parity: int
    points: tuple[SweepRow, ...] = field(default=())


SWEEP_PARITIES = (1, 2, 3)
"""n+1, n+2 and n+3, as the paper's Figures 2, 3, 5 and 6."""

SWEEP_MAX_GROUP_SIZE = 28
"""Largest group size the TUI sweeps (the paper's figures stop near 28 drives)."""


def group_size_series(
    scenario: Scenario, parities: Sequence[int] = SWEEP_PARITIES
) -> tuple[SweepSeries, ...]:
    """P(loss) of the aggregate for each group size from k + 1 up, for each parity k.

    Groups per aggregate and overhead follow the compare view's rule (ceil, last group
    full); ``exact_division`` marks group sizes whose data drives divide the aggregate.
    """
    data_disks = scenario.aggregate.data_disks
    rows = group_size_sweep(
        parities,
        range(2, SWEEP_MAX_GROUP_SIZE + 1),
        data_disks,
        scenario.rates(),
        scenario.mission_hours,
        include_uneven=True,
    )
    rows = rows_with_spares(rows, scenario.aggregate.hot_spares)
    return tuple(
        SweepSeries(
            parity=k,
            points=tuple(
                row
                for row in rows
                if row.parity == k and row.group_size <= max(k + 1, data_disks + k)
            ),
        )
        for k in parities
    )
