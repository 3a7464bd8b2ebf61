"""Numbers as a person reads them: 1 in 48,000, 1,500 years, 160×, 77 million.

Every formatter takes any float, NaN and infinities included, and returns text: a table
must never fail to draw (a NaN once closed the TUI from here). NaN reads ``n/a`` and the
infinities ``∞`` and ``-∞``. The column rule below holds for every column; probabilities as
percentages (``0.33%``, ``≈100%``) are :mod:`planner.report.percentages`'.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from planner.core.markov.rates import HOURS_PER_YEAR

_LARGE_WORDS = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))


def not_finite_text(value: float) -> str | None:
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
    return _fixed_rounded(significant(value, digits), digits)


def _fixed_rounded(rounded: float, digits: int) -> str:
    """:func:`_fixed` of a value already rounded to ``digits`` significant digits."""
    if rounded == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(rounded))))
    return f"{rounded:,.{decimals}f}"


def format_count(value: float, digits: int = 2) -> str:
    """A large count in words past a million: 48,000; 77 million; 2.3 billion; 4.1e+15."""
    special = not_finite_text(value)
    if special is not None:
        return special
    return count_words_column([value], digits)[0]


def hours_text(hours: float) -> str:
    """Hours to 3 significant figures, as the rebuild notes and the sizing show them."""
    return format_count(hours, 3)


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
    special = not_finite_text(hours)
    if special is not None:
        return special
    return f"{format_count(hours / HOURS_PER_YEAR)} years"


def format_ratio(ratio: float) -> str:
    """A relative risk with 3 significant digits: 160×, 1.00×, 0.000624×, 48.1 billion×.

    As one cell of :func:`ratio_column`: below a ten-billionth (more than
    :data:`MAX_FIXED_DECIMALS` decimals) scientific, 1.47e-11×.
    """
    special = not_finite_text(ratio)
    if special is not None:
        return special
    return ratio_column([ratio])[0]


def format_rel_error(rel_error: float) -> str:
    """A relative half-width: ``±8.6%``; ``—`` when undefined (no loss seen)."""
    if not math.isfinite(rel_error):
        return "—"
    percent = 100 * rel_error
    return f"±{percent:.1f}%" if percent < 10 else f"±{percent:,.0f}%"


def format_tb(terabytes: float) -> str:
    """A capacity in TB with one decimal: 12.6 TB, in words past a million (1.20 million).

    With 3 significant digits in words, and an exponent from 1e15, as the column rule says.
    """
    special = not_finite_text(terabytes)
    if special is not None:
        return special
    if abs(terabytes) >= HUGE:
        return f"{terabytes:.2e}"
    size = abs(significant(terabytes, 3))  # 999,999,999 reads 1.00 billion
    if abs(round(terabytes, 1)) >= 1e6:
        scale, word = next((scale, word) for scale, word in _LARGE_WORDS if size >= scale)
        return f"{_fixed(terabytes / scale, 3)} {word}"
    return f"{terabytes:,.1f}"


# Column formatters: each sees the whole column, so that a column has one notation and one
# precision (never 6.7e-09% beside 0.0000098%, nor 0.0027 beside 0.01).
#
# The column rule, in the cell's own unit (13 for 13%): a value of 1 or more reads fixed with
# thousands separators (33, 1,200, 1.00×), in words past a million (380 million) and with an
# exponent only from 1e15 (4.1e+15), whatever the rest of its column. The values below 1
# share one notation a column: fixed (0.0027, 0.0000098%), unless one of them would need more
# than MAX_FIXED_DECIMALS decimals; then every value below 1 is scientific (6.6e-24%,
# 3.3e-01%) while 13% and 1.00× stay as they are.

MAX_FIXED_DECIMALS = 10
"""The most decimals a fixed cell has (0.0000000030% has 10): a column needing more for one of
its values is scientific below 1, where fixed notation would be a wall of zeros."""

HUGE = 1e15
"""From here a value of a column has an exponent (4.1e+15): past trillions, words stop helping."""


def _scientific(value: float, digits: int) -> str:
    return f"{value:.{digits - 1}e}"


def _decimals(value: float, digits: int) -> int:
    """Decimals ``value`` takes in fixed notation with ``digits`` significant digits."""
    rounded = significant(value, digits)
    if rounded == 0 or not math.isfinite(rounded):
        return 0
    return max(0, digits - 1 - math.floor(math.log10(abs(rounded))))


def needs_scientific(values: Iterable[float], digits: int = 2) -> bool:
    """True when one of ``values`` would need more than :data:`MAX_FIXED_DECIMALS` decimals.

    Fixed notation is then unreadable, so the column's values below 1 are all scientific.
    """
    below = 10.0 ** (digits - MAX_FIXED_DECIMALS)  # every value needing more is under this
    return any(0 < abs(v) < below and _decimals(v, digits) > MAX_FIXED_DECIMALS for v in values)


def number_cell(value: float, digits: int, scientific: bool) -> str:
    """One finite, non-zero cell of a column whose notation below 1 is ``scientific``."""
    exponent = math.floor(math.log10(abs(value)))
    try:
        rounded = round(value, digits - 1 - exponent)
    except OverflowError:  # 1.8e308 rounds up past the largest float
        return _scientific(value, digits)
    size = abs(rounded)
    if size >= 10.0 ** (exponent + 1):  # 9.96 rounds up to 10
        exponent += 1
    if size < 1 and scientific:
        return _scientific(value, digits)
    if size < 1e6:
        return f"{rounded:,.{max(0, digits - 1 - exponent)}f}"
    if size >= HUGE:
        return _scientific(value, digits)
    scale, word = next((scale, word) for scale, word in _LARGE_WORDS if size >= scale)
    return f"{_fixed(value / scale, digits)} {word}"


def ratio_column(ratios: Sequence[float], digits: int = 3) -> list[str]:
    """Relative risks with ``digits`` significant digits and ×, one notation a column.

    ``160×``, ``1.00×``, ``0.000624×``, ``48.1 billion×``; when a ratio would need more than
    :data:`MAX_FIXED_DECIMALS` decimals, every ratio below 1 is scientific (``3.16e-21×``)
    while the baseline's ``1.00×`` stays. ∞ for a ratio to a zero baseline.
    """
    scientific = needs_scientific(ratios, digits)

    def one(r: float) -> str:
        if math.isnan(r):
            return "n/a"
        if math.isinf(r):
            return "∞"
        if r == 0:
            return "0×"
        return f"{number_cell(r, digits, scientific)}×"

    return [one(r) for r in ratios]


def _stripped(text: str) -> str:
    """``text`` without the trailing zeros of its decimals: ``0.7`` for ``0.7000``."""
    mantissa, e, exponent = text.partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + e + exponent


def plain_column(values: Sequence[float], digits: int = 4) -> list[str]:
    """Values as a scenario file writes them: ``0.7``, ``0.000108``, ``168``, ``2.5 million``.

    Up to ``digits`` significant digits, no trailing zeros (``12,345`` keeps its whole part).

    One notation a column, as the column rule says: below 1 fixed unless one value would
    need more than :data:`MAX_FIXED_DECIMALS` decimals, then all of them scientific
    (``1.08e-04``).
    """

    def fixed(v: float) -> str:
        size = abs(v)
        if size >= HUGE:
            return _stripped(_scientific(v, digits))
        if size >= 1e6:
            scale, word = next((scale, word) for scale, word in _LARGE_WORDS if size >= scale)
            return f"{_stripped(_fixed(v / scale, digits))} {word}"
        shown = significant(v, digits) if size < 1 else v
        decimals = max(0, digits - 1 - math.floor(math.log10(abs(shown))))
        return _stripped(f"{shown:,.{decimals}f}")

    def decimals(text: str) -> int:
        return len(text.partition(".")[2])

    cells = {i: fixed(v) for i, v in enumerate(values) if math.isfinite(v) and v != 0}
    scientific = any(
        0 < abs(values[i]) < 1 and decimals(text) > MAX_FIXED_DECIMALS for i, text in cells.items()
    )

    def one(i: int, v: float) -> str:
        special = not_finite_text(v)
        if special is not None:
            return special
        if v == 0:
            return "0"
        if scientific and abs(significant(v, digits)) < 1:
            return _stripped(_scientific(v, digits))
        return cells[i]

    return [one(i, v) for i, v in enumerate(values)]


def signed_column(values: Sequence[float], decimals: int = 2, digits: int = 2) -> list[str]:
    """Signed numbers (elasticities): ``+2.00``, ``+0.86``, ``-0.000087``, ``0``.

    ``decimals`` decimals from ``10**-decimals`` up, ``digits`` significant digits below; one
    notation a column as the column rule says (below 1 scientific, ``-8.7e-13``, only when
    one value would need more than :data:`MAX_FIXED_DECIMALS` decimals).
    """
    scientific = needs_scientific(values, digits)

    def one(v: float) -> str:
        if not math.isfinite(v):
            return "n/a"
        if v == 0:
            return "0"
        rounded = abs(round(v, decimals))
        if 10.0**-decimals <= rounded < 1e6 and not (scientific and rounded < 1):
            return f"{v:+,.{decimals}f}"  # 0.99996 reads +1.00
        text = number_cell(v, digits, scientific)
        return text if text.startswith("-") else f"+{text}"

    return [one(v) for v in values]


def rate_column(per_hour: Sequence[float]) -> list[str]:
    """Rates per hour, 3 significant digits, one notation (``0.0000434``, ``0.000216``)."""
    return significant_column(per_hour, 3)


def significant_column(values: Sequence[float], digits: int = 2) -> list[str]:
    """Numbers with ``digits`` significant digits (``0.0027``, ``0.010``, ``33``, ``1,200``).

    Below 1, scientific for the whole column when one value would need more than
    :data:`MAX_FIXED_DECIMALS` decimals; 1 and more as the column rule says.
    """
    scientific = needs_scientific(values, digits)

    def one(v: float) -> str:
        if not math.isfinite(v):
            return "∞" if v > 0 else "n/a"
        if v == 0:
            return "0"
        return number_cell(v, digits, scientific)

    return [one(v) for v in values]


def count_words_column(values: Sequence[float], digits: int = 2) -> list[str]:
    """Counts in words past a million (``48,000``, ``77 million``, ``4.1e+15`` from 1e15).

    Each large count reads alone: ``380 million`` stays beside ``7.6e+25``.
    """
    return significant_column(values, digits)


def years_column(hours: Sequence[float]) -> list[str]:
    """Durations in hours shown in years (the unit goes in the column title)."""
    return count_words_column([h / HOURS_PER_YEAR for h in hours])


def integer_column(values: Sequence[int]) -> list[str]:
    """Whole numbers with thousands separators: ``1,040``."""
    return [f"{v:,}" for v in values]


def drives_column(values: Sequence[float]) -> list[str]:
    """Drive counts: a whole count as ``1,040``, a fractional one with one decimal, ``33.6``.

    A declustered pool's overhead (its parity share of the drives, and its spares) is
    fractional; a traditional layout's beside it stays a count of drives, ``96``, not
    ``96.0``, as the total drives and the drives per group read.
    """
    return [f"{int(v):,}" if float(v).is_integer() else f"{v:,.1f}" for v in values]


def tb_column(terabytes: Sequence[float | None]) -> list[str]:
    """Capacities in TB with one decimal, in words past a million (blank when unknown)."""
    return ["" if tb is None else format_tb(tb) for tb in terabytes]


def texts(values: Sequence[object]) -> list[str]:
    """Cells that are already text (or whose ``str`` is the cell)."""
    return [str(v) for v in values]


def groups_text(groups: int, exact_division: bool) -> str:
    """Groups with thousands separators, ``*`` marking an uneven division: ``1,040*``."""
    return f"{groups:,}" if exact_division else f"{groups:,}*"


def drives_worth(count: str) -> str:
    """``2 drives' worth``, or ``1 drive's worth``: ``count`` as the text shows it."""
    return f"{count} drive's worth" if count == "1" else f"{count} drives' worth"
