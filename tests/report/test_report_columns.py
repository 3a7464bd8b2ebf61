"""One number format per column: a column formatter sees the whole column.

Written out by hand: the expected cells below are what a reader should see, not the code's
output pasted in.
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.report.numbers import (
    count_words_column,
    percent_column,
    ratio_column,
    significant_column,
)

SCIENTIFIC = re.compile(r"e[+-]\d\d")


def test_percent_column_is_scientific_for_every_cell_when_one_needs_it() -> None:
    # 6.7e-11 alone would be 6.7e-09%; 9.8e-8 alone 0.0000098%: together, one notation.
    assert percent_column([6.7e-11, 9.8e-8]) == ["6.7e-09%", "9.8e-06%"]
    assert percent_column([0.0033, 2.1e-5, 0.0]) == ["0.33%", "0.0021%", "0%"]


def test_losses_keep_two_significant_digits_in_every_cell() -> None:
    assert significant_column([0.0027, 0.01, 33.12]) == ["0.0027", "0.010", "33"]
    assert significant_column([5.1e-7, 5.23]) == ["5.1e-07", "5.2e+00"]


def test_ratio_column_one_notation() -> None:
    assert ratio_column([160.0, 1.0, 0.000624]) == ["160×", "1.00×", "0.000624×"]
    assert ratio_column([4.81e10, 1.0]) == ["4.81e+10×", "1.00e+00×"]
    assert ratio_column([float("inf"), 1.0]) == ["∞", "1.00×"]


def test_counts_in_words_turn_scientific_together() -> None:
    assert count_words_column([1500.0, 3.8e8]) == ["1,500", "380 million"]
    assert count_words_column([1500.0, 4.1e15]) == ["1.5e+03", "4.1e+15"]


def markdown_columns(text: str) -> dict[str, list[str]]:
    lines = [line for line in text.splitlines() if line.startswith("|")]
    headers = [h.strip() for h in lines[0].strip("|").split("|")]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    return {h: [row[i] for row in rows] for i, h in enumerate(headers)}


@pytest.mark.parametrize("command", ["evaluate", "sweep"])
def test_no_column_mixes_fixed_and_scientific_numbers(command: str) -> None:
    # ARR 0.3%: triple parity's P(loss) is ~5e-11, double parity's ~5e-7 -- one column.
    result = CliRunner().invoke(app, [command, "--set", "drive.arr=0.3%", "-f", "markdown"])
    assert result.exit_code == 0, result.stderr
    for header, cells in markdown_columns(result.stdout).items():
        numbers = [c for c in cells if re.fullmatch(r"[0-9.,e+\-]+[%×]?", c)]
        kinds = {bool(SCIENTIFIC.search(c)) for c in numbers}
        assert len(kinds) <= 1, (header, numbers)
