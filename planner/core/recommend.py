"""From comparing to choosing: the layouts worth considering, the target, the front.

A search space (:class:`SearchSpace`) gives the candidate layouts: mirrors, parity groups
of every size in a range, declustered pools. Once each is sized and evaluated (the
application layer does that with :func:`planner.core.sizing.sized_counts` and
:func:`planner.core.many.layout_risks`), :func:`choose` picks:

* the candidates that meet the :class:`Target`, cheapest first (ties: lower P(loss));
* the Pareto front of cost against P(loss) over every candidate: those no other candidate
  beats on both (no cheaper-or-equal one with a lower-or-equal P(loss), one of the two
  strictly);
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

from planner.core.declustered import Declustered
from planner.core.layouts import Layout

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
        draid_children: drives per pool.
        draid_spares: distributed spares per pool.
    """

    mirrors: bool = True
    parities: tuple[int, ...] = (1, 2, 3)
    min_group_size: int = 3
    max_group_size: int = 30
    declustered: bool = False
    draid_data: tuple[int, ...] = (4, 8, 16)
    draid_children: tuple[int, ...] = (24, 48, 96)
    draid_spares: tuple[int, ...] = (1, 2)


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


def count_candidates(space: SearchSpace) -> CandidateCount:
    """The size of ``space`` by arithmetic, so that a huge one is refused before it is built.

    Counts what :func:`candidate_layouts` lists: groups of ``max(k + 1, min)`` to ``max``
    drives for each k, and per parity (up to 3), pool width and spare count, the stripe
    widths with ``d + k <= C - s`` (a binary search in the sorted ``draid_data``).
    """
    groups = sum(
        max(0, space.max_group_size - max(k + 1, space.min_group_size) + 1) for k in space.parities
    )
    pools = 0
    if space.declustered:
        data = sorted(space.draid_data)
        for k in (k for k in space.parities if k <= 3):
            for children in space.draid_children:
                for spares in space.draid_spares:
                    pools += bisect.bisect_right(data, children - spares - k)
    return CandidateCount(2 if space.mirrors else 0, groups, pools)


def candidate_layouts(space: SearchSpace) -> list[Layout]:
    """Every layout of ``space``: mirrors, then parity groups by k and size, then pools.

    Parity groups need at least one data drive (N > k); pools whose stripe does not fit
    (``d + p > C - s``) are left out.
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
            for children in space.draid_children:
                for data in space.draid_data:
                    for spares in space.draid_spares:
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

    Attributes:
        max_p_loss: largest acceptable P(loss) of the aggregate over the mission.
        max_drives: most drives the aggregate may have, or None.
        max_cost: largest acceptable cost (the ranking's cost), or None.
    """

    max_p_loss: float
    max_drives: int | None = None
    max_cost: float | None = None

    def __post_init__(self) -> None:
        if not (0.0 < self.max_p_loss < 1.0):
            raise ValueError(f"max_p_loss must be in (0, 1), got {self.max_p_loss!r}")


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


def misses(target: Target, p_loss: float, drives: float, cost: float | None) -> list[Miss]:
    """The targets one candidate misses (empty when it meets them all).

    ``cost`` is None when the ranking has no money (``max_cost`` is then not checked here;
    the application layer refuses a budget without prices).
    """
    found: list[Miss] = []
    if p_loss > target.max_p_loss:
        found.append(Miss("max_p_loss", p_loss, target.max_p_loss))
    if target.max_drives is not None and drives > target.max_drives:
        found.append(Miss("max_drives", drives, target.max_drives))
    if target.max_cost is not None and cost is not None and cost > target.max_cost:
        found.append(Miss("max_cost", cost, target.max_cost))
    return found


def pareto_front(cost: npt.ArrayLike, p_loss: npt.ArrayLike) -> IntArray:
    """Indices of the candidates no other beats on both cost and P(loss), cheapest first.

    A candidate is dominated when another costs no more and loses data no more often, and
    is strictly better on one of the two. Candidates equal on both are all kept.
    """
    costs = np.asarray(cost, dtype=np.float64)
    risks = np.asarray(p_loss, dtype=np.float64)
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


@dataclass(frozen=True)
class Choice:
    """What :func:`choose` picked (indices into the candidates).

    Attributes:
        meeting: candidates that meet the target, cheapest first (ties: lower P(loss)).
        front: the Pareto front of cost against P(loss), cheapest first.
        top: the cheapest candidate meeting the target, or None.
        nearest_cheaper: the dearest front candidate cheaper than ``top`` (ties: lower
            P(loss)), or None when none is cheaper.
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
) -> Choice:
    """Rank the candidates against ``target`` (see the module docstring).

    Args:
        target: the limits.
        cost: what the ranking minimises, per candidate (money, or drives).
        p_loss: P(loss) of each candidate's aggregate over the mission.
        drives: drives of each candidate's aggregate.
        money: whether ``cost`` is money (``target.max_cost`` applies to it).
    """
    costs = np.asarray(cost, dtype=np.float64)
    risks = np.asarray(p_loss, dtype=np.float64)
    counts = np.asarray(drives, dtype=np.float64)
    if not (costs.shape == risks.shape == counts.shape) or costs.ndim != 1:
        raise ValueError("cost, p_loss and drives must be 1-d arrays of the same length")
    ok = risks <= target.max_p_loss
    if target.max_drives is not None:
        ok &= counts <= target.max_drives
    if target.max_cost is not None and money:
        ok &= costs <= target.max_cost
    meeting_all = np.flatnonzero(ok)
    meeting = meeting_all[np.lexsort((risks[meeting_all], costs[meeting_all]))]
    front = pareto_front(costs, risks)
    if len(meeting) == 0:
        return Choice(meeting, front, None, None, _closest(target, costs, risks, counts, money))
    top = int(meeting[0])
    # the next point down the front: the dearest front candidate cheaper than the top one
    # (a cheaper candidate off the front is beaten on both by one of these)
    cheaper = front[costs[front] < costs[top]]
    nearest = None
    if len(cheaper):
        nearest = int(cheaper[np.lexsort((risks[cheaper], -costs[cheaper]))[0]])
    return Choice(meeting, front, top, nearest, None)


def _closest(
    target: Target, costs: FloatArray, risks: FloatArray, counts: FloatArray, money: bool
) -> int | None:
    if len(costs) == 0:
        return None
    worst = risks / target.max_p_loss
    if target.max_drives is not None:
        worst = np.maximum(worst, counts / target.max_drives)
    if target.max_cost is not None and money:
        worst = np.maximum(worst, costs / target.max_cost)
    return int(np.lexsort((costs, worst))[0])
