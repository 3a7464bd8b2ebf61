"""docs/correlated.md: its worked case and its calibration are what planner computes.

The tables between the page's markers are recomputed from the page's own scenario
(:mod:`correlated_case`: ``planner evaluate``'s analysis, the report's number formats) and
must match character for character; the calibration of the default q is recomputed from the
binomial law written out here.
"""

from __future__ import annotations

from math import comb

from correlated_case import PAGE, between_markers, worked_case

from planner.scenario.correlation import DEFAULT_SHOCK_DRIVE_PROBABILITY


def test_the_worked_case_is_what_planner_computes() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert between_markers(text) == worked_case(text)


def _another_with_the_first(drives: int, q: float) -> float:
    """P(j >= 2) / P(j >= 1) for j ~ Binomial(drives, q), summed term by term."""
    terms = [comb(drives, j) * q**j * (1 - q) ** (drives - j) for j in range(drives + 1)]
    return sum(terms[2:]) / sum(terms[1:])


def test_the_calibration_of_q() -> None:
    text = PAGE.read_text(encoding="utf-8")
    shown = text.split("<!-- calibration: start -->")[1].split("<!-- calibration: end -->")[0]
    values = [_another_with_the_first(n, DEFAULT_SHOCK_DRIVE_PROBABILITY) for n in (8, 14, 24)]
    assert shown == "{:.2g}, {:.2g} and {:.2g}".format(*values)
    for value, fitted in zip(values, (0.05, 0.09, 0.11), strict=True):
        assert abs(value / fitted - 1) < 0.21  # "each within 21 %"
