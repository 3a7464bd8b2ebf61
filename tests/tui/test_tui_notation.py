"""The compare table keeps readable numbers when an n+8 layout joins the shipped scenario."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import app_of, open_add_dialog, settle
from textual.widgets import DataTable, Input

from planner.core.markov.rates import HOURS_PER_YEAR
from planner.tui import make_app

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "ns3574-default.yaml"

pytestmark = pytest.mark.asyncio


def cells(table: DataTable[object], label: str) -> dict[str, str]:
    headers = [" ".join(str(column.label).split()) for column in table.columns.values()]
    return dict(zip(headers, (str(cell) for cell in table.get_row(label)), strict=True))


async def test_adding_n_plus_8_keeps_mttdl_in_words_and_the_baseline_at_one() -> None:
    # Once the n+8 group's 7.6e+25 years and 3e-21x turned MTTDL into 3.8e+08 and the
    # baseline into 1.00e+00x.
    async with make_app(SCENARIO).run_test(size=(320, 40)) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        dialog = await open_add_dialog(pilot)
        dialog.query_one("#add-preset").value = "custom"  # type: ignore[attr-defined]
        await settle(pilot)
        dialog.query_one("#add-parity", Input).value = "8"
        dialog.query_one("#add-size", Input).value = "16"
        await pilot.click("#add-ok")
        await settle(pilot)
        table = app.query_one("#compare-table", DataTable)
        results = {r.layout.label: r for r in app.comparison.results}  # type: ignore[union-attr]
        assert "n+8 16" in results

        triple = cells(table, "raid-tp 12")
        years = results["raid-tp 12"].mttdl_hours / HOURS_PER_YEAR
        assert 1e8 < years < 1e9
        words = f"{round(years / 1e6, -1):.0f} million"  # 2 significant digits, in millions
        assert triple["MTTDL group (years)"] == words

        base = cells(table, "raid-dp 9")
        assert base["Risk vs base per aggr."] == "1.00×"
        assert base["Risk vs base per group"] == "1.00×"
        mirrors = cells(table, "raid10 2")
        assert "e" not in mirrors["P(loss) aggregate"]
        assert float(mirrors["P(loss) aggregate"].rstrip("%")) == pytest.approx(
            100 * results["raid10 2"].p_loss_aggregate, rel=0.05
        )
        n8 = cells(table, "n+8 16")
        assert "e-" in n8["P(loss) group"]  # ~1e-24 %: fixed would be a wall of zeros
