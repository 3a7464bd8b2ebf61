"""One number format per column: a column formatter sees the whole column.

Written out by hand: the expected cells below are what a reader should see, not the code's
output pasted in.
"""

from __future__ import annotations

import pytest
from notation_helpers import table_faults
from typer.testing import CliRunner

from planner.cli import app
from planner.report.numbers import count_words_column, ratio_column, significant_column
from planner.report.percentages import percent_column, percent_interval_column


def test_percent_column_is_scientific_below_one_percent_when_one_needs_it() -> None:
    # 6.7e-14 alone would be 0.0000000000067% (13 decimals): scientific. Then 9.8e-8, alone
    # 0.0000098%, is scientific too (one notation below 1%), and 13% stays 13%.
    assert percent_column([6.7e-14, 9.8e-8, 0.13]) == ["6.7e-12%", "9.8e-06%", "13%"]
    # 10 decimals are still read fixed: 6.7e-11 is 0.0000000067%.
    assert percent_column([6.7e-11, 9.8e-8]) == ["0.0000000067%", "0.0000098%"]
    assert percent_column([0.0033, 2.1e-5, 0.0]) == ["0.33%", "0.0021%", "0%"]


def test_losses_keep_two_significant_digits_in_every_cell() -> None:
    assert significant_column([0.0027, 0.01, 33.12]) == ["0.0027", "0.010", "33"]
    assert significant_column([5.1e-7, 5.23]) == ["0.00000051", "5.2"]
    assert significant_column([5.1e-12, 0.01, 5.23, 2500.0]) == [
        "5.1e-12",
        "1.0e-02",
        "5.2",
        "2,500",
    ]


def test_ratio_column_one_notation() -> None:
    assert ratio_column([160.0, 1.0, 0.000624]) == ["160×", "1.00×", "0.000624×"]
    assert ratio_column([4.81e10, 1.0]) == ["48.1 billion×", "1.00×"]
    # An n+8 group against double parity: the tiny ratio is scientific, the baseline not.
    assert ratio_column([3.16e-21, 0.000624, 1.0, 160.0]) == [
        "3.16e-21×",
        "6.24e-04×",
        "1.00×",
        "160×",
    ]
    assert ratio_column([float("inf"), 1.0]) == ["∞", "1.00×"]


def test_counts_in_words_and_an_exponent_only_when_huge() -> None:
    assert count_words_column([1500.0, 3.8e8]) == ["1,500", "380 million"]
    assert count_words_column([1500.0, 3.8e8, 7.6e25]) == ["1,500", "380 million", "7.6e+25"]


def test_interval_column_one_notation() -> None:
    # Each interval with digits enough to differ; the ends share the column's notation.
    assert percent_interval_column([(0.0019, 0.0020), (2.6e-9, 3.9e-9)]) == [
        "0.19%–0.20%",
        "0.00000026%–0.00000039%",
    ]
    assert percent_interval_column([(0.0019, 0.0020), (2.6e-14, 3.9e-14), None]) == [
        "1.9e-01%–2.0e-01%",
        "2.6e-12%–3.9e-12%",
        "",
    ]
    assert percent_interval_column([(0.13, 0.14), (5.9e-5, 6.6e-5)]) == [
        "13%–14%",
        "0.0059%–0.0066%",
    ]


@pytest.mark.parametrize("command", ["evaluate", "sweep"])
def test_no_column_mixes_fixed_and_scientific_numbers(command: str) -> None:
    # ARR 0.3%: triple parity's P(loss) is ~5e-11, double parity's ~5e-7 -- one column.
    result = CliRunner().invoke(app, [command, "--set", "drive.arr=0.3%", "-f", "markdown"])
    assert result.exit_code == 0, result.stderr
    assert table_faults(result.stdout) == {}


def test_a_column_dropped_early_comes_back_when_a_later_drop_leaves_room() -> None:
    # Dropping strictly by priority left a narrow column out after a wide one went too:
    # at 120 columns the TUI's compare table dropped "Total drives" beside 13 empty cells.
    from planner.report.table import Column, fit_columns

    columns = [
        Column("Label", str, numeric=False),
        Column("Narrow", str, priority=2),  # dropped first
        Column("Wide", str, priority=1),  # dropped next, which leaves room for Narrow
    ]
    rows = [["x" * 10, "y" * 8, "z" * 30]]
    # Rich's budget: each column its widest cell + 3, and 1 more: 13 + 11 + 33 + 1 = 58.
    assert fit_columns(columns, rows, 58) == [0, 1, 2]
    assert fit_columns(columns, rows, 50) == [0, 2]  # 13 + 33 + 1: Narrow goes first
    assert fit_columns(columns, rows, 30) == [0, 1]  # Wide goes too, and Narrow fits again
    assert fit_columns(columns, rows, 20) == [0]
