"""One random time for the Monte Carlo simulator, all in hours: its law and its sampling.

What belongs here: the time laws a drive's life, a rebuild or a scrub can follow
(:class:`Exponential`, the constant-rate case of the Markov model; the three-parameter
:class:`Weibull` of Elerath and Pecht (2009); :class:`HazardByYear`, an ARR by year of
service) and what follows from a law once (:class:`TimeLaw`: probabilities, quantiles,
samples). The set of laws a scenario gives the simulator is
:mod:`planner.core.simulation.distributions`.

Every law is described by its cumulative hazard ``H(t) = -ln S(t)`` and its inverse:
sampling is by inverse CDF, ``t = F^-1(u) = H^-1(-ln(1 - u))``, and the simulator uses the
same pair to run a drive's failure clock at a scaled hazard (importance sampling) or to hold
it (conditioning).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Self

import numpy as np
import numpy.typing as npt

from planner.core.markov.ageing import HazardTable

FloatArray = npt.NDArray[np.float64]
ArrayLike = float | FloatArray


def _check_positive(name: str, value: float) -> None:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")


class TimeLaw(ABC):
    """A time (h) given by its cumulative hazard ``H(t)`` and the inverse of ``H``.

    Each law states what is its own (its parameters, mean, hazard, ``H`` and ``H^-1``, and
    how it scales in time); the probabilities and the sampling follow from ``H`` here, once.
    """

    @abstractmethod
    def time_scaled(self, factor: float) -> Self:
        """The time ``factor x T`` under the same law (h)."""

    @abstractmethod
    def cumulative_hazard(self, t_hours: ArrayLike) -> FloatArray:
        """H(t) = -ln S(t) (dimensionless), 0 before the law's support."""

    @abstractmethod
    def inverse_cumulative_hazard(self, h: ArrayLike) -> FloatArray:
        """The time (h) at which the cumulative hazard reaches ``h``."""

    @abstractmethod
    def hazard(self, t_hours: ArrayLike) -> FloatArray:
        """Hazard rate (per hour): dH/dt."""

    def cdf(self, t_hours: ArrayLike) -> FloatArray:
        """P(time <= t)."""
        return -np.expm1(-self.cumulative_hazard(t_hours))

    def survival(self, t_hours: ArrayLike) -> FloatArray:
        """P(time > t)."""
        return np.exp(-self.cumulative_hazard(t_hours))

    def quantile(self, u: ArrayLike) -> FloatArray:
        """Inverse CDF (h) at probabilities ``u`` in [0, 1)."""
        return self.inverse_cumulative_hazard(-np.log1p(-np.asarray(u, dtype=float)))

    def sample(self, rng: np.random.Generator, size: int | tuple[int, ...]) -> FloatArray:
        """``size`` independent times (h), by inverse CDF of uniforms from ``rng``."""
        return self.quantile(rng.random(size))


@dataclass(frozen=True)
class Exponential(TimeLaw):
    """Exponential time with mean ``mean_hours``: the constant-rate case of the Markov model.

    Attributes:
        mean_hours: mean time (h); the rate is ``1 / mean_hours`` per hour.
    """

    mean_hours: float

    def __post_init__(self) -> None:
        _check_positive("mean_hours", self.mean_hours)

    @property
    def rate_per_hour(self) -> float:
        """The constant hazard 1 / mean (per hour)."""
        return 1.0 / self.mean_hours

    def time_scaled(self, factor: float) -> Exponential:
        """The time ``factor x T``: the mean scaled by ``factor``."""
        return Exponential(self.mean_hours * factor)

    def cumulative_hazard(self, t_hours: ArrayLike) -> FloatArray:
        """H(t) = t / mean for t >= 0 (dimensionless)."""
        h: FloatArray = np.maximum(np.asarray(t_hours, dtype=float), 0.0) / self.mean_hours
        return h

    def inverse_cumulative_hazard(self, h: ArrayLike) -> FloatArray:
        """The time (h) at which the cumulative hazard reaches ``h``: mean * h."""
        return np.asarray(h, dtype=float) * self.mean_hours

    def hazard(self, t_hours: ArrayLike) -> FloatArray:
        """Hazard rate (per hour): constant 1 / mean."""
        return np.full_like(np.asarray(t_hours, dtype=float), 1.0 / self.mean_hours)


@dataclass(frozen=True)
class Weibull(TimeLaw):
    """Three-parameter Weibull time: ``F(t) = 1 - exp(-((t - location) / scale) ** shape)``.

    The parametrisation of Elerath and Pecht (2009) and of ``scipy.stats.weibull_min(shape,
    loc=location, scale=scale)``. Shape > 1 is wear-out (the hazard grows with age), shape < 1
    infant mortality, shape = 1 the exponential.

    Attributes:
        shape: Weibull shape beta (dimensionless, > 0).
        scale_hours: characteristic life eta (h): F(location + eta) = 1 - 1/e.
        location_hours: minimum time gamma (h), e.g. the shortest possible rebuild; >= 0.
    """

    shape: float
    scale_hours: float
    location_hours: float = 0.0

    def __post_init__(self) -> None:
        _check_positive("shape", self.shape)
        _check_positive("scale_hours", self.scale_hours)
        if not (math.isfinite(self.location_hours) and self.location_hours >= 0):
            raise ValueError(f"location_hours must be >= 0, got {self.location_hours!r}")

    def time_scaled(self, factor: float) -> Weibull:
        """The time ``factor x T``: scale and location scaled by ``factor``, shape kept."""
        return Weibull(self.shape, self.scale_hours * factor, self.location_hours * factor)

    @property
    def mean_hours(self) -> float:
        """Mean time (h): location + scale * Gamma(1 + 1 / shape)."""
        return self.location_hours + self.scale_hours * math.gamma(1.0 + 1.0 / self.shape)

    def cumulative_hazard(self, t_hours: ArrayLike) -> FloatArray:
        """H(t) = ((t - location) / scale) ** shape for t > location, else 0."""
        z = np.maximum(np.asarray(t_hours, dtype=float) - self.location_hours, 0.0)
        h: FloatArray = np.power(z / self.scale_hours, self.shape)
        return h

    def inverse_cumulative_hazard(self, h: ArrayLike) -> FloatArray:
        """The time (h) at which the cumulative hazard reaches ``h``: loc + scale * h**(1/shape)."""
        root: FloatArray = np.power(np.asarray(h, dtype=float), 1.0 / self.shape)
        return self.location_hours + self.scale_hours * root

    def hazard(self, t_hours: ArrayLike) -> FloatArray:
        """Hazard rate (per hour): (shape / scale) ((t - location) / scale) ** (shape - 1)."""
        t = np.asarray(t_hours, dtype=float)
        z = np.maximum(t - self.location_hours, 0.0) / self.scale_hours
        with np.errstate(divide="ignore"):
            h = self.shape / self.scale_hours * np.power(z, self.shape - 1.0)
        return np.where(t > self.location_hours, h, 0.0)


@dataclass(frozen=True)
class HazardByYear(TimeLaw):
    """A lifetime whose hazard is constant in each year of service, the last year's holding on.

    The simulator's form of :class:`planner.core.markov.ageing.HazardTable` (``planner
    fit``'s ARR by year of service, the ``ageing.arr_by_year`` of a scenario).

    Attributes:
        table: lambda_op (1/h) for each year of service.
    """

    table: HazardTable

    def time_scaled(self, factor: float) -> HazardByYear:
        """The time ``factor x T``: each year ``factor`` times as long, its rate divided."""
        _check_positive("factor", factor)
        rates = tuple(r / factor for r in self.table.failures_per_hour)
        return HazardByYear(HazardTable(rates, self.table.year_hours * factor))

    @property
    def mean_hours(self) -> float:
        """Mean life (h): the integral of the survival, year by year, then the last rate's tail."""
        rates = np.array(self.table.failures_per_hour)
        start = np.concatenate(([0.0], np.cumsum(rates * self.table.year_hours)))[:-1]
        survive = np.exp(-start)
        years = survive[:-1] * -np.expm1(-rates[:-1] * self.table.year_hours) / rates[:-1]
        return float(years.sum() + survive[-1] / rates[-1])

    def cumulative_hazard(self, t_hours: ArrayLike) -> FloatArray:
        """H(t): the rates integrated over the years of service up to ``t`` (0 before 0)."""
        return self.table.cumulative_hazard(t_hours)

    def inverse_cumulative_hazard(self, h: ArrayLike) -> FloatArray:
        """The age (h) at which H reaches ``h``."""
        return self.table.inverse_cumulative_hazard(h)

    def hazard(self, t_hours: ArrayLike) -> FloatArray:
        """The year's rate (per hour)."""
        return self.table.hazard(t_hours)


Distribution = Exponential | Weibull | HazardByYear
"""Any time distribution the simulator accepts."""
