"""The ageing fields in the TUI and the compare table's ageing columns.

One app start-up on tui_scenario.yaml with an ``ageing`` section given by year: the ARR by
year and the drives' age show as fields, the compare table shows P(loss) ageing and its
bracket as the analysis layer computes them, a typed table reaches the scenario and the
columns (and saving writes it on one line, as typed), a refused table keeps the last one.
A table's chain is exact: its bracket reads ``exact``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import SCENARIO, app_of, field_input, retype, settle
from textual.widgets import DataTable

from planner.analysis.compare import comparison
from planner.report.ageing import bracket_column
from planner.report.percentages import percent_column
from planner.scenario import load_scenario
from planner.tui import make_app

pytestmark = pytest.mark.asyncio

SECTION = """
ageing:
  arr_by_year: [1%, 2%, 4%]   # by year of service
  drive_age_years_at_start: 1
"""


def cells(table: DataTable[object], label: str) -> dict[str, str]:
    headers = [" ".join(str(column.label).split()) for column in table.columns.values()]
    return dict(zip(headers, (str(cell) for cell in table.get_row(label)), strict=True))


async def test_ageing_fields_and_columns(tmp_path: Path) -> None:
    path = tmp_path / "ageing.yaml"
    path.write_text(SCENARIO.read_text(encoding="utf-8") + SECTION, encoding="utf-8")
    expected = comparison(load_scenario(path))
    async with make_app(path).run_test(size=(320, 40)) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        assert field_input(app, "ageing-arr-by-year").value == "1%, 2%, 4%"
        assert field_input(app, "ageing-drive-age-years-at-start").value == "1"
        table = app.query_one("#compare-table", DataTable)
        aged = [r.aged for r in expected.results]
        assert all(a is not None for a in aged)
        values = percent_column([a.p_loss_aggregate for a in aged if a is not None])
        brackets = bracket_column(
            [(a.p_loss_aggregate_low, a.p_loss_aggregate_high) for a in aged if a is not None]
        )
        for result, value, bracket in zip(expected.results, values, brackets, strict=True):
            row = cells(table, result.layout.label)
            assert row["P(loss) ageing"] == value
            assert row["Ageing bracket"] == bracket == "exact"
        before = cells(table, "raid-dp 9")["P(loss) ageing"]

        await retype(pilot, "ageing-arr-by-year", "1%, 2%, 150%")  # refused
        assert "below 100%" in app.field_errors["ageing-arr-by-year"]
        await retype(pilot, "ageing-arr-by-year", "2%, 4%, 8%")
        assert app.field_errors == {}
        assert app.scenario.ageing is not None
        assert app.scenario.ageing.arr_by_year == [0.02, 0.04, 0.08]
        assert cells(table, "raid-dp 9")["P(loss) ageing"] != before
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = path.read_text(encoding="utf-8")
        assert "  arr_by_year: [2%, 4%, 8%]   # by year of service\n" in saved


async def test_the_arr_by_year_list_is_shown_whole_at_120_and_80_columns() -> None:
    """Newcomer review: the shipped ageing scenario's ARR/year field showed "2.16%, 3.52%, 5"
    at 120x40 and lost its last value at 80x24: a list field spans two grid cells."""
    shipped = Path(__file__).resolve().parents[2] / "scenarios" / "ageing-fleet.yaml"
    async with make_app(shipped).run_test(size=(120, 40)) as pilot:
        for size in [(120, 40), (80, 24)]:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            box = field_input(app_of(pilot), "ageing-arr-by-year")
            text = box.value
            inner = box.content_region.width
            assert len(text) <= inner, (size, text, inner)
