"""Failure rates that depend on the drives' age, and the mission cut into pieces for them.

Schroeder and Gibson ("Disk failures in the real world: what does an MTTF of 1,000,000 hours
mean to you?", FAST 2007) found replacement rates that grow with age from early on; Elerath
and Pecht ("A highly accurate method for assessing reliability of redundant arrays of
inexpensive disks (RAID)", IEEE Trans. Computers 58(3), 2009) that field lifetimes are not
exponential. A drive's operational failure rate is here a hazard ``h(a)`` (per drive-hour)
of its age ``a`` (hours of service), one of two laws, each given by its cumulative hazard
``H(a) = integral_0^a h``:

* :class:`HazardTable`: a constant rate in each year of service (``planner fit``'s ARR by
  year), the last year's rate holding on after the table;
* :class:`WeibullHazard`: ``H(a) = (a / scale) ** shape`` (shape > 1 wear-out, < 1 infant
  mortality, = 1 a constant rate).

The chain (:mod:`planner.core.markov.piecewise`) holds every drive of a group at the same
age, ``age_at_start_hours`` plus the time into the mission (a batch of drives ageing
together; a replaced drive takes the batch's age, as the chain cannot tell its drives
apart). :func:`initial_edges` and :func:`split_edges` cut the mission into pieces and
:func:`pieces_between` gives each its failure rate:
the mean hazard over the piece (the value), and the lowest and highest hazard on it (the
bracket's ends). A table's pieces end at its years, where the rate is constant: there the
three are equal and the pieces are exact.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from planner.core.markov.rates import HOURS_PER_YEAR

FloatArray = npt.NDArray[np.float64]
ArrayLike = float | FloatArray

__all__ = [
    "Ageing",
    "HazardLaw",
    "HazardTable",
    "MissionPieces",
    "WeibullHazard",
    "initial_edges",
    "pieces_between",
    "split_edges",
]


def _positive(name: str, value: float) -> None:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")


@dataclass(frozen=True)
class HazardTable:
    """A failure rate per drive-hour for each year of service, the last one holding on.

    Attributes:
        failures_per_hour: lambda_op (1/h) in year 1 (ages 0 to 8,760 h), year 2, ...; the
            last value holds for every later year. An ARR of 2.1% in a year is 0.021 /
            8,760 h (NS3574's convention,
            :func:`~planner.core.markov.rates.arr_to_failures_per_hour`).
        year_hours: the length of each entry (h): a year, unless the law was scaled in time
            (the simulator's :meth:`~planner.core.simulation.time_laws.TimeLaw.time_scaled`).
    """

    failures_per_hour: tuple[float, ...]
    year_hours: float = HOURS_PER_YEAR

    def __post_init__(self) -> None:
        if not self.failures_per_hour:
            raise ValueError("a hazard table needs at least one year")
        for rate in self.failures_per_hour:
            _positive("failures_per_hour", rate)
        _positive("year_hours", self.year_hours)

    @cached_property
    def _rates(self) -> FloatArray:
        return np.array(self.failures_per_hour, dtype=np.float64)

    @cached_property
    def _cumulative_at_years(self) -> FloatArray:
        """H at ages 0, 1, ... len(table) years."""
        return np.concatenate(([0.0], np.cumsum(self._rates * self.year_hours)))

    def _year(self, age_hours: FloatArray) -> npt.NDArray[np.intp]:
        index = np.floor(age_hours / self.year_hours).astype(np.intp)
        return np.minimum(index, len(self.failures_per_hour) - 1)

    def hazard(self, age_hours: ArrayLike) -> FloatArray:
        """lambda_op (1/h) at each age (h); the year's rate, the rate of the next at its end."""
        age = np.maximum(np.asarray(age_hours, dtype=np.float64), 0.0)
        rates: FloatArray = self._rates[self._year(age)]
        return rates

    def cumulative_hazard(self, age_hours: ArrayLike) -> FloatArray:
        """H(a) = integral_0^a lambda_op (dimensionless): expected failures of a drive by age a."""
        age = np.maximum(np.asarray(age_hours, dtype=np.float64), 0.0)
        year = self._year(age)
        start = year * self.year_hours
        cumulative: FloatArray = self._cumulative_at_years[year] + self._rates[year] * (age - start)
        return cumulative

    def inverse_cumulative_hazard(self, h: ArrayLike) -> FloatArray:
        """The age (h) at which H reaches ``h`` (>= 0)."""
        target = np.asarray(h, dtype=np.float64)
        known = self._cumulative_at_years[:-1]
        year = np.clip(np.searchsorted(known, target, side="right") - 1, 0, len(known) - 1)
        age: FloatArray = year * self.year_hours + (target - known[year]) / self._rates[year]
        return age

    def hazard_range(self, start_hours: float, end_hours: float) -> tuple[float, float]:
        """The lowest and highest lambda_op (1/h) over the ages ``[start, end]`` (h)."""
        first, last = self._year(np.array([start_hours, end_hours]))
        if end_hours > start_hours and end_hours == last * self.year_hours and last > first:
            last -= 1  # [start, end] ends where year ``last`` begins: its rate is not met
        seen = self._rates[first : last + 1]
        return float(seen.min()), float(seen.max())

    def breakpoints(self, start_hours: float, end_hours: float) -> FloatArray:
        """The ages (h) strictly inside ``(start, end)`` where the rate may change."""
        years = np.arange(1, len(self.failures_per_hour), dtype=np.float64) * self.year_hours
        inside: FloatArray = years[(years > start_hours) & (years < end_hours)]
        return inside

    @property
    def constant(self) -> bool:
        """Every year has the same rate: the constant-rate chain."""
        return len(set(self.failures_per_hour)) == 1


@dataclass(frozen=True)
class WeibullHazard:
    """A Weibull lifetime: ``H(a) = (a / scale) ** shape``.

    Its hazard is ``h(a) = shape / scale (a / scale) ** (shape - 1)``.

    The parametrisation of ``planner fit`` and of the simulator's
    :class:`~planner.core.simulation.time_laws.Weibull` (no location).

    Attributes:
        shape: beta > 0: > 1 the rate grows with age (wear-out), < 1 it falls (infant
            mortality), 1 a constant rate.
        scale_hours: eta (h): a new drive has failed by age eta with probability 1 - 1/e.
    """

    shape: float
    scale_hours: float

    def __post_init__(self) -> None:
        _positive("shape", self.shape)
        _positive("scale_hours", self.scale_hours)

    @classmethod
    def with_first_year_rate(cls, shape: float, failures_per_hour: float) -> WeibullHazard:
        """The Weibull of ``shape`` whose first year of service has ``failures_per_hour``.

        ``H(8,760 h) = failures_per_hour x 8,760 h``: a drive's first year has the scenario's
        ARR (``drive.arr``), later years more (shape > 1) or less (< 1); scale =
        ``8,760 h / (failures_per_hour x 8,760 h) ** (1 / shape)``.
        """
        _positive("shape", shape)
        _positive("failures_per_hour", failures_per_hour)
        first_year = failures_per_hour * HOURS_PER_YEAR
        return cls(shape, HOURS_PER_YEAR / first_year ** (1.0 / shape))

    def hazard(self, age_hours: ArrayLike) -> FloatArray:
        """lambda_op (1/h) at each age (h): infinite at age 0 for shape < 1, 0 for shape > 1."""
        age = np.maximum(np.asarray(age_hours, dtype=np.float64), 0.0) / self.scale_hours
        with np.errstate(divide="ignore"):
            rate: FloatArray = self.shape / self.scale_hours * np.power(age, self.shape - 1.0)
        return rate

    def cumulative_hazard(self, age_hours: ArrayLike) -> FloatArray:
        """H(a) = (a / scale) ** shape (dimensionless)."""
        age = np.maximum(np.asarray(age_hours, dtype=np.float64), 0.0)
        cumulative: FloatArray = np.power(age / self.scale_hours, self.shape)
        return cumulative

    def inverse_cumulative_hazard(self, h: ArrayLike) -> FloatArray:
        """The age (h) at which H reaches ``h`` (>= 0): scale x h ** (1 / shape)."""
        root: FloatArray = np.power(np.asarray(h, dtype=np.float64), 1.0 / self.shape)
        return self.scale_hours * root

    def hazard_range(self, start_hours: float, end_hours: float) -> tuple[float, float]:
        """The lowest and highest lambda_op (1/h) over ``[start, end]``: its ends (monotone)."""
        ends = self.hazard(np.array([start_hours, end_hours]))
        return float(ends.min()), float(ends.max())

    def breakpoints(self, start_hours: float, end_hours: float) -> FloatArray:
        """No age where the rate jumps (it changes everywhere unless shape = 1)."""
        del start_hours, end_hours
        return np.empty(0)

    @property
    def constant(self) -> bool:
        """Shape 1: the exponential lifetime, a constant rate 1 / scale."""
        return self.shape == 1.0


HazardLaw = HazardTable | WeibullHazard
"""A drive's failure rate as a function of its age."""


@dataclass(frozen=True)
class Ageing:
    """The drives' hazard law and their age when the mission starts (one batch, one age).

    Attributes:
        law: lambda_op as a function of age.
        age_at_start_hours: every drive's age (h of service) at the start of the mission
            (0: new drives).
    """

    law: HazardLaw
    age_at_start_hours: float = 0.0

    def __post_init__(self) -> None:
        age = self.age_at_start_hours
        if not (math.isfinite(age) and age >= 0):
            raise ValueError(f"age_at_start_hours must be >= 0 and finite, got {age!r}")

    def expected_failures(self, start_hours: float, end_hours: float) -> float:
        """``H`` gained by a drive from mission hour ``start`` to ``end``: its expected failures."""
        ages = self.age_at_start_hours + np.array([start_hours, end_hours])
        cumulative = self.law.cumulative_hazard(ages)
        return float(cumulative[1] - cumulative[0])

    def constant_over(self, mission_hours: float) -> bool:
        """The rate is the same at every age the mission reaches (one piece is exact)."""
        if self.law.constant:
            return True
        start = self.age_at_start_hours
        low, high = self.law.hazard_range(start, start + mission_hours)
        return low == high


@dataclass(frozen=True)
class MissionPieces:
    """The mission cut into pieces, each with a constant failure rate (three of them).

    Attributes:
        edges: the pieces' ends in hours from the start of the mission, ``0 .. T``.
        mean: each piece's mean lambda_op (1/h): ``(H(end) - H(start)) / length``.
        low: each piece's lowest lambda_op (1/h) (the bracket's lower end).
        high: each piece's highest lambda_op (1/h); inf where the hazard is unbounded
            (a Weibull of shape < 1 at age 0).
    """

    edges: FloatArray
    mean: FloatArray
    low: FloatArray
    high: FloatArray

    @property
    def hours(self) -> FloatArray:
        """Each piece's length (h)."""
        lengths: FloatArray = np.diff(self.edges)
        return lengths

    @property
    def count(self) -> int:
        """The number of pieces."""
        return int(self.mean.shape[0])

    @property
    def exact(self) -> bool:
        """Every piece's rate is constant on it: the chain in these pieces is exact."""
        return bool(np.array_equal(self.low, self.high))


GEOMETRIC_RATIO = 16.0
"""Where the hazard is unbounded at age 0 (a Weibull of shape < 1, new drives) the pieces
from the first cut down to the floor shrink by this ratio: few, as they hold almost no
failure (:func:`initial_edges`)."""


def initial_edges(
    ageing: Ageing, mission_hours: float, uniform: int, floor_hours: float | None = None
) -> FloatArray:
    """The first cut of the mission ``[0, T]`` (h): the edges of its pieces.

    A table's pieces are its years (exact: its rate is constant on each). A Weibull's are
    ``uniform`` equal pieces; with ``floor_hours`` (a hazard unbounded at the start) the first
    of them is cut again at ``floor``, ``16 floor``, ``256 floor``, ... A constant law has
    one piece.
    """
    _positive("mission_hours", mission_hours)
    law, start = ageing.law, ageing.age_at_start_hours
    cuts: list[FloatArray] = [law.breakpoints(start, start + mission_hours) - start]
    if isinstance(law, WeibullHazard) and not law.constant:
        cuts.append(np.linspace(0.0, mission_hours, max(1, uniform) + 1)[1:-1])
        first = mission_hours / max(1, uniform)
        if floor_hours is not None and 0 < floor_hours < first:
            steps = int(np.ceil(np.log(first / floor_hours) / np.log(GEOMETRIC_RATIO)))
            cuts.append(floor_hours * GEOMETRIC_RATIO ** np.arange(steps, dtype=np.float64))
    return _edges(np.concatenate(cuts), mission_hours)


def _edges(cuts: FloatArray, mission_hours: float) -> FloatArray:
    inner = np.unique(cuts)
    inner = inner[(inner > 0) & (inner < mission_hours)]
    return np.concatenate(([0.0], inner, [mission_hours]))


def split_edges(edges: FloatArray, splits: npt.NDArray[np.int64], ageing: Ageing) -> FloatArray:
    """``edges`` with piece ``j`` cut into ``splits[j]`` (>= 1) pieces.

    Equal in length, or equal in the ratio of ages where the piece's ages span a factor 2 or
    more (near age 0, where a Weibull's hazard changes fastest).
    """
    cuts = [edges]
    ages = ageing.age_at_start_hours + edges
    for j in np.flatnonzero(splits > 1).tolist():
        parts = np.arange(1, int(splits[j])) / int(splits[j])
        low, high = float(ages[j]), float(ages[j + 1])
        if low > 0 and high >= 2 * low:
            inside = low * (high / low) ** parts
        else:
            inside = low + (high - low) * parts
        cuts.append(inside - ageing.age_at_start_hours)
    return _edges(np.concatenate(cuts), float(edges[-1]))


def pieces_between(ageing: Ageing, edges: FloatArray) -> MissionPieces:
    """The pieces between ``edges`` (h from the start), consecutive equal ones joined.

    Consecutive pieces with the same three rates are merged, so a rate constant over the
    mission gives one piece: the constant-rate chain itself.
    """
    law, start = ageing.law, ageing.age_at_start_hours
    ages = start + edges
    cumulative = law.cumulative_hazard(ages)
    lengths = np.diff(edges)
    mean = np.diff(cumulative) / lengths
    ranges = np.array([law.hazard_range(a, b) for a, b in itertools.pairwise(ages)])
    low, high = ranges[:, 0], ranges[:, 1]
    if isinstance(law, HazardTable):
        # a table's piece lies in one year: its rate, not a difference of H's (exact)
        mean = low.copy()
    same = (mean[1:] == mean[:-1]) & (low[1:] == low[:-1]) & (high[1:] == high[:-1])
    keep = np.concatenate(([True], ~same))
    starts = np.flatnonzero(keep)
    merged_edges = np.concatenate((edges[starts], edges[-1:]))
    return MissionPieces(merged_edges, mean[starts], low[starts], high[starts])
