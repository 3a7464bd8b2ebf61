"""The enclosures fields in the TUI and the compare table's enclosure columns (docs/domains.md).

One app start-up on tui_scenario.yaml with an ``enclosures`` section added: its three fields
show, the table's Encl./group and P(unavail.) columns hold the analysis layer's numbers, a
typed placement reaches the scenario and the table, a refused value keeps the last one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import SCENARIO, app_of, field_input, retype, settle
from test_tui_correlation import cells
from textual.widgets import DataTable

from planner.analysis.compare import comparison
from planner.report.percentages import percent_column
from planner.scenario import load_scenario
from planner.tui import make_app

pytestmark = pytest.mark.asyncio

SECTION = """
enclosures:
  failures_per_year: 0.2   # shelves
  members_per_enclosure: 2
"""


async def test_enclosure_fields_and_columns(tmp_path: Path) -> None:
    path = tmp_path / "enclosures.yaml"
    path.write_text(SCENARIO.read_text(encoding="utf-8") + SECTION, encoding="utf-8")
    expected = comparison(load_scenario(path))
    async with make_app(path).run_test(size=(320, 40)) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        assert field_input(app, "enclosures-failures-per-year").value == "0.2"
        assert field_input(app, "enclosures-repair-hours").value == "24"
        assert field_input(app, "enclosures-members-per-enclosure").value == "2"
        table = app.query_one("#compare-table", DataTable)
        shown = percent_column([r.enclosures.p_unavailable_group for r in expected.results])
        for result, text in zip(expected.results, shown, strict=True):
            row = cells(table, result.layout.label)
            assert row["P(unavail.) group"] == text
            assert row["Encl./ group"] == str(result.enclosures.placement.enclosures)
        before = cells(table, "raid-dp 9")["P(loss) group"]

        await retype(pilot, "enclosures-members-per-enclosure", "0")  # refused
        assert "enclosures-members-per-enclosure" in app.field_errors
        await retype(pilot, "enclosures-members-per-enclosure", "3")
        assert app.field_errors == {}
        assert app.scenario.enclosures is not None
        assert app.scenario.enclosures.members_per_enclosure == 3
        assert cells(table, "raid-dp 9")["Encl./ group"] == "3"
        assert cells(table, "raid-dp 9")["P(loss) group"] != before
