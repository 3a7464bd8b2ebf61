"""Capacity and performance sizing: how many drives each layout needs, and its risk.

For every layout the engine computes the drives needed for capacity and the drives needed
for IOPS, rounds each up to whole RAID groups, keeps the larger and reports which one
decided (``bound_by``), then evaluates the probability of data loss of the aggregate it
sized (:func:`planner.core.markov.transient.p_loss_group` and
:func:`~planner.core.markov.transient.p_loss_aggregate`).

Counting rules (the NS3574 Table 9 comparison and the Exchange sizing guides use the same):

* **IOPS.** Back-end IOPS = reads + writes x write penalty (NS3574, "Write performance").
  Every drive of a group serves back-end I/O, parity and mirror drives included, because
  the penalty already charges the parity (or mirror) writes: a group of N drives serves
  N x ``drive.iops``. A declustered pool counts stripe I/Os instead: a small read or write
  is one I/O across the ``d + p`` drives of its stripe (penalty 1), and the pool serves
  ``floor((C - s) / (d + p))`` x ``drive.iops`` of them (OpenZFS dRAID documentation;
  :func:`planner.core.arrays.declustered.iops_drives`).
* **Capacity.** Only the n = N - k data drives of a group hold data: a group gives
  n x ``drive.usable_tb``.

The workloads live in :mod:`planner.core.arrays.workloads`; the drive side (IOPS per drive class,
usable TB, rebuild time) lives in
:mod:`planner.core.arrays.rebuild`; :class:`Drive` and the drive classes are re-exported here.

Units: TB = 10**12 bytes, MB = 10**6 bytes, KB = 10**3 bytes; IOPS are I/Os per second;
hours for times.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from planner.core.arrays.availability import (
    DEFAULT_STRIPE_UNIT_BYTES,
    Availability,
    layout_availability,
    with_loss_figures,
)
from planner.core.arrays.cost import LayoutCost
from planner.core.arrays.declustered import drive_count
from planner.core.arrays.defects import WorkloadReadDefects
from planner.core.arrays.layouts import (
    Independent,
    Layout,
    aggregate_shape,
    placement_of_group,
)
from planner.core.arrays.rebuild import (
    DRIVE_CLASSES,
    Drive,
    DriveClass,
    RebuildSource,
    find_drive_class,
    restore_hours,
)
from planner.core.arrays.workloads import MailboxWorkload, PlainWorkload, Workload
from planner.core.design.penalties import WRITE_PENALTIES, default_write_penalty
from planner.core.markov.aggregate import p_loss_aggregate
from planner.core.markov.domain_figures import group_loss_figures
from planner.core.markov.enclosures import EnclosureRisk
from planner.core.markov.piecewise import AgedLoss
from planner.core.markov.rates import Rates

BoundBy = Literal["capacity", "iops"]

_CEIL_TOLERANCE = 1e-9
"""Relative slack before rounding up: 1,000 IOPS x (1 - 0.7 reads) is 300.00000000000006
writes in binary floating point, and one spurious extra drive would be a wrong answer."""


def backend_iops(read_iops: float, write_iops: float, write_penalty: float) -> float:
    """Disk I/Os per second the array performs: reads + writes x penalty (NS3574)."""
    return read_iops + write_iops * write_penalty


def ceil_count(value: float) -> int:
    """Round a non-negative count up, ignoring floating-point noise below 1e-9 relative."""
    return math.ceil(value * (1.0 - _CEIL_TOLERANCE))


def disks_for_iops(
    backend: float, iops_per_drive: float, group_size: int, iops_drives: int | None = None
) -> int:
    """Drives needed to serve ``backend`` IOPS, rounded up to whole groups of ``group_size``.

    Every drive of a group counts, parity or mirror drives included (see module docstring),
    unless ``iops_drives`` says how many drives' worth of IOPS a group serves (a
    declustered pool: ``floor((C - s) / (d + p))`` stripe I/Os' worth).
    """
    per_group = group_size if iops_drives is None else iops_drives
    groups = ceil_count(ceil_count(backend / iops_per_drive) / per_group)
    return groups * group_size


def disks_for_capacity(required_tb: float, usable_tb_per_drive: float, layout: Layout) -> int:
    """Drives needed to hold ``required_tb``, rounded up to whole groups of the layout.

    Only the data drives of a group count: ceil(ceil(TB / usable TB per drive) / n) groups.
    """
    data_drives = ceil_count(required_tb / usable_tb_per_drive)
    return aggregate_shape(layout, data_drives).total_disks


@dataclass(frozen=True)
class SizingResult:
    """One layout sized for a workload on a drive, with the risk of the sized aggregate.

    Attributes:
        label: the layout's label.
        raid: preset name, or None for a plain ``parity: k`` layout.
        parity: parity (or extra mirror) drives per group, k.
        group_size: drives per group, N.
        data_disks_per_group: N - k; a declustered pool's data capacity in drives.
        write_penalty: disk I/Os per host write used.
        read_iops: host reads per second.
        write_iops: host writes per second.
        backend_iops: reads + writes x penalty, disk I/Os per second (stripe I/Os for a
            declustered pool).
        required_tb: capacity the workload needs, TB.
        disks_for_capacity: drives for capacity, whole groups.
        disks_for_iops: drives for IOPS, whole groups.
        disks_needed: the larger of the two.
        bound_by: ``"iops"`` when IOPS need strictly more drives, else ``"capacity"``.
        groups: disks_needed / group_size.
        data_disks: groups x (N - k) (drives' worth of data for declustered pools).
        usable_tb: groups x (N - k) x usable TB per drive.
        iops_available: groups x N x IOPS per drive, the back-end IOPS the aggregate serves
            (a declustered pool: groups x floor((C - s) / (d + p)) x IOPS per drive).
        rebuild_hours: mean restore time fed to the reliability model, hours (a declustered
            pool's, the drive's restore time divided by the pool's speed-up).
        rebuild_source: ``"drive"`` when derived from the drive's rebuild rate, ``"rates"``
            when taken from ``rates.rebuild_hours``.
        mission_hours: the mission the probabilities are over, hours.
        p_loss_group: probability that one group loses data within the mission.
        p_loss_aggregate: probability that any of the ``groups`` groups does.
        p_group_lost, p_sectors_lost: what is lost (issue 20,
            :mod:`planner.core.markov.loss_figures`): k + 1 drives down at once, or at least one
            sector-loss event. They do not sum to ``p_loss_group``.
        p_group_lost_aggregate, p_sectors_lost_aggregate: the same for the aggregate,
            each ``1 - (1 - p)^groups``.
        expected_sector_loss_events_group, expected_sector_loss_events: mean sector-loss
            events of one group and of the aggregate (groups x one group's).
        cost: the sized aggregate's cost (:mod:`planner.core.arrays.cost`), or None unpriced.
        independent: P(loss) of the aggregate if its drives failed independently, and
            P(loss) over it, when the rates are correlated (None otherwise).
        enclosures: the groups' enclosures and P(unavailable), with an enclosures
            section (docs/domains.md); None otherwise.
        aged: P(loss) of the sized aggregate with ageing drives and its bracket
            (docs/ageing.md), when the scenario has an ageing section.
        availability: hours degraded and critical, group losses and NOMDL
            (:mod:`planner.core.arrays.availability`).
        latent_defects_per_hour: the latent-defect rate the risk was taken at: the
            workload's reads over this aggregate's data drives when they make it
            (``read_defects``), else the scenario's (None: not recorded).
    """

    label: str
    raid: str | None
    parity: int
    group_size: int
    data_disks_per_group: float
    write_penalty: float
    read_iops: float
    write_iops: float
    backend_iops: float
    required_tb: float
    disks_for_capacity: int
    disks_for_iops: int
    disks_needed: int
    bound_by: BoundBy
    groups: int
    data_disks: float
    usable_tb: float
    iops_available: float
    rebuild_hours: float
    rebuild_source: RebuildSource
    mission_hours: float
    p_loss_group: float
    p_loss_aggregate: float
    p_group_lost: float = 0.0
    p_sectors_lost: float = 0.0
    p_group_lost_aggregate: float = 0.0
    p_sectors_lost_aggregate: float = 0.0
    expected_sector_loss_events_group: float = 0.0
    expected_sector_loss_events: float = 0.0
    cost: LayoutCost | None = None
    independent: Independent | None = None
    enclosures: EnclosureRisk | None = None
    aged: AgedLoss | None = None
    availability: Availability | None = None
    latent_defects_per_hour: float | None = None


@dataclass(frozen=True)
class SizedCounts:
    """How many drives a layout needs for a workload, before any risk is evaluated.

    Attributes are those of :class:`SizingResult` with the same names.
    """

    backend_iops: float
    disks_for_capacity: int
    disks_for_iops: int
    disks_needed: int
    bound_by: BoundBy
    groups: int
    data_disks: float
    usable_tb: float
    iops_available: float


def sized_counts(
    layout: Layout, workload: Workload, drive: Drive, write_penalty: float
) -> SizedCounts:
    """Drives for capacity and for IOPS in whole groups, the larger kept (at least a group).

    The counting half of :func:`size_layout`, cheap enough for thousands of candidates
    (``planner recommend``).
    """
    backend = backend_iops(workload.read_iops, workload.write_iops, write_penalty)
    for_capacity = disks_for_capacity(workload.required_tb, drive.usable_tb, layout)
    for_iops = disks_for_iops(backend, drive.iops, layout.group_size, layout.iops_drives_per_group)
    # At least one group, even for a workload too small to fill one.
    needed = max(for_capacity, for_iops, layout.group_size)
    groups = needed // layout.group_size
    return SizedCounts(
        backend_iops=backend,
        disks_for_capacity=for_capacity,
        disks_for_iops=for_iops,
        disks_needed=needed,
        bound_by="iops" if for_iops > for_capacity else "capacity",
        groups=groups,
        data_disks=drive_count(groups * layout.data_capacity),
        usable_tb=float(groups * layout.data_capacity) * drive.usable_tb,
        iops_available=groups * layout.iops_drives_per_group * drive.iops,
    )


def size_layout(
    layout: Layout,
    workload: Workload,
    drive: Drive,
    *,
    rates: Rates,
    mission_hours: float,
    write_penalty: float | None = None,
    load_factor: float = 1.0,
    delay_hours: float = 0.0,
    sectors_fail_rebuild: bool = False,
    stripe_unit_bytes: float = DEFAULT_STRIPE_UNIT_BYTES,
    read_defects: WorkloadReadDefects | None = None,
) -> SizingResult:
    """Size one layout for ``workload`` on ``drive`` and evaluate the sized aggregate.

    Args:
        layout: groups of ``group_size`` drives with ``parity`` redundancy.
        workload: host reads and writes per second and required TB.
        drive: per-drive capacity, IOPS and (optionally) rebuild rate.
        rates: failure, latent defect, rebuild and scrub rates; when the drive has a
            rebuild rate its derived restore time replaces ``rates.rebuild_hours``.
        mission_hours: mission time of the loss probabilities, hours.
        write_penalty: disk I/Os per host write; None for :func:`default_write_penalty`.
        load_factor: rebuild slow-down under load (see
        :data:`planner.core.arrays.rebuild.LOAD_FACTORS`).
        delay_hours: hours before the rebuild starts (no hot spare).
        sectors_fail_rebuild: count a loss with a latent defect among its events as the
            group's loss (``restore.on_unreadable_sector: fail-rebuild``).
        stripe_unit_bytes: a stripe's bytes on each drive (what a sector loss loses).
        read_defects: when the latent-defect rate comes from the workload's reads, its rate
            for the sized aggregate's data drives replaces ``rates``' (docs/drives.md).

    Returns:
        The sized layout with its risk.

    Raises:
        ValueError: a write penalty that is not positive and finite, a load factor or delay
            without a drive rebuild rate, or a non-positive mission.
    """
    penalty = default_write_penalty(layout) if write_penalty is None else write_penalty
    if not (math.isfinite(penalty) and penalty > 0.0):
        raise ValueError(f"{layout.label}: write_penalty must be positive, got {penalty!r}")
    if not (math.isfinite(mission_hours) and mission_hours > 0.0):
        raise ValueError(f"mission_hours must be positive, got {mission_hours!r}")

    counts = sized_counts(layout, workload, drive, penalty)
    if read_defects is not None:
        rates = rates.with_latent_defects(read_defects.per_hour(counts.data_disks))
    model_rates, source = _sized_rates(
        layout, drive, rates, load_factor, delay_hours, counts.groups
    )
    figures = group_loss_figures(
        layout.parity,
        layout.group_size,
        model_rates,
        mission_hours,
        sectors_fail_rebuild=sectors_fail_rebuild,
    )
    result = SizingResult(
        label=layout.label,
        raid=layout.raid,
        parity=layout.parity,
        group_size=layout.group_size,
        data_disks_per_group=layout.data_disks_per_group,
        write_penalty=penalty,
        read_iops=workload.read_iops,
        write_iops=workload.write_iops,
        backend_iops=counts.backend_iops,
        required_tb=workload.required_tb,
        disks_for_capacity=counts.disks_for_capacity,
        disks_for_iops=counts.disks_for_iops,
        disks_needed=counts.disks_needed,
        bound_by=counts.bound_by,
        groups=counts.groups,
        data_disks=counts.data_disks,
        usable_tb=counts.usable_tb,
        iops_available=counts.iops_available,
        rebuild_hours=model_rates.rebuild_hours,
        rebuild_source=source,
        mission_hours=mission_hours,
        p_loss_group=figures.p_loss,
        p_loss_aggregate=p_loss_aggregate(figures.p_loss, counts.groups),
        latent_defects_per_hour=rates.latent_defects_per_hour,
    )
    lost = layout_availability(layout, figures, counts.groups, drive.usable_tb, stripe_unit_bytes)
    placement = placement_of_group(layout, model_rates)
    return with_loss_figures(result, figures, counts.groups, lost, placement)


def _sized_rates(
    layout: Layout, drive: Drive, rates: Rates, load_factor: float, delay_hours: float, groups: int
) -> tuple[Rates, RebuildSource]:
    """The layout's chain rates with the drive's restore time, and where that time came from.

    With a drive rebuild rate the restore time is the drive's (:func:`restore_hours`) and
    the wait for a replacement ``delay_hours``; else ``rates``' own. The sized aggregate's
    ``groups`` share its hot spares.
    """
    hours, source = restore_hours(drive, rates, load_factor=load_factor, delay_hours=delay_hours)
    waited = delay_hours if source == "drive" else rates.replace_delay_hours
    model_rates = layout.chain_rates(
        dataclasses.replace(rates, rebuild_hours=hours, replace_delay_hours=waited), groups
    )
    return model_rates, source


def size_layouts(
    layouts: Sequence[Layout],
    workload: Workload,
    drive: Drive,
    *,
    rates: Rates,
    mission_hours: float,
    write_penalties: Mapping[str, float] | None = None,
    load_factor: float = 1.0,
    delay_hours: float = 0.0,
    sectors_fail_rebuild: bool = False,
    stripe_unit_bytes: float = DEFAULT_STRIPE_UNIT_BYTES,
    read_defects: WorkloadReadDefects | None = None,
) -> tuple[SizingResult, ...]:
    """Size every layout for the same workload, drive, rates and mission.

    ``write_penalties`` overrides the default penalty of the layouts it names (by label);
    the others as :func:`size_layout` takes them.

    Raises:
        ValueError: no layouts, an override naming no layout, or any error of
            :func:`size_layout`.
    """
    if not layouts:
        raise ValueError("at least one layout is needed")
    overrides = dict(write_penalties or {})
    labels = [layout.label for layout in layouts]
    unknown = sorted(set(overrides) - set(labels))
    if unknown:
        raise ValueError(f"write_penalties name no layout: {unknown}; layouts: {labels}")
    return tuple(
        size_layout(
            layout,
            workload,
            drive,
            rates=rates,
            mission_hours=mission_hours,
            write_penalty=overrides.get(layout.label),
            load_factor=load_factor,
            delay_hours=delay_hours,
            sectors_fail_rebuild=sectors_fail_rebuild,
            stripe_unit_bytes=stripe_unit_bytes,
            read_defects=read_defects,
        )
        for layout in layouts
    )


__all__ = [  # noqa: RUF022 -- grouped: drive re-exports, workloads, sizing
    "DRIVE_CLASSES", "Drive", "DriveClass", "find_drive_class", "restore_hours",
    "MailboxWorkload", "PlainWorkload", "Workload",
    "WRITE_PENALTIES", "BoundBy", "SizingResult", "backend_iops", "ceil_count",
    "default_write_penalty", "disks_for_capacity", "disks_for_iops", "size_layout",
    "size_layouts", "SizedCounts", "sized_counts",
]  # fmt: skip
