"""Every method side by side for a scenario's layouts (``planner compare-methods``).

For each layout: the constant-rate methods (:mod:`planner.analysis.method_estimates`), then
two simulations, one with constant rates and one with non-exponential laws (the scenario's
distributions, else a preset's shapes at the scenario's means), each with its ratio to the
exact Markov answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from planner.analysis.closed_form import closed_form_note
from planner.analysis.compare import analytic_by_label
from planner.analysis.inputs import Inputs, scenario_inputs
from planner.analysis.method_estimates import (
    SIM_DISTRIBUTIONS,
    SIM_EXPONENTIAL,
    MethodEstimate,
    analytic_estimates,
    simulated_estimate,
)
from planner.analysis.simulation import RunSettings, Simulate, plain_simulate
from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.markov.transient import p_loss_aggregate
from planner.core.simulation.distributions import DistributionSet, exponential_from_rates
from planner.core.simulation.time_laws import Weibull
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
class LayoutMethods:
    """Every method's answer for one layout.

    Attributes:
        layout: the layout.
        groups: RAID groups of the aggregate.
        estimates: one per method, the exact Markov answer first, each with the
            aggregate's P(loss) (``p_loss_aggregate``).
    """

    layout: Layout
    groups: int
    estimates: tuple[MethodEstimate, ...]


@dataclass(frozen=True)
class MethodsReport:
    """Everything ``planner compare-methods`` shows.

    Attributes:
        title: the scenario's name.
        mission_hours: mission length (h).
        distributions: name of the distributions of the second simulation.
        distributions_note: why those distributions (e.g. the preset stood in), or "".
        method: the simulation estimator asked for (``auto``, ``conditional``, ``biased``
            or ``plain``).
        seed: the random seed of every simulation.
        stopping: the simulations' stopping rule in words.
        target_rel_error: the simulations' requested relative error, or None for a fixed
            trial count (a simulation that stops short of it gets a note).
        inputs: the scenario's assumptions, printed by every export (None: not known).
        layouts: one entry per layout, in the scenario's order.
        fixed_note: that the aggregate is ``aggregate.data_disks``', not sized for the
            scenario's workload (``planner compare-methods`` sets it), "" otherwise.
        closed_form_note: what the closed form leaves out (a correlated scenario's
            failures: :func:`planner.analysis.closed_form.closed_form_note`), or "".
    """

    title: str
    mission_hours: float
    distributions: str
    distributions_note: str
    method: str
    seed: int
    stopping: str
    layouts: tuple[LayoutMethods, ...]
    inputs: Inputs | None = None
    fixed_note: str = ""
    target_rel_error: float | None = None
    closed_form_note: str = ""


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
    texts["latent_defects_per_hour"] = (
        f"{laws.latent_defects_per_hour:.3g} per data drive-hour (each layout's chain takes "
        "its drives' mean, docs/drives.md)"
        if laws.defects_per_data_drive
        else f"{laws.latent_defects_per_hour:.3g} per drive-hour"
    )
    if laws.hot_spares and laws.replace_delay_hours:
        texts["restoration"] += " with no hot spare free"
    return texts


def _shape_words(laws: DistributionSet) -> str:
    """Why the shapes' simulation differs from Markov at the same means (a newcomer's review).

    A design review showed the Weibull row at 0.06x Markov with no word of why: a time to
    failure whose shape is over 1 (wear-out) fails fewer young drives than a constant rate
    of the same mean, so over a mission shorter than the mean life fewer drives fail.
    """
    failure = laws.operational_failure
    if not isinstance(failure, Weibull) or failure.shape == 1:
        return ""
    early = "fewer" if failure.shape > 1 else "more"
    kind = "wear-out" if failure.shape > 1 else "infant mortality"
    return (
        f" Its time to failure has shape {failure.shape:g} ({kind}): at the same mean, "
        f"{early} drives fail in the first years than at the constant rate the Markov rows "
        "assume, so its vs Markov is what the shapes alone change; which to believe is "
        "which law your drives follow (planner fit on your fleet's log, docs/fit.md)."
    )


def second_distributions(scenario: Scenario) -> SecondSimulation:
    """The distributions of the non-exponential simulation (issue 20, item 7).

    Without a distributions section: the :data:`SHAPES_PRESET` preset's shapes scaled so
    their means are the scenario's (:meth:`DistributionSet.at_means`), so the simulation
    runs the scenario and its ratio to Markov shows what the shapes alone change. With a
    section: its laws as written; if their means are not the scenario's rates it is
    another scenario, and the row gets no ratio.
    """
    rates = scenario.rates()
    ageing = scenario.core_ageing()
    if ageing is not None:
        laws, name = distribution_set(scenario.distributions, rates, ageing)
        note = (
            f"Simulation, {name} runs the ageing section's time to failure, each replaced "
            "drive new, against the constant-rate Markov rows: its vs Markov is left empty; "
            "P(loss) ageing in planner evaluate is the chain that keeps the batch's age "
            "(docs/ageing.md compares the two)."
        )
        return SecondSimulation(laws, name, note, False)
    if scenario.distributions is None:
        laws = DISTRIBUTION_PRESETS[SHAPES_PRESET].at_means(rates)
        means = _mean_texts(laws)
        note = (
            f"The scenario has no distributions section, so the second simulation takes the "
            f"{SHAPES_PRESET} preset's shapes (Elerath and Pecht 2009 Weibulls) scaled so "
            f"their means are the scenario's: time to failure {means['operational_failure']}, "
            f"rebuild {means['restoration']} (each layout's own, as in the chain: a declustered "
            "pool's shorter, hot spares' wait shorter), "
            f"scrub {means['scrub']}, latent defects {means['latent_defects_per_hour']}; "
            f"add distributions: to choose.{_shape_words(laws)}"
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
        groups = aggregate_shape(layout, scenario.aggregate.data_disks).groups
        sim_exp = run(f"{layout.label} · exponential", layout, exponential, mission, groups)
        sim_other = run(f"{layout.label} · {name}", layout, second.laws, mission, groups)
        markov = exact.p_markov if second.same_scenario else None
        estimates = (
            *analytic_estimates(exact, scenario.correlated),
            simulated_estimate(SIM_EXPONENTIAL, "Simulation, exponential", sim_exp, exact.p_markov),
            simulated_estimate(SIM_DISTRIBUTIONS, f"Simulation, {name}", sim_other, markov),
        )
        with_aggregate = tuple(
            replace(e, p_loss_aggregate=p_loss_aggregate(e.p_loss_group, groups)) for e in estimates
        )
        entries.append(LayoutMethods(layout, groups, with_aggregate))
    return MethodsReport(
        title=scenario.name,
        mission_hours=mission,
        distributions=name,
        distributions_note=second.note,
        closed_form_note=closed_form_note(scenario, layouts, analytic),
        # auto runs plain Monte Carlo where shocks fail several drives at once
        method="plain" if settings.method == "auto" and exponential.shocks else settings.method,
        seed=settings.seed,
        stopping=settings.stopping,
        layouts=tuple(entries),
        inputs=scenario_inputs(scenario, overrides),
        target_rel_error=settings.rel_error,
    )
