"""JSON and CSV of many rows written from columns: one encoder call per column and chunk.

A sweep has up to 200,000 rows; building a dict per row and encoding it cost more than
computing the rows. Here every column (a NumPy array, or a few distinct texts) is
encoded whole by orjson, a chunk of rows at a time, and the rows are assembled from the
columns' tokens in one join: memory stays flat in the rows, and the text is the same,
byte for byte, as :func:`planner.report.table.json_chunks` and
:func:`planner.report.table.csv_chunks` write from records (Python's float repr,
``json``'s escapes, ``csv``'s quoting).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import orjson

from planner.report import row_join

ExportKind = Literal["int", "float", "bool", "drives", "text"]
"""How a column is written: whole numbers, floats (Python's repr), booleans, drives (an int
when whole, else a float), or texts (one per row, None written as ``null``)."""

CHUNK_ROWS = 1024
"""Fewest rows per chunk of the streamed JSON and CSV (a long export takes bigger chunks)."""

MAX_CHUNK_ROWS = 4 * CHUNK_ROWS
"""Most rows per chunk: memory stays flat in the rows (three chunks held at most)."""


def chunk_rows(rows: int) -> int:
    """Rows per chunk for an export of ``rows`` rows: about eight chunks, within the bounds.

    Each chunk costs an encoder call per column and a few Python steps besides: 23,000 rows
    in chunks of 1,024 spent ~10 ms more of the main thread than in chunks of 2,875.
    """
    return min(MAX_CHUNK_ROWS, max(CHUNK_ROWS, rows // 8))


CSV_DIGITS = 15
"""Significant digits of a float in CSV (:data:`planner.report.table.CSV_DIGITS`)."""


@dataclass(frozen=True)
class ExportColumn:
    """One column of an export: its key, how it is written and every row's value.

    Attributes:
        key: the JSON key and CSV header.
        kind: see :data:`ExportKind`.
        values: an array (every kind but texts), or for texts each row's index into
            ``texts``.
        texts: the distinct texts of a text column.
        whole: for drives, the rows written as ints (default: the whole values).
    """

    key: str
    kind: ExportKind
    values: npt.NDArray[Any]
    texts: tuple[str | None, ...] = ()
    whole: npt.NDArray[np.bool_] | None = None

    @classmethod
    def constant(cls, key: str, text: str | None, rows: int) -> ExportColumn:
        """A text column with the same text on every row."""
        return cls(key, "text", np.zeros(rows, dtype=np.intp), (text,))


def _dumps(values: npt.NDArray[Any]) -> bytes:
    return orjson.dumps(values, option=orjson.OPT_SERIALIZE_NUMPY)


def _tokens(encoded: bytes) -> list[bytes]:
    """The items of an encoded list of numbers or literals (no texts: they may hold commas)."""
    inner = encoded[1:-1]
    return inner.split(b",") if inner else []


_SHORT_EXPONENTS = tuple((b"e-%d," % d, b"e-0%d," % d) for d in range(6, 10))
"""orjson's one-digit exponents (1e-6 to 1e-9; from 1e-5 up it writes fixed notation)."""


def _reprs(values: list[float]) -> list[bytes]:
    """``repr`` of each float, formatted in one call."""
    return ((b"%r," * len(values)) % tuple(values))[:-1].split(b",")


def float_tokens(values: npt.NDArray[np.float64]) -> list[bytes]:
    """Each float as Python's ``repr`` writes it (what ``json`` writes), as bytes.

    orjson writes the same shortest digits as Python; only the layout differs, in two
    places: one-digit exponents (``1e-7``, Python ``1e-07``) and numbers from 1e-5 to
    1e-4, which orjson writes in full (``0.0000123``, Python ``1.23e-05``): those are
    written by ``repr`` instead. NaN, a figure not computed (the tables' n/a), is ``null``;
    infinities are errors (JSON has none).
    """
    if not len(values):
        return []
    missing = _not_computed(values)
    if missing is not None:
        tokens = [b"null"] * len(values)
        kept = np.flatnonzero(~missing).tolist()
        for index, token in zip(kept, float_tokens(values[~missing]), strict=True):
            tokens[index] = token
        return tokens
    encoded = _dumps(values)[1:-1] + b","
    if b"e-" in encoded:
        for short, padded in _SHORT_EXPONENTS:
            encoded = encoded.replace(short, padded)
    tokens = encoded[:-1].split(b",")
    size = np.abs(values)
    band = np.flatnonzero((size >= 5e-6) & (size < 2e-4))
    if band.size:
        for index, token in zip(band.tolist(), _reprs(values[band].tolist()), strict=True):
            tokens[index] = token
    return tokens


def _not_computed(values: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_] | None:
    """Where ``values`` is NaN (None when nowhere); ValueError for an infinity."""
    if np.all(np.isfinite(values)):
        return None
    if np.isinf(values).any():
        raise ValueError("Out of range float values are not JSON compliant")
    return np.isnan(values)


def csv_float_tokens(values: npt.NDArray[np.float64]) -> list[bytes]:
    """Each float as ``repr(float(f"{v:.15g}"))``: :data:`CSV_DIGITS` significant digits.

    ``%.15g`` already writes the shortest digits of the rounded float (no other decimal
    of 15 digits or fewer gives the same double) and repr's layout, but for whole
    numbers (repr adds ``.0``), 1e15 to 1e16 (repr writes them in full) and subnormal
    numbers (fewer digits than 15 tell them apart): those are written by ``repr`` of the
    rounded value. NaN, a figure not computed, is an empty cell (as None is).
    """
    if not len(values):
        return []
    missing = np.isnan(values)
    if missing.any():
        tokens = [b""] * len(values)
        kept = np.flatnonzero(~missing).tolist()
        for index, token in zip(kept, csv_float_tokens(values[~missing]), strict=True):
            tokens[index] = token
        return tokens
    formats = (f"%.{CSV_DIGITS}g,".encode()) * len(values)
    tokens = (formats % tuple(values.tolist()))[:-1].split(b",")
    size = np.abs(values)
    with np.errstate(invalid="ignore"):  # an infinity is not near a whole number
        near_whole = np.abs(values - np.round(values)) <= size * 1e-13
    subnormal = (size > 0) & (size < np.finfo(np.float64).tiny)
    for index in np.flatnonzero(near_whole | (size >= 1e15) | subnormal).tolist():
        tokens[index] = repr(float(tokens[index])).encode()
    return tokens


def _drive_tokens(
    values: npt.NDArray[np.float64], whole: npt.NDArray[np.bool_], csv_style: bool
) -> list[bytes]:
    """The ``whole`` rows as ints, the others as floats (drives as the tables count them)."""
    if whole.all():
        return _tokens(_dumps(values.astype(np.int64)))
    tokens = csv_float_tokens(values) if csv_style else float_tokens(values)
    for index in np.flatnonzero(whole).tolist():
        tokens[index] = b"%d" % int(values[index])
    return tokens


def _column_tokens(column: ExportColumn, start: int, stop: int, csv_style: bool) -> list[bytes]:
    """The tokens of rows ``start:stop`` of ``column`` (JSON's, or CSV's cells)."""
    values = column.values[start:stop]
    if column.kind == "text":
        encode = _csv_text if csv_style else _json_text
        distinct = np.array([encode(text) for text in column.texts], dtype=object)
        tokens: list[bytes] = distinct[values].tolist()
        return tokens
    if column.kind == "bool":
        words = (b"False", b"True") if csv_style else (b"false", b"true")
        return [words[flag] for flag in values.tolist()]
    if column.kind == "int":
        return _tokens(_dumps(values.astype(np.int64)))
    if column.kind == "drives":
        whole = values == np.round(values) if column.whole is None else column.whole[start:stop]
        return _drive_tokens(values, whole, csv_style)
    return csv_float_tokens(values) if csv_style else float_tokens(values)


def _json_text(text: str | None) -> bytes:
    return json.dumps(text).encode()


def _csv_text(text: str | None) -> bytes:
    if text is None:
        return b""
    buffer = io.StringIO()
    # the rows' own line terminator, so that a text holding one is quoted as csv quotes it
    csv.writer(buffer, lineterminator="\n").writerow([text])
    return buffer.getvalue()[:-1].encode()


def _column_spec(
    column: ExportColumn, start: int, stop: int, csv_style: bool
) -> row_join.ColumnSpec | None:
    """Rows ``start:stop`` of ``column`` for the compiled joiner, encoded as the Python path.

    None for a JSON float column with figures not computed (NaN): the chunk takes the Python
    path (CSV's floats, NaN or not, are the joiner's).
    """
    values = column.values[start:stop]
    if column.kind == "text":
        encode = _csv_text if csv_style else _json_text
        texts = tuple(encode(text) for text in column.texts)
        return (row_join.TEXTS, texts, np.ascontiguousarray(values, dtype=np.int64))
    if column.kind == "float" and csv_style:  # NaN and infinities too (the joiner's cells)
        floats = np.ascontiguousarray(values, dtype=np.float64)
        return (row_join.CSV_FLOATS, _dumps(floats)[1:-1], floats)
    if column.kind == "float" and _not_computed(values) is not None:
        return None  # figures not computed: the Python path writes null
    if column.kind == "float":
        return (row_join.FLOATS, _dumps(np.ascontiguousarray(values))[1:-1], None)
    if column.kind == "int" or (
        column.kind == "drives"
        and (values == np.round(values) if column.whole is None else column.whole[start:stop]).all()
    ):
        return (row_join.TOKENS, _dumps(values.astype(np.int64))[1:-1], None)
    # booleans and drives with fractions: the Python path's own cells
    return (row_join.TOKENS, b",".join(_column_tokens(column, start, stop, csv_style)), None)


def _chunks(
    columns: Sequence[ExportColumn],
    rows: int,
    openers: tuple[bytes, bytes],
    separators: Sequence[bytes],
    closer: bytes,
    csv_style: bool,
) -> Iterator[bytes]:
    """Every row, :func:`chunk_rows` at a time, in order.

    Each row is ``opener tok0 sep1 tok1 ... closer`` (``openers``: the first row's and every
    other row's).

    The C joiner (:mod:`planner.report.row_join`) writes the same text as the Python join
    where it was built; a JSON chunk with figures not computed (NaN) takes the Python join.

    With the C joiner, a chunk's rows are joined on a second thread (the joiner runs
    without the GIL) while this one encodes the next chunk's columns and the caller writes
    the chunk before: at most three chunks are held at once.
    """
    step = chunk_rows(rows)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="planner-rows") as joiner:
        pending: Future[bytes] | None = None
        for start in range(0, rows, step):
            stop = min(rows, start + step)
            specs = (
                [_column_spec(column, start, stop, csv_style) for column in columns]
                if row_join.JOINER is not None
                else [None]  # not built: every chunk joined in Python (no thread started)
            )
            if all(spec is not None for spec in specs):
                first = openers[0] if start == 0 else openers[1]
                joined = [spec for spec in specs if spec is not None]
                following = joiner.submit(
                    row_join.join_rows,
                    joined,
                    stop - start,
                    (first, openers[1]),
                    separators,
                    closer,
                )
            else:
                following = _done(
                    _python_rows(columns, start, stop, openers, separators, closer, csv_style)
                )
            if pending is not None:
                yield pending.result()
            pending = following
        if pending is not None:
            yield pending.result()


def _done(value: bytes) -> Future[bytes]:
    """A future that already holds ``value``."""
    future: Future[bytes] = Future()
    future.set_result(value)
    return future


def _python_rows(
    columns: Sequence[ExportColumn],
    start: int,
    stop: int,
    openers: tuple[bytes, bytes],
    separators: Sequence[bytes],
    closer: bytes,
    csv_style: bool,
) -> bytes:
    """Rows ``start:stop`` (see :func:`_chunks`) joined in Python."""
    count = stop - start
    width = 2 * len(columns) + 1
    pieces: list[bytes] = [closer] * (count * width)
    pieces[0::width] = [openers[1]] * count
    if start == 0 and count:
        pieces[0] = openers[0]
    for index, column in enumerate(columns):
        if index:
            pieces[2 * index :: width] = [separators[index]] * count
        pieces[2 * index + 1 :: width] = _column_tokens(column, start, stop, csv_style)
    return b"".join(pieces)


def json_rows(
    document: dict[str, Any], rows_key: str, columns: Sequence[ExportColumn], rows: int
) -> Iterator[bytes]:
    """``document`` as JSON (UTF-8) with ``rows_key`` last, its rows streamed one per line.

    The text of :func:`planner.report.table.json_chunks` for the records whose keys are
    the columns' (in order) and whose values are the columns' rows.
    """
    head = json.dumps({**document, rows_key: []}, indent=2, allow_nan=False)
    yield (head[: head.rindex("[]")] + "[").encode()
    keys = [json.dumps(column.key).encode() for column in columns]
    first = b"{" + keys[0] + b": " if keys else b"{"
    openers = (b"\n    " + first, b",\n    " + first)
    separators = [b", " + key + b": " for key in keys]
    yield from _chunks(columns, rows, openers, separators, b"}", False)
    yield b"\n  ]\n}\n" if rows else b"]\n}\n"


def csv_rows(
    columns: Sequence[ExportColumn], rows: int, comment: str | None = None
) -> Iterator[bytes]:
    """CSV (UTF-8) of the columns: an optional comment line, the header, then the rows.

    The text of :func:`planner.report.table.csv_chunks` for the same records (floats to
    :data:`CSV_DIGITS` significant digits, booleans as ``True``/``False``).
    """
    if comment is not None:
        yield comment.encode()
    if not rows:
        return
    header = io.StringIO()
    csv.writer(header, lineterminator="\n").writerow([column.key for column in columns])
    yield header.getvalue().encode()
    separators = [b","] * len(columns)
    yield from _chunks(columns, rows, (b"", b""), separators, b"\n", True)
