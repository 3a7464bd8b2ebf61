"""Compare RAID layouts for one aggregate: disks each costs and the risk each carries.

NS3574 "Probability of data loss": an aggregate of g RAID groups loses data when any
group does, so R_aggregate = R_group ** g (Tables 2 to 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from planner.core.aggregate import group_count, loss_split_aggregate, p_loss_aggregate
from planner.core.evaluate import (
    loss_split,
    losses_per_10k_groups,
    mttdl_hours,
    p_loss_group,
    relative_risk,
)
from planner.core.rates import Rates

UnreadableSector = Literal["lose-sectors", "fail-rebuild"]
"""What an unreadable sector met during a critical rebuild does: lose the stripes under it
(the default), or fail the rebuild and so lose the group (ceph-tools' choice)."""


@dataclass(frozen=True)
class Layout:
    """One way to lay out the aggregate.

    Groups of ``group_size`` drives, ``parity`` of them redundancy. ``raid`` is the preset
    name, or None for a plain ``parity: k`` layout.
    """

    label: str
    raid: str | None
    parity: int
    group_size: int

    def __post_init__(self) -> None:
        if self.parity < 1:
            raise ValueError(f"{self.label}: parity must be at least 1, got {self.parity}")
        if self.group_size <= self.parity:
            raise ValueError(
                f"{self.label}: a group of {self.group_size} drives cannot hold "
                f"{self.parity} parity drives"
            )

    @property
    def data_disks_per_group(self) -> int:
        """Data drives per group, n = N - k."""
        return self.group_size - self.parity


@dataclass(frozen=True)
class AggregateShape:
    """How a layout fills an aggregate of ``data_disks`` data drives."""

    groups: int
    total_disks: int
    overhead_disks: int
    exact_division: bool


def aggregate_shape(layout: Layout, data_disks: int) -> AggregateShape:
    """Groups = ceil(data_disks / n); overhead = groups x k parity drives (Tables 2 and 3).

    When n does not divide ``data_disks`` the last group is full anyway, so the aggregate
    holds more data drives than asked for; ``exact_division`` says so.
    """
    n = layout.data_disks_per_group
    groups = group_count(data_disks, n)
    return AggregateShape(
        groups=groups,
        total_disks=groups * layout.group_size,
        overhead_disks=groups * layout.parity,
        exact_division=data_disks % n == 0,
    )


@dataclass(frozen=True)
class LayoutResult:
    """Capacity and risk of one layout over the mission."""

    layout: Layout
    shape: AggregateShape
    p_loss_group: float
    p_loss_aggregate: float
    losses_per_10k_groups: float
    mttdl_hours: float
    relative_risk_group: float
    relative_risk_aggregate: float
    usable_tb: float | None
    p_group_lost: float = 0.0
    p_sectors_lost: float = 0.0
    p_group_lost_aggregate: float = 0.0
    p_sectors_lost_aggregate: float = 0.0
    """What is lost (issue 11): ``p_group_lost + p_sectors_lost = p_loss_group``; for the
    aggregate, P(some group lost whole) and P(sectors lost, no group lost whole), which sum
    to ``p_loss_aggregate`` (:func:`planner.core.aggregate.loss_split_aggregate`)."""


@dataclass(frozen=True)
class Comparison:
    """Every layout of a scenario evaluated under the same rates and mission."""

    mission_hours: float
    data_disks: int
    baseline: str
    results: tuple[LayoutResult, ...]


def compare_layouts(
    layouts: Sequence[Layout],
    *,
    data_disks: int,
    rates: Rates,
    mission_hours: float,
    baseline: str | None = None,
    capacity_tb: float | None = None,
    unreadable_sector: UnreadableSector = "lose-sectors",
) -> Comparison:
    """Evaluate ``layouts`` side by side.

    Relative risks are against ``baseline`` (a layout label; default the first layout).
    ``unreadable_sector`` says whether a loss with a latent defect among its events loses
    sectors (default) or the whole group (``fail-rebuild``); P(loss) is the same either way.
    """
    if not layouts:
        raise ValueError("at least one layout is needed")
    if data_disks < 1:
        raise ValueError(f"data_disks must be at least 1, got {data_disks}")
    labels = [layout.label for layout in layouts]
    base_label = baseline if baseline is not None else labels[0]
    if base_label not in labels:
        raise ValueError(f"baseline {base_label!r} names no layout; layouts: {labels}")

    raw = []
    for layout in layouts:
        shape = aggregate_shape(layout, data_disks)
        p_group = p_loss_group(layout.parity, layout.group_size, rates, mission_hours)
        raw.append((layout, shape, p_group, p_loss_aggregate(p_group, shape.groups)))
    base = raw[labels.index(base_label)]
    splits = {}
    for layout, shape, _, _ in raw:
        split = loss_split(layout.parity, layout.group_size, rates, mission_hours)
        if unreadable_sector == "fail-rebuild":
            split = split.counting_sectors_as_group()
        splits[layout.label] = (
            split,
            loss_split_aggregate(split.p_group_lost, split.p_sectors_lost, shape.groups),
        )

    results = tuple(
        LayoutResult(
            layout=layout,
            shape=shape,
            p_loss_group=p_group,
            p_loss_aggregate=p_agg,
            losses_per_10k_groups=losses_per_10k_groups(p_group),
            mttdl_hours=mttdl_hours(layout.parity, layout.group_size, rates),
            relative_risk_group=relative_risk(p_group, base[2]),
            relative_risk_aggregate=relative_risk(p_agg, base[3]),
            usable_tb=(
                None
                if capacity_tb is None
                else shape.groups * layout.data_disks_per_group * capacity_tb
            ),
            p_group_lost=splits[layout.label][0].p_group_lost,
            p_sectors_lost=splits[layout.label][0].p_sectors_lost,
            p_group_lost_aggregate=splits[layout.label][1][0],
            p_sectors_lost_aggregate=splits[layout.label][1][1],
        )
        for layout, shape, p_group, p_agg in raw
    )
    return Comparison(
        mission_hours=mission_hours, data_disks=data_disks, baseline=base_label, results=results
    )
