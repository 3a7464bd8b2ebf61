"""Group-size and parameter sweeps: many layouts and inputs, one batch evaluation each.

The group-size sweep answers "which group size suits 42 data disks?" the way NS3574 does
in Tables 2 and 3 and Figures 2, 3, 5 and 6: for each parity count k and group size N, the
aggregate needs ``ceil(data_disks / (N - k))`` groups, ``groups x N`` drives of which
``groups x k`` are overhead, and it loses data when any group does (R_aggregate =
R_group ** groups). By default only sizes whose data drives divide the aggregate evenly
are kept, as in the paper's tables.

A parameter sweep varies one numeric input (:class:`Parameter`) over a range
(:func:`parameter_points`), alone or crossed with group size (:func:`sweep`). The result
is columns, one array per figure (:class:`SweepColumns`); every probability comes from
:func:`planner.core.markov.loss_figures.chain_figures`, one call per parity count (and
rebuild streams).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.arrays.hot_spares import spared_wait_hours, spares_pending
from planner.core.arrays.layouts import Layout
from planner.core.design.aged import aged_risks
from planner.core.design.risks import LayoutRisks, risks_of, stacked_figures
from planner.core.design.sweep_points import Parameter, SweepPoint
from planner.core.design.sweep_table import RISK_ARRAYS, SweepColumns, SweepRow
from planner.core.markov.ageing import Ageing
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.enclosures import Enclosures
from planner.core.markov.rates import Rates

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

__all__ = [
    "Parameter",
    "SweepColumns",
    "SweepPoint",
    "SweepRow",
    "group_size_sweep",
    "parameter_points",
    "parameter_values",
    "sweep",
]


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


def sweep(
    points: Sequence[SweepPoint],
    layouts: Iterable[tuple[int, int] | Layout],
    include_uneven: bool = True,
    ageings: Sequence[Ageing] | None = None,
) -> SweepColumns:
    """Evaluate every layout at every point, in one batch per parity (and rebuild streams).

    Args:
        points: the input sets (see :func:`parameter_points`).
        layouts: ``(parity, group_size)`` pairs (pairs with ``group_size <= parity`` are
            skipped) or :class:`~planner.core.arrays.layouts.Layout` values; a declustered pool
            runs at its own rebuild rate and holds its own share of data
            (:meth:`Layout.chain_rates`, :attr:`Layout.data_capacity`).
        include_uneven: False keeps, at each point, only the layouts whose data drives
            divide that point's ``data_disks`` evenly.
        ageings: each point's ageing drives (docs/ageing.md), for the ageing figures
            (:attr:`SweepColumns.aged`, :func:`~planner.core.design.aged.aged_risks`);
            None: none.

    Returns:
        The rows as columns, ordered by point, then by layout in the order given. The
        aggregate's shape is integer arithmetic on the arrays (exact, as
        :func:`~planner.core.arrays.layouts.aggregate_shape`, with no fraction per row);
        every probability comes from one generator stack per chain shape
        (:func:`~planner.core.design.risks.stacked_figures`).
    """
    chosen = tuple(x for x in (_as_layout(y) for y in layouts) if x is not None)
    grid = _Grid.of(tuple(points), chosen)
    rows = grid.rows(include_uneven)
    inputs, parity, streams = grid.chain_inputs(rows)
    enclosures = _row_enclosures(grid.points, rows.point)
    risks = risks_of(stacked_figures(parity, streams, inputs, enclosures), rows.groups)
    aged = None if ageings is None else aged_risks(
        parity, streams, inputs, rows.groups, ageings, rows.point, risks.p_loss_aggregate
    )  # fmt: skip
    return SweepColumns(
        layouts=chosen,
        points=grid.points,
        layout=rows.layout,
        point=rows.point,
        parity=parity,
        group_size=grid.size[rows.layout],
        groups=rows.groups,
        total_disks=rows.groups * grid.size[rows.layout],
        overhead_disks=rows.overhead,
        exact_division=rows.exact,
        data_disks=grid.data_disks[rows.point],
        data_disks_provided=rows.provided,
        mission_hours=grid.mission_hours[rows.point],
        value=grid.value[rows.point],
        **_risk_columns(risks),
        nomdl_bytes_per_tb=np.full(len(rows.layout), np.nan),  # needs the capacity: .nomdl()
        enclosures_per_group=_enclosures_per_group(enclosures, grid.size[rows.layout]),
        p_unavailable_group=risks.p_unavailable_group,
        p_unavailable_aggregate=risks.p_unavailable_aggregate,
        aged=aged,
    )


def _row_enclosures(
    points: Sequence[SweepPoint], point: IntArray
) -> list[Enclosures | None] | None:
    """Each row's enclosures, from its point's; None when no point has any.

    The points are a few; the rows are many: no lookup per row when none has enclosures.
    """
    per_point = [p.rates.enclosures for p in points]
    if all(e is None for e in per_point):
        return None
    return [per_point[p] for p in point.tolist()]


def _risk_columns(risks: LayoutRisks) -> dict[str, FloatArray]:
    """The risk figures of :class:`SweepColumns`, by field name, from the batch's."""
    return {name: getattr(risks, name) for name in RISK_ARRAYS}


def _enclosures_per_group(
    enclosures: Sequence[Enclosures | None] | None, sizes: IntArray
) -> IntArray | None:
    """How many enclosures each row's group spans (0 without; None: no row has any)."""
    if enclosures is None:
        return None
    return np.array(
        [
            0 if e is None else e.placement(int(n)).enclosures
            for e, n in zip(enclosures, sizes.tolist(), strict=True)
        ],
        dtype=np.int64,
    )


@dataclass(frozen=True)
class _Rows:
    """The rows of a grid that are kept: indices and the aggregate's shape, as arrays."""

    layout: IntArray
    point: IntArray
    groups: IntArray
    exact: BoolArray
    overhead: FloatArray
    provided: FloatArray


@dataclass(frozen=True)
class _Grid:
    """Points and layouts as arrays: one value per point, one per layout."""

    points: tuple[SweepPoint, ...]
    layouts: tuple[Layout, ...]
    parity: IntArray
    size: IntArray
    capacity: IntArray
    """Numerator of each layout's data capacity in drives (N - k for a traditional one)."""
    denominator: IntArray
    """Its denominator (1 but for a declustered pool)."""
    data_disks: IntArray
    mission_hours: FloatArray
    value: FloatArray

    @classmethod
    def of(cls, points: tuple[SweepPoint, ...], layouts: tuple[Layout, ...]) -> _Grid:
        capacities = [layout.data_capacity for layout in layouts]  # one Fraction a layout
        return cls(
            points=points,
            layouts=layouts,
            parity=np.array([x.parity for x in layouts], dtype=np.int64),
            size=np.array([x.group_size for x in layouts], dtype=np.int64),
            capacity=np.array([c.numerator for c in capacities], dtype=np.int64),
            denominator=np.array([c.denominator for c in capacities], dtype=np.int64),
            data_disks=np.array([p.data_disks for p in points], dtype=np.int64),
            mission_hours=np.array([p.mission_hours for p in points], dtype=np.float64),
            value=np.array(
                [math.nan if p.value is None else p.value for p in points], dtype=np.float64
            ),
        )

    def rows(self, include_uneven: bool) -> _Rows:
        """Every (point, layout) pair, point by point; uneven divisions dropped unless kept.

        Groups are ``ceil(data_disks / capacity)`` in integers: with capacity ``a / b``
        drives, ``ceil(D b / a)``; the division is exact when ``groups a == D b``.
        """
        count = len(self.layouts)
        point = np.repeat(np.arange(len(self.points), dtype=np.int64), count)
        layout = np.tile(np.arange(count, dtype=np.int64), len(self.points))
        wanted = self.data_disks[point] * self.denominator[layout]
        capacity = self.capacity[layout]
        groups = -(-wanted // capacity)
        exact = groups * capacity == wanted
        if not include_uneven:
            point, layout, groups, exact = point[exact], layout[exact], groups[exact], exact[exact]
            capacity = self.capacity[layout]
        denominator = self.denominator[layout]
        # groups x (N - capacity) and groups x capacity, each one rounding of an exact ratio
        overhead = groups * (self.size[layout] * denominator - capacity) / denominator
        return _Rows(layout, point, groups, exact, overhead, groups * capacity / denominator)

    def chain_inputs(self, rows: _Rows) -> tuple[ChainInputs, IntArray, IntArray]:
        """The chain inputs of each row, its parity and rebuild streams (0: all at once).

        A traditional layout runs on its point's rates, its wait for a replacement shortened
        by its aggregate's hot spares (:meth:`_take_in_spares`) and a data drive's defect
        rate spread over its drives (:meth:`_spread_reads`); a declustered pool on its own
        (:meth:`Layout.chain_rates`, one call per pool and point: pools are few).
        """
        rates = [p.rates for p in self.points]
        per_point = np.array([_chain_values(r) for r in rates], dtype=np.float64).reshape(-1, 9)
        values = per_point[rows.point]
        for index, layout in enumerate(self.layouts):
            if layout.declustered is None:
                continue
            pick = np.flatnonzero(rows.layout == index)
            own = [
                layout.chain_rates(rates[int(p)], int(g))  # g: the reads' data drives
                for p, g in zip(rows.point[pick], rows.groups[pick], strict=True)
            ]
            values[pick] = [_chain_values(r) for r in own]
        self._take_in_spares(values, rows)
        self._spread_reads(values, rows)
        inputs = ChainInputs.of(
            self.size[rows.layout],
            values[:, 0],
            values[:, 1],
            values[:, 2],
            values[:, 3],
            self.mission_hours[rows.point],
            defect_stripe_share=values[:, 4],
            degraded_multiplier=values[:, 6],
            shocks_per_hour=values[:, 7],
            shock_drive_probability=values[:, 8],
        )
        return inputs, self.parity[rows.layout], values[:, 5].astype(np.int64)

    def _take_in_spares(self, values: FloatArray, rows: _Rows) -> None:
        """Each traditional row's rebuild (``values[:, 2]``) with its aggregate's hot spares.

        The rule of :func:`~planner.core.arrays.hot_spares.with_hot_spares`, on every row of
        a point at once: the row's aggregate, ``groups x N`` drives, shares the spares.
        """
        traditional = np.array([x.declustered is None for x in self.layouts], dtype=bool)
        for index, point in enumerate(self.points):
            rates = point.rates
            if not spares_pending(rates):
                continue
            pick = np.flatnonzero((rows.point == index) & traditional[rows.layout])
            drives = rows.groups[pick] * self.size[rows.layout[pick]]
            delay = rates.replace_delay_hours
            wait = spared_wait_hours(delay, rates.op_failures_per_hour, drives, rates.hot_spares)
            values[pick, 2] = rates.rebuild_hours - delay + wait

    def _spread_reads(self, values: FloatArray, rows: _Rows) -> None:
        """Each traditional row's latent-defect rate (``values[:, 1]``) over its group's drives.

        The rule of ``reads_spread`` for the rows of every
        point whose rate is a data drive's (a workload's reads): the reads over the data
        drives the row's groups hold, times the layout's
        :attr:`~planner.core.arrays.layouts.Layout.data_share`, as ``chain_rates`` takes it.
        """
        spread = np.array([p.rates.defects_per_data_drive for p in self.points], dtype=bool)
        if not spread.any():
            return
        reads = [p.rates.workload_reads for p in self.points]
        every = np.array([math.nan if r is None else r.defects_per_hour for r in reads])
        most = np.array([math.inf if r is None else r.most_per_drive_hour for r in reads])
        share = np.array([x.data_share for x in self.layouts], dtype=np.float64)
        all_read = np.array([x.every_drive_reads for x in self.layouts], dtype=bool)
        traditional = np.array([x.declustered is None for x in self.layouts], dtype=bool)
        pick = np.flatnonzero(spread[rows.point] & traditional[rows.layout])
        point, layout = rows.point[pick], rows.layout[pick]
        per_data = every[point] / rows.provided[pick]
        # the cap on each drive that reads: every drive's share, or each data drive's
        shared = np.minimum(per_data * share[layout], most[point])
        alone = np.minimum(per_data, most[point]) * share[layout]
        own = np.where(all_read[layout], shared, alone)
        values[pick, 1] = np.where(np.isnan(own), values[pick, 1] * share[layout], own)


def _chain_values(r: Rates) -> tuple[float, ...]:
    """One point's chain inputs as a row: the four rates, sigma, streams, the correlation."""
    return (
        r.op_failures_per_hour,
        r.latent_defects_per_hour,
        r.rebuild_hours,
        r.scrub_hours,
        r.defect_stripe_share,
        _streams_code(r.rebuild_streams),
        r.degraded_multiplier,
        r.shocks_per_hour,
        r.shock_drive_probability,
    )


def _streams_code(streams: int | None) -> int:
    """Rebuild streams as an int: 0 for None (every failed drive at once)."""
    return 0 if streams is None else streams


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
) -> SweepColumns:
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
