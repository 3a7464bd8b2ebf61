"""CSV's floats from both export paths, against Python's ``csv`` writing the same records.

A float in CSV is ``repr(float(f"{v:.15g}"))`` (15 significant digits; None, which is how a
record carries a figure not computed, an empty cell). The sweep's export writes the cells
from NumPy columns: the compiled joiner (planner.report._rows) rounds orjson's shortest
digits in C, the pure-Python fallback formats ``%.15g`` with fix-ups. Both must write the
bytes that planner.report.table's ``csv_chunks`` (Python's ``csv`` module over one dict per
row) writes. The floats come from Hypothesis over every magnitude and from the edges each
path treats apart: whole numbers, 1e15 to 1e17 (repr writes them in full), subnormal
results (repr may need fewer than 15 digits), values that round to infinity, negative zero,
NaN rows, 16 digits ending in 5 (a tie in the shortest digits, settled from the exact value,
at small and large exponents) and exact ties (half to even).
"""

from __future__ import annotations

import math
import sys
from decimal import Decimal
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.report import row_join
from planner.report.sweep_export import ExportColumn, csv_rows
from planner.report.table import csv_chunks

BIGGEST = sys.float_info.max
SMALLEST_NORMAL = sys.float_info.min

EDGES = [
    0.0, -0.0, 1.0, -3.0, 43800.0, 2.9999999999999996, 0.1, 7.290000000000001, 1e-5, 1.5e-5,
    1e-4, 9.999999999999999e-05, 1e-7, 1e22, 1e-300, 1e300,
    # 1e15 to 1e17: repr writes up to 1e16 in full, %.15g does not
    1e15, 1000000000000000.5, 1234567890123456.0, 9999999999999998.0, 1e16, 1.5e16, 1e17,
    123456789012345.6, 99999999999999.99, 999999999999999.9,
    # 16 digits ending in 5, x above or below them: compared exactly from 1e-16 to 1e47,
    # by printf beyond (compiled)
    2.345678901234565e-10, 1.234567890123455e-10, 234567.8901234565, 123456.7890123455,
    1.234567890123455e-20, 2.345678901234565e-20, 1.234567890123455e50, 3.456789012345675e50,
    1.234567890123455e-200,
    # exact ties: half to even
    1234567890123455.0, 1234567890123445.0, 2.0**-22, -(2.0**-22),
    # the 15th digit carries over: 99...9 becomes 10...0
    9.999999999999999, 0.9999999999999999, 9.999999999999999e-21, 9.999999999999999e200,
    # subnormal results, near the smallest normal, and values that round to infinity
    5e-324, -5e-324, 1e-310, 4.9e-309, 2.225073858507201e-308, SMALLEST_NORMAL,
    2.2250738585072e-308, BIGGEST, -BIGGEST, 1.7976931348623e308, 1.79769313486231e308,
    float("nan"), float("inf"), float("-inf"),
]  # fmt: skip


def _tie_digits(digits: int, exponent: int, negative: bool) -> float:
    """The float nearest to 16 significant digits that end in 5 (``digits`` is the first 15)."""
    return float(f"{'-' if negative else ''}{digits}5e{exponent}")


def _exact_tie(odd: int, twos: int) -> float:
    """``odd / 2**twos``: exactly a decimal of 16 digits ending in 5 when it is one."""
    return odd / 2**twos


FLOATS = st.one_of(
    st.floats(),  # any double: NaN, infinities, subnormals, negative zero, huge and tiny
    st.floats(min_value=-1e17, max_value=1e17),
    st.integers(-(10**17), 10**17).map(float),  # whole numbers, in full to 1e16
    st.builds(_tie_digits, st.integers(10**14, 10**15 - 1), st.integers(-345, 293), st.booleans()),
    st.builds(_exact_tie, st.integers(0, 2**26).map(lambda k: 2 * k + 1), st.integers(0, 22)),
    st.integers(10**14, 2**53 // 10 - 1).map(lambda d: float(10 * d + 5)),  # exact ties
    st.floats(min_value=0.0, max_value=2.3e-308),  # subnormal and near the smallest normal
    st.floats(min_value=1.79769313486e308, max_value=BIGGEST),  # round to infinity
    st.sampled_from(EDGES),
    st.just(math.nan),  # a row whose figure was not computed: an empty cell
    st.sampled_from([math.inf, -math.inf]),
)


def _columns(values: np.ndarray) -> list[ExportColumn]:
    rows = len(values)
    return [
        ExportColumn("n", "int", np.arange(rows)),
        ExportColumn("x", "float", values),
        ExportColumn("minus_x", "float", -values[::-1]),
    ]


def _records(values: np.ndarray) -> list[dict[str, object]]:
    """One record per row, as the report's rows give them: None where a figure is NaN."""
    plain = [None if np.isnan(v) else v for v in values.tolist()]
    minus = [None if v is None else -v for v in reversed(plain)]
    return [
        {"n": i, "x": x, "minus_x": m} for i, (x, m) in enumerate(zip(plain, minus, strict=True))
    ]


def _export(values: np.ndarray, compiled: bool) -> str:
    """The CSV the export writes, through the compiled joiner or the Python fallback."""
    if compiled:
        assert row_join.JOINER is not None, "planner.report._rows was not built"
    with patch.object(row_join, "JOINER", row_join.JOINER if compiled else None):
        return b"".join(csv_rows(_columns(values), len(values))).decode()


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
def test_the_edges_are_what_csv_writes(compiled: bool) -> None:
    values = np.array(EDGES)
    assert _export(values, compiled) == "".join(csv_chunks(_records(values)))


def test_the_edges_reach_every_case() -> None:
    """The edges hold what the docstring says (so a broken case cannot hide behind them)."""
    cell = {v: repr(float(f"{v:.15g}")) for v in EDGES if v == v}
    assert cell[BIGGEST] == "inf"
    assert cell[-BIGGEST] == "-inf"
    assert cell[5e-324] == "5e-324"  # a subnormal: fewer digits than %.15g's
    assert cell[1e15] == "1000000000000000.0"
    assert cell[1e16] == "1e+16"
    assert cell[1234567890123455.0] == "1234567890123460.0"  # the tie rounds to even
    assert cell[1234567890123445.0] == "1234567890123440.0"
    assert cell[2.0**-22] == "2.38418579101562e-07"
    assert cell[9.999999999999999] == "10.0"
    ties = [v for v in EDGES if math.isfinite(v) and _shortest_digits(v).endswith("5")]
    sides = {(1e-16 <= abs(v) < 1e47, _side(v)) for v in ties if len(_shortest_digits(v)) == 16}
    assert sides >= {(near, side) for near in (True, False) for side in (1, -1)}


def _shortest_digits(value: float) -> str:
    """The significant digits repr writes (no sign, point, exponent or leading zeros)."""
    return repr(abs(value)).split("e")[0].replace(".", "").strip("0")


def _side(value: float) -> int:
    """Whether the double lies above (1), below (-1) or on (0) the decimal repr writes."""
    exact, written = Decimal(value), Decimal(repr(value))
    return (exact > written) - (exact < written)


@settings(max_examples=120, deadline=None)
@given(values=st.lists(FLOATS, min_size=1, max_size=50))
def test_random_floats_are_what_csv_writes(values: list[float]) -> None:
    """Both paths on each draw (one draw costs more than either path's export)."""
    array = np.array(values, dtype=np.float64)
    expected = "".join(csv_chunks(_records(array)))
    assert _export(array, compiled=True) == expected
    assert _export(array, compiled=False) == expected


def test_the_joiner_wants_one_float_per_row() -> None:
    joiner = row_join.JOINER
    assert joiner is not None
    with pytest.raises(ValueError, match="one float per row"):
        joiner.join_rows([(3, b"1.5,2.5", np.array([1.5]))], 2, b"", b"", [b""], b"\n")
    with pytest.raises(ValueError, match="not a float token"):
        joiner.join_rows([(3, b"1.5,x", np.array([1.5, 2.5]))], 2, b"", b"", [b""], b"\n")
