"""How numbers read: expectations written out by hand."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from planner.report.numbers import (
    format_count,
    format_odds,
    format_ratio,
    format_tb,
    format_years,
    plain_column,
    rate_column,
    signed_column,
    significant,
)
from planner.report.percentages import format_percent, percent_interval_column


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.0033123, "0.33%"),
        (0.080524, "8.1%"),
        (0.39571, "40%"),
        (2.0764e-5, "0.0021%"),
        (1.2955e-8, "0.0000013%"),
        (2.0e-11, "0.0000000020%"),  # 10 decimals: still fixed
        (2.0e-13, "2.0e-11%"),  # 12 decimals: a wall of zeros, scientific
        (0.0, "0%"),
        (1.0, "100%"),
    ],
)
def test_percent(p: float, text: str) -> None:
    assert format_percent(p) == text


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.9951, "99.5%"),  # a newcomer saw 100% for an aggregate at 99.51%
        (0.999998, "99.9998%"),
        (0.99949, "99.9%"),
        (0.99961, "99.96%"),  # 99.96 rounds to 100.0 at one decimal
        (0.9949, "99%"),  # two digits already read under 100
        (1 - 1e-14, "≈100%"),  # closer than ten decimals show
    ],
)
def test_a_probability_below_one_never_reads_as_certain(p: float, text: str) -> None:
    assert format_percent(p) == text
    assert percent_interval_column([(0.5, p)])[0].endswith(f"–{text}")


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (2.0764e-5, "1 in 48,000"),
        (0.0033123, "1 in 300"),
        (1.2955e-8, "1 in 77 million"),
        (0.4, "1 in 2.5"),
        (1.0, "certain"),
        (0.0, "never"),
    ],
)
def test_odds(p: float, text: str) -> None:
    assert format_odds(p) == text


def test_counts_and_years() -> None:
    assert format_count(48_163) == "48,000"
    assert format_count(2.34e9) == "2.3 billion"
    assert format_count(4.1e15) == "4.1e+15"
    assert format_years(13_152_844.4) == "1,500 years"
    assert format_years(math.inf) == "∞"


def test_ratios() -> None:
    assert format_ratio(159.52) == "160×"
    assert format_ratio(1.0) == "1.00×"
    assert format_ratio(0.000623928) == "0.000624×"
    assert format_ratio(math.inf) == "∞"
    assert format_ratio(4.81e10) == "48.1 billion×"
    assert format_ratio(1.47e-8) == "0.0000000147×"  # 10 decimals: still fixed
    assert format_ratio(1.47e-9) == "1.47e-09×"


EXTREMES = [math.nan, math.inf, -math.inf, 5e-324, 1.7976931348623157e308, -1e-300, -1e300]


@pytest.mark.parametrize("value", EXTREMES)
@pytest.mark.parametrize(
    "formatter",
    [format_count, format_percent, format_odds, format_years, format_ratio, format_tb, significant],
)
def test_no_value_makes_a_formatter_raise(
    formatter: Callable[[float], object], value: float
) -> None:
    # A NaN once reached format_percent from the TUI's table and closed the app (issue 13).
    text = formatter(value)
    assert formatter is significant or (isinstance(text, str) and text)


@pytest.mark.parametrize(
    ("value", "text"),
    [(math.nan, "n/a"), (math.inf, "∞"), (-math.inf, "-∞")],
)
def test_values_that_are_not_numbers_read_as_such(value: float, text: str) -> None:
    assert format_percent(value) == text
    assert format_count(value) == text
    assert format_ratio(value) == text
    assert format_tb(value) == text


@pytest.mark.parametrize(
    ("values", "cells"),
    [
        ([0.7, 1.08e-4, 168, 12345.67], ["0.7", "0.000108", "168", "12,346"]),
        ([2.5e6, 0, 1.0, 0.99999], ["2.5 million", "0", "1", "1"]),
        ([1.08e-4, 2e-12, 42], ["1.08e-04", "2e-12", "42"]),  # 2e-12 would need 12 decimals
    ],
)
def test_plain_column_writes_values_as_a_scenario_does(
    values: list[float], cells: list[str]
) -> None:
    assert plain_column(values) == cells


@pytest.mark.parametrize(
    ("values", "cells"),
    [
        ([2.0, 0.86, -6.6e-5, 0], ["+2.00", "+0.86", "-0.000066", "0"]),
        ([0.99996, 1.28], ["+1.00", "+1.28"]),
        ([1.28, -8.7e-13, 0.5], ["+1.28", "-8.7e-13", "+5.0e-01"]),  # 14 decimals: scientific
    ],
)
def test_signed_column_keeps_signs_and_one_notation(values: list[float], cells: list[str]) -> None:
    assert signed_column(values) == cells


def test_rate_column_keeps_rates_fixed_with_three_digits() -> None:
    assert rate_column([4.34e-6, 2.16e-4, 0.0833]) == ["0.00000434", "0.000216", "0.0833"]


@pytest.mark.parametrize(
    ("terabytes", "text"),
    [(12.63, "12.6"), (999_999.94, "999,999.9"), (1.2e6, "1.20 million"), (2.5e9, "2.50 billion")],
)
def test_capacities_read_in_words_past_a_million(terabytes: float, text: str) -> None:
    assert format_tb(terabytes) == text
