"""``planner tui``: a bad scenario is reported before the screen opens; a good one runs the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from planner.cli.app import app
from planner.scenario import ScenarioError
from planner.tui import PlannerApp
from planner.tui.source import ScenarioSource

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


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("name: t\nlayouts:\n  - raid: [raid10,\n  - parity: 2\n", id="unclosed ["),
        pytest.param('name: "t\nmission_years: 5\n', id="unclosed quote"),
        pytest.param("drive:\n  arr:2%\n", id="no space after a colon"),
    ],
)
def test_a_yaml_mistake_reads_as_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """``planner tui FILE`` and a reload (Ctrl+R) say what ``planner evaluate FILE`` says.

    Both take the scenario layer's error: the command loads the file before the screen
    opens, and a reload reads it with ``ScenarioSource`` and puts ``Reload failed: `` before
    the error's text (``FileActions._reload``; tests/tui/test_tui_faults.py checks that
    notice in a Pilot session).
    """
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    evaluated = CliRunner().invoke(app, ["evaluate", str(bad)])
    assert evaluated.exit_code == 2
    (line,) = evaluated.stderr.splitlines()
    monkeypatch.setattr(PlannerApp, "run", lambda self, **kw: pytest.fail("app opened"))
    opened = CliRunner().invoke(app, ["tui", str(bad)])
    assert opened.exit_code == 2
    assert opened.stderr.splitlines() == [line]
    with pytest.raises(ScenarioError) as reloaded:
        ScenarioSource.read(bad).plan()
    assert f"planner: error: {reloaded.value}" == line
    assert "not valid YAML" in line or "drive: expected a mapping" in line
