"""Monte Carlo runs of a scenario's layouts, and every method side by side.

``planner simulate``, ``planner compare-methods`` and the TUI's F6 call these. A front end
may pass its own ``simulate`` (the CLI wraps :func:`simulate_layout` in a progress bar);
the computation is always :func:`simulate_layout`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from planner.analysis.compare import analytic_by_label
from planner.analysis.inputs import scenario_inputs
from planner.core.distributions import DistributionSet, exponential_from_rates
from planner.core.layouts import Layout, aggregate_shape
from planner.core.simulate import SimulationResult, simulate_group
from planner.report.methods import (
    SIM_DISTRIBUTIONS,
    SIM_EXPONENTIAL,
    LayoutMethods,
    MethodsReport,
    analytic_estimates,
    simulated_estimate,
)
from planner.report.simulation import SimulatedLayout, SimulationReport
from planner.scenario import Scenario
from planner.scenario.distributions import DISTRIBUTION_PRESETS, distribution_set

PRESET_NOTE = (
    "The scenario has no distributions section, so the second simulation uses the "
    "elerath2009 preset (Elerath and Pecht 2009 Weibulls, 1.08e-4 latent defects per hour), "
    "not the scenario's drive and restore rates; add distributions: to choose."
)


@dataclass(frozen=True)
class RunSettings:
    """How every simulation of a command runs.

    Attributes:
        trials: exact (or, with a budget, maximum) trials per simulation, or None.
        rel_error: target relative error, or None.
        time_budget_seconds: wall-time limit per simulation (s), or None.
        seed: the seed of every simulation.
        method: ``auto``, ``conditional``, ``biased`` or ``plain``.
    """

    trials: int | None
    rel_error: float | None
    time_budget_seconds: float | None
    seed: int
    method: str

    @property
    def stopping(self) -> str:
        """The stopping rule in words: ``at ±10% or 30 s per simulation``."""
        budget = self.time_budget_seconds
        per = f"{budget:g} s per simulation" if budget is not None else ""
        if self.rel_error is not None:
            rule = f"at ±{100 * self.rel_error:g}%"
        else:
            n = self.trials
            rule = "" if n is None else f"after {n:,} trial{'s' if n != 1 else ''}"
        return " or ".join(part for part in (rule, per) if part) or "after one batch"


Progress = Callable[[int, float], None]
"""Called after each batch with the trials run so far and the running estimate."""


def simulate_layout(
    layout: Layout,
    distributions: DistributionSet,
    mission_hours: float,
    settings: RunSettings,
    on_progress: Progress | None = None,
) -> SimulationResult:
    """Simulate one group of ``layout`` over the mission with ``settings``."""
    return simulate_group(
        layout.parity,
        layout.group_size,
        layout.chain_distributions(distributions),
        mission_hours,
        method=settings.method,
        trials=settings.trials,
        rel_error=settings.rel_error,
        time_budget_seconds=settings.time_budget_seconds,
        seed=settings.seed,
        on_progress=on_progress,
    )


Simulate = Callable[[str, Layout, DistributionSet, float], SimulationResult]
"""Runs one simulation: (description, layout, distributions, mission hours) -> result."""


def plain_simulate(settings: RunSettings) -> Simulate:
    """A :data:`Simulate` without progress display."""

    def run(
        _: str, layout: Layout, distributions: DistributionSet, mission: float
    ) -> SimulationResult:
        return simulate_layout(layout, distributions, mission, settings)

    return run


def simulation_report(
    scenario: Scenario,
    layouts: Sequence[Layout],
    settings: RunSettings,
    simulate: Simulate | None = None,
    overrides: Sequence[str] = (),
) -> SimulationReport:
    """Simulate ``layouts`` with the scenario's distributions (its constant rates if none)."""
    run = simulate or plain_simulate(settings)
    distributions, name = distribution_set(scenario.distributions, scenario.rates())
    data_disks = scenario.aggregate.data_disks
    rows = tuple(
        SimulatedLayout(
            layout,
            aggregate_shape(layout, data_disks),
            run(layout.label, layout, distributions, scenario.mission_hours),
        )
        for layout in layouts
    )
    return SimulationReport(
        title=scenario.name,
        mission_hours=scenario.mission_hours,
        data_disks=data_disks,
        distributions=name,
        method=settings.method,
        seed=settings.seed,
        stopping=settings.stopping,
        target_rel_error=settings.rel_error,
        rows=rows,
        inputs=scenario_inputs(scenario, overrides),
    )


def second_distributions(scenario: Scenario) -> tuple[DistributionSet, str, str]:
    """The distributions of the non-exponential simulation, their name and a note.

    The scenario's own distributions if it has a section, else the elerath2009 preset.
    """
    if scenario.distributions is None:
        preset = replace(
            DISTRIBUTION_PRESETS["elerath2009"], rebuild_streams=scenario.rates().rebuild_streams
        )
        return preset, "elerath2009", PRESET_NOTE
    distributions, name = distribution_set(scenario.distributions, scenario.rates())
    return distributions, name, ""


def methods_report(
    scenario: Scenario,
    layouts: Sequence[Layout],
    settings: RunSettings,
    simulate: Simulate | None = None,
    overrides: Sequence[str] = (),
) -> MethodsReport:
    """Every method for every layout: the analytic ones, then the two simulations."""
    run = simulate or plain_simulate(settings)
    analytic = analytic_by_label(scenario, layouts)
    exponential = exponential_from_rates(scenario.rates())
    other, name, note = second_distributions(scenario)
    mission = scenario.mission_hours
    entries = []
    for layout in layouts:
        exact = analytic[layout.label]
        sim_exp = run(f"{layout.label} · exponential", layout, exponential, mission)
        sim_other = run(f"{layout.label} · {name}", layout, other, mission)
        estimates = (
            *analytic_estimates(exact),
            simulated_estimate(SIM_EXPONENTIAL, "Simulation, exponential", sim_exp, exact.p_markov),
            simulated_estimate(SIM_DISTRIBUTIONS, f"Simulation, {name}", sim_other, exact.p_markov),
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
        inputs=scenario_inputs(scenario, overrides),
        target_rel_error=settings.rel_error,
    )


@dataclass(frozen=True)
class SimulationRequest:
    """One group of a layout to simulate, and the exact Markov value to compare with.

    Attributes:
        label: the layout's label.
        layout: the layout.
        distributions: time laws and latent defect rate (h, per hour).
        distributions_name: how reports name them (preset or constant rates).
        mission_hours: mission length (h).
        p_loss_markov: the exact Markov P(loss) of one group under the constant rates.
    """

    label: str
    layout: Layout
    distributions: DistributionSet
    distributions_name: str
    mission_hours: float
    p_loss_markov: float

    @classmethod
    def of(cls, scenario: Scenario, layout: Layout, p_loss_markov: float) -> SimulationRequest:
        """A group of ``layout`` with ``scenario``'s distributions and mission.

        Without a ``distributions`` section the scenario's constant rates are simulated as
        exponentials (``planner simulate``'s rule), so the estimate should match Markov.
        """
        distributions, name = distribution_set(scenario.distributions, scenario.rates())
        return cls(layout.label, layout, distributions, name, scenario.mission_hours, p_loss_markov)

    def run(self, settings: RunSettings, on_progress: Progress | None = None) -> SimulationResult:
        """Simulate the group with ``settings`` (the TUI runs this in a worker)."""
        return simulate_layout(
            self.layout, self.distributions, self.mission_hours, settings, on_progress
        )
