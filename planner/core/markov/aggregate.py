"""From one RAID group to the aggregate: the aggregate's risk from its groups'.

NS3574 "Probability of data loss" (Tables 2 to 4): an aggregate of ``data_disks`` data
drives in groups of ``N`` drives, ``k`` of them parity, needs ``ceil(data_disks / (N - k))``
groups, and it loses data when any group does: ``R_aggregate = R_group ** groups``. The
second rule lives here and every module that needs it calls these functions. The first
needs the layout (a declustered pool holds ``(C - s) d / (d + p)`` drives of data, not always
a whole number), so it is :func:`planner.core.arrays.layouts.aggregate_shape`'s.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def p_loss_aggregate_batch(p_group: npt.ArrayLike, groups: npt.ArrayLike) -> FloatArray:
    """Probability that at least one of ``groups`` independent groups loses data.

    NS3574: R_aggregate = R_group ** groups, so ``P = 1 - (1 - p)^g``, computed as
    ``-expm1(g log1p(-p))`` so that a 1e-15 group probability is not rounded away
    (``1 - (1 - 1e-15)^6`` in floating point loses about 10 % of it); 1 where ``p >= 1``.
    Arrays broadcast together.
    """
    p = np.asarray(p_group, dtype=np.float64)
    g = np.asarray(groups, dtype=np.float64)
    if np.any(g < 1):
        raise ValueError(f"an aggregate needs at least one group, got {np.min(g):g}")
    with np.errstate(divide="ignore"):
        aggregate = -np.expm1(g * np.log1p(-np.minimum(p, 1.0)))
    result: FloatArray = np.where(p >= 1.0, 1.0, aggregate) + 0.0  # no -0.0 at p = 0
    return result


def p_loss_any(p_losses: npt.ArrayLike) -> float:
    """Probability that at least one of several independent systems loses data.

    The rule of :func:`p_loss_aggregate_batch` for unequal parts (a plan's tiers, each an
    aggregate with its own P(loss) over the same mission): ``1 - prod(1 - p_i)``, computed
    as ``-expm1(sum(log1p(-p_i)))`` so that tiers of 1e-12 add up rather than round away;
    1 when some ``p_i >= 1``, 0 for no parts.
    """
    p = np.asarray(p_losses, dtype=np.float64).ravel()
    if np.any(p < 0) or np.any(np.isnan(p)):
        raise ValueError("probabilities must be in [0, 1]")
    if np.any(p >= 1.0):
        return 1.0
    if not p.size:
        return 0.0
    # log1p and expm1 round: one part of 0.25 beside tiny ones gave 0.24999999999999997.
    # The plan loses data whenever its riskiest part does, so never less than that part.
    return max(float(-np.expm1(np.sum(np.log1p(-p)))), float(p.max()))


def p_loss_aggregate(p_group: float, groups: int) -> float:
    """:func:`p_loss_aggregate_batch` for one aggregate: ``1 - (1 - p)^groups``."""
    return float(p_loss_aggregate_batch(p_group, groups))


def aggregate_per_group_elasticity(p_group: float, groups: int) -> float:
    """``d ln P_aggregate / d ln P_group = g p (1 - p)^(g - 1) / P_aggregate`` (-> 1 as p -> 0).

    NaN when the aggregate cannot lose data, 0 when a group surely does.
    """
    p_aggregate = p_loss_aggregate(p_group, groups)
    if p_aggregate == 0.0:
        return math.nan
    if p_group >= 1.0:
        return 0.0
    return groups * p_group * math.exp((groups - 1) * math.log1p(-p_group)) / p_aggregate


def aggregate_groups_elasticity(p_group: float, groups: int) -> float:
    """``d ln P_aggregate / d ln g = g (-ln(1 - p)) (1 - P_aggregate) / P_aggregate``.

    The number of groups taken as continuous (-> 1 as p -> 0). NaN when the aggregate
    cannot lose data, 0 when a group surely does.
    """
    p_aggregate = p_loss_aggregate(p_group, groups)
    if p_aggregate == 0.0:
        return math.nan
    if p_group >= 1.0:
        return 0.0
    return groups * -math.log1p(-p_group) * (1.0 - p_aggregate) / p_aggregate
