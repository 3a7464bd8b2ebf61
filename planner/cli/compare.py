"""``planner compare-methods``: exact Markov, MTTDL shortcuts and simulations side by side.

Also the cheap part of it for ``planner evaluate --methods`` (:func:`analytic_by_label`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from planner.cli.output import Format, load
from planner.cli.simulate import (
    FormatOption,
    LayoutOption,
    MethodOption,
    OutputOption,
    RelErrorOption,
    RunSettings,
    ScenarioFile,
    SeedOption,
    SetOption,
    SimMethod,
    TimeBudgetOption,
    TrialsOption,
    run_settings,
    select_layouts,
    show_progress,
    simulations,
)

if TYPE_CHECKING:
    from planner.core.distributions import DistributionSet
    from planner.core.layouts import Layout
    from planner.core.methods import AnalyticMethods
    from planner.report.methods import MethodsReport
    from planner.scenario import Scenario

PRESET_NOTE = (
    "The scenario has no distributions section, so the second simulation uses the "
    "elerath2009 preset (Elerath and Pecht 2009 Weibulls, 1.08e-4 latent defects per hour), "
    "not the scenario's drive and restore rates; add distributions: to choose."
)


def analytic_by_label(scenario: Scenario, layouts: Sequence[Layout]) -> dict[str, AnalyticMethods]:
    """The constant-rate methods for each layout, by label (no simulation)."""
    from planner.core.methods import analytic_methods

    rates = scenario.rates()
    return {
        layout.label: analytic_methods(
            layout.parity, layout.group_size, rates, scenario.mission_hours
        )
        for layout in layouts
    }


def second_distributions(scenario: Scenario) -> tuple[DistributionSet, str, str]:
    """The distributions of the non-exponential simulation, their name and a note.

    The scenario's own distributions if it has a section, else the elerath2009 preset.
    """
    from planner.scenario.distributions import DISTRIBUTION_PRESETS, distribution_set

    if scenario.distributions is None:
        return DISTRIBUTION_PRESETS["elerath2009"], "elerath2009", PRESET_NOTE
    distributions, name = distribution_set(scenario.distributions, scenario.rates())
    return distributions, name, ""


def methods_report(
    scenario: Scenario, layouts: Sequence[Layout], settings: RunSettings, progress: bool = False
) -> MethodsReport:
    """Every method for every layout: analytic ones, then the two simulations."""
    from planner.core.distributions import exponential_from_rates
    from planner.core.layouts import aggregate_shape
    from planner.report.methods import (
        SIM_DISTRIBUTIONS,
        SIM_EXPONENTIAL,
        LayoutMethods,
        MethodsReport,
        analytic_estimates,
        simulated_estimate,
    )

    analytic = analytic_by_label(scenario, layouts)
    exponential = exponential_from_rates(scenario.rates())
    other, name, note = second_distributions(scenario)
    mission = scenario.mission_hours
    entries = []
    with simulations(settings, progress) as simulate:
        for layout in layouts:
            exact = analytic[layout.label]
            sim_exp = simulate(f"{layout.label} · exponential", layout, exponential, mission)
            sim_other = simulate(f"{layout.label} · {name}", layout, other, mission)
            estimates = (
                *analytic_estimates(exact),
                simulated_estimate(
                    SIM_EXPONENTIAL, "Simulation, exponential", sim_exp, exact.p_markov
                ),
                simulated_estimate(
                    SIM_DISTRIBUTIONS, f"Simulation, {name}", sim_other, exact.p_markov
                ),
            )
            groups = aggregate_shape(layout, scenario.aggregate.data_disks).groups
            entries.append(LayoutMethods(layout, groups, estimates))
    return MethodsReport(
        title=scenario.name,
        mission_hours=mission,
        distributions=name,
        distributions_note=note,
        method=settings.method,
        seed=settings.seed,
        stopping=settings.stopping,
        layouts=tuple(entries),
    )


def render_methods(report: MethodsReport, output_format: Format, output: Path | None) -> None:
    """Print or write ``report`` as a Rich table, Markdown, CSV or JSON."""
    from planner.cli.render import render_report, texts_of
    from planner.report import methods

    render_report(
        output_format,
        output,
        lambda width: methods.to_rich_table(report, max_width=width),
        methods.notes(report),
        texts_of(methods, report),
    )


def compare_methods(
    file: ScenarioFile = None,
    trials: TrialsOption = None,
    rel_error: RelErrorOption = None,
    time_budget: TimeBudgetOption = None,
    seed: SeedOption = None,
    method: MethodOption = SimMethod.conditional,
    layouts: LayoutOption = None,
    output_format: FormatOption = Format.table,
    output: OutputOption = None,
    overrides: SetOption = None,
) -> None:
    """Exact Markov vs the MTTDL approximation, no latent defects and simulations, per layout.

    Simulated with constant rates and with the distributions (default the elerath2009 preset).
    """
    settings = run_settings(trials, rel_error, time_budget, seed, method)
    scenario = load(file, overrides)
    chosen = select_layouts(scenario, layouts)
    report = methods_report(scenario, chosen, settings, show_progress(output_format, output))
    render_methods(report, output_format, output)
