"""The simulator with correlated failures against the exact correlated chain.

With exponential laws the simulated process (degraded multiplier as a factor on the hazard
while a drive is down, shocks as a Poisson process failing Binomial(W, q) drives at once)
is the correlated chain of planner.core.markov, which tests/core/test_correlated_chain.py
checks against an independent mpmath chain. Rates are inflated so that plain sampling
resolves the probabilities in a fraction of a second; each run is also shown to reject the
independent model (the assertion has teeth).
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from planner.core.markov.rates import Rates
from planner.core.markov.transient import p_loss_group
from planner.core.simulation.distributions import DistributionSet, exponential_from_rates
from planner.core.simulation.result import Method
from planner.core.simulation.simulate import GroupSimulation, simulate_group
from planner.core.simulation.time_laws import Weibull

INFLATED = Rates(
    op_failures_per_hour=1e-4,
    latent_defects_per_hour=3e-4,
    rebuild_hours=50.0,
    scrub_hours=100.0,
    degraded_multiplier=4.0,
    shocks_per_hour=2e-4,
    shock_drive_probability=0.15,
)
HOLDER_HIT = Rates(
    op_failures_per_hour=1e-5,
    latent_defects_per_hour=1e-2,
    rebuild_hours=50.0,
    scrub_hours=100.0,
    degraded_multiplier=2.0,
    shocks_per_hour=1e-3,
    shock_drive_probability=0.3,
    defect_stripe_share=0.05,
)
"""A defect nearly always present in a pool (sigma 5 %) under large shocks: whether a shock
can fail the defect's holder moves P(loss) from 0.227 (spared) to 0.258 (exposed), ten
binomial sigmas of these trials; a simulator that spared the holder failed this case."""
TRIALS = 20_000


def _agrees(estimate: float, exact: float, trials: int) -> bool:
    """Within 4 binomial sigmas of ``exact``."""
    return abs(estimate - exact) < 4 * math.sqrt(exact * (1 - exact) / trials)


@pytest.mark.parametrize(
    ("parity", "drives", "hours", "rates"),
    [
        (2, 10, 2_000.0, INFLATED),
        (1, 6, 1_000.0, dataclasses.replace(INFLATED, defect_stripe_share=0.3)),
        (1, 6, 500.0, HOLDER_HIT),
    ],
    ids=["raid6-of-10", "pool-sigma-0.3", "holder-hit"],
)
def test_plain_simulation_matches_the_correlated_chain(
    parity: int, drives: int, hours: float, rates: Rates
) -> None:
    exact = p_loss_group(parity, drives, rates, hours)
    run = GroupSimulation(
        parity, drives, exponential_from_rates(rates), hours, trials=TRIALS, seed=11
    )
    result = simulate_group(run)
    assert result.method == Method.PLAIN  # auto: shocks run plain
    assert result.ci95_low <= exact <= result.ci95_high
    assert _agrees(result.p_loss_group, exact, TRIALS)
    independent = p_loss_group(parity, drives, rates.independent(), hours)
    assert not _agrees(result.p_loss_group, independent, TRIALS)


def test_the_multiplier_alone_runs_with_the_conditional_method() -> None:
    """No shocks: the rare-event plans keep their weights relative to the m-scaled hazard."""
    rates = dataclasses.replace(INFLATED, shocks_per_hour=0.0, latent_defects_per_hour=0.0)
    parity, drives, hours = 2, 12, 2_000.0
    exact = p_loss_group(parity, drives, rates, hours)
    laws = exponential_from_rates(rates)
    result = simulate_group(
        GroupSimulation(parity, drives, laws, hours, method="conditional", trials=4_000, seed=3)
    )
    assert abs(result.p_loss_group - exact) < 4 * result.std_error
    independent = p_loss_group(parity, drives, rates.independent(), hours)
    assert abs(result.p_loss_group - independent) > 4 * result.std_error


def test_weibull_of_shape_one_with_correlation_is_the_chain() -> None:
    """The Weibull code path: the multiplier scales the hazard at the drive's age."""
    r, parity, drives, hours = INFLATED, 2, 8, 2_000.0
    laws = DistributionSet(
        Weibull(1.0, 1 / r.op_failures_per_hour),
        Weibull(1.0, r.rebuild_hours),
        Weibull(1.0, r.scrub_hours),
        r.latent_defects_per_hour,
        degraded_multiplier=r.degraded_multiplier,
        shocks_per_hour=r.shocks_per_hour,
        shock_drive_probability=r.shock_drive_probability,
    )
    result = simulate_group(GroupSimulation(parity, drives, laws, hours, trials=TRIALS, seed=5))
    assert _agrees(result.p_loss_group, p_loss_group(parity, drives, r, hours), TRIALS)


@pytest.mark.parametrize("method", ["conditional", "biased"])
def test_rare_event_methods_refuse_shocks(method: str) -> None:
    with pytest.raises(ValueError, match="does not simulate shocks"):
        GroupSimulation(2, 8, exponential_from_rates(INFLATED), 100.0, method=method)
