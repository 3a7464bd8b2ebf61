"""Fit a fleet's own failure log: rates, Weibull lifetimes and the degraded multiplier.

``planner fit LOG.csv`` (docs/fit.md) reads a log of drives (time in service, failed or
not: right-censored times) and gives, with 95 % intervals:

* the constant rate and its ARR (:mod:`planner.analysis.fleet_rates`: closed form, exact
  Poisson interval), and ARR by year of service;
* the Weibull shape and scale, fitted by maximum likelihood with right-censoring by
  lifelines' ``WeibullFitter`` (Davidson-Pilon, "lifelines: survival analysis in Python",
  JOSS 2019); the intervals are normal on the log scale, from the observed information
  lifelines returns (``variance_matrix_``): ``estimate x exp(± 1.96 se / estimate)``, which
  stays positive and is nearer the nominal level with few failures than the raw scale;
* with groups, the degraded multiplier (:mod:`planner.analysis.degraded`).

Every figure is computed for the whole fleet and, when the log names models, per model.
lifelines (and the pandas it brings) is imported only inside :func:`weibull_fit`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from planner.analysis.degraded import DEFAULT_WINDOW_HOURS, DegradedMultiplier, degraded_multiplier
from planner.analysis.fleet_rates import (
    CONFIDENCE,
    ExponentialFit,
    Interval,
    YearRate,
    arr_by_year,
    exponential_fit,
)
from planner.scenario.fleet_log import BoolArray, FleetLog, FloatArray

ALL_DRIVES = "all drives"
"""The label of the fit of the whole log."""

FEW_FAILURES = 10
"""Below this many failures the Weibull intervals (a normal approximation) are rough."""

LIFELINES_MISSING = (
    "planner fit needs lifelines, which is not installed: pip install -e '.[fit]' "
    "(make run installs it)"
)


class WeibullUnavailableError(ValueError):
    """The log cannot give a Weibull fit; the message says why."""


@dataclass(frozen=True)
class WeibullFit:
    """A Weibull lifetime ``S(t) = exp(-(t / scale) ** shape)`` fitted with right-censoring.

    Attributes:
        shape: the shape (beta): above 1 the failure rate rises with age.
        shape_ci: its 95 % interval (normal on the log scale).
        scale_hours: the scale (eta, hours): 63 % of drives have failed by then.
        scale_hours_ci: its 95 % interval.
    """

    shape: float
    shape_ci: Interval
    scale_hours: float
    scale_hours_ci: Interval


def log_normal_interval(
    estimate: float, standard_error: float, confidence: float = CONFIDENCE
) -> Interval:
    """The Wald interval of ``log(estimate)`` taken back: ``estimate x exp(± z se / estimate)``.

    ``standard_error`` is that of ``estimate`` itself; by the delta method that of its
    logarithm is ``se / estimate``.
    """
    z = float(ndtri(0.5 + confidence / 2.0))  # the normal quantile, as scipy.stats.norm.ppf
    spread = math.exp(z * standard_error / estimate)
    return estimate / spread, estimate * spread


def weibull_fit(hours: FloatArray, failed: BoolArray) -> WeibullFit:
    """The maximum-likelihood Weibull of a right-censored log, by lifelines.

    Drives with 0 hours are left out (they add nothing to the likelihood, and lifelines
    refuses durations of 0). Times are divided by their mean before the fit, so the
    optimiser works near 1, and it starts from the exponential fit (shape 1).

    Raises:
        WeibullUnavailableError: fewer than 2 failures at different times, or the fit failed.
        ImportError: lifelines is not installed.
    """
    from lifelines import WeibullFitter
    from lifelines.exceptions import ConvergenceError

    failure_hours = hours[failed]
    times = np.unique(failure_hours).size
    if times < 2:
        count = f"{failure_hours.size} failure{'s' if failure_hours.size != 1 else ''}"
        where = f", all at {failure_hours[0]:g} h" if failure_hours.size > 1 else ""
        raise WeibullUnavailableError(
            f"the Weibull fit needs failures at 2 different times at least (the log has "
            f"{count}{where})"
        )
    keep = hours > 0
    unit = float(np.mean(hours[keep]))
    scaled = hours[keep] / unit
    start = np.array([float(np.sum(scaled)) / failure_hours.size, 1.0])
    fitter = WeibullFitter(alpha=1.0 - CONFIDENCE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # lifelines' advice is for notebooks; checked below
        try:
            # a gradient tolerance far below lifelines' default: the estimates then agree
            # with an independent MLE to ~1e-8, not ~1e-5 (tests/analysis/test_fleet_fit.py)
            fitter.fit(scaled, failed[keep], initial_point=start, fit_options={"gtol": 1e-12})
        except (ConvergenceError, ValueError, np.linalg.LinAlgError) as exc:
            raise WeibullUnavailableError(
                f"the Weibull fit did not converge ({exc.__class__.__name__})"
            ) from None
    covariance = fitter.variance_matrix_
    scale, shape = float(fitter.lambda_) * unit, float(fitter.rho_)
    se_scale = math.sqrt(max(float(covariance.loc["lambda_", "lambda_"]), 0.0)) * unit
    se_shape = math.sqrt(max(float(covariance.loc["rho_", "rho_"]), 0.0))
    if not all(math.isfinite(x) and x > 0 for x in (scale, shape, se_scale, se_shape)):
        raise WeibullUnavailableError("the Weibull fit gave no finite estimate and interval")
    return WeibullFit(
        shape=shape,
        shape_ci=log_normal_interval(shape, se_shape),
        scale_hours=scale,
        scale_hours_ci=log_normal_interval(scale, se_scale),
    )


@dataclass(frozen=True)
class SubsetFit:
    """Every figure of one set of drives: the whole log, or one model.

    Attributes:
        label: :data:`ALL_DRIVES` or the model's name.
        drives: drives in the set.
        exponential: the constant rate and ARR.
        weibull: the Weibull fit, or None (``weibull_note`` says why).
        weibull_note: why there is no Weibull fit, or None.
        years: ARR by year of service.
    """

    label: str
    drives: int
    exponential: ExponentialFit
    weibull: WeibullFit | None
    weibull_note: str | None
    years: tuple[YearRate, ...]

    @property
    def failures(self) -> int:
        """Failures in the set."""
        return self.exponential.failures


@dataclass(frozen=True)
class FleetFit:
    """What ``planner fit`` found in a log: every figure with its 95 % interval.

    Attributes:
        source: the log's file name.
        overall: the fit of the whole log.
        models: one fit per model, in the log's order (empty without a ``model`` column).
        degraded: the degraded multiplier, or None (``degraded_note`` says why).
        degraded_note: why there is no multiplier, or None.
        window_hours: the degraded window asked for (hours).
        zero_hour_drives: drives with 0 hours in service (they add nothing).
        common_start: True when the multiplier took every drive as installed at hour 0
            (the log has groups but no ``installed_at_hours``).
        ignored_columns: columns of the log planner does not read.
    """

    source: str
    overall: SubsetFit
    models: tuple[SubsetFit, ...]
    degraded: DegradedMultiplier | None
    degraded_note: str | None
    window_hours: float
    zero_hour_drives: int
    common_start: bool
    ignored_columns: tuple[str, ...]

    @property
    def subsets(self) -> tuple[SubsetFit, ...]:
        """The whole log first, then each model."""
        return (self.overall, *self.models)


def fit_subset(label: str, hours: FloatArray, failed: BoolArray) -> SubsetFit:
    """Every figure of one set of drives (its hours in service must add up to more than 0)."""
    weibull: WeibullFit | None = None
    note: str | None = None
    try:
        weibull = weibull_fit(hours, failed)
    except WeibullUnavailableError as exc:
        note = str(exc)
    return SubsetFit(
        label=label,
        drives=int(hours.size),
        exponential=exponential_fit(hours, failed),
        weibull=weibull,
        weibull_note=note,
        years=arr_by_year(hours, failed),
    )


def _degraded(log: FleetLog, window_hours: float) -> tuple[DegradedMultiplier | None, str | None]:
    if log.groups is None:
        return None, "the log has no group column"
    try:
        result = degraded_multiplier(
            log.hours, log.failed, log.groups.codes, log.installed_at_hours, window_hours
        )
    except ValueError as exc:
        return None, str(exc)
    return result, None


def fit_fleet(log: FleetLog, window_hours: float = DEFAULT_WINDOW_HOURS) -> FleetFit:
    """Every figure ``planner fit`` shows, for the whole log and each model in it.

    Args:
        log: the validated log (:func:`planner.scenario.fleet_log.read_fleet_log`).
        window_hours: how long a group counts as degraded after a failure (hours, > 0).

    Raises:
        ImportError: lifelines is not installed.
    """
    models: list[SubsetFit] = []
    if log.models is not None:
        for code, name in enumerate(log.models.names):
            rows = log.models.codes == code
            if np.any(log.hours[rows] > 0):
                models.append(fit_subset(name, log.hours[rows], log.failed[rows]))
    degraded, degraded_note = _degraded(log, window_hours)
    return FleetFit(
        source=log.source,
        overall=fit_subset(ALL_DRIVES, log.hours, log.failed),
        models=tuple(models) if len(models) > 1 else (),
        degraded=degraded,
        degraded_note=degraded_note,
        window_hours=window_hours,
        zero_hour_drives=int(np.count_nonzero(log.hours == 0)),
        common_start=log.groups is not None and log.installed_at_hours is None,
        ignored_columns=log.ignored_columns,
    )
