"""What NS3574's chain leaves out for long critical rebuilds, said as a bound where it matters.

The chain lets a latent defect appear only while a group keeps some redundancy (docs/models.md):
one that arises on a surviving drive during a critical rebuild (k drives down) is never
counted. With 20 TB drives rebuilt in 77 h that is not negligible: a newcomer found RAID 10's
P(loss) unmoved by a rebuild five times slower, where a mirror's survivor meets defects for
the whole rebuild. :func:`planner.core.markov.methods.p_loss_critical_defects` counts every
such defect as a loss, which overcounts (a defect behind the rebuild's read is never met):
the truth lies between the table and it. When some layout's bound is
:data:`BOUND_NOTED` times its P(loss) or more, a note gives every layout's bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from planner.analysis.spec_sheet_reading import LayoutReading, group_p_loss
from planner.core.arrays.layouts import Layout
from planner.core.design.layout_comparison import LayoutResult
from planner.core.markov.aggregate import p_loss_aggregate_batch
from planner.core.markov.methods import p_loss_critical_defects
from planner.core.markov.rates import Rates
from planner.core.markov.transient import relative_risk
from planner.scenario import Scenario


class SearchedLayout(Protocol):
    """What :func:`candidate_bound` reads of ``planner recommend``'s candidate."""

    @property
    def layout(self) -> Layout: ...
    @property
    def groups(self) -> int: ...
    @property
    def p_loss_aggregate(self) -> float: ...
    @property
    def latent_defects_per_hour(self) -> float | None: ...


__all__ = ["BOUND_NOTED", "CriticalDefectsBound", "candidate_bound", "critical_defects_bound"]

BOUND_NOTED = 1.1
"""How many times the table's P(loss) of one group the bound must reach to be said."""


@dataclass(frozen=True)
class CriticalDefectsBound:
    """Every layout's P(loss) with each defect of a critical rebuild counted as a loss.

    Attributes:
        readings: one per layout, in the table's order (the bound, its aggregate, and its
            ratio to the table's P(loss) of one group).
        latent_defects_per_hour: the rate a surviving drive meets new defects (1/h).
        per_data_drive: that rate is a data drive's share of the workload's reads, which
            each layout's chain spreads over its groups' drives (``Layout.data_share``).
    """

    readings: tuple[LayoutReading, ...]
    latent_defects_per_hour: float
    per_data_drive: bool = False

    def over(self, p_loss_limit: float) -> bool:
        """Whether some layout's bound is over ``p_loss_limit``."""
        return any(r.p_loss_aggregate > p_loss_limit for r in self.readings)


def critical_defects_bound(
    scenario: Scenario, results: Sequence[LayoutResult]
) -> CriticalDefectsBound | None:
    """The bound of each result, when some layout's is :data:`BOUND_NOTED` x its P(loss)."""
    rates = scenario.rates()
    if rates.latent_defects_per_hour <= 0:
        return None
    mission = scenario.mission_hours
    readings = [
        _reading(rates, mission, r.layout, float(r.shape.groups), r.p_loss_group, spread)
        for r in results
        for spread in [rates.defects_per_data_drive]
    ]
    if not any(r.ratio >= BOUND_NOTED for r in readings):
        return None
    return CriticalDefectsBound(
        tuple(readings), rates.latent_defects_per_hour, rates.defects_per_data_drive
    )


def candidate_bound(
    scenario: Scenario, candidate: SearchedLayout, p_loss_limit: float | None
) -> CriticalDefectsBound | None:
    """The bound of one searched candidate (``planner recommend``'s choice), when it matters.

    It matters when it is :data:`BOUND_NOTED` x the candidate's P(loss) or more, or when it
    is over ``p_loss_limit`` (the target's largest P(loss)) that the candidate meets: then
    the truth, somewhere between the two, may miss the target. The candidate's own
    latent-defect rate (its data drives' reads) is the one its figures were taken at.
    """
    spread = scenario.rates().defects_per_data_drive  # the candidate's rate is its mean
    rates = scenario.rates().with_latent_defects(candidate.latent_defects_per_hour)
    if rates.latent_defects_per_hour <= 0:
        return None
    groups = candidate.groups
    p_group = group_p_loss(candidate.p_loss_aggregate, groups)
    reading = _reading(rates, scenario.mission_hours, candidate.layout, groups, p_group, spread)
    crosses = p_loss_limit is not None and reading.p_loss_aggregate > p_loss_limit
    if reading.ratio < BOUND_NOTED and not crosses:
        return None
    return CriticalDefectsBound((reading,), rates.latent_defects_per_hour)


def _reading(
    rates: Rates,
    mission_hours: float,
    layout: Layout,
    groups: float,
    p_loss_group: float,
    reads_on_survivors: bool,
) -> LayoutReading:
    """``layout``'s bound beside the table's P(loss) of one group, ``p_loss_group``.

    ``reads_on_survivors``: the rate is a workload's reads, which the survivors of a
    critical rebuild carry all of (:func:`~planner.core.markov.methods.critical_defects_generator`).
    """
    chain = layout.chain_rates(rates, round(groups))  # the groups share the hot spares
    p_group = p_loss_critical_defects(
        layout.parity,
        layout.group_size,
        chain,
        mission_hours,
        reads_on_survivors=reads_on_survivors,
    )
    return LayoutReading(
        layout.label,
        p_group,
        float(p_loss_aggregate_batch(p_group, groups)),
        relative_risk(p_group, p_loss_group),
    )
