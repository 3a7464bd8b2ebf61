"""The inputs of a sweep: which numeric input varies (:class:`Parameter`) and one point.

A :class:`SweepPoint` is one set of model inputs (rates, mission, data drives) with the
swept input named; :mod:`planner.core.design.sweep` evaluates layouts at many points and
:mod:`planner.core.design.sweep_table` holds what comes out. Both import this module, so
neither imports the other.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from enum import StrEnum

from planner.core.markov.enclosures import Enclosures
from planner.core.markov.rates import HOURS_PER_YEAR, Rates, arr_to_failures_per_hour


class Parameter(StrEnum):
    """A numeric input that a sweep or a sensitivity analysis can vary, with its unit."""

    ARR = "arr"
    OP_FAILURES_PER_HOUR = "op_failures_per_hour"
    LATENT_DEFECTS_PER_HOUR = "latent_defects_per_hour"
    REBUILD_HOURS = "rebuild_hours"
    SCRUB_HOURS = "scrub_hours"
    MISSION_HOURS = "mission_hours"
    DATA_DISKS = "data_disks"
    HOT_SPARES = "hot_spares"
    DEGRADED_MULTIPLIER = "degraded_multiplier"
    SHOCKS_PER_HOUR = "shocks_per_hour"
    SHOCK_DRIVE_PROBABILITY = "shock_drive_probability"
    ENCLOSURE_FAILURES_PER_HOUR = "enclosure_failures_per_hour"
    ENCLOSURE_REPAIR_HOURS = "enclosure_repair_hours"
    MEMBERS_PER_ENCLOSURE = "members_per_enclosure"
    SPREAD = "spread"
    AGEING_WEIBULL_SHAPE = "ageing_weibull_shape"
    DRIVE_AGE_HOURS_AT_START = "drive_age_hours_at_start"

    @property
    def description(self) -> str:
        """What the input is, with its unit, for tables and help texts."""
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    Parameter.ARR: "annualized return rate (fraction of drives per year)",
    Parameter.OP_FAILURES_PER_HOUR: "operational failures per drive-hour (1/h)",
    Parameter.LATENT_DEFECTS_PER_HOUR: "latent defects per drive-hour (1/h)",
    Parameter.REBUILD_HOURS: "mean time to rebuild a failed drive (h)",
    Parameter.SCRUB_HOURS: "mean time for a scrub to find a latent defect (h)",
    Parameter.MISSION_HOURS: "mission time (h)",
    Parameter.DATA_DISKS: "data drives in the aggregate",
    Parameter.HOT_SPARES: "dedicated hot spares beside the groups (drives)",
    Parameter.DEGRADED_MULTIPLIER: "failures x m while a drive is down (times)",
    Parameter.SHOCKS_PER_HOUR: "common-cause shocks per group-hour (1/h)",
    Parameter.SHOCK_DRIVE_PROBABILITY: "probability a shock fails each working drive",
    Parameter.ENCLOSURE_FAILURES_PER_HOUR: "failures of one enclosure per hour (1/h)",
    Parameter.ENCLOSURE_REPAIR_HOURS: "mean time to repair a failed enclosure (h)",
    Parameter.MEMBERS_PER_ENCLOSURE: "drives of one group in each enclosure",
    Parameter.SPREAD: "enclosures one group spans",
    Parameter.AGEING_WEIBULL_SHAPE: "Weibull shape of the drives' ageing",
    Parameter.DRIVE_AGE_HOURS_AT_START: "drives' age when the mission starts (h)",
}

ENCLOSURE_PARAMETERS = {
    Parameter.ENCLOSURE_FAILURES_PER_HOUR: "failures_per_hour",
    Parameter.ENCLOSURE_REPAIR_HOURS: "repair_hours",
    Parameter.MEMBERS_PER_ENCLOSURE: "members_per_enclosure",
    Parameter.SPREAD: "spread",
}
"""The inputs of failure domains (docs/domains.md) and the
:class:`~planner.core.markov.enclosures.Enclosures` field each sets."""

AGEING_PARAMETERS = (Parameter.AGEING_WEIBULL_SHAPE, Parameter.DRIVE_AGE_HOURS_AT_START)
"""Inputs of the ageing figures only (docs/ageing.md): a point's constant rates keep them
out; the caller gives each point's ageing (:func:`planner.core.design.sweep.sweep`)."""

CORRELATION_PARAMETERS = (
    Parameter.DEGRADED_MULTIPLIER,
    Parameter.SHOCKS_PER_HOUR,
    Parameter.SHOCK_DRIVE_PROBABILITY,
)
"""The inputs of correlated failures (docs/correlated.md), in the order the model lists them."""


@dataclass(frozen=True)
class SweepPoint:
    """One set of model inputs; ``varied``/``value`` name the swept input, if any.

    Attributes:
        rates: per-drive rates and mean repair times (per hour, hours).
        mission_hours: mission time T (h).
        data_disks: data drives the aggregate must hold.
        varied: the :class:`Parameter` value (e.g. ``"rebuild_hours"``) set on this point.
        value: the value it was set to, in that parameter's unit.
    """

    rates: Rates
    mission_hours: float
    data_disks: int
    varied: str | None = None
    value: float | None = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mission_hours) and self.mission_hours >= 0):
            raise ValueError(f"mission_hours must be >= 0, got {self.mission_hours!r}")
        if self.data_disks < 1:
            raise ValueError(f"data_disks must be at least 1, got {self.data_disks}")

    def value_of(self, parameter: Parameter | str) -> float:
        """The current value of ``parameter`` at this point, in its unit."""
        p = Parameter(parameter)
        if p in AGEING_PARAMETERS:
            raise ValueError(f"{p.value} is an input of the ageing figures, not of a point")
        if p is Parameter.ARR:
            return self.rates.op_failures_per_hour * HOURS_PER_YEAR
        if p is Parameter.MISSION_HOURS:
            return self.mission_hours
        if p is Parameter.DATA_DISKS:
            return float(self.data_disks)
        if p in ENCLOSURE_PARAMETERS:
            enclosures = self._enclosures(p)
            value = getattr(enclosures, ENCLOSURE_PARAMETERS[p])
            return math.nan if value is None else float(value)
        return float(getattr(self.rates, p.value))

    def _enclosures(self, parameter: Parameter) -> Enclosures:
        """The rates' enclosures; ValueError without (nothing to vary)."""
        found = self.rates.enclosures
        if found is None:
            raise ValueError(f"{parameter.value} needs an enclosures section (docs/domains.md)")
        return found

    def with_value(self, parameter: Parameter | str, value: float) -> SweepPoint:
        """A copy with ``parameter`` set to ``value`` and recorded as the varied input.

        ARR is converted with :func:`planner.core.markov.rates.arr_to_failures_per_hour`
        (ARR / 8,760 h); data disks are rounded to the nearest whole drive, halves up, and
        kept at least 1; hot spares likewise, at least 0.
        Raises ValueError for values the model rejects (e.g. a negative rate).
        """
        p = Parameter(parameter)
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"{p.value} must be a finite number, got {value!r}")
        rates, mission_hours, data_disks = self.rates, self.mission_hours, self.data_disks
        if p is Parameter.ARR:
            rates = dataclasses.replace(rates, op_failures_per_hour=arr_to_failures_per_hour(value))
        elif p is Parameter.MISSION_HOURS:
            mission_hours = value
        elif p is Parameter.DATA_DISKS:
            data_disks = max(1, math.floor(value + 0.5))  # halves round up
            value = float(data_disks)
        elif p is Parameter.HOT_SPARES:
            spares = max(0, math.floor(value + 0.5))  # whole drives, halves up
            rates, value = dataclasses.replace(rates, hot_spares=spares), float(spares)
        elif p in ENCLOSURE_PARAMETERS:
            rates, value = self._with_enclosures(p, value)
        elif p in AGEING_PARAMETERS:
            pass  # the ageing figures' input: the constant rates stay (the caller ages)
        else:
            fields: dict[str, float] = {p.value: value}
            if p.value == "rebuild_hours":
                # the time as given, no wait in it (as --set restore.rebuild_hours drops the
                # rebuild model and its replace_delay_hours)
                fields["replace_delay_hours"] = 0.0
            if p.value == "latent_defects_per_hour":
                # every drive's rate as set, no workload's reads spread over a group's drives
                fields["defects_per_data_drive"] = False
            rates = dataclasses.replace(rates, **fields)  # type: ignore[arg-type]
        return SweepPoint(rates, mission_hours, data_disks, p.value, value)

    def _with_enclosures(self, parameter: Parameter, value: float) -> tuple[Rates, float]:
        """The rates with one enclosure input set (a placement rule replaces the other)."""
        enclosures = self._enclosures(parameter)
        name = ENCLOSURE_PARAMETERS[parameter]
        changes: dict[str, float | int | None] = {name: value}
        if parameter in (Parameter.MEMBERS_PER_ENCLOSURE, Parameter.SPREAD):
            whole = max(1, math.floor(value + 0.5))
            other = (
                "spread"
                if parameter is Parameter.MEMBERS_PER_ENCLOSURE
                else "members_per_enclosure"
            )
            changes = {name: whole, other: None}
            value = float(whole)
        moved = dataclasses.replace(enclosures, **changes)  # type: ignore[arg-type]
        return dataclasses.replace(self.rates, enclosures=moved), value
