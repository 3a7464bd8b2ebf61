"""The columns of ageing drives: P(loss) by the drives' age, its bracket, and how many times more.

Shown, and exported (after every other field), only when the rows carry the ageing figures
(:class:`planner.core.markov.piecewise.AgedLoss`, set by :mod:`planner.analysis.ageing` for
a scenario with an ``ageing`` section): the JSON and CSV of a scenario without one keep
their keys. The bracket holds the exact value of the time-inhomogeneous chain
(docs/ageing.md); the value is the chain with each piece of the mission at its mean rate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from planner.core.markov.piecewise import AgedLoss
from planner.report import figures
from planner.report.percentages import percent_interval_column
from planner.report.table import Column, export_field

RowT = TypeVar("RowT")


def bracket_column(brackets: Sequence[tuple[float, float] | None]) -> list[str]:
    """Brackets as ``0.426%–0.429%``; ``exact`` where both ends are one number (a table)."""
    texts = percent_interval_column(list(brackets))
    return [
        "exact" if b is not None and b[0] == b[1] else t
        for b, t in zip(brackets, texts, strict=True)
    ]


def ageing_columns(
    rows: Sequence[RowT], read: Callable[[RowT], AgedLoss | None]
) -> list[Column[RowT]]:
    """P(loss) of the aggregate with ageing drives, its bracket, over the constant-rate one.

    With the per-group figures, the pieces and whether the bracket reached its tolerance as
    export fields. None of them when no row has the figures (no ageing section).
    """
    if not any(read(row) is not None for row in rows):
        return []

    def part(pick: Callable[[AgedLoss], Any]) -> Callable[[RowT], Any]:
        def value(row: RowT) -> Any:
            found = read(row)
            return None if found is None else pick(found)

        return value

    return [
        figures.P_LOSS_AGEING.column(part(lambda a: a.p_loss_aggregate), priority=1),
        Column(
            "Ageing bracket",
            part(lambda a: (a.p_loss_aggregate_low, a.p_loss_aggregate_high)),
            bracket_column,
            short_header="Ageing\nbracket",
            priority=6,
        ),
        figures.AGEING_FACTOR.column(part(lambda a: a.factor), priority=2),
        export_field("p_loss_aggregate_ageing_low", part(lambda a: a.p_loss_aggregate_low)),
        export_field("p_loss_aggregate_ageing_high", part(lambda a: a.p_loss_aggregate_high)),
        export_field("p_loss_group_ageing", part(lambda a: a.p_loss_group)),
        export_field("p_loss_group_ageing_low", part(lambda a: a.p_loss_group_low)),
        export_field("p_loss_group_ageing_high", part(lambda a: a.p_loss_group_high)),
        export_field("ageing_pieces", part(lambda a: a.pieces)),
        export_field("ageing_converged", part(lambda a: a.converged)),
    ]
