"""Each layout's cost attached to its result, when the scenario prices its drives.

The comparison and the sizing carry :class:`planner.core.arrays.cost.LayoutCost` in their
results' ``cost`` (None without ``drive.price`` or ``drive.watts``, and nothing else
changes), costed all at once by :func:`planner.core.arrays.cost.cost_of_ownership`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from planner.core.arrays.cost import CostPrices, cost_of_ownership
from planner.core.design.layout_comparison import Comparison
from planner.core.design.sizing import SizingResult
from planner.scenario import Scenario


def priced_comparison(comparison: Comparison, scenario: Scenario) -> Comparison:
    """``comparison`` with each result's cost over the mission (unchanged when unpriced)."""
    prices = scenario.cost_prices()
    if prices is None:
        return comparison
    results = comparison.results
    usable = [r.usable_tb for r in results if r.usable_tb is not None]
    costs = cost_of_ownership(
        [r.shape.total_disks for r in results],
        [r.shape.groups for r in results],
        prices=prices,
        op_failures_per_hour=scenario.drive.op_failures_per_hour,
        mission_hours=comparison.mission_hours,
        usable_tb=usable if len(usable) == len(results) else None,
    )
    priced = tuple(replace(r, cost=costs.at(i)) for i, r in enumerate(results))
    return replace(comparison, results=priced)


def priced_sizing(results: Sequence[SizingResult], scenario: Scenario) -> tuple[SizingResult, ...]:
    """Each sized aggregate with its cost over the mission (unchanged when unpriced)."""
    prices = scenario.cost_prices()
    if prices is None or not results:
        return tuple(results)
    costs = cost_of_ownership(
        [r.disks_needed for r in results],
        [r.groups for r in results],
        prices=prices,
        op_failures_per_hour=scenario.drive.op_failures_per_hour,
        mission_hours=results[0].mission_hours,
        usable_tb=[r.usable_tb for r in results],
        needed_tb=results[0].required_tb,
    )
    return tuple(replace(r, cost=costs.at(i)) for i, r in enumerate(results))


def scenario_cost_note(scenario: Scenario, needed_tb: float | None = None) -> str | None:
    """:func:`cost_note` for the scenario's prices, or None when it has none."""
    prices = scenario.cost_prices()
    if prices is None:
        return None
    failures = scenario.drive.op_failures_per_hour
    return cost_note(prices, scenario.mission_hours, failures, needed_tb)


def cost_note(
    prices: CostPrices,
    mission_hours: float,
    op_failures_per_hour: float,
    needed_tb: float | None = None,
) -> str:
    """How the cost columns are made, in one line, with the scenario's prices.

    ``needed_tb``: the TB the aggregates are sized to hold, which TCO/TB is per.
    """
    currency = f" {prices.currency}" if prices.currency else ""
    hours = f"{mission_hours:,.0f} h"
    parts = []
    if prices.drive_price is not None:
        per_group = (
            f" + groups x {prices.per_group_cost:,g}{currency}" if prices.per_group_cost else ""
        )
        parts.append(f"purchase = drives x {prices.drive_price:,g}{currency}{per_group}")
    parts.append(
        f"replacements = expected failures, drives x {op_failures_per_hour:.3g}/h x {hours}"
        + (" (each at the drive's price)" if prices.counts_purchase else "")
    )
    if prices.counts_energy:
        parts.append(
            f"energy = drives x {prices.drive_watts:g} W x {hours} x "
            f"{prices.energy_per_kwh:g}{currency}/kWh"
        )
    if not prices.counts_purchase:
        return f"Cost: {'; '.join(parts)} (no drive.price: no cost of ownership)."
    per_tb = "per usable TB" if needed_tb is None else f"per TB needed ({needed_tb:,.1f} TB)"
    return f"Cost: {'; '.join(parts)}; TCO = the sum; TCO/TB {per_tb}."
