"""Monte Carlo runs of a scenario's layouts, and every method side by side.

``planner simulate``, ``planner compare-methods`` and the TUI's F6 call these. A front end
may pass its own ``simulate`` (the CLI wraps :func:`simulate_layout` in a progress bar);
the computation is always :func:`simulate_layout`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from planner.analysis.compare import analytic_by_label
from planner.analysis.inputs import scenario_inputs
from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.simulation.distributions import DistributionSet, exponential_from_rates
from planner.core.simulation.simulate import GroupSimulation, SimulationResult, simulate_group
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

SHAPES_PRESET = "elerath2009"
"""The preset whose shapes the second simulation of compare-methods takes when the scenario
has no distributions section (scaled to the scenario's means)."""

_INPUT_NAMES = {
    "operational_failure": "time to failure",
    "restoration": "rebuild",
    "scrub": "scrub",
    "latent_defects_per_hour": "latent defects",
}


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
    run = GroupSimulation(
        layout.parity,
        layout.group_size,
        layout.chain_distributions(distributions),
        mission_hours,
        method=settings.method,
        trials=settings.trials,
        rel_error=settings.rel_error,
        time_budget_seconds=settings.time_budget_seconds,
        seed=settings.seed,
    )
    return simulate_group(run, on_progress)


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
    """Simulate ``layouts`` with the scenario's distributions (its constant rates if none).

    Each layout runs twice: P(loss), then P(group lost) with latent defects off
    (:meth:`planner.core.simulation.distributions.DistributionSet.without_latent_defects`
    says why). Where every loss loses the group (``restore.on_unreadable_sector:
    fail-rebuild``), or there are no defects, the two are one event and the first run gives
    both.
    """
    run = simulate or plain_simulate(settings)
    distributions, name = distribution_set(scenario.distributions, scenario.rates())
    every_loss_ends_group = (
        scenario.restore.on_unreadable_sector == "fail-rebuild"
        or distributions.latent_defects_per_hour == 0
    )
    data_disks = scenario.aggregate.data_disks
    mission = scenario.mission_hours
    rows = []
    for layout in layouts:
        p_loss = run(layout.label, layout, distributions, mission)
        group_lost = (
            p_loss
            if every_loss_ends_group
            else run(
                f"{layout.label} · group lost",
                layout,
                distributions.without_latent_defects(),
                mission,
            )
        )
        rows.append(
            SimulatedLayout(layout, aggregate_shape(layout, data_disks), p_loss, group_lost)
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
        rows=tuple(rows),
        sectors_fail_rebuild=scenario.restore.on_unreadable_sector == "fail-rebuild",
        inputs=scenario_inputs(scenario, overrides),
    )


@dataclass(frozen=True)
class SecondSimulation:
    """The laws of compare-methods' non-exponential simulation, and what they are.

    Attributes:
        laws: the distributions (h, per hour), before a layout's own rebuild speed-up.
        name: how the rows name them (``elerath2009 shapes``, ``custom``, ...).
        note: what was simulated and why, for the notes.
        same_scenario: True when the laws' means are the scenario's rates, so that the
            ratio to the exact Markov answer compares like with like.
    """

    laws: DistributionSet
    name: str
    note: str
    same_scenario: bool


def _hours(value: float) -> str:
    return f"{value:,.0f} h" if value >= 100 else f"{value:.3g} h"


def _mean_texts(laws: DistributionSet) -> dict[str, str]:
    texts = {name: _hours(law.mean_hours) for name, law in laws.time_laws().items()}
    texts["latent_defects_per_hour"] = f"{laws.latent_defects_per_hour:.3g} per drive-hour"
    return texts


def second_distributions(scenario: Scenario) -> SecondSimulation:
    """The distributions of the non-exponential simulation (issue 20, item 7).

    Without a distributions section: the :data:`SHAPES_PRESET` preset's shapes scaled so
    their means are the scenario's (:meth:`DistributionSet.at_means`), so the simulation
    runs the scenario and its ratio to Markov shows what the shapes alone change. With a
    section: its laws as written; if their means are not the scenario's rates it is
    another scenario, and the row gets no ratio.
    """
    rates = scenario.rates()
    if scenario.distributions is None:
        laws = DISTRIBUTION_PRESETS[SHAPES_PRESET].at_means(rates)
        means = _mean_texts(laws)
        note = (
            f"The scenario has no distributions section, so the second simulation takes the "
            f"{SHAPES_PRESET} preset's shapes (Elerath and Pecht 2009 Weibulls) scaled so "
            f"their means are the scenario's: time to failure {means['operational_failure']}, "
            f"rebuild {means['restoration']} (a declustered pool's shorter, as in the chain), "
            f"scrub {means['scrub']}, latent defects {means['latent_defects_per_hour']}; "
            "add distributions: to choose."
        )
        return SecondSimulation(laws, f"{SHAPES_PRESET} shapes", note, True)
    laws, name = distribution_set(scenario.distributions, rates)
    apart = laws.means_apart_from(rates)
    if not apart:
        return SecondSimulation(laws, name, "", True)
    given, chain = _mean_texts(laws), _mean_texts(exponential_from_rates(rates))
    differences = "; ".join(
        f"{_INPUT_NAMES[key]} {given[key]}, the scenario's {chain[key]}" for key in apart
    )
    note = (
        f"Simulation, {name} runs another scenario: the distributions section's means are "
        f"not the scenario's rates ({differences}), so its vs Markov is left empty."
    )
    return SecondSimulation(laws, name, note, False)


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
    second = second_distributions(scenario)
    name = second.name
    mission = scenario.mission_hours
    entries = []
    for layout in layouts:
        exact = analytic[layout.label]
        sim_exp = run(f"{layout.label} · exponential", layout, exponential, mission)
        sim_other = run(f"{layout.label} · {name}", layout, second.laws, mission)
        markov = exact.p_markov if second.same_scenario else None
        estimates = (
            *analytic_estimates(exact),
            simulated_estimate(SIM_EXPONENTIAL, "Simulation, exponential", sim_exp, exact.p_markov),
            simulated_estimate(SIM_DISTRIBUTIONS, f"Simulation, {name}", sim_other, markov),
        )
        groups = aggregate_shape(layout, scenario.aggregate.data_disks).groups
        entries.append(LayoutMethods(layout, groups, estimates))
    return MethodsReport(
        title=scenario.name,
        mission_hours=mission,
        distributions=name,
        distributions_note=second.note,
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
        same_scenario: the distributions' means are the scenario's rates, so the estimate
            over ``p_loss_markov`` compares like with like (issue 20, item 7).
    """

    label: str
    layout: Layout
    distributions: DistributionSet
    distributions_name: str
    mission_hours: float
    p_loss_markov: float
    same_scenario: bool = True

    @classmethod
    def of(cls, scenario: Scenario, layout: Layout, p_loss_markov: float) -> SimulationRequest:
        """A group of ``layout`` with ``scenario``'s distributions and mission.

        Without a ``distributions`` section the scenario's constant rates are simulated as
        exponentials (``planner simulate``'s rule), so the estimate should match Markov.
        """
        rates = scenario.rates()
        distributions, name = distribution_set(scenario.distributions, rates)
        same = not distributions.means_apart_from(rates)
        return cls(
            layout.label, layout, distributions, name, scenario.mission_hours, p_loss_markov, same
        )

    def run(self, settings: RunSettings, on_progress: Progress | None = None) -> SimulationResult:
        """Simulate the group with ``settings`` (the TUI runs this in a worker)."""
        return simulate_layout(
            self.layout, self.distributions, self.mission_hours, settings, on_progress
        )
