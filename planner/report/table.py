"""One column model for every table: Rich, Markdown, CSV, JSON and the TUI's DataTable.

A :class:`Column` names its header (one line, and a short one for narrow screens), its unit,
how to read a row's value and how to format the WHOLE column (so one column has one
notation and one precision), and its priority when the width is short. The same
declaration names the column's JSON and CSV key (``key``), whose value is the raw one read
by ``value``; a field the exports carry but no table shows is a column with ``shown=False``
(:func:`export_field`). The renderers here turn a list of columns and rows into each
format, :func:`export_records` into the records of JSON and CSV; the report modules only
declare columns.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from planner.report.numbers import texts

if TYPE_CHECKING:
    from rich.table import Table

    from planner.analysis.inputs import Inputs

RowT = TypeVar("RowT")

ColumnFormat = Callable[[Sequence[Any]], list[str]]
"""Formats a whole column's values to cell texts (one per value, same order)."""


@dataclass(frozen=True)
class Column(Generic[RowT]):
    """A column of a report table, declared once for every format.

    Attributes:
        header: one-line title (Markdown; the caption that names hidden columns).
        value: the row's raw value for this column.
        format: the column formatter; it sees every value of the column at once.
        numeric: right-aligned when True.
        short_header: title for narrow screens (Rich table, DataTable); may break lines.
        priority: 0 is never dropped; higher numbers go first when the width is short.
        unit: the values' unit, when the header does not say it.
        risk: the TUI colours this column's cells by the row's risk relative to the baseline.
        key: the JSON and CSV key of the column's raw value; None for a column only shown
            (odds as text, a bar).
        export: turns the raw value into the exported one (e.g. :func:`finite_or_none`);
            None exports it as it is.
        shown: False for a field only the exports carry (a table never shows it).
    """

    header: str
    value: Callable[[RowT], Any]
    format: ColumnFormat = texts
    numeric: bool = True
    short_header: str = ""
    priority: int = 0
    unit: str = ""
    risk: bool = False
    key: str | None = None
    export: Callable[[Any], Any] | None = None
    shown: bool = True

    @property
    def narrow_header(self) -> str:
        """The header on a narrow screen: the short one if given, else the one-line one."""
        return self.short_header or self.header

    def cells(self, rows: Sequence[RowT]) -> list[str]:
        """The column's cell texts for ``rows``, formatted together."""
        return self.format([self.value(row) for row in rows])

    def exported(self, row: RowT) -> Any:
        """The row's value for this column in JSON and CSV (raw, through ``export``)."""
        value = self.value(row)
        return value if self.export is None else self.export(value)


def export_field(
    key: str, value: Callable[[RowT], Any], export: Callable[[Any], Any] | None = None
) -> Column[RowT]:
    """A field the JSON and CSV records carry but no table shows (``exact_division``...)."""
    return Column(key, value, numeric=False, key=key, export=export, shown=False)


def shown_columns(columns: Iterable[Column[RowT]]) -> list[Column[RowT]]:
    """The columns a table shows, in order (export-only fields left out)."""
    return [column for column in columns if column.shown]


def export_records(
    fields: Sequence[Column[RowT]], rows: Iterable[RowT]
) -> Iterator[dict[str, Any]]:
    """One record per row: each keyed field's exported value under its key, in order.

    ``fields`` are in the export's order (the JSON contract's); columns without a key are
    skipped. Yields lazily, so a long sweep streams. A key declared twice is an error.
    """
    keyed = [(column.key, column) for column in fields if column.key is not None]
    keys = [key for key, _ in keyed]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise ValueError(f"export keys declared twice: {', '.join(repeated)}")
    # The accessors are called directly, not through Column.exported: a sweep has 200,000
    # rows, and each call costs.
    reads = [(key, c.value if c.export is None else c.exported) for key, c in keyed]
    for row in rows:
        yield {key: read(row) for key, read in reads}


def table_cells(columns: Sequence[Column[RowT]], rows: Sequence[RowT]) -> list[list[str]]:
    """The cells of ``rows`` under ``columns``, row by row (each column formatted whole)."""
    by_column = [column.cells(rows) for column in columns]
    return [list(row) for row in zip(*by_column, strict=True)] if by_column else []


def fit_columns(
    columns: Sequence[Column[Any]],
    rows: list[list[str]],
    max_width: int | None,
    *,
    refill: bool = True,
) -> list[int]:
    """Indices of the columns to show so the table fits ``max_width`` terminal cells.

    Columns are dropped highest ``priority`` first; priority 0 columns always stay. A column
    dropped early comes back, most important first, when later drops left room for it
    (unless ``refill`` is False: columns in a screen's order, their priorities rising to the
    right, keep the leading ones that fit, as the TUI's tables show them unscrolled). The
    budget is a Rich table's: 3 cells of padding and border a column, and 1 more.
    """
    keep = list(range(len(columns)))
    if max_width is None:
        return keep

    # Each column's width once (a large sweep has 10^5 rows), padding and border included.
    width = [
        max(len(x) for x in [*column.narrow_header.split("\n"), *(row[i] for row in rows)]) + 3
        for i, column in enumerate(columns)
    ]
    droppable = sorted(
        (i for i, c in enumerate(columns) if c.priority > 0),
        key=lambda i: -columns[i].priority,
    )
    used = sum(width) + 1
    dropped: list[int] = []
    while used > max_width and droppable:
        dropped.append(droppable.pop(0))
        keep.remove(dropped[-1])
        used -= width[dropped[-1]]
    for index in reversed(dropped if refill else []):  # the most important first
        if used + width[index] <= max_width:
            keep.append(index)
            used += width[index]
    return sorted(keep)


def hidden_note(columns: Sequence[Column[Any]], keep: Sequence[int], how: str) -> str | None:
    """``Not shown at this width: Odds, MTTDL (...)``, or None when every column shows."""
    hidden = [c.header for i, c in enumerate(columns) if i not in keep]
    if not hidden:
        return None
    return f"Not shown at this width: {', '.join(hidden)} ({how})."


def rich_table_for(title: str, columns: Sequence[Column[Any]], keep: Sequence[int]) -> Table:
    """An empty Rich table with the ``keep`` columns: short headers, numbers right-aligned.

    When columns were left out to fit the terminal, the caption names them, so a narrow
    terminal never hides information silently.
    """
    from rich.table import Table

    caption = hidden_note(
        columns, keep, "a wider terminal or --format markdown, csv or json shows every column"
    )
    table = Table(
        title=title,
        title_justify="left",
        header_style="bold",
        caption=caption,
        caption_justify="left",
        caption_style="dim italic",
    )
    for i in keep:
        c = columns[i]
        table.add_column(c.narrow_header, justify="right" if c.numeric else "left", no_wrap=i == 0)
    return table


def risk_style(relative: float) -> str:
    """Colour of a row by its aggregate risk relative to the baseline."""
    if relative > 10:
        return "red"
    if relative > 1.5:
        return "yellow"
    if relative < 1 / 1.5:
        return "green"
    return ""


def markdown_cell(text: str) -> str:
    """Text safe inside a Markdown table cell (pipes escaped)."""
    return text.replace("|", "\\|")


def markdown_table(columns: Sequence[Column[Any]], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of a GitHub-flavoured Markdown table: header, alignment row, one per row."""
    lines = ["| " + " | ".join(markdown_cell(c.header) for c in columns) + " |"]
    lines.append("|" + "|".join("---:" if c.numeric else ":---" for c in columns) + "|")
    lines += ["| " + " | ".join(markdown_cell(x) for x in cells) + " |" for cells in rows]
    return lines


def finite_or_none(value: float) -> float | None:
    """``value``, or None for an infinity or NaN (JSON has neither)."""
    return value if math.isfinite(value) else None


def json_text(document: dict[str, Any]) -> str:
    """``document`` as indented JSON; infinities, NaNs and unknown types are errors."""
    return json.dumps(document, indent=2, allow_nan=False, default=_json_default) + "\n"


def _json_default(value: object) -> object:
    raise TypeError(f"not JSON serialisable: {value!r}")


def csv_text(records: Iterable[dict[str, Any]], inputs: Inputs | None = None) -> str:
    """Records as CSV: a header row of the first record's keys, then the values.

    With ``inputs``, a ``# Inputs: ...`` comment line comes first (read with
    ``pandas.read_csv(path, comment="#")``; see docs/commands.md).
    """
    return "".join(csv_chunks(records, inputs))


CHUNK_ROWS = 2000
"""Rows per chunk of the streamed CSV and JSON (memory per chunk, not per table)."""


def json_chunks(
    document: dict[str, Any], rows_key: str, rows: Iterable[dict[str, Any]]
) -> Iterator[str]:
    """``document`` as JSON with ``rows_key`` last, its rows streamed one per line.

    The top level is indented like :func:`json_text`; each row is one compact line (the C
    encoder, no indentation cost), so a sweep of 200,000 rows never becomes one string.
    Infinities, NaNs and unknown types are errors, as in :func:`json_text`.
    """
    head = json.dumps({**document, rows_key: []}, indent=2, allow_nan=False, default=_json_default)
    opening = head[: head.rindex("[]")]  # everything up to the empty list of rows
    yield opening + "["
    encode = json.JSONEncoder(allow_nan=False, default=_json_default).encode
    batch: list[str] = []
    first = True
    for row in rows:
        batch.append(("\n    " if first else ",\n    ") + encode(row))
        first = False
        if len(batch) >= CHUNK_ROWS:
            yield "".join(batch)
            batch = []
    yield "".join(batch) + ("\n  ]\n}\n" if not first else "]\n}\n")


CSV_DIGITS = 15
"""Significant digits of a float in CSV: every decimal of 15 digits survives a round trip
through a float, so no value typed in a scenario changes; binary noise beyond them does not
show (``7.29``, not ``7.290000000000001``). JSON keeps each float's shortest exact form."""


def _csv_value(value: object) -> object:
    """A float to :data:`CSV_DIGITS` significant digits (its shortest form), else as it is."""
    if isinstance(value, float) and math.isfinite(value):
        return repr(float(f"{value:.{CSV_DIGITS}g}"))
    return value


def csv_chunks(records: Iterable[dict[str, Any]], inputs: Inputs | None = None) -> Iterator[str]:
    """:func:`csv_text` streamed in chunks of :data:`CHUNK_ROWS` rows."""
    if inputs is not None:
        from planner.report.inputs import csv_comment

        yield csv_comment(inputs)
    buffer = io.StringIO()
    writer: csv.DictWriter[str] | None = None
    for count, record in enumerate(records, start=1):
        if writer is None:
            writer = csv.DictWriter(buffer, fieldnames=list(record), lineterminator="\n")
            writer.writeheader()
        writer.writerow({key: _csv_value(value) for key, value in record.items()})
        if count % CHUNK_ROWS == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()
