"""``planner recommend``: search the layouts worth considering for the scenario's target.

Every candidate of the search space (:func:`planner.core.design.candidates.candidate_layouts`) is
sized like ``planner size`` sizes a layout (:func:`planner.core.design.sizing.sized_counts`: the
workload's capacity and IOPS, else the target's or the aggregate's capacity), evaluated in
one batch (:func:`planner.core.design.risks.layout_risks`) and costed
(:func:`planner.core.arrays.cost.cost_of_ownership`); :func:`planner.core.design.recommend.choose`
ranks
them. The TUI's choose view and ``planner report`` show the same :class:`Recommendation`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from planner.analysis.inputs import scenario_inputs
from planner.analysis.spares import shape_with_spares
from planner.core.arrays.cost import CostOfOwnership, CostPrices, LayoutCost, cost_of_ownership
from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.arrays.workloads import PlainWorkload
from planner.core.design.candidates import (
    CandidateCount,
    PoolNeeds,
    SearchSpace,
    candidate_layouts,
    count_candidates,
)
from planner.core.design.recommend import Miss, Target, choose, misses
from planner.core.design.risks import layout_risks
from planner.core.design.sizing import ceil_count, default_write_penalty, sized_counts
from planner.report.inputs import Inputs
from planner.scenario import Scenario
from planner.scenario.target import SearchSpec

NO_TARGET = (
    "the scenario gives no loss target (no target section, or none of max_p_loss, "
    "min_nines and max_p_group_lost in it); add one, e.g. target: {max_p_loss: 0.01%} or "
    "target: {max_p_group_lost: 1e-6} (docs/recommend.md)"
)


class RecommendError(ValueError):
    """The scenario cannot be searched as it stands (the message says why and what to add)."""


@dataclass(frozen=True)
class Candidate:
    """One sized, evaluated and costed candidate layout.

    Attributes:
        layout: the layout.
        groups: groups (or pools) in the aggregate.
        total_disks: drives in the aggregate.
        overhead_disks: parity (and spare) drives' worth.
        usable_tb: usable capacity (TB), None when the drive's capacity is unknown.
        bound_by: what decided the size: ``capacity`` or ``iops`` (None without a workload).
        rebuild_hours: the layout's mean rebuild time (h).
        p_loss_aggregate: P(loss) of the aggregate over the mission.
        p_group_lost_aggregate, p_sectors_lost_aggregate: P(some group lost whole), P(some
            sectors lost) (issue 20; they do not sum to P(loss)).
        cost: the cost over the mission, None without prices.
        rank_cost: what the ranking minimises: the total cost, or the drives.
        misses: the targets it misses (empty when it meets them all).
        expected_sector_loss_events: mean sector-loss events of the aggregate.
    """

    layout: Layout
    groups: int
    total_disks: int
    overhead_disks: float
    usable_tb: float | None
    bound_by: str | None
    rebuild_hours: float
    p_loss_aggregate: float
    p_group_lost_aggregate: float
    p_sectors_lost_aggregate: float
    cost: LayoutCost | None
    rank_cost: float
    misses: tuple[Miss, ...]
    expected_sector_loss_events: float = 0.0


@dataclass(frozen=True)
class Recommendation:
    """What ``planner recommend`` prints.

    Attributes:
        title: the scenario's name.
        mission_hours: the mission (h).
        requirement: what every candidate is sized for, in words.
        target: the limits.
        money: whether candidates are ranked by money (else by drives).
        currency: the currency label (may be empty).
        evaluated: how many candidates were evaluated.
        meeting: the candidates meeting the target, cheapest first.
        front: the Pareto front of cost against P(loss), cheapest first.
        top: the recommended layout, or None when nothing meets the target.
        nearest_cheaper: the dearest candidate cheaper than ``top`` (it misses a target).
        closest: when nothing meets the target, the one needing the least relaxation.
        default_target: True when the scenario gives no loss target (no ``target:``
            section, or one without max_p_loss, min_nines or max_p_group_lost) and the
            risk limits are the fallback the caller gave (the TUI and the reports say so).
        target_section: whether the scenario has a ``target:`` section.
        inputs: the scenario's inputs, for the exports.
    """

    title: str
    mission_hours: float
    requirement: str
    target: Target
    money: bool
    currency: str
    evaluated: int
    meeting: tuple[Candidate, ...]
    front: tuple[Candidate, ...]
    top: Candidate | None
    nearest_cheaper: Candidate | None
    closest: Candidate | None
    inputs: Inputs
    default_target: bool = False
    target_section: bool = False

    @property
    def off_front(self) -> int:
        """Candidates not on the front (dominated by one of it)."""
        return self.evaluated - len(self.front)


@dataclass(frozen=True)
class _Sized:
    groups: list[int]
    total: list[int]
    overhead: list[float]
    usable: list[float] | None
    bound_by: list[str | None]
    requirement: str
    sized: bool
    """Whether each candidate's data drives come from the workload or target.usable_tb
    (else they are ``aggregate.data_disks``)."""


def _size(scenario: Scenario, layouts: Sequence[Layout]) -> _Sized:
    """Size every candidate: the workload (capacity and IOPS), else capacity only."""
    target = scenario.target
    spares = scenario.aggregate.hot_spares  # in every count, so in the cost and max_drives
    wanted_tb = None if target is None else target.usable_tb
    if scenario.workload is not None:
        workload = scenario.workload.core_workload()
        core_drive = scenario.core_drive()
        required = max(workload.required_tb, wanted_tb or 0.0)
        total = workload.read_iops + workload.write_iops
        plain = PlainWorkload(
            iops=total,
            read_fraction=workload.read_iops / total if total > 0 else 1.0,
            capacity_tb=required,
        )
        search = scenario.search
        override = None if search is None else search.write_penalty

        def penalty(layout: Layout) -> float:
            # a pool counts stripe I/Os, one per small write (OpenZFS's IOPS rule)
            fixed = layout.raid in ("raid10", "raid1", "mirror3") or layout.declustered
            return default_write_penalty(layout) if override is None or fixed else override

        counts = [sized_counts(x, plain, core_drive, penalty(x)) for x in layouts]
        return _Sized(
            groups=[c.groups for c in counts],
            total=[c.disks_needed + spares for c in counts],
            overhead=[c.disks_needed + spares - c.data_disks for c in counts],
            usable=[c.usable_tb for c in counts],
            bound_by=[c.bound_by for c in counts],
            requirement=(
                f"{required:,.1f} TB usable and {total:,.0f} host IOPS "
                f"({workload.read_iops:,.0f} reads, {workload.write_iops:,.0f} writes)"
            ),
            sized=True,
        )
    # Without a workload, capacity counts as `planner evaluate` and `planner size` count it
    # (data drives x drive.capacity_tb x drive.usable_fraction): one meaning of usable TB.
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
    return _Sized(
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
    )


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

    Pools are right-sized for what :func:`_size` sizes every candidate for.

    Raises:
        RecommendError: the space holds more than :data:`MAX_CANDIDATES` (counted before
            one is built), or pools are searched and not one of them fits.
    """
    has_pools = any(x.declustered is not None for x in scenario.core_layouts())
    spec = scenario.search if scenario.search is not None else SearchSpec()
    space = spec.space(has_pools)
    needs = _pool_needs(scenario)
    count = count_candidates(space, needs)
    if count.total > MAX_CANDIDATES:
        raise RecommendError(_too_many(count))
    if space.declustered and count.pools == 0:
        raise RecommendError(_no_pool_fits(space))
    return candidate_layouts(space, needs)


def _pool_needs(scenario: Scenario) -> PoolNeeds | None:
    """Drives' worth of data and IOPS to right-size pools for, counted as :func:`_size` does."""
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


DEFAULT_TARGET = Target(max_p_loss=1e-4)
"""The target when the scenario has none: 1 in 10,000 over the mission (``planner
recommend``, ``planner report`` and the TUI's choose view alike)."""


def recommendation(
    scenario: Scenario,
    layouts: Sequence[Layout] | None = None,
    overrides: Sequence[str] = (),
    fallback_target: Target | None = None,
) -> Recommendation:
    """Search ``layouts`` (default: the scenario's search space) for its target.

    ``fallback_target``'s risk limits stand in when the scenario gives no loss target (no
    ``target:`` section, or one without max_p_loss, min_nines or max_p_group_lost): the
    CLI, the TUI's choose view and the design report pass :data:`DEFAULT_TARGET`; without
    either the search is refused.

    Raises:
        RecommendError: no target section, a budget without prices, or a capacity target
            without the drive's capacity.
    """
    spec = scenario.target
    given = spec is not None and spec.limits_risk
    if spec is not None and (given or fallback_target is not None):
        target = spec.core_target(fallback_target or DEFAULT_TARGET)
    elif fallback_target is not None:
        target = fallback_target
    else:
        raise RecommendError(NO_TARGET)
    prices: CostPrices | None = scenario.cost_prices()
    # ranked by money only when the drives are priced (energy alone follows the drives)
    money = prices is not None and prices.counts_purchase
    if target.max_cost is not None and not money:
        raise RecommendError(
            "target.max_cost needs prices: give drive.price (and optionally drive.watts and "
            "costs.energy_per_kwh)"
        )
    candidates = list(search_layouts(scenario) if layouts is None else layouts)
    if not candidates:
        raise RecommendError("the search space is empty; widen search: (docs/recommend.md)")
    sized = _size(scenario, candidates)
    rates = scenario.rates()
    mission = scenario.mission_hours
    risks = layout_risks(
        candidates,
        [rates] * len(candidates),
        [mission] * len(candidates),
        sized.groups,
        sectors_fail_rebuild=scenario.restore.on_unreadable_sector == "fail-rebuild",
    )
    costs: CostOfOwnership | None = None
    if prices is not None:
        costs = cost_of_ownership(
            np.array(sized.total, dtype=np.float64),
            np.array(sized.groups, dtype=np.float64),
            prices=prices,
            op_failures_per_hour=rates.op_failures_per_hour,
            mission_hours=mission,
            usable_tb=None if sized.usable is None else np.array(sized.usable),
        )
    rank_cost = (
        costs.total_cost if costs is not None and money else np.array(sized.total, dtype=np.float64)
    )
    choice = choose(
        target,
        rank_cost,
        risks.p_loss_aggregate,
        np.array(sized.total),
        money,
        risks.p_group_lost_aggregate,
    )

    def candidate(i: int) -> Candidate:
        rank = float(rank_cost[i])
        return Candidate(
            layout=candidates[i],
            groups=sized.groups[i],
            total_disks=sized.total[i],
            overhead_disks=sized.overhead[i],
            usable_tb=None if sized.usable is None else sized.usable[i],
            bound_by=sized.bound_by[i],
            rebuild_hours=candidates[i].chain_rates(rates).rebuild_hours,
            p_loss_aggregate=float(risks.p_loss_aggregate[i]),
            p_group_lost_aggregate=float(risks.p_group_lost_aggregate[i]),
            p_sectors_lost_aggregate=float(risks.p_sectors_lost_aggregate[i]),
            cost=None if costs is None else costs.at(i),
            rank_cost=rank,
            misses=tuple(
                misses(
                    target,
                    float(risks.p_loss_aggregate[i]),
                    sized.total[i],
                    rank if money else None,
                    float(risks.p_group_lost_aggregate[i]),
                )
            ),
            expected_sector_loss_events=float(risks.expected_sector_loss_events[i]),
        )

    def maybe(i: int | None) -> Candidate | None:
        return None if i is None else candidate(i)

    return Recommendation(
        title=scenario.name,
        mission_hours=mission,
        requirement=sized.requirement,
        target=target,
        money=money,
        currency="" if prices is None else prices.currency,
        evaluated=len(candidates),
        meeting=tuple(candidate(int(i)) for i in choice.meeting),
        front=tuple(candidate(int(i)) for i in choice.front),
        top=maybe(choice.top),
        nearest_cheaper=maybe(choice.nearest_cheaper),
        closest=maybe(choice.closest),
        inputs=replace(
            scenario_inputs(scenario, overrides),
            sized_for=sized.requirement if sized.sized else None,
        ),
        default_target=not given,
        target_section=spec is not None,
    )
