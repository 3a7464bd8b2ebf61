"""What the drives cost: ``drive.price``, ``drive.watts`` and the ``costs`` section.

All optional. With ``drive.price`` (currency per drive) a layout's purchase and expected
replacement drives are priced; with ``drive.watts`` and ``costs.energy_per_kwh`` its energy
over the mission; ``costs.per_group`` adds a share of enclosure or controller per RAID group
to the purchase; ``costs.currency`` is a label for display only (``USD``, ``€``). The
figures are :mod:`planner.core.arrays.cost`'s.
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import Field, field_validator

from planner.core.arrays.cost import CostPrices
from planner.scenario.base import FieldError, FrozenModel, displayable, meta
from planner.scenario.limits import MAX_DRIVE_PRICE, MAX_DRIVE_WATTS, MAX_ENERGY_PER_KWH


class PricedDrive(Protocol):
    """What pricing reads of the drive section: the two fields this module declares.

    :class:`planner.scenario.drive.DriveSpec` is one; it takes the fields from
    :func:`price_field` and :func:`watts_field`, so the drive section imports this module and
    not the other way round.
    """

    @property
    def price(self) -> float | None:
        """``drive.price`` (currency per drive), or None."""

    @property
    def watts(self) -> float | None:
        """``drive.watts`` (W), or None."""


def _non_negative(most: float, **kwargs: Any) -> Any:
    """A strict, finite amount in [0, ``most``] (money or watts; ints accepted)."""
    return Field(default=None, strict=True, ge=0, le=most, allow_inf_nan=False, **kwargs)


def price_field() -> Any:
    """``drive.price``: what one drive costs (currency per drive)."""
    return _non_negative(
        MAX_DRIVE_PRICE,
        description="Price of one drive (currency per drive, e.g. 350); prices the purchase "
        "and the expected replacement drives of each layout (costs.currency names it).",
        json_schema_extra=meta("Drive price", "currency per drive", "350", optional=True),
    )


def watts_field() -> Any:
    """``drive.watts``: the average power one drive draws in service (W)."""
    return _non_negative(
        MAX_DRIVE_WATTS,
        description="Average power of one drive in service (W, e.g. 8); with "
        "costs.energy_per_kwh it prices the energy over the mission.",
        json_schema_extra=meta("Drive W", "watts per drive", "8", optional=True),
    )


class Costs(FrozenModel):
    """Prices besides the drive's own: energy, a share per RAID group, the currency's name."""

    energy_per_kwh: float | None = _non_negative(
        MAX_ENERGY_PER_KWH,
        description="Price of energy (currency per kWh, e.g. 0.30), counted with drive.watts "
        "over the mission.",
        json_schema_extra=meta("Energy/kWh", "currency per kWh", "0.30", optional=True),
    )
    per_group: float | None = _non_negative(
        MAX_DRIVE_PRICE * 1000,
        description="Cost of each RAID group besides its drives, e.g. its share of enclosure "
        "and controller (currency per group); added to the purchase.",
        json_schema_extra=meta("Group cost", "currency per RAID group", "2000", optional=True),
    )
    currency: str = Field(
        default="",
        strict=True,
        max_length=8,
        description="Name of the currency the prices are in (USD, EUR, €), shown beside the "
        "cost columns; nothing is converted.",
    )

    @field_validator("currency")
    @classmethod
    def _one_line(cls, currency: str) -> str:
        return displayable(currency, "USD or €")


def check_costs(drive: PricedDrive, costs: Costs | None) -> None:
    """Refuse prices that would be silently ignored: each needs its partner.

    Raises:
        FieldError: located at the field that lacks its partner.
    """
    energy = None if costs is None else costs.energy_per_kwh
    if drive.watts is not None and energy is None:
        raise FieldError(
            "needs costs.energy_per_kwh (the price of energy, e.g. 0.30) to price "
            "the energy; add a costs: section with it",
            "drive",
            "watts",
        )
    if costs is None:
        return
    if energy is not None and drive.watts is None:
        raise FieldError(
            "needs drive.watts (the average power of one drive, e.g. 8)",
            "costs",
            "energy_per_kwh",
        )
    if costs.per_group is not None and drive.price is None:
        raise FieldError(
            "needs drive.price (the price of one drive, e.g. 350): it is part of the purchase",
            "costs",
            "per_group",
        )
    if drive.price is None and drive.watts is None:
        raise FieldError(
            "prices nothing without drive.price (e.g. 350) or drive.watts (e.g. 8); "
            "add them under drive",
            "costs",
        )


def cost_prices(drive: PricedDrive, costs: Costs | None) -> CostPrices | None:
    """The prices for :mod:`planner.core.arrays.cost`, or None when the scenario gives none."""
    if drive.price is None and drive.watts is None:
        return None
    return CostPrices(
        drive_price=drive.price,
        drive_watts=drive.watts,
        energy_per_kwh=None if costs is None else costs.energy_per_kwh,
        per_group_cost=0.0 if costs is None or costs.per_group is None else costs.per_group,
        currency="" if costs is None else costs.currency,
    )
