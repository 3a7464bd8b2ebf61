"""The recommendation in words: the target, the choice, what a cheaper layout misses.

:func:`summary` is the verdict ``planner recommend`` prints above its tables; the design
review, the TUI's choose view and the CLI's errors say the target, its limits and the
misses in the same words (:func:`target_text`, :func:`limit_words`,
:func:`describe_misses`, :data:`RISK_NAMES`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from planner.analysis.recommend import nines, risk_of
from planner.core.design.recommend import Miss
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.report.numbers import significant_column
from planner.report.percentages import format_percent, risk_column
from planner.report.spec_sheet import (
    recommended_critical_defects_note,
    recommended_spec_sheet_note,
)

if TYPE_CHECKING:
    from planner.analysis.critical_defects import CriticalDefectsBound
    from planner.analysis.recommend import Candidate, Recommendation

DEFAULT_TARGET_NOTE = "by default: the scenario sets no target; add a `target:` section"
"""Said after the target when it is :data:`planner.analysis.recommend.DEFAULT_TARGET`."""

NO_LOSS_TARGET_NOTE = (
    "by default: the scenario's `target:` section sets no max_p_loss, min_nines or max_p_group_lost"
)
"""Said instead when the scenario's ``target:`` section limits no risk."""

RISK_NAMES = {
    "max_p_loss": "P(loss)",
    "max_p_group_lost": "P(group lost)",
    "max_p_unavailable": "P(unavailable)",
}
"""What each risk limit of a target limits, as the tables name the figure."""


AGEING_WORDS = "with the drives ageing"
"""Said after a P(loss) taken with the scenario's ageing drives (docs/ageing.md)."""


def default_note(report: Recommendation) -> str:
    """Why the target's risk limit is the default one ("" when the scenario gives one)."""
    if not report.default_target:
        return ""
    return NO_LOSS_TARGET_NOTE if report.target_section else DEFAULT_TARGET_NOTE


def risks_ranked(report: Recommendation) -> str:
    """The risks the target limits and the front is drawn against: ``P(group lost)``.

    P(loss) is named with the drives ageing when the candidates were judged so.
    """
    ageing = report.judged_ageing
    return " and ".join(
        f"{RISK_NAMES[name]} {AGEING_WORDS}"
        if ageing and name == "max_p_loss"
        else RISK_NAMES[name]
        for name in report.target.risk_limits
    )


def describe_misses(found: Sequence[Miss], *, ageing: bool = False) -> str:
    """``P(loss) 0.032% > 0.010% (x3.2), drives 520 > 500``, for notes and errors.

    ``ageing``: the candidate's P(loss) was judged with the drives ageing, and is so named.
    """
    names = {**RISK_NAMES, "max_drives": "drives", "max_cost": "cost"}
    if ageing:
        names["max_p_loss"] = f"P(loss) {AGEING_WORDS}"

    def one(miss: Miss) -> str:
        if miss.target in RISK_NAMES:
            value, limit = risk_column([miss.value, miss.limit])  # one notation, never 100%
        else:
            value, limit = f"{miss.value:,.0f}", f"{miss.limit:,.0f}"
        return f"{names[miss.target]} {value} > {limit} (x{significant_column([miss.ratio], 3)[0]})"

    return ", ".join(one(m) for m in found)


def limit_words(report: Recommendation, name: str) -> str:
    """A risk limit as a percentage, and how it was given if as a bare fraction.

    ``1.0% (given as the fraction 0.01, not 0.01%)``: a bare 0.01 is 1 %, and an admin who
    meant 0.01 % and left out the sign sees it beside the limit (docs/recommend.md).
    """
    value = getattr(report.target, name)
    if name not in report.bare_fractions:
        return format_percent(value)
    given = re.sub(r"e([+-])0*(\d)", r"e\1\2", f"{value:g}").replace("e+", "e")  # 1e-6
    return f"{format_percent(value)} (given as the fraction {given}, not {given}%)"


def target_text(report: Recommendation, *, noted: bool = True) -> str:
    """The target in words: each risk limit over the mission, drives, budget, and why.

    ``noted=False`` leaves out why the risk limit is the default one, for a sentence that
    already says so (the design review's opening).
    """
    target = report.target
    years = report.mission_hours / HOURS_PER_YEAR
    parts = [
        f"{RISK_NAMES[name]} of the aggregate over {years:g} years at most "
        f"{limit_words(report, name)}"
        for name in target.risk_limits
    ]
    if noted and report.default_target:  # the note is the risk limit's, not the rest's
        parts[-1] += f" ({default_note(report)})"
    if target.max_drives is not None:
        parts.append(f"at most {target.max_drives:,} drives")
    if target.max_cost is not None:
        parts.append(f"total cost at most {target.max_cost:,.0f} {report.currency}".rstrip())
    return "; ".join(parts)


def p_loss_words(candidate: Candidate, extra: str = "") -> str:
    """``P(loss) 0.00052%``, or the ageing figure the target is judged by and the other.

    With an ``ageing`` section: ``P(loss) 0.0020% with the drives ageing (0.00068% at the
    constant rate)``. ``extra`` goes first in the parentheses (``5.3 nines``).
    """
    judged = f"P(loss) {format_percent(candidate.p_loss_judged)}"
    inside = [extra] if extra else []
    if candidate.aged is not None:
        judged += f" {AGEING_WORDS}"
        inside.append(f"{format_percent(candidate.p_loss_aggregate)} at the constant rate")
    return f"{judged} ({'; '.join(inside)})" if inside else judged


def _risk_words(report: Recommendation, candidate: Candidate) -> str:
    """``P(loss) 0.00052% (5.3 nines)``, the targeted P(group lost) first when limited."""
    words = [
        f"{RISK_NAMES[name]} {format_percent(risk_of(candidate, name))}"
        for name in report.target.risk_limits
        if name != "max_p_loss"
    ]
    words.append(p_loss_words(candidate, f"{nines(candidate.p_loss_judged):.1f} nines"))
    return ", ".join(words)


def summary(report: Recommendation, *, noted: bool = True) -> list[str]:
    """The verdict in sentences: the choice, what the next cheaper gives up, the front.

    ``noted=False``: the target without why its risk limit is the default one (said above).
    """
    ranked = "total cost of ownership" if report.money else "drives (no drive.price given)"
    kinds = f" ({report.searched})" if report.searched else ""
    lines = [
        f"Searched {report.evaluated:,} layouts{kinds} sized for {report.requirement}; "
        f"target: {target_text(report, noted=noted)}; ranked by {ranked}."
    ]
    top = report.top
    if top is None:
        closest = report.closest
        lines.append("No layout meets the target.")
        if closest is not None:
            lines.append(
                f"Closest: {closest.name} ({closest.total_disks:,} drives), which "
                f"misses {describe_misses(closest.misses, ageing=closest.aged is not None)}."
            )
        return lines
    lines.append(
        f"Recommended: {top.name}: {top.total_disks:,} drives{_iops_bound_words(top)}, "
        f"{_risk_words(report, top)}"
        + (f", total cost {top.rank_cost:,.0f} {report.currency}".rstrip() if report.money else "")
        + f"; {len(report.meeting):,} layouts meet the target."
    )
    cheaper = report.nearest_cheaper
    if cheaper is not None:
        saving = top.rank_cost - cheaper.rank_cost
        unit = (
            f" {report.currency}".rstrip()
            if report.money
            else " drive"
            if saving == 1
            else " drives"
        )
        lines.append(
            f"The next cheaper, {cheaper.name}, saves {saving:,.0f}{unit} but misses "
            f"{describe_misses(cheaper.misses, ageing=cheaper.aged is not None)}."
        )
    else:
        lines.append("Nothing cheaper was found.")
    if report.spec_sheet is not None:
        lines.append(recommended_spec_sheet_note(report.spec_sheet, report.target.max_p_loss))
    if report.critical_defects is not None:
        lines.append(_bound_line(report, report.critical_defects, top))
    lines.append(
        f"Pareto front of cost against {risks_ranked(report)}: {len(report.front):,} layouts; "
        f"{report.off_front:,} others are beaten on {_both(report)} by one of them (not listed)."
    )
    lines.append(_group_lost_line(top))
    return [*lines, *report.input_notes]


def _bound_line(report: Recommendation, bound: CriticalDefectsBound, top: Candidate) -> str:
    """The choice's critical-rebuild bound, named the constant rate's beside an ageing one."""
    return recommended_critical_defects_note(
        bound, report.critical_defects_limit, constant_rate=top.aged is not None
    )


def _group_lost_line(top: Candidate) -> str:
    """What P(group lost) counts, and that it keeps the constant rate beside ageing drives."""
    ageing = (
        " With the drives ageing only P(loss) is taken again: P(group lost) is the "
        "constant rate's (docs/ageing.md)."
        if top.aged is not None
        else ""
    )
    return (
        "P(group lost): k + 1 drives down at once during the mission; it and P(sectors lost) "
        f"do not sum to P(loss) (docs/loss.md).{ageing}"
    )


def _iops_bound_words(top: Candidate) -> str:
    """`` (as many as the IOPS need: 2,412.0 TB usable)``: why more capacity than asked."""
    if top.bound_by != "iops":
        return ""
    usable = "" if top.usable_tb is None else f": {top.usable_tb:,.1f} TB usable"
    return f" (as many as the IOPS need{usable})"


def _both(report: Recommendation) -> str:
    return ("both", "all three", "all four")[len(report.target.risk_limits) - 1]
