"""Exit codes and usage lines a new user meets (issue 21, items 13 and 14).

``planner report`` exited 0 when nothing met the target while ``recommend`` exited 2;
``planner cost`` printed ``planner: error: planner: No such command 'cost'``: the prefix
twice, and no hint that cost is a column of evaluate.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

UNREACHABLE = """\
name: nothing meets
drive:
  arr: 2%
  latent_defects_per_hour: 1e-5
  capacity_tb: 10
restore:
  rebuild_hours: 24
  scrub_hours: 168
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 8
target:
  max_p_loss: 0.01%
  max_drives: 25
"""


def test_report_exits_2_when_nothing_meets_the_target_like_recommend(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(UNREACHABLE, encoding="utf-8")
    recommend = CliRunner().invoke(app, ["recommend", str(scenario)])
    assert recommend.exit_code == 2
    # to stdout: the same review and exit code, without drawing its two pictures (~1 s)
    result = CliRunner().invoke(app, ["report", str(scenario), "-o", "-", "--time-budget", "0.1"])
    assert result.exit_code == 2, result.output
    assert "no layout meets the target" in result.stderr
    assert result.stdout.startswith("# Design review")  # still written


def _planner(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "planner", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_an_unknown_command_is_one_line_with_one_prefix_and_a_hint() -> None:
    out = _planner("cost")
    assert out.returncode == 2
    (line,) = out.stderr.splitlines()
    assert line.startswith("planner: error: No such command 'cost'"), line
    assert "planner: error: planner" not in line
    assert "evaluate" in line
    assert "drive.price" in line


def test_a_misspelt_command_gets_a_did_you_mean() -> None:
    out = _planner("evalute")
    assert out.returncode == 2
    (line,) = out.stderr.splitlines()
    assert line.startswith("planner: error: No such command 'evalute'. Did you mean 'evaluate'")


def test_a_subcommand_usage_error_still_names_the_command() -> None:
    out = _planner("evaluate", "--format", "xml")
    assert out.returncode == 2
    (line,) = out.stderr.splitlines()
    assert line.startswith("planner: error: evaluate --format: ")  # once, with its option
    assert "'xml' is not one of" in line
