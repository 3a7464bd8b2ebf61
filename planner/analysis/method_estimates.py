"""Each method's P(loss) of one group, against the exact Markov answer.

The constant-rate methods (:func:`planner.core.markov.methods.analytic_methods`: the exact
chain, the MTTDL approximation ``1 - exp(-T / MTTDL)`` with the exact and the closed-form
MTTDL, the chain without latent defects, the spec-sheet URE method) and the simulations,
each as a :class:`MethodEstimate` with its ratio to the exact Markov P(loss).
``planner compare-methods`` (:mod:`planner.analysis.method_comparison`) and ``planner
evaluate --methods`` (:class:`AnalyticEstimates`) show them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from planner.analysis.closed_form import CLOSED_FORM_INDEPENDENT
from planner.core.markov.transient import relative_risk

if TYPE_CHECKING:
    from planner.analysis.simulation import Interval
    from planner.core.markov.methods import AnalyticMethods
    from planner.core.simulation.result import SimulationResult

MARKOV, MTTDL, MTTDL_APPROX, NO_LATENT = "markov", "mttdl", "mttdl_approx", "no_latent"
SPEC_SHEET = "spec_sheet"
SIM_EXPONENTIAL, SIM_DISTRIBUTIONS = "sim_exponential", "sim_distributions"


@dataclass(frozen=True)
class MethodEstimate:
    """One method's P(loss) of one group.

    Attributes:
        key: stable name in JSON and CSV (``markov``, ``mttdl``, ``sim_exponential``, ...).
        name: name shown in tables.
        p_loss_group: the probability of loss of one group over the mission.
        ratio_to_markov: ``p_loss_group`` over the exact Markov probability; None for a
            simulation of another scenario (laws whose means are not the scenario's rates),
            whose ratio would compare two scenarios.
        simulation: the simulation result for the simulated methods, else None.
        p_loss_aggregate: the aggregate's P(loss) by this method, once its groups are
            known (:mod:`planner.analysis.method_comparison`); None before.
    """

    key: str
    name: str
    p_loss_group: float
    ratio_to_markov: float | None
    simulation: SimulationResult | None = None
    p_loss_aggregate: float | None = None

    @property
    def interval(self) -> Interval | None:
        """The simulation's 95% interval of ``p_loss_group``; None for an analytic method."""
        from planner.analysis.simulation import Interval

        sim = self.simulation
        return None if sim is None else Interval(sim.ci95_low, sim.ci95_high, sim.reliable)


def analytic_estimates(analytic: AnalyticMethods, correlated: bool = False) -> list[MethodEstimate]:
    """The constant-rate methods, exact Markov first, each with its ratio to it.

    ``correlated``: the scenario's drives fail together, which the closed form leaves out:
    its row's name says so (:mod:`planner.analysis.closed_form`).
    """
    reference = analytic.p_markov
    return [
        MethodEstimate(MARKOV, "Markov, exact", reference, 1.0),
        MethodEstimate(
            MTTDL, "1-exp(-T/MTTDL)", analytic.p_mttdl, relative_risk(analytic.p_mttdl, reference)
        ),
        MethodEstimate(
            MTTDL_APPROX,
            CLOSED_FORM_INDEPENDENT if correlated else "1-exp(-T/MTTDL), closed form",
            analytic.p_mttdl_approx,
            relative_risk(analytic.p_mttdl_approx, reference),
        ),
        MethodEstimate(
            NO_LATENT,
            "Markov, no latent defects",
            analytic.p_no_latent,
            relative_risk(analytic.p_no_latent, reference),
        ),
        *(
            []
            if analytic.p_spec_sheet is None
            else [
                MethodEstimate(
                    SPEC_SHEET,
                    "Spec sheet: URE at critical rebuild",
                    analytic.p_spec_sheet,
                    relative_risk(analytic.p_spec_sheet, reference),
                )
            ]
        ),
    ]


def simulated_estimate(
    key: str, name: str, result: SimulationResult, p_markov: float | None
) -> MethodEstimate:
    """A simulation as a method estimate, with its ratio to the exact Markov answer.

    ``p_markov`` None: the simulation ran another scenario, and has no ratio. Nor has one
    that saw no loss: "0x" read as total disagreement, where its 95% interval (from 0)
    holds the exact answer (a newcomer's design review).
    """
    seen = result.p_loss_group > 0
    ratio = relative_risk(result.p_loss_group, p_markov) if p_markov is not None and seen else None
    return MethodEstimate(key, name, result.p_loss_group, ratio, result)


@dataclass(frozen=True)
class AnalyticEstimates:
    """One layout's constant-rate methods as ``planner evaluate --methods`` shows them.

    Attributes:
        mttdl_approx_hours: the closed-form (leading-order) MTTDL of one group (h).
        estimates: every analytic method, exact Markov first (:func:`analytic_estimates`).
    """

    mttdl_approx_hours: float
    estimates: tuple[MethodEstimate, ...]

    @classmethod
    def of(cls, analytic: AnalyticMethods, correlated: bool = False) -> AnalyticEstimates:
        """The estimates of ``analytic``, the core's constant-rate methods of one layout."""
        return cls(analytic.mttdl_approx_hours, tuple(analytic_estimates(analytic, correlated)))

    def estimate(self, key: str) -> MethodEstimate:
        """The estimate of the method ``key``; KeyError when it was not computed."""
        for estimate in self.estimates:
            if estimate.key == key:
                return estimate
        raise KeyError(key)
