"""One declaration carries a column and its export key: the records built from columns."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from planner.analysis import compare
from planner.report.comparison import comparison_columns, comparison_fields
from planner.report.table import (
    Column,
    csv_text,
    export_field,
    export_records,
    finite_or_none,
    markdown_table,
    shown_columns,
    table_cells,
)
from planner.scenario.loader import load_scenario

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Row:
    name: str
    ratio: float


COLUMNS: list[Column[Row]] = [
    Column("Name", lambda r: r.name, numeric=False, key="name"),
    export_field("shouting", lambda r: r.name.upper()),
    Column("Ratio", lambda r: r.ratio, key="ratio", export=finite_or_none),
    Column("Ratio text", lambda r: f"x{r.ratio:g}"),  # shown only: no key
]
ROWS = [Row("a", 2.0), Row("b", math.inf)]


def test_records_have_the_keyed_fields_in_order_with_raw_exported_values() -> None:
    assert list(export_records(COLUMNS, ROWS)) == [
        {"name": "a", "shouting": "A", "ratio": 2.0},
        {"name": "b", "shouting": "B", "ratio": None},  # JSON has no infinity
    ]


def test_the_table_shows_no_export_only_field() -> None:
    shown = shown_columns(COLUMNS)
    assert [c.header for c in shown] == ["Name", "Ratio", "Ratio text"]
    assert markdown_table(shown, table_cells(shown, ROWS))[0] == "| Name | Ratio | Ratio text |"


def test_a_key_declared_twice_is_an_error() -> None:
    twice = [*COLUMNS, export_field("ratio", lambda r: r.ratio)]
    with pytest.raises(ValueError, match="export keys declared twice: ratio"):
        list(export_records(twice, ROWS))


@pytest.mark.parametrize("name", ["ns3574-default", "today-20tb-nl-sas", "lenovo-s3200"])
def test_every_comparison_column_is_one_of_the_declared_fields(name: str) -> None:
    """The table's columns are the export's declarations, not copies of them."""
    comparison = compare.comparison(load_scenario(ROOT / "scenarios" / f"{name}.yaml"))
    fields = comparison_fields(comparison)
    columns = comparison_columns(comparison)
    assert all(c.shown for c in columns)
    assert {c.header for c in columns} <= {c.header for c in fields}
    keyed = {c.key: c for c in fields if c.key is not None}
    for column in columns:
        if column.key is not None:
            assert keyed[column.key].header == column.header


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (7.290000000000001, "7.29"),
        (2 * 7.290000000000001, "14.58"),
        (150.0, "150.0"),
        (1.2254212821430694e-06, "1.22542128214307e-06"),
        (1e-300, "1e-300"),
        (0.1 + 0.2, "0.3"),
    ],
)
def test_csv_floats_drop_binary_noise_and_keep_fifteen_digits(value: float, written: str) -> None:
    """A spreadsheet shows 7.29, not 7.290000000000001; every value keeps 15 digits."""
    text = csv_text([{"value": value, "count": 3, "label": "raid5"}])
    row = next(csv.DictReader(text.splitlines()))
    assert row == {"value": written, "count": "3", "label": "raid5"}
    assert float(row["value"]) == pytest.approx(value, rel=1e-14)
