"""The spec sheet's reading of layouts, in words (:mod:`planner.analysis.spec_sheet_reading`).

Said under ``evaluate``'s table (every layout) and in ``recommend``'s verdict (the layout
recommended), where the calculators' reading differs 2x or more from the table's P(loss).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.report.numbers import format_percent, format_ratio

if TYPE_CHECKING:
    from planner.analysis.spec_sheet_reading import SpecSheetSpread

__all__ = ["recommended_spec_sheet_note", "recommended_spec_sheet_words", "spec_sheet_note"]


def spec_sheet_note(spread: SpecSheetSpread) -> str:
    """What the spec sheet's reading would say, where it differs 2x or more from the table's."""
    low, high = spread.ratios
    ratios = format_ratio(low) if low == high else f"{format_ratio(low)} to {format_ratio(high)}"
    figures = ", ".join(f"{r.label} {format_percent(r.p_loss_aggregate)}" for r in spread.readings)
    return (
        "Read as web RAID calculators read the spec sheet (every critical rebuild reads the "
        "surviving drives whole, a pool its critical stripes, and meets an unreadable sector at "
        f"{spread.errors_per_bit:g} per bit read; no latent defects), P(loss) aggregate "
        f"would be {figures}: {ratios} the table's per group. The table counts latent "
        "defects at the drive's read rate, found by a scrub every "
        f"{spread.scrub_hours:g} h; the spec sheet's error rate is a maximum, so its "
        "reading is the pessimistic one (docs/drives.md; evaluate --methods)."
    )


def recommended_spec_sheet_note(spread: SpecSheetSpread, p_loss_limit: float | None) -> str:
    """The recommended layout's P(loss) read as the calculators read the spec sheet.

    ``p_loss_limit``: the target's largest P(loss), said to be met or not (None: not said).
    """
    reading = spread.readings[0]
    verdict = (
        ""
        if p_loss_limit is None
        else f"; {'within' if reading.p_loss_aggregate <= p_loss_limit else 'over'} the "
        f"target's {format_percent(p_loss_limit)}"
    )
    return (
        "Read as web RAID calculators read the spec sheet (an unreadable sector at "
        f"{spread.errors_per_bit:g} per bit read in every critical rebuild; no latent "
        f"defects), {reading.label}'s P(loss) would be "
        f"{format_percent(reading.p_loss_aggregate)}, {format_ratio(reading.ratio)} this "
        f"one{verdict}: the spec sheet's error rate is a maximum (docs/drives.md)."
    )


def recommended_spec_sheet_words(spread: SpecSheetSpread, p_loss_limit: float | None) -> str:
    """:func:`recommended_spec_sheet_note` in a few words, for the TUI's choose view."""
    reading = spread.readings[0]
    verdict = (
        ""
        if p_loss_limit is None
        else f", {'within' if reading.p_loss_aggregate <= p_loss_limit else 'over'} the target"
    )
    return (
        f"Read the spec sheet's way ({spread.errors_per_bit:g} per bit, as web calculators "
        f"do) its P(loss) would be {format_percent(reading.p_loss_aggregate)}{verdict} "
        "(docs/drives.md). "
    )
