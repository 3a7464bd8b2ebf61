"""``planner tui``: a bad scenario is reported before the screen opens; a good one runs the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from planner.cli.app import app
from planner.tui import PlannerApp

SCENARIO = Path(__file__).with_name("tui_scenario.yaml")


def test_bad_scenario_exits_2_without_opening_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(SCENARIO.read_text().replace("rebuild_hours: 12", "rebuild_hours: -1"))
    monkeypatch.setattr(PlannerApp, "run", lambda self, **kw: pytest.fail("app opened"))
    result = CliRunner().invoke(app, ["tui", str(bad)])
    assert result.exit_code == 2
    assert "restore.rebuild_hours" in result.output


def test_good_scenario_runs_the_app_with_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[PlannerApp] = []

    def fake_run(self: PlannerApp, **kwargs: Any) -> None:
        opened.append(self)

    monkeypatch.setattr(PlannerApp, "run", fake_run)
    result = CliRunner().invoke(app, ["tui", str(SCENARIO), "--set", "drive.arr=3%"])
    assert result.exit_code == 0, result.output
    assert len(opened) == 1
    assert opened[0].scenario.drive.arr == pytest.approx(0.03)
    assert opened[0].scenario_path == SCENARIO
