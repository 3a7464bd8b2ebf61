"""F7 judges the target with the drives ageing, and says that figure (docs/ageing.md).

The decision is checked against a 40-digit chain in tests/analysis/test_recommend_ageing.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import app_of, settle
from textual.widgets import Static

from planner.report.percentages import format_percent
from planner.tui import make_app
from planner.tui.choose import ChooseView

AGEING = Path(__file__).resolve().parents[2] / "scenarios" / "ageing-fleet.yaml"


@pytest.mark.asyncio
async def test_the_choose_view_says_the_ageing_figure(tmp_path: Path) -> None:
    path = tmp_path / "ageing.yaml"
    text = AGEING.read_text(encoding="utf-8")
    path.write_text(text + "\ntarget:\n  max_p_loss: 0.003%\n", encoding="utf-8")
    async with make_app(path).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f7")
        await settle(pilot)
        view = app_of(pilot).query_one(ChooseView)
        report = view.report
        assert report is not None
        assert report.top is not None
        assert report.top.aged is not None
        words = " ".join(str(view.query_one("#choose-detail", Static).render()).split())
        assert f"Recommended: {report.top.layout.label}." in words
        aged = format_percent(report.top.aged.p_loss_aggregate)
        assert f"P(loss) {aged} with the drives ageing" in words
