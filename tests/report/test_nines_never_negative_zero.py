"""A candidate whose P(loss) is 1 has 0 nines, never ``-0.0``.

``nines`` is ``-log10(P(loss))``, and ``-log10(1.0)`` is ``-0.0`` in floating point: the
Nines column of ``planner recommend`` showed ``-0.0`` beside a P(loss) of ≈100% (a
reviewer's ``--set workload.iops=1e12``, which sizes billions of mirrors).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.analysis.recommend import nines
from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "recommend-400tb.yaml"


@pytest.mark.parametrize("p_loss", [1.0, 1.0 + 2**-52])
def test_a_certain_loss_has_zero_nines_not_minus_zero(p_loss: float) -> None:
    # a sum of probabilities may round a hair above 1: still no nines, not minus some
    assert nines(p_loss) == 0.0
    assert math.copysign(1.0, nines(p_loss)) == 1.0


def test_nines_are_minus_log10_elsewhere() -> None:
    assert nines(0.1) == pytest.approx(1.0)
    assert nines(1e-4) == pytest.approx(4.0)
    assert nines(0.0) == math.inf


@pytest.mark.parametrize("output", ["table", "markdown"])
def test_the_nines_column_of_a_certain_loss_reads_0(output: str) -> None:
    result = CliRunner().invoke(
        app,
        ["recommend", str(SCENARIO), "--set", "workload.iops=1e12", "-f", output],
        env={"COLUMNS": "250"},
    )
    assert result.exit_code == 2, result.stderr  # no layout meets the target
    lines = result.stdout.replace("│", "|").splitlines()
    rows = [line for line in lines if line.startswith("|") and "raid10 2 " in line]
    assert rows, result.stdout
    cells = [cell.strip() for cell in rows[0].split("|")]
    assert "≈100%" in cells, rows[0]
    assert "0.0" in cells, rows[0]
    assert "-0.0" not in result.stdout
