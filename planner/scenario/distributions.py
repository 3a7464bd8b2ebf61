"""The optional distributions section: non-constant laws for ``planner simulate``.

Without it the simulator uses the scenario's constant rates as exponential distributions,
so it reproduces ``planner evaluate``. With it, any of the three times can be a Weibull
(Elerath and Pecht 2009 fitted three-parameter Weibulls to field data) or an exponential::

    distributions: elerath2009          # the preset, or a mapping:

    distributions:
      preset: elerath2009               # optional starting point; default: the constant rates
      operational_failure:              # time to failure of a new drive
        weibull: {shape: 1.2, scale_hours: 461386}
      restoration:                      # duration of one rebuild
        weibull: {shape: 2.0, scale_hours: 12, location_hours: 6}
      scrub:                            # time from a latent defect to its repair by the scrub
        exponential: {mean_hours: 168}
      latent_defects_per_hour: 1.08e-4  # constant, per drive-hour

Each key left out comes from the preset when one is named, else from the scenario's
constant rates (drive and restore sections).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.core.markov.ageing import Ageing, HazardTable
from planner.core.markov.rates import Rates
from planner.core.simulation.distributions import (
    ELERATH_2009,
    DistributionSet,
    correlation_of,
    exponential_from_rates,
)
from planner.core.simulation.time_laws import Distribution, Exponential, HazardByYear, Weibull
from planner.scenario.base import FieldError, FrozenModel, positive
from planner.scenario.errors import shown

DISTRIBUTION_PRESETS: dict[str, DistributionSet] = {"elerath2009": ELERATH_2009}
"""Named distribution sets: ``elerath2009`` is Elerath and Pecht (2009) for NS3574's
assumptions (Weibull lifetimes, rebuilds of at least 6 h, scrubs of at least 6 h)."""

CONSTANT_RATES = "exponential (constant rates)"
"""How reports name the distributions when the scenario has no distributions section."""

_TIMES = ("operational_failure", "restoration", "scrub")


def _normalise(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name.strip().lower())


def find_distribution_preset(name: object) -> str:
    """The canonical preset name for ``name`` (``Elerath-2009`` -> ``elerath2009``).

    Raises:
        ValueError: not a known preset; the message suggests the closest one.
    """
    if not isinstance(name, str):
        raise ValueError(
            f"expected a preset name ({', '.join(DISTRIBUTION_PRESETS)}) or a mapping, "
            f"got {shown(name)}"
        )
    key = _normalise(name)
    if key in DISTRIBUTION_PRESETS:
        return key
    near = difflib.get_close_matches(key, list(DISTRIBUTION_PRESETS), n=1, cutoff=0.5)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise ValueError(
        f"unknown distributions preset {shown(name)}{hint} "
        f"(known: {', '.join(DISTRIBUTION_PRESETS)})"
    )


def _distributions_schema_extra(schema: dict[str, Any]) -> None:
    # A preset name is accepted in place of the mapping.
    mapping = {k: schema.pop(k) for k in ("type", "properties", "additionalProperties")}
    names = {"type": "string", "enum": list(DISTRIBUTION_PRESETS)}
    schema["anyOf"] = [names, mapping]


def _spec_schema_extra(schema: dict[str, Any]) -> None:
    schema["oneOf"] = [{"required": ["weibull"]}, {"required": ["exponential"]}]


class WeibullSpec(FrozenModel):
    """A three-parameter Weibull: ``F(t) = 1 - exp(-((t - location) / scale) ** shape)``."""

    shape: float = positive(
        le=100, description="Weibull shape (beta): > 1 wear-out, < 1 infant mortality."
    )
    scale_hours: float = positive(
        le=1e12, description="Characteristic life (eta, hours): 63% done by location + scale."
    )
    location_hours: float = Field(
        default=0.0,
        strict=True,
        ge=0,
        le=1e9,
        allow_inf_nan=False,
        description="Minimum time (gamma, hours), e.g. the shortest possible rebuild; default 0.",
    )

    def to_core(self) -> Weibull:
        """The core distribution."""
        return Weibull(self.shape, self.scale_hours, self.location_hours)


class ExponentialSpec(FrozenModel):
    """An exponential time (a constant rate), given by its mean."""

    mean_hours: float = positive(le=1e12, description="Mean time (hours); the rate is 1 / mean.")

    def to_core(self) -> Exponential:
        """The core distribution."""
        return Exponential(self.mean_hours)


class DistributionSpec(FrozenModel):
    """One time distribution: exactly one of ``weibull`` or ``exponential``."""

    model_config = ConfigDict(json_schema_extra=_spec_schema_extra)

    weibull: WeibullSpec | None = Field(
        default=None, description="Weibull: shape, scale_hours, location_hours."
    )
    exponential: ExponentialSpec | None = Field(
        default=None, description="Exponential: mean_hours."
    )

    @model_validator(mode="after")
    def _exactly_one(self) -> DistributionSpec:
        if self.weibull is not None and self.exponential is not None:
            raise FieldError("give weibull or exponential, not both", "exponential")
        if self.weibull is None and self.exponential is None:
            raise FieldError(
                "give the distribution as weibull: {shape, scale_hours, location_hours} or "
                "exponential: {mean_hours}"
            )
        return self

    def to_core(self) -> Weibull | Exponential:
        """The core distribution."""
        if self.weibull is not None:
            return self.weibull.to_core()
        assert self.exponential is not None  # guaranteed by _exactly_one
        return self.exponential.to_core()


class Distributions(FrozenModel):
    """Time distributions for the simulator; ``elerath2009`` alone names the preset.

    Keys left out come from ``preset`` when given, else from the scenario's constant rates.
    """

    model_config = ConfigDict(json_schema_extra=_distributions_schema_extra)

    preset: str | None = Field(
        default=None,
        strict=True,
        description="Starting point: "
        + ", ".join(DISTRIBUTION_PRESETS)
        + " (Elerath and Pecht 2009). Default: the scenario's constant rates.",
    )
    operational_failure: DistributionSpec | None = Field(
        default=None, description="Time to operational failure of a new drive (hours)."
    )
    restoration: DistributionSpec | None = Field(
        default=None, description="Duration of one rebuild (hours)."
    )
    scrub: DistributionSpec | None = Field(
        default=None,
        description="Time from a latent defect's appearance to its repair by the scrub "
        "(hours, counted while no drive is failed).",
    )
    latent_defects_per_hour: float | None = Field(
        default=None,
        strict=True,
        ge=0,
        lt=1,
        allow_inf_nan=False,
        description="Latent defects per drive-hour (constant); default the preset's or "
        "drive.latent_defects_per_hour.",
    )

    @model_validator(mode="before")
    @classmethod
    def _preset_name(cls, data: Any) -> Any:
        """``distributions: elerath2009`` is ``{preset: elerath2009}``; names are checked."""
        if not isinstance(data, dict | BaseModel):  # a name, or a number written by mistake
            return {"preset": find_distribution_preset(data)}
        if isinstance(data, dict) and isinstance(data.get("preset"), str):
            try:
                return {**data, "preset": find_distribution_preset(data["preset"])}
            except ValueError as exc:
                raise FieldError(str(exc), "preset") from None
        return data

    @property
    def name(self) -> str:
        """A short name for reports: the preset, ``elerath2009 (modified)`` or ``custom``."""
        overridden = any(getattr(self, key) is not None for key in _TIMES) or (
            self.latent_defects_per_hour is not None
        )
        if self.preset is None:
            return "custom"
        return f"{self.preset} (modified)" if overridden else self.preset

    def to_core(self, rates: Rates, ageing: Ageing | None = None) -> DistributionSet:
        """The core distribution set; ``rates`` (the scenario's) fill keys left out.

        ``ageing`` (the scenario's ``ageing`` section, in the core's terms): the time to
        failure when ``operational_failure`` is not given, and the drives' age at start.
        """
        base = DISTRIBUTION_PRESETS[self.preset] if self.preset else exponential_from_rates(rates)
        if ageing is not None:
            base = aged_distributions(base, ageing)
        times = {}
        for key in _TIMES:
            spec: DistributionSpec | None = getattr(self, key)
            times[key] = getattr(base, key) if spec is None else spec.to_core()
        latent = self.latent_defects_per_hour
        return DistributionSet(
            operational_failure=times["operational_failure"],
            restoration=times["restoration"],
            scrub=times["scrub"],
            latent_defects_per_hour=base.latent_defects_per_hour if latent is None else latent,
            # the scenario's rate per data drive of the workload's reads; a rate given here,
            # or the preset's, is every drive's
            defects_per_data_drive=latent is None and base.defects_per_data_drive,
            rebuild_streams=rates.rebuild_streams,
            replace_delay_hours=rates.replace_delay_hours,
            hot_spares=rates.hot_spares,
            drive_age_hours_at_start=base.drive_age_hours_at_start,
            **correlation_of(rates),
        )


AGEING = "ageing"
"""How reports name the constant rates with the time to failure of the ageing section."""


def aged_distributions(base: DistributionSet, ageing: Ageing) -> DistributionSet:
    """``base`` with the ageing section's time to failure and the drives' age at the start.

    A replaced drive is new (the simulator renews it), where the exact chain keeps the
    batch's age: docs/ageing.md compares the two.
    """
    law = ageing.law
    life: Distribution = (
        HazardByYear(law) if isinstance(law, HazardTable) else Weibull(law.shape, law.scale_hours)
    )
    return dataclasses.replace(
        base, operational_failure=life, drive_age_hours_at_start=ageing.age_at_start_hours
    )


def distribution_set(
    section: Distributions | None, rates: Rates, ageing: Ageing | None = None
) -> tuple[DistributionSet, str]:
    """The simulator's distributions for a scenario and their name for reports.

    Args:
        section: the scenario's ``distributions`` (None: the constant rates as exponentials).
        rates: the scenario's constant rates (:meth:`planner.scenario.Scenario.rates`).
        ageing: the scenario's ageing drives (:meth:`planner.scenario.Scenario.core_ageing`):
            the time to failure unless the section gives one, and the drives' age.
    """
    if section is None:
        if ageing is None:
            return exponential_from_rates(rates), CONSTANT_RATES
        return aged_distributions(exponential_from_rates(rates), ageing), AGEING
    laws = section.to_core(rates, ageing)
    return laws, section.name if ageing is None else f"{section.name}, {AGEING}"
