"""``planner report``: everything a design review needs, from one scenario.

The recommendation (:mod:`planner.analysis.recommend`; the scenario's target, else 1 in
10,000), the comparison of the scenario's layouts with the recommended one added, the
group-size sweep, the sensitivity of the recommended layout and its methods cross-check
(exact Markov, MTTDL approximation, simulations). :mod:`planner.report.design` renders it
as one Markdown document with the front and the sweep drawn beside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from planner.analysis.candidate_sizing import searched_write_penalty
from planner.analysis.compare import CompareData, compare_data
from planner.analysis.domains import simulation_refusal
from planner.analysis.inputs import Inputs, scenario_inputs
from planner.analysis.method_comparison import MethodsReport, methods_report
from planner.analysis.plan import PlanTotals, plan_totals, row_of_candidate
from planner.analysis.recommend import (
    DEFAULT_TARGET,
    Recommendation,
    RecommendError,
    recommendation,
)
from planner.analysis.sensitivity import SensitivityReport, sensitivity_report
from planner.analysis.simulation import RunSettings
from planner.analysis.sweep import SweepReport, sweep_report
from planner.scenario import Plan, Scenario, scenario_with_overrides
from planner.scenario.edits import EditError
from planner.scenario.layout_edits import with_core_layout_added

SWEEP_PARITIES = (1, 2, 3)
SWEEP_SIZES = tuple(range(2, 29))
"""The sweep drawn in the report: n+1 to n+3, groups of 2 to 28 drives (NS3574's figures)."""

REPORT_SIMULATION = RunSettings(
    trials=None, rel_error=0.1, time_budget_seconds=20.0, seed=1, method="auto"
)
"""The report's simulations: to ±10 % at 95 %, at most 20 s each, seed 1 (reproducible)."""


@dataclass(frozen=True)
class DesignReport:
    """Every part of the design-review document.

    Attributes:
        title: the scenario's name.
        mission_years: the mission (years).
        inputs: the scenario's inputs (and ``--set`` overrides).
        recommendation: the search for the target.
        target_given: whether the scenario gives a loss target (else the default 1e-4).
        chosen_label: the recommended layout's label in the comparison, or None.
        compare: the scenario's layouts with the recommended one added.
        sweep: P(loss) against group size for n+1 to n+3.
        sensitivity: the tornado of the recommended layout (None without one).
        methods: the recommended layout's methods cross-check (None without one).
        methods_note: why the cross-check was not run ("" when it was, or had no layout).
    """

    title: str
    mission_years: float
    inputs: Inputs
    recommendation: Recommendation
    target_given: bool
    chosen_label: str | None
    compare: CompareData
    sweep: SweepReport
    sensitivity: SensitivityReport | None
    methods: MethodsReport | None
    methods_note: str = ""


def design_report(
    scenario: Scenario,
    overrides: Sequence[str] = (),
    settings: RunSettings = REPORT_SIMULATION,
) -> DesignReport:
    """Gather the document's parts (the simulations take up to a minute).

    Raises:
        planner.analysis.recommend.RecommendError: the search is refused (a budget
            without prices, a capacity target without the drive's capacity).
    """
    found = recommendation(scenario, None, overrides, DEFAULT_TARGET)
    with_choice, chosen = _with_chosen(scenario, found)
    chosen_layout = next((x for x in with_choice.core_layouts() if x.label == chosen), None)
    compare = compare_data(with_choice, overrides)
    return DesignReport(
        title=scenario.name,
        mission_years=scenario.mission_years,
        inputs=scenario_inputs(scenario, overrides),
        recommendation=found,
        target_given=not found.default_target,
        chosen_label=chosen,
        compare=compare,
        sweep=sweep_report(scenario, SWEEP_PARITIES, SWEEP_SIZES, True, None, False, overrides),
        sensitivity=(
            None if chosen is None else sensitivity_report(with_choice, chosen, overrides=overrides)
        ),
        methods=(
            None
            if chosen_layout is None or simulation_refusal(scenario)
            else methods_report(
                _as_compared(with_choice, compare, chosen_layout.label),
                [chosen_layout],
                settings,
                overrides=overrides,
            )
        ),
        methods_note=simulation_refusal(scenario),
    )


@dataclass(frozen=True)
class PlanDesign:
    """``planner report`` of a plan: each tier's design review, then the plan's totals.

    Attributes:
        title: the plan's name.
        tiers: each tier's name and review, in the plan's order.
        totals: the drives, cost and P(any tier loses data) of the recommended layouts.
    """

    title: str
    tiers: tuple[tuple[str, DesignReport], ...]
    totals: PlanTotals


def plan_design_report(plan: Plan, settings: RunSettings = REPORT_SIMULATION) -> PlanDesign:
    """Each tier's design review (its simulations take up to a minute), and the totals.

    Raises:
        planner.analysis.recommend.RecommendError: a tier's search is refused; the message
            names the tier.
    """
    reviews = []
    for tier in plan.tiers:
        try:
            reviews.append((tier.name, design_report(tier.scenario, tier.overrides, settings)))
        except RecommendError as error:
            raise RecommendError(f"tier {tier.name!r}: {error}") from None
    rows = [row_of_candidate(name, review.recommendation.top) for name, review in reviews]
    mission = reviews[0][1].recommendation.mission_hours
    return PlanDesign(
        plan.name, tuple(reviews), plan_totals(plan.name, mission, "recommended", rows)
    )


def _as_compared(scenario: Scenario, compare: CompareData, label: str) -> Scenario:
    """``scenario`` whose aggregate is the layout's as the review's table shows it.

    With a workload that is the layout's sized aggregate: its data drives (a pool's whole
    ones), which also spread the workload's reads as the sizing does; else the scenario.
    """
    sizing = compare.sizing
    if sizing is None:
        return scenario
    row = next(r for r in sizing.results if r.label == label)
    return scenario_with_overrides(scenario, [f"aggregate.data_disks={math.floor(row.data_disks)}"])


def _with_chosen(scenario: Scenario, found: Recommendation) -> tuple[Scenario, str | None]:
    """The scenario with the recommended layout among its layouts, and that layout's label.

    A layout of the same shape already in the scenario is used as it is, unless the search
    sized the choice at another write penalty (``search.write_penalty``): the one added is
    then sized as the recommendation was.
    """
    top = found.top
    if top is None:
        return scenario, None
    penalty = searched_write_penalty(scenario, top.layout) if scenario.workload else None
    for spec, layout in zip(scenario.layouts, scenario.core_layouts(), strict=True):
        if layout.same_shape(top.layout) and (penalty is None or spec.write_penalty == penalty):
            return scenario, layout.label
    try:
        added = with_core_layout_added(scenario, top.layout, penalty)
    except EditError:
        return scenario, None
    return added, added.layouts[-1].label
