"""The columns of failure domains: enclosures per group and P(unavailable) (docs/domains.md).

Shown, and exported (after every other field), only when the rows carry an enclosure
placement (:class:`planner.core.markov.enclosures.EnclosureRisk`, set for a scenario with an
``enclosures`` section): the JSON and CSV of a scenario without one keep their keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from planner.core.markov.enclosures import EnclosureRisk
from planner.report import figures
from planner.report.table import Column

RowT = TypeVar("RowT")


def enclosure_columns(
    rows: Sequence[RowT], read: Callable[[RowT], EnclosureRisk | None]
) -> list[Column[RowT]]:
    """Enclosures per group and P(unavailable) of a group and of the aggregate.

    None of them when no row has an enclosure placement.
    """
    if not any(read(row) is not None for row in rows):
        return []

    def part(pick: Callable[[EnclosureRisk], Any]) -> Callable[[RowT], Any]:
        def value(row: RowT) -> Any:
            found = read(row)
            return None if found is None else pick(found)

        return value

    return [
        figures.ENCLOSURES_PER_GROUP.column(part(lambda e: e.placement.enclosures), priority=4),
        figures.P_UNAVAILABLE_GROUP.column(part(lambda e: e.p_unavailable_group), priority=6),
        figures.P_UNAVAILABLE_AGGREGATE.column(
            part(lambda e: e.p_unavailable_aggregate), priority=2
        ),
    ]
