"""The candidates of ``planner recommend``'s search, and what each is sized for.

The search space (the scenario's ``search:`` section, or the defaults) is counted before a
candidate is built (:data:`MAX_CANDIDATES`), dRAID pools are right-sized for the need, and
every candidate is sized like ``planner size`` sizes a layout
(:func:`planner.core.design.drive_counts.sized_counts`: the workload's capacity and IOPS, else
the target's or the aggregate's capacity). With an ``enclosures`` section each layout is
a candidate in every placement searched (:func:`search_placements`, docs/domains.md), sized
once. :mod:`planner.analysis.recommend` evaluates, costs and ranks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from planner.analysis.spares import shape_with_spares
from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.arrays.workloads import PlainWorkload
from planner.core.design.candidates import (
    CandidateCount,
    PoolNeeds,
    SearchSpace,
    candidate_layouts,
    count_candidates,
)
from planner.core.design.drive_counts import ceil_count, sized_counts
from planner.core.design.recommend import Target
from planner.core.design.sizing import default_write_penalty
from planner.core.markov.domains import check_domain_size
from planner.core.markov.enclosures import Enclosures
from planner.scenario import Scenario
from planner.scenario.target import SearchSpec


class RecommendError(ValueError):
    """The scenario cannot be searched as it stands (the message says why and what to add)."""


@dataclass(frozen=True)
class SizedCandidates:
    """Every candidate sized for the scenario, in the candidates' order.

    Attributes:
        groups: groups (or pools) in each aggregate.
        total: drives in each aggregate, hot spares included.
        overhead: parity and spare drives' worth of each.
        usable: usable TB of each, or None when the drive's capacity is unknown.
        bound_by: what decided each size (``capacity``, ``iops``; None without a workload).
        requirement: what every candidate is sized for, in words.
        sized: whether the data drives come from the workload or target.usable_tb (else
            they are ``aggregate.data_disks``).
        needed_tb: the TB every candidate is sized to hold (the workload's or the
            target's), or None for ``aggregate.data_disks``.
    """

    groups: list[int]
    total: list[int]
    overhead: list[float]
    usable: list[float] | None
    bound_by: list[str | None]
    requirement: str
    sized: bool
    needed_tb: float | None = None


def size_candidates(scenario: Scenario, layouts: Sequence[Layout]) -> SizedCandidates:
    """Size every candidate: the workload (capacity and IOPS), else capacity only."""
    target = scenario.target
    wanted_tb = None if target is None else target.usable_tb
    if scenario.workload is not None:
        return _sized_for_workload(scenario, layouts, wanted_tb)
    # Without a workload, capacity counts as `planner evaluate` and `planner size` count it
    # (data drives x drive.capacity_tb x drive.usable_fraction): one meaning of usable TB.
    spares = scenario.aggregate.hot_spares  # in every count, so in the cost and max_drives
    per_drive_tb = scenario.usable_tb_per_drive
    if wanted_tb is not None:
        if per_drive_tb is None:
            raise RecommendError(
                "target.usable_tb needs the drive's capacity: give drive.capacity_tb or drive.model"
            )
        data_disks = ceil_count(wanted_tb / per_drive_tb)
        requirement = f"{wanted_tb:,.1f} TB usable ({data_disks:,} data drives)"
    else:
        data_disks = scenario.aggregate.data_disks
        requirement = f"{data_disks:,} data drives (aggregate.data_disks)"
    shapes = [shape_with_spares(aggregate_shape(x, data_disks), spares) for x in layouts]
    return SizedCandidates(
        groups=[s.groups for s in shapes],
        total=[s.total_disks for s in shapes],
        overhead=[s.overhead_disks for s in shapes],
        usable=(
            None
            if per_drive_tb is None
            else [
                float(s.groups * x.data_capacity) * per_drive_tb
                for s, x in zip(shapes, layouts, strict=True)
            ]
        ),
        bound_by=[None] * len(layouts),
        requirement=requirement,
        sized=wanted_tb is not None,
        needed_tb=wanted_tb,
    )


def _sized_for_workload(
    scenario: Scenario, layouts: Sequence[Layout], wanted_tb: float | None
) -> SizedCandidates:
    """Every candidate sized for the workload's capacity (or the target's) and IOPS."""
    assert scenario.workload is not None  # size_candidates asks only then
    spares = scenario.aggregate.hot_spares
    workload = scenario.workload.core_workload()
    core_drive = scenario.core_drive()
    required = max(workload.required_tb, wanted_tb or 0.0)
    total = workload.read_iops + workload.write_iops
    plain = PlainWorkload(
        iops=total,
        read_fraction=workload.read_iops / total if total > 0 else 1.0,
        capacity_tb=required,
    )

    def penalty(layout: Layout) -> float:
        searched = searched_write_penalty(scenario, layout)
        return default_write_penalty(layout) if searched is None else searched

    counts = [sized_counts(x, plain, core_drive, penalty(x)) for x in layouts]
    return SizedCandidates(
        groups=[c.groups for c in counts],
        total=[c.disks_needed + spares for c in counts],
        overhead=[c.disks_needed + spares - c.data_disks for c in counts],
        usable=[c.usable_tb for c in counts],
        bound_by=[c.bound_by for c in counts],
        requirement=(
            f"{required:,.1f} TB usable and {total:,.0f} host IOPS "
            f"({workload.read_iops:,.0f} reads, {workload.write_iops:,.0f} writes"
            f"{_stripe_io_words(layouts)}{_penalty_words(scenario, layouts)})"
        ),
        sized=True,
        needed_tb=required,
    )


def searched_write_penalty(scenario: Scenario, layout: Layout) -> float | None:
    """``search.write_penalty`` where it applies to ``layout``, else None (its preset's).

    It applies to parity groups: not to mirrors, nor to a pool or RAID-Z, which count
    stripe I/Os, one per small write (OpenZFS's IOPS rule).
    """
    override = None if scenario.search is None else scenario.search.write_penalty
    fixed = layout.raid in ("raid10", "raid1", "mirror3") or layout.counts_stripe_ios
    return None if override is None or fixed else override


def _penalty_words(scenario: Scenario, layouts: Sequence[Layout]) -> str:
    """``; parity groups at write penalty 1 (search.write_penalty)``, or "" without one."""
    found = {searched_write_penalty(scenario, layout) for layout in layouts} - {None}
    if not found:
        return ""
    return f"; parity groups at write penalty {found.pop():g} (search.write_penalty)"


def searched_kinds(layouts: Sequence[Layout]) -> str:
    """``mirrors, hardware RAID groups, RAID-Z groups and dRAID pools``: what a search holds.

    A search of a ZFS scenario with hardware RAID layouts too holds both kinds of parity
    group; its summary said only "RAID-Z groups ... sized in stripe I/Os", so a newcomer
    could not tell whether hardware RAID had been searched.
    """
    found = [
        ("mirrors", any(not x.hardware_parity and not x.counts_stripe_ios for x in layouts)),
        ("hardware RAID groups", any(x.hardware_parity for x in layouts)),
        ("RAID-Z groups", any(x.counts_stripe_ios and x.declustered is None for x in layouts)),
        ("dRAID pools", any(x.declustered is not None for x in layouts)),
    ]
    names = [name for name, present in found if present]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


def _stripe_io_words(layouts: Sequence[Layout]) -> str:
    """``; RAID-Z groups and dRAID pools sized in stripe I/Os (docs/sizing.md)``, or ""."""
    kinds = [
        name
        for name, found in (
            ("RAID-Z groups", any(x.counts_stripe_ios and x.declustered is None for x in layouts)),
            ("dRAID pools", any(x.declustered is not None for x in layouts)),
        )
        if found
    ]
    return f"; {' and '.join(kinds)} sized in stripe I/Os (docs/sizing.md)" if kinds else ""


MAX_CANDIDATES = 100_000
"""Most candidates a search may ask for: 100,000 take about 3 s and 170 MB (700,000 took
19 s and 1.2 GB; 1..255 in the three draid_ lists asked for 8.2 million, 14 GB)."""


def _too_many(count: CandidateCount) -> str:
    parts = []
    if count.groups:
        parts.append(f"{count.groups:,} parity groups (search.parity, group_sizes)")
    if count.pools:
        parts.append(
            f"{count.pools:,} dRAID pools (search.draid_data, draid_children, draid_spares)"
        )
    return (
        f"the search asks for {count.total:,} candidates (at most {MAX_CANDIDATES:,}): "
        f"{', '.join(parts)}; narrow those lists"
    )


def search_layouts(scenario: Scenario) -> list[Layout]:
    """The candidates the scenario's ``search:`` section (or the defaults) describes.

    Pools are right-sized for what :func:`size_candidates` sizes every candidate for.

    Raises:
        RecommendError: the space holds more than :data:`MAX_CANDIDATES` (counted before
            one is built), or pools are searched and not one of them fits.
    """
    layouts = scenario.core_layouts()
    has_pools = any(x.declustered is not None for x in layouts)
    has_raidz = any(x.counts_stripe_ios and x.declustered is None for x in layouts)
    has_hardware = any(x.hardware_parity for x in layouts)
    spec = scenario.search if scenario.search is not None else SearchSpec()
    space = spec.space(has_pools, has_raidz, has_hardware)
    needs = _pool_needs(scenario)
    count = count_candidates(space, needs)
    if count.total > MAX_CANDIDATES:
        raise RecommendError(_too_many(count))
    if space.declustered and count.pools == 0:
        raise RecommendError(_no_pool_fits(space))
    return candidate_layouts(space, needs)


def _pool_needs(scenario: Scenario) -> PoolNeeds | None:
    """Drives' worth of data and IOPS to right-size pools for, as :func:`size_candidates` counts."""
    target = scenario.target
    wanted_tb = None if target is None else target.usable_tb
    if scenario.workload is not None:
        workload = scenario.workload.core_workload()
        drive = scenario.core_drive()
        required = max(workload.required_tb, wanted_tb or 0.0)
        host_iops = workload.read_iops + workload.write_iops
        # whole data drives, as disks_for_capacity counts them
        return PoolNeeds(ceil_count(required / drive.usable_tb), host_iops / drive.iops)
    if wanted_tb is not None:
        # the same data drives as _size: each stores capacity x usable_fraction
        per_drive_tb = scenario.usable_tb_per_drive
        return None if per_drive_tb is None else PoolNeeds(ceil_count(wanted_tb / per_drive_tb))
    return PoolNeeds(scenario.aggregate.data_disks)


def _no_pool_fits(space: SearchSpace) -> str:
    """Why a pool search found nothing: each stripe needs d + k <= children - spares."""
    parities = [k for k in space.parities if k <= 3]
    if not parities:
        return (
            "no dRAID pool is searched: dRAID has parity 1 to 3 and search.parity has none; "
            "add one, or set search.declustered: false"
        )
    room = max(space.draid_children or (255,)) - min(space.draid_spares)
    need = min(space.draid_data) + min(parities)
    return (
        f"no dRAID pool of search: fits: the smallest stripe, {need} drives "
        f"(draid_data + parity), is more than the most children less spares, {room}; "
        "lower search.draid_data or draid_spares, raise draid_children, or set "
        "search.declustered: false"
    )


def search_placements(scenario: Scenario, target: Target) -> list[Enclosures | None]:
    """The enclosure placements searched: ``search.members_per_enclosure``, else the scenario's.

    One entry, None, without an enclosures section (a target on P(unavailable) then needs
    one).
    """
    spec = scenario.enclosures
    if spec is None:
        if target.max_p_unavailable is not None:
            raise RecommendError(
                "target.max_p_unavailable needs an enclosures section (docs/domains.md)"
            )
        return [None]
    own = spec.core_enclosures()
    wanted = None if scenario.search is None else scenario.search.members_per_enclosure
    if not wanted:
        return [own]
    return [replace(own, members_per_enclosure=m, spread=None) for m in wanted]


def placed_candidates(
    layouts: Sequence[Layout], placements: Sequence[Enclosures | None]
) -> tuple[list[tuple[Layout, Enclosures | None]], list[int]]:
    """Each layout in each placement once, and the index of each candidate's layout.

    Rules that place a group alike count once (3 and 12 drives per enclosure are one
    enclosure for a group of 3).
    """
    candidates, which, seen = [], [], set()
    for placement in placements:
        for i, layout in enumerate(layouts):
            key = (i, None if placement is None else placement.placement(layout.group_size))
            if placement is not None and placement.active and key[1] is not None:
                try:
                    check_domain_size(layout.parity, key[1])
                except ValueError as error:
                    raise RecommendError(
                        f"{layout.label}: {error}; narrow search.parity or "
                        "search.members_per_enclosure"
                    ) from None
            if key not in seen:
                seen.add(key)
                candidates.append((layout, placement))
                which.append(i)
    return candidates, which


def sized_for(sized: SizedCandidates, which: list[int]) -> SizedCandidates:
    """``sized`` (one per layout) for each candidate: ``which`` names its layout."""
    return replace(
        sized,
        groups=[sized.groups[i] for i in which],
        total=[sized.total[i] for i in which],
        overhead=[sized.overhead[i] for i in which],
        usable=None if sized.usable is None else [sized.usable[i] for i in which],
        bound_by=[sized.bound_by[i] for i in which],
    )
