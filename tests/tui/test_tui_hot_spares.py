"""The TUI shows the hot spares' shorter wait as the CLI does (a buyer's review).

``today-20tb-nl-sas.yaml`` with a 72 h wait for a replacement and 4 dedicated hot spares:
the compare table, its notes, the sweep (F3), the model view (F4) and the tornado (F5) all
take the spares in with the aggregate's groups (tests/analysis/test_hot_spares_wait.py
checks the figures themselves against the chain in mpmath).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import app_of, settle
from textual.widgets import DataTable, Static
from typer.testing import CliRunner

from planner.cli import app as cli
from planner.tui import make_app
from planner.tui.model_view import ModelView
from planner.tui.sweep_view import SweepView

pytestmark = pytest.mark.asyncio

TODAY = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"
BRIEF = ["restore.replace_delay_hours=72", "aggregate.hot_spares=4"]
RAID6 = "RAID 6 (10+2)"


def _cli_cell(header: str) -> str:
    args = ["evaluate", str(TODAY), "-f", "markdown"]
    result = CliRunner().invoke(cli, [*args, *(w for o in BRIEF for w in ("--set", o))])
    assert result.exit_code == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("|")]
    headers = [h.strip() for h in lines[0].strip("|").split("|")]
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if RAID6 in cells[0]:
            return cells[headers.index(header)]
    raise AssertionError(f"no {RAID6} row")


async def test_every_view_takes_the_spares_in() -> None:
    async with make_app(TODAY, overrides=BRIEF).run_test(size=(320, 40)) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        assert app.comparison is not None
        result = next(r for r in app.comparison.results if r.layout.label == RAID6)
        table = app.query_one("#compare-table", DataTable)
        headers = [" ".join(str(c.label).split()) for c in table.columns.values()]
        row = [str(cell).strip() for cell in table.get_row(RAID6)]
        for header, exported in (("P(loss) aggregate",) * 2, ("Rebuild h", "Rebuild hours")):
            assert row[headers.index(header)] == _cli_cell(exported), header
        assert row[headers.index("Rebuild h")] == "77"  # not 149: the wait is a spare's
        notes = " ".join(str(app.query_one("#compare-notes", Static).render()).split())
        assert "rebuilt onto a free spare at once" in notes

        await pilot.press("f3")
        await settle(pilot)
        n2 = {p.group_size: p for p in app.query_one(SweepView).series[1].points}
        assert n2[12].groups == result.shape.groups
        assert n2[12].p_loss_aggregate == pytest.approx(result.p_loss_aggregate, rel=1e-9)

        await pilot.press("f4")
        await settle(pilot)
        subject = app.query_one(ModelView).subject
        assert subject is not None
        assert subject.layout.label == RAID6  # the baseline, where the cursor starts
        assert subject.rates.rebuild_hours == result.rebuild_hours

        await pilot.press("f5")
        await settle(pilot)
        assert app.tornado is not None
        assert app.tornado.sensitivity.p_loss_aggregate == result.p_loss_aggregate
