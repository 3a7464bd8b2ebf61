"""A plan of several tiers: each tier's results, and the plan's totals.

Every tier is a scenario of its own (:class:`planner.scenario.Plan`), evaluated exactly as
a single-aggregate file is; the plan adds one table of totals, built from one layout per
tier:

* ``planner evaluate``: each tier's baseline layout (``baseline:``, else its first);
* ``planner recommend`` and ``planner report``: each tier's recommended layout.

The totals are the drives, usable TB and cost summed over those layouts, and P(any tier
loses data over the mission) = 1 - prod(1 - p_i) over the tiers' aggregate P(loss),
computed without cancellation (:func:`planner.core.markov.aggregate.p_loss_any`). The tiers
are taken as independent: no failure is shared between them, which the outputs say. The
plan's NOMDL is the bytes all tiers are expected to lose over the usable TB of all
(each tier's NOMDL times its usable TB, summed, over the sum); the hours a group is degraded
or critical stay each tier's (a sum of hours of different groups is no one's hours).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from planner.analysis.compare import CompareData, compare_data
from planner.analysis.recommend import Candidate, Recommendation, RecommendError, recommendation
from planner.core.arrays.availability import Availability
from planner.core.arrays.cost import LayoutCost
from planner.core.design.layout_comparison import LayoutResult
from planner.core.design.recommend import Target
from planner.core.markov.aggregate import p_loss_any
from planner.scenario import Plan

Basis = Literal["baseline", "recommended"]
"""Which layout of each tier enters the plan's totals."""

INDEPENDENCE_NOTE = (
    "The Plan row's P(loss) is P(any tier loses data) = 1 - (1 - P1)(1 - P2)...: the tiers "
    "are taken as independent (no drive, enclosure or rebuild shared between them), so it is "
    "at most the sum of the tiers' P(loss)."
)
"""Said under every plan's totals, where its number stands."""

AVAILABILITY_NOTE = (
    "Degraded and critical h/yr are each tier's, one group's hours (a sum over tiers would "
    "be no group's hours); the Plan row's NOMDL is the bytes all tiers are expected to lose "
    "over the usable TB of all."
)
"""Said under a plan's totals that show the hours (docs/availability.md)."""

_BASIS_NOTES = {
    "baseline": "Each tier's layout in the totals is its baseline (baseline:, else its first "
    "layout); every tier's aggregate holds its own aggregate.data_disks.",
    "recommended": "Each tier's layout in the totals is the one recommended for its target.",
}


@dataclass(frozen=True)
class PlanRow:
    """One row of the totals: a tier's layout, or the plan's sum (``layout`` is then "").

    Attributes:
        tier: the tier's name, or ``Plan`` for the sum.
        layout: the tier's layout in the totals; "" for the plan's row, and for a tier
            without one (nothing meets its target).
        total_disks: drives, hot spares included (None: no layout).
        usable_tb: usable capacity (TB); None when a drive's capacity is not given.
        p_loss: P(loss) of the tier's aggregate over the mission; on the plan's row,
            P(any tier loses data).
        purchase_cost: drives (and per-group costs) bought; None without prices.
        total_cost: cost of ownership over the mission (purchase, replacements, energy);
            None without ``drive.price``.
        currency: the currency label of the costs ("" when none is given).
        degraded_hours_per_year, critical_hours_per_year: a group's expected hours a year
            with a drive down, and with no redundancy left; None on the plan's row.
        nomdl_bytes_per_tb: expected bytes lost over the mission per usable TB; None
            without a drive's capacity.
    """

    tier: str
    layout: str
    total_disks: int | None
    usable_tb: float | None
    p_loss: float | None
    purchase_cost: float | None = None
    total_cost: float | None = None
    currency: str = ""
    degraded_hours_per_year: float | None = None
    critical_hours_per_year: float | None = None
    nomdl_bytes_per_tb: float | None = None


@dataclass(frozen=True)
class PlanTotals:
    """The plan's totals: one row per tier, then the plan's row.

    Attributes:
        title: the plan's name.
        mission_hours: the mission every P(loss) is over (h).
        basis: which layout of each tier is counted.
        tiers: one row per tier, in the plan's order.
        total: the sums and P(any tier loses data); a figure some tier lacks is None.
        notes: what the totals rest on (the basis, independence, what is missing).
    """

    title: str
    mission_hours: float
    basis: Basis
    tiers: tuple[PlanRow, ...]
    total: PlanRow
    notes: tuple[str, ...]

    @property
    def rows(self) -> tuple[PlanRow, ...]:
        """The tiers' rows, then the plan's."""
        return (*self.tiers, self.total)


def _cost(cost: LayoutCost | None) -> tuple[float | None, float | None, str]:
    """The purchase and the TCO of a priced layout (None where the drive has no price)."""
    if cost is None or not cost.prices.counts_purchase:
        return None, None, "" if cost is None else cost.prices.currency
    return cost.purchase_cost, cost.total_cost, cost.prices.currency


def _hours_and_bytes(lost: Availability | None) -> dict[str, float | None]:
    """A row's hours degraded and critical and its NOMDL (None where not known)."""
    return {
        "degraded_hours_per_year": None if lost is None else lost.degraded_hours_per_year,
        "critical_hours_per_year": None if lost is None else lost.critical_hours_per_year,
        "nomdl_bytes_per_tb": None if lost is None else lost.nomdl_bytes_per_tb,
    }


def row_of_result(tier: str, result: LayoutResult) -> PlanRow:
    """A tier's row from a layout of its comparison."""
    purchase, total, currency = _cost(result.cost)
    return PlanRow(
        tier,
        result.layout.label,
        result.shape.total_disks,
        result.usable_tb,
        result.p_loss_aggregate,
        purchase,
        total,
        currency,
        **_hours_and_bytes(result.availability),
    )


def row_of_candidate(tier: str, candidate: Candidate | None) -> PlanRow:
    """A tier's row from its recommended candidate (an empty row when there is none)."""
    if candidate is None:
        return PlanRow(tier, "", None, None, None)
    purchase, total, currency = _cost(candidate.cost)
    return PlanRow(
        tier,
        candidate.layout.label,
        candidate.total_disks,
        candidate.usable_tb,
        candidate.p_loss_aggregate,
        purchase,
        total,
        currency,
        **_hours_and_bytes(candidate.availability),
    )


def _plan_nomdl(rows: Sequence[PlanRow]) -> float | None:
    """Bytes all tiers lose over the usable TB of all: None where a tier's is unknown."""
    pairs = [(row.nomdl_bytes_per_tb, row.usable_tb) for row in rows]
    if not pairs or any(n is None or tb is None for n, tb in pairs):
        return None
    usable = sum(tb for _, tb in pairs if tb is not None)
    lost = sum(n * tb for n, tb in pairs if n is not None and tb is not None)
    return lost / usable if usable > 0 else None


def _sum(values: Sequence[float | int | None]) -> float | None:
    return None if any(v is None for v in values) else float(sum(v for v in values if v))


def plan_totals(
    title: str, mission_hours: float, basis: Basis, rows: Sequence[PlanRow]
) -> PlanTotals:
    """The plan's totals over ``rows`` (one per tier, each with the layout counted)."""
    notes = [_BASIS_NOTES[basis], INDEPENDENCE_NOTE]
    if any(row.degraded_hours_per_year is not None for row in rows):
        notes.append(AVAILABILITY_NOTE)
    missing = [row.tier for row in rows if row.p_loss is None]
    if missing:
        notes.append(
            f"No total: no layout of {', '.join(missing)} meets its target, so the plan's "
            "drives, cost and P(any tier loses data) are left blank."
        )
    labels = {row.currency for row in rows if row.total_cost is not None and row.currency}
    costs_add_up = len(labels) <= 1
    if not costs_add_up:
        notes.append(f"No cost total: the tiers price in {' and '.join(sorted(labels))}.")
    elif any(row.layout and row.total_cost is None for row in rows) and any(
        row.total_cost is not None for row in rows
    ):
        unpriced = [row.tier for row in rows if row.layout and row.total_cost is None]
        notes.append(f"No cost total: {', '.join(unpriced)} has no drive.price.")
    drives = _sum([row.total_disks for row in rows])
    total = PlanRow(
        tier="Plan",
        layout=f"all {len(rows)} tiers",
        total_disks=None if drives is None else int(drives),
        usable_tb=_sum([row.usable_tb for row in rows]),
        p_loss=None if missing else p_loss_any([row.p_loss or 0.0 for row in rows]),
        purchase_cost=_sum([row.purchase_cost for row in rows]) if costs_add_up else None,
        total_cost=_sum([row.total_cost for row in rows]) if costs_add_up else None,
        currency=next(iter(labels)) if len(labels) == 1 else "",
        nomdl_bytes_per_tb=None if missing else _plan_nomdl(rows),
    )
    return PlanTotals(title, mission_hours, basis, tuple(rows), total, tuple(notes))


@dataclass(frozen=True)
class TierComparison:
    """One tier's comparison, as ``planner evaluate`` shows a single scenario's.

    Attributes:
        name: the tier's name (the title of its table).
        mission_years: the mission (years).
        rebuild_hours: the tier's mean restore time (h).
        data: the comparison, its inputs and notes.
    """

    name: str
    mission_years: float
    rebuild_hours: float
    data: CompareData


@dataclass(frozen=True)
class PlanComparison:
    """``planner evaluate`` of a plan: every tier's comparison, then the totals."""

    title: str
    tiers: tuple[TierComparison, ...]
    totals: PlanTotals


def plan_comparison(plan: Plan, methods: bool = False) -> PlanComparison:
    """Every tier compared, and the totals of the tiers' baselines."""
    tiers = []
    for tier in plan.tiers:
        scenario = tier.scenario
        data = compare_data(scenario, tier.overrides, methods=methods)
        tiers.append(
            TierComparison(tier.name, scenario.mission_years, scenario.rebuild_hours, data)
        )
    totals = baseline_totals(plan, [tier.data for tier in tiers])
    return PlanComparison(plan.name, tuple(tiers), totals)


def baseline_totals(plan: Plan, compared: Sequence[CompareData]) -> PlanTotals:
    """The totals of each tier's baseline layout, from the tiers' comparisons (in order).

    The TUI keeps each tier's comparison as it is computed and adds them up here.
    """
    rows = []
    for tier, data in zip(plan.tiers, compared, strict=True):
        comparison = data.comparison
        base = next(r for r in comparison.results if r.layout.label == comparison.baseline)
        rows.append(row_of_result(tier.name, base))
    mission = compared[0].comparison.mission_hours
    return plan_totals(plan.name, mission, "baseline", rows)


@dataclass(frozen=True)
class PlanRecommendation:
    """``planner recommend`` of a plan: each tier's search, then the recommended totals."""

    title: str
    tiers: tuple[tuple[str, Recommendation], ...]
    totals: PlanTotals

    @property
    def unmet(self) -> list[str]:
        """The tiers where no layout meets the target."""
        return [name for name, found in self.tiers if found.top is None]


def plan_recommendation(plan: Plan, fallback_target: Target | None = None) -> PlanRecommendation:
    """Each tier's recommendation for its own target, and the totals of the chosen layouts.

    Raises:
        RecommendError: a tier's search is refused; the message names the tier.
    """
    found = []
    for tier in plan.tiers:
        try:
            report = recommendation(tier.scenario, None, tier.overrides, fallback_target)
        except RecommendError as error:
            raise RecommendError(f"tier {tier.name!r}: {error}") from None
        found.append((tier.name, report))
    rows = [row_of_candidate(name, report.top) for name, report in found]
    mission = found[0][1].mission_hours
    totals = plan_totals(plan.name, mission, "recommended", rows)
    return PlanRecommendation(plan.name, tuple(found), totals)
