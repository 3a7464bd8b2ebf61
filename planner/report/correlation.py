"""The columns of correlated failures: P(loss) if independent, and how many times more.

Shown, and exported (after every other field), only when the rows carry the risk under
independent drives (:class:`planner.core.design.layout_comparison.Independent`, set by
:mod:`planner.analysis.correlation` for a scenario with correlated failures): the JSON and
CSV of a scenario without correlation keep their keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from planner.core.design.layout_comparison import Independent
from planner.report import figures
from planner.report.table import Column

RowT = TypeVar("RowT")


def correlation_columns(
    rows: Sequence[RowT], read: Callable[[RowT], Independent | None]
) -> list[Column[RowT]]:
    """P(loss) of the aggregate with independent drives, and the correlated one over it.

    None of them when no row has the figures (independent drives).
    """
    if not any(read(row) is not None for row in rows):
        return []

    def part(pick: Callable[[Independent], float]) -> Callable[[RowT], float | None]:
        def value(row: RowT) -> float | None:
            found = read(row)
            return None if found is None else pick(found)

        return value

    return [
        figures.P_LOSS_INDEPENDENT.column(part(lambda i: i.p_loss_aggregate), priority=5),
        figures.INDEPENDENCE_FACTOR.column(part(lambda i: i.factor), priority=2),
    ]
