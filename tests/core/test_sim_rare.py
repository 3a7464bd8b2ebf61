"""The rare-event estimator: unbiased at realistic (tiny) probabilities, for any k.

References: the exact Markov probability for exponential laws at NS3574's rates (p down to
1e-10, where plain sampling would need ~1e11 trials), and the plain simulator for Weibull
laws where both converge. All comparisons assert |difference| < 4 sigma.
"""

import math

import numpy as np
import pytest

from planner.core.distributions import (
    ELERATH_2009,
    DistributionSet,
    Weibull,
    exponential_from_rates,
)
from planner.core.evaluate import p_loss_group
from planner.core.rare_events import DEFAULT_BIAS, conditional_plan, plain_plan
from planner.core.rates import PAPER_RATES
from planner.core.sim_kernel import run_batch
from planner.core.simulate import simulate_group

FIVE_YEARS = 5 * 8_760.0
PAPER_LAWS = exponential_from_rates(PAPER_RATES)


@pytest.mark.parametrize(
    ("k", "n", "trials"),
    [
        (1, 8, 10_000),
        (2, 16, 10_000),
        (2, 22, 10_000),
        (3, 16, 10_000),
        (3, 24, 10_000),
        (4, 24, 30_000),
    ],
)
def test_rare_event_matches_markov_at_paper_rates(k: int, n: int, trials: int) -> None:
    exact = p_loss_group(k, n, PAPER_RATES, FIVE_YEARS)
    result = simulate_group(k, n, PAPER_LAWS, FIVE_YEARS, trials=trials, seed=31)
    assert result.method == "conditional"
    assert abs(result.p_loss_group - exact) < 4 * result.std_error, (result, exact)
    # Converged, not just wide: +/-15% at 95% from 10,000 trials at p ~ 1e-7 (plain
    # sampling would need ~1e9), 30,000 at p ~ 1e-10.
    assert result.rel_error < 0.15


@pytest.mark.parametrize("bias", [0.0, 0.2, DEFAULT_BIAS, 2.0])
def test_any_bias_is_unbiased(bias: float) -> None:
    k, n = 3, 16
    exact = p_loss_group(k, n, PAPER_RATES, FIVE_YEARS)
    trials = 40_000 if bias == 0 else 10_000
    result = simulate_group(k, n, PAPER_LAWS, FIVE_YEARS, trials=trials, seed=7, bias=bias)
    if bias == 0:  # conditioning only: few trials reach f + l = 3, but no bias either
        assert result.hits > 0
        assert result.p_loss_group - exact < 4 * result.std_error
    else:
        assert abs(result.p_loss_group - exact) < 4 * result.std_error


WEAR_OUT = DistributionSet(
    operational_failure=Weibull(1.5, 4_000.0),
    restoration=Weibull(2.0, 40.0, 10.0),
    scrub=Weibull(3.0, 150.0, 6.0),
    latent_defects_per_hour=3e-4,
)


@pytest.mark.parametrize(("k", "n", "hours"), [(1, 5, 2_000.0), (2, 6, 3_000.0), (3, 8, 3_000.0)])
def test_rare_event_matches_plain_for_weibull(k: int, n: int, hours: float) -> None:
    plain = simulate_group(k, n, WEAR_OUT, hours, method="plain", trials=40_000, seed=12)
    rare = simulate_group(k, n, WEAR_OUT, hours, trials=20_000, seed=13)
    sigma = math.hypot(plain.std_error, rare.std_error)
    assert plain.hits >= 50
    assert abs(plain.p_loss_group - rare.p_loss_group) < 4 * sigma, (plain, rare)
    # The rare-event estimate is several times tighter from half the trials.
    assert rare.std_error < plain.std_error / 2


def test_rare_event_matches_plain_for_elerath_raid5() -> None:
    plain = simulate_group(1, 8, ELERATH_2009, FIVE_YEARS, method="plain", trials=40_000, seed=1)
    rare = simulate_group(1, 8, ELERATH_2009, FIVE_YEARS, trials=10_000, seed=2)
    assert plain.hits >= 50
    sigma = math.hypot(plain.std_error, rare.std_error)
    assert abs(plain.p_loss_group - rare.p_loss_group) < 4 * sigma, (plain, rare)


@pytest.mark.parametrize("k", [2, 3])
def test_elerath_double_and_triple_parity_converge(k: int) -> None:
    """RAID-DP 16 (the issue's goal) and triple parity reach +/-10% at 95% in few trials."""
    result = simulate_group(k, 16, ELERATH_2009, FIVE_YEARS, rel_error=0.1, seed=2009)
    assert result.rel_error <= 0.1
    assert result.trials <= 30_000
    assert 0 < result.ci95_low < result.p_loss_group < result.ci95_high


def test_weibull_lifetimes_differ_from_constant_rate_with_same_mean() -> None:
    """Shape 1.2 wear-out: new drives fail less at first, so over five years RAID-DP loses
    data less often than under a constant rate with the same mean life (rebuild and scrub as
    exponentials with the preset's means)."""
    d = ELERATH_2009
    same_means = exponential_from_rates(
        PAPER_RATES.__class__(
            1 / d.operational_failure.mean_hours,
            d.latent_defects_per_hour,
            d.restoration.mean_hours,
            d.scrub.mean_hours,
        )
    )
    weibull = simulate_group(2, 16, d, FIVE_YEARS, trials=10_000, seed=3)
    constant = simulate_group(2, 16, same_means, FIVE_YEARS, trials=10_000, seed=3)
    assert weibull.ci95_high < constant.ci95_low


# --- the sampling plan -------------------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_plan_holds_critical_states_and_biases_only_rebuilds(k: int) -> None:
    plan = conditional_plan(k, 16, ELERATH_2009, FIVE_YEARS)
    for f in range(k + 1):
        for latent in (0, 1):
            if f + latent > k:
                continue
            weight = plan.op_weight[f][latent]
            if f + latent == k:
                assert weight == 0.0
            elif f == 0:
                assert weight == 1.0
            else:
                assert weight > 1.0
        assert plan.ld_weight[f] >= 1.0
    assert plan.ld_weight[0] == 1.0
    assert plan.biased == (k >= 2)


def test_plain_and_unbiased_plans() -> None:
    plain = plain_plan(2, 6)
    assert not plain.conditional
    assert not plain.biased
    assert not conditional_plan(3, 8, ELERATH_2009, FIVE_YEARS, bias=0.0).biased
    with pytest.raises(ValueError, match="bias"):
        conditional_plan(3, 8, ELERATH_2009, FIVE_YEARS, bias=-1.0)


def test_batch_estimates_are_probabilities() -> None:
    plan = conditional_plan(2, 6, WEAR_OUT, 3_000.0)
    y, steps = run_batch(plan, WEAR_OUT, 3_000.0, 2_000, np.random.default_rng(0))
    assert y.shape == (2_000,)
    assert steps > 0
    assert np.all(y >= 0)
    assert np.all(np.isfinite(y))
