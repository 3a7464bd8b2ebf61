"""Risk of many layouts at once: one batched evaluation per parity and rebuild streams.

The sweep (:func:`planner.core.design.sweep.sweep`) and the recommendation search
(:mod:`planner.core.design.recommend`) evaluate thousands of layouts, each with its own rates,
mission and group count. Grouping them by parity (and rebuild streams), the chain's shape,
gives one :func:`~planner.core.markov.loss_figures.loss_figures_batch` call per shape. Each layout
runs
on its own chain rates (:meth:`planner.core.arrays.layouts.Layout.chain_rates`: a declustered pool
rebuilds faster).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.arrays.layouts import Layout
from planner.core.markov.aggregate import p_loss_aggregate_batch
from planner.core.markov.loss_figures import loss_figures_batch
from planner.core.markov.rates import Rates

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class LayoutRisks:
    """P(loss) of many layouts and what is lost, one array element per layout (in order).

    The figures of :mod:`planner.core.markov.loss_figures` (they do not sum to P(loss)); each
    aggregate probability is ``1 - (1 - p)^groups``, the aggregate's expected sector-loss
    events ``groups`` x one group's.
    """

    p_loss_group: FloatArray
    p_loss_aggregate: FloatArray
    p_group_lost: FloatArray
    p_sectors_lost: FloatArray
    p_group_lost_aggregate: FloatArray
    p_sectors_lost_aggregate: FloatArray
    expected_sector_loss_events_group: FloatArray
    expected_sector_loss_events: FloatArray


def layout_risks(
    layouts: Sequence[Layout],
    rates: Sequence[Rates],
    mission_hours: Sequence[float],
    groups: Sequence[int] | npt.NDArray[np.int64],
    *,
    sectors_fail_rebuild: bool = False,
) -> LayoutRisks:
    """P(loss) per group and per aggregate of each layout under its own rates and mission.

    Args:
        layouts: the layouts (a declustered pool's rates are adjusted here).
        rates: the scenario rates of each layout (before :meth:`Layout.chain_rates`).
        mission_hours: the mission of each layout (h).
        groups: groups in each layout's aggregate.
        sectors_fail_rebuild: ``restore.on_unreadable_sector: fail-rebuild``: every loss
            ends the group (P(group lost) = P(loss), no sector losses).
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
    events = np.empty(count)
    streams = [r.rebuild_streams for r in chain]
    for k, stream in sorted({(int(k), s) for k, s in zip(parity, streams, strict=True)}, key=str):
        pick = np.flatnonzero((parity == k) & np.array([s == stream for s in streams]))
        picked = [chain[i] for i in pick]
        p_group[pick], p_lost[pick], p_sectors[pick], events[pick] = loss_figures_batch(
            k,
            drives[pick],
            [r.op_failures_per_hour for r in picked],
            [r.latent_defects_per_hour for r in picked],
            [r.rebuild_hours for r in picked],
            [r.scrub_hours for r in picked],
            [float(mission_hours[int(i)]) for i in pick],
            rebuild_streams=stream,
            defect_stripe_share=[r.defect_stripe_share for r in picked],
        )
    if sectors_fail_rebuild:
        p_lost, p_sectors, events = p_group, np.zeros(count), np.zeros(count)
    return LayoutRisks(
        p_loss_group=p_group,
        p_loss_aggregate=p_loss_aggregate_batch(p_group, group_counts),
        p_group_lost=p_lost,
        p_sectors_lost=p_sectors,
        p_group_lost_aggregate=p_loss_aggregate_batch(p_lost, group_counts),
        p_sectors_lost_aggregate=p_loss_aggregate_batch(p_sectors, group_counts),
        expected_sector_loss_events_group=events,
        expected_sector_loss_events=events * group_counts,
    )
