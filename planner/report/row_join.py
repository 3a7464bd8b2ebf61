"""The rows of a sweep's export joined in C (:mod:`planner.report._rows`), when it was built.

:func:`planner.report.sweep_export.json_rows` and :func:`~planner.report.sweep_export.csv_rows`
encode each column whole; joining 200,000 rows of twenty cells from Python lists of tokens
cost more than the encoding (a list of bytes per column, one ``join`` per chunk, and every
float written by orjson moved to Python's layout token by token). The C joiner walks the
encoded columns once and writes the floats in Python's layout itself (CSV's rounded to 15
significant digits from orjson's shortest digits: formatting them in Python took twice as
long as computing a sweep), so the text is the same, byte for byte
(tests/report/test_row_join.py checks both paths against ``json`` and ``csv``).
Where the module was not built, :data:`JOINER` is None and the Python join serves.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType


def _load() -> ModuleType | None:
    try:
        from planner.report import _rows  # type: ignore[attr-defined]
    except ImportError:  # not built: the Python join serves
        return None
    return _rows  # type: ignore[no-any-return]


JOINER: ModuleType | None = _load()
"""The compiled joiner, or None where it was not built."""

TOKENS, FLOATS, TEXTS, CSV_FLOATS = 0, 1, 2, 3
"""The joiner's column kinds: tokens copied as they are (ints, literals, prepared cells),
orjson's floats (written in Python's layout), indexed texts (``(distinct, indices)``), and
CSV's floats (orjson's floats and the float64 values: the cells of
:func:`planner.report.sweep_export.csv_float_tokens`, 15 significant digits)."""

ColumnSpec = tuple[int, object, object]
"""One column for :func:`join_rows`: ``(kind, data, indices)``."""


def join_rows(
    specs: list[ColumnSpec],
    count: int,
    openers: tuple[bytes, bytes],
    separators: Sequence[bytes],
    closer: bytes,
) -> bytes:
    """``count`` rows of ``specs`` joined by :data:`JOINER` (which must be built).

    Each row is ``opener tok0 sep1 tok1 ... closer``; ``openers``: the first row's and
    every other row's opener.
    """
    if JOINER is None:
        raise RuntimeError("planner.report._rows was not built")
    result: bytes = JOINER.join_rows(specs, count, openers[0], openers[1], list(separators), closer)
    return result
