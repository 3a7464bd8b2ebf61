r"""Tick labels of a log axis as plain text: ``10⁻⁶`` and ``2×10⁻⁶``, not math text.

matplotlib labels a log axis with math text (``$\mathdefault{10^{-6}}$``), which its
math parser lays out on every save: the two pictures of ``planner report`` spent a quarter
of their time there (its cache holds 50 labels, fewer than the two pictures draw). The same
labels written with Unicode superscripts are plain text, drawn in the same font, and the
same ticks are labelled (matplotlib's own formatter chooses them).

matplotlib is imported inside :func:`plain_log_ticks` only, as in
:mod:`planner.report.sweep_plot`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axis import Axis

_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_MATH_TEXT = re.compile(r"\$\\mathdefault\{(.*)\}\$")
_POWER = re.compile(r"\^\{(-?\d+)\}")


def plain_label(label: str) -> str:
    r"""A log-axis label in math text as plain text; any other label as it is.

    ``$\mathdefault{10^{-6}}$`` reads ``10⁻⁶``, ``$\mathdefault{2\times10^{-6}}$`` reads
    ``2×10⁻⁶`` and ``$\mathdefault{1}$`` reads ``1``. A label with other math (a
    fractional power) stays math text.
    """
    match = _MATH_TEXT.fullmatch(label)
    if match is None:
        return label
    body = match.group(1).replace("\\times", "×")
    body = _POWER.sub(lambda power: power.group(1).translate(_SUPERSCRIPTS), body)
    return label if any(mark in body for mark in "\\{}^$") else body


def plain_log_ticks(axis: Axis) -> None:
    """Label the log-scaled ``axis`` (base 10) in plain text, the same ticks as matplotlib's.

    Raises:
        ImportError: matplotlib is not installed.
    """
    from matplotlib.ticker import LogFormatterSciNotation

    class PlainLogFormatter(LogFormatterSciNotation):
        """matplotlib's log formatter (which ticks get labels), its labels as plain text."""

        def __call__(self, x: float, pos: int | None = None) -> str:
            return plain_label(super().__call__(x, pos))

    # As matplotlib's log scale sets them: base 10, every tick may be labelled.
    axis.set_major_formatter(PlainLogFormatter(base=10))
    axis.set_minor_formatter(PlainLogFormatter(base=10))
