"""Monte Carlo runs of a scenario's layouts (``planner simulate``, the TUI's F6).

A front end may pass its own ``simulate`` (the CLI wraps :func:`simulate_layout` in a
progress bar); the computation is always :func:`simulate_layout`. Every method side by
side (``planner compare-methods``): :mod:`planner.analysis.method_comparison`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from planner.analysis.inputs import Inputs, scenario_inputs
from planner.core.arrays.layouts import AggregateShape, Layout, aggregate_shape
from planner.core.simulation.distributions import DistributionSet
from planner.core.simulation.simulate import GroupSimulation, SimulationResult, simulate_group
from planner.scenario import Scenario
from planner.scenario.distributions import distribution_set


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


@dataclass(frozen=True)
class Interval:
    """A 95% interval of a probability, and whether the diagnostics trust it."""

    low: float
    high: float
    reliable: bool


@dataclass(frozen=True)
class SimulatedLayout:
    """One layout's simulation.

    Attributes:
        layout: the layout (group size, parity, label).
        shape: how the layout fills the aggregate: its groups, for the aggregate
            probability, and whether they divide it evenly (``5*`` otherwise).
        result: the simulated P(loss) of one group with its interval.
        group_lost: the simulated P(group lost) of one group (k + 1 drives down at once,
            sector losses written off) with its interval; ``result`` itself where every
            loss loses the group.
    """

    layout: Layout
    shape: AggregateShape
    result: SimulationResult
    group_lost: SimulationResult

    @property
    def groups(self) -> int:
        """RAID groups the aggregate needs."""
        return self.shape.groups

    @property
    def p_loss_aggregate(self) -> float:
        """P(loss) of the aggregate: 1 - (1 - p)^groups."""
        return self.result.p_loss_aggregate(self.groups)

    @property
    def p_group_lost_aggregate(self) -> float:
        """P(some group of the aggregate lost whole): 1 - (1 - p)^groups."""
        return self.group_lost.p_loss_aggregate(self.groups)

    @property
    def interval(self) -> Interval:
        """The 95% interval of the group's P(loss)."""
        result = self.result
        return Interval(result.ci95_low, result.ci95_high, result.reliable)

    @property
    def aggregate_interval(self) -> Interval:
        """The 95% interval of the aggregate's P(loss)."""
        return Interval(*self.result.ci95_aggregate(self.groups), self.result.reliable)

    @property
    def group_lost_interval(self) -> Interval:
        """The 95% interval of the group's P(group lost)."""
        lost = self.group_lost
        return Interval(lost.ci95_low, lost.ci95_high, lost.reliable)

    @property
    def group_lost_aggregate_interval(self) -> tuple[float, float]:
        """The 95% interval of the aggregate's P(group lost): (low, high)."""
        return self.group_lost.ci95_aggregate(self.groups)


@dataclass(frozen=True)
class SimulationReport:
    """Everything a simulation report shows.

    Attributes:
        title: the scenario's name.
        mission_hours: mission length (h).
        data_disks: the aggregate's data drives (for the note on an uneven division).
        distributions: name of the distributions (``elerath2009``, ``custom``, ...).
        method: the estimator asked for: ``auto``, ``conditional``, ``biased`` or ``plain``.
        seed: the random seed every layout was run with.
        stopping: the stopping rule in words (``until +/-10% or 20 s per layout``).
        target_rel_error: the requested relative error, or None for a fixed trial count.
        inputs: the scenario's assumptions, printed by every export (None: not known).
        rows: one simulated layout per row, in the scenario's order.
        sectors_fail_rebuild: an unreadable sector fails the rebuild
            (``restore.on_unreadable_sector: fail-rebuild``): every loss loses the group.
    """

    title: str
    mission_hours: float
    data_disks: int
    distributions: str
    method: str
    seed: int
    stopping: str
    target_rel_error: float | None
    rows: tuple[SimulatedLayout, ...]
    inputs: Inputs | None = None
    sectors_fail_rebuild: bool = False


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
    distributions, name = distribution_set(
        scenario.distributions, scenario.rates(), scenario.core_ageing()
    )
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
        # auto runs plain Monte Carlo where shocks fail several drives at once
        method="plain" if settings.method == "auto" and distributions.shocks else settings.method,
        seed=settings.seed,
        stopping=settings.stopping,
        target_rel_error=settings.rel_error,
        rows=tuple(rows),
        sectors_fail_rebuild=scenario.restore.on_unreadable_sector == "fail-rebuild",
        inputs=scenario_inputs(scenario, overrides),
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
        ageing = scenario.core_ageing()
        distributions, name = distribution_set(scenario.distributions, rates, ageing)
        same = ageing is None and not distributions.means_apart_from(rates)
        return cls(
            layout.label, layout, distributions, name, scenario.mission_hours, p_loss_markov, same
        )

    def run(self, settings: RunSettings, on_progress: Progress | None = None) -> SimulationResult:
        """Simulate the group with ``settings`` (the TUI runs this in a worker)."""
        return simulate_layout(
            self.layout, self.distributions, self.mission_hours, settings, on_progress
        )
