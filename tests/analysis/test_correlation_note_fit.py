"""The correlated note says where the shock probability was never checked, and a sweep's
note names no columns it does not have.

A ZFS admin's pools of 60 drives turned from 1,700x safer than raidz2 10 to 4x riskier
with 0.1 shocks a group-year: q = 1.2 % was checked on arrays of 8 to 24 drives
(docs/correlated.md), and nothing where the numbers stand said so. The same admin's sweep
described "P(loss) indep." and "× indep." columns that a sweep does not have. These tests
failed first.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

CORRELATED = str(Path(__file__).resolve().parents[2] / "scenarios" / "correlated-20tb.yaml")
SHOCKS = ["--set", "correlation.shocks_per_year=0.1"]


def _words(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "-f", "markdown"])
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def test_a_pool_outside_the_checked_arrays_is_named() -> None:
    pool = ["--set", "layouts[0]={raid: draid2, data: 8, children: 60, spares: 2}"]
    words = _words("evaluate", CORRELATED, *SHOCKS, *pool)
    assert "The shock probability was checked on arrays of 8 to 24 drives" in words
    assert "draid2:8d:60c:2s (60 drives)" in words
    assert "RAID 10 (2 drives)" in words  # a mirror is no 8-drive array either
    assert "RAID 6 (10+2) (12 drives)" not in words
    none = ["--set", "correlation.shocks_per_year=0"]
    assert "checked on arrays" not in _words("evaluate", CORRELATED, *none, *pool)


def test_a_sweep_names_no_independent_columns() -> None:
    words = _words("sweep", CORRELATED, *SHOCKS, "--parity", "2", "--group-sizes", "8..10")
    assert "Correlated failures:" in words
    assert "indep." not in words
