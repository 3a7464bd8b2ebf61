"""A model's risk never reads as certain, and ``≈100%`` is said where it stands.

The newcomer's second pass (stop 33): at ARR 50 %, RAID 5 groups of 20 and more showed
"100%" beside "99.9997%" and "≈100%": the aggregate's P(loss), 1 - 1e-17 or so, rounds to
exactly 1 in floating point, and the formatter kept 1 as certain. The 40-digit reference
chain shows those aggregates are short of 1, by less than the table's ten decimals.
"""

from __future__ import annotations

from pathlib import Path

import mpmath
import reference
from typer.testing import CliRunner

from planner.cli.app import app
from planner.report.percentages import near_certain_notes, percent_column, risk_column

PAPER = Path(__file__).resolve().parents[2] / "scenarios" / "ns3574-default.yaml"
NOTE = "≈100%: less than 0.0000000001% short of certain"


def test_a_risk_of_one_reads_near_certain_and_a_share_of_one_stays_whole() -> None:
    assert risk_column([1.0, 0.999997, 0.5]) == ["≈100%", "99.9997%", "50%"]
    assert percent_column([1.0]) == ["100%"]  # a share (stripes lost on k + 1) can be whole
    assert near_certain_notes([0.5, 1.0])
    assert near_certain_notes([1 - 1e-13])
    assert not near_certain_notes([0.999997, float("nan")])
    assert not near_certain_notes([])


def test_the_sweep_at_arr_50_says_no_risk_is_certain_and_what_near_certain_means() -> None:
    args = ["sweep", str(PAPER), "--set", "drive.arr=50%", "--parity", "1"]
    args += ["--group-sizes", "20..30", "--all", "--format", "markdown"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    rows = [line for line in lines if line.startswith("| n+1") or line.startswith("|  |")]
    assert len(rows) == 11
    assert not any("| 100% |" in row for row in rows)
    assert sum("| ≈100% |" in row for row in rows) >= 9
    assert any(line.startswith(f"- {NOTE}") for line in lines)
    # the reference chain: RAID 5 of 26 drives at ARR 50 %, 2 groups, is short of 1 ...
    with mpmath.workdps(60):
        group = reference.p_loss(1, 26, 0.5 / 8760, 1.08e-4, 12, 168, 43800)
        short = 1 - reference.aggregate(group, 2)
    assert 0 < short < 1e-12  # ... by less than ten decimals of a percent show


def test_no_note_where_no_risk_is_near_certain() -> None:
    result = CliRunner().invoke(app, ["evaluate", str(PAPER), "--format", "markdown"])
    assert result.exit_code == 0, result.output
    assert NOTE not in result.output
    assert "≈100%" not in result.output


def test_a_nan_before_a_certain_risk_does_not_hide_it() -> None:
    """max() keeps a NaN that comes first: the note once missed a 1 behind it."""
    assert near_certain_notes([float("nan"), 1.0])
    assert not near_certain_notes([float("nan")])
