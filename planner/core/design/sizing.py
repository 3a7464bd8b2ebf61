"""Capacity and performance sizing: how many drives each layout needs, and its risk.

For every layout the engine computes the drives needed for capacity and the drives needed
for IOPS, rounds each up to whole RAID groups, keeps the larger and reports which one
decided (``bound_by``; the counting and its rules: :mod:`planner.core.design.drive_counts`),
then evaluates the probability of data loss of the aggregate it sized
(:func:`planner.core.markov.transient.p_loss_group` and
:func:`~planner.core.markov.transient.p_loss_aggregate`).

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

from planner.core.arrays.availability import (
    DEFAULT_STRIPE_UNIT_BYTES,
    Availability,
    layout_availability,
    with_loss_figures,
)
from planner.core.arrays.cost import LayoutCost
from planner.core.arrays.defects import WorkloadReadDefects
from planner.core.arrays.layouts import Layout, placement_of_group
from planner.core.arrays.rebuild import (
    DRIVE_CLASSES,
    Drive,
    DriveClass,
    RebuildSource,
    find_drive_class,
    restore_hours,
)
from planner.core.arrays.workloads import MailboxWorkload, PlainWorkload, Workload
from planner.core.design.drive_counts import BoundBy, sized_counts
from planner.core.design.layout_comparison import Independent
from planner.core.design.penalties import WRITE_PENALTIES, default_write_penalty
from planner.core.markov.aggregate import p_loss_aggregate
from planner.core.markov.domain_figures import group_loss_figures
from planner.core.markov.enclosures import EnclosureRisk
from planner.core.markov.piecewise import AgedLoss
from planner.core.markov.rates import Rates


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
        latent_defects_per_hour: each drive's latent-defect rate the chain took: the
            workload's reads over this aggregate's data drives when they make it
            (``read_defects``), spread over its groups' drives (:attr:`Layout.data_share`),
            else the scenario's (None: not recorded).
        mttdl_hours: one group's MTTDL from the same chain (h; None: not recorded).
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
    mttdl_hours: float | None = None


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
        rates = rates.with_read_defects(read_defects.per_hour(counts.data_disks))
    model_rates, source = _sized_rates(
        layout, drive, rates, load_factor, delay_hours, counts.groups
    )
    figures = group_loss_figures(
        layout.parity,
        layout.group_size,
        model_rates,
        mission_hours,
        sectors_fail_rebuild=sectors_fail_rebuild,
        mttdl=True,
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
        latent_defects_per_hour=model_rates.latent_defects_per_hour,
        mttdl_hours=figures.mttdl_hours,
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


__all__ = [  # noqa: RUF022 -- grouped: drive re-exports, workloads, penalties, sizing
    "DRIVE_CLASSES", "Drive", "DriveClass", "find_drive_class", "restore_hours",
    "MailboxWorkload", "PlainWorkload", "Workload",
    "WRITE_PENALTIES", "default_write_penalty",
    "SizingResult", "size_layout", "size_layouts",
]  # fmt: skip
