"""One layout's aggregate as the compare table shows it: sized for the workload, or fixed.

A scenario with a workload gives each layout two aggregates: the one sized for the workload
(``planner size``; the TUI's compare table by default) and the one of
``aggregate.data_disks`` (``planner evaluate``; the table after ``c``). They differ in their
groups, which share the hot spares, and, where the latent-defect rate comes from the
workload's reads, in that rate: a sized aggregate spreads the reads over its own data drives
(docs/drives.md), as :func:`planner.analysis.sizing_report.sized_results` takes them.

The TUI's model (F4), sensitivity (F5) and simulation (F6) views show the aggregate the
table shows, from the results the table holds
(:meth:`planner.analysis.compare.CompareData.layout_aggregate`), so that their rates and
figures are the table's. ``planner sensitivity`` takes the sized one (a
workload), ``planner simulate`` the fixed one, as each says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.core.arrays.layouts import Layout
from planner.core.design.layout_comparison import LayoutResult
from planner.core.design.sizing import SizingResult
from planner.core.markov.rates import Rates
from planner.scenario import Scenario


@dataclass(frozen=True)
class LayoutAggregate:
    """One layout's aggregate: its groups, its rates and its risk, as the table shows them.

    Attributes:
        layout: the layout.
        sized: the aggregate is sized for the workload (else ``aggregate.data_disks``').
        groups: its groups (a traditional layout's share the aggregate's hot spares).
        rates: the scenario's rates as this aggregate takes them, before the layout's own
            chain (:meth:`Layout.chain_rates`): a sized aggregate's latent-defect rate is
            each of its drives' (its own reads), the scenario's otherwise. The simulator's
            distributions start from these.
        chain_rates: one group's chain: the layout's own rates, the hot spares of ``groups``
            groups shared (per hour; the model view shows them).
        p_loss_group: P(loss) of one group over the mission, as the table shows it.
        p_loss_aggregate: P(loss) of the aggregate over the mission, likewise.
        mttdl_hours: one group's MTTDL from the same chain (h).
    """

    layout: Layout
    sized: bool
    groups: int
    rates: Rates
    chain_rates: Rates
    p_loss_group: float
    p_loss_aggregate: float
    mttdl_hours: float


def fixed_aggregate(scenario: Scenario, result: LayoutResult) -> LayoutAggregate:
    """The aggregate of ``aggregate.data_disks`` of a compare table's row, ``result``."""
    rates = scenario.rates()
    groups = result.shape.groups
    return LayoutAggregate(
        layout=result.layout,
        sized=False,
        groups=groups,
        rates=rates,
        chain_rates=result.layout.chain_rates(rates, groups),
        p_loss_group=result.p_loss_group,
        p_loss_aggregate=result.p_loss_aggregate,
        mttdl_hours=result.mttdl_hours,
    )


def sized_aggregate(scenario: Scenario, layout: Layout, row: SizingResult) -> LayoutAggregate:
    """The aggregate of ``layout`` sized for the workload, a sizing's ``row``."""
    # each drive's own rate, as the sized row's chain took it: no layout spreads it further
    rates = scenario.rates().with_latent_defects(row.latent_defects_per_hour)
    return LayoutAggregate(
        layout=layout,
        sized=True,
        groups=row.groups,
        rates=rates,
        chain_rates=layout.chain_rates(rates, row.groups),
        p_loss_group=row.p_loss_group,
        p_loss_aggregate=row.p_loss_aggregate,
        mttdl_hours=math.nan if row.mttdl_hours is None else row.mttdl_hours,
    )
