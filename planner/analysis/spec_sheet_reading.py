"""The spec sheet's reading of the same drives, said beside the table when it differs much.

The table's P(loss) is NS3574's latent-defect model: defects appear at a rate per
drive-hour and wait for a scrub. Web RAID calculators read the spec sheet instead: every
critical rebuild (no redundancy left) reads the surviving drives whole and meets an
unreadable sector with probability ``1 - exp(-bits read x errors per bit)``
(:func:`planner.core.markov.methods.p_loss_spec_sheet`). ``evaluate --methods`` shows both,
but a buyer reading only the table never learnt that for mirrors of 20 TB drives the
calculators' answer is ten times the table's (a newcomer's review). So when a scenario
describes its drives by their spec sheet (capacity and errors per bit) and the two readings
of some layout differ by :data:`SPREAD_NOTED` or more, a note gives every layout's aggregate
P(loss) read the spec sheet's way, and why the two differ (docs/drives.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from planner.core.arrays.layouts import Layout
from planner.core.design.layout_comparison import LayoutResult
from planner.core.markov.aggregate import p_loss_aggregate_batch
from planner.core.markov.methods import (
    critical_rebuild_bits,
    p_loss_spec_sheet,
    p_unreadable_in_rebuild,
)
from planner.core.markov.transient import relative_risk
from planner.scenario import Scenario

__all__ = [
    "SPREAD_NOTED",
    "LayoutReading",
    "SpecSheetSpread",
    "candidate_spread",
    "group_p_loss",
    "spec_sheet_readings",
    "spec_sheet_spread",
]

SPREAD_NOTED = 2.0
"""The factor, either way, between the two readings of one layout's group that earns a note."""


@dataclass(frozen=True)
class LayoutReading:
    """One layout's P(loss) read another way (the spec sheet's, a bound), beside the table's.

    Attributes:
        label: the layout's label.
        p_loss_group: one group's P(loss) read that way (the spec-sheet method: no latent
            defects, a critical rebuild meets an unreadable sector at the spec sheet's rate).
        p_loss_aggregate: the aggregate's, over the layout's groups (``1 - (1 - p)^g``).
        ratio: ``p_loss_group`` over the table's P(loss) of one group, under the same rates.
    """

    label: str
    p_loss_group: float
    p_loss_aggregate: float
    ratio: float


def _reading(
    scenario: Scenario, layout: Layout, groups: float, p_loss_group: float
) -> LayoutReading | None:
    """``layout`` read the spec sheet's way beside the table's ``p_loss_group``; None without one.

    The rates are the table's (``layout.chain_rates``), as ``evaluate --methods`` takes
    them, so the ratio is the one its "Spec sheet vs exact" column shows.
    """
    drive = scenario.drive
    capacity_tb, errors_per_bit = drive.capacity_tb, drive.unrecoverable_read_errors_per_bit
    if capacity_tb is None or errors_per_bit is None:
        return None
    bits = critical_rebuild_bits(
        layout.parity, layout.group_size, capacity_tb, layout.critical_rebuild_drives
    )
    p_group = p_loss_spec_sheet(
        layout.parity,
        layout.group_size,
        layout.chain_rates(scenario.rates(), round(groups)),
        scenario.mission_hours,
        p_unreadable_in_rebuild(bits, errors_per_bit),
    )
    return LayoutReading(
        layout.label,
        p_group,
        float(p_loss_aggregate_batch(p_group, groups)),
        relative_risk(p_group, p_loss_group),
    )


def spec_sheet_readings(
    scenario: Scenario, results: Sequence[LayoutResult]
) -> tuple[LayoutReading, ...]:
    """Each result read the spec sheet's way; empty unless the drive gives its spec sheet."""
    readings = (
        _reading(scenario, r.layout, float(r.shape.groups), r.p_loss_group) for r in results
    )
    return tuple(r for r in readings if r is not None)


@dataclass(frozen=True)
class SpecSheetSpread:
    """Every layout read the spec sheet's way, when some layout's readings are 2x apart.

    Attributes:
        readings: one per layout, in the table's order.
        errors_per_bit: the spec sheet's unrecoverable read errors per bit read.
        scrub_hours: the table's scrub interval (h), which the spec sheet cannot see.
    """

    readings: tuple[LayoutReading, ...]
    errors_per_bit: float
    scrub_hours: float

    def over(self, p_loss_limit: float) -> bool:
        """Whether some layout read the spec sheet's way is over ``p_loss_limit``."""
        return any(r.p_loss_aggregate > p_loss_limit for r in self.readings)


def _differs(ratio: float) -> bool:
    """Whether one layout's two readings are :data:`SPREAD_NOTED` apart (NaN: never)."""
    return ratio >= SPREAD_NOTED or ratio <= 1 / SPREAD_NOTED


def spec_sheet_spread(
    scenario: Scenario, results: Sequence[LayoutResult]
) -> SpecSheetSpread | None:
    """The readings when some layout's two differ by :data:`SPREAD_NOTED` or more, else None."""
    readings = spec_sheet_readings(scenario, results)
    errors_per_bit = scenario.drive.unrecoverable_read_errors_per_bit
    if errors_per_bit is None or not any(_differs(r.ratio) for r in readings):
        return None
    return SpecSheetSpread(readings, errors_per_bit, scenario.restore.scrub_hours)


def group_p_loss(p_loss_aggregate: float, groups: int) -> float:
    """One group's P(loss) from its aggregate's over ``groups``; 1 when that is.

    A searched candidate keeps only the aggregate's: ``1 - (1 - P)^(1/g)``, as
    ``-expm1(log1p(-P) / g)`` so that a tiny P keeps its digits.
    """
    return -math.expm1(math.log1p(-p_loss_aggregate) / groups) if p_loss_aggregate < 1 else 1.0


def candidate_spread(
    scenario: Scenario, layout: Layout, groups: int, p_loss_aggregate: float
) -> SpecSheetSpread | None:
    """:func:`spec_sheet_spread` of one searched candidate (``planner recommend``'s choice)."""
    reading = _reading(scenario, layout, groups, group_p_loss(p_loss_aggregate, groups))
    errors_per_bit = scenario.drive.unrecoverable_read_errors_per_bit
    if reading is None or errors_per_bit is None or not _differs(reading.ratio):
        return None
    return SpecSheetSpread((reading,), errors_per_bit, scenario.restore.scrub_hours)
