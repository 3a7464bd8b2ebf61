"""Numbers as a person reads them: 0.33%, 0.0021%, 1 in 48,000, 1,500 years.

Every formatter takes any float, NaN and infinities included, and returns text: a table
must never fail to draw (a NaN once closed the TUI from here). NaN reads ``n/a`` and the
infinities ``∞`` and ``-∞``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from planner.core.rates import HOURS_PER_YEAR

_LARGE_WORDS = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))


def _not_finite(value: float) -> str | None:
    """``n/a``, ``∞`` or ``-∞`` for a value that is not a finite number, else None."""
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return None


def significant(value: float, digits: int = 2) -> float:
    """``value`` rounded to ``digits`` significant digits (NaN and infinities unchanged)."""
    if value == 0 or not math.isfinite(value):
        return value
    try:
        return round(value, digits - 1 - math.floor(math.log10(abs(value))))
    except OverflowError:  # 1.8e308 rounds up past the largest float
        return value


def _fixed(value: float, digits: int) -> str:
    """Fixed-point text of ``value`` with ``digits`` significant digits, never an exponent."""
    rounded = significant(value, digits)
    if rounded == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(rounded))))
    return f"{rounded:,.{decimals}f}"


def format_count(value: float, digits: int = 2) -> str:
    """A large count in words past a million: 48,000; 77 million; 2.3 billion; 4.1e+15."""
    special = _not_finite(value)
    if special is not None:
        return special
    if abs(value) >= 1e15:
        return f"{value:.{digits - 1}e}"
    if value < 1e6:
        return _fixed(value, digits)
    for scale, word in _LARGE_WORDS:
        if value >= scale:
            return f"{_fixed(value / scale, digits)} {word}"
    return _fixed(value, digits)  # pragma: no cover - unreachable


def format_percent(p: float, digits: int = 2) -> str:
    """A probability as a percentage with ``digits`` significant digits: 0.33%, 0.0021%.

    Below 1e-8 (0.000001%) the percentage would be a wall of zeros, so scientific notation
    is used: 2.0e-9%.
    """
    special = _not_finite(p)
    if special is not None:
        return special
    if p == 0:
        return "0%"
    if not 1e-8 <= abs(p) < 1e10:
        return f"{100 * p:.{digits - 1}e}%"
    return f"{_fixed(100 * p, digits)}%"


def format_odds(p: float) -> str:
    """A probability as odds: 1 in 48,000."""
    if math.isnan(p):
        return "n/a"
    if p <= 0:
        return "never"
    if p >= 1:
        return "certain"
    return f"1 in {format_count(1 / p)}"


def format_years(hours: float) -> str:
    """A duration in hours as years with 2 significant digits: 1,500 years, 380 million years."""
    special = _not_finite(hours)
    if special is not None:
        return special
    return f"{format_count(hours / HOURS_PER_YEAR)} years"


def format_ratio(ratio: float) -> str:
    """A relative risk with 3 significant digits: 160×, 1.00×, 0.000624×.

    Beyond a million or below a millionth the zeros stop being readable: 4.81e+10×.
    """
    special = _not_finite(ratio)
    if special is not None:
        return special
    if ratio == 0:
        return "0×"
    if not 1e-6 <= abs(ratio) < 1e6:
        return f"{ratio:.2e}×"
    return f"{_fixed(ratio, 3)}×"


def format_tb(terabytes: float) -> str:
    """A capacity in TB with at most one decimal: 12.6 TB (an exponent past 1e15)."""
    special = _not_finite(terabytes)
    if special is not None:
        return special
    if abs(terabytes) >= 1e15:
        return f"{terabytes:.2e}"
    return f"{terabytes:,.1f}"


# Column formatters: each sees the whole column, so that a column has one notation and one
# precision (never 6.7e-09% beside 0.0000098%, nor 0.0027 beside 0.01).

SCIENTIFIC_PERCENT_BELOW = 1e-8
"""A probability column turns scientific when any of its non-zero values is below this
(0.000001%): fixed notation would be a wall of zeros."""


def _scientific(value: float, digits: int) -> str:
    return f"{value:.{digits - 1}e}"


def percent_column(probabilities: Sequence[float], digits: int = 2) -> list[str]:
    """Probabilities as percentages with ``digits`` significant digits, one notation a column.

    Fixed (``0.33%``, ``0.0021%``) unless a non-zero value is below
    :data:`SCIENTIFIC_PERCENT_BELOW`; then every value is scientific (``3.3e-01%``).
    """
    finite = [p for p in probabilities if math.isfinite(p) and p > 0]
    scientific = any(p < SCIENTIFIC_PERCENT_BELOW for p in finite)

    def one(p: float) -> str:
        if not math.isfinite(p):
            return "n/a"
        if p == 0:
            return "0%"
        if scientific:
            return f"{_scientific(100 * p, digits)}%"
        return f"{_fixed(100 * p, digits)}%"

    return [one(p) for p in probabilities]


def ratio_column(ratios: Sequence[float], digits: int = 3) -> list[str]:
    """Relative risks with ``digits`` significant digits and ×, one notation a column.

    Fixed (``160×``, ``1.00×``, ``0.000624×``) unless a non-zero ratio is a million or more
    or below a millionth; then every value is scientific. ∞ for a ratio to a zero baseline.
    """
    finite = [abs(r) for r in ratios if math.isfinite(r) and r != 0]
    scientific = any(not 1e-6 <= r < 1e6 for r in finite)

    def one(r: float) -> str:
        if math.isnan(r):
            return "n/a"
        if math.isinf(r):
            return "∞"
        if r == 0:
            return "0×"
        return f"{_scientific(r, digits) if scientific else _fixed(r, digits)}×"

    return [one(r) for r in ratios]


def significant_column(values: Sequence[float], digits: int = 2) -> list[str]:
    """Numbers with ``digits`` significant digits (``0.0027``, ``0.010``, ``12``, ``1,200``).

    Scientific for the whole column when a non-zero value is below 1e-6 or 1e15 or more.
    """
    finite = [abs(v) for v in values if math.isfinite(v) and v != 0]
    scientific = any(not 1e-6 <= v < 1e15 for v in finite)

    def one(v: float) -> str:
        if not math.isfinite(v):
            return "∞" if v > 0 else "n/a"
        if v == 0:
            return "0"
        return _scientific(v, digits) if scientific else _fixed(v, digits)

    return [one(v) for v in values]


def count_words_column(values: Sequence[float], digits: int = 2) -> list[str]:
    """Large counts in words (``48,000``, ``77 million``); scientific when one is 1e15+."""
    scientific = any(math.isfinite(v) and v >= 1e15 for v in values)
    if scientific:
        return ["∞" if not math.isfinite(v) else _scientific(v, digits) for v in values]
    return [format_count(v, digits) for v in values]


def years_column(hours: Sequence[float]) -> list[str]:
    """Durations in hours shown in years (the unit goes in the column title)."""
    return count_words_column([h / HOURS_PER_YEAR for h in hours])


def integer_column(values: Sequence[int]) -> list[str]:
    """Whole numbers with thousands separators: ``1,040``."""
    return [f"{v:,}" for v in values]


def drives_column(values: Sequence[float]) -> list[str]:
    """Drive counts: whole numbers as ``1,040``, or every cell with one decimal.

    One decimal when a count is fractional (a declustered pool's capacity in drives), so
    ``96.0`` stands beside ``33.6``.
    """
    if all(float(v).is_integer() for v in values):
        return [f"{int(v):,}" for v in values]
    return [f"{v:,.1f}" for v in values]


def tb_column(terabytes: Sequence[float | None]) -> list[str]:
    """Capacities in TB with one decimal (blank when unknown)."""
    return ["" if tb is None else format_tb(tb) for tb in terabytes]


def texts(values: Sequence[object]) -> list[str]:
    """Cells that are already text (or whose ``str`` is the cell)."""
    return [str(v) for v in values]
