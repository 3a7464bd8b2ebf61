"""Compare RAID layouts for one aggregate: disks each costs and the risk each carries.

NS3574 "Probability of data loss": an aggregate of g RAID groups loses data when any
group does, so R_aggregate = R_group ** g (Tables 2 to 4).

What belongs here: every layout of a scenario evaluated under the same rates and mission
(:func:`compare_layouts`), each result (:class:`LayoutResult`: P(loss) per group and for
the aggregate, what is lost, MTTDL, relative risk) and the whole table
(:class:`Comparison`), and the risk with the correlation taken out (:class:`Independent`,
also a sized layout's, :mod:`planner.core.design.sizing`). What a layout is and how it
fills the aggregate is :mod:`planner.core.arrays.layouts`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from planner.core.arrays.availability import (
    DEFAULT_STRIPE_UNIT_BYTES,
    Availability,
    layout_availability,
    with_loss_figures,
)
from planner.core.arrays.cost import LayoutCost
from planner.core.arrays.layouts import (
    AggregateShape,
    Layout,
    aggregate_shape,
    placement_of_group,
)
from planner.core.markov.aggregate import p_loss_aggregate
from planner.core.markov.domain_figures import group_loss_figures
from planner.core.markov.enclosures import EnclosureRisk
from planner.core.markov.piecewise import AgedLoss
from planner.core.markov.rates import Rates
from planner.core.markov.transient import (
    losses_per_10k_groups,
    relative_risk,
)

UnreadableSector = Literal["lose-sectors", "fail-rebuild"]
"""What an unreadable sector met during a critical rebuild does: lose the stripes under it
(the default), or fail the rebuild and so lose the group (ceph-tools' choice)."""


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
    rebuild_hours: float = 0.0
    """The layout's mean rebuild time, hours: the scenario's, or a declustered pool's faster one."""
    latent_defects_per_hour: float = 0.0
    """Each drive's latent-defect rate in the layout's chain (1/h): the scenario's, or a data
    drive's share of the workload's reads spread over the group's drives
    (:attr:`Layout.data_share`)."""
    p_group_lost: float = 0.0
    p_sectors_lost: float = 0.0
    p_group_lost_aggregate: float = 0.0
    p_sectors_lost_aggregate: float = 0.0
    """What is lost (issue 20, :mod:`planner.core.markov.loss_figures`): P(k + 1 drives down at
    once)
    and P(at least one sector-loss event), per group and for the aggregate (each
    ``1 - (1 - p)^groups``). They do not sum to P(loss)."""
    expected_sector_loss_events_group: float = 0.0
    expected_sector_loss_events: float = 0.0
    """Mean number of sector-loss events over the mission: one group's, and the aggregate's
    (groups x one group's)."""
    cost: LayoutCost | None = None
    """Purchase, replacements, energy and TCO (:mod:`planner.core.arrays.cost`), when priced."""
    independent: Independent | None = None
    """The aggregate's risk if its drives failed independently, when the rates are
    correlated (docs/correlated.md); None otherwise."""
    enclosures: EnclosureRisk | None = None
    """The groups' enclosures and P(unavailable), with an enclosures section
    (docs/domains.md); None otherwise."""
    aged: AgedLoss | None = None
    """P(loss) with the scenario's ageing drives and its bracket (docs/ageing.md); None
    without an ageing section."""
    availability: Availability | None = None
    """Hours degraded and critical, whole-group losses, NOMDL (docs/availability.md)."""


@dataclass(frozen=True)
class Independent:
    """An aggregate's P(loss) with its drives' correlation taken out, beside its own.

    Attributes:
        p_loss_aggregate: P(loss) of the aggregate under the same rates made independent
            (m = 1, no shocks).
        factor: the correlated P(loss) over this one: how much independence understates
            the risk (NaN when neither can lose data).
    """

    p_loss_aggregate: float
    factor: float


@dataclass(frozen=True)
class Comparison:
    """Every layout of a scenario evaluated under the same rates and mission."""

    mission_hours: float
    data_disks: int
    baseline: str
    results: tuple[LayoutResult, ...]


def _baseline_label(labels: list[str], baseline: str | None) -> str:
    """The layout relative risks are against: ``baseline``, by default the first layout."""
    if not labels:
        raise ValueError("at least one layout is needed")
    base_label = baseline if baseline is not None else labels[0]
    if base_label not in labels:
        raise ValueError(f"baseline {base_label!r} names no layout; layouts: {labels}")
    return base_label


def compare_layouts(
    layouts: Sequence[Layout],
    *,
    data_disks: int,
    rates: Rates,
    mission_hours: float,
    baseline: str | None = None,
    capacity_tb: float | None = None,
    unreadable_sector: UnreadableSector = "lose-sectors",
    stripe_unit_bytes: float = DEFAULT_STRIPE_UNIT_BYTES,
) -> Comparison:
    """Evaluate ``layouts`` side by side.

    Relative risks are against ``baseline`` (a layout label; default the first layout).
    ``capacity_tb`` is the TB of data one data drive stores (its capacity x the usable
    fraction), for each result's ``usable_tb`` and NOMDL; None leaves them unknown.
    ``stripe_unit_bytes``: a stripe's bytes on each drive (what a sector loss loses).
    ``unreadable_sector`` says whether a loss with a latent defect among its events loses
    sectors (default) or the whole group (``fail-rebuild``: every loss ends the group, so
    P(group lost) = P(loss)); P(loss) is the same either way.
    """
    if data_disks < 1:
        raise ValueError(f"data_disks must be at least 1, got {data_disks}")
    labels = [layout.label for layout in layouts]
    base_label = _baseline_label(labels, baseline)
    fail_rebuild = unreadable_sector == "fail-rebuild"
    evaluated = [
        _evaluate(
            layout, data_disks, rates, mission_hours, capacity_tb, fail_rebuild, stripe_unit_bytes
        )
        for layout in layouts
    ]
    base = evaluated[labels.index(base_label)]
    results = tuple(
        dataclasses.replace(
            result,
            relative_risk_group=relative_risk(result.p_loss_group, base.p_loss_group),
            relative_risk_aggregate=relative_risk(result.p_loss_aggregate, base.p_loss_aggregate),
        )
        for result in evaluated
    )
    return Comparison(
        mission_hours=mission_hours, data_disks=data_disks, baseline=base_label, results=results
    )


def _evaluate(
    layout: Layout,
    data_disks: int,
    rates: Rates,
    mission_hours: float,
    capacity_tb: float | None,
    sectors_fail_rebuild: bool,
    stripe_unit_bytes: float,
) -> LayoutResult:
    """One layout's figures; its relative risks (1 here) are set against the baseline's."""
    shape = aggregate_shape(layout, data_disks)
    chain = layout.chain_rates(rates, shape.groups)
    # one evaluation: P(loss), what is lost and the MTTDL from one generator
    figures = group_loss_figures(
        layout.parity,
        layout.group_size,
        chain,
        mission_hours,
        sectors_fail_rebuild=sectors_fail_rebuild,
        mttdl=True,
    )
    p_group = figures.p_loss
    result = LayoutResult(
        layout=layout,
        shape=shape,
        p_loss_group=p_group,
        p_loss_aggregate=p_loss_aggregate(p_group, shape.groups),
        losses_per_10k_groups=losses_per_10k_groups(p_group),
        mttdl_hours=_known(figures.mttdl_hours),
        relative_risk_group=1.0,
        relative_risk_aggregate=1.0,
        usable_tb=(
            None
            if capacity_tb is None
            else float(shape.groups * layout.data_capacity) * capacity_tb
        ),
        rebuild_hours=chain.rebuild_hours,
        latent_defects_per_hour=chain.latent_defects_per_hour,
    )
    lost = layout_availability(layout, figures, shape.groups, capacity_tb, stripe_unit_bytes)
    placement = placement_of_group(layout, chain)
    return with_loss_figures(result, figures, shape.groups, lost, placement)


def _known(value: float | None) -> float:
    """A figure that was asked for (never None here)."""
    if value is None:
        raise ValueError("the MTTDL was not computed")
    return value
