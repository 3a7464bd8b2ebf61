"""A declustered pool's stripe share sigma in the simulator, against the chain in mpmath.

In a declustered pool (OpenZFS dRAID) a stripe spans ``w = d + p`` of the C drives, so out
of ``(k - 1, 1)`` the failure of a drive other than the defect's holder loses sectors only
when the defect's stripe also holds every failed drive, a share sigma of those failures;
otherwise the defect's stripe keeps redundancy, the rebuild repairs it, and the group goes
to ``(k, 0)``. The holder's own failure goes ``(f, 1) -> (f + 1, 0)`` as in any group. The
chain with both moves is :func:`tests.reference.p_loss` with ``share`` (written from that
text, not from planner's code); sigma = 1 is a traditional group's chain, the alternative
every run must reject.

The regimes are small groups with many defects and long scrubs, so that most losses go
through ``(k - 1, 1)`` and sigma = 0.3 lowers P(loss) by a third to two thirds: more than
thirty sigmas of each run of 5,000 trials. Every comparison asserts |sim - exact| < 4 sigma and
|sim - (sigma = 1)| > 4 sigma, for plain sampling, conditioning, and ``auto`` where it picks
the splitting with failure biasing.
"""

from __future__ import annotations

import dataclasses
import math
from functools import cache

import pytest

from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.markov.rates import Rates
from planner.core.simulation.distributions import DistributionSet, exponential_from_rates
from planner.core.simulation.estimate import MIN_TRIALS_REL_ERROR
from planner.core.simulation.rare_events import conditional_plan, plain_plan
from planner.core.simulation.simulate import GroupSimulation, simulate_group
from tests import reference

# one worker runs the whole module, so the cached references and runs are computed once
# (make test runs pytest with --dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_sim_stripe_share")

SHARE = 0.3
"""sigma of the tests: about a 20-drive pool of 6d+2p stripes (7/19 x 6/18 = 0.12) or wider."""


@cache
def exact(parity: int, drives: int, rates: Rates, hours: float, share: float) -> float:
    """P(loss by ``hours``) of the chain with stripe share ``share``, from the pristine state."""
    return float(
        reference.p_loss(
            parity,
            drives,
            rates.op_failures_per_hour,
            rates.latent_defects_per_hour,
            rates.rebuild_hours,
            rates.scrub_hours,
            hours,
            rates.rebuild_streams,
            share,
        )
    )


def laws(rates: Rates, share: float = SHARE) -> DistributionSet:
    """The chain's exponential laws with the pool's stripe share."""
    return dataclasses.replace(exponential_from_rates(rates), defect_stripe_share=share)


MANY_DEFECTS = Rates(5e-4, 1e-2, 100.0, 3_000.0)
WORSE = Rates(1e-3, 2e-2, 100.0, 3_000.0)

# (parity k, drives N, mission hours, rates)
CASES = [
    (1, 6, 300.0, MANY_DEFECTS),
    (2, 8, 400.0, WORSE),
    (2, 8, 400.0, dataclasses.replace(WORSE, rebuild_streams=None)),
]


def case_id(case: tuple[int, int, float, Rates]) -> str:
    k, n, hours, rates = case
    return f"k{k}-N{n}-T{hours:g}-streams{rates.rebuild_streams}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("method", ["plain", "conditional"])
def test_simulation_matches_the_chain_with_the_stripe_share(
    case: tuple[int, int, float, Rates], method: str
) -> None:
    k, n, hours, rates = case
    new = exact(k, n, rates, hours, SHARE)
    every = exact(k, n, rates, hours, 1.0)
    result = simulate_group(
        GroupSimulation(k, n, laws(rates), hours, method=method, trials=5_000, seed=2026)
    )
    assert result.method == method
    # Plain sampling's sigma from the exact p (binomial), the others' their own.
    binomial = math.sqrt(new * (1 - new) / result.trials)
    sigma = binomial if method == "plain" else result.std_error
    assert abs(result.p_loss_group - new) < 4 * sigma, (result, new)
    # Teeth: every such failure a loss (sigma = 1, the simulator before) is far outside.
    assert abs(result.p_loss_group - every) > 4 * sigma, (result, every)


RARE_CASES = [
    (3, 6, 5 * 8_760.0, Rates(2e-5, 2e-3, 100.0, 8_000.0)),
    (2, 8, 5 * 8_760.0, Rates(3e-7, 1e-3, 100.0, 8_000.0)),
]


@pytest.mark.parametrize("case", RARE_CASES, ids=case_id)
def test_rare_event_estimate_follows_the_stripe_share(
    case: tuple[int, int, float, Rates],
) -> None:
    """Splitting with failure biasing (auto picks it here) at p ~ 1e-4 and 5e-6."""
    k, n, hours, rates = case
    new = exact(k, n, rates, hours, SHARE)
    every = exact(k, n, rates, hours, 1.0)
    run = GroupSimulation(k, n, laws(rates), hours, trials=MIN_TRIALS_REL_ERROR, seed=11)
    result = simulate_group(run)  # fewer trials than the floor get a warning (result.py)
    assert result.method == "biased"
    assert result.reliable, result.warning
    assert abs(result.p_loss_group - new) < 4 * result.std_error, (result, new)
    assert abs(result.p_loss_group - every) > 4 * result.std_error, (result, every)


def test_share_one_is_a_traditional_group() -> None:
    """sigma = 1 takes no extra draw: the same seed gives the same result as the default."""
    rates = WORSE
    for method in ("plain", "conditional", "biased"):
        run = {"method": method, "trials": 2_000, "seed": 3}
        with_one = simulate_group(GroupSimulation(2, 8, laws(rates, 1.0), 400.0, **run))
        default = simulate_group(GroupSimulation(2, 8, exponential_from_rates(rates), 400.0, **run))
        assert with_one == default


def test_a_pool_simulates_with_its_stripe_share() -> None:
    pool = Layout("pool", "draid2", 2, 48, Declustered(data=8, spares=2))
    traditional = Layout("raid6", "raid6", 2, 12)
    base = exponential_from_rates(WORSE)
    assert pool.chain_distributions(base).defect_stripe_share == pool.defect_stripe_share
    assert pool.defect_stripe_share == pytest.approx(9 / 47 * 8 / 46)
    assert traditional.chain_distributions(base).defect_stripe_share == 1.0


@pytest.mark.parametrize("share", [0.0, -0.1, 1.5, math.nan])
def test_a_share_outside_zero_one_is_rejected(share: float) -> None:
    with pytest.raises(ValueError, match="defect_stripe_share"):
        laws(WORSE, share)


def test_the_clearing_failures_are_no_bias() -> None:
    """Out of (k - 1, 1) a conditional plan lets 1 - sigma of the failures happen, unbiased."""
    plan = conditional_plan(2, 8, SHARE)
    assert plan.op_weight[1][1] == pytest.approx(1 - SHARE)
    assert (plan.kill_weight(1, 1), plan.kill_weight(2, 0)) == (SHARE, 1.0)
    assert not plan.biased
    assert not plain_plan(2, 8, SHARE).biased
    with pytest.raises(ValueError, match="holds every killing failure"):
        dataclasses.replace(plan, op_weight=((1.0, 1.0), (1.0, 0.7), (0.5, 0.0)))
