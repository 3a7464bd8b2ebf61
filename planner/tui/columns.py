"""Fitting report columns into a DataTable: which columns fit a width, and their widths.

The columns themselves are declared once in :mod:`planner.report` (the CLI's tables use
the same declarations); this module only adapts them to a DataTable's geometry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from planner.report.table import Column, fit_columns


def two_line_header(column: Column[Any]) -> str:
    """The column's narrow header on two lines (a DataTable with ``header_height=2``)."""
    header = column.narrow_header
    return header if "\n" in header else f"\n{header}"


def fit_to_width(columns: Sequence[Column[Any]], rows: list[list[str]], width: int) -> list[int]:
    """Indices of the columns that fit a DataTable ``width`` cells wide (fit_columns' order).

    :func:`fit_columns` budgets 3 cells a column and 1 more for a Rich table's borders; a
    DataTable has no borders and pads each cell by 1 each side, so ``n`` columns fit
    ``width`` exactly when fit_columns fits them in ``width + n + 1``.

    A Rich table squeezes the columns it always keeps (priority 0) by wrapping their
    cells; a DataTable cannot, and would cut the last one short behind a scrollbar. When
    those columns alone are too wide, they go too, from the last (the first, the row's
    label, always stays), so whatever is left out can be named under the table.
    """
    keep = list(range(len(columns)))
    for n in range(len(columns), 0, -1):
        keep = fit_columns(columns, rows, width + n + 1, refill=False)
        if len(keep) >= n:
            break
    while len(keep) > 1 and table_width(columns, rows, keep) > width:
        keep.pop()
    return keep


def table_width(columns: Sequence[Column[Any]], rows: list[list[str]], keep: Sequence[int]) -> int:
    """Cells a DataTable needs for the ``keep`` columns: each one's widest line, padded 1 a side."""
    return sum(
        max(
            cell_len(text)
            for text in [*columns[i].narrow_header.split("\n"), *(row[i] for row in rows)]
        )
        + 2
        for i in keep
    )


def column_widths(headers: list[str], rows: list[list[Text]]) -> list[int]:
    """Each column's content width in cells: its widest header line or cell.

    The table gets these as fixed widths. DataTable measures auto-width columns only when
    idle, and a frame drawn before that (as a resize can cause) caches cells clipped to the
    headers' widths until the next change; fixed widths are right from the first frame.
    """
    return [
        max(
            [
                *(cell_len(line) for line in header.split("\n")),
                *(row[index].cell_len for row in rows),
            ]
        )
        for index, header in enumerate(headers)
    ]
