"""The candidates of ``planner recommend``, sized, evaluated in one batch and costed.

:func:`evaluate_candidates` sizes every candidate (:mod:`planner.analysis.candidate_sizing`),
takes each one's rates (a sized aggregate's own latent-defect rate: its data drives' share
of the workload's reads), evaluates them all at once
(:func:`planner.core.design.risks.layout_risks`) and costs them
(:func:`planner.core.arrays.cost.cost_of_ownership`); :class:`Evaluated` gives each as a
:class:`Candidate`. :mod:`planner.analysis.recommend` ranks them. With an ``ageing``
section each is evaluated with the drives ageing too, and the P(loss) target is judged by
that figure (:attr:`Candidate.p_loss_judged`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from planner.analysis.ageing import aged_candidates, aged_loss
from planner.analysis.candidate_sizing import (
    SizedCandidates,
    placed_candidates,
    size_candidates,
    sized_for,
)
from planner.core.arrays.availability import Availability, layout_nomdl
from planner.core.arrays.cost import CostOfOwnership, CostPrices, LayoutCost, cost_of_ownership
from planner.core.arrays.layouts import Layout
from planner.core.design.aged import AgedRisks
from planner.core.design.recommend import Miss, Target, misses
from planner.core.design.risks import LayoutRisks, layout_risks
from planner.core.markov.enclosures import Enclosures, Placement
from planner.core.markov.piecewise import AgedLoss
from planner.core.markov.rates import Rates
from planner.scenario import Scenario
from planner.scenario.defects import workload_read_defects

__all__ = ["Candidate", "Evaluated", "evaluate_candidates"]


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
        placement: how each group sits in enclosures, with an enclosures section
            (docs/domains.md); None without.
        p_unavailable_aggregate: P(some group stops serving at least once), with
            enclosures; None without.
        availability: hours degraded and critical, group losses and NOMDL
            (:mod:`planner.core.arrays.availability`).
        latent_defects_per_hour: each drive's latent-defect rate its chain took: the
            workload's reads over its own data drives when they make it, spread over its
            groups' drives (:attr:`Layout.data_share`), else the scenario's (None: not
            recorded).
        aged: its P(loss) with the drives ageing (docs/ageing.md), when the scenario has an
            ``ageing`` section; the P(loss) target is judged by it.
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
    placement: Placement | None = None
    p_unavailable_aggregate: float | None = None
    availability: Availability | None = None
    latent_defects_per_hour: float | None = None
    aged: AgedLoss | None = None

    @property
    def p_loss_judged(self) -> float:
        """The P(loss) of the aggregate the target is judged by.

        With the drives ageing when the scenario says how they age, else at the constant rate.
        """
        return self.p_loss_aggregate if self.aged is None else self.aged.p_loss_aggregate

    @property
    def name(self) -> str:
        """The layout's label, and its placement with enclosures: ``raid6 12 (6 x 2)``."""
        if self.placement is None:
            return self.layout.label
        return f"{self.layout.label} ({self.placement.text()})"


@dataclass(frozen=True)
class Evaluated:
    """Every candidate sized, evaluated in one batch and costed, in the candidates' order."""

    candidates: Sequence[tuple[Layout, Enclosures | None]]
    sized: SizedCandidates
    risks: LayoutRisks
    costs: CostOfOwnership | None
    rank_cost: npt.NDArray[np.float64]
    target: Target
    money: bool
    rates: Sequence[Rates]
    usable_tb_per_drive: float | None
    stripe_unit_bytes: int
    aged: AgedRisks | None = None

    @property
    def p_loss_judged(self) -> npt.NDArray[np.float64]:
        """Each candidate's :attr:`Candidate.p_loss_judged`, in order."""
        return self.risks.p_loss_aggregate if self.aged is None else self.aged.p_loss_aggregate

    def candidate(self, i: int) -> Candidate:
        """The ``i``-th candidate with its figures and the targets it misses."""
        sized, risks = self.sized, self.risks
        rank = float(self.rank_cost[i])
        p_loss = float(risks.p_loss_aggregate[i])
        judged = float(self.p_loss_judged[i])
        p_group_lost = float(risks.p_group_lost_aggregate[i])
        layout, enclosures = self.candidates[i]
        chain = layout.chain_rates(self.rates[i], sized.groups[i])
        unavailable = risks.p_unavailable_aggregate
        p_unavailable = None if unavailable is None else float(unavailable[i])
        return Candidate(
            layout=layout,
            groups=sized.groups[i],
            total_disks=sized.total[i],
            overhead_disks=sized.overhead[i],
            usable_tb=None if sized.usable is None else sized.usable[i],
            bound_by=sized.bound_by[i],
            rebuild_hours=chain.rebuild_hours,
            p_loss_aggregate=p_loss,
            p_group_lost_aggregate=p_group_lost,
            p_sectors_lost_aggregate=float(risks.p_sectors_lost_aggregate[i]),
            cost=None if self.costs is None else self.costs.at(i),
            rank_cost=rank,
            misses=tuple(
                misses(
                    self.target,
                    judged,
                    sized.total[i],
                    rank if self.money else None,
                    p_group_lost,
                    p_unavailable,
                )
            ),
            expected_sector_loss_events=float(risks.expected_sector_loss_events[i]),
            placement=None if enclosures is None else enclosures.placement(layout.group_size),
            p_unavailable_aggregate=p_unavailable,
            availability=self._availability(i),
            latent_defects_per_hour=chain.latent_defects_per_hour,
            aged=None if self.aged is None else aged_loss(self.aged, i),
        )

    def _availability(self, i: int) -> Availability:
        risks = self.risks
        group_losses = float(risks.expected_group_losses_group[i])
        nomdl = layout_nomdl(
            self.candidates[i][0],
            group_losses,
            float(risks.expected_sector_loss_events_group[i]),
            self.usable_tb_per_drive,
            self.stripe_unit_bytes,
            self.sized.groups[i],
        )
        return Availability(
            degraded_hours_per_year=float(risks.degraded_hours_per_year[i]),
            critical_hours_per_year=float(risks.critical_hours_per_year[i]),
            expected_group_losses_group=group_losses,
            expected_group_losses=float(risks.expected_group_losses[i]),
            nomdl_bytes_per_tb=nomdl,
        )

    def maybe(self, i: int | None) -> Candidate | None:
        """:meth:`candidate`, or None for no index."""
        return None if i is None else self.candidate(i)


def _own_rates(
    scenario: Scenario,
    rates: Rates,
    candidates: Sequence[tuple[Layout, Enclosures | None]],
    groups: Sequence[int],
) -> list[Rates]:
    """Each candidate's rates: its enclosures, and its own latent-defect rate.

    Where the workload's reads make the rate, each aggregate's data drives share them (a
    data drive's rate, which its chain spreads over its groups' drives).
    """
    reads = workload_read_defects(scenario.drive, scenario.workload)
    return [
        replace(rates, enclosures=e)
        if reads is None
        else replace(rates, enclosures=e).with_read_defects(
            reads.per_hour(count * layout.data_disks_per_group)
        )
        for (layout, e), count in zip(candidates, groups, strict=True)
    ]


def evaluate_candidates(
    scenario: Scenario,
    layouts: Sequence[Layout],
    placements: Sequence[Enclosures | None],
    target: Target,
    prices: CostPrices | None,
    money: bool,
) -> Evaluated:
    """Size, evaluate (one batch) and cost every candidate; rank by money or by drives.

    A candidate is a layout in a placement (every layout in the first, then the second):
    the placements of one layout share its size.
    """
    candidates, which = placed_candidates(layouts, placements)
    sized = sized_for(size_candidates(scenario, layouts), which)
    rates = scenario.rates()
    mission = scenario.mission_hours
    own = _own_rates(scenario, rates, candidates, sized.groups)
    chosen = [x for x, _ in candidates]
    risks = layout_risks(
        chosen,
        own,
        [mission] * len(candidates),
        sized.groups,
        sectors_fail_rebuild=scenario.restore.on_unreadable_sector == "fail-rebuild",
    )
    aged = aged_candidates(scenario, chosen, own, sized.groups, risks.p_loss_aggregate.tolist())
    costs: CostOfOwnership | None = None
    if prices is not None:
        costs = cost_of_ownership(
            np.array(sized.total, dtype=np.float64),
            np.array(sized.groups, dtype=np.float64),
            prices=prices,
            op_failures_per_hour=rates.op_failures_per_hour,
            mission_hours=mission,
            usable_tb=None if sized.usable is None else np.array(sized.usable),
            needed_tb=sized.needed_tb,
        )
    drives = np.array(sized.total, dtype=np.float64)
    rank_cost = costs.total_cost if costs is not None and money else drives
    return Evaluated(
        candidates,
        sized,
        risks,
        costs,
        rank_cost,
        target,
        money,
        own,
        scenario.usable_tb_per_drive,
        scenario.aggregate.stripe_unit_bytes,
        aged,
    )
