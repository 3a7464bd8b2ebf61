"""The scenario fields a sweep varies and a tornado moves, and the core inputs they set.

The core (:class:`planner.core.design.sweep.Parameter`) works in per-hour rates and hours;
people and scenario files speak of an ARR in percent and a mission in years. This table
maps one to the other so that ``--vary``, the sweep rows and the tornado all use the file's
names and units; :mod:`planner.report.field_values` writes their values as people read them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from planner.core.design.sweep import Parameter
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.scenario.correlation import (
    DEFAULT_SHOCK_DRIVE_PROBABILITY,
    PLAUSIBLE_SHOCKS_PER_YEAR,
)
from planner.scenario.enclosures import PLAUSIBLE_ENCLOSURE_FAILURES_PER_YEAR
from planner.scenario.fields import field_meta
from planner.scenario.limits import MAX_LATENT_DEFECTS_PER_HOUR, field_range

JUST_UNDER = 1 - 1e-6
"""Where a move stops under an exclusive upper bound, as a share of it (ARR 99.9999%)."""


@dataclass(frozen=True)
class ScenarioField:
    """A numeric scenario field that maps onto one core :class:`Parameter`.

    Attributes:
        name: dotted scenario name, e.g. ``drive.arr``.
        parameter: the core input it sets.
        scale: core value = field value x ``scale`` (8,760 for years -> hours, else 1).
        unit: the field's unit, for help texts and headers.
        percent: the field is a fraction written as a percentage (``1.9%``).
        integer: the field takes whole numbers only.
        upper: exclusive upper bound of the field, if any (ARR: below 1 per year).
        allows_zero: 0 is a valid value (a latent defect rate may be 0).
        plausible: where a tornado moves the field up from 0, which no factor moves (the
            correlation inputs' neutral value; docs/correlated.md); None for the others.
    """

    name: str
    parameter: Parameter
    scale: float
    unit: str
    percent: bool = False
    integer: bool = False
    upper: float = math.inf
    allows_zero: bool = False
    plausible: float | None = None

    def core_limits(self) -> tuple[float, float]:
        """The least and most value a scenario may hold, in the core's unit.

        The scenario limits (:func:`planner.scenario.limits.field_range`) and, under an
        exclusive upper bound, :data:`JUST_UNDER` of it: a value that still reads back below
        the bound after the core's unit conversions (ARR to a rate per hour and back), so
        that what a tornado reports can be given to ``--set`` again.
        """
        least, most = field_range(self.name) or (0.0, math.inf)
        if self.upper < math.inf:
            most = min(most, self.upper * JUST_UNDER)
        return self.to_core(least), self.to_core(most)

    def to_core(self, value: float) -> float:
        """The field's value in the core's unit (hours for years)."""
        return value * self.scale

    def from_core(self, value: float) -> float:
        """A core value in the field's unit."""
        return value / self.scale


def _scenario_field(
    name: str, parameter: Parameter, scale: float = 1.0, **options: Any
) -> ScenarioField:
    """A field whose unit and percent and whole-number forms come from its scenario model."""
    found = field_meta(name)
    assert found is not None, name  # every field below declares its metadata
    return ScenarioField(
        name,
        parameter,
        scale,
        found.unit,
        percent=found.percent,
        integer=found.integer,
        **options,
    )


SCENARIO_FIELDS: tuple[ScenarioField, ...] = (
    _scenario_field("drive.arr", Parameter.ARR, upper=1.0),
    _scenario_field(
        "drive.latent_defects_per_hour",
        Parameter.LATENT_DEFECTS_PER_HOUR,
        upper=MAX_LATENT_DEFECTS_PER_HOUR,
        allows_zero=True,
    ),
    _scenario_field("restore.rebuild_hours", Parameter.REBUILD_HOURS),
    _scenario_field("restore.scrub_hours", Parameter.SCRUB_HOURS),
    _scenario_field("mission_years", Parameter.MISSION_HOURS, HOURS_PER_YEAR),
    _scenario_field("aggregate.data_disks", Parameter.DATA_DISKS),
)
"""The fields ``--vary`` accepts and the tornado reports, in the model's order."""

SPARES_FIELDS: tuple[ScenarioField, ...] = (
    _scenario_field("aggregate.hot_spares", Parameter.HOT_SPARES, allows_zero=True),
)
"""Hot spares: ``--vary`` takes them (how many to buy); they shorten the wait for a
replacement (``restore.replace_delay_hours``) and the tornado, which scales each input by a
factor, leaves a count that starts at 0 out."""

CORRELATION_FIELDS: tuple[ScenarioField, ...] = (
    _scenario_field("correlation.degraded_multiplier", Parameter.DEGRADED_MULTIPLIER),
    _scenario_field(
        "correlation.shocks_per_year",
        Parameter.SHOCKS_PER_HOUR,
        1.0 / HOURS_PER_YEAR,
        allows_zero=True,
        plausible=PLAUSIBLE_SHOCKS_PER_YEAR,
    ),
    _scenario_field(
        "correlation.shock_drive_probability",
        Parameter.SHOCK_DRIVE_PROBABILITY,
        allows_zero=True,
        plausible=DEFAULT_SHOCK_DRIVE_PROBABILITY,
    ),
)
"""The correlated-failure fields: ``--vary`` accepts them, and the tornado of a scenario with
a ``correlation`` section reports them (docs/correlated.md)."""

ENCLOSURE_FIELDS: tuple[ScenarioField, ...] = (
    _scenario_field(
        "enclosures.failures_per_year",
        Parameter.ENCLOSURE_FAILURES_PER_HOUR,
        1.0 / HOURS_PER_YEAR,
        allows_zero=True,
        plausible=PLAUSIBLE_ENCLOSURE_FAILURES_PER_YEAR,
    ),
    _scenario_field("enclosures.repair_hours", Parameter.ENCLOSURE_REPAIR_HOURS),
    _scenario_field("enclosures.members_per_enclosure", Parameter.MEMBERS_PER_ENCLOSURE),
    _scenario_field("enclosures.spread", Parameter.SPREAD),
)
"""The failure-domain fields: ``--vary`` accepts them (a placement rule replaces the other)
and the tornado of a scenario with an ``enclosures`` section reports the first two
(docs/domains.md)."""

AGEING_FIELDS: tuple[ScenarioField, ...] = (
    _scenario_field("ageing.weibull.shape", Parameter.AGEING_WEIBULL_SHAPE),
    _scenario_field(
        "ageing.drive_age_years_at_start",
        Parameter.DRIVE_AGE_HOURS_AT_START,
        HOURS_PER_YEAR,
        allows_zero=True,
    ),
)
"""The ageing fields (docs/ageing.md): ``--vary`` accepts them for a scenario with an
``ageing`` section; they move the ageing figures only (the tornado keeps the constant rate)."""

_ALL = (*SCENARIO_FIELDS, *SPARES_FIELDS, *CORRELATION_FIELDS, *ENCLOSURE_FIELDS, *AGEING_FIELDS)

FIELDS_BY_NAME = {field.name: field for field in _ALL}

_BY_PARAMETER = {field.parameter: field for field in _ALL}


def field_for(parameter: Parameter | str) -> ScenarioField:
    """The scenario field of a core parameter; KeyError for one with none (per-hour rates)."""
    return _BY_PARAMETER[Parameter(parameter)]


def varied_fields_text() -> str:
    """Every field ``--vary`` takes, in words: the model's, then each section's.

    A refusal of an unknown field lists them (it pointed to ``planner schema``, which says
    nothing of ``--vary``: a buyer's review).
    """
    sections = (
        ("", (*SCENARIO_FIELDS, *SPARES_FIELDS)),
        ("with a correlation section: ", CORRELATION_FIELDS),
        ("with an enclosures section: ", ENCLOSURE_FIELDS),
        ("with an ageing section: ", AGEING_FIELDS),
    )
    return "; ".join(f"{words}{', '.join(f.name for f in fields)}" for words, fields in sections)
