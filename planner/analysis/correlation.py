"""How much independence understates the risk: P(loss) with and without correlation.

With a ``correlation`` section that changes the risk (docs/correlated.md), every layout's
aggregate is evaluated a second time by the same function on the scenario without the
section (m = 1, no shocks), and its result carries both
(:class:`planner.core.design.layout_comparison.Independent`): the "P(loss) if
independent" and "× independent" columns of ``planner evaluate``, ``planner size``, the
design report and the TUI.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import TypeVar

from planner.core.design.layout_comparison import Independent, LayoutResult
from planner.core.design.sizing import SizingResult
from planner.scenario import Scenario
from planner.scenario.correlation import DEFAULT_SHOCK_DRIVE_PROBABILITY

_Row = TypeVar("_Row", LayoutResult, SizingResult)


def with_independent(correlated: Sequence[_Row], independent: Sequence[_Row]) -> tuple[_Row, ...]:
    """The ``correlated`` results, each with its twin's P(loss) under independent drives.

    ``independent``: the same layouts (in the same order) evaluated by the same function
    under the rates made independent (:meth:`planner.core.markov.rates.Rates.independent`),
    so that the two differ in the correlation alone.
    """
    return tuple(
        dataclasses.replace(
            row,
            independent=Independent(
                twin.p_loss_aggregate, _factor(row.p_loss_aggregate, twin.p_loss_aggregate)
            ),
        )
        for row, twin in zip(correlated, independent, strict=True)
    )


def _factor(correlated: float, independent: float) -> float:
    """``correlated / independent``; NaN when neither can lose data, inf when only one can."""
    if independent > 0:
        return correlated / independent
    return math.nan if correlated == 0 else math.inf


def independent_scenario(scenario: Scenario) -> Scenario:
    """``scenario`` without its correlation section: the same drives failing independently."""
    return scenario.model_copy(update={"correlation": None})


CALIBRATED_DRIVES = (8, 24)
"""The arrays q = 1.2 % was checked against (Tahzibi 2015; docs/correlated.md)."""


def correlation_note(scenario: Scenario, *, table: bool = True) -> str:
    """The note under a correlated table: what the model adds, what the columns say.

    ``table=False`` (a sweep: its rows are other groups, and it has no independent
    columns) leaves out the columns and the scenario's layouts. With shocks, the layouts
    whose groups lie outside the arrays the shock probability was fitted on are named: a
    ZFS admin's 60-drive pools turned from 1,700x safer than raidz2 10 to 4x riskier with
    shocks, on a figure the fit never saw.
    """
    c = scenario.correlation
    if c is None or not scenario.correlated:
        return ""
    shocks = (
        f"{c.shocks_per_year:g} shocks per group-year, each failing every working drive with "
        f"probability {c.shock_drive_probability:.4g} (the binomial failure rate model; the "
        "same rate for every group whatever its size, so layouts of many small groups meet "
        "more shocks per aggregate)"
        if c.shocks
        else "no shocks"
    )
    low, high = CALIBRATED_DRIVES
    outside = [x for x in scenario.core_layouts() if not low <= x.group_size <= high]
    fitted = ""
    if c.shocks and outside and table:
        names = ", ".join(f"{x.label} ({x.group_size} drives)" for x in outside)
        fitted = (
            f" The shock probability was checked on arrays of {low} to {high} drives (its "
            f"default, {DEFAULT_SHOCK_DRIVE_PROBABILITY:.1%}); {names} lie outside, where the "
            "shocks' figures extrapolate it."
        )
    columns = (
        " P(loss) indep.: the same drives failing independently; × indep.: how many times "
        "that understates the risk."
        if table
        else ""
    )
    return (
        f"Correlated failures: each working drive fails x{c.degraded_multiplier:g} as often "
        f"while a drive of its group is down; {shocks}.{columns}{fitted} (docs/correlated.md)"
    )
