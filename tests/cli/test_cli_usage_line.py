"""A usage mistake is one line that names the command and the option once.

A newcomer read ``planner: error: planner evaluate: Invalid value for '-o': planner does
not write .xlsx files ...``: the program named twice and Click's "Invalid value for" before
planner's own words. The line is now ``planner: error: evaluate -o: planner does not write
...``, the console script's (the test runner prints Typer's box instead).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _stderr(*args: str, cwd: Path) -> str:
    planner = str(Path(sys.executable).with_name("planner"))  # the console script
    done = subprocess.run([planner, *args], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 2, done
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_bad_option_value_names_the_command_and_the_option_once(tmp_path: Path) -> None:
    line = _stderr("evaluate", "-o", "out.xlsx", cwd=tmp_path)
    assert line.startswith("planner: error: evaluate -o: planner does not write .xlsx"), line
    assert line.endswith("(see planner evaluate --help)"), line
    assert "Invalid value" not in line
    assert not (tmp_path / "out.xlsx").exists()


def test_a_folder_given_as_the_scenario_says_what_to_give(tmp_path: Path) -> None:
    (tmp_path / "scenarios").mkdir()
    line = _stderr("evaluate", "scenarios", cwd=tmp_path)
    assert line.startswith("planner: error: evaluate: 'scenarios' is a folder, not a file"), line


def test_an_option_with_two_names_is_named_once(tmp_path: Path) -> None:
    line = _stderr("evaluate", "-f", "xls", cwd=tmp_path)
    assert line.startswith("planner: error: evaluate --format: 'xls' is not one of"), line
    assert line.endswith("'csv', 'json' (see planner evaluate --help)"), line  # no '.' before
