"""From comparing to choosing: the target, the Pareto front, the pick.

The candidates (:mod:`planner.core.design.candidates`) are sized and evaluated by the
application layer (:func:`planner.core.design.drive_counts.sized_counts`,
:func:`planner.core.design.risks.layout_risks`); then :func:`choose` picks:

* the candidates that meet the :class:`Target`, cheapest first (ties: lower risk);
* the Pareto front of cost against the risk the target limits (P(loss), P(group lost), or
  both) over every candidate: those no other candidate beats on all (no cheaper-or-equal
  one with a lower-or-equal risk, one of them strictly);
* for the top choice, the nearest cheaper candidate, the next point down the front (the
  dearest front candidate that costs less), and the targets it misses;
* when nothing meets the target, the closest candidate: the one needing the smallest
  relaxation, measured as its largest ``value / limit`` over the targets it misses.

"Cost" is whatever the caller ranks by: the total cost of ownership when the scenario has
prices, else the drive count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Target:
    """What a layout must meet (capacity and IOPS are met by sizing every candidate).

    At least one risk limit: ``max_p_loss``, ``max_p_group_lost``, ``max_p_unavailable``.

    Attributes:
        max_p_loss: largest acceptable P(loss) of the aggregate over the mission, or None.
        max_drives: most drives the aggregate may have, or None.
        max_cost: largest acceptable cost (the ranking's cost), or None.
        max_p_group_lost: largest acceptable P(group lost) of the aggregate over the
            mission (some group loses k + 1 drives at once), or None.
        max_p_unavailable: largest acceptable P(unavailable) of the aggregate over the
            mission (some group stops serving: an enclosure outage beyond its parity, or a
            loss; docs/domains.md), or None.
    """

    max_p_loss: float | None
    max_drives: int | None = None
    max_cost: float | None = None
    max_p_group_lost: float | None = None
    max_p_unavailable: float | None = None

    def __post_init__(self) -> None:
        if all(getattr(self, name) is None for name in RISK_LIMITS):
            raise ValueError("a target needs max_p_loss, max_p_group_lost or max_p_unavailable")
        for name in RISK_LIMITS:
            value = getattr(self, name)
            if value is not None and not (0.0 < value < 1.0):
                raise ValueError(f"{name} must be in (0, 1), got {value!r}")

    @property
    def risk_limits(self) -> tuple[str, ...]:
        """The risk limits given, in ranking order: ``max_p_group_lost`` first."""
        return tuple(name for name in RISK_LIMITS if getattr(self, name) is not None)


RISK_LIMITS = ("max_p_group_lost", "max_p_loss", "max_p_unavailable")
"""A target's risk limits, in the order ties are broken and the front is described."""


@dataclass(frozen=True)
class Miss:
    """One target a candidate misses: what, its value and the limit."""

    target: str
    value: float
    limit: float

    @property
    def ratio(self) -> float:
        """How far over the limit: ``value / limit`` (> 1)."""
        return self.value / self.limit


def misses(
    target: Target,
    p_loss: float,
    drives: float,
    cost: float | None,
    p_group_lost: float | None = None,
    p_unavailable: float | None = None,
) -> list[Miss]:
    """The targets one candidate misses (empty when it meets them all).

    ``cost`` is None when the ranking has no money (``max_cost`` is then not checked here;
    the application layer refuses a budget without prices). ``p_group_lost`` and
    ``p_unavailable`` are needed when the target limits them.
    """
    found: list[Miss] = []
    risks = {
        "max_p_loss": p_loss,
        "max_p_group_lost": p_group_lost,
        "max_p_unavailable": p_unavailable,
    }
    for name in target.risk_limits:
        value, limit = risks[name], getattr(target, name)
        if value is None:
            raise ValueError(f"the target limits {name}: its figure is needed")
        if value > limit:
            found.append(Miss(name, value, limit))
    if target.max_drives is not None and drives > target.max_drives:
        found.append(Miss("max_drives", drives, target.max_drives))
    if target.max_cost is not None and cost is not None and cost > target.max_cost:
        found.append(Miss("max_cost", cost, target.max_cost))
    return found


def pareto_front(cost: npt.ArrayLike, p_loss: npt.ArrayLike, *more: npt.ArrayLike) -> IntArray:
    """Indices of the candidates no other beats on cost and every risk, cheapest first.

    A candidate is dominated when another costs no more and loses data no more often, and
    is strictly better on one of them. Candidates equal on all are all kept. ``more`` are
    further risks (P(group lost) beside P(loss)); the order is by cost, then the risks.
    """
    costs = np.asarray(cost, dtype=np.float64)
    risks = np.asarray(p_loss, dtype=np.float64)
    if more:
        return _front_of_many(costs, [risks, *(np.asarray(m, dtype=np.float64) for m in more)])
    order = np.lexsort((risks, costs))  # by cost, then P(loss)
    front: list[int] = []
    best = math.inf  # lowest P(loss) among strictly cheaper candidates
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and costs[order[end]] == costs[order[start]]:
            end += 1
        lowest = risks[order[start]]  # the group's lowest P(loss): sorted within the group
        if lowest < best:
            front += [int(i) for i in order[start:end] if risks[i] == lowest]
            best = lowest
        start = end
    return np.array(front, dtype=np.int64)


def _front_of_many(costs: FloatArray, risks: list[FloatArray]) -> IntArray:
    """:func:`pareto_front` over cost and several risks: each candidate against all others."""
    values = np.stack([costs, *risks])  # (1 + risks, n)
    order = np.lexsort(values[::-1])  # by cost, then each risk in turn
    front = []
    for i in order:
        no_worse = np.all(values <= values[:, i : i + 1], axis=0)
        better = np.any(values < values[:, i : i + 1], axis=0)
        if not np.any(no_worse & better):
            front.append(int(i))
    return np.array(front, dtype=np.int64)


@dataclass(frozen=True)
class Choice:
    """What :func:`choose` picked (indices into the candidates).

    Attributes:
        meeting: candidates that meet the target, cheapest first (ties: lower risk, the
            target's risks in the order of :data:`RISK_LIMITS`).
        front: the Pareto front of cost against the target's risks, cheapest first.
        top: the cheapest candidate meeting the target, or None.
        nearest_cheaper: the dearest front candidate cheaper than ``top`` (ties: lower
            risk), or None when none is cheaper.
        closest: when nothing meets the target, the candidate with the smallest
            largest ``value / limit`` over what it misses; else None.
    """

    meeting: IntArray
    front: IntArray
    top: int | None
    nearest_cheaper: int | None
    closest: int | None


def choose(
    target: Target,
    cost: npt.ArrayLike,
    p_loss: npt.ArrayLike,
    drives: npt.ArrayLike,
    money: bool,
    p_group_lost: npt.ArrayLike | None = None,
    p_unavailable: npt.ArrayLike | None = None,
) -> Choice:
    """Rank the candidates against ``target`` (see the module docstring).

    Args:
        target: the limits.
        cost: what the ranking minimises, per candidate (money, or drives).
        p_loss: P(loss) of each candidate's aggregate over the mission.
        drives: drives of each candidate's aggregate.
        money: whether ``cost`` is money (``target.max_cost`` applies to it).
        p_group_lost: P(group lost) of each candidate's aggregate over the mission, and
        p_unavailable: P(unavailable) (docs/domains.md): each needed when the target limits it.
    """
    costs = np.asarray(cost, dtype=np.float64)
    counts = np.asarray(drives, dtype=np.float64)
    figures = {
        "max_p_loss": p_loss,
        "max_p_group_lost": p_group_lost,
        "max_p_unavailable": p_unavailable,
    }
    missing = [name for name in target.risk_limits if figures[name] is None]
    if missing:
        raise ValueError(f"the target limits {missing[0]}: its figure is needed")
    risks = [np.asarray(figures[name], dtype=np.float64) for name in target.risk_limits]
    limits = [float(getattr(target, name)) for name in target.risk_limits]
    if any(r.shape != costs.shape for r in risks) or costs.shape != counts.shape:
        raise ValueError("cost, the risks and drives must be 1-d arrays of the same length")
    if costs.ndim != 1:
        raise ValueError("cost, the risks and drives must be 1-d arrays of the same length")
    ok = np.ones(costs.shape, dtype=bool)
    for risk, limit in zip(risks, limits, strict=True):
        ok &= risk <= limit
    if target.max_drives is not None:
        ok &= counts <= target.max_drives
    if target.max_cost is not None and money:
        ok &= costs <= target.max_cost
    meeting_all = np.flatnonzero(ok)
    keys = [r[meeting_all] for r in reversed(risks)]
    meeting = meeting_all[np.lexsort((*keys, costs[meeting_all]))]
    front = pareto_front(costs, *risks)
    if len(meeting) == 0:
        closest = _closest(target, costs, risks, limits, counts, money)
        return Choice(meeting, front, None, None, closest)
    top = int(meeting[0])
    # the next point down the front: the dearest front candidate cheaper than the top one
    # (a cheaper candidate off the front is beaten on all by one of these)
    cheaper = front[costs[front] < costs[top]]
    nearest = None
    if len(cheaper):
        keys = [r[cheaper] for r in reversed(risks)]
        nearest = int(cheaper[np.lexsort((*keys, -costs[cheaper]))[0]])
    return Choice(meeting, front, top, nearest, None)


def _closest(
    target: Target,
    costs: FloatArray,
    risks: list[FloatArray],
    limits: list[float],
    counts: FloatArray,
    money: bool,
) -> int | None:
    if len(costs) == 0:
        return None
    worst = np.max([risk / limit for risk, limit in zip(risks, limits, strict=True)], axis=0)
    if target.max_drives is not None:
        worst = np.maximum(worst, counts / target.max_drives)
    if target.max_cost is not None and money:
        worst = np.maximum(worst, costs / target.max_cost)
    return int(np.lexsort((costs, worst))[0])
