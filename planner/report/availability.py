"""The columns of availability and magnitude: hours degraded and critical, NOMDL.

From the chain that goes on after every loss (:mod:`planner.core.arrays.availability`):
one group's expected hours a year with a drive down and with no redundancy left, the
expected whole-group losses (exported only: for rare losses they read as P(group lost)),
and the NOMDL, the bytes expected to be lost over the mission per usable TB. Declared once
here for the comparison and the sizing; on a narrow screen they go first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from planner.core.arrays.availability import Availability
from planner.report import figures
from planner.report.table import Column, export_field

RowT = TypeVar("RowT")

AVAILABILITY_NOTE = (
    "Degraded and Critical h/yr: one group's expected hours a year with a drive down, and "
    "with k down (no redundancy left), in the life that goes on after every loss; NOMDL "
    "B/TB: the bytes expected to be lost over the mission per usable TB, a ZFS vdev's loss "
    "(RAID-Z, dRAID) counted as its whole pool's (docs/availability.md)."
)
"""The note under every table that shows these columns."""

NOMDL_NEEDS = (
    "NOMDL B/TB needs drive.capacity_tb: a sector-loss event's bytes are weighed against the "
    "usable TB (docs/availability.md)."
)
"""Said instead of the NOMDL when no row has one (the drives' capacity is not given)."""


def availability_notes(availabilities: Sequence[Availability | None]) -> list[str]:
    """The note on the columns, and what the NOMDL needs when no row has one."""
    known = any(a is not None and a.nomdl_bytes_per_tb is not None for a in availabilities)
    return [AVAILABILITY_NOTE, *([] if known else [NOMDL_NEEDS])]


def availability_columns(
    rows: Sequence[RowT], read: Callable[[RowT], Availability | None], priority: int
) -> list[Column[RowT]]:
    """Degraded and critical hours, the group losses (export only) and the NOMDL.

    ``priority``: the NOMDL's on a narrow screen; the hours go before it (``priority`` + 1
    and + 2). The NOMDL shows only when some row has one (a capacity is given); the
    exports always carry every key.
    """

    def part(pick: Callable[[Availability], float | None]) -> Callable[[RowT], float | None]:
        def value(row: RowT) -> float | None:
            found = read(row)
            return None if found is None else pick(found)

        return value

    nomdl = part(lambda a: a.nomdl_bytes_per_tb)
    return [
        figures.DEGRADED_HOURS.column(
            part(lambda a: a.degraded_hours_per_year), priority=priority + 1
        ),
        figures.CRITICAL_HOURS.column(
            part(lambda a: a.critical_hours_per_year), priority=priority + 2
        ),
        export_field(
            "expected_group_losses_group",
            part(lambda a: a.expected_group_losses_group),
            figures.optional_finite,
        ),
        export_field(
            "expected_group_losses",
            part(lambda a: a.expected_group_losses),
            figures.optional_finite,
        ),
        figures.NOMDL.column(
            nomdl, priority=priority, shown=any(nomdl(row) is not None for row in rows)
        ),
    ]
