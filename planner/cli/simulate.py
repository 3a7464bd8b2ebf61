"""``planner simulate``: Monte Carlo P(loss) per layout, with a progress bar on a terminal.

Also the pieces ``planner compare-methods`` (:mod:`planner.cli.compare`) shares: the
options, the stopping rule, the layout selection and the progress display. Heavy imports
(NumPy, the engine, Rich) happen inside the functions so that ``planner --help`` stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from planner.cli.options import (
    FormatOption,
    OutputOption,
    ScenarioFile,
    SetOption,
    TierOption,
    chosen_format,
)
from planner.cli.output import Format, fail, load

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from planner.analysis.simulation import RunSettings, Simulate, SimulationReport
    from planner.core.arrays.layouts import Layout
    from planner.core.simulation.distributions import DistributionSet
    from planner.core.simulation.result import SimulationResult
    from planner.scenario import Scenario

DEFAULT_REL_ERROR = 0.1
"""Target relative error (95% half-width over the estimate) when no stopping rule is given."""

DEFAULT_TIME_BUDGET_SECONDS = 30.0
"""Wall-time limit per simulation when running to a relative error: a few seconds are
enough for every shipped scenario, triple parity included."""

DEFAULT_TRIALS_TIME_BUDGET_SECONDS = 120.0
"""Wall-time limit per simulation with ``--trials``: a large group (hundreds of drives, tens
of thousands of events per mission) stops there, says so, and keeps what it ran."""


class SimMethod(StrEnum):
    """Estimators of ``--method`` (:class:`planner.core.simulation.simulate.Method`)."""

    auto = "auto"
    conditional = "conditional"
    biased = "biased"
    plain = "plain"


TrialsOption = Annotated[
    int | None,
    typer.Option(
        "--trials", "-n", min=1, help="Run exactly this many trials per layout.", show_default=False
    ),
]
RelErrorOption = Annotated[
    float | None,
    typer.Option(
        "--rel-error",
        "-e",
        help="Stop at this relative error: 95% half-width over the estimate "
        f"(default {DEFAULT_REL_ERROR:g} unless --trials).",
        show_default=False,
    ),
]
TimeBudgetOption = Annotated[
    float | None,
    typer.Option(
        "--time-budget",
        "-t",
        help="Stop each simulation after this many seconds (default "
        f"{DEFAULT_TIME_BUDGET_SECONDS:g} with --rel-error, "
        f"{DEFAULT_TRIALS_TIME_BUDGET_SECONDS:g} with --trials).",
        show_default=False,
        metavar="SECONDS",
    ),
]
SeedOption = Annotated[
    int | None,
    typer.Option(
        "--seed",
        "-s",
        min=0,
        help="Random seed; the same seed gives the same result (default: drawn, and shown).",
        show_default=False,
    ),
]
MethodOption = Annotated[
    SimMethod,
    typer.Option(
        "--method",
        help="auto: conditional where critical states are frequent, else biased; "
        "conditional: conditioning on the last failure, no biasing; biased: conditioning + "
        "failure biasing renewed per rebuild period (rare events); plain: plain Monte Carlo.",
    ),
]
LayoutOption = Annotated[
    list[str] | None,
    typer.Option(
        "--layout",
        "-l",
        help="Simulate only this layout (its label; repeatable). Default: every layout.",
        metavar="LABEL",
        show_default=False,
    ),
]


def run_settings(
    trials: int | None,
    rel_error: float | None,
    time_budget_seconds: float | None,
    seed: int | None,
    method: SimMethod,
) -> RunSettings:
    """Check the stopping options and fill in the defaults; exit 2 on a contradiction."""
    if trials is not None and rel_error is not None:
        fail("give --trials or --rel-error, not both")
    if rel_error is not None and not 0 < rel_error < 1:
        fail(f"--rel-error must be between 0 and 1 (0.1 is ±10%), got {rel_error:g}")
    if time_budget_seconds is not None and not time_budget_seconds > 0:
        fail(f"--time-budget must be a positive number of seconds, got {time_budget_seconds:g}")
    if trials is None and rel_error is None:
        rel_error = DEFAULT_REL_ERROR
    if time_budget_seconds is None:
        time_budget_seconds = (
            DEFAULT_TIME_BUDGET_SECONDS
            if rel_error is not None
            else DEFAULT_TRIALS_TIME_BUDGET_SECONDS
        )
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**32)
    from planner.analysis.simulation import RunSettings

    return RunSettings(trials, rel_error, time_budget_seconds, seed, method.value)


def refuse_unsimulated(scenario: Scenario, method: str) -> None:
    """Exit 2 when a rare-event ``--method`` meets shocks, or the scenario has enclosures.

    Neither can be simulated: shocks by the rare-event estimators, enclosures at all.
    """
    from planner.analysis.domains import simulation_refusal

    refusal = simulation_refusal(scenario)
    if refusal:
        fail(refusal)
    shocks = scenario.correlation is not None and scenario.correlation.shocks
    if shocks and method in ("conditional", "biased"):
        fail(
            f"--method {method}: the rare-event estimators do not simulate shocks "
            "(several drives failing at once); use --method plain or auto (docs/correlated.md)"
        )


def select_layouts(scenario: Scenario, labels: Sequence[str] | None) -> list[Layout]:
    """The scenario's layouts, or those named by ``--layout`` in the order given; exit 2."""
    from planner.scenario.fields import did_you_mean_label

    layouts = scenario.core_layouts()
    if not labels:
        return layouts
    by_label = {layout.label: layout for layout in layouts}
    chosen = []
    for label in labels:
        if label not in by_label:
            aliases = {spec.default_label: spec.label for spec in scenario.layouts}
            hint = did_you_mean_label(label, list(by_label), aliases)
            fail(f"--layout {label!r}: no layout has that label{hint}")
        if by_label[label] not in chosen:
            chosen.append(by_label[label])
    return chosen


def show_progress(output_format: Format, output: Path | None) -> bool:
    """A progress bar goes to stderr only on a terminal, and never next to data on stdout."""
    return sys.stderr.isatty() and (output_format is Format.table or output is not None)


@contextmanager
def simulations(settings: RunSettings, progress: bool) -> Iterator[Simulate]:
    """A function that runs one simulation with ``settings``, shown in a progress bar.

    The bar (on stderr, removed when done) fills with the trials run for ``--trials``; when
    running to a relative error the end is unknown, so it pulses until the layout is done.
    """
    from planner.analysis.simulation import simulate_layout

    bar = _progress_bar() if progress else None

    def run(
        description: str,
        layout: Layout,
        distributions: DistributionSet,
        mission_hours: float,
        groups: int,
    ) -> SimulationResult:
        def simulate(on_progress: Callable[[int, float], None] | None) -> SimulationResult:
            return simulate_layout(
                layout, distributions, mission_hours, settings, on_progress, groups
            )

        if bar is None:
            return simulate(None)
        # Without a trial count the run stops at a relative error or a time limit: the
        # total is unknown and the bar pulses until the layout is done.
        task = bar.add_task(description, total=settings.trials, trials="0", estimate="…")
        result = simulate(_updater(bar, task))
        bar.update(task, total=result.trials, completed=result.trials)
        return result

    if bar is None:
        yield run
        return
    with bar:
        yield run


def _progress_bar() -> Progress:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[trials]:>9} trials"),
        TextColumn("p ≈ {task.fields[estimate]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def _updater(bar: Progress, task: TaskID) -> Callable[[int, float], None]:
    from planner.report.numbers import format_count
    from planner.report.percentages import format_percent

    def on_progress(done: int, estimate: float) -> None:
        bar.update(
            task, completed=done, trials=format_count(done), estimate=format_percent(estimate)
        )

    return on_progress


def run_simulate(
    file: Path | None,
    settings: RunSettings,
    labels: Sequence[str] | None,
    output_format: Format,
    output: Path | None,
    overrides: list[str] | None,
    tier: str | None = None,
) -> None:
    """Load the scenario (a plan's ``tier``), simulate its layouts, print or write the report."""
    from planner.analysis.input_notes import fixed_aggregate_note
    from planner.analysis.simulation import simulation_report

    scenario = load(file, overrides, tier)
    refuse_unsimulated(scenario, settings.method)
    layouts = select_layouts(scenario, labels)
    with simulations(settings, show_progress(output_format, output)) as simulate:
        report = simulation_report(scenario, layouts, settings, simulate, overrides or ())
    fixed = fixed_aggregate_note(scenario)
    report = replace(report, notes=(*([fixed] if fixed else []), *report.notes))
    render_simulation(report, output_format, output)


def render_simulation(report: SimulationReport, output_format: Format, output: Path | None) -> None:
    """Print or write ``report`` as a Rich table, Markdown, CSV or JSON."""
    from planner.cli.render import render_report, texts_of
    from planner.report import simulation

    render_report(
        output_format,
        output,
        lambda width: simulation.to_rich_table(report, max_width=width),
        simulation.notes(report),
        texts_of(simulation, report),
    )


def simulate(
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
    """Monte Carlo P(loss) per layout with a 95% interval, with the scenario's distributions.

    Without a distributions section it simulates the constant rates, reproducing evaluate.
    """
    output_format = chosen_format(output_format, output)
    settings = run_settings(trials, rel_error, time_budget, seed, method)
    run_simulate(file, settings, layouts, output_format, output, overrides, tier)
