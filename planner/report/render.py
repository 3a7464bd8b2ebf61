"""The four renderers of every report table: a Rich table, Markdown, CSV and JSON.

A report module describes a table once as a :class:`TableView` (its columns, declared in
:mod:`planner.report.figures` and the module, its rows, notes and inputs, and what marks a
row) and these functions draw it; no report module draws a table itself, so the formats
always agree. The primitives they share (the column model, fitting a terminal's width,
the encoders) are :mod:`planner.report.table`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from planner.report.inputs import inputs_lines, titled, with_inputs
from planner.report.table import (
    Column,
    csv_text,
    export_records,
    fit_columns,
    json_text,
    markdown_cell,
    markdown_table,
    rich_table_for,
    table_cells,
)

if TYPE_CHECKING:
    from rich.table import Table

    from planner.analysis.inputs import Inputs

RowT = TypeVar("RowT")


@dataclass(frozen=True)
class TableView(Generic[RowT]):
    """One table of a report, as every format shows it.

    Attributes:
        title: the heading (the Rich table's title, Markdown's ``###``).
        columns: the columns shown, in the table's order.
        rows: the rows, in order.
        notes: the footnotes (under the Rich table; a list under the Markdown one, ``* ``
            marks dropped).
        inputs: the assumptions: the first Markdown note, a CSV comment, the JSON
            ``inputs``; None when not known.
        fields: the columns and export-only fields of JSON and CSV, in the export's order.
        document: the JSON keys before the rows.
        rows_key: the JSON key of the rows.
        styles: a Rich style per row (by risk, the cheapest in bold), or None.
        baseline: the index of the baseline row, marked ``(base)`` in Rich and in bold
            ``(baseline)`` in Markdown, or None.
        group_starts: True where a row opens a group of rows (a layout's methods): the
            first column shows only there, and a Rich section ends before it.
        screen_columns: the Rich table's columns when not ``columns``: the same ones in a
            terminal's order, with priorities that keep the leading ones that fit
            (:func:`planner.report.column_choice.screen_columns`); a narrow table then
            leaves out the rest from the end and brings none back.
    """

    title: str
    columns: Sequence[Column[RowT]]
    rows: Sequence[RowT]
    notes: Sequence[str] = ()
    inputs: Inputs | None = None
    fields: Sequence[Column[RowT]] = ()
    document: Mapping[str, Any] = field(default_factory=dict)
    rows_key: str = "layouts"
    styles: Sequence[str] | None = None
    baseline: int | None = None
    group_starts: Sequence[bool] | None = None
    screen_columns: Sequence[Column[RowT]] | None = None

    def cells(self, columns: Sequence[Column[RowT]] | None = None) -> list[list[str]]:
        """The cell texts row by row, each column formatted whole; repeated groups blank.

        ``columns``: the columns to show, in their order (default: :attr:`columns`).
        """
        cells = table_cells(self.columns if columns is None else columns, self.rows)
        starts = self.group_starts
        if starts is not None:
            for row, start in zip(cells, starts, strict=True):
                if not start:
                    row[0] = ""
        return cells


def rich_table(view: TableView[Any], max_width: int | None = None) -> Table:
    """The Rich table of ``view``; with ``max_width`` the least important columns go.

    A caption names the columns left out (:func:`planner.report.table.rich_table_for`).
    """
    columns = view.columns if view.screen_columns is None else view.screen_columns
    cells = view.cells(columns)
    if view.baseline is not None:
        cells[view.baseline][0] = f"{cells[view.baseline][0]} (base)"
    keep = fit_columns(columns, cells, max_width, refill=view.screen_columns is None)
    table = rich_table_for(titled(view.title, view.inputs), columns, keep)
    starts = view.group_starts
    for index, row in enumerate(cells):
        ends = starts is not None and (index + 1 == len(cells) or starts[index + 1])
        table.add_row(
            *(row[i] for i in keep),
            style=None if view.styles is None else view.styles[index],
            end_section=ends,
        )
    return table


def markdown(view: TableView[Any]) -> str:
    """A GitHub-flavoured Markdown table with a heading, and the inputs and notes as a list."""
    cells = view.cells()
    if view.baseline is not None:
        cells[view.baseline][0] = f"**{cells[view.baseline][0]}** (baseline)"
    lines = [f"### {titled(view.title, view.inputs)}", "", *markdown_table(view.columns, cells), ""]
    lines += [
        f"- {markdown_cell(note.removeprefix('* '))}"
        for note in inputs_lines(view.inputs, view.notes)
    ]
    return "\n".join(lines) + "\n"


def markdown_rows(view: TableView[Any]) -> list[str]:
    """The lines of ``view``'s Markdown table alone, for a document of several tables."""
    return markdown_table(view.columns, view.cells())


def records(view: TableView[Any]) -> list[dict[str, Any]]:
    """One flat record of raw values per row (the JSON contract's rows), in export order."""
    return list(export_records(view.fields, view.rows))


def csv(view: TableView[Any]) -> str:
    """CSV: the inputs as a comment line, a header row, raw values (full precision)."""
    return csv_records(records(view), view.inputs)


def json(view: TableView[Any]) -> str:
    """JSON: the document's keys, the rows under ``rows_key``, then ``inputs``."""
    return json_text(document(view))


def document(view: TableView[Any]) -> dict[str, Any]:
    """:func:`json`'s document as data, for a document of several (a plan's tiers)."""
    return with_inputs({**view.document, view.rows_key: records(view)}, view.inputs)


def csv_records(rows: Sequence[Mapping[str, Any]], inputs: Inputs | None) -> str:
    """CSV of records a report shaped itself (several tables, a role a row), as :func:`csv`."""
    return csv_text((dict(row) for row in rows), inputs)


def json_document(document: Mapping[str, Any], inputs: Inputs | None) -> str:
    """JSON of a document a report shaped itself (nested rows), ``inputs`` last, as :func:`json`."""
    return json_text(with_inputs(dict(document), inputs))
