"""Every report table is drawn by planner.report.render, and every shared figure declared once.

Checked on the source of the report modules (so a module added later is covered too):

* only :mod:`planner.report.render` draws a table: no other report module calls the table
  primitives (a Rich table's construction, a Markdown table, fitting a width, the CSV and
  JSON encoders);
* a figure of :mod:`planner.report.figures` ("P(loss) aggregate", "Total drives", ...) is
  titled nowhere else: a table binds the declared figure instead of repeating it.

Both checks are shown to catch what they look for (the last test).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from planner.report import figures

REPORT = Path(figures.__file__).parent

DRAWS_TABLES = frozenset(
    {"rich_table_for", "markdown_table", "fit_columns", "table_cells", "csv_text", "json_text"}
)
"""The primitives of planner.report.table that draw a table or encode it; render.py alone
calls them."""

ALLOWED = {"render.py", "table.py"}
"""render.py draws the tables with table.py's primitives."""

NOT_YET = {"sweep.py", "sweep_columns.py"}
"""h/speed's sweep modules (issue 22 moves their types and columns; until it lands)."""

DECLARED = {
    value.header
    for value in vars(figures).values()
    if isinstance(value, figures.Figure) and value is not figures.GROUPS_MARKED
}
"""The titles figures.py declares ("Groups" is a plain word: its two forms are declared)."""


def report_modules() -> list[Path]:
    return sorted(p for p in REPORT.glob("*.py") if p.name not in ALLOWED | NOT_YET)


def draws(source: str) -> list[str]:
    """The table primitives ``source`` calls, by name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in DRAWS_TABLES:
                found.append(name)
    return found


def titles(source: str) -> list[str]:
    """The declared figures' titles written out in ``source`` as string literals."""
    return [
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and node.value in DECLARED
    ]


@pytest.mark.parametrize("path", report_modules(), ids=lambda p: p.name)
def test_only_render_draws_a_table(path: Path) -> None:
    assert draws(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "path", [p for p in report_modules() if p.name != "figures.py"], ids=lambda p: p.name
)
def test_no_module_titles_a_declared_figure_again(path: Path) -> None:
    assert titles(path.read_text(encoding="utf-8")) == []


def test_the_checks_have_teeth() -> None:
    assert draws("keep = fit_columns(columns, rows, width)\n") == ["fit_columns"]
    assert draws("from planner.report import table\ntable.markdown_table(c, r)\n")
    assert titles('Column("P(loss) aggregate", lambda r: r.p, percent_column)\n')
    assert {"P(loss) group", "Total drives"} <= DECLARED
    assert {p.name for p in report_modules()} >= {"comparison.py", "sizing_columns.py"}
