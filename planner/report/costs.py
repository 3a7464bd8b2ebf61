"""The cost columns and their JSON keys, declared once for the comparison and the sizing.

Shown only when the scenario prices its drives (``drive.price`` or ``drive.watts``): the
purchase, the expected replacement drives, the energy, the total cost of ownership and
that per usable TB (:mod:`planner.core.arrays.cost`). A part the scenario does not price has no
column, and null in JSON and CSV.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Generic, TypeVar

from planner.core.arrays.cost import CostPrices, LayoutCost
from planner.report.table import Column, export_field

RowT = TypeVar("RowT")


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


@dataclass(frozen=True)
class _Priced(Generic[RowT]):
    """Reads a row's cost and makes its money columns, headed in the prices' currency."""

    cost_of: Callable[[RowT], LayoutCost | None]
    prices: CostPrices

    def part(self, read: Callable[[LayoutCost], Any]) -> Callable[[RowT], Any]:
        """A part of the row's cost; None for a row not priced."""

        def value(row: RowT) -> Any:
            cost = self.cost_of(row)
            return None if cost is None else read(cost)

        return value

    def money(
        self, header: str, key: str, read: Callable[[LayoutCost], Any], **options: Any
    ) -> Column[RowT]:
        """A money column: ``Purchase (USD)``, on a narrow screen the currency below."""
        currency = self.prices.currency
        return Column(
            f"{header} ({currency})" if currency else header,
            self.part(read),
            money_column,
            short_header=f"{header}\n({currency})" if currency else header,
            **{"unit": currency, "key": key, **options},
        )


def cost_fields(
    cost_of: Callable[[RowT], LayoutCost | None], rows: Sequence[RowT]
) -> list[Column[RowT]]:
    """The cost columns and export fields for ``rows``, in the export's order.

    None at all when no row is priced (the records have no cost key then). A part the scenario
    does not price has no column and is None in the records: the purchase and replacement
    costs without ``drive.price``, the energy without ``drive.watts`` and its price.

    A narrow screen drops the replacements and the energy first, then the purchase and the
    price per TB; the TCO goes last but one of the droppable columns.
    """
    costs = [cost_of(row) for row in rows]
    prices = prices_of(costs)
    if prices is None:
        return []
    priced = _Priced(cost_of, prices)
    per_tb = any(c is not None and c.cost_per_usable_tb is not None for c in costs)
    needed = any(c is not None and c.cost_per_needed_tb is not None for c in costs)
    return [*_buying_fields(priced), *_running_fields(priced, per_tb, needed)]


def _buying_fields(priced: _Priced[RowT]) -> list[Column[RowT]]:
    """The purchase and the expected replacement drives, and what those cost."""
    part, money, prices = priced.part, priced.money, priced.prices
    return [
        money(
            "Purchase",
            "purchase_cost",
            lambda c: c.purchase_cost if c.prices.counts_purchase else None,
            priority=6,
            shown=prices.counts_purchase,
        ),
        Column(
            "Replacements (drives)",
            part(lambda c: c.expected_replacements),
            replacements_column,
            short_header="Replaced\n(drives)",
            priority=12,
            unit="drives",
            key="expected_replacements",
        ),
        export_field(
            "replacement_cost",
            part(lambda c: c.replacement_cost if c.prices.counts_purchase else None),
        ),
    ]


PER_TB: tuple[tuple[str, str, Callable[[bool, bool], bool]], ...] = (
    ("TCO/TB", "cost_per_usable_tb", lambda per_tb, needed: per_tb and not needed),
    ("TCO/TB needed", "cost_per_needed_tb", lambda per_tb, needed: needed),
)
"""The costs per TB: (header, key, shown given a usable capacity and a TB needed). The
second is only for rows sized to hold a given TB (a fixed aggregate's records lack it)."""


def _running_fields(priced: _Priced[RowT], per_tb: bool, needed: bool) -> list[Column[RowT]]:
    """The energy, the total cost of ownership and that per TB (when known).

    Per TB needed where the rows are sized to hold a given TB (``needed``): per usable TB
    there, a layout its IOPS make large looked cheapest for capacity nobody asked for
    (:attr:`~planner.core.arrays.cost.CostOfOwnership.cost_per_needed_tb`); the exports
    keep both.
    """
    part, money, prices = priced.part, priced.money, priced.prices
    return [
        export_field(
            "energy_kwh",
            part(lambda c: c.energy_kwh if c.prices.drive_watts is not None else None),
        ),
        money(
            "Energy",
            "energy_cost",
            lambda c: c.energy_cost if c.prices.counts_energy else None,
            priority=12,
            shown=prices.counts_energy,
        ),
        # energy alone is not a cost of ownership: without drive.price the TCO stays in the
        # exports but not on screen (the Energy column says it all)
        money(
            "TCO", "total_cost", lambda c: c.total_cost, priority=2, shown=prices.counts_purchase
        ),
        *(
            money(
                header,
                key,
                attrgetter(key),
                priority=5,
                unit=f"{prices.currency} per TB".strip(),
                shown=prices.counts_purchase and visible(per_tb, needed),
            )
            for header, key, visible in PER_TB[: 2 if needed else 1]
        ),
        export_field("currency", part(lambda c: c.prices.currency)),
    ]
