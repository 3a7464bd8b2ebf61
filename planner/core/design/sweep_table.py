"""A sweep's result as columns: one array per figure, and a row as plain values.

:class:`SweepColumns` is what :func:`planner.core.design.sweep.sweep` returns (every
layout at every point, one array per figure, no object per row); :class:`SweepRow` is one
row of it as plain Python values, for the few rows a caller shows or checks one by one.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from planner.core.arrays.availability import nomdl_bytes_per_tb
from planner.core.arrays.layouts import Layout
from planner.core.design.aged import AgedRisks

if TYPE_CHECKING:
    from planner.core.design.sweep_points import SweepPoint

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

__all__ = ["SweepColumns", "SweepRow"]


@dataclass(frozen=True)
class SweepRow:
    """Capacity and risk of one layout at one sweep point, as plain values.

    A view of one row of :class:`SweepColumns` (:meth:`SweepColumns.rows`), for the few
    rows a caller shows or checks one by one; the sweep itself computes columns.

    Attributes:
        parity: parity drives per group, k.
        group_size: drives per group, N.
        groups: groups in the aggregate, ceil(data_disks / (N - k)).
        total_disks: drives in the aggregate, groups x N.
        overhead_disks: parity drives in the aggregate, groups x k (a declustered pool's
            parity and spare capacity, in drives; an int when whole).
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
        expected_group_losses_group: mean whole-group losses of one group (a lost group
            restored and going on, :mod:`planner.core.markov.going_on`).
        expected_group_losses: the aggregate's, groups x one group's.
        degraded_hours_per_year: expected hours a year one group has a drive down (h/yr).
        critical_hours_per_year: expected hours a year one group has k drives down (h/yr).
        nomdl_bytes_per_tb: expected bytes lost over the mission per usable TB (B/TB;
            :mod:`planner.core.arrays.availability`), None when the capacity is unknown.
        group: the group for tables, ``12 (10+2)`` or a pool's ``48 (8d+2p, 2s)``.
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
    expected_group_losses_group: float = 0.0
    expected_group_losses: float = 0.0
    degraded_hours_per_year: float = 0.0
    critical_hours_per_year: float = 0.0
    nomdl_bytes_per_tb: float | None = None
    group: str = ""


RISK_ARRAYS = (
    "p_loss_group",
    "p_loss_aggregate",
    "p_group_lost",
    "p_sectors_lost",
    "p_group_lost_aggregate",
    "p_sectors_lost_aggregate",
    "expected_sector_loss_events_group",
    "expected_sector_loss_events",
    "expected_group_losses_group",
    "expected_group_losses",
    "degraded_hours_per_year",
    "critical_hours_per_year",
)
"""The fields of :class:`SweepColumns` the batch's risks fill, named as
:class:`~planner.core.design.risks.LayoutRisks` names them."""

_ROW_ARRAYS = (
    "layout",
    "point",
    "parity",
    "group_size",
    "groups",
    "total_disks",
    "overhead_disks",
    "exact_division",
    "data_disks",
    "data_disks_provided",
    "mission_hours",
    "value",
    *RISK_ARRAYS,
    "nomdl_bytes_per_tb",
)
"""The fields of :class:`SweepColumns` that hold one value per row."""

_OPTIONAL_ARRAYS = ("enclosures_per_group", "p_unavailable_group", "p_unavailable_aggregate")
"""The fields that hold one value per row when the sweep has them (enclosures), else None."""


@dataclass(frozen=True)
class SweepColumns:
    """Capacity and risk of every layout at every point: one array per figure.

    Row r is the layout ``layouts[layout[r]]`` at the point ``points[point[r]]``.
    :func:`sweep` orders the rows by point, then by layout in the order given; callers
    reorder them with :meth:`take`. The figures are those of :class:`SweepRow`
    (units there); ``overhead_disks`` and ``data_disks_provided`` are whole numbers for a
    traditional layout, a declustered pool's fractions of drives otherwise; ``value`` is
    the varied parameter's value in its unit (NaN when nothing is varied).
    """

    layouts: tuple[Layout, ...]
    points: tuple[SweepPoint, ...]
    layout: IntArray
    point: IntArray
    parity: IntArray
    group_size: IntArray
    groups: IntArray
    total_disks: IntArray
    overhead_disks: FloatArray
    exact_division: BoolArray
    data_disks: IntArray
    data_disks_provided: FloatArray
    mission_hours: FloatArray
    value: FloatArray
    p_loss_group: FloatArray
    p_loss_aggregate: FloatArray
    p_group_lost: FloatArray
    p_sectors_lost: FloatArray
    p_group_lost_aggregate: FloatArray
    p_sectors_lost_aggregate: FloatArray
    expected_sector_loss_events_group: FloatArray
    expected_sector_loss_events: FloatArray
    expected_group_losses_group: FloatArray
    expected_group_losses: FloatArray
    degraded_hours_per_year: FloatArray
    critical_hours_per_year: FloatArray
    nomdl_bytes_per_tb: FloatArray
    enclosures_per_group: IntArray | None = None
    p_unavailable_group: FloatArray | None = None
    p_unavailable_aggregate: FloatArray | None = None
    """With enclosures (docs/domains.md): the enclosures one group spans, and P(the group,
    or some group of the aggregate, stops serving at least once); None without."""
    aged: AgedRisks | None = None
    """P(loss) with ageing drives and its bracket, when the sweep was given ageings."""

    def __len__(self) -> int:
        return int(self.layout.shape[0])

    def __iter__(self) -> Iterator[SweepRow]:
        return iter(self.rows())

    def __getitem__(self, index: int) -> SweepRow:
        """Row ``index`` as a :class:`SweepRow` (negative indices count from the end)."""
        count = len(self)
        if not -count <= index < count:
            raise IndexError(f"row {index} of a sweep of {count}")
        return self.take(np.array([index % count])).rows()[0]

    @property
    def varied(self) -> str | None:
        """The varied :class:`Parameter`'s value (``"rebuild_hours"``), or None."""
        return self.points[0].varied if self.points else None

    @property
    def losses_per_10k_groups(self) -> FloatArray:
        """Expected groups out of 10,000 that lose data in the mission (NS3574 Fig. 2)."""
        result: FloatArray = 1e4 * self.p_loss_group
        return result

    def nomdl(self, usable_tb_per_drive: float | None, stripe_unit_bytes: float) -> FloatArray:
        """Each row's NOMDL (B/TB) from its expected losses (NaN without a capacity).

        ``usable_tb_per_drive``: TB of data a data drive holds; ``stripe_unit_bytes``: a
        stripe's bytes on each drive (:func:`~planner.core.arrays.availability.
        nomdl_bytes_per_tb`, with each layout's share lost and stripe).
        """
        if usable_tb_per_drive is None or usable_tb_per_drive <= 0:
            return np.full(len(self), math.nan)
        per_layout = np.array(
            [
                (x.fraction_lost_on_overlap, float(x.data_capacity), x.stripe_data_drives)
                for x in self.layouts
            ],
            dtype=np.float64,
        ).reshape(-1, 3)[self.layout]
        # a ZFS vdev's loss takes the pool: every group's data (groups_lost_per_loss)
        pool = np.array([x.pool_lost_with_group for x in self.layouts], dtype=bool)[self.layout]
        return nomdl_bytes_per_tb(
            self.expected_group_losses_group,
            self.expected_sector_loss_events_group,
            share_lost_on_overlap=np.where(pool, self.groups, per_layout[:, 0]),
            group_usable_tb=per_layout[:, 1] * usable_tb_per_drive,
            sector_loss_bytes=per_layout[:, 2] * stripe_unit_bytes,
        )

    def take(self, index: npt.NDArray[np.intp] | npt.NDArray[np.bool_]) -> SweepColumns:
        """The rows ``index`` selects (indices, in their order, or a mask)."""
        picked: dict[str, Any] = {name: getattr(self, name)[index] for name in _ROW_ARRAYS}
        for name in _OPTIONAL_ARRAYS:
            values = getattr(self, name)
            picked[name] = None if values is None else values[index]
        picked["aged"] = None if self.aged is None else self.aged.take(index)
        return dataclasses.replace(self, **picked)

    def rows(self) -> list[SweepRow]:
        """Every row as a :class:`SweepRow` (plain Python values): for a few rows only."""
        texts = [layout.group_text() for layout in self.layouts]
        varied = self.varied
        columns = {name: getattr(self, name).tolist() for name in _ROW_ARRAYS}
        return [
            SweepRow(
                parity=columns["parity"][r],
                group_size=columns["group_size"][r],
                groups=columns["groups"][r],
                total_disks=columns["total_disks"][r],
                overhead_disks=_drives(columns["overhead_disks"][r]),
                exact_division=columns["exact_division"][r],
                p_loss_group=columns["p_loss_group"][r],
                p_loss_aggregate=columns["p_loss_aggregate"][r],
                losses_per_10k_groups=1e4 * columns["p_loss_group"][r],
                data_disks=columns["data_disks"][r],
                data_disks_provided=_drives(columns["data_disks_provided"][r]),
                mission_hours=columns["mission_hours"][r],
                varied=varied,
                value=None if varied is None else columns["value"][r],
                p_group_lost=columns["p_group_lost"][r],
                p_sectors_lost=columns["p_sectors_lost"][r],
                p_group_lost_aggregate=columns["p_group_lost_aggregate"][r],
                p_sectors_lost_aggregate=columns["p_sectors_lost_aggregate"][r],
                expected_sector_loss_events_group=columns["expected_sector_loss_events_group"][r],
                expected_sector_loss_events=columns["expected_sector_loss_events"][r],
                expected_group_losses_group=columns["expected_group_losses_group"][r],
                expected_group_losses=columns["expected_group_losses"][r],
                degraded_hours_per_year=columns["degraded_hours_per_year"][r],
                critical_hours_per_year=columns["critical_hours_per_year"][r],
                nomdl_bytes_per_tb=_known(columns["nomdl_bytes_per_tb"][r]),
                group=texts[columns["layout"][r]],
            )
            for r in range(len(self))
        ]


def _known(value: float) -> float | None:
    """None for NaN (a figure the sweep could not give), else the value."""
    return None if math.isnan(value) else value


def _drives(count: float) -> float:
    """Drives as tables show them: a whole number as an int (the value is exact there)."""
    return int(count) if float(count).is_integer() else count
