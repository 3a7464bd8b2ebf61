"""docs/ageing.md: its worked case is what planner computes (:mod:`ageing_case`).

The tables between the page's markers are recomputed (``planner evaluate``'s analysis, the
simulator with the page's seed, the report's number formats) and must match character for
character.
"""

from __future__ import annotations

from ageing_case import PAGE, between_markers, worked_case


def test_the_worked_case_is_what_planner_computes() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert between_markers(text) == worked_case()
