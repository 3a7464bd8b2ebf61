"""The simulator's P(group lost): k + 1 drives down at once (issue 20, item 3).

P(group lost) is the probability that k + 1 drives are down at once during the mission,
sector losses written off and the group going on; latent defects play no part in it. The
simulator estimates it by running the same group with latent defects off
(:meth:`planner.core.simulation.distributions.DistributionSet.without_latent_defects` says
why). With exponential laws that is the birth-death chain of
:func:`reference.overlapping_failures`, written in the tests from the definition; the
estimate's 95% interval must hold it, including where defects are frequent and the paper's
first-loss split (which stops at the first sector loss) is far below it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import cache

import mpmath
import pytest
from scipy.special import bdtr

from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.markov.rates import PAPER_RATES, Rates, arr_to_failures_per_hour
from planner.core.simulation.distributions import DistributionSet, exponential_from_rates
from planner.core.simulation.simulate import GroupSimulation, simulate_group
from planner.core.simulation.time_laws import Weibull
from tests import reference
from tests.coverage import covering_runs, lower_bound

# one worker runs the whole module, so the cached references and runs are computed once
# (make test runs pytest with --dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_sim_group_lost")

YEAR = 8_760.0
SEEDS = max(40, int(os.environ.get("PLANNER_COVERAGE_SEEDS", "40")))
"""Runs per coverage regime: two regimes of ~0.1 s runs, so more than test_sim_coverage's."""
TRIALS = 500
SPEC_SHEET_DEFECTS = 9.5e-4
"""Latent defects per drive-hour planner derives for a 20 TB spec-sheet drive (issue 20)."""


def _rates(arr: float, latent: float, rebuild_hours: float, streams: int | None = 1) -> Rates:
    return Rates(arr_to_failures_per_hour(arr), latent, rebuild_hours, 168.0, streams)


def _exact(parity: int, drives: int, rates: Rates, hours: float) -> float:
    return float(
        reference.overlapping_failures(
            parity,
            drives,
            rates.op_failures_per_hour,
            rates.rebuild_hours,
            hours,
            rates.rebuild_streams,
        )
    )


def test_the_reference_is_the_chain_without_defects() -> None:
    """Two independent writings of one chain: the n+k chain with lambda_Ld = 0."""
    for parity, drives, streams in ((1, 8, 1), (2, 12, 1), (3, 16, None)):
        birth_death = reference.overlapping_failures(parity, drives, 2e-5, 50.0, 5 * YEAR, streams)
        chain = reference.p_loss(parity, drives, 2e-5, 0.0, 50.0, 168.0, 5 * YEAR, streams)
        assert reference.relative_error(float(birth_death), chain) < 1e-12


CASES = [
    # (name, parity, drives, rates, mission): spec-sheet defects, where the split differs.
    ("raid5-8", 1, 8, _rates(0.01, SPEC_SHEET_DEFECTS, 77.0), 5 * YEAR),
    ("raid6-12", 2, 12, _rates(0.01, SPEC_SHEET_DEFECTS, 77.0), 5 * YEAR),
    ("raid6-12-parallel", 2, 12, _rates(0.05, SPEC_SHEET_DEFECTS, 77.0, None), 5 * YEAR),
    ("triple-16", 3, 16, _rates(0.01, SPEC_SHEET_DEFECTS, 77.0), 5 * YEAR),
]


@pytest.mark.parametrize(("name", "parity", "drives", "rates", "hours"), CASES)
def test_simulated_group_lost_agrees_with_the_birth_death_chain(
    name: str, parity: int, drives: int, rates: Rates, hours: float
) -> None:
    result = simulate_group(
        GroupSimulation(
            parity,
            drives,
            exponential_from_rates(rates).without_latent_defects(),
            hours,
            rel_error=0.05,
            seed=1,
        )
    )
    exact = _exact(parity, drives, rates, hours)
    assert result.reliable, (name, result.warning)
    assert result.ci95_low <= exact <= result.ci95_high, (name, result, exact)


def test_a_declustered_pool_rebuilds_one_at_a_time_at_the_pools_rate() -> None:
    pool = Layout("pool", "draid2", 2, 48, Declustered(data=8, spares=2))
    rates = _rates(0.02, SPEC_SHEET_DEFECTS, 77.0, None)
    laws = pool.chain_distributions(exponential_from_rates(rates))
    result = simulate_group(
        GroupSimulation(2, 48, laws.without_latent_defects(), 5 * YEAR, rel_error=0.05, seed=12)
    )
    chain = replace(rates, rebuild_hours=rates.rebuild_hours / pool.rebuild_speedup)
    exact = _exact(2, 48, replace(chain, rebuild_streams=1), 5 * YEAR)
    assert result.ci95_low <= exact <= result.ci95_high, (result, exact)


def test_the_check_has_teeth_against_the_first_loss_split() -> None:
    """The interval excludes P(group lost) as the paper's chain splits it (first loss only)."""
    rates = _rates(0.01, SPEC_SHEET_DEFECTS, 77.0)
    result = simulate_group(
        GroupSimulation(
            2,
            12,
            exponential_from_rates(rates).without_latent_defects(),
            5 * YEAR,
            rel_error=0.05,
            seed=11,
        )
    )
    first_loss, _ = reference.loss_split(
        2, 12, rates.op_failures_per_hour, SPEC_SHEET_DEFECTS, 77.0, 168.0, 5 * YEAR
    )
    assert float(first_loss) < result.ci95_low
    assert mpmath.mpf(result.p_loss_group) / first_loss > 2  # the 0.24x, the other way


def test_latent_defects_play_no_part_with_weibull_laws() -> None:
    """With any laws the estimate does not move with the defect rate or the scrub."""
    laws = DistributionSet(
        operational_failure=Weibull(1.5, 4_000.0),
        restoration=Weibull(2.0, 40.0, 10.0),
        scrub=Weibull(3.0, 150.0, 6.0),
        latent_defects_per_hour=3e-3,
    )
    few = simulate_group(
        GroupSimulation(2, 6, laws.without_latent_defects(), 3_000.0, trials=4_000, seed=5)
    )
    many = simulate_group(
        GroupSimulation(
            2,
            6,
            replace(
                laws, latent_defects_per_hour=0.3, scrub=Weibull(1.0, 900.0)
            ).without_latent_defects(),
            3_000.0,
            trials=4_000,
            seed=5,
        )
    )
    assert few.p_loss_group == many.p_loss_group  # the same trials: defects never drawn
    with_defects = simulate_group(GroupSimulation(2, 6, laws, 3_000.0, trials=4_000, seed=5))
    assert with_defects.p_loss_group > few.p_loss_group


@dataclass(frozen=True)
class Regime:
    """A coverage case: the group, its constant rates and the mission (h)."""

    name: str
    parity: int
    drives: int
    rates: Rates
    hours: float


REGIMES = [
    # Easy: ~20 rebuilds per mission, P ~ 4e-3, frequent defects.
    Regime("raid6-10-arr20-100h-10y", 2, 10, _rates(0.2, 3e-4, 100.0), 10 * YEAR),
    # Hard: the paper's rates, triple parity, P ~ 7e-11.
    Regime("triple-16-paper", 3, 16, PAPER_RATES, 5 * YEAR),
]


@cache
def covers(regime: Regime) -> int:
    """How many of ``SEEDS`` runs of ``TRIALS`` trials each cover the chain's value.

    The runs are slices of one vectorised batch (:func:`tests.coverage.covering_runs`).
    """
    exact = _exact(regime.parity, regime.drives, regime.rates, regime.hours)
    laws = exponential_from_rates(regime.rates).without_latent_defects()
    run = GroupSimulation(
        regime.parity, regime.drives, laws, regime.hours, trials=TRIALS, seed=20_000
    )
    return covering_runs(run, exact, SEEDS)


@pytest.mark.parametrize("regime", REGIMES, ids=lambda r: r.name)
def test_group_lost_interval_covers_at_nominal_rate(regime: Regime) -> None:
    assert covers(regime) >= lower_bound(SEEDS), (regime.name, covers(regime), SEEDS)


def test_the_coverage_bound_has_teeth() -> None:
    """Per regime, the bound rejects an interval that covers 80% of the time."""
    assert bdtr(lower_bound(SEEDS) - 1, SEEDS, 0.80) > 0.5
