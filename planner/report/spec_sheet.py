"""Other readings of the table's layouts, in words: the spec sheet's, and a bound.

The spec sheet's (:mod:`planner.analysis.spec_sheet_reading`), and the bound with every
defect of a critical rebuild counted (:mod:`planner.analysis.critical_defects`).

Said under ``evaluate``'s table (every layout) and in ``recommend``'s verdict (the layout
recommended), where the calculators' reading differs 2x or more from the table's P(loss), or
the bound reaches 1.1x it (and, for the layout recommended, where it crosses the target).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.report.numbers import format_ratio
from planner.report.percentages import format_percent

if TYPE_CHECKING:
    from planner.analysis.critical_defects import CriticalDefectsBound
    from planner.analysis.spec_sheet_reading import SpecSheetSpread

__all__ = [
    "critical_defects_note",
    "recommended_critical_defects_note",
    "recommended_critical_defects_words",
    "recommended_spec_sheet_note",
    "recommended_spec_sheet_words",
    "spec_sheet_note",
]


def spec_sheet_note(spread: SpecSheetSpread) -> str:
    """What the spec sheet's reading would say, where it differs 2x or more from the table's."""
    least = min(spread.readings, key=lambda r: r.ratio)
    most = max(spread.readings, key=lambda r: r.ratio)
    ratios = (
        format_ratio(least.ratio)
        if least.ratio == most.ratio
        else f"{format_ratio(least.ratio)} ({least.label}) to {format_ratio(most.ratio)} "
        f"({most.label})"
    )
    figures = ", ".join(f"{r.label} {format_percent(r.p_loss_aggregate)}" for r in spread.readings)
    return (
        "Read as web RAID calculators read the spec sheet (every critical rebuild reads the "
        "surviving drives whole, a pool its critical stripes, and meets an unreadable sector at "
        f"{spread.errors_per_bit:g} per bit read; no latent defects), P(loss) aggregate "
        f"would be {figures}: {ratios} the table's P(loss) per group. The table counts latent "
        "defects at the drive's read rate, found by a scrub every "
        f"{spread.scrub_hours:g} h; {_which_is_pessimistic(least.ratio, most.ratio)} "
        "(docs/drives.md; evaluate --methods)."
    )


def _which_is_pessimistic(least: float, most: float) -> str:
    """Which reading errs high: the spec sheet's where it is the higher, else where not.

    The spec sheet's rate is a maximum, but a heavy read workload can make the table's
    latent defects outnumber what that rate gives a critical rebuild (its reading 0.46x the
    table's at 1 GB reads; a review found "the pessimistic one" said of the lower reading).
    """
    if least >= 1:
        return "the spec sheet's error rate is a maximum, so its reading is the pessimistic one"
    if most <= 1:
        return (
            "here the table is the higher: the workload's reads make more latent defects than "
            "the spec sheet's rate gives a critical rebuild"
        )
    return (
        "the spec sheet's reading is the higher where it reads more, the table where the "
        "workload's reads make more latent defects"
    )


def recommended_spec_sheet_note(spread: SpecSheetSpread, p_loss_limit: float | None) -> str:
    """The recommended layout's P(loss) read as the calculators read the spec sheet.

    ``p_loss_limit``: the target's largest P(loss), said to be met or not (None: not said).
    """
    reading = spread.readings[0]
    limit = "" if p_loss_limit is None else f"'s {format_percent(p_loss_limit)}"
    verdict = _verdict(reading.p_loss_aggregate, p_loss_limit, limit)
    return (
        "Read as web RAID calculators read the spec sheet (an unreadable sector at "
        f"{spread.errors_per_bit:g} per bit read in every critical rebuild; no latent "
        f"defects), {reading.label}'s P(loss) would be "
        f"{format_percent(reading.p_loss_aggregate)}, {format_ratio(reading.ratio)} its P(loss) "
        f"in the table{verdict}; {_which_is_pessimistic(reading.ratio, reading.ratio)} "
        "(docs/drives.md)."
    )


def _verdict(p_loss: float, p_loss_limit: float | None, words: str) -> str:
    """``, within the target's 0.010%`` (``words`` after "the target"), or nothing."""
    if p_loss_limit is None:
        return ""
    side = "within" if p_loss <= p_loss_limit else "over"
    return f", {side} the target{words}"


def recommended_critical_defects_note(
    bound: CriticalDefectsBound, p_loss_limit: float | None, *, constant_rate: bool = False
) -> str:
    """The recommended layout's P(loss) bracketed from above by its critical rebuilds' defects.

    ``p_loss_limit``: the target's largest P(loss), said to be met or not (None: not said).
    ``constant_rate``: the choice was judged with its drives ageing, and the bound is the
    constant-rate chain's: both figures are so named.
    """
    reading = bound.readings[0]
    limit = "" if p_loss_limit is None else f"'s {format_percent(p_loss_limit)}"
    rate = " at the constant rate" if constant_rate else ""
    return (
        "NS3574's chain does not count a latent defect that arises on a surviving drive "
        "during a critical rebuild. Counting every one as a loss, "
        f"{reading.label}'s P(loss){rate} would be at most "
        f"{format_percent(reading.p_loss_aggregate)}"
        f", {format_ratio(reading.ratio)} its P(loss){rate} in the table"
        f"{_verdict(reading.p_loss_aggregate, p_loss_limit, limit)}; the truth lies between "
        "(docs/models.md)."
    )


def recommended_critical_defects_words(
    bound: CriticalDefectsBound, p_loss_limit: float | None
) -> str:
    """:func:`recommended_critical_defects_note` in a few words, for the TUI's choose view."""
    reading = bound.readings[0]
    return (
        "Counting each defect met in a critical rebuild as a loss, its P(loss) would be at "
        f"most {format_percent(reading.p_loss_aggregate)}"
        f"{_verdict(reading.p_loss_aggregate, p_loss_limit, '')} (docs/models.md). "
    )


def recommended_spec_sheet_words(spread: SpecSheetSpread, p_loss_limit: float | None) -> str:
    """:func:`recommended_spec_sheet_note` in a few words, for the TUI's choose view."""
    reading = spread.readings[0]
    verdict = _verdict(reading.p_loss_aggregate, p_loss_limit, "")
    return (
        f"Read the spec sheet's way ({spread.errors_per_bit:g} per bit, as web calculators "
        f"do) its P(loss) would be {format_percent(reading.p_loss_aggregate)}{verdict} "
        "(docs/drives.md). "
    )


def critical_defects_note(bound: CriticalDefectsBound) -> str:
    """The table's P(loss) bracketed from above by the defects of critical rebuilds."""
    figures = ", ".join(f"{r.label} {format_percent(r.p_loss_aggregate)}" for r in bound.readings)
    top = max(bound.readings, key=lambda r: r.ratio)
    rate = (
        f"{bound.latent_defects_per_hour:.3g} per data drive-hour here (the survivors carry "
        "all of their group's reads, each up to what a drive can read)"
        if bound.per_data_drive
        else f"{bound.latent_defects_per_hour:.3g} per drive-hour here"
    )
    return (
        "NS3574's chain does not count a latent defect that arises on a surviving drive "
        "during a critical rebuild (k drives down; a mirror's one survivor for the whole "
        f"rebuild), at {rate}. Counting "
        f"every one as a loss, P(loss) aggregate would be at most {figures}: up to "
        f"{format_ratio(top.ratio)} the table's P(loss) per group ({top.label}). The truth lies "
        "between the table and these, as a defect behind the rebuild's read is never met "
        "(docs/models.md)."
    )
