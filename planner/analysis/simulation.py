"""Monte Carlo runs of a scenario's layouts (``planner simulate``, the TUI's F6).

A front end may pass its own ``simulate`` (the CLI wraps :func:`simulate_layout` in a
progress bar); the computation is always :func:`simulate_layout`. Every method side by
side (``planner compare-methods``): :mod:`planner.analysis.method_comparison`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from planner.analysis.inputs import Inputs, scenario_inputs
from planner.analysis.layout_aggregate import LayoutAggregate
from planner.analysis.restore_notes import restore_notes
from planner.core.arrays.layouts import AggregateShape, Layout, aggregate_shape
from planner.core.markov.transient import p_loss_group
from planner.core.simulation.distributions import DistributionSet
from planner.core.simulation.result import SimulationResult
from planner.core.simulation.simulate import GroupSimulation, simulate_group
from planner.core.simulation.time_laws import Exponential
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
    groups: int | None = None,
) -> SimulationResult:
    """Simulate one group of ``layout`` over the mission with ``settings``.

    ``groups``: the groups of its aggregate, which share its hot spares (needed only with
    spares and a wait for a replacement; :meth:`Layout.chain_distributions`).
    """
    run = GroupSimulation(
        layout.parity,
        layout.group_size,
        layout.chain_distributions(distributions, groups),
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
class MarkovCheck:
    """The exact Markov P(loss) of one group, beside a simulated estimate of that group.

    ``planner simulate`` shows it as a column, the TUI's F6 line as a sentence: both read it
    from :func:`markov_check`, so they show the same figure.

    Attributes:
        p_loss_group: the chain's P(loss) of one group at the scenario's constant rates
            (the layout's own chain: a pool's rebuild and stripe share), the figure
            ``planner evaluate`` shows as P(loss) group.
        same_scenario: the simulated laws' means are the scenario's rates and no drive
            ages, so the estimate and this value describe one scenario and their ratio
            means something; False: the simulation ran another scenario, no comparison.
        exponential: every simulated time law is exponential, so (with ``same_scenario``)
            the simulation runs this very chain and its 95% interval should hold the value
            about 19 times in 20; other shapes at the same means move the estimate away by
            what the shapes change.
    """

    p_loss_group: float
    same_scenario: bool
    exponential: bool

    def ratio(self, result: SimulationResult) -> float | None:
        """The estimate over the exact value (NaN when that is 0); None: not comparable."""
        if not self.same_scenario:
            return None
        markov = self.p_loss_group
        return result.p_loss_group / markov if markov > 0 else math.nan

    def inside(self, result: SimulationResult) -> bool | None:
        """Whether the estimate's 95% interval holds the exact value.

        None when the simulation ran another scenario, or has no interval (a weighted run
        without a hit: :attr:`SimulationResult.warning` says why).
        """
        if not self.same_scenario or math.isnan(result.ci95_high):
            return None
        return result.ci95_low <= self.p_loss_group <= result.ci95_high


def markov_check(
    scenario: Scenario,
    layout: Layout,
    distributions: DistributionSet,
    aggregate: LayoutAggregate | None = None,
) -> MarkovCheck:
    """The exact value to set beside a simulation of ``layout`` with ``distributions``.

    ``distributions`` are the scenario's as :func:`distribution_set` gives them (before the
    layout's own rebuild speed-up, which the chain has too), for the rates of ``aggregate``
    (default: that of ``aggregate.data_disks``).
    """
    rates = scenario.rates() if aggregate is None else aggregate.rates
    groups = aggregate_shape(layout, scenario.aggregate.data_disks).groups
    chain = layout.chain_rates(rates, groups) if aggregate is None else aggregate.chain_rates
    p_markov = p_loss_group(layout.parity, layout.group_size, chain, scenario.mission_hours)
    same = scenario.core_ageing() is None and not distributions.means_apart_from(rates)
    exponential = all(isinstance(law, Exponential) for law in distributions.time_laws().values())
    return MarkovCheck(p_markov, same, exponential)


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
        markov: the exact Markov P(loss) of one group beside ``result``.
    """

    layout: Layout
    shape: AggregateShape
    result: SimulationResult
    group_lost: SimulationResult
    markov: MarkovCheck

    @property
    def ratio_to_markov(self) -> float | None:
        """The estimate over the exact Markov value; None where not comparable."""
        return self.markov.ratio(self.result)

    @property
    def markov_in_interval(self) -> bool | None:
        """Whether the 95% interval holds the exact Markov value (None: no verdict)."""
        return self.markov.inside(self.result)

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
        notes: a scrub or rebuild faster than the drives allow (:mod:`.restore_notes`), and
            from ``planner simulate`` that the aggregate is not sized for the workload.
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
    notes: tuple[str, ...] = ()


Simulate = Callable[[str, Layout, DistributionSet, float, int], SimulationResult]
"""Runs one simulation: (description, layout, distributions, mission hours, the groups of
its aggregate) -> result."""


def plain_simulate(settings: RunSettings) -> Simulate:
    """A :data:`Simulate` without progress display."""

    def run(
        _: str, layout: Layout, distributions: DistributionSet, mission: float, groups: int
    ) -> SimulationResult:
        return simulate_layout(layout, distributions, mission, settings, groups=groups)

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
        shape = aggregate_shape(layout, data_disks)
        p_loss = run(layout.label, layout, distributions, mission, shape.groups)
        group_lost = (
            p_loss
            if every_loss_ends_group
            else run(
                f"{layout.label} · group lost",
                layout,
                distributions.without_latent_defects(),
                mission,
                shape.groups,
            )
        )
        markov = markov_check(scenario, layout, distributions)
        rows.append(SimulatedLayout(layout, shape, p_loss, group_lost, markov))
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
        notes=restore_notes(scenario),
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
        markov: the exact Markov P(loss) of the group, as ``planner simulate`` shows it
            (for a sized aggregate, as ``planner size`` does).
        groups: the groups of its aggregate, which share the aggregate's hot spares.
    """

    label: str
    layout: Layout
    distributions: DistributionSet
    distributions_name: str
    mission_hours: float
    markov: MarkovCheck
    groups: int = 1

    @property
    def p_loss_markov(self) -> float:
        """The exact Markov P(loss) of one group under the scenario's constant rates."""
        return self.markov.p_loss_group

    @property
    def same_scenario(self) -> bool:
        """The distributions' means are the scenario's rates: a ratio compares like with like."""
        return self.markov.same_scenario

    @classmethod
    def of(
        cls, scenario: Scenario, layout: Layout, aggregate: LayoutAggregate | None = None
    ) -> SimulationRequest:
        """A group of ``layout`` with ``scenario``'s distributions and mission.

        Without a ``distributions`` section the scenario's constant rates are simulated as
        exponentials (``planner simulate``'s rule), so the estimate should match Markov.
        The group is one of ``aggregate``'s (:mod:`planner.analysis.layout_aggregate`: a
        sized one's own latent-defect rate and groups), by default of that of
        ``aggregate.data_disks``, as ``planner simulate`` takes it.
        """
        rates = scenario.rates() if aggregate is None else aggregate.rates
        distributions, name = distribution_set(
            scenario.distributions, rates, scenario.core_ageing()
        )
        markov = markov_check(scenario, layout, distributions, aggregate)
        fixed = aggregate_shape(layout, scenario.aggregate.data_disks).groups
        groups = fixed if aggregate is None else aggregate.groups
        return cls(
            layout.label, layout, distributions, name, scenario.mission_hours, markov, groups
        )

    def run(self, settings: RunSettings, on_progress: Progress | None = None) -> SimulationResult:
        """Simulate the group with ``settings`` (the TUI runs this in a worker)."""
        return simulate_layout(
            self.layout, self.distributions, self.mission_hours, settings, on_progress, self.groups
        )
