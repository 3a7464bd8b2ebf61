"""From comparing to choosing: the layouts worth considering, the target, the front.

A search space (:class:`SearchSpace`) gives the candidate layouts: mirrors, parity groups
of every size in a range, declustered pools of widths across OpenZFS's range, the pools
right-sized for the need among them (:func:`pool_widths`). Once each is sized and evaluated (the
application layer does that with :func:`planner.core.design.sizing.sized_counts` and
:func:`planner.core.design.risks.layout_risks`), :func:`choose` picks:

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

import bisect
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.arrays.declustered import MAX_CHILDREN, Declustered
from planner.core.arrays.layouts import Layout

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

PARITY_PRESETS = {1: "raid5", 2: "raid6", 3: "raid-tp"}
"""The preset a parity group of k drives is labelled with (``n+k`` beyond)."""


@dataclass(frozen=True)
class SearchSpace:
    """The layouts a recommendation considers.

    Attributes:
        mirrors: RAID 10 (2-way) and 3-way mirrors.
        parities: parity drives per group of the parity layouts (k).
        min_group_size: smallest parity group, parity included.
        max_group_size: largest parity group, parity included.
        declustered: declustered pools (dRAID), one per combination of the three below
            and each parity in ``parities`` up to 3.
        draid_data: data blocks per stripe of the pools.
        draid_children: drives per pool, or None (the default) for widths across the
            whole range, ``d + p + s`` to 255, the right-sized ones included
            (:func:`pool_widths`).
        draid_spares: distributed spares per pool.
    """

    mirrors: bool = True
    parities: tuple[int, ...] = (1, 2, 3)
    min_group_size: int = 3
    max_group_size: int = 30
    declustered: bool = False
    draid_data: tuple[int, ...] = (4, 8, 16)
    draid_children: tuple[int, ...] | None = None
    draid_spares: tuple[int, ...] = (1, 2)


@dataclass(frozen=True)
class PoolNeeds:
    """What the aggregate must hold and serve, to right-size pools.

    Attributes:
        data_drives: drives' worth of data (required TB / usable TB per drive).
        iops_drives: drives' worth of small random IOPS (host IOPS / IOPS per drive); 0
            without a workload.
    """

    data_drives: float
    iops_drives: float = 0.0


POOL_WIDTH_STEP = 1.25
"""Ratio between neighbouring widths of the ladder :func:`pool_widths` searches."""

FAMILIAR_POOL_WIDTHS = (24, 48, 96)
"""Widths always searched when they fit (the former defaults, for comparison)."""

RIGHT_SIZED_POOL_COUNTS = 4
"""How many pool counts :func:`pool_widths` right-sizes a width for: the fewest pools
that can hold the need, and the next three."""

_SLACK = 1e-9
"""Relative slack before rounding up a width (floating-point noise adds no drive)."""


def _ceil(value: float) -> int:
    return math.ceil(value * (1.0 - _SLACK))


def pool_widths(
    parity: int, data: int, spares: int, needs: PoolNeeds | None = None
) -> tuple[int, ...]:
    """The children searched for pools of ``d`` data, ``p`` parity and ``s`` spares.

    A ladder from the narrowest pool, ``d + p + s``, to OpenZFS's 255 in steps of
    :data:`POOL_WIDTH_STEP`, the :data:`FAMILIAR_POOL_WIDTHS` that fit and, given
    ``needs``, the right-sized widths: for ``m`` pools, the fewest children that hold the
    data (``m (C - s) d / (d + p) >= data drives``) and serve the IOPS (``m floor((C - s) /
    (d + p)) >= IOPS drives``), for the fewest ``m`` that fit in 255 children and the next
    :data:`RIGHT_SIZED_POOL_COUNTS` - 1. At most about 25 widths, sorted.
    """
    width = data + parity
    low, high = width + spares, MAX_CHILDREN
    if low > high:
        return ()
    widths = {low, high, *(c for c in FAMILIAR_POOL_WIDTHS if low <= c <= high)}
    step = float(low)
    while step < high:
        widths.add(round(step))
        step *= POOL_WIDTH_STEP
    if needs is not None and (needs.data_drives > 0 or needs.iops_drives > 0):
        per_pool_data = (high - spares) * data / width
        per_pool_iops = (high - spares) // width
        fewest = max(
            1,
            _ceil(needs.data_drives / per_pool_data),
            _ceil(needs.iops_drives / per_pool_iops) if needs.iops_drives > 0 else 1,
        )
        for pools in range(fewest, fewest + RIGHT_SIZED_POOL_COUNTS):
            for_data = spares + _ceil(needs.data_drives * width / (data * pools))
            for_iops = spares + width * _ceil(needs.iops_drives / pools)
            widths.add(min(high, max(low, for_data, for_iops)))
    return tuple(sorted(widths))


@dataclass(frozen=True)
class CandidateCount:
    """How many layouts :func:`candidate_layouts` gives, by kind, counted without them.

    Attributes:
        mirrors: RAID 10 and 3-way mirrors (0 or 2).
        groups: parity groups, every k and size.
        pools: declustered pools whose stripe fits.
    """

    mirrors: int
    groups: int
    pools: int

    @property
    def total(self) -> int:
        """Every candidate."""
        return self.mirrors + self.groups + self.pools


def count_candidates(space: SearchSpace, needs: PoolNeeds | None = None) -> CandidateCount:
    """The size of ``space`` by arithmetic, so that a huge one is refused before it is built.

    Counts what :func:`candidate_layouts` lists: groups of ``max(k + 1, min)`` to ``max``
    drives for each k, and per parity (up to 3), pool width and spare count, the stripe
    widths with ``d + k <= C - s`` (a binary search in the sorted ``draid_data``). Without
    ``space.draid_children`` each stripe shape's :func:`pool_widths` are counted (at most
    about 25 each, so the count stays cheap whatever the lists).
    """
    groups = sum(
        max(0, space.max_group_size - max(k + 1, space.min_group_size) + 1) for k in space.parities
    )
    pools = 0
    if space.declustered:
        data = sorted(space.draid_data)
        for k in (k for k in space.parities if k <= 3):
            if space.draid_children is None:
                for d in data:
                    for spares in space.draid_spares:
                        widths = pool_widths(k, d, spares, needs)
                        pools += sum(1 for c in widths if d + k <= c - spares)
                continue
            for children in space.draid_children:
                for spares in space.draid_spares:
                    pools += bisect.bisect_right(data, children - spares - k)
    return CandidateCount(2 if space.mirrors else 0, groups, pools)


def candidate_layouts(space: SearchSpace, needs: PoolNeeds | None = None) -> list[Layout]:
    """Every layout of ``space``: mirrors, then parity groups by k and size, then pools.

    Parity groups need at least one data drive (N > k); pools whose stripe does not fit
    (``d + p > C - s``) are left out. Without ``space.draid_children`` the pools' widths
    are :func:`pool_widths` (right-sized for ``needs`` when given).
    """
    layouts: list[Layout] = []
    if space.mirrors:
        layouts += [Layout("raid10 2", "raid10", 1, 2), Layout("mirror3 3", "mirror3", 2, 3)]
    for k in space.parities:
        name = PARITY_PRESETS.get(k)
        for size in range(max(k + 1, space.min_group_size), space.max_group_size + 1):
            label = f"{name or f'n+{k}'} {size}"
            layouts.append(Layout(label, name, k, size))
    if space.declustered:
        for k in (k for k in space.parities if k <= 3):
            for data in space.draid_data:
                for spares in space.draid_spares:
                    given = space.draid_children
                    widths = pool_widths(k, data, spares, needs) if given is None else given
                    for children in widths:
                        if data + k > children - spares:
                            continue
                        layouts.append(
                            Layout(
                                f"draid{k}:{data}d:{children}c:{spares}s",
                                f"draid{k}",
                                k,
                                children,
                                Declustered(data, spares),
                            )
                        )
    return layouts


@dataclass(frozen=True)
class Target:
    """What a layout must meet (capacity and IOPS are met by sizing every candidate).

    At least one risk limit: ``max_p_loss``, ``max_p_group_lost`` or both.

    Attributes:
        max_p_loss: largest acceptable P(loss) of the aggregate over the mission, or None.
        max_drives: most drives the aggregate may have, or None.
        max_cost: largest acceptable cost (the ranking's cost), or None.
        max_p_group_lost: largest acceptable P(group lost) of the aggregate over the
            mission (some group loses k + 1 drives at once), or None.
    """

    max_p_loss: float | None
    max_drives: int | None = None
    max_cost: float | None = None
    max_p_group_lost: float | None = None

    def __post_init__(self) -> None:
        if self.max_p_loss is None and self.max_p_group_lost is None:
            raise ValueError("a target needs max_p_loss, max_p_group_lost or both")
        for name in RISK_LIMITS:
            value = getattr(self, name)
            if value is not None and not (0.0 < value < 1.0):
                raise ValueError(f"{name} must be in (0, 1), got {value!r}")

    @property
    def risk_limits(self) -> tuple[str, ...]:
        """The risk limits given, in ranking order: ``max_p_group_lost`` first."""
        return tuple(name for name in RISK_LIMITS if getattr(self, name) is not None)


RISK_LIMITS = ("max_p_group_lost", "max_p_loss")
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
) -> list[Miss]:
    """The targets one candidate misses (empty when it meets them all).

    ``cost`` is None when the ranking has no money (``max_cost`` is then not checked here;
    the application layer refuses a budget without prices). ``p_group_lost`` is needed
    when the target limits it.
    """
    found: list[Miss] = []
    risks = {"max_p_loss": p_loss, "max_p_group_lost": p_group_lost}
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
) -> Choice:
    """Rank the candidates against ``target`` (see the module docstring).

    Args:
        target: the limits.
        cost: what the ranking minimises, per candidate (money, or drives).
        p_loss: P(loss) of each candidate's aggregate over the mission.
        drives: drives of each candidate's aggregate.
        money: whether ``cost`` is money (``target.max_cost`` applies to it).
        p_group_lost: P(group lost) of each candidate's aggregate over the mission;
            needed when the target limits it.
    """
    costs = np.asarray(cost, dtype=np.float64)
    counts = np.asarray(drives, dtype=np.float64)
    figures = {"max_p_loss": p_loss, "max_p_group_lost": p_group_lost}
    if any(figures[name] is None for name in target.risk_limits):
        raise ValueError("the target limits P(group lost): p_group_lost is needed")
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
