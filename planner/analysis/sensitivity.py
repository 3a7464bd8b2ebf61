"""The tornado of one layout: which input moves its aggregate's P(loss) most.

One rule for both front ends (``planner sensitivity`` and the TUI's F5 view): the aggregate
is the one the compare table shows. For a scenario with a workload that is the layout's
SIZED aggregate (the data drives the sizing gives it), otherwise ``aggregate.data_disks``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from planner.analysis.compare import sized_results
from planner.analysis.inputs import scenario_inputs
from planner.core.sensitivity import tornado
from planner.core.sweep import SweepPoint
from planner.report.fields import SCENARIO_FIELDS
from planner.report.sensitivity import SensitivityReport
from planner.scenario import Scenario

LOW_FACTOR = 0.5
HIGH_FACTOR = 2.0
"""Each input is halved and doubled by default."""


def layout_label(scenario: Scenario, label: str | None) -> str:
    """``label`` when the scenario has that layout, else the first layout's label."""
    labels = [layout.label for layout in scenario.layouts]
    return label if label in labels else labels[0]


def sensitivity_data_disks(scenario: Scenario, label: str) -> tuple[int, bool]:
    """The data drives of the aggregate a tornado moves, and whether they are sized.

    The sized aggregate of the layout ``label`` when the scenario has a workload (the risk
    the compare table shows), else ``aggregate.data_disks``.
    """
    sized = sized_results(scenario)
    if sized is None:
        return scenario.aggregate.data_disks, False
    # a declustered pool holds a fractional number of drives' worth of data: the whole ones
    return math.floor(next(r.data_disks for r in sized if r.label == label)), True


def sensitivity_report(
    scenario: Scenario,
    label: str,
    low: float = LOW_FACTOR,
    high: float = HIGH_FACTOR,
    overrides: Sequence[str] = (),
) -> SensitivityReport:
    """The tornado of the layout ``label`` over the scenario fields it can move.

    Raises:
        KeyError: no layout has that label.
        ValueError: a factor the core rejects.
    """
    layouts = {layout.label: layout for layout in scenario.core_layouts()}
    layout = layouts[label]
    data_disks, sized = sensitivity_data_disks(scenario, label)
    point = SweepPoint(layout.chain_rates(scenario.rates()), scenario.mission_hours, data_disks)
    inputs = [field.parameter for field in SCENARIO_FIELDS]
    limits = {field.parameter: field.core_limits() for field in SCENARIO_FIELDS}
    result = tornado(
        layout.parity, layout.group_size, point, low, high, inputs, layout.data_capacity, limits
    )
    return SensitivityReport(
        title=scenario.name,
        label=layout.label,
        sensitivity=result,
        sized=sized,
        rebuild_model=scenario.restore.uses_rebuild_model,
        inputs=scenario_inputs(scenario, overrides),
    )
