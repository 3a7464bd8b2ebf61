"""Report columns in a DataTable: their two-line headers and their widths.

The columns themselves are declared once in :mod:`planner.report` (the CLI's tables use
the same declarations); this module only adapts them to a DataTable's geometry.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text

from planner.report.table import Column


def two_line_header(column: Column[Any]) -> str:
    """The column's narrow header on two lines (a DataTable with ``header_height=2``)."""
    header = column.narrow_header
    return header if "\n" in header else f"\n{header}"


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
