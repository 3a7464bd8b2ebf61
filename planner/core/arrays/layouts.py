"""A RAID layout and how it fills an aggregate: groups, capacity, the rates of its chain.

What belongs here: :class:`Layout` (groups of N drives, k of them redundancy, or one
declustered pool: its data capacity, IOPS drives, rebuild speed-up and the rates and time
laws of its chain), how it fills an aggregate of a given number of data drives
(:func:`aggregate_shape`; NS3574 Tables 2 and 3) and where one group sits in the
enclosures (:func:`placement_of_group`). Evaluating layouts side by side is
:mod:`planner.core.design.layout_comparison`.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction

from planner.core.arrays.declustered import (
    Declustered,
    check_declustered,
    critical_rebuild_drives,
    data_capacity_drives,
    defect_stripe_share,
    drive_count,
    fraction_lost_on_overlap,
    iops_drives,
    pool_rebuild_hours,
    rebuild_speedup,
)
from planner.core.arrays.hot_spares import distributions_with_hot_spares, with_hot_spares
from planner.core.arrays.presets import find_preset
from planner.core.markov.enclosures import Placement
from planner.core.markov.rates import Rates
from planner.core.markov.workload_reads import reads_spread
from planner.core.simulation.distributions import DistributionSet


@dataclass(frozen=True)
class Layout:
    """One way to lay out the aggregate.

    Groups of ``group_size`` drives, ``parity`` of them redundancy. ``raid`` is the preset
    name, or None for a plain ``parity: k`` layout.

    A declustered pool (``declustered`` set, :mod:`planner.core.arrays.declustered`) is one "group"
    of ``group_size`` = C children whose stripes hold ``declustered.data`` data blocks and
    ``parity`` parity blocks, with ``declustered.spares`` distributed spares.
    """

    label: str
    raid: str | None
    parity: int
    group_size: int
    declustered: Declustered | None = None

    def __post_init__(self) -> None:
        if self.parity < 1:
            raise ValueError(f"{self.label}: parity must be at least 1, got {self.parity}")
        if self.group_size <= self.parity:
            raise ValueError(
                f"{self.label}: a group of {self.group_size} drives cannot hold "
                f"{self.parity} parity drives"
            )
        if self.declustered is not None:
            try:
                check_declustered(
                    self.parity, self.group_size, self.declustered.data, self.declustered.spares
                )
            except ValueError as error:
                raise ValueError(f"{self.label}: {error}") from None

    @property
    def data_capacity(self) -> Fraction:
        """Drives' worth of data per group, exact: N - k, or ``(C - s) d / (d + p)`` for a pool."""
        if self.declustered is None:
            return Fraction(self.group_size - self.parity)
        d = self.declustered
        return data_capacity_drives(self.parity, self.group_size, d.data, d.spares)

    @property
    def data_disks_per_group(self) -> float:
        """Data drives per group, n = N - k (an int); a pool's data capacity in drives."""
        capacity = self.data_capacity
        return drive_count(capacity)

    @property
    def data_share(self) -> float:
        """Data drives held per drive of a group: ``(N - k) / N``, a pool's data over C.

        A workload's reads spread over a group's data drives; the chain, which gives every
        drive of the group one latent-defect rate, takes the mean over them: a data drive's
        rate times this (``reads_spread``). A pool's distributed spares hold
        no data.
        """
        return float(self.data_capacity / self.group_size)

    @property
    def every_drive_reads(self) -> bool:
        """Whether every drive of a group serves the host's reads, not only its data drives.

        Mirrors, rotating parity and pools: yes; dedicated parity (RAID 4, RAID-DP): its
        parity drives hold no data (``reads_spread`` caps each drive that reads).
        """
        preset = None if self.raid is None else find_preset(self.raid)
        return preset is None or not preset.dedicated_parity

    def data_drives_held(self, groups: int | None) -> float | None:
        """The data drives' worth ``groups`` groups hold (None: unknown, None given)."""
        return None if groups is None else groups * float(self.data_capacity)

    @property
    def rebuild_speedup(self) -> float:
        """How many times faster than a traditional rebuild: 1, or a pool's (no wait counted)."""
        if self.declustered is None:
            return 1.0
        d = self.declustered
        return rebuild_speedup(self.parity, self.group_size, d.data, d.spares)

    @property
    def fraction_lost_on_overlap(self) -> float:
        """Share of the group's data lost by k + 1 overlapping failures: 1, less for a pool."""
        if self.declustered is None:
            return 1.0
        return fraction_lost_on_overlap(self.parity, self.group_size, self.declustered.data)

    @property
    def pool_lost_with_group(self) -> bool:
        """Whether losing one group loses the aggregate's data: a ZFS vdev (RAID-Z, dRAID).

        ZFS stripes a pool's data over all its top-level vdevs ("VDEVs", OpenZFS
        documentation), and a vdev with more failed drives than parity cannot open
        (``vdev_draid_state_change``, ``vdev_raidz_state_change`` in OpenZFS's source): the
        pool does not import. Hardware RAID groups are counted one at a time.
        """
        if self.declustered is not None:
            return True
        preset = None if self.raid is None else find_preset(self.raid)
        return preset is not None and preset.whole_stripe_io

    def same_shape(self, other: Layout) -> bool:
        """Whether ``other`` is this layout under any label: kind, parity, size and pool.

        The kind is the preset (``RAID6`` is ``raid6``): raidz2 12 and raid6 12 hold the
        same drives but are sized differently (stripe I/Os), and RAID-DP reads otherwise.
        """

        def kind(raid: str | None) -> str | None:
            preset = None if raid is None else find_preset(raid)
            return raid if preset is None else preset.name

        return (kind(self.raid), self.parity, self.group_size, self.declustered) == (
            kind(other.raid),
            other.parity,
            other.group_size,
            other.declustered,
        )

    @property
    def hardware_parity(self) -> bool:
        """Whether this is a parity group of hardware RAID: RAID 4, 5, 6, DP, triple, ``n+k``.

        Not a mirror (the level fixes its size), a pool, nor ZFS RAID-Z.
        """
        preset = None if self.raid is None else find_preset(self.raid)
        if preset is None:
            return self.declustered is None
        return preset.fixed_group_size is None and not (
            preset.declustered or preset.whole_stripe_io
        )

    @property
    def counts_stripe_ios(self) -> bool:
        """Whether a small read or write is one I/O across a whole stripe: a pool or RAID-Z.

        Such a layout's IOPS are counted in stripe I/Os (write penalty 1): OpenZFS gives a
        dRAID pool ``floor((C - s) / (d + p))`` drives' worth, "similar to raidz since for
        any read all D data disks must be accessed", and a RAID-Z group one drive's worth
        (iXsystems, "ZFS Storage Pool Layout").
        """
        if self.declustered is not None:
            return True
        preset = None if self.raid is None else find_preset(self.raid)
        return preset is not None and preset.whole_stripe_io

    @property
    def iops_drives_per_group(self) -> int:
        """Drives' worth of IOPS a group serves: N, one for RAID-Z, a pool's (C - s) // (d + p).

        For a pool or RAID-Z the unit is the stripe I/O (:attr:`counts_stripe_ios`;
        :func:`planner.core.arrays.declustered.iops_drives`).
        """
        if self.declustered is not None:
            d = self.declustered
            return iops_drives(self.parity, self.group_size, d.data, d.spares)
        return 1 if self.counts_stripe_ios else self.group_size

    @property
    def critical_rebuild_drives(self) -> float:
        """Drives' worth a critical rebuild reads: N - k, or a pool's critical stripes."""
        if self.declustered is None:
            return float(self.group_size - self.parity)
        d = self.declustered
        return float(critical_rebuild_drives(self.parity, self.group_size, d.data, d.spares))

    @property
    def stripe_data_drives(self) -> int:
        """Data drives of one stripe: N - k, or a pool's d."""
        return self.group_size - self.parity if self.declustered is None else self.declustered.data

    @property
    def defect_stripe_share(self) -> float:
        """sigma, the share of sector-loss moves that lose sectors: 1, less for a pool."""
        if self.declustered is None:
            return 1.0
        return defect_stripe_share(self.parity, self.group_size, self.declustered.data)

    def chain_rates(self, rates: Rates, groups: int | None = None) -> Rates:
        """The rates of this layout's chain: a pool rebuilds faster, one drive at a time.

        A latent-defect rate per data drive of a workload's reads is taken over the data
        drives ``groups`` groups hold, then becomes each drive's mean, times
        :attr:`data_share` (``reads_spread``); a rate given
        per drive stays. A traditional group of an aggregate of ``groups`` groups keeps
        ``rates``, its wait for a replacement shortened by the hot spares they share
        (:func:`planner.core.arrays.hot_spares.with_hot_spares`; ``groups`` is needed only
        then). A declustered pool keeps its distributed spares' model (dedicated ones change
        nothing of it): it restores a drive in
        :func:`planner.core.arrays.declustered.pool_rebuild_hours` (no wait for a replacement
        while a distributed spare is free) and one drive at a time (its rebuilds share the
        pool's bandwidth; :mod:`planner.core.arrays.declustered`).
        """
        if rates.defects_per_data_drive:  # a workload's reads (a few Fractions: not else)
            held = self.data_drives_held(groups)
            rates = reads_spread(rates, held, self.data_share, every_drive=self.every_drive_reads)
        if self.declustered is None:
            return with_hot_spares(rates, None if groups is None else groups * self.group_size)
        d = self.declustered
        delay = rates.replace_delay_hours
        hours = pool_rebuild_hours(
            rates.rebuild_hours - delay,
            delay,
            rates.op_failures_per_hour,
            parity=self.parity,
            children=self.group_size,
            data=d.data,
            spares=d.spares,
        )
        return dataclasses.replace(
            rates,
            rebuild_hours=hours,
            rebuild_streams=1,
            replace_delay_hours=0.0,
            defect_stripe_share=self.defect_stripe_share,
            hot_spares=0,
        )

    def chain_distributions(
        self, distributions: DistributionSet, groups: int | None = None
    ) -> DistributionSet:
        """:meth:`chain_rates` for the simulator: a pool's rebuilds shorter, one at a time.

        A traditional group's restoration is shortened by the hot spares of its aggregate of
        ``groups`` groups, as :meth:`chain_rates`'s
        (:func:`planner.core.arrays.hot_spares.distributions_with_hot_spares`).

        The restoration law is scaled in time so that its mean is the pool's, as
        :meth:`chain_rates` gives it for the law's mean, its wait for a replacement
        (``replace_delay_hours``) and the failure law's mean rate: the same rule, so the
        simulator and the chain agree on the pool's rebuild whatever the wait. The set
        carries the pool's :attr:`defect_stripe_share`, sigma, as the chain's rates do, and
        a latent-defect rate per data drive becomes each drive's mean, as theirs does.
        """
        if distributions.defects_per_data_drive:
            held = self.data_drives_held(groups)
            distributions = reads_spread(
                distributions, held, self.data_share, every_drive=self.every_drive_reads
            )
        if self.declustered is None:
            drives = None if groups is None else groups * self.group_size
            return distributions_with_hot_spares(distributions, drives)
        mean = distributions.restoration.mean_hours
        # A law whose mean is below the scenario's wait (a distributions section of another
        # scenario) is taken as the rebuild alone.
        delay = distributions.replace_delay_hours
        delay = delay if delay < mean else 0.0
        rates = Rates(
            op_failures_per_hour=1.0 / distributions.operational_failure.mean_hours,
            latent_defects_per_hour=distributions.latent_defects_per_hour,
            rebuild_hours=mean,
            scrub_hours=distributions.scrub.mean_hours,
            rebuild_streams=distributions.rebuild_streams,
            replace_delay_hours=delay,
        )
        factor = self.chain_rates(rates).rebuild_hours / mean
        return dataclasses.replace(
            distributions.with_restoration_scaled(factor),
            defect_stripe_share=self.defect_stripe_share,
        )

    def group_text(self) -> str:
        """The group for tables: ``8 (6+2)``, or ``48 (8d+2p, 2s)`` for a pool."""
        if self.declustered is None:
            return f"{self.group_size} ({self.data_disks_per_group}+{self.parity})"
        d = self.declustered
        return f"{self.group_size} ({d.data}d+{self.parity}p, {d.spares}s)"


@dataclass(frozen=True)
class AggregateShape:
    """How a layout fills an aggregate of ``data_disks`` data drives."""

    groups: int
    total_disks: int
    overhead_disks: float
    exact_division: bool


def aggregate_shape(layout: Layout, data_disks: int) -> AggregateShape:
    """Groups = ceil(data_disks / n); overhead = groups x k parity drives (Tables 2 and 3).

    When n does not divide ``data_disks`` the last group is full anyway, so the aggregate
    holds more data drives than asked for; ``exact_division`` says so. A declustered pool
    holds ``(C - s) d / (d + p)`` drives of data (exact fractions, no float rounding); its
    overhead, parity and spare capacity, is the rest of its drives, in drives (a whole
    number for a traditional layout).
    """
    capacity = layout.data_capacity
    groups = math.ceil(Fraction(data_disks) / capacity)
    overhead = groups * (layout.group_size - capacity)
    return AggregateShape(
        groups=groups,
        total_disks=groups * layout.group_size,
        overhead_disks=drive_count(overhead),
        exact_division=groups * capacity == data_disks,
    )


def placement_of_group(layout: Layout, rates: Rates) -> Placement | None:
    """How one group of ``layout`` sits in the rates' enclosures; None without enclosures."""
    found = rates.enclosures
    return None if found is None else found.placement(layout.group_size)
