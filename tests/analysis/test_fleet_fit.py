"""``planner fit``'s estimates against independent fits, and its intervals' coverage.

The exponential rate is checked against its closed form (failures / drive-hours) and
against lifelines' own ExponentialFitter; the Weibull fit (lifelines) against the censored
MLE and observed information of ``tests/reference.py`` (the profile score, bisection,
analytic second derivatives). Coverage runs over hundreds of synthetic logs with a known
truth, in an easy regime (many failures) and a hard one (few failures, heavy censoring):
the misses must stay under the 99.9 % point of Binomial(seeds, 5 %). The bulk of the
Weibull seeds use the reference fit (lifelines takes ~0.1 s a fit) fed through planner's
interval; the lifelines fit is tied to the reference on representative logs.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import pdtr, pdtrc

from planner.analysis.fleet_fit import WeibullUnavailableError, log_normal_interval, weibull_fit
from planner.analysis.fleet_rates import (
    arr_by_year,
    exponential_fit,
    poisson_rate_interval,
)
from tests import reference
from tests.coverage import binomial_quantile

# every module that fits with lifelines runs on one worker: only that worker imports it
# and pandas (~1.7 s of CPU; make test runs pytest with --dist loadgroup)
pytestmark = pytest.mark.xdist_group("lifelines")

HOURS_PER_YEAR = 8760.0
SEEDS = 400
MAX_MISSES = binomial_quantile(0.999, SEEDS, 0.05)
"""Misses of a 95 % interval in SEEDS logs that a nominal interval exceeds 1 time in 1,000."""
MIN_MISSES = binomial_quantile(0.001, SEEDS, 0.05)


def weibull_logs(
    seed: int, seeds: int, drives: int, shape: float, scale: float, watch_hours: float
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """``seeds`` logs of Weibull lifetimes, each drive watched a uniform time up to watch_hours."""
    rng = np.random.default_rng(seed)
    life = scale * rng.weibull(shape, (seeds, drives))
    watched = rng.uniform(0.0, watch_hours, (seeds, drives))
    return np.minimum(life, watched), life <= watched


def test_the_exponential_rate_is_failures_over_drive_hours_as_lifelines_finds() -> None:
    from lifelines import ExponentialFitter

    hours, failed = weibull_logs(5, 1, 300, 1.0, 50_000.0, 30_000.0)
    fit = exponential_fit(hours[0], failed[0])
    assert fit.rate_per_hour == failed.sum() / hours.sum()
    assert fit.arr == pytest.approx(fit.rate_per_hour * HOURS_PER_YEAR, rel=1e-15)
    # lifelines' ExponentialFitter gives the mean life by numerical optimisation
    mean_life = ExponentialFitter().fit(hours[0], failed[0]).lambda_
    assert fit.mean_life_hours == pytest.approx(mean_life, rel=1e-6)


@pytest.mark.parametrize(("failures", "exposure"), [(0, 1e5), (1, 3e4), (7, 2e6), (400, 1e8)])
def test_the_poisson_interval_is_exact_by_the_poisson_cdf(failures: int, exposure: float) -> None:
    # scipy.special's Poisson CDF and survival function (those of scipy.stats.poisson)
    low, high = poisson_rate_interval(failures, exposure)
    assert pdtr(failures, high * exposure) == pytest.approx(0.025, rel=1e-9)
    if failures == 0:
        assert low == 0.0
    else:
        assert pdtrc(failures - 1, low * exposure) == pytest.approx(0.025, rel=1e-9)


def test_arr_by_year_counts_drive_years_and_failures_by_hand() -> None:
    hours = np.array([4380.0, 8760.0, 8760.0, 13140.0, 20000.0, 0.0])
    failed = np.array([True, True, False, True, False, False])
    years = arr_by_year(hours, failed)
    assert [y.year for y in years] == [1, 2, 3]
    # year 1: 4380 + 8760 * 4; year 2: 4380 + 8760; year 3: 20000 - 17520
    assert [y.drive_hours for y in years] == [39420.0, 13140.0, 2480.0]
    assert [y.failures for y in years] == [2, 1, 0]  # a failure at 8760 h ends year 1
    assert years[0].arr == pytest.approx(2 / 39420.0 * HOURS_PER_YEAR)
    assert years[2].arr == 0.0
    assert years[2].arr_ci[0] == 0.0


@pytest.mark.parametrize(
    ("drives", "watch_hours", "two_sided"),
    [(2000, 40_000.0, True), (40, 60_000.0, False)],
    ids=["easy: ~90 failures", "hard: ~3 failures, some logs with none"],
)
def test_the_arr_intervals_cover_the_truth_at_the_nominal_rate(
    drives: int, watch_hours: float, two_sided: bool
) -> None:
    rate = 0.02 / HOURS_PER_YEAR
    hours, failed = weibull_logs(11, SEEDS, drives, 1.0, 1.0 / rate, watch_hours)
    assert 2 < failed.sum(axis=1).mean() < 100
    misses = year_misses = 0
    for h, f in zip(hours, failed, strict=True):
        low, high = exponential_fit(h, f).arr_ci
        misses += not low <= 0.02 <= high
        first = arr_by_year(h, f)[0]
        year_misses += not first.arr_ci[0] <= 0.02 <= first.arr_ci[1]
    assert misses <= MAX_MISSES
    assert year_misses <= MAX_MISSES
    if two_sided:  # exact intervals are conservative only when counts are small
        assert misses >= MIN_MISSES


def test_the_weibull_fit_is_the_censored_mle() -> None:
    cases = [
        weibull_logs(21, 1, 300, 1.5, 10_000.0, 20_000.0),  # many failures
        weibull_logs(22, 1, 400, 1.3, 100_000.0, 17_520.0),  # ~17 failures, heavy censoring
        weibull_logs(23, 1, 60, 0.8, 5_000.0, 1e9),  # every drive failed: no censoring
    ]
    for hours, failed in cases:
        fit = weibull_fit(hours[0], failed[0])
        shape, scale, se_shape, se_scale = (
            v[0] for v in reference.weibull_censored_mle(hours, failed)
        )
        assert fit.shape == pytest.approx(shape, rel=1e-6)
        assert fit.scale_hours == pytest.approx(scale, rel=1e-6)
        # the interval is the log-scale Wald interval of the same observed information
        assert fit.shape_ci == pytest.approx(log_normal_interval(shape, se_shape), rel=1e-5)
        assert fit.scale_hours_ci == pytest.approx(log_normal_interval(scale, se_scale), rel=1e-5)


def test_a_log_with_too_few_failure_times_has_no_weibull_fit() -> None:
    hours = np.array([10.0, 20.0, 30.0, 40.0])
    with pytest.raises(WeibullUnavailableError, match="2 different times"):
        weibull_fit(hours, np.array([False, True, False, False]))
    with pytest.raises(WeibullUnavailableError, match="2 different times"):
        weibull_fit(np.array([10.0, 20.0, 20.0]), np.array([False, True, True]))


def _weibull_misses(
    hours: npt.NDArray[np.float64],
    failed: npt.NDArray[np.bool_],
    truth: tuple[float, float],
    se_factor: float = 1.0,
) -> tuple[int, int]:
    shapes, scales, se_shapes, se_scales = reference.weibull_censored_mle(hours, failed)
    misses = [0, 0]
    for estimates in zip(shapes, scales, se_shapes * se_factor, se_scales * se_factor, strict=True):
        for index in (0, 1):
            low, high = log_normal_interval(estimates[index], estimates[index + 2])
            misses[index] += not low <= truth[index] <= high
    return misses[0], misses[1]


@pytest.mark.parametrize(
    ("drives", "truth", "watch_hours"),
    [(300, (1.5, 10_000.0), 20_000.0), (400, (1.3, 100_000.0), 17_520.0)],
    ids=["easy: ~170 failures", "hard: ~17 failures, 96% censored"],
)
def test_the_weibull_intervals_cover_the_truth_at_the_nominal_rate(
    drives: int, truth: tuple[float, float], watch_hours: float
) -> None:
    hours, failed = weibull_logs(31, SEEDS, drives, *truth, watch_hours)
    assert failed.sum(axis=1).min() >= 2
    shape_misses, scale_misses = _weibull_misses(hours, failed, truth)
    assert MIN_MISSES <= shape_misses <= MAX_MISSES
    assert MIN_MISSES <= scale_misses <= MAX_MISSES
    # the bound has teeth: intervals half as wide (a 68 % interval) fail it
    narrow = _weibull_misses(hours, failed, truth, se_factor=0.5)
    assert min(narrow) > MAX_MISSES


def test_log_normal_interval_is_symmetric_on_the_log_scale() -> None:
    low, high = log_normal_interval(2.0, 0.2)
    assert math.sqrt(low * high) == pytest.approx(2.0)
    assert math.log(high / 2.0) == pytest.approx(1.959963984540054 * 0.1)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(1.0, 1e5), st.booleans()), min_size=1, max_size=30),
    st.data(),
)
def test_one_more_failure_never_lowers_the_arr_or_its_interval(
    rows: list[tuple[float, bool]], data: st.DataObject
) -> None:
    hours = np.array([h for h, _ in rows])
    failed = np.array([f for _, f in rows])
    if failed.all():
        return
    index = data.draw(st.sampled_from(np.flatnonzero(~failed).tolist()))
    more = failed.copy()
    more[index] = True  # the same drive-hours, one failure more
    before, after = exponential_fit(hours, failed), exponential_fit(hours, more)
    assert after.arr > before.arr
    assert after.arr_ci[0] > before.arr_ci[0] or before.arr_ci[0] == after.arr_ci[0] == 0
    assert after.arr_ci[1] > before.arr_ci[1]
