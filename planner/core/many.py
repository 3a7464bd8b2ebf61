"""Risk of many layouts at once: one batched evaluation per parity and rebuild streams.

The sweep (:func:`planner.core.sweep.sweep`) and the recommendation search
(:mod:`planner.core.recommend`) evaluate thousands of layouts, each with its own rates,
mission and group count. Grouping them by parity (and rebuild streams), the chain's shape,
gives one :func:`~planner.core.batch.p_loss_group_batch` call per shape. Each layout runs
on its own chain rates (:meth:`planner.core.layouts.Layout.chain_rates`: a declustered pool
rebuilds faster).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.aggregate import loss_split_aggregate, p_loss_aggregate_batch
from planner.core.batch import loss_split_batch, p_loss_group_batch
from planner.core.layouts import Layout
from planner.core.rates import Rates

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class LayoutRisks:
    """P(loss) of many layouts and what is lost, one array element per layout (in order).

    ``p_group_lost + p_sectors_lost = p_loss_group``, and the same for the aggregate
    (:func:`planner.core.aggregate.loss_split_aggregate`).
    """

    p_loss_group: FloatArray
    p_loss_aggregate: FloatArray
    p_group_lost: FloatArray
    p_sectors_lost: FloatArray
    p_group_lost_aggregate: FloatArray
    p_sectors_lost_aggregate: FloatArray


def layout_risks(
    layouts: Sequence[Layout],
    rates: Sequence[Rates],
    mission_hours: Sequence[float],
    groups: Sequence[int] | npt.NDArray[np.int64],
) -> LayoutRisks:
    """P(loss) per group and per aggregate of each layout under its own rates and mission.

    Args:
        layouts: the layouts (a declustered pool's rates are adjusted here).
        rates: the scenario rates of each layout (before :meth:`Layout.chain_rates`).
        mission_hours: the mission of each layout (h).
        groups: groups in each layout's aggregate.
    """
    count = len(layouts)
    if not (len(rates) == len(mission_hours) == len(groups) == count):
        raise ValueError("layouts, rates, mission_hours and groups must have the same length")
    chain = [layout.chain_rates(r) for layout, r in zip(layouts, rates, strict=True)]
    parity = np.array([layout.parity for layout in layouts], dtype=np.int64)
    drives = np.array([layout.group_size for layout in layouts], dtype=np.int64)
    group_counts = np.asarray(groups, dtype=np.int64)
    p_group = np.empty(count)
    p_lost = np.empty(count)
    p_sectors = np.empty(count)
    streams = [r.rebuild_streams for r in chain]
    for k, stream in sorted({(int(k), s) for k, s in zip(parity, streams, strict=True)}, key=str):
        pick = np.flatnonzero((parity == k) & np.array([s == stream for s in streams]))
        picked = [chain[i] for i in pick]
        arguments = (
            drives[pick],
            [r.op_failures_per_hour for r in picked],
            [r.latent_defects_per_hour for r in picked],
            [r.rebuild_hours for r in picked],
            [r.scrub_hours for r in picked],
            [float(mission_hours[int(i)]) for i in pick],
        )
        p_group[pick] = p_loss_group_batch(k, *arguments, rebuild_streams=stream)
        if p_lost is not None and p_sectors is not None:
            p_lost[pick], p_sectors[pick] = loss_split_batch(k, *arguments, rebuild_streams=stream)
    p_aggregate = p_loss_aggregate_batch(p_group, group_counts)
    if p_lost is None or p_sectors is None:
        return LayoutRisks(p_group, p_aggregate)
    splits = np.array(
        [
            loss_split_aggregate(float(pl), float(ps), int(g))
            for pl, ps, g in zip(p_lost, p_sectors, group_counts, strict=True)
        ]
    ).reshape(count, 2)
    return LayoutRisks(p_group, p_aggregate, p_lost, p_sectors, splits[:, 0], splits[:, 1])
