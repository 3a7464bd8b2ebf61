"""Every header names its column's unit, the narrow one (terminal table, TUI) as the wide.

The narrow header of the expected replacements read "Replace-ments" over figures like 9.60,
between "Purchase (USD)" and "Energy (USD)": read as dollars (newcomer review), while the
Markdown and the column picker said "Replacements (drives)". Failed first.
"""

from __future__ import annotations

import re
from typing import Any

from shipped import ROOT

from planner.analysis.compare import compare_data
from planner.report.comparison_columns import comparison_columns
from planner.report.sizing_columns import sizing_columns
from planner.report.table import Column
from planner.scenario import load_scenario

PRICED = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
"""A shipped scenario with drive prices and watts: every cost column is shown."""

WORKLOAD = ROOT / "scenarios" / "recommend-400tb.yaml"
"""A shipped scenario with a workload: the sizing table's columns."""


def unit_in_brackets(header: str) -> str | None:
    """The unit a one-line header ends with in brackets, ``Purchase (USD)`` -> ``USD``."""
    found = re.search(r"\(([^()]+)\)$", header)
    return None if found is None else found.group(1)


def shown_columns_of(*paths: Any) -> list[Column[Any]]:
    columns: list[Column[Any]] = []
    for path in paths:
        data = compare_data(load_scenario(path))
        columns += comparison_columns(data.comparison)
        if data.sizing is not None:
            columns += sizing_columns(data.sizing)
    return [column for column in columns if column.shown]


def test_the_narrow_header_names_the_unit_the_wide_one_names() -> None:
    columns = shown_columns_of(PRICED, WORKLOAD)
    headers = {column.header: column.narrow_header for column in columns}
    # the scenarios show what the review saw: money beside the replacement drives
    assert {"Purchase (USD)", "Replacements (drives)", "Energy (USD)"} <= headers.keys()
    for column in columns:
        unit = column.unit
        if unit and unit_in_brackets(column.header) == unit:
            assert f"({unit})" in column.narrow_header.replace("\n", " "), column.header
    assert "(drives)" in headers["Replacements (drives)"]
    assert "(USD)" in headers["Purchase (USD)"]
