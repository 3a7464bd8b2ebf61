"""What a layout costs over the mission: drives and enclosures, replacement drives, energy.

Vectorised: every function takes arrays of total drives and groups (one element per
candidate layout) and returns arrays, so that thousands of candidates are costed at once;
plain numbers work too. Money is in the scenario's currency, whatever it is (the prices
carry a label for display only).

* Purchase: ``total_drives x drive_price + groups x per_group_cost``.
* Replacement drives: each drive slot of the aggregate is a renewal process with
  replacement under the constant operational failure rate ``lambda_op`` of the Markov model
  (NS3574's ARR / 8,760 h): a failed drive is replaced by a new one with the same rate, so
  the failures of one slot over a mission of ``T`` hours are a Poisson process and their
  expected number is ``lambda_op x T``. Over the aggregate: ``total_drives x lambda_op x T``
  (latent defects do not replace drives). Their cost is that times ``drive_price``.
* Energy: ``total_drives x drive_watts x T / 1,000`` kWh, times ``energy_per_kwh``.
* Total cost of ownership (TCO): the sum of the three; per usable TB when the usable
  capacity is known.

A part whose price is not given (None) counts as zero in the TCO; :class:`CostPrices` says
which parts were given, so a report can leave their columns out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

WATT_HOURS_PER_KWH = 1_000.0
"""Watt-hours in a kilowatt-hour."""


@dataclass(frozen=True)
class CostPrices:
    """The prices a cost is computed from (money in one currency, ``currency``).

    Attributes:
        drive_price: price of one drive (currency per drive), or None when not given.
        drive_watts: average power of one drive in service (W), or None when not given.
        energy_per_kwh: price of energy (currency per kWh), or None when not given.
        per_group_cost: cost of each RAID group besides its drives (its share of enclosure
            and controller; currency per group), 0 when not given.
        currency: label of the currency (``USD``, ``€``), for display only; may be empty.
    """

    drive_price: float | None = None
    drive_watts: float | None = None
    energy_per_kwh: float | None = None
    per_group_cost: float = 0.0
    currency: str = ""

    def __post_init__(self) -> None:
        for name in ("drive_price", "drive_watts", "energy_per_kwh", "per_group_cost"):
            value = getattr(self, name)
            if value is not None and not (math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")

    @property
    def counts_purchase(self) -> bool:
        """Whether drives are priced: purchase and replacement costs are counted."""
        return self.drive_price is not None

    @property
    def counts_energy(self) -> bool:
        """Whether energy is priced: both the drive's watts and the price per kWh are given."""
        return self.drive_watts is not None and self.energy_per_kwh is not None


@dataclass(frozen=True)
class CostOfOwnership:
    """The cost of many layouts over one mission, one array element per layout.

    Attributes:
        prices: the prices the figures come from.
        mission_hours: the mission (h).
        purchase_cost: drives x price + groups x per-group cost (currency).
        expected_replacements: expected drive failures over the mission, each replaced
            (drives; a Poisson mean, so fractional).
        replacement_cost: expected_replacements x drive price (currency).
        energy_kwh: energy the drives use over the mission (kWh).
        energy_cost: energy_kwh x price per kWh (currency).
        total_cost: purchase + replacements + energy (currency).
        cost_per_usable_tb: total_cost / usable TB (currency per TB); NaN where the usable
            capacity is unknown or zero.
        cost_per_needed_tb: total_cost / the TB the aggregates are sized to hold (a
            workload's capacity_tb, a target's usable_tb; currency per TB); NaN for a fixed
            aggregate. Every such aggregate holds what is needed, so this ranks as the TCO
            does, where one that IOPS make large shows a low cost per usable TB for
            capacity nobody asked for (a newcomer: RAID 6 at 31.50 USD/TB beside a
            three-way mirror at 78.76, for 85,000 USD more).
    """

    prices: CostPrices
    mission_hours: float
    purchase_cost: FloatArray
    expected_replacements: FloatArray
    replacement_cost: FloatArray
    energy_kwh: FloatArray
    energy_cost: FloatArray
    total_cost: FloatArray
    cost_per_usable_tb: FloatArray
    cost_per_needed_tb: FloatArray

    def at(self, index: int) -> LayoutCost:
        """The cost of the layout at ``index`` (flat order), as plain numbers."""

        def item(values: FloatArray) -> float:
            return float(np.ravel(values)[index])

        def known(values: FloatArray) -> float | None:
            value = item(values)
            return value if math.isfinite(value) else None

        return LayoutCost(
            prices=self.prices,
            mission_hours=self.mission_hours,
            purchase_cost=item(self.purchase_cost),
            expected_replacements=item(self.expected_replacements),
            replacement_cost=item(self.replacement_cost),
            energy_kwh=item(self.energy_kwh),
            energy_cost=item(self.energy_cost),
            total_cost=item(self.total_cost),
            cost_per_usable_tb=known(self.cost_per_usable_tb),
            cost_per_needed_tb=known(self.cost_per_needed_tb),
        )


@dataclass(frozen=True)
class LayoutCost:
    """The cost of one layout over the mission (see :class:`CostOfOwnership`).

    ``cost_per_usable_tb`` is None when the usable capacity is unknown,
    ``cost_per_needed_tb`` unless the aggregate is sized to hold a given TB.
    """

    prices: CostPrices
    mission_hours: float
    purchase_cost: float
    expected_replacements: float
    replacement_cost: float
    energy_kwh: float
    energy_cost: float
    total_cost: float
    cost_per_usable_tb: float | None
    cost_per_needed_tb: float | None = None


def expected_replacements(
    total_drives: npt.ArrayLike, op_failures_per_hour: npt.ArrayLike, mission_hours: float
) -> FloatArray:
    """Expected drive failures over the mission, each failed drive replaced (drives).

    Each of the ``total_drives`` slots is a renewal process with exponential lifetimes of
    rate ``op_failures_per_hour`` (lambda_op, the Markov model's operational failure rate):
    a Poisson process, whose expected count over ``mission_hours`` is ``lambda_op x T``. The
    aggregate's is ``total_drives x lambda_op x T`` (an ARR of 1% is 0.01 replacements per
    drive-year). Arrays broadcast together.
    """
    drives = np.asarray(total_drives, dtype=np.float64)
    rate = np.asarray(op_failures_per_hour, dtype=np.float64)
    if np.any(drives < 0) or np.any(rate < 0) or mission_hours < 0:
        raise ValueError("drives, failure rate and mission must be >= 0")
    result: FloatArray = drives * rate * float(mission_hours)
    return result


def cost_of_ownership(
    total_drives: npt.ArrayLike,
    groups: npt.ArrayLike,
    *,
    prices: CostPrices,
    op_failures_per_hour: npt.ArrayLike,
    mission_hours: float,
    usable_tb: npt.ArrayLike | None = None,
    needed_tb: float | None = None,
) -> CostOfOwnership:
    """Purchase, replacement drives, energy and TCO of layouts (one element per layout).

    Args:
        total_drives: drives of each aggregate, data and redundancy (may be fractional for
            a declustered pool's share of spare capacity).
        groups: RAID groups of each aggregate (each costs ``prices.per_group_cost``).
        prices: drive price, power, energy price and per-group cost.
        op_failures_per_hour: operational failures per drive-hour, lambda_op (1/h); an
            array gives each layout its own.
        mission_hours: the mission (h).
        usable_tb: usable capacity of each aggregate (TB), or None when unknown.
        needed_tb: the TB every aggregate is sized to hold (a workload's, a target's), or None.

    Returns:
        The figures as arrays broadcast from ``total_drives``, ``groups`` and ``usable_tb``.
    """
    drives = np.asarray(total_drives, dtype=np.float64)
    group_counts = np.asarray(groups, dtype=np.float64)
    if np.any(drives < 0) or np.any(group_counts < 0):
        raise ValueError("drives and groups must be >= 0")
    price = prices.drive_price or 0.0
    purchase = drives * price + group_counts * prices.per_group_cost
    replacements = expected_replacements(drives, op_failures_per_hour, mission_hours)
    replacement_cost = replacements * price
    watts = prices.drive_watts or 0.0
    kwh = drives * watts * float(mission_hours) / WATT_HOURS_PER_KWH
    energy = kwh * (prices.energy_per_kwh or 0.0)
    total = purchase + replacement_cost + energy
    per_tb = _per_tb(total, usable_tb)
    per_needed_tb = _per_tb(total, needed_tb)
    shape = np.broadcast_shapes(np.shape(total), np.shape(per_tb))

    def full(values: FloatArray) -> FloatArray:
        return np.broadcast_to(values, shape).astype(np.float64)

    return CostOfOwnership(
        prices=prices,
        mission_hours=float(mission_hours),
        purchase_cost=full(purchase),
        expected_replacements=full(replacements),
        replacement_cost=full(replacement_cost),
        energy_kwh=full(kwh),
        energy_cost=full(energy),
        total_cost=full(total),
        cost_per_usable_tb=full(per_tb),
        cost_per_needed_tb=full(per_needed_tb),
    )


def _per_tb(total: FloatArray, capacity_tb: npt.ArrayLike | None) -> FloatArray:
    """``total / capacity_tb``, NaN where the capacity is unknown (None) or not positive."""
    if capacity_tb is None:
        return np.full(np.shape(total), np.nan)
    capacity = np.asarray(capacity_tb, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_tb: FloatArray = np.where(
            capacity > 0, total / np.where(capacity > 0, capacity, 1.0), np.nan
        )
    return per_tb
