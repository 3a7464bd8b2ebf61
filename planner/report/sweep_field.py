"""One column of the sweep, declared once for the exports and the tables (issue 9).

:class:`SweepField` is what :mod:`planner.report.sweep_columns` and
:mod:`planner.report.sweep_sections` declare; the exports and the tables both read it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from planner.report.figures import Figure
from planner.report.numbers import texts
from planner.report.sweep_export import ExportColumn, ExportKind
from planner.report.table import Column, ColumnFormat

if TYPE_CHECKING:
    from planner.analysis.sweep import SweepReport


@dataclass(frozen=True)
class SweepField:
    """One column of the sweep, declared once for the exports and the tables.

    Attributes:
        key: the JSON and CSV key; None for a column only shown (a text made of others).
        kind: how the exports write it (:data:`~planner.report.sweep_export.ExportKind`).
        read: the column's raw values for every row of a report, in order (an array).
        header: the table's one-line title; "" for a field only the exports carry.
        format: the column formatter (it sees every value of the column at once).
        cells: the table's values when they differ from the exported ones (Python values
            for the formatter: ints for whole drives), or None for ``read``'s.
        numeric: right-aligned in a table.
        short_header: title for narrow screens.
        priority: 0 is never dropped from a narrow table; higher numbers go first.
        shown: False keeps a declared column out of this report's tables.
    """

    key: str | None
    kind: ExportKind
    read: Callable[[SweepReport], npt.NDArray[Any]]
    header: str = ""
    format: ColumnFormat = texts
    cells: Callable[[SweepReport], Sequence[Any]] | None = None
    numeric: bool = True
    short_header: str = ""
    priority: int = 0
    shown: bool = True
    distinct_texts: Callable[[SweepReport], tuple[str | None, ...]] = field(default=lambda _: ())
    whole: Callable[[SweepReport], npt.NDArray[np.bool_]] | None = None

    def export(self, report: SweepReport) -> ExportColumn:
        """The column as the exports write it."""
        assert self.key is not None
        whole = None if self.whole is None else self.whole(report)
        return ExportColumn(
            self.key, self.kind, self.read(report), self.distinct_texts(report), whole
        )

    def column(self, report: SweepReport) -> Column[int]:
        """The table's column over row indices (each formatted whole, as every column)."""
        if self.cells is not None:
            values: Sequence[Any] = self.cells(report)
        elif self.kind == "text":
            distinct = self.distinct_texts(report)
            values = [distinct[i] or "" for i in self.read(report).tolist()]
        else:
            values = self.read(report).tolist()
        return Column(
            self.header or (self.key or ""),
            values.__getitem__,
            self.format,
            numeric=self.numeric,
            short_header=self.short_header,
            priority=self.priority,
            key=self.key,
            shown=bool(self.header) and self.shown,
        )


def float_field(key: str) -> SweepField:
    """A float the exports carry and no table shows."""
    return SweepField(key, "float", lambda r: getattr(r.table, key))


def figure_field(
    figure: Figure,
    kind: ExportKind,
    read: Callable[[SweepReport], npt.NDArray[Any]],
    *,
    priority: int,
) -> SweepField:
    """A declared :class:`~planner.report.figures.Figure` as a sweep column.

    Its key, title, short title and formatter, read from the report by ``read``.
    """
    assert figure.key is not None
    return SweepField(
        figure.key,
        kind,
        read,
        figure.header,
        figure.format,
        short_header=figure.short_header,
        priority=priority,
    )
