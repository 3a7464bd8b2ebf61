"""The rare-event estimator: unbiased at realistic (tiny) probabilities, for any k.

References: the exact Markov probability for exponential laws at NS3574's rates (p down to
1e-10, where plain sampling would need ~1e11 trials), and the plain simulator for Weibull
laws where both converge. All comparisons assert |difference| < 4 sigma; against the exact
value the same run also rejects a model with 20% more drive failures by more than 4 sigma
(the estimator's power, checked where the trials were cut to what that needs).
"""

import math
from dataclasses import replace

import numpy as np
import pytest

from planner.core.markov.rates import PAPER_RATES
from planner.core.markov.transient import p_loss_group
from planner.core.simulation.biasing import (
    DEFAULT_UP_PER_REBUILD,
    biased_plan,
    expected_critical_visits,
)
from planner.core.simulation.distributions import (
    ELERATH_2009,
    DistributionSet,
    exponential_from_rates,
)
from planner.core.simulation.rare_events import conditional_plan, plain_plan
from planner.core.simulation.runs import run_batch, run_split
from planner.core.simulation.simulate import GroupSimulation, resolve_method, simulate_group
from planner.core.simulation.time_laws import Weibull

FIVE_YEARS = 5 * 8_760.0
PAPER_LAWS = exponential_from_rates(PAPER_RATES)
MORE_FAILURES = replace(PAPER_RATES, op_failures_per_hour=1.2 * PAPER_RATES.op_failures_per_hour)
"""The wrong model each exact comparison must reject: 20% more drive failures."""


@pytest.mark.parametrize(
    ("k", "n", "trials"),
    [
        (1, 8, 2_500),
        (2, 16, 2_500),
        (2, 22, 2_500),
        (3, 16, 2_500),
        (3, 24, 2_500),
        (4, 24, 7_500),
    ],
)
def test_rare_event_matches_markov_at_paper_rates(k: int, n: int, trials: int) -> None:
    exact = p_loss_group(k, n, PAPER_RATES, FIVE_YEARS)
    result = simulate_group(GroupSimulation(k, n, PAPER_LAWS, FIVE_YEARS, trials=trials, seed=31))
    assert result.method == resolve_method(GroupSimulation(k, n, PAPER_LAWS, FIVE_YEARS))
    assert result.method == ("biased" if k >= 3 else "conditional")
    assert abs(result.p_loss_group - exact) < 4 * result.std_error, (result, exact)
    # Power: 20% more failures sits 8 to 58 sigmas from these runs.
    wrong = p_loss_group(k, n, MORE_FAILURES, FIVE_YEARS)
    assert abs(result.p_loss_group - wrong) > 4 * result.std_error, (result, wrong)
    # Converged, not just wide: +/-15% at 95% from 2,500 trials at p ~ 1e-7 (plain
    # sampling would need ~1e9), 7,500 at p ~ 1e-10 (+/-1% to 9% here).
    assert result.rel_error < 0.15


@pytest.mark.parametrize("bias", [0.0, 0.5, 2.0, DEFAULT_UP_PER_REBUILD, 40.0])
def test_any_bias_is_unbiased(bias: float) -> None:
    k, n = 3, 16
    exact = p_loss_group(k, n, PAPER_RATES, FIVE_YEARS)
    trials = 20_000 if bias == 0 else 2_500
    result = simulate_group(
        GroupSimulation(
            k, n, PAPER_LAWS, FIVE_YEARS, method="biased", trials=trials, seed=7, bias=bias
        )
    )
    if bias == 0:  # conditioning only: few trials reach f + l = 3, but no bias either
        assert result.hits > 0
        assert result.p_loss_group - exact < 4 * result.std_error
    else:
        assert abs(result.p_loss_group - exact) < 4 * result.std_error
        # Power: 20% more failures sits 11 to 18 sigmas from these runs.
        wrong = p_loss_group(k, n, MORE_FAILURES, FIVE_YEARS)
        assert abs(result.p_loss_group - wrong) > 4 * result.std_error, (result, wrong)


WEAR_OUT = DistributionSet(
    operational_failure=Weibull(1.5, 4_000.0),
    restoration=Weibull(2.0, 40.0, 10.0),
    scrub=Weibull(3.0, 150.0, 6.0),
    latent_defects_per_hour=3e-4,
)


@pytest.mark.parametrize(("k", "n", "hours"), [(1, 5, 2_000.0), (2, 6, 3_000.0), (3, 8, 3_000.0)])
def test_rare_event_matches_plain_for_weibull(k: int, n: int, hours: float) -> None:
    plain = simulate_group(
        GroupSimulation(k, n, WEAR_OUT, hours, method="plain", trials=40_000, seed=12)
    )
    rare = simulate_group(GroupSimulation(k, n, WEAR_OUT, hours, trials=20_000, seed=13))
    sigma = math.hypot(plain.std_error, rare.std_error)
    assert plain.hits >= 50
    assert abs(plain.p_loss_group - rare.p_loss_group) < 4 * sigma, (plain, rare)
    # The rare-event estimate is several times tighter from half the trials.
    assert rare.std_error < plain.std_error / 2


def test_rare_event_matches_plain_for_elerath_raid5() -> None:
    plain = simulate_group(
        GroupSimulation(1, 8, ELERATH_2009, FIVE_YEARS, method="plain", trials=40_000, seed=1)
    )
    # Plain sampling's error (1.1e-3 at p ~ 0.047) is sigma: the rare-event one from 2,500
    # trials (1.5e-4) widens it by 1%.
    rare = simulate_group(GroupSimulation(1, 8, ELERATH_2009, FIVE_YEARS, trials=2_500, seed=2))
    assert plain.hits >= 50
    sigma = math.hypot(plain.std_error, rare.std_error)
    assert abs(plain.p_loss_group - rare.p_loss_group) < 4 * sigma, (plain, rare)


@pytest.mark.parametrize("k", [2, 3])
def test_elerath_double_and_triple_parity_converge(k: int) -> None:
    """RAID-DP 16 (the issue's goal) and triple parity reach +/-10% at 95% in few trials."""
    result = simulate_group(
        GroupSimulation(k, 16, ELERATH_2009, FIVE_YEARS, rel_error=0.1, seed=2009)
    )
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
    weibull = simulate_group(GroupSimulation(2, 16, d, FIVE_YEARS, trials=2_500, seed=3))
    constant = simulate_group(GroupSimulation(2, 16, same_means, FIVE_YEARS, trials=2_500, seed=3))
    # About 3x apart: the intervals are disjoint by a wide margin (7.2e-5 < 1.7e-4 here).
    assert weibull.ci95_high < constant.ci95_low


# --- the sampling plan -------------------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_plan_holds_critical_states_and_biases_only_rebuilds(k: int) -> None:
    plan = biased_plan(k, 16, ELERATH_2009, FIVE_YEARS)
    for f in range(k + 1):
        for latent in (0, 1):
            if f + latent > k:
                continue
            weight = plan.op_weight[f][latent]
            slow = plan.rebuild_weight[f][latent]
            if f + latent == k:
                assert weight == 0.0
                assert slow == 1.0
            elif f == 0:
                assert weight == 1.0
            else:
                assert weight > 1.0
                assert 0 < slow < 1.0
        assert plan.ld_weight[f] >= 1.0
    assert plan.ld_weight[0] == 1.0
    assert plan.biased == (k >= 2)


def test_biasing_keeps_the_exit_rate_and_sets_the_odds() -> None:
    """In a biased state up-moves win theta : 1 against the rebuild at the same total rate."""
    theta = 10.0
    laws = PAPER_LAWS
    plan = biased_plan(3, 16, laws, FIVE_YEARS, up_per_rebuild=theta)
    a = 15 * PAPER_RATES.op_failures_per_hour  # state (1, 0): 15 drives at risk
    b = 15 * PAPER_RATES.latent_defects_per_hour
    d = 1 / PAPER_RATES.rebuild_hours
    up = plan.op_weight[1][0] * a + plan.ld_weight[1] * b
    down = plan.rebuild_weight[1][0] * d
    assert up + down == pytest.approx(a + b + d, rel=1e-12)
    assert up / down == pytest.approx(theta, rel=1e-12)


def test_auto_conditions_where_critical_states_are_frequent() -> None:
    many = DistributionSet(Weibull(1.0, 8_760 / 0.2), Weibull(1.0, 100.0), Weibull(1.0, 168.0), 0.0)
    assert expected_critical_visits(2, 10, many, 10 * 8_760.0) > 0.1
    assert resolve_method(GroupSimulation(2, 10, many, 10 * 8_760.0)) == "conditional"
    assert expected_critical_visits(3, 16, PAPER_LAWS, FIVE_YEARS) < 0.1
    assert resolve_method(GroupSimulation(3, 16, PAPER_LAWS, FIVE_YEARS)) == "biased"
    assert resolve_method(GroupSimulation(1, 8, PAPER_LAWS, FIVE_YEARS)) == "conditional"


def test_plain_and_unbiased_plans() -> None:
    plain = plain_plan(2, 6)
    assert not plain.conditional
    assert not plain.biased
    assert not conditional_plan(3, 8).biased
    assert not biased_plan(3, 8, ELERATH_2009, FIVE_YEARS, up_per_rebuild=0.0).biased
    with pytest.raises(ValueError, match="up_per_rebuild"):
        biased_plan(3, 8, ELERATH_2009, FIVE_YEARS, up_per_rebuild=-1.0)


def test_batch_estimates_are_probabilities() -> None:
    plan = conditional_plan(2, 6)
    y, steps = run_batch(plan, WEAR_OUT, 3_000.0, 2_000, np.random.default_rng(0))
    assert y.shape == (2_000,)
    assert steps > 0
    assert np.all((y >= 0) & (y <= 1))
    biased = biased_plan(3, 8, WEAR_OUT, 3_000.0)
    z, _ = run_split(
        conditional_plan(3, 8), biased, WEAR_OUT, 3_000.0, 2_000, np.random.default_rng(0)
    )
    assert z.shape == (2_000,)
    assert np.all(np.isfinite(z))
    assert np.all(z >= 0)
