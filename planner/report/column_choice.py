"""Which of a table's declared columns a screen shows, and in what order.

The columns are those a report module declares (:func:`comparison_columns`,
:func:`sizing_columns`); a choice only names them, by :func:`column_id`, so a column
declared later (a new loss figure) needs nothing here: it shows, after the ones a saved
choice orders, until the user hides it. The first column (the row's label) always shows
first.

Without a choice the order is a buyer's (:data:`BUYER_LEAD`): what is bought (drives, usable
TB, the cost) and the risk it carries come first, then the rest in the declared order, so
a narrow screen shows them before the finer columns it has to scroll to. The CLI's terminal
tables of the same declarations take the same order (:func:`screen_columns`) and keep the
leading columns that fit, so at one width both front ends show the same columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from planner.report.table import Column

RowT = TypeVar("RowT")

BUYER_LEAD = (
    "total_disks",
    "disks_needed",
    "bound_by",
    "usable_tb",
    "total_cost",
    # the risk before the costs per TB: at 80 columns the per-TB cost pushed it off screen
    "p_loss_aggregate",
    "cost_per_usable_tb",
    "cost_per_needed_tb",
    # a section's headline beside the risk it qualifies (only a scenario with it has it)
    "correlation_factor",
    "p_unavailable_aggregate",
    "p_loss_aggregate_ageing",
)
"""Column ids shown first by default, in this order (those a table has); then the rest."""


def column_id(column: Column[Any]) -> str:
    """A column's name in a saved choice: its export key, else its one-line header.

    The key stays when a header changes with the scenario ("TCO (USD)", "TCO (EUR)").
    """
    return column.key or column.header


@dataclass(frozen=True)
class ColumnChoice:
    """The columns a user ordered and those hidden, by :func:`column_id`.

    Attributes:
        order: ids in the order chosen; a column not named here comes after them.
        hidden: ids of columns not shown.
    """

    order: tuple[str, ...] = ()
    hidden: frozenset[str] = frozenset()

    @classmethod
    def of(cls, columns: Iterable[Column[RowT]], shown: Iterable[str]) -> ColumnChoice:
        """The choice that orders ``columns`` as given and shows only the ids ``shown``."""
        ids = [column_id(c) for c in columns]
        kept = set(shown)
        return cls(tuple(ids), frozenset(i for i in ids if i not in kept))


def default_order(columns: Sequence[Column[RowT]]) -> list[Column[RowT]]:
    """``columns`` in a buyer's order: the label, :data:`BUYER_LEAD`, then as declared."""
    if not columns:
        return []
    rank = {name: index for index, name in enumerate(BUYER_LEAD)}
    rest = sorted(columns[1:], key=lambda c: rank.get(column_id(c), len(rank)))
    return [columns[0], *rest]


def screen_columns(
    columns: Sequence[Column[RowT]], asked: Sequence[Column[RowT]] = ()
) -> list[Column[RowT]]:
    """A terminal table's columns: :func:`default_order`, then the columns ``asked`` for.

    Each column's priority is set so that a narrow table (fitted without refilling,
    :func:`planner.report.table.fit_columns`) keeps the label, then the ``asked`` ones
    (``evaluate --methods``: a user asked for them), then the leading columns of the
    buyer's order that fit: those the TUI's table shows before it is scrolled.
    """
    ordered = default_order(columns)
    if not ordered:
        return [*asked]
    lead = len(asked)
    return [
        replace(ordered[0], priority=0),
        *(replace(c, priority=lead + rank) for rank, c in enumerate(ordered[1:], 1)),
        *(replace(c, priority=rank) for rank, c in enumerate(asked, 1)),
    ]


def ordered_columns(
    columns: Sequence[Column[RowT]], choice: ColumnChoice | None
) -> list[Column[RowT]]:
    """Every column in ``choice``'s order (hidden ones too: the picker lists them)."""
    ordered = default_order(columns)
    if choice is None or not ordered:
        return ordered
    position = {name: index for index, name in enumerate(choice.order)}
    rest = ordered[1:]
    named = sorted(
        (c for c in rest if column_id(c) in position),
        key=lambda c: position[column_id(c)],
    )
    others = [c for c in rest if column_id(c) not in position]
    return [ordered[0], *named, *others]


def chosen_columns(
    columns: Sequence[Column[RowT]], choice: ColumnChoice | None
) -> list[Column[RowT]]:
    """The columns a screen shows under ``choice``, in order; the label always first."""
    ordered = ordered_columns(columns, choice)
    hidden = frozenset() if choice is None else choice.hidden
    return ordered[:1] + [c for c in ordered[1:] if column_id(c) not in hidden]
