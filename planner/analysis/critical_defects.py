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

from planner.analysis.spec_sheet_reading import LayoutReading
from planner.core.arrays.layouts import LayoutResult
from planner.core.markov.aggregate import p_loss_aggregate_batch
from planner.core.markov.methods import p_loss_critical_defects
from planner.core.markov.transient import relative_risk
from planner.scenario import Scenario

__all__ = ["BOUND_NOTED", "CriticalDefectsBound", "critical_defects_bound"]

BOUND_NOTED = 1.1
"""How many times the table's P(loss) of one group the bound must reach to be said."""


@dataclass(frozen=True)
class CriticalDefectsBound:
    """Every layout's P(loss) with each defect of a critical rebuild counted as a loss.

    Attributes:
        readings: one per layout, in the table's order (the bound, its aggregate, and its
            ratio to the table's P(loss) of one group).
        latent_defects_per_hour: the rate a surviving drive meets new defects (1/h).
    """

    readings: tuple[LayoutReading, ...]
    latent_defects_per_hour: float


def critical_defects_bound(
    scenario: Scenario, results: Sequence[LayoutResult]
) -> CriticalDefectsBound | None:
    """The bound of each result, when some layout's is :data:`BOUND_NOTED` x its P(loss)."""
    rates = scenario.rates()
    if rates.latent_defects_per_hour <= 0:
        return None
    readings = []
    for result in results:
        layout = result.layout
        p_group = p_loss_critical_defects(
            layout.parity, layout.group_size, layout.chain_rates(rates), scenario.mission_hours
        )
        readings.append(
            LayoutReading(
                layout.label,
                p_group,
                float(p_loss_aggregate_batch(p_group, float(result.shape.groups))),
                relative_risk(p_group, result.p_loss_group),
            )
        )
    if not any(r.ratio >= BOUND_NOTED for r in readings):
        return None
    return CriticalDefectsBound(tuple(readings), rates.latent_defects_per_hour)
