"""Coverage of the simulator's 95% intervals across regimes, against independent references.

An honest 95% interval covers the true value in 95% of runs. For each regime below the test
runs ``SEEDS`` runs of 500 trials (slices of one batch, :mod:`tests.coverage`) and counts how
often the 95% interval holds the reference:

* exponential laws: the exact Markov probability
  (:func:`planner.core.markov.transient.p_loss_group`,
  itself checked against 100-digit mpmath in ``test_core_transient``);
* Weibull laws: plain Monte Carlo with 100,000 trials (a 0/1 estimator with nothing to tune,
  checked against the exact chain in ``test_sim_engine``), whose own standard error is a fifth
  of the tested intervals' half-width or less.

The bound: with ``M`` runs of an honest interval the number of covers is Binomial(M, 0.95);
the test fails below its 0.1% quantile, per regime and pooled over all regimes (so an honest
estimator fails a regime with probability <= 0.1%, and the seed is fixed anyway). The
regimes span few and many rebuilds per mission, k = 1 to 8, probabilities from 0.3 down to
6e-30, with and without latent defects, exponential and Weibull laws; they include the two
of the issue (RAID 6 of 10, ARR 20%, 100 h rebuilds, 10 years, exact 7.159e-3: the earlier
estimator covered it 10 times in 20) and the high-parity cases n+6 of 7 and n+8 of 9.

``PLANNER_COVERAGE_SEEDS=40`` (or more) runs the longer profile on demand.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import cache

import pytest
from scipy.special import bdtr

from planner.core.markov.rates import PAPER_RATES, Rates, arr_to_failures_per_hour
from planner.core.markov.transient import p_loss_group
from planner.core.simulation.distributions import DistributionSet, exponential_from_rates
from planner.core.simulation.simulate import GroupSimulation, simulate_group
from planner.core.simulation.time_laws import Weibull
from tests.coverage import lower_bound, run_coverage

# one worker runs the whole module, so the cached references and runs are computed once
# (make test runs pytest with --dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_sim_coverage")

YEAR = 8_760.0
SEEDS = int(os.environ.get("PLANNER_COVERAGE_SEEDS", "8"))
TRIALS = 500


def _rates(arr: float, latent_per_hour: float, rebuild_hours: float) -> Rates:
    return Rates(arr_to_failures_per_hour(arr), latent_per_hour, rebuild_hours, 168.0)


WEAR_OUT = DistributionSet(
    operational_failure=Weibull(1.5, 4_000.0),
    restoration=Weibull(2.0, 40.0, 10.0),
    scrub=Weibull(3.0, 150.0, 6.0),
    latent_defects_per_hour=3e-4,
)


@dataclass(frozen=True)
class Regime:
    """One case: group shape, laws, mission, and where its reference comes from."""

    name: str
    parity: int
    drives: int
    mission_hours: float
    rates: Rates | None = None
    laws: DistributionSet | None = None

    def distributions(self) -> DistributionSet:
        if self.laws is not None:
            return self.laws
        assert self.rates is not None
        return exponential_from_rates(self.rates)


REGIMES = [
    # The reproducer: ~20 rebuilds per mission, no latent defects.
    Regime("raid6-10-arr20-100h-10y", 2, 10, 10 * YEAR, _rates(0.2, 0.0, 100.0)),
    Regime("raid6-12-arr8-48h-10y", 2, 12, 10 * YEAR, _rates(0.08, 0.0, 48.0)),
    Regime("raid5-10-arr20-100h-10y", 1, 10, 10 * YEAR, _rates(0.2, 0.0, 100.0)),
    Regime("triple-10-arr20-100h-latent-10y", 3, 10, 10 * YEAR, _rates(0.2, 1.08e-4, 100.0)),
    # The same with both failed drives rebuilt at once (restore.parallel_rebuilds: true).
    Regime(
        "raid6-10-arr20-100h-10y-parallel",
        2,
        10,
        10 * YEAR,
        replace(_rates(0.2, 0.0, 100.0), rebuild_streams=None),
    ),
    # The paper's rates (latent defects, few rebuilds), k = 1 to 4.
    Regime("raid5-8-paper", 1, 8, 5 * YEAR, PAPER_RATES),
    Regime("raid-dp-16-paper", 2, 16, 5 * YEAR, PAPER_RATES),
    Regime("triple-16-paper", 3, 16, 5 * YEAR, PAPER_RATES),
    Regime("quad-24-paper", 4, 24, 5 * YEAR, PAPER_RATES),
    # High parity (issue 13 item 6): exact 1.24e-22 and 6.4e-30.
    Regime("n+6-of-7-paper", 6, 7, 5 * YEAR, PAPER_RATES),
    Regime("n+8-of-9-paper", 8, 9, 5 * YEAR, PAPER_RATES),
    # Weibull wear-out, reference from plain sampling.
    Regime("weibull-raid6-6", 2, 6, 3_000.0, laws=WEAR_OUT),
]


@cache
def reference(regime: Regime) -> float:
    """The exact Markov value, or a 100,000-trial plain estimate for Weibull laws."""
    if regime.rates is not None:
        return p_loss_group(regime.parity, regime.drives, regime.rates, regime.mission_hours)
    plain = simulate_group(
        GroupSimulation(
            regime.parity,
            regime.drives,
            regime.distributions(),
            regime.mission_hours,
            method="plain",
            trials=100_000,
            seed=99_999,
        )
    )
    return plain.p_loss_group


@cache
def coverage(regime: Regime) -> tuple[int, int]:
    """Of ``SEEDS`` runs of ``TRIALS`` trials each: how many cover the reference, and how
    many cover it or flag their interval as not to be trusted.

    The runs are slices of one vectorised batch (:func:`tests.coverage.run_coverage`).
    """
    run = GroupSimulation(
        regime.parity,
        regime.drives,
        regime.distributions(),
        regime.mission_hours,
        trials=TRIALS,
        seed=10_000,
    )
    return run_coverage(run, reference(regime), SEEDS)


HEAVY_TAILED = "n+8-of-9-paper"
"""The known gap (docs/simulation.md): at depth 8 the default bias leaves the copies'
weights heavy-tailed, and 500-trial intervals cover ~65% of the time (20 and 24 of 40 runs
at two seeds): every such run says so (the ⚠ mark: fewer than 30 effective trials; 0 of
those 80 runs trusted)."""


@pytest.mark.parametrize("regime", REGIMES, ids=lambda r: r.name)
def test_interval_covers_reference_at_nominal_rate(regime: Regime) -> None:
    """Every regime but the known gap covers at the nominal rate; that one is honest: each
    run either covers the exact value or flags its interval as not to be trusted."""
    covering, honest = coverage(regime)
    if regime.name == HEAVY_TAILED:
        assert honest == SEEDS, (regime.name, covering, honest, SEEDS)
    else:
        assert covering >= lower_bound(SEEDS), (regime.name, covering, SEEDS)


def test_pooled_coverage_is_nominal() -> None:
    total = sum(coverage(regime)[0] for regime in REGIMES)
    runs = SEEDS * len(REGIMES)
    assert total >= lower_bound(runs), (total, runs, lower_bound(runs))


def test_bound_has_teeth() -> None:
    """The bound rejects an interval that covers 85% of the time, at the pooled size."""
    runs = SEEDS * len(REGIMES)
    assert bdtr(lower_bound(runs) - 1, runs, 0.85) > 0.5
