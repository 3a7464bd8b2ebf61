"""Numbers as a person reads them: 0.33%, 0.0021%, 1 in 48,000, 1,500 years.

Every formatter takes any float, NaN and infinities included, and returns text: a table
must never fail to draw (a NaN once closed the TUI from here). NaN reads ``n/a`` and the
infinities ``∞`` and ``-∞``.
"""

from __future__ import annotations

import math

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
