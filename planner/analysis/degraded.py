"""How much more often drives fail while a drive of their group is down: the degraded multiplier.

The estimator (docs/fit.md, "The degraded multiplier"):

* A failure at ``t`` (fleet clock: ``installed_at_hours + hours``) leaves its group
  *degraded* for the window ``(t, t + W]``, ``W`` hours (``--window-hours``, by default a
  week: the time from a failure to its rebuild being done, which the log does not hold).
* Every other drive of that group in service during the window spends that time degraded
  (windows that overlap count once); the rest of its time in service is not degraded.
* A failure inside a window of an earlier failure of its group counts as degraded; the
  first failure of a burst does not, and neither do failures at the same hour.

With ``O`` failures in ``E_d`` degraded drive-hours and ``N`` in the other ``E_n``
drive-hours, the multiplier is the ratio of the two rates, ``(O / E_d) / (N / E_n)``. Given
``O + N``, ``O`` is binomial with ``p = m E_d / (m E_d + E_n)`` when the rates are
constant, so the exact (Clopper-Pearson) interval of ``p`` gives an exact interval for the
multiplier ``m`` (the conditional test of two Poisson rates: Przyborowski and Wilenski,
"Homogeneity of results in testing samples from Poisson series", Biometrika 1940).

The comparison assumes a rate that does not change with a drive's age; with wear-out
(Weibull shape above 1) degraded windows fall later in life on average, and the estimate
leans high.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import betaincinv

from planner.analysis.fleet_rates import CONFIDENCE, Interval
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.scenario.fleet_log import BoolArray, FloatArray, IntArray

DEFAULT_WINDOW_HOURS = 168.0
"""How long a group counts as degraded after a failure (hours): a week, time enough to
replace a drive and rebuild it (NS3574's scrub interval is the same week)."""


@dataclass(frozen=True)
class DegradedMultiplier:
    """The failure rate while a group-mate is down, over the rate otherwise, and its interval.

    Attributes:
        window_hours: how long a group counts as degraded after a failure (hours).
        failures_in_windows: failures inside a degraded window of their group (O).
        failures_outside: the other failures (N).
        drive_hours_in_windows: drive-hours spent degraded (E_d).
        drive_hours_outside: the other drive-hours (E_n).
        multiplier: ``(O / E_d) / (N / E_n)``; infinite when N is 0.
        multiplier_ci: its exact conditional interval; the upper end may be infinite.
    """

    window_hours: float
    failures_in_windows: int
    failures_outside: int
    drive_hours_in_windows: float
    drive_hours_outside: float
    multiplier: float
    multiplier_ci: Interval

    @property
    def drive_years_in_windows(self) -> float:
        """Drive-years spent degraded (years of 8,760 h)."""
        return self.drive_hours_in_windows / HOURS_PER_YEAR

    @property
    def drive_years_outside(self) -> float:
        """Drive-years not degraded (years of 8,760 h)."""
        return self.drive_hours_outside / HOURS_PER_YEAR


def rate_ratio(
    events_a: int, hours_a: float, events_b: int, hours_b: float, confidence: float = CONFIDENCE
) -> tuple[float, Interval]:
    """The ratio of two Poisson rates ``(a / hours_a) / (b / hours_b)`` and its exact interval.

    Conditional on ``a + b`` events, ``a`` is binomial; the Clopper-Pearson interval of its
    proportion ``p`` maps to the ratio by ``p / (1 - p) x hours_b / hours_a``.

    Raises:
        ValueError: no events at all, or an exposure that is not positive.
    """
    total = events_a + events_b
    if total == 0 or not (hours_a > 0 and hours_b > 0):
        raise ValueError("a rate ratio needs events and positive exposures on both sides")
    tail = (1.0 - confidence) / 2.0
    # beta quantiles by the inverse incomplete beta function, as scipy.stats.beta.ppf
    # computes them, without importing scipy.stats (~1 s of start-up)
    p_low = 0.0 if events_a == 0 else float(betaincinv(events_a, events_b + 1, tail))
    p_high = 1.0 if events_b == 0 else float(betaincinv(events_a + 1, events_b, 1 - tail))
    scale = hours_b / hours_a

    def ratio(p: float) -> float:
        return math.inf if p >= 1.0 else p / (1.0 - p) * scale

    estimate = math.inf if events_b == 0 else events_a / hours_a / (events_b / hours_b)
    return estimate, (ratio(p_low), ratio(p_high))


@dataclass(frozen=True)
class _Windows:
    """The union of degraded windows, merged and sorted, with the measure before each."""

    starts: FloatArray
    ends: FloatArray
    before: FloatArray  # degraded hours in the windows before each one

    def measure_until(self, times: FloatArray) -> FloatArray:
        """Degraded hours in ``(-inf, t]`` for each ``t``."""
        index = np.searchsorted(self.starts, times, side="right") - 1
        safe = np.maximum(index, 0)
        inside = np.clip(times - self.starts[safe], 0.0, self.ends[safe] - self.starts[safe])
        return np.where(index >= 0, self.before[safe] + inside, 0.0)

    def contains(self, times: FloatArray) -> BoolArray:
        """Whether each ``t`` lies in some window ``(start, end]``."""
        index = np.searchsorted(self.starts, times, side="left") - 1
        safe = np.maximum(index, 0)
        return (index >= 0) & (times <= self.ends[safe])


def _merged(failure_times: FloatArray, window_hours: float) -> _Windows:
    times = np.sort(failure_times)
    opens = np.ones(times.size, dtype=bool)
    opens[1:] = times[1:] > times[:-1] + window_hours
    starts = times[opens]
    last = np.append(np.flatnonzero(opens)[1:] - 1, times.size - 1)
    ends = times[last] + window_hours
    lengths = ends - starts
    before = np.concatenate(([0.0], np.cumsum(lengths)[:-1]))
    return _Windows(starts, ends, before)


def degraded_multiplier(
    hours: FloatArray,
    failed: BoolArray,
    groups: IntArray,
    installed_at_hours: FloatArray | None,
    window_hours: float = DEFAULT_WINDOW_HOURS,
) -> DegradedMultiplier:
    """The degraded multiplier of a log with groups (see the module's docstring).

    Args:
        hours: time in service of each drive (hours).
        failed: whether each drive failed at its ``hours``.
        groups: each drive's group, as a code (0, 1, ...).
        installed_at_hours: when each drive entered service on the fleet's clock (hours);
            None: all at hour 0.
        window_hours: how long a group counts as degraded after a failure (hours, > 0).

    Raises:
        ValueError: no failure, or no drive-hours inside (or outside) the windows.
    """
    total_failures = int(np.count_nonzero(failed))
    if total_failures == 0:
        raise ValueError("no failure: nothing to compare")
    start = np.zeros_like(hours) if installed_at_hours is None else installed_at_hours
    end = start + hours
    # Each group on its own stretch of one clock, so windows never reach another group.
    span = float(np.max(end)) + window_hours + 1.0
    offset = groups.astype(np.float64) * span
    windows = _merged((end + offset)[failed], window_hours)
    degraded_hours = windows.measure_until(end + offset) - windows.measure_until(start + offset)
    in_windows = int(np.count_nonzero(windows.contains((end + offset)[failed])))
    exposure_in = float(np.sum(degraded_hours))
    exposure_out = float(np.sum(hours)) - exposure_in
    if exposure_in <= 0:
        raise ValueError(
            "no drive was in service while a group-mate was down: the groups are too small, "
            "or the window too short"
        )
    estimate, interval = rate_ratio(
        in_windows, exposure_in, total_failures - in_windows, exposure_out
    )
    return DegradedMultiplier(
        window_hours=window_hours,
        failures_in_windows=in_windows,
        failures_outside=total_failures - in_windows,
        drive_hours_in_windows=exposure_in,
        drive_hours_outside=exposure_out,
        multiplier=estimate,
        multiplier_ci=interval,
    )
