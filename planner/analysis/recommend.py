"""``planner recommend``: search the layouts worth considering for the scenario's target.

Every candidate of the search space (:mod:`planner.analysis.candidate_sizing`: counted,
built and sized like ``planner size`` sizes a layout) is evaluated in one batch
(:func:`planner.core.design.risks.layout_risks`) and costed
(:func:`planner.core.arrays.cost.cost_of_ownership`);
:func:`planner.core.design.recommend.choose` ranks them. The TUI's choose view and
``planner report`` show the same :class:`Recommendation`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from planner.analysis.ageing import ageing_note
from planner.analysis.candidate_evaluation import Candidate, evaluate_candidates
from planner.analysis.candidate_sizing import (
    MAX_CANDIDATES,
    RecommendError,
    search_layouts,
    search_placements,
    searched_kinds,
)
from planner.analysis.critical_defects import CriticalDefectsBound, candidate_bound
from planner.analysis.inputs import Inputs, scenario_inputs
from planner.analysis.restore_notes import restore_notes
from planner.analysis.spares import spares_notes
from planner.analysis.spec_sheet_reading import SpecSheetSpread, candidate_spread
from planner.core.arrays.cost import CostPrices
from planner.core.arrays.layouts import Layout
from planner.core.design.recommend import Target, choose
from planner.core.markov.enclosures import Enclosures
from planner.scenario import Scenario

__all__ = [
    "DEFAULT_TARGET",
    "MAX_CANDIDATES",
    "NO_TARGET",
    "Candidate",
    "RecommendError",
    "Recommendation",
    "nines",
    "recommendation",
    "risk_of",
    "search_layouts",
]

NO_TARGET = (
    "the scenario gives no loss target (no target section, or none of max_p_loss, "
    "min_nines and max_p_group_lost in it); add one, e.g. target: {max_p_loss: 0.01%} or "
    "target: {max_p_group_lost: 1e-6} (docs/recommend.md)"
)


@dataclass(frozen=True)
class Recommendation:
    """What ``planner recommend`` prints.

    Attributes:
        title: the scenario's name.
        mission_hours: the mission (h).
        requirement: what every candidate is sized for, in words.
        target: the limits.
        money: whether candidates are ranked by money (else by drives).
        currency: the currency label (may be empty).
        evaluated: how many candidates were evaluated.
        meeting: the candidates meeting the target, cheapest first.
        front: the Pareto front of cost against P(loss), cheapest first.
        top: the recommended layout, or None when nothing meets the target.
        nearest_cheaper: the dearest candidate cheaper than ``top`` (it misses a target).
        closest: when nothing meets the target, the one needing the least relaxation.
        default_target: True when the scenario gives no loss target (no ``target:``
            section, or one without max_p_loss, min_nines or max_p_group_lost) and the
            risk limits are the fallback the caller gave (the TUI and the reports say so).
        target_section: whether the scenario has a ``target:`` section.
        inputs: the scenario's inputs, for the exports.
        bare_fractions: the risk limits the scenario gave as a bare fraction
            (``max_p_loss: 0.01``, which is 1 %, not 0.01 %): every output says so beside
            the limit.
        input_notes: inputs the figures take as given that make them optimistic (a scrub
            faster than one read of a drive: :func:`planner.analysis.restore_notes.scrub_note`;
            a rebuild faster than one write of it:
            :func:`~planner.analysis.restore_notes.rebuild_note`),
            and what the hot spares do to the wait for a replacement, over the front's
            aggregates (:func:`planner.analysis.spares.spares_notes`).
        spec_sheet: the recommended layout read the spec sheet's way, when that reading
            is 2x or more from its P(loss) (:mod:`planner.analysis.spec_sheet_reading`).
        critical_defects: the recommended layout's P(loss) with every defect of a critical
            rebuild counted as a loss, when it is 1.1x its P(loss) or more, or over the
            target's P(loss) (:func:`planner.analysis.critical_defects.candidate_bound`).
        searched: the kinds of layout searched, in words
            (:func:`~planner.analysis.candidate_sizing.searched_kinds`).
    """

    title: str
    mission_hours: float
    requirement: str
    target: Target
    money: bool
    currency: str
    evaluated: int
    meeting: tuple[Candidate, ...]
    front: tuple[Candidate, ...]
    top: Candidate | None
    nearest_cheaper: Candidate | None
    closest: Candidate | None
    inputs: Inputs
    default_target: bool = False
    target_section: bool = False
    bare_fractions: tuple[str, ...] = ()
    input_notes: tuple[str, ...] = ()
    spec_sheet: SpecSheetSpread | None = None
    critical_defects: CriticalDefectsBound | None = None
    searched: str = ""

    @property
    def judged_ageing(self) -> bool:
        """Whether the P(loss) target was judged with the drives ageing (an ageing section)."""
        return any(c.aged is not None for c in self.front)

    @property
    def critical_defects_limit(self) -> float | None:
        """The P(loss) limit :attr:`critical_defects` is said against (None: not said)."""
        return None if self.top is None else _bounded(self.top, self.target)

    @property
    def off_front(self) -> int:
        """Candidates not on the front (dominated by one of it)."""
        return self.evaluated - len(self.front)


def nines(p_loss: float) -> float:
    """Nines of reliability over the mission: ``-log10(P(loss))`` (inf when P = 0).

    A certain loss has 0 nines: ``-log10(1.0)`` is ``-0.0``, which printed as ``-0.0``,
    and a P(loss) a rounding above 1 would give a hair below 0.
    """
    return math.inf if p_loss <= 0 else max(0.0, -math.log10(p_loss))


def risk_of(candidate: Candidate, name: str) -> float:
    """The candidate's figure a risk limit (``max_p_loss``, ``max_p_group_lost``) limits.

    ``max_p_loss`` limits :attr:`Candidate.p_loss_judged`: with the drives ageing when the
    scenario has an ``ageing`` section (docs/ageing.md).
    """
    if name == "max_p_group_lost":
        return candidate.p_group_lost_aggregate
    if name == "max_p_unavailable":
        if candidate.p_unavailable_aggregate is None:
            raise ValueError("P(unavailable) needs an enclosures section (docs/domains.md)")
        return candidate.p_unavailable_aggregate
    return candidate.p_loss_judged


DEFAULT_TARGET = Target(max_p_loss=1e-4)
"""The target when the scenario has none: 1 in 10,000 over the mission (``planner
recommend``, ``planner report`` and the TUI's choose view alike)."""


def recommendation(
    scenario: Scenario,
    layouts: Sequence[Layout] | None = None,
    overrides: Sequence[str] = (),
    fallback_target: Target | None = None,
) -> Recommendation:
    """Search ``layouts`` (default: the scenario's search space) for its target.

    ``fallback_target``'s risk limits stand in when the scenario gives no loss target (no
    ``target:`` section, or one without max_p_loss, min_nines or max_p_group_lost): the
    CLI, the TUI's choose view and the design report pass :data:`DEFAULT_TARGET`; without
    either the search is refused.

    Raises:
        RecommendError: no target section, a budget without prices, or a capacity target
            without the drive's capacity.
    """
    target, given = _target(scenario, fallback_target)
    prices: CostPrices | None = scenario.cost_prices()
    money = _ranked_by_money(target, prices)
    layouts_searched, placements = _searched(scenario, layouts, target)
    found = evaluate_candidates(scenario, layouts_searched, placements, target, prices, money)
    choice = choose(
        target,
        found.rank_cost,
        found.p_loss_judged,
        np.array(found.sized.total),
        money,
        found.risks.p_group_lost_aggregate,
        found.risks.p_unavailable_aggregate,
    )
    sized, top = found.sized, found.maybe(choice.top)
    front = tuple(found.candidate(int(i)) for i in choice.front)
    return Recommendation(
        title=scenario.name,
        mission_hours=scenario.mission_hours,
        requirement=sized.requirement,
        target=target,
        money=money,
        currency="" if prices is None else prices.currency,
        evaluated=len(found.candidates),
        searched=searched_kinds(layouts_searched),
        meeting=tuple(found.candidate(int(i)) for i in choice.meeting),
        front=front,
        top=top,
        nearest_cheaper=found.maybe(choice.nearest_cheaper),
        closest=found.maybe(choice.closest),
        inputs=replace(
            scenario_inputs(scenario, overrides),
            sized_for=sized.requirement if sized.sized else None,
        ),
        default_target=not given,
        target_section=scenario.target is not None,
        bare_fractions=scenario.target.bare_fractions if given and scenario.target else (),
        input_notes=_input_notes(scenario, (*front, *(() if top is None else (top,)))),
        spec_sheet=_spec_sheet_spread(scenario, top),
        critical_defects=None
        if top is None
        else candidate_bound(scenario, top, _bounded(top, target)),
    )


def _bounded(top: Candidate, target: Target) -> float | None:
    """The P(loss) limit the critical-rebuild bound is said against.

    None for a choice judged with its drives ageing: the bound is the constant-rate chain's
    (docs/ageing.md).
    """
    return None if top.aged is not None else target.max_p_loss


def _input_notes(scenario: Scenario, shown: Sequence[Candidate]) -> tuple[str, ...]:
    """The scrub's, the rebuild's, the hot spares' (over the ``shown`` aggregates), the ageing's."""
    spared = spares_notes(scenario, ((c.layout, c.groups) for c in shown), waits_only=True)
    # with ageing drives: what the ageing columns are, and that the others keep the constant rate
    aged = ageing_note(scenario, [c.aged for c in shown])
    return (*restore_notes(scenario), *spared, *([aged] if aged else []))


def _ranked_by_money(target: Target, prices: CostPrices | None) -> bool:
    """Whether candidates are ranked by money: only when the drives are priced.

    Energy alone follows the drives, so it ranks by drives. A budget needs prices.
    """
    money = prices is not None and prices.counts_purchase
    if target.max_cost is not None and not money:
        raise RecommendError(
            "target.max_cost needs prices: give drive.price (and optionally drive.watts and "
            "costs.energy_per_kwh)"
        )
    return money


def _spec_sheet_spread(scenario: Scenario, top: Candidate | None) -> SpecSheetSpread | None:
    """The recommended layout read the spec sheet's way, when 2x or more from its P(loss)."""
    if top is None:
        return None
    return candidate_spread(scenario, top.layout, top.groups, top.p_loss_aggregate)


def _searched(
    scenario: Scenario, layouts: Sequence[Layout] | None, target: Target
) -> tuple[list[Layout], list[Enclosures | None]]:
    """The layouts searched (the given ones, or the search space) and the placements."""
    searched = list(search_layouts(scenario) if layouts is None else layouts)
    if not searched:
        raise RecommendError("the search space is empty; widen search: (docs/recommend.md)")
    placements = search_placements(scenario, target)
    if len(searched) * len(placements) > MAX_CANDIDATES:
        raise RecommendError(
            f"the search asks for {len(searched):,} layouts x {len(placements)} "
            f"placements (at most {MAX_CANDIDATES:,} candidates); narrow search: or "
            "search.members_per_enclosure"
        )
    return searched, placements


def _target(scenario: Scenario, fallback_target: Target | None) -> tuple[Target, bool]:
    """The target searched for, and whether the scenario gives its risk limits itself."""
    spec = scenario.target
    given = spec is not None and spec.limits_risk
    if spec is not None and (given or fallback_target is not None):
        return spec.core_target(fallback_target or DEFAULT_TARGET), given
    if fallback_target is not None:
        return fallback_target, given
    raise RecommendError(NO_TARGET)
