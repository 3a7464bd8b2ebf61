"""The compiled row joiner (planner.report._rows) writes what Python's json and csv write.

Random doubles of every magnitude (random bit patterns, so subnormals, powers of ten and
the 1e-5 / 1e16 edges of repr's layout are all hit) plus chosen edge values, in JSON rows
beside an int, a boolean and a text column, against planner.report.table's record encoders
(Python's json and csv modules); and the Python join path against the same.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from planner.report import row_join
from planner.report.sweep_export import ExportColumn, csv_rows, json_rows
from planner.report.table import csv_chunks, json_chunks

EDGES = [
    0.0, -0.0, 1.0, -1.0, 3.0, 0.1, 1e-4, 9.999999999999999e-05, 1e-5, 1.5e-5, 0.00012345,
    1e15, 1e16, 1.5e16, 9999999999999998.0, 123456789012345.6, 1e22, 1e-7, 1.25e-7,
    5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e-300, 1e300, 0.5, 2.5e-08,
    100.0, 1234.5, 6.02214076e23, -4.2e-12,
]  # fmt: skip


def _values(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2**64, size=count, dtype=np.uint64).view(np.float64)
    finite = bits[np.isfinite(bits)]
    scaled = rng.uniform(-1, 1, count) * 10.0 ** rng.integers(-30, 30, count)
    return np.concatenate([np.array(EDGES), finite, scaled])


def _columns(values: np.ndarray) -> list[ExportColumn]:
    rows = len(values)
    index = np.arange(rows)
    return [
        ExportColumn("n", "int", index),
        ExportColumn("x", "float", values),
        ExportColumn("ok", "bool", index % 3 == 0),
        ExportColumn("label", "text", index % 3, ('a, "b"', None, "ü\n")),
    ]


def _records(values: np.ndarray) -> list[dict[str, object]]:
    labels = ('a, "b"', None, "ü\n")
    return [
        {"n": i, "x": float(v), "ok": i % 3 == 0, "label": labels[i % 3]}
        for i, v in enumerate(values.tolist())
    ]


@pytest.fixture(params=["compiled", "python"])
def joiner(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "python":
        monkeypatch.setattr(row_join, "JOINER", None)
    else:
        assert row_join.JOINER is not None, "planner.report._rows was not built"
    return str(request.param)


def test_json_rows_are_what_json_writes(joiner: str) -> None:
    values = _values(15_000, seed=3)
    got = b"".join(json_rows({"name": "t"}, "rows", _columns(values), len(values))).decode()
    expected = "".join(json_chunks({"name": "t"}, "rows", _records(values)))
    assert got == expected, joiner


def test_csv_rows_are_what_csv_writes(joiner: str) -> None:
    values = _values(3_000, seed=4)
    got = b"".join(csv_rows(_columns(values), len(values))).decode()
    expected = "".join(csv_chunks(_records(values)))
    assert got == expected, joiner


def test_a_figure_not_computed_is_null_in_json_and_empty_in_csv(joiner: str) -> None:
    """NaN marks a figure a model does not give (the hours with enclosures): the tables' n/a.

    The exports write it as the record encoders write None: ``null`` in JSON, an empty cell in
    CSV, on both paths (the compiled joiner writes CSV's empty cells itself; a JSON chunk with
    a NaN falls back to the Python tokens).
    """
    values = _values(2_000, seed=5)
    values[::7] = np.nan
    records = _records(values)
    for record in records[::7]:
        record["x"] = None
    got = b"".join(json_rows({"name": "t"}, "rows", _columns(values), len(values))).decode()
    assert got == "".join(json_chunks({"name": "t"}, "rows", records)), joiner
    got = b"".join(csv_rows(_columns(values), len(values))).decode()
    assert got == "".join(csv_chunks(records)), joiner


def test_an_infinity_is_refused(joiner: str) -> None:
    values = np.array([1.0, np.inf])
    with pytest.raises(ValueError, match="not JSON compliant"):
        b"".join(json_rows({}, "rows", _columns(values), 2))


def test_the_joiner_refuses_what_it_cannot_write() -> None:
    joiner = row_join.JOINER
    assert joiner is not None
    with pytest.raises(ValueError, match="too few tokens"):
        joiner.join_rows([(0, b"1,2", None)], 3, b"[", b",", [b""], b"]")
    with pytest.raises(ValueError, match="not a float token"):
        joiner.join_rows([(1, b"1.5,abc", None)], 2, b"[", b",", [b""], b"]")
    index = np.array([0, 5], dtype=np.int64)
    with pytest.raises(ValueError, match="text index out of range"):
        joiner.join_rows([(2, (b'"a"',), index)], 2, b"[", b",", [b""], b"]")


def test_chunks_joined_on_a_thread_and_in_python_keep_their_order(joiner: str) -> None:
    """Chunks joined by the compiled joiner (on its thread) and chunks with a figure not
    computed (joined in Python at once) come out in row order, whatever finishes first."""
    values = _values(5_000, seed=6)
    values[2_100:2_200] = np.nan  # the third chunk only
    records = _records(values)
    for record in records[2_100:2_200]:
        record["x"] = None
    got = b"".join(json_rows({"name": "t"}, "rows", _columns(values), len(values))).decode()
    assert got == "".join(json_chunks({"name": "t"}, "rows", records)), joiner


def test_an_export_stopped_early_stops_cleanly(joiner: str) -> None:
    """A reader that goes away (a closed pipe) closes the stream: no thread is left behind."""
    values = _values(5_000, seed=7)
    stream = json_rows({"name": "t"}, "rows", _columns(values), len(values))
    next(stream), next(stream)
    stream.close()
    assert not [t for t in threading.enumerate() if t.name.startswith("planner-rows")]
