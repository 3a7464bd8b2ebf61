"""Group-size and parameter sweeps: many layouts and inputs, one batch evaluation each.

The group-size sweep answers "which group size suits 42 data disks?" the way NS3574 does
in Tables 2 and 3 and Figures 2, 3, 5 and 6: for each parity count k and group size N, the
aggregate needs ``ceil(data_disks / (N - k))`` groups, ``groups x N`` drives of which
``groups x k`` are overhead, and it loses data when any group does (R_aggregate =
R_group ** groups). By default only sizes whose data drives divide the aggregate evenly
are kept, as in the paper's tables.

A parameter sweep varies one numeric input (:class:`Parameter`) over a range
(:func:`parameter_points`), alone or crossed with group size (:func:`sweep`). Every
probability comes from :func:`planner.core.markov.batch.p_loss_group_batch`, one call per parity
count.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from planner.core.arrays.declustered import drive_count
from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.design.risks import layout_risks
from planner.core.markov.rates import HOURS_PER_YEAR, Rates, arr_to_failures_per_hour


class Parameter(StrEnum):
    """A numeric input that a sweep or a sensitivity analysis can vary, with its unit."""

    ARR = "arr"
    OP_FAILURES_PER_HOUR = "op_failures_per_hour"
    LATENT_DEFECTS_PER_HOUR = "latent_defects_per_hour"
    REBUILD_HOURS = "rebuild_hours"
    SCRUB_HOURS = "scrub_hours"
    MISSION_HOURS = "mission_hours"
    DATA_DISKS = "data_disks"

    @property
    def description(self) -> str:
        """What the input is, with its unit, for tables and help texts."""
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    Parameter.ARR: "annualized return rate (fraction of drives per year)",
    Parameter.OP_FAILURES_PER_HOUR: "operational failures per drive-hour (1/h)",
    Parameter.LATENT_DEFECTS_PER_HOUR: "latent defects per drive-hour (1/h)",
    Parameter.REBUILD_HOURS: "mean time to rebuild a failed drive (h)",
    Parameter.SCRUB_HOURS: "mean time for a scrub to find a latent defect (h)",
    Parameter.MISSION_HOURS: "mission time (h)",
    Parameter.DATA_DISKS: "data drives in the aggregate",
}


@dataclass(frozen=True)
class SweepPoint:
    """One set of model inputs; ``varied``/``value`` name the swept input, if any.

    Attributes:
        rates: per-drive rates and mean repair times (per hour, hours).
        mission_hours: mission time T (h).
        data_disks: data drives the aggregate must hold.
        varied: the :class:`Parameter` value (e.g. ``"rebuild_hours"``) set on this point.
        value: the value it was set to, in that parameter's unit.
    """

    rates: Rates
    mission_hours: float
    data_disks: int
    varied: str | None = None
    value: float | None = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mission_hours) and self.mission_hours >= 0):
            raise ValueError(f"mission_hours must be >= 0, got {self.mission_hours!r}")
        if self.data_disks < 1:
            raise ValueError(f"data_disks must be at least 1, got {self.data_disks}")

    def value_of(self, parameter: Parameter | str) -> float:
        """The current value of ``parameter`` at this point, in its unit."""
        p = Parameter(parameter)
        if p is Parameter.ARR:
            return self.rates.op_failures_per_hour * HOURS_PER_YEAR
        if p is Parameter.MISSION_HOURS:
            return self.mission_hours
        if p is Parameter.DATA_DISKS:
            return float(self.data_disks)
        return float(getattr(self.rates, p.value))

    def with_value(self, parameter: Parameter | str, value: float) -> SweepPoint:
        """A copy with ``parameter`` set to ``value`` and recorded as the varied input.

        ARR is converted with :func:`planner.core.markov.rates.arr_to_failures_per_hour`
        (ARR / 8,760 h); data disks are rounded to the nearest whole drive, halves up, and
        kept at least 1.
        Raises ValueError for values the model rejects (e.g. a negative rate).
        """
        p = Parameter(parameter)
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"{p.value} must be a finite number, got {value!r}")
        rates, mission_hours, data_disks = self.rates, self.mission_hours, self.data_disks
        if p is Parameter.ARR:
            rates = dataclasses.replace(rates, op_failures_per_hour=arr_to_failures_per_hour(value))
        elif p is Parameter.MISSION_HOURS:
            mission_hours = value
        elif p is Parameter.DATA_DISKS:
            data_disks = max(1, math.floor(value + 0.5))  # halves round up
            value = float(data_disks)
        else:
            fields: dict[str, float] = {p.value: value}
            if p.value == "rebuild_hours":
                # the time as given, no wait in it (as --set restore.rebuild_hours drops the
                # rebuild model and its replace_delay_hours)
                fields["replace_delay_hours"] = 0.0
            rates = dataclasses.replace(rates, **fields)  # type: ignore[arg-type]
        return SweepPoint(rates, mission_hours, data_disks, p.value, value)


@dataclass(frozen=True)
class SweepRow:
    """Capacity and risk of one layout at one sweep point.

    Attributes:
        parity: parity drives per group, k.
        group_size: drives per group, N.
        groups: groups in the aggregate, ceil(data_disks / (N - k)).
        total_disks: drives in the aggregate, groups x N.
        overhead_disks: parity drives in the aggregate, groups x k (a declustered pool's
            parity and spare capacity, in drives).
        exact_division: True when N - k divides ``data_disks``.
        p_loss_group: probability one group loses data within the mission.
        p_loss_aggregate: probability any group of the aggregate does, 1 - (1 - p)^groups.
        losses_per_10k_groups: expected groups out of 10,000 that lose data (NS3574 Fig. 2).
        data_disks: data drives asked for.
        data_disks_provided: data drives the groups hold, groups x (N - k) >= data_disks.
        mission_hours: mission time T (h).
        varied: name of the swept :class:`Parameter`, or None.
        value: its value on this row, or None.
        p_group_lost: P(group lost) of one group: k + 1 drives down at once, sector losses
            written off (issue 20, :mod:`planner.core.markov.loss_figures`).
        p_sectors_lost: P(sectors lost) of one group: at least one sector-loss event.
            They do not sum to ``p_loss_group``.
        p_group_lost_aggregate: P(some group of the aggregate lost whole).
        p_sectors_lost_aggregate: P(some group of the aggregate loses sectors).
        expected_sector_loss_events_group: mean sector-loss events of one group.
        expected_sector_loss_events: the aggregate's, groups x one group's.
    """

    parity: int
    group_size: int
    groups: int
    total_disks: int
    overhead_disks: float
    exact_division: bool
    p_loss_group: float
    p_loss_aggregate: float
    losses_per_10k_groups: float
    data_disks: int
    data_disks_provided: float
    mission_hours: float
    varied: str | None = None
    value: float | None = None
    p_group_lost: float = 0.0
    p_sectors_lost: float = 0.0
    p_group_lost_aggregate: float = 0.0
    p_sectors_lost_aggregate: float = 0.0
    expected_sector_loss_events_group: float = 0.0
    expected_sector_loss_events: float = 0.0
    group: str = ""
    """The group for tables, ``12 (10+2)`` or a pool's ``48 (8d+2p, 2s)`` (not exported)."""

    def as_dict(self) -> dict[str, int | float | bool | str | None]:
        """The row as JSON-ready plain values (``varied``/``value`` only when set)."""
        row = dataclasses.asdict(self)
        del row["group"]
        if self.varied is None:
            del row["varied"], row["value"]
        return row


def parameter_values(start: float, stop: float, count: int, log: bool = False) -> list[float]:
    """``count`` values from ``start`` to ``stop`` inclusive, evenly or log-evenly spaced.

    ``parameter_values(0.01, 0.05, 9)`` gives ARR 1% to 5% in steps of 0.5%.
    """
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    if not (math.isfinite(start) and math.isfinite(stop)):
        raise ValueError("start and stop must be finite")
    if count == 1:
        if start != stop:
            raise ValueError("one value needs start == stop")
        return [float(start)]
    if log:
        if start <= 0 or stop <= 0:
            raise ValueError("a log range needs positive start and stop")
        values = np.geomspace(start, stop, count)
    else:
        values = np.linspace(start, stop, count)
    values[0], values[-1] = start, stop
    return [float(v) for v in values]


def parameter_points(
    base: SweepPoint, parameter: Parameter | str, values: Iterable[float]
) -> list[SweepPoint]:
    """``base`` with ``parameter`` set to each of ``values`` in turn."""
    return [base.with_value(parameter, v) for v in values]


def even_division(parity: int, group_size: int, data_disks: int) -> bool:
    """True when the group's data drives, N - k, divide ``data_disks`` (Tables 2 and 3)."""
    return group_size > parity and data_disks % (group_size - parity) == 0


def sweep(
    points: Sequence[SweepPoint],
    layouts: Iterable[tuple[int, int] | Layout],
    include_uneven: bool = True,
) -> list[SweepRow]:
    """Evaluate every layout at every point, in one batch per parity (and rebuild streams).

    Args:
        points: the input sets (see :func:`parameter_points`).
        layouts: ``(parity, group_size)`` pairs (pairs with ``group_size <= parity`` are
            skipped) or :class:`~planner.core.arrays.layouts.Layout` values; a declustered pool
            runs at its own rebuild rate and holds its own share of data
            (:meth:`Layout.chain_rates`, :func:`~planner.core.arrays.layouts.aggregate_shape`).
        include_uneven: False keeps, at each point, only the layouts whose data drives
            divide that point's ``data_disks`` evenly.

    Returns:
        Rows ordered by point, then by layout in the order given.
    """
    chosen = [_as_layout(x) for x in layouts]
    kept = [x for x in chosen if x is not None]
    cases = [
        (point, layout, aggregate_shape(layout, point.data_disks))
        for point in points
        for layout in kept
    ]
    cases = [case for case in cases if include_uneven or case[2].exact_division]
    if not cases:
        return []
    risks = layout_risks(
        [layout for _, layout, _ in cases],
        [point.rates for point, _, _ in cases],
        [point.mission_hours for point, _, _ in cases],
        [shape.groups for _, _, shape in cases],
    )
    return [
        SweepRow(
            parity=layout.parity,
            group_size=layout.group_size,
            groups=shape.groups,
            total_disks=shape.total_disks,
            overhead_disks=shape.overhead_disks,
            exact_division=shape.exact_division,
            p_loss_group=float(pg),
            p_loss_aggregate=float(pa),
            losses_per_10k_groups=1e4 * float(pg),
            data_disks=point.data_disks,
            data_disks_provided=drive_count(shape.groups * layout.data_capacity),
            mission_hours=point.mission_hours,
            varied=point.varied,
            value=point.value,
            p_group_lost=float(pl),
            p_sectors_lost=float(ps),
            p_group_lost_aggregate=float(gla),
            p_sectors_lost_aggregate=float(sla),
            expected_sector_loss_events_group=float(eg),
            expected_sector_loss_events=float(ea),
            group=layout.group_text(),
        )
        for (point, layout, shape), pg, pa, pl, ps, gla, sla, eg, ea in zip(
            cases,
            risks.p_loss_group,
            risks.p_loss_aggregate,
            risks.p_group_lost,
            risks.p_sectors_lost,
            risks.p_group_lost_aggregate,
            risks.p_sectors_lost_aggregate,
            risks.expected_sector_loss_events_group,
            risks.expected_sector_loss_events,
            strict=True,
        )
    ]


def _as_layout(layout: tuple[int, int] | Layout) -> Layout | None:
    """A ``(k, N)`` pair as a plain layout; None for a pair with ``N <= k`` (skipped)."""
    if isinstance(layout, Layout):
        return layout
    k, n = (int(x) for x in layout)
    if not n > k >= 1:
        return None
    return Layout(f"n+{k} {n}", None, k, n)


def group_size_sweep(
    parities: Iterable[int],
    group_sizes: Iterable[int],
    data_disks: int,
    rates: Rates,
    mission_hours: float,
    include_uneven: bool = False,
) -> list[SweepRow]:
    """For each parity count and group size: groups, drives, P(loss) per group and aggregate.

    NS3574 Tables 2 and 3 are ``group_size_sweep([1], range(2, 23), 42, PAPER_RATES,
    5 * 8760)`` and the same for ``[2]`` (the paper's Table 3 lists sizes from 5; sizes 3
    and 4 divide 42 too). Sizes not above the parity count are skipped.

    Returns:
        Rows ordered by parity (as given), then group size (as given).
    """
    sizes = list(group_sizes)
    layouts = [(k, n) for k in parities for n in sizes]
    point = SweepPoint(rates, mission_hours, data_disks)
    return sweep([point], layouts, include_uneven)
