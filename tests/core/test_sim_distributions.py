"""Time distributions of the simulator against scipy.stats (the reference, used only here).

scipy.stats is imported by the tests that use it: it takes a second of a test process's
start-up, which every other test would pay at collection.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.markov.rates import PAPER_RATES
from planner.core.simulation.distributions import (
    ELERATH_2009,
    DistributionSet,
    exponential_from_rates,
)
from planner.core.simulation.time_laws import Exponential, Weibull

if TYPE_CHECKING:
    from scipy import stats

WEIBULLS = [
    Weibull(1.2, 461_386.0),
    Weibull(2.0, 12.0, 6.0),
    Weibull(3.0, 168.0, 6.0),
    Weibull(0.7, 100.0, 2.5),
]
PROBABILITIES = np.array([0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999])


def scipy_weibull(w: Weibull) -> stats.rv_continuous:
    from scipy import stats

    return stats.weibull_min(w.shape, loc=w.location_hours, scale=w.scale_hours)


def assert_sample_matches(sample: np.ndarray, reference: stats.rv_continuous) -> None:
    """Mean within 4 standard errors; empirical CDF at the reference quantiles within 4 sigma."""
    n = sample.size
    mean, sd = reference.mean(), reference.std()
    assert abs(sample.mean() - mean) < 4 * sd / math.sqrt(n)
    quantiles = reference.ppf(PROBABILITIES)
    empirical = (sample[:, None] <= quantiles[None, :]).mean(axis=0)
    sigma = np.sqrt(PROBABILITIES * (1 - PROBABILITIES) / n)
    assert np.all(np.abs(empirical - PROBABILITIES) < 4 * sigma), empirical


@pytest.mark.parametrize("w", WEIBULLS, ids=str)
def test_weibull_sample_matches_scipy(w: Weibull) -> None:
    sample = w.sample(np.random.default_rng(7), 200_000)
    assert sample.min() >= w.location_hours
    assert_sample_matches(sample, scipy_weibull(w))


@pytest.mark.parametrize("w", WEIBULLS, ids=str)
def test_weibull_functions_match_scipy(w: Weibull) -> None:
    ref = scipy_weibull(w)
    t = w.location_hours + w.scale_hours * np.array([0.0, 1e-3, 0.3, 1.0, 2.5])
    np.testing.assert_allclose(w.cdf(t), ref.cdf(t), rtol=1e-12, atol=0)
    np.testing.assert_allclose(w.survival(t), ref.sf(t), rtol=1e-12)
    np.testing.assert_allclose(w.quantile(PROBABILITIES), ref.ppf(PROBABILITIES), rtol=1e-12)
    inside = t[1:]
    np.testing.assert_allclose(w.hazard(inside), ref.pdf(inside) / ref.sf(inside), rtol=1e-10)
    assert w.mean_hours == pytest.approx(ref.mean(), rel=1e-12)
    # Nothing can happen before the location (the minimum time).
    before = np.array([0.0, w.location_hours * 0.5])
    assert np.all(w.cdf(before) == 0.0)
    assert np.all(w.hazard(before) == 0.0)


def test_exponential_matches_scipy() -> None:
    from scipy import stats

    e = Exponential(250.0)
    ref = stats.expon(scale=250.0)
    assert_sample_matches(e.sample(np.random.default_rng(3), 200_000), ref)
    t = np.array([0.0, 1.0, 250.0, 2_000.0])
    np.testing.assert_allclose(e.cdf(t), ref.cdf(t), rtol=1e-12, atol=0)
    np.testing.assert_allclose(e.survival(t), ref.sf(t), rtol=1e-12)
    np.testing.assert_allclose(e.hazard(t), 1 / 250.0)
    assert e.rate_per_hour == 1 / 250.0


@settings(max_examples=60, deadline=None)
@given(
    shape=st.floats(0.3, 5.0),
    scale=st.floats(1.0, 1e6),
    location=st.floats(0.0, 100.0),
    z=st.floats(1e-6, 20.0),
)
def test_inverse_cumulative_hazard_inverts(
    shape: float, scale: float, location: float, z: float
) -> None:
    w = Weibull(shape, scale, location)
    t = location + scale * z
    assert float(w.inverse_cumulative_hazard(w.cumulative_hazard(t))) == pytest.approx(t, rel=1e-12)
    h = z**shape  # without a location the hazard round trip keeps full relative accuracy
    unshifted = Weibull(shape, scale)
    assert float(unshifted.cumulative_hazard(unshifted.inverse_cumulative_hazard(h))) == (
        pytest.approx(h, rel=1e-12)
    )


def test_sampling_is_reproducible_by_seed() -> None:
    w = ELERATH_2009.restoration
    a = w.sample(np.random.default_rng(11), 1_000)
    b = w.sample(np.random.default_rng(11), 1_000)
    c = w.sample(np.random.default_rng(12), 1_000)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_elerath_preset_has_the_published_values() -> None:
    assert ELERATH_2009.operational_failure == Weibull(1.2, 461_386.0, 0.0)
    assert ELERATH_2009.restoration == Weibull(2.0, 12.0, 6.0)
    assert ELERATH_2009.scrub == Weibull(3.0, 168.0, 6.0)
    assert ELERATH_2009.latent_defects_per_hour == 1.08e-4
    # Mean rebuild 6 + 12 Gamma(1.5) h, mean scrub 6 + 168 Gamma(4/3) h.
    assert ELERATH_2009.restoration.mean_hours == pytest.approx(6 + 6 * math.sqrt(math.pi))
    assert ELERATH_2009.scrub.mean_hours == pytest.approx(6 + 168 * math.gamma(4 / 3))


def test_exponential_from_rates_keeps_the_means() -> None:
    d = exponential_from_rates(PAPER_RATES)
    assert d.operational_failure == Exponential(8_760.0 / 0.019)
    assert d.restoration == Exponential(12.0)
    assert d.scrub == Exponential(168.0)
    assert d.latent_defects_per_hour == PAPER_RATES.latent_defects_per_hour


@pytest.mark.parametrize(
    "build",
    [
        lambda: Weibull(0.0, 10.0),
        lambda: Weibull(1.0, -1.0),
        lambda: Weibull(1.0, 10.0, -1.0),
        lambda: Weibull(math.nan, 10.0),
        lambda: Exponential(0.0),
        lambda: Exponential(math.inf),
        lambda: DistributionSet(Exponential(1.0), Exponential(1.0), Exponential(1.0), -1e-4),
    ],
)
def test_invalid_parameters_are_rejected(build: object) -> None:
    with pytest.raises(ValueError, match="must be"):
        build()  # type: ignore[operator]
