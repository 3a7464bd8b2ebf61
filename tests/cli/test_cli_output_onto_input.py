"""``-o`` onto the scenario a command reads is refused (issue 21, items 1 and 6).

``planner evaluate s.yaml -o s.yaml`` exited 0 and replaced the user's scenario, comments
and all, with the table; ``recommend`` and ``report`` did the same. The same file is found by
inode (a hard link or a symbolic link to it too), not by comparing names.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "ns3574-table4.yaml"


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "s.yaml"
    path.write_bytes(SCENARIO.read_bytes())
    return path


def _one_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("planner: error: ")
    assert len(lines[0]) < 300
    return lines[0]


COMMANDS = [
    ["evaluate"],
    ["recommend"],
    ["report", "--time-budget", "0.1"],
    ["sweep"],
    ["sensitivity"],
    ["simulate"],
    ["compare-methods"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_output_onto_the_scenario_is_refused_and_the_file_kept(
    scenario: Path, command: list[str]
) -> None:
    before = scenario.read_bytes()
    result = CliRunner().invoke(app, [command[0], str(scenario), "-o", str(scenario), *command[1:]])
    assert result.exit_code == 2, result.output
    line = _one_line(result.stderr)
    assert str(scenario) in line
    assert "scenario" in line
    assert scenario.read_bytes() == before
    assert sorted(p.name for p in scenario.parent.iterdir()) == ["s.yaml"]


def test_size_output_onto_its_scenario_is_refused(tmp_path: Path) -> None:
    scenario = tmp_path / "w.yaml"
    scenario.write_bytes((ROOT / "scenarios" / "lenovo-s3200.yaml").read_bytes())
    before = scenario.read_bytes()
    result = CliRunner().invoke(app, ["size", str(scenario), "-o", str(scenario)])
    assert result.exit_code == 2
    _one_line(result.stderr)
    assert scenario.read_bytes() == before


@pytest.mark.parametrize("how", ["hard link", "symbolic link", "other spelling"])
def test_another_name_for_the_scenario_is_the_same_file(
    scenario: Path, tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = scenario.read_bytes()
    if how == "hard link":
        other = tmp_path / "alias.yaml"
        os.link(scenario, other)
    elif how == "symbolic link":
        other = tmp_path / "alias.yaml"
        other.symlink_to(scenario)
    else:
        monkeypatch.chdir(tmp_path)
        other = Path(".") / "sub" / ".." / "s.yaml"
        (tmp_path / "sub").mkdir()
    result = CliRunner().invoke(app, ["evaluate", str(scenario), "-o", str(other)])
    assert result.exit_code == 2, result.output
    _one_line(result.stderr)
    assert scenario.read_bytes() == before
    assert os.path.samefile(scenario, other)


def test_sweep_plot_onto_the_scenario_is_refused(scenario: Path) -> None:
    before = scenario.read_bytes()
    renamed = scenario.with_suffix(".svg")
    scenario.rename(renamed)
    result = CliRunner().invoke(app, ["sweep", str(renamed), "--plot", str(renamed)])
    assert result.exit_code == 2, result.output
    _one_line(result.stderr)
    assert renamed.read_bytes() == before


def test_a_different_file_is_still_written(scenario: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    result = CliRunner().invoke(app, ["evaluate", str(scenario), "-f", "csv", "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8").count("\n") > 2


@pytest.mark.parametrize("command", [["evaluate"], ["report"], ["derive", "-k", "1"]])
def test_an_empty_output_name_is_one_line(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, [*command, "-o", ""])
    assert result.exit_code == 2, result.output
    line = result.stderr.strip().splitlines()[-1]
    assert "empty" in line, result.stderr
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []
