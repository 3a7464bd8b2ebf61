"""Probabilities as percentages: 0.33%, 0.0021%, 2.0e-11%, and ``≈100%`` for a risk of 1.

A column has one notation by :mod:`planner.report.numbers`' rule: fixed, unless one
percentage would need more than :data:`~planner.report.numbers.MAX_FIXED_DECIMALS`
decimals, then scientific below 1%. A probability below 1 never reads as certain
(``99.9998%``), and a model's risk of exactly 1 reads ``≈100%`` (:func:`risk_column`). As
every formatter of :mod:`planner.report.numbers`, each takes NaN and the infinities.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from planner.report.numbers import (
    MAX_FIXED_DECIMALS,
    needs_scientific,
    not_finite_text,
    number_cell,
    significant,
)


def format_percent(p: float, digits: int = 2) -> str:
    """A probability as a percentage with ``digits`` significant digits: 0.33%, 0.0021%.

    As one cell of :func:`percent_column`: fixed unless it would need more than
    :data:`MAX_FIXED_DECIMALS` decimals (0.0000000020% has 10), then scientific: 2.0e-11%.
    """
    special = not_finite_text(p)
    if special is not None:
        return special
    return percent_column([p], digits)[0]


def percent_column(probabilities: Sequence[float], digits: int = 2) -> list[str]:
    """Probabilities as percentages with ``digits`` significant digits, one notation a column.

    Fixed (``13%``, ``0.33%``, ``0.0021%``) unless a percentage would need more than
    :data:`MAX_FIXED_DECIMALS` decimals; then every one below 1% is scientific
    (``3.3e-01%``, ``6.6e-24%``) and ``13%`` stays.
    """
    percents = [100 * p for p in probabilities]
    scientific = needs_scientific(percents, digits)
    return [_percent_text(x, digits, scientific) for x in percents]


def risk_column(probabilities: Sequence[float], digits: int = 2) -> list[str]:
    """A model's risks as :func:`percent_column` says, where 1 reads ``≈100%``, not ``100%``.

    A Markov chain over a finite mission never loses data for certain: a risk of exactly 1
    is one that floating point rounded up from ``1 - 1e-17`` or so (ARR 50 %, groups of 20).
    It reads as one a little further from certain (``≈100%``) does, not as certain.
    """
    texts = percent_column(probabilities, digits)
    return ["≈100%" if p == 1 else text for p, text in zip(probabilities, texts, strict=True)]


def near_certain_notes(probabilities: Iterable[float]) -> list[str]:
    """What ``≈100%`` means, when :func:`risk_column` writes one of ``probabilities`` so.

    A risk of 1, or one that rounds to 100 at :data:`MAX_FIXED_DECIMALS` decimals of a
    percent, reads ``≈100%``. Pass a column's largest risks (the aggregate's): a group's is
    never above its aggregate's.
    """
    # a NaN first would hide the rest from max(): it is no risk, left out
    highest = 100 * float(max((p for p in probabilities if p == p), default=0.0))
    if not round(highest, MAX_FIXED_DECIMALS) >= 100:
        return []
    return [
        "≈100%: less than 0.0000000001% short of certain. A chain over a finite mission "
        "never loses data for certain; the digits run out first."
    ]


def _percent_text(percent: float, digits: int, scientific: bool) -> str:
    """One percentage of a column, in the column's notation: ``0.33%``, ``0%``, ``n/a``."""
    if not math.isfinite(percent):
        return "n/a"
    if percent == 0:
        return "0%"
    if 100 - 10.0 ** (2 - digits) / 2 <= percent < 100:
        return _below_hundred(percent)
    return f"{number_cell(percent, digits, scientific)}%"


def _below_hundred(percent: float) -> str:
    """A percentage under 100 that would round to it: the fewest decimals that stay under.

    A probability below 1 never reads as certain: 99.51% is ``99.5%``, 99.9998% is
    ``99.9998%`` (``100%`` for both before). Closer to 100 than
    :data:`MAX_FIXED_DECIMALS` decimals show, it is ``≈100%``.
    """
    for decimals in range(1, MAX_FIXED_DECIMALS + 1):
        rounded = round(percent, decimals)
        if rounded < 100:
            return f"{rounded:.{decimals}f}%"
    return "≈100%"


def percent_interval_column(
    intervals: Sequence[tuple[float, float] | None], digits: int = 2
) -> list[str]:
    """Intervals of probabilities (``0.0059%–0.0066%``), one notation a column; blank for None.

    Each interval has digits enough for its ends to differ (``digits`` to ``digits + 2``);
    its ends follow :func:`percent_column`'s rule over every end of the column, so
    ``0.19%–0.20%`` stands beside ``0.00000026%–0.00000039%``, never ``2.6e-07%–3.9e-07%``.
    """

    def precision(low: float, high: float) -> int:
        for more in range(digits, digits + 3):
            if significant(100 * low, more) != significant(100 * high, more):
                return more
        return digits + 2

    shown = [None if i is None else (100 * i[0], 100 * i[1], precision(*i)) for i in intervals]
    scientific = any(needs_scientific(s[:2], s[2]) for s in shown if s is not None)
    return [
        ""
        if s is None
        else f"{_percent_text(s[0], s[2], scientific)}–{_percent_text(s[1], s[2], scientific)}"
        for s in shown
    ]
