"""Constant failure rates from a fleet's log: the exponential fit and ARR by year of service.

Under a constant failure rate (exponential lifetimes) with right-censoring, a log with ``d``
failures in ``T`` drive-hours has the likelihood ``λ^d exp(-λ T)``: the maximum-likelihood
rate is ``d / T`` in closed form (no optimiser), and ``d`` is a Poisson count with mean
``λ T``. Its 95 % interval is the exact Poisson one (Garwood, "Fiducial limits for the
Poisson distribution", Biometrika 1936): ``[χ²(2.5 %; 2d) / 2T, χ²(97.5 %; 2d + 2) / 2T]``,
whose lower end is 0 when there is no failure (then the log only bounds the rate above).

ARR follows the project's convention (NS3574, :mod:`planner.core.markov.rates`): the rate
per drive-hour times 8,760 h. By year of service, ARR of year ``y`` is the failures in the
drives' ``y``-th year of service over the drive-years spent in that year, each with the same
exact interval (Schroeder and Gibson, "Disk failures in the real world: what does an MTTF of
1,000,000 hours mean to you?", FAST 2007, show it rising with age).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaincinv

from planner.core.markov.rates import HOURS_PER_YEAR
from planner.scenario.fleet_log import BoolArray, FloatArray, IntArray

CONFIDENCE = 0.95
"""The level of every interval ``planner fit`` gives."""

Interval = tuple[float, float]
"""A (low, high) confidence interval, in the estimate's unit."""


def poisson_rate_interval(
    failures: int, exposure_hours: float, confidence: float = CONFIDENCE
) -> Interval:
    """The exact (Garwood) interval of a rate per hour from ``failures`` in ``exposure_hours``.

    The lower end is 0 for no failure; the interval covers the true rate at least
    ``confidence`` of the time when the count is Poisson.
    """
    low, high = poisson_rate_intervals(np.array([failures]), np.array([exposure_hours]), confidence)
    return float(low[0]), float(high[0])


def poisson_rate_intervals(
    failures: IntArray, exposure_hours: FloatArray, confidence: float = CONFIDENCE
) -> tuple[FloatArray, FloatArray]:
    """:func:`poisson_rate_interval` of many counts at once (low ends, high ends)."""
    tail = (1.0 - confidence) / 2.0
    # the chi-squared quantile of df degrees of freedom is 2 x gammaincinv(df / 2, q), as
    # scipy.stats.chi2.ppf computes it, without importing scipy.stats (~1 s of start-up);
    # 0 degrees of freedom has none: no failure has the lower end 0
    low = np.where(failures > 0, _chi2_quantile(tail, np.maximum(2 * failures, 1)), 0.0)
    high = _chi2_quantile(1.0 - tail, 2 * failures + 2)
    return low / (2.0 * exposure_hours), high / (2.0 * exposure_hours)


def _chi2_quantile(probability: float, degrees: IntArray) -> FloatArray:
    """The ``probability`` quantile of the chi-squared law of ``degrees`` (each >= 1)."""
    return 2.0 * np.asarray(gammaincinv(degrees / 2.0, probability), dtype=np.float64)


@dataclass(frozen=True)
class ExponentialFit:
    """A constant failure rate fitted to a log, with its 95 % interval.

    Attributes:
        failures: failures in the log.
        drive_hours: time in service of all drives (hours).
        rate_per_hour: failures per drive-hour, ``failures / drive_hours`` (0 with none).
        rate_per_hour_ci: its exact Poisson interval.
        arr: annualized rate, ``rate_per_hour x 8,760`` (fraction of drives per year).
        arr_ci: its interval, the same way.
        mean_life_hours: ``1 / rate_per_hour`` (the MTTF; infinite with no failure).
    """

    failures: int
    drive_hours: float
    rate_per_hour: float
    rate_per_hour_ci: Interval
    arr: float
    arr_ci: Interval
    mean_life_hours: float

    @property
    def upper_bound_only(self) -> bool:
        """No failure: the log bounds the rate above, and the estimate 0 says little."""
        return self.failures == 0

    @property
    def drive_years(self) -> float:
        """Time in service of all drives, in years of 8,760 h."""
        return self.drive_hours / HOURS_PER_YEAR


def exponential_fit(hours: FloatArray, failed: BoolArray) -> ExponentialFit:
    """The constant rate that best explains ``hours`` (time in service) and ``failed``.

    Args:
        hours: time in service of each drive, until failure or censoring (hours).
        failed: whether each drive failed at its ``hours``.

    Raises:
        ValueError: no time in service at all.
    """
    drive_hours = float(np.sum(hours))
    if not drive_hours > 0:
        raise ValueError("no time in service: the rate cannot be estimated")
    failures = int(np.count_nonzero(failed))
    rate = failures / drive_hours
    low, high = poisson_rate_interval(failures, drive_hours)
    return ExponentialFit(
        failures=failures,
        drive_hours=drive_hours,
        rate_per_hour=rate,
        rate_per_hour_ci=(low, high),
        arr=rate * HOURS_PER_YEAR,
        arr_ci=(low * HOURS_PER_YEAR, high * HOURS_PER_YEAR),
        mean_life_hours=1.0 / rate if failures else math.inf,
    )


@dataclass(frozen=True)
class YearRate:
    """ARR in one year of service: failures in it over drive-years spent in it.

    Attributes:
        year: the year of service, 1 for a drive's first 8,760 h.
        drive_hours: hours all drives spent in that year of their service.
        failures: failures in that year of service.
        arr: ``failures / drive_hours x 8,760`` (fraction per year).
        arr_ci: its exact Poisson interval.
    """

    year: int
    drive_hours: float
    failures: int
    arr: float
    arr_ci: Interval

    @property
    def drive_years(self) -> float:
        """Drive-years in this year of service."""
        return self.drive_hours / HOURS_PER_YEAR


def arr_by_year(hours: FloatArray, failed: BoolArray) -> tuple[YearRate, ...]:
    """ARR by year of service, for every year some drive reached.

    Year ``y`` is the service time ``((y - 1) x 8,760, y x 8,760]`` h; a drive in service
    ``h`` hours spends ``min(max(h - (y - 1) x 8,760, 0), 8,760)`` of them in year ``y``, and
    a failure at ``h`` belongs to year ``ceil(h / 8,760)``.
    """
    whole_years = np.floor(hours / HOURS_PER_YEAR).astype(np.int64)
    rest_hours = hours - whole_years * HOURS_PER_YEAR
    years = math.ceil(float(np.max(hours)) / HOURS_PER_YEAR) if hours.size else 0
    # Drives past year y spend all of it in service; those in it, their remainder.
    reached = np.bincount(whole_years, minlength=years + 1)
    beyond = reached[::-1].cumsum()[::-1][1 : years + 1]  # drives with more than y whole years
    partial = np.bincount(whole_years, weights=rest_hours, minlength=years + 1)[:years]
    exposure = beyond * HOURS_PER_YEAR + partial
    failure_year = np.ceil(hours[failed] / HOURS_PER_YEAR).astype(np.int64)
    counts = np.bincount(failure_year, minlength=years + 1)[1 : years + 1]
    kept = np.flatnonzero(exposure > 0)
    lows, highs = poisson_rate_intervals(counts[kept], exposure[kept])
    return tuple(
        YearRate(
            year=int(index) + 1,
            drive_hours=float(exposure[index]),
            failures=int(counts[index]),
            arr=float(counts[index] / exposure[index] * HOURS_PER_YEAR),
            arr_ci=(float(low * HOURS_PER_YEAR), float(high * HOURS_PER_YEAR)),
        )
        for index, low, high in zip(kept, lows, highs, strict=True)
    )
