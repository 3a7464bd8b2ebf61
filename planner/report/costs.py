"""The cost columns and JSON keys, declared once for the comparison and the sizing.

Shown only when the scenario prices its drives (``drive.price`` or ``drive.watts``): the
purchase, the expected replacement drives, the energy, the total cost of ownership and
that per usable TB (:mod:`planner.core.cost`). A part the scenario does not price has no
column, and null in JSON and CSV.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from planner.core.cost import CostPrices, LayoutCost
from planner.report.table import Column

RowT = TypeVar("RowT")

COST_KEYS = (
    "purchase_cost",
    "expected_replacements",
    "replacement_cost",
    "energy_kwh",
    "energy_cost",
    "total_cost",
    "cost_per_usable_tb",
    "currency",
)
"""The keys a priced layout adds to its JSON and CSV record, in this order."""


def money_column(amounts: Sequence[float | None]) -> list[str]:
    """Money with thousands separators, one precision a column; blank when not priced.

    Whole units (``12,345``), or cents when every amount is below 100 (``47.95``).
    """
    finite = [abs(a) for a in amounts if a is not None and math.isfinite(a)]
    if any(a >= 1e15 for a in finite):
        return ["" if a is None else f"{a:.2e}" for a in amounts]
    decimals = 2 if finite and max(finite) < 100 else 0
    return ["" if a is None else f"{a:,.{decimals}f}" for a in amounts]


def replacements_column(counts: Sequence[float | None]) -> list[str]:
    """Expected drive counts, one precision a column: 1 decimal, 2 when all are below 10."""
    finite = [abs(c) for c in counts if c is not None and math.isfinite(c)]
    decimals = 2 if finite and max(finite) < 10 else 1
    return ["" if c is None else f"{c:,.{decimals}f}" for c in counts]


def prices_of(costs: Sequence[LayoutCost | None]) -> CostPrices | None:
    """The prices the rows were costed with, or None when no row is priced."""
    return next((c.prices for c in costs if c is not None), None)


def cost_columns(
    cost_of: Callable[[RowT], LayoutCost | None], rows: Sequence[RowT]
) -> list[Column[RowT]]:
    """The cost columns for ``rows`` (none when they are not priced).

    A narrow screen drops the replacements and the energy first, then the purchase and the
    price per TB; the TCO goes last but one of the droppable columns.
    """
    costs = [cost_of(row) for row in rows]
    prices = prices_of(costs)
    if prices is None:
        return []
    unit = f" ({prices.currency})" if prices.currency else ""
    short_unit = f"\n({prices.currency})" if prices.currency else ""

    def part(read: Callable[[LayoutCost], float | None]) -> Callable[[RowT], float | None]:
        def value(row: RowT) -> float | None:
            cost = cost_of(row)
            return None if cost is None else read(cost)

        return value

    columns: list[Column[RowT]] = []
    if prices.counts_purchase:
        columns.append(
            Column(
                f"Purchase{unit}",
                part(lambda c: c.purchase_cost),
                money_column,
                short_header=f"Purchase{short_unit}",
                priority=6,
                unit=prices.currency,
            )
        )
    columns.append(
        Column(
            "Replacements (drives)",
            part(lambda c: c.expected_replacements),
            replacements_column,
            short_header="Replace-\nments",
            priority=12,
            unit="drives",
        )
    )
    if prices.counts_energy:
        columns.append(
            Column(
                f"Energy{unit}",
                part(lambda c: c.energy_cost),
                money_column,
                short_header=f"Energy{short_unit}",
                priority=12,
                unit=prices.currency,
            )
        )
    columns.append(
        Column(
            f"TCO{unit}",
            part(lambda c: c.total_cost),
            money_column,
            short_header=f"TCO{short_unit}",
            priority=2,
            unit=prices.currency,
        )
    )
    if any(c is not None and c.cost_per_usable_tb is not None for c in costs):
        columns.append(
            Column(
                f"TCO/TB{unit}",
                part(lambda c: c.cost_per_usable_tb),
                money_column,
                short_header=f"TCO/TB{short_unit}",
                priority=5,
                unit=f"{prices.currency} per TB".strip(),
            )
        )
    return columns


def cost_record(cost: LayoutCost | None) -> dict[str, Any]:
    """The JSON and CSV keys of a priced layout (:data:`COST_KEYS`); {} when unpriced.

    A part the scenario does not price is None (null): the purchase and replacement costs
    without ``drive.price``, the energy without ``drive.watts`` and its price.
    """
    if cost is None:
        return {}
    prices = cost.prices
    priced = prices.counts_purchase
    return {
        "purchase_cost": cost.purchase_cost if priced else None,
        "expected_replacements": cost.expected_replacements,
        "replacement_cost": cost.replacement_cost if priced else None,
        "energy_kwh": cost.energy_kwh if prices.drive_watts is not None else None,
        "energy_cost": cost.energy_cost if prices.counts_energy else None,
        "total_cost": cost.total_cost,
        "cost_per_usable_tb": cost.cost_per_usable_tb,
        "currency": prices.currency,
    }
