"""The degraded multiplier: windows and exposures counted by hand, the interval's exactness
(the binomial tails at its ends) and its coverage over many seeds."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import bdtr, bdtrc

from planner.analysis.degraded import degraded_multiplier, rate_ratio
from tests.coverage import binomial_quantile


def _fit(
    rows: list[tuple[float, bool, int, float]], window_hours: float
) -> tuple[int, int, float, float, float]:
    hours, failed, groups, installed = (np.array(column) for column in zip(*rows, strict=True))
    found = degraded_multiplier(
        hours.astype(float), failed.astype(bool), groups.astype(np.int64),
        installed.astype(float), window_hours,
    )  # fmt: skip
    return (
        found.failures_in_windows,
        found.failures_outside,
        found.drive_hours_in_windows,
        found.drive_hours_outside,
        found.multiplier,
    )


def test_windows_and_exposures_as_counted_by_hand() -> None:
    rows = [  # (hours, failed, group, installed_at_hours); window 50 h
        (100.0, True, 0, 0.0),  # group 0 degraded (100, 150]
        (120.0, True, 0, 0.0),  # inside that window: degraded; it opens (120, 170]
        (200.0, False, 0, 0.0),  # degraded in (100, 170]: 70 h
        (30.0, False, 0, 140.0),  # a replacement, in service (140, 170]: 30 h degraded
        (130.0, True, 1, 0.0),  # group 1: (130, 180], not group 0's business
        (300.0, False, 1, 0.0),  # degraded 50 h
        (500.0, False, 2, 0.0),  # alone in its group: never degraded
    ]
    inside, outside, hours_in, hours_out, multiplier = _fit(rows, 50.0)
    assert (inside, outside) == (1, 2)
    assert hours_in == 20.0 + 70.0 + 30.0 + 50.0
    assert hours_out == 1380.0 - 170.0
    assert multiplier == pytest.approx((1 / 170.0) / (2 / 1210.0))


def test_failures_at_the_same_hour_and_at_the_window_edge() -> None:
    rows = [
        (100.0, True, 0, 0.0),
        (100.0, True, 0, 0.0),  # same hour: neither is after the other
        (150.0, True, 0, 0.0),  # exactly at the end of (100, 150]: inside
        (200.5, True, 0, 0.0),  # just past (150, 200]: outside
        (400.0, False, 0, 0.0),
    ]
    inside, outside, hours_in, _, _ = _fit(rows, 50.0)
    assert (inside, outside) == (1, 3)
    # (100, 200] for the drives of 150 h, 200.5 h and 400 h, then (200.5, 250.5] for one
    assert hours_in == 50.0 + 100.0 + 100.0 + 50.0


def test_without_install_times_every_drive_starts_at_hour_zero() -> None:
    hours = np.array([10.0, 15.0, 40.0])
    found = degraded_multiplier(
        hours, np.array([True, True, False]), np.zeros(3, dtype=np.int64), None, 10.0
    )
    assert found.failures_in_windows == 1
    assert found.drive_hours_in_windows == 5.0 + 15.0  # (10, 25] for the 40 h drive


def test_a_log_without_failures_or_without_group_mates_has_no_multiplier() -> None:
    hours = np.array([10.0, 20.0])
    with pytest.raises(ValueError, match="no failure"):
        degraded_multiplier(hours, np.array([False, False]), np.array([0, 0]), None, 5.0)
    with pytest.raises(ValueError, match="no drive was in service"):
        degraded_multiplier(hours, np.array([True, True]), np.array([0, 1]), None, 5.0)


@pytest.mark.parametrize(("inside", "outside"), [(0, 40), (3, 60), (25, 900), (7, 0)])
def test_the_rate_ratio_interval_ends_where_the_binomial_tails_are_2_5_percent(
    inside: int, outside: int
) -> None:
    hours_in, hours_out = 150.0, 20_000.0
    estimate, (low, high) = rate_ratio(inside, hours_in, outside, hours_out)
    total = inside + outside

    def share(ratio: float) -> float:  # P(a failure falls in the windows) at this ratio
        return ratio * hours_in / (ratio * hours_in + hours_out)

    # the binomial survival function and CDF of scipy.special (those of scipy.stats.binom)

    if inside > 0:
        assert bdtrc(inside - 1, total, share(low)) == pytest.approx(0.025, rel=1e-7)
    else:
        assert low == 0.0
    if outside > 0:
        assert bdtr(inside, total, share(high)) == pytest.approx(0.025, rel=1e-7)
        assert estimate == pytest.approx(inside / hours_in / (outside / hours_out))
    else:
        assert high == np.inf
        assert estimate == np.inf


@pytest.mark.parametrize("mean_inside", [30.0, 2.0], ids=["easy", "hard: ~2 failures inside"])
def test_the_rate_ratio_interval_covers_the_truth_at_the_nominal_rate(mean_inside: float) -> None:
    seeds, truth, hours_in, hours_out = 400, 4.0, 500.0, 1e5
    base = mean_inside / truth / hours_in
    rng = np.random.default_rng(41)
    inside = rng.poisson(truth * base * hours_in, seeds)
    outside = rng.poisson(base * hours_out, seeds)
    misses = 0
    for a, b in zip(inside, outside, strict=True):
        _, (low, high) = rate_ratio(int(a), hours_in, int(b), hours_out)
        misses += not low <= truth <= high
    assert misses <= binomial_quantile(0.999, seeds, 0.05)
