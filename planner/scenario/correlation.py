"""The correlation section: drives that do not fail independently (docs/correlated.md).

Two mechanisms, each neutral by default:

* ``degraded_multiplier`` (m >= 1): while a drive of the group is down every working drive
  fails m times as often (rebuild stress, replacements clustered in time: Schroeder and
  Gibson, "Disk failures in the real world", FAST 2007);
* ``shocks_per_year`` with ``shock_drive_probability``: the binomial failure rate model of
  common-cause failure (Vesely 1977; Atwood 1986; NUREG/CR-4780, 1988). Shocks hit each
  group at a rate; at a shock each working drive fails with probability q.

The two shock fields are independent keys. ``shocks_per_year`` defaults to 0 (no shocks:
neutral, whatever q); ``shock_drive_probability`` defaults to
:data:`DEFAULT_SHOCK_DRIVE_PROBABILITY`, so that a shock rate given alone means something.
Any combination is valid (a rate with q = 0 fails no drive), so that an editor can set them
one after the other. Converted to the core's per-hour rates by
:meth:`Correlation.core_values`.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema

from planner.core.markov.rates import HOURS_PER_YEAR
from planner.scenario.base import FrozenModel, at_least, meta, percent_value
from planner.scenario.errors import shown
from planner.scenario.limits import MAX_DEGRADED_MULTIPLIER, MAX_SHOCKS_PER_YEAR

DEFAULT_SHOCK_DRIVE_PROBABILITY = 0.012
"""q when the file gives none (docs/correlated.md): with it, the chance that a shock which
fails one drive fails another with it is 0.042, 0.077 and 0.13 in groups of 8, 14 and 24
drives, each within 21% of the correlation probabilities 0.05, 0.09 and 0.11 that Tahzibi
("Modelling correlated failures in redundant array of independent disks in data storage
systems", M.Sc. thesis, Sharif University of Technology, 2015) fitted to field data."""

PLAUSIBLE_SHOCKS_PER_YEAR = 0.1
"""A plausible shock rate per group-year (docs/correlated.md), where a tornado moves a rate of
0 to: Jiang, Hu, Zhou and Kanevsky ("Are disks the dominant contributor for storage
failures?", FAST 2008) found physical interconnect failures (shelf enclosures, backplanes,
cables) 27-68% of storage subsystem failures against 20-55% for the disks, so about as
frequent as the disk failures of a shelf: 0.12 a year for 12 drives at an ARR of 1%."""


def _parse_percent(value: object) -> object:
    """``"5%"`` -> 0.05; numbers pass through for the float validation."""
    if not isinstance(value, str):
        return value
    fraction = percent_value(value)
    if fraction is None:
        raise ValueError(
            f"{shown(value)} is not a number; write a probability like 0.05 or a percentage like 5%"
        )
    return fraction


_PROBABILITY_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "number", "minimum": 0, "maximum": 1},
        {"type": "string", "pattern": r"^\s*[0-9.]+([eE][-+]?[0-9]+)?\s*%\s*$", "examples": ["5%"]},
    ]
}

Probability = Annotated[
    float,
    BeforeValidator(_parse_percent),
    Field(strict=True, ge=0, le=1, allow_inf_nan=False),
    WithJsonSchema(_PROBABILITY_SCHEMA),
]
"""A probability in [0, 1], written as a number (0.05) or a percentage (5%)."""


class Correlation(FrozenModel):
    """Correlated failures: a degraded multiplier and common-cause shocks (all optional)."""

    degraded_multiplier: float = at_least(
        1.0,
        default=1.0,
        le=MAX_DEGRADED_MULTIPLIER,
        description="Each working drive fails this many times as often while at least one "
        "drive of its group is down (rebuild stress; 1, the default: independent drives; "
        "2-4 in docs/correlated.md's worked case).",
        json_schema_extra=meta("Degraded x", "times", "2"),
    )
    shocks_per_year: float = at_least(
        0.0,
        default=0.0,
        le=MAX_SHOCKS_PER_YEAR,
        description="Common-cause shocks per group-year (a shelf, controller or power "
        "event, a bad batch); each fails every working drive with probability "
        "shock_drive_probability (the binomial failure rate model; default 0).",
        json_schema_extra=meta("Shocks/yr", "per group-year", "0.1"),
    )
    shock_drive_probability: Probability = Field(
        default=DEFAULT_SHOCK_DRIVE_PROBABILITY,
        description="Probability that a shock fails each working drive, independently (the "
        "latent defect's holder too, its defect with it): j drives fail at once with "
        "Binomial(working, q) (default "
        f"{DEFAULT_SHOCK_DRIVE_PROBABILITY:.1%}, from field correlation data: "
        "docs/correlated.md).",
        json_schema_extra=meta("Shock q", "", "1.2%"),
    )

    @property
    def correlated(self) -> bool:
        """A multiplier above 1, or shocks that fail drives."""
        return self.degraded_multiplier != 1.0 or (
            self.shocks_per_year > 0.0 and self.shock_drive_probability > 0.0
        )

    @property
    def shocks(self) -> bool:
        """Shocks that fail drives: a positive rate and probability."""
        return self.shocks_per_year > 0.0 and self.shock_drive_probability > 0.0

    def core_values(self) -> dict[str, float]:
        """The core's inputs by :class:`~planner.core.markov.rates.Rates` field name (per hour)."""
        return {
            "degraded_multiplier": self.degraded_multiplier,
            "shocks_per_hour": self.shocks_per_year / HOURS_PER_YEAR,
            "shock_drive_probability": self.shock_drive_probability,
        }
