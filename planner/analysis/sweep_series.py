"""The TUI's sweep view (F3): P(loss) of the aggregate against group size, per parity.

A few dozen rows, as plain values, for n+1, n+2 and n+3 under the scenario's current rates,
from the same batch evaluation as ``planner sweep`` and with the scenario's hot spares and
unreadable-sector rule applied as there (:func:`planner.analysis.sweep.scenario_columns`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from planner.analysis.sweep import scenario_columns
from planner.core.design.sweep import SweepRow, group_size_sweep
from planner.scenario import Scenario


@dataclass(frozen=True)
class SweepSeries:
    """P(loss) of the aggregate against group size for one parity count (TUI sweep view).

    Attributes:
        parity: parity drives per group, k.
        points: one row per group size, in increasing size (a few dozen: plain values).
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
    table = group_size_sweep(
        parities,
        range(2, SWEEP_MAX_GROUP_SIZE + 1),
        data_disks,
        scenario.rates(),
        scenario.mission_hours,
        include_uneven=True,
    )
    rows = scenario_columns(scenario, table).rows()
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
