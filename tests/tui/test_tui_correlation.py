"""The correlation fields in the TUI and the compare table's independent risk.

One app start-up on tui_scenario.yaml with a ``correlation`` section added: the three fields
show, a typed multiplier reaches the scenario and the table's "× independent" column, a
refused value keeps the last one, and the compare table's P(loss) if independent is the
aggregate's P(loss) of the same file without the section (the analysis layer's number).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import SCENARIO, app_of, field_input, retype, settle
from textual.widgets import DataTable

from planner.analysis.compare import comparison
from planner.report.percentages import percent_column
from planner.scenario import load_scenario
from planner.tui import make_app

pytestmark = pytest.mark.asyncio

SECTION = """
correlation:
  degraded_multiplier: 2   # rebuild stress
  shocks_per_year: 0.1
"""


def cells(table: DataTable[object], label: str) -> dict[str, str]:
    headers = [" ".join(str(column.label).split()) for column in table.columns.values()]
    return dict(zip(headers, (str(cell) for cell in table.get_row(label)), strict=True))


async def test_correlation_fields_and_columns(tmp_path: Path) -> None:
    path = tmp_path / "correlated.yaml"
    path.write_text(SCENARIO.read_text(encoding="utf-8") + SECTION, encoding="utf-8")
    independent = comparison(load_scenario(SCENARIO))
    async with make_app(path).run_test(size=(320, 40)) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        assert field_input(app, "correlation-degraded-multiplier").value == "2"
        assert field_input(app, "correlation-shocks-per-year").value == "0.1"
        assert field_input(app, "correlation-shock-drive-probability").value == "1.2%"
        table = app.query_one("#compare-table", DataTable)
        p_independent = [r.p_loss_aggregate for r in independent.results]
        shown = percent_column(p_independent)
        for result, text in zip(independent.results, shown, strict=True):
            assert cells(table, result.layout.label)["P(loss) indep."] == text
        before = cells(table, "raid-dp 9")["× indep."]

        await retype(pilot, "correlation-degraded-multiplier", "0.5")  # refused
        assert "drives would fail less often" in app.field_errors["correlation-degraded-multiplier"]
        await retype(pilot, "correlation-degraded-multiplier", "4")
        assert app.field_errors == {}
        assert app.scenario.correlation is not None
        assert app.scenario.correlation.degraded_multiplier == 4
        assert cells(table, "raid-dp 9")["× indep."] != before
