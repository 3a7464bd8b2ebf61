"""Coverage of the 95% interval of a run that ``rel_error`` stops, over many seeds.

A run stops at the first batch whose interval is narrow enough. With heavy-tailed per-trial
estimates that rule picks its runs: one that has not yet met the rare large trials has a
low estimate and a low variance, so it stops first, and its interval misses the true value
(docs/simulation.md). Found by a review: ``planner compare-methods
scenarios/today-20tb-nl-sas.yaml`` gave its dRAID pool 0.862x the exact value, with an
interval that excluded it, after 1,500 trials; over 400 seeds the runs that stopped there
covered the exact value 72% of the time (``benchmarks/coverage_rel_error.py``).

The per-trial estimates here are drawn from two laws whose mean is known exactly, through
the run's own stopping rule and interval (:func:`run_until_stopped`), so thousands of runs
take a second:

* hard: the shape measured on that pool's 3,000,000 conditional trials: 31% zeros, a
  body with a coefficient of variation of ~1.1, and 0.13% of the trials at ~54 times the
  mean carrying 7% of it (skewness ~21);
* easy: the body alone (skewness ~2.6), where runs stopped early and covered before.

Each regime counts the runs whose interval holds the mean and fails below the 0.1% quantile
of Binomial(runs, 0.95) (:func:`tests.coverage.lower_bound`: 552 of 600). Without the floor
(``min_trials=0``) the hard regime's runs stop after 3,400 trials on average and 537 of 600
cover (523 to 538 at eight other seeds); with it, 574 (557 to 575). The easy regime covers
576 either way (it stopped after 1,500 trials, now after 15,500).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pytest
from scipy.special import bdtr

from planner.core.markov.rates import PAPER_RATES
from planner.core.simulation.distributions import exponential_from_rates
from planner.core.simulation.estimate import MIN_TRIALS_REL_ERROR
from planner.core.simulation.kernel import FloatArray
from planner.core.simulation.result import Method
from planner.core.simulation.simulate import GroupSimulation, run_until_stopped
from tests.coverage import lower_bound

RUNS = 600
SCALE = 1e-4
"""Per-trial estimates are probabilities: the laws below are scaled to a mean of ~1e-4."""

BODY_NONZERO = 0.689
BODY_SHAPE, BODY_MEAN = 0.77, 1.35
RARE_SHARE = 0.0013
RARE_SHAPE, RARE_MEAN = 5.0, 53.5


def _draw(rng: np.random.Generator, size: int, rare: bool) -> FloatArray:
    """``size`` per-trial estimates: the body, plus the rare large trials when ``rare``.

    The order of a batch's trials does not matter to the pooled statistics, so the nonzero
    ones are drawn as a count and put first.
    """
    y = np.zeros(size)
    body = rng.binomial(size, BODY_NONZERO)
    y[:body] = rng.gamma(BODY_SHAPE, BODY_MEAN / BODY_SHAPE, body)
    if rare:
        hits = rng.binomial(size, RARE_SHARE)
        y[rng.integers(0, size, hits)] += rng.gamma(RARE_SHAPE, RARE_MEAN / RARE_SHAPE, hits)
    return SCALE * y


def _mean(rare: bool) -> float:
    return SCALE * (BODY_NONZERO * BODY_MEAN + (RARE_SHARE * RARE_MEAN if rare else 0.0))


def _batches(rng: np.random.Generator, rare: bool) -> Callable[[int], FloatArray]:
    return lambda size: _draw(rng, size, rare)


@cache
def coverage(rare: bool) -> tuple[int, float]:
    """Of ``RUNS`` runs stopped at ±10%: how many intervals hold the mean; mean trials."""
    run = GroupSimulation(2, 48, exponential_from_rates(PAPER_RATES), 43_800.0, rel_error=0.1)
    mean = _mean(rare)
    covering, trials = 0, 0
    for seed in range(RUNS):
        rng = np.random.default_rng([20_251, seed])
        result = run_until_stopped(run, Method.CONDITIONAL, _batches(rng, rare))
        assert result.stopped_by == "rel_error"
        covering += result.ci95_low <= mean <= result.ci95_high
        trials += result.trials
    return covering, trials / RUNS


@pytest.mark.parametrize("rare", [False, True], ids=["easy", "hard"])
def test_stopped_interval_covers_at_nominal_rate(rare: bool) -> None:
    covering, trials = coverage(rare)
    assert covering >= lower_bound(RUNS), (covering, RUNS, lower_bound(RUNS), trials)


def test_bound_has_teeth() -> None:
    """The bound rejects the 88% the hard regime covered before the fix."""
    assert bdtr(lower_bound(RUNS) - 1, RUNS, 0.88) > 0.99


@cache
def fixed_count_coverage(trials: int) -> tuple[int, int]:
    """Of ``RUNS`` hard-regime runs of exactly ``trials`` trials: how many intervals hold
    the mean, and how many runs carry no warning."""
    run = GroupSimulation(2, 48, exponential_from_rates(PAPER_RATES), 43_800.0, trials=trials)
    mean = _mean(True)
    covering = unwarned = 0
    for seed in range(RUNS):
        rng = np.random.default_rng([20_252, seed])
        result = run_until_stopped(run, Method.CONDITIONAL, _batches(rng, True))
        covering += result.ci95_low <= mean <= result.ci95_high
        unwarned += not result.warning
    return covering, unwarned


def test_a_short_fixed_run_says_its_interval_can_be_too_narrow() -> None:
    """``--trials 1500``: the hard regime's intervals cover too rarely, and say so.

    A fixed count selects nothing, but a normal interval still needs many trials when a
    few rare ones carry the estimate (W. G. Cochran, "Sampling Techniques", 1977, 2.15):
    at 1,500 trials 90% of 1,000 runs covered, and a warning fired on 3 of them (those
    that had met a rare trial, which cover best). Nothing in a short run's sample shows
    the tail it has not met, so the warning goes by the count: below the floor a
    weighted run's interval is said to be possibly too narrow, every time.
    """
    covering, unwarned = fixed_count_coverage(1_500)
    assert covering < lower_bound(RUNS), covering  # the problem is real here
    assert unwarned == 0, f"{unwarned} of {RUNS} runs of 1,500 trials gave no warning"


def test_a_fixed_run_past_the_floor_covers_without_a_warning() -> None:
    covering, unwarned = fixed_count_coverage(MIN_TRIALS_REL_ERROR)
    assert covering >= lower_bound(RUNS), covering
    assert unwarned >= RUNS - 5, unwarned
