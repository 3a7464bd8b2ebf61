"""``planner compare-methods``: exact Markov, MTTDL shortcuts and simulations side by side."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from planner.cli.options import (
    FormatOption,
    OutputOption,
    ScenarioFile,
    SetOption,
    TierOption,
    chosen_format,
)
from planner.cli.output import Format, load
from planner.cli.simulate import (
    LayoutOption,
    MethodOption,
    RelErrorOption,
    SeedOption,
    SimMethod,
    TimeBudgetOption,
    TrialsOption,
    refuse_unsimulated,
    run_settings,
    select_layouts,
    show_progress,
    simulations,
)

if TYPE_CHECKING:
    from planner.analysis.method_comparison import MethodsReport


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
    method: MethodOption = SimMethod.auto,
    layouts: LayoutOption = None,
    output_format: FormatOption = None,
    output: OutputOption = None,
    overrides: SetOption = None,
    tier: TierOption = None,
) -> None:
    """Exact Markov vs the MTTDL approximation, no latent defects and simulations, per layout.

    Simulated with constant rates and with the distributions (default the elerath2009 preset).
    """
    output_format = chosen_format(output_format, output)
    from planner.analysis.input_notes import fixed_aggregate_note
    from planner.analysis.method_comparison import methods_report

    settings = run_settings(trials, rel_error, time_budget, seed, method)
    scenario = load(file, overrides, tier)
    refuse_unsimulated(scenario, settings.method)
    chosen = select_layouts(scenario, layouts)
    with simulations(settings, show_progress(output_format, output)) as simulate:
        report = methods_report(scenario, chosen, settings, simulate, overrides or ())
    report = replace(report, fixed_note=fixed_aggregate_note(scenario) or "")
    render_methods(report, output_format, output)
