"""A heading says the overrides it was computed with (newcomer review: ``evaluate ... --set
drive.arr=2%`` printed "### 96 x 20 TB NL-SAS, 1% ARR, busy rebuild", its scenario's name,
above figures at 2 %)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

TODAY = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"


def _heading(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "-f", "markdown"])
    assert result.exit_code == 0, result.stderr
    return next(line for line in result.stdout.splitlines() if line.startswith("### "))


def test_the_heading_names_the_overrides() -> None:
    assert "--set" not in _heading("evaluate", str(TODAY))
    edited = _heading("evaluate", str(TODAY), "--set", "drive.arr=2%")
    assert edited.endswith("(with --set drive.arr=2%)"), edited
    swept = _heading(
        "sweep", str(TODAY), "--set", "drive.arr=2%", "-k", "2", "-g", "12..12", "--all"
    )
    assert "(with --set drive.arr=2%)" in swept, swept


def test_the_terminal_title_names_them_too() -> None:
    for command in (["evaluate"], ["size", str(TODAY.with_name("lenovo-s3200.yaml"))]):
        args = [command[0], *(command[1:] or [str(TODAY)]), "--set", "drive.arr=2%"]
        result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.stderr
        assert "(with --set drive.arr=2%)" in result.stdout.splitlines()[0], command
