"""A simulation that saw no loss has no ratio to the exact answer, and says what it saw.

A ZFS admin's design review printed "Simulation, exponential | 0% | 0× | 0%–0.000038%"
beside an exact 0.0000018% and "stopped by the time budget at — (target ±10%)": 0x read
as total disagreement, though the interval holds the exact value. The ratio is now blank
and the note says how many trials saw no loss (failed first).
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

TODAY = str(Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml")


def test_no_loss_seen_is_said_and_not_a_ratio() -> None:
    args = ["compare-methods", TODAY, "--layout", "triple parity (12+3)", "--trials", "2000"]
    result = CliRunner().invoke(app, [*args, "--method", "plain", "-f", "markdown"])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if "Simulation, exponential" in line]
    assert rows
    cells = [cell.strip() for cell in rows[0].split("|")]
    assert cells[3] == "0%"
    assert cells[4] == ""  # vs Markov: no ratio where no loss was seen (it was 0×)
    assert "Simulation, exponential: no loss in 2,000 trials" in result.stdout
    assert "at — (target" not in result.stdout
