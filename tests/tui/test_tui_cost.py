"""The cost columns in the TUI's compare table, the Drive price field and the export.

One app start-up. tui_scenario.yaml priced here: 300 EUR a drive, 10 W, 0.20 EUR/kWh,
1,000 EUR a RAID group, ARR 1.9%, 5 years (43,800 h). raid-dp 9 for 42 data drives: 6
groups of 9 = 54 drives, 6 x 7 x 4 TB = 168 usable TB, worked by hand:

* purchase 54 x 300 + 6 x 1,000 = 22,200; replacements 54 x 1.9% x 5 = 5.13 drives, 1,539;
  energy 54 x 10 W x 43,800 h = 23,652 kWh, 4,730.40; TCO 28,469.40, 169.46 a TB.
* at 400 EUR a drive: purchase 27,600, replacements 2,052, TCO 34,382.40.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import SCENARIO, app_of, field_input, retype, settle
from textual.widgets import DataTable

from planner.tui import make_app

pytestmark = pytest.mark.asyncio

PRICES = """\
  price: 300        # example price
  watts: 10
costs:
  energy_per_kwh: 0.20
  per_group: 1000
  currency: EUR
"""


def priced_copy(tmp_path: Path) -> Path:
    text = SCENARIO.read_text(encoding="utf-8")
    drive_end = "  capacity_tb: 4\n"
    assert text.count(drive_end) == 1
    target = tmp_path / "priced.yaml"
    target.write_text(text.replace(drive_end, drive_end + PRICES), encoding="utf-8")
    return target


def cells(table: DataTable[object], label: str) -> dict[str, str]:
    headers = [" ".join(str(column.label).split()) for column in table.columns.values()]
    return dict(zip(headers, (str(cell) for cell in table.get_row(label)), strict=True))


async def test_compare_table_prices_each_layout(tmp_path: Path) -> None:
    path = priced_copy(tmp_path)
    async with make_app(path).run_test(size=(320, 40)) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        table = app.query_one("#compare-table", DataTable)
        row = cells(table, "raid-dp 9")
        assert row["Purchase (EUR)"] == "22,200"
        assert row["Replaced (drives)"] == "5.13"
        assert row["Energy (EUR)"] == "4,730"
        assert row["TCO (EUR)"] == "28,469"
        # 6 groups of 7 data drives x 4 TB x 0.9 usable (issue 20: one meaning of usable TB)
        assert pytest.approx(188.3, abs=0.05) == 28_469 / (6 * 7 * 4 * 0.9)
        assert row["TCO/TB (EUR)"] == "188"
        assert field_input(app, "drive-price").value == "300"

        await retype(pilot, "drive-price", "-4")  # refused: the table keeps the last prices
        assert "must be at least 0" in app.field_errors["drive-price"]
        assert cells(table, "raid-dp 9")["TCO (EUR)"] == "28,469"

        await retype(pilot, "drive-price", "400")
        assert app.field_errors == {}
        assert app.scenario.drive.price == 400
        row = cells(table, "raid-dp 9")
        assert row["Purchase (EUR)"] == "27,600"
        assert row["TCO (EUR)"] == "34,382"

        await pilot.press("ctrl+o")
        await settle(pilot)
    exported = path.with_name("priced-comparison.md").read_text(encoding="utf-8")
    assert "| TCO (EUR) |" in exported
    assert "| 27,600 | 5.13 | 4,730 | 34,382 | 227 |" in exported  # / (42 x 4 x 0.9) TB
    assert "- Cost: purchase = drives x 400 EUR + groups x 1,000 EUR;" in exported


async def test_hot_spares_are_in_the_tables_drives_and_cost(tmp_path: Path) -> None:
    # issue 20: 2 dedicated hot spares beside raid-dp 9's 6 groups of 9 drives
    path = priced_copy(tmp_path)
    async with make_app(path, overrides=["aggregate.hot_spares=2"]).run_test(
        size=(320, 40)
    ) as pilot:
        await settle(pilot)
        table = app_of(pilot).query_one("#compare-table", DataTable)
        row = cells(table, "raid-dp 9")
        assert row["Total drives"] == str(6 * 9 + 2)
        assert row["Purchase (EUR)"] == f"{(6 * 9 + 2) * 300 + 6 * 1000:,}"
