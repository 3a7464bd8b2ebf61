"""A plan's totals: drives and cost summed, P(any tier loses data) against an mpmath product.

Each tier's figures are taken from the tier evaluated alone (``load_scenario(path,
tier=...)`` and :func:`compare_data`), not from the plan's own path, and the plan's
P(any tier loses data) is checked against ``1 - prod(1 - p_i)`` written in mpmath
(tests/reference.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shipped import PLANS

from planner.analysis.compare import compare_data
from planner.analysis.plan import PlanRow, plan_comparison, plan_recommendation, plan_totals
from planner.analysis.recommend import DEFAULT_TARGET, recommendation
from planner.scenario import load_plan, load_scenario
from tests.reference import any_loss, relative_error

SHIPPED_PLAN = next(path for path in PLANS if path.name == "three-tier-plan.yaml")


def baseline_of(path: Path, tier: str) -> tuple[int, float, float | None]:
    """Drives, P(loss) and TCO of the tier's baseline, the tier evaluated alone."""
    data = compare_data(load_scenario(path, tier=tier))
    comparison = data.comparison
    (base,) = [r for r in comparison.results if r.layout.label == comparison.baseline]
    return base.shape.total_disks, base.p_loss_aggregate, base.cost and base.cost.total_cost


def test_the_evaluate_totals_are_the_tiers_baselines_added_up() -> None:
    plan = load_plan(SHIPPED_PLAN)
    totals = plan_comparison(plan).totals
    alone = [baseline_of(SHIPPED_PLAN, name) for name in plan.names]
    assert [row.tier for row in totals.tiers] == plan.names
    assert [row.p_loss for row in totals.tiers] == [p for _, p, _ in alone]
    assert totals.total.total_disks == sum(drives for drives, _, _ in alone)
    assert totals.total.total_cost == pytest.approx(sum(c for _, _, c in alone if c), rel=1e-12)
    assert totals.total.currency == "USD"
    p_any = totals.total.p_loss
    assert p_any is not None
    assert relative_error(p_any, any_loss([p for _, p, _ in alone])) < 1e-13
    # at least the largest tier's risk, at most their sum: the tiers taken as independent
    assert max(p for _, p, _ in alone) <= p_any <= sum(p for _, p, _ in alone)
    assert any("independent" in note for note in totals.notes)


def test_the_plans_nomdl_is_all_bytes_lost_over_all_usable_tb() -> None:
    """Each tier's hours and NOMDL are its baseline's, alone; the plan's NOMDL is the bytes
    every tier loses (NOMDL x usable TB) over the usable TB of all; the plan has no hours."""
    plan = load_plan(SHIPPED_PLAN)
    totals = plan_comparison(plan).totals
    lost_bytes = usable = 0.0
    for name, counted in zip(plan.names, totals.tiers, strict=True):
        comparison = compare_data(load_scenario(SHIPPED_PLAN, tier=name)).comparison
        (base,) = [r for r in comparison.results if r.layout.label == comparison.baseline]
        assert base.availability is not None
        assert base.usable_tb is not None
        assert counted.degraded_hours_per_year == base.availability.degraded_hours_per_year
        assert counted.critical_hours_per_year == base.availability.critical_hours_per_year
        nomdl = base.availability.nomdl_bytes_per_tb
        assert nomdl is not None
        assert counted.nomdl_bytes_per_tb == nomdl
        lost_bytes += nomdl * base.usable_tb
        usable += base.usable_tb
    assert totals.total.nomdl_bytes_per_tb == pytest.approx(lost_bytes / usable, rel=1e-13)
    assert totals.total.degraded_hours_per_year is None
    assert totals.total.critical_hours_per_year is None


def test_the_recommend_totals_are_the_tiers_recommendations() -> None:
    plan = load_plan(SHIPPED_PLAN)
    found = plan_recommendation(plan, DEFAULT_TARGET)
    for (_, report), counted in zip(found.tiers, found.totals.tiers, strict=True):
        assert report.top is not None
        assert (counted.layout, counted.total_disks) == (
            report.top.layout.label,
            report.top.total_disks,
        )
    # one tier searched alone finds what the plan's search found for it
    alone = recommendation(load_scenario(SHIPPED_PLAN, tier="SAS"), None, (), DEFAULT_TARGET)
    assert alone.top is not None
    assert found.totals.tiers[1].layout == alone.top.layout.label
    p_any = found.totals.total.p_loss
    assert p_any is not None
    expected = any_loss([row.p_loss for row in found.totals.tiers if row.p_loss is not None])
    assert relative_error(p_any, expected) < 1e-13


def row(tier: str, p: float | None, drives: int | None = 10, cost: float | None = None) -> PlanRow:
    return PlanRow(tier, "" if p is None else "raid6 8", drives, None, p, cost, cost, "USD")


def test_tiny_risks_keep_their_digits() -> None:
    """1 - (1 - p1)(1 - p2)... in floating point loses a third of a 3e-14 total."""
    risks = [1e-15, 3e-14, 2e-16, 7e-17]
    totals = plan_totals("p", 43_800.0, "baseline", [row(str(i), p) for i, p in enumerate(risks)])
    assert totals.total.p_loss is not None
    assert relative_error(totals.total.p_loss, any_loss(risks)) < 1e-13


def test_a_tier_without_a_layout_leaves_the_total_blank_and_says_why() -> None:
    totals = plan_totals("p", 1.0, "recommended", [row("a", 1e-3), row("b", None, None)])
    assert totals.total.p_loss is None
    assert totals.total.total_disks is None
    assert any("no layout of b meets its target" in note for note in totals.notes)


def test_costs_add_up_only_when_every_tier_is_priced_in_one_currency() -> None:
    priced = plan_totals("p", 1.0, "baseline", [row("a", 0.1, cost=5.0), row("b", 0.1, cost=7.0)])
    assert priced.total.total_cost == 12.0
    partly = plan_totals("p", 1.0, "baseline", [row("a", 0.1, cost=5.0), row("b", 0.1)])
    assert partly.total.total_cost is None
    assert any("b has no drive.price" in note for note in partly.notes)
    euros = PlanRow("b", "x", 1, None, 0.1, 7.0, 7.0, "EUR")
    mixed = plan_totals("p", 1.0, "baseline", [row("a", 0.1, cost=5.0), euros])
    assert mixed.total.total_cost is None
    assert any("EUR and USD" in note for note in mixed.notes)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0, 0.5), min_size=1, max_size=4), st.floats(1e-12, 0.5))
def test_another_tier_never_lowers_the_plans_risk(risks: list[float], extra: float) -> None:
    def p_any(values: list[float]) -> float:
        total = plan_totals("p", 1.0, "baseline", [row(str(i), p) for i, p in enumerate(values)])
        assert total.total.p_loss is not None
        return total.total.p_loss

    assert p_any([*risks, extra]) >= p_any(risks)
