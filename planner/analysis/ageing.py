"""P(loss) with ageing drives beside the constant-rate figure (docs/ageing.md).

With an ``ageing`` section, every layout's aggregate is evaluated a second time by the
time-inhomogeneous chain (:func:`planner.core.design.aged.aged_layout_risks`: the mission
in pieces, P(loss) with a bracket that holds the exact value), and its result carries both
(:class:`planner.core.markov.piecewise.AgedLoss`): the "P(loss) ageing", "Ageing bracket"
and "× ageing" columns of ``planner evaluate``, ``planner size``, the design report and the
TUI. The other columns keep the constant rate (``drive.arr``), as do the tornado and the
symbolic derivation. ``planner recommend`` (and the choose view, the design report) judge
the P(loss) target with the ageing figure (:func:`aged_candidates`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

from planner.core.arrays.layouts import Layout
from planner.core.design.aged import AgedRisks, aged_layout_risks
from planner.core.design.layout_comparison import LayoutResult
from planner.core.design.sizing import SizingResult
from planner.core.markov.ageing import Ageing as CoreAgeing
from planner.core.markov.piecewise import DEFAULT_TOLERANCE, AgedLoss
from planner.core.markov.rates import Rates, arr_to_failures_per_hour
from planner.scenario import Scenario

_Row = TypeVar("_Row", LayoutResult, SizingResult)


def with_aged(
    scenario: Scenario, rows: Sequence[_Row], layouts: Sequence[Layout]
) -> tuple[_Row, ...]:
    """``rows`` (one per layout of ``layouts``), each with its aggregate's ageing P(loss).

    Each row's aggregate and rebuild are its own (a sized aggregate's groups, its rebuild
    under load). ``rows`` unchanged when the scenario has no ageing section.
    """
    ageing = scenario.core_ageing()
    if ageing is None:
        return tuple(rows)
    rates = scenario.rates()
    chain = [
        dataclasses.replace(
            layout.chain_rates(_own_defects(rates, row), groups),
            rebuild_hours=row.rebuild_hours,
            replace_delay_hours=0.0,
        )
        for layout, row, groups in zip(layouts, rows, _groups(rows), strict=True)
    ]
    constant = [row.p_loss_aggregate for row in rows]
    risks = aged_layout_risks(
        layouts, chain, scenario.mission_hours, _groups(rows), ageing, constant
    )
    return tuple(dataclasses.replace(row, aged=aged_loss(risks, i)) for i, row in enumerate(rows))


def aged_candidates(
    scenario: Scenario,
    layouts: Sequence[Layout],
    rates: Sequence[Rates],
    groups: Sequence[int],
    constant_aggregate: Sequence[float],
) -> AgedRisks | None:
    """Recommend's candidates' ageing figures, in one batch; None without an ageing section.

    ``rates``: each candidate's own rates (its latent-defect rate and enclosures), as its
    constant-rate figure took them; each layout's chain rates come from them
    (:meth:`Layout.chain_rates`), and the failure rate is the ageing's.
    """
    ageing = scenario.core_ageing()
    if ageing is None:
        return None
    chain = [layout.chain_rates(r) for layout, r in zip(layouts, rates, strict=True)]
    return aged_layout_risks(
        layouts, chain, scenario.mission_hours, list(groups), ageing, list(constant_aggregate)
    )


def _own_defects(rates: Rates, row: LayoutResult | SizingResult) -> Rates:
    """``rates`` with a sized aggregate's own latent-defect rate (its data drives' reads)."""
    return rates.with_latent_defects(
        row.latent_defects_per_hour if isinstance(row, SizingResult) else None
    )


def ageing_at(scenario: Scenario, field: str | None, value: float) -> CoreAgeing | None:
    """The scenario's ageing with the scenario field ``field`` (dotted) at ``value``.

    ``value`` in the field's unit (an ARR as a fraction, years). Only the fields the ageing
    reads change it: ``ageing.weibull.shape``, ``ageing.drive_age_years_at_start``, and
    ``drive.arr`` for a Weibull whose first year has the drive's rate. None without ageing.

    Raises:
        ValueError: ``ageing.weibull.shape`` varied for an ageing given by year.
    """
    section = scenario.ageing
    if section is None:
        return None
    rate = scenario.drive.op_failures_per_hour
    if field == "drive.arr":
        rate = arr_to_failures_per_hour(value)
    elif field == "ageing.weibull.shape":
        if section.weibull is None:
            raise ValueError(
                "ageing.weibull.shape: the scenario's ageing is given by arr_by_year, not weibull"
            )
        weibull = section.weibull.model_copy(update={"shape": value})
        section = section.model_copy(update={"weibull": weibull})
    elif field == "ageing.drive_age_years_at_start":
        section = section.model_copy(update={"drive_age_years_at_start": value})
    return section.core(rate)


def _groups(rows: Sequence[_Row]) -> list[int]:
    return [row.shape.groups if isinstance(row, LayoutResult) else row.groups for row in rows]


def aged_loss(risks: AgedRisks, i: int) -> AgedLoss:
    """Row ``i`` of ``risks``."""
    return AgedLoss(
        p_loss_group=float(risks.p_loss_group[i]),
        p_loss_group_low=float(risks.p_loss_group_low[i]),
        p_loss_group_high=float(risks.p_loss_group_high[i]),
        p_loss_aggregate=float(risks.p_loss_aggregate[i]),
        p_loss_aggregate_low=float(risks.p_loss_aggregate_low[i]),
        p_loss_aggregate_high=float(risks.p_loss_aggregate_high[i]),
        factor=float(risks.factor[i]),
        pieces=int(risks.pieces[i]),
        converged=bool(risks.converged[i]),
    )


def ageing_note(scenario: Scenario, rows: Sequence[AgedLoss | None] = ()) -> str:
    """The note under a table with ageing columns: the law, the batch, the bracket."""
    section = scenario.ageing
    if section is None:
        return ""
    age = section.drive_age_years_at_start
    start = "new" if age == 0 else f"{age:g} year{'s' if age != 1 else ''} old"
    wide = [r for r in rows if r is not None and not r.converged]
    if section.arr_by_year is not None:
        bracket = "a table by year is exact (its rates are constant on each piece)"
    elif not wide:
        bracket = (
            f"the bracket holds the exact value and is within {100 * DEFAULT_TOLERANCE:g}% of it"
        )
    else:
        bracket = (
            "the bracket holds the exact value; it is wider than "
            f"{100 * DEFAULT_TOLERANCE:g}% where the pieces ran out"
        )
    return (
        f"Ageing drives ({section.described}; {start} at the start): P(loss) ageing is the "
        "chain with the failure rate of each drive's age, every drive of a group at the "
        f"batch's age (a replaced drive takes it); {bracket}. × ageing: over the "
        "constant-rate P(loss) (drive's rate), which the other columns keep "
        "(docs/ageing.md)."
    )


def ageing_sensitivity_note(scenario: Scenario) -> str:
    """Under a tornado of a scenario with ageing drives: what the tornado leaves out."""
    if scenario.ageing is None:
        return ""
    return (
        "Ageing drives: the tornado keeps the constant rate (drive's rate), as the columns "
        "other than P(loss) ageing do; the ageing law and the drives' age move P(loss) "
        "ageing only: sweep them with --vary ageing.weibull.shape or "
        "ageing.drive_age_years_at_start (docs/ageing.md)."
    )
