"""The ageing section: a failure rate that depends on the drives' age (docs/ageing.md).

Either a table of ARR by year of service, as ``planner fit`` prints it (the last value holds
on after the table), or a Weibull lifetime, as ``planner fit`` prints it (shape and scale in
hours; without ``scale_hours``, the Weibull of that shape whose first year of service has
the drive's own rate, ``drive.arr``)::

    ageing:
      arr_by_year: [2.1%, 3.5%, 4.2%, 5%]    # year 1, 2, 3, then 5% a year
      drive_age_years_at_start: 2            # the drives' age when the mission starts

    ageing:
      weibull: {shape: 1.28, scale_hours: 179000}

The exact chain holds every drive of a group at the batch's age (a replaced drive takes it:
the chain cannot tell its drives apart) and gives P(loss) with a bracket beside the
constant-rate figure (:mod:`planner.core.markov.piecewise`); ``planner simulate`` renews a
replaced drive (age 0). Converted to the core's hazard law by :meth:`Ageing.core`.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from planner.core.markov.ageing import Ageing as CoreAgeing
from planner.core.markov.ageing import HazardLaw, HazardTable, WeibullHazard
from planner.core.markov.rates import HOURS_PER_YEAR, arr_to_failures_per_hour
from planner.scenario.base import FieldError, FrozenModel, at_least, meta, positive
from planner.scenario.drive import FractionPerYear
from planner.scenario.limits import (
    MAX_AGEING_FAILURES_PER_YEAR,
    MAX_AGEING_SHAPE,
    MAX_AGEING_YEARS,
    MAX_DRIVE_AGE_YEARS,
    MIN_AGEING_SHAPE,
)


class AgeingWeibull(FrozenModel):
    """A Weibull lifetime: ``S(t) = exp(-(t / scale) ** shape)`` (``planner fit``'s form)."""

    shape: float = at_least(
        MIN_AGEING_SHAPE,
        le=MAX_AGEING_SHAPE,
        description="Weibull shape (beta): above 1 the failure rate grows with age "
        "(wear-out), below 1 it falls (infant mortality), 1 is a constant rate.",
        json_schema_extra=meta("Shape", "Weibull shape", "1.3"),
    )
    scale_hours: float | None = positive(
        default=None,
        le=1e12,
        description="Characteristic life (eta, hours): a new drive has failed by this age "
        "with probability 63%. Default: the scale whose first year of service has the "
        "drive's own rate (drive.arr, afr or mtbf_hours).",
        json_schema_extra=meta("Scale h", "hours (Weibull scale)", "179000", optional=True),
    )


class Ageing(FrozenModel):
    """The drives' failure rate by age: ``arr_by_year`` or ``weibull``, and their age at start."""

    arr_by_year: (
        Annotated[list[FractionPerYear], Field(min_length=1, max_length=MAX_AGEING_YEARS)] | None
    ) = Field(
        default=None,
        description="ARR in each year of service (year 1 first, as planner fit prints it); "
        "the last value holds for every later year.",
        json_schema_extra=meta(
            "ARR/year", "fractions of drives per year", "2.1%, 3.5%, 4.2%", replaces=("weibull",)
        ),
    )
    weibull: AgeingWeibull | None = Field(
        default=None,
        description="A Weibull lifetime: shape, and scale_hours (default: the first year of "
        "service at the drive's rate).",
    )
    drive_age_years_at_start: float = at_least(
        0.0,
        default=0.0,
        le=MAX_DRIVE_AGE_YEARS,
        description="Every drive's age when the mission starts (years of service; 0, the "
        "default: new drives). The chain keeps the drives of a group at one age.",
        json_schema_extra=meta("Age yr", "years of service at the start", "2"),
    )

    @model_validator(mode="after")
    def _one_law(self) -> Ageing:
        if self.arr_by_year is not None and self.weibull is not None:
            raise FieldError("give arr_by_year or weibull, not both", "weibull")
        if self.arr_by_year is None and self.weibull is None:
            raise FieldError(
                "give the failure rate by age as arr_by_year: [2.1%, 3.5%, ...] (by year of "
                "service) or weibull: {shape: 1.3, scale_hours: 179000}"
            )
        return self

    def law(self, op_failures_per_hour: float) -> HazardLaw:
        """The core hazard law; ``op_failures_per_hour``: the drive's rate (a Weibull's year 1)."""
        if self.arr_by_year is not None:
            return HazardTable(tuple(arr_to_failures_per_hour(a) for a in self.arr_by_year))
        assert self.weibull is not None  # guaranteed by _one_law
        shape, scale = self.weibull.shape, self.weibull.scale_hours
        if scale is None:
            return WeibullHazard.with_first_year_rate(shape, op_failures_per_hour)
        return WeibullHazard(shape, scale)

    def core(self, op_failures_per_hour: float) -> CoreAgeing:
        """The core's ageing: the law and the age at the start in hours."""
        return CoreAgeing(
            self.law(op_failures_per_hour), self.drive_age_years_at_start * HOURS_PER_YEAR
        )

    @property
    def described(self) -> str:
        """The law in a few words for notes: ``ARR by year 2.1%, 3.5%, 4.2%`` or ``Weibull 1.3``."""
        if self.arr_by_year is not None:
            return "ARR by year " + ", ".join(f"{100 * a:.3g}%" for a in self.arr_by_year)
        assert self.weibull is not None
        scale = self.weibull.scale_hours
        tail = f", scale {scale:,.0f} h" if scale is not None else ", year 1 at drive's rate"
        return f"Weibull shape {self.weibull.shape:g}{tail}"


def check_ageing_rate(ageing: CoreAgeing, mission_hours: float) -> None:
    """Refuse a law whose rate passes the limit during the mission (wear-out: at its end).

    Raises:
        FieldError: located at ``ageing``.
    """
    start, end = ageing.age_at_start_hours, ageing.age_at_start_hours + mission_hours
    rate = float(ageing.law.hazard(end)) * HOURS_PER_YEAR
    if start > 0:
        rate = max(rate, float(ageing.law.hazard(start)) * HOURS_PER_YEAR)
    if rate > MAX_AGEING_FAILURES_PER_YEAR:
        raise FieldError(
            f"the ageing law reaches {rate:.3g} failures per drive-year during the "
            f"mission (at {end / HOURS_PER_YEAR:g} years of service); it must stay below "
            f"{MAX_AGEING_FAILURES_PER_YEAR:g} (a drive that fails ten times a year is no "
            "storage device): lower the shape or the age at start, or shorten the mission",
            "ageing",
        )
