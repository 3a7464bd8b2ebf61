"""docs/today.md's scrub figures are what the CLI prints (issue 20, item 8).

The page quotes RAID 6 of 12 over 20 TB drives (1e-15 errors per bit, 20 data drives) with
a 1,344 h and a 24 h scrub interval; the numbers are rebuilt here from
``planner evaluate -f json`` with the report's percent format, and the shorter scrub must
give the lower risk.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app
from planner.report.percentages import format_percent

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
DOC = ROOT / "docs" / "today.md"


def _raid6_p_loss(scrub_hours: int) -> float:
    result = CliRunner().invoke(
        app,
        [
            "evaluate",
            str(SCENARIO),
            "-f",
            "json",
            "--set",
            "aggregate.data_disks=20",
            "--set",
            f"restore.scrub_hours={scrub_hours}",
        ],
    )
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["layouts"]
    (row,) = [r for r in rows if r["label"].startswith("RAID 6")]
    return float(row["p_loss_aggregate"])


def test_the_pages_scrub_figures_are_the_cli_output() -> None:
    rare, often = _raid6_p_loss(1344), _raid6_p_loss(24)
    assert often < rare  # scrubbing more often lowers the risk
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    expected = f"Now the same case gives {format_percent(rare)} and {format_percent(often)}"
    assert expected.replace("%", " %") in text or expected in text, expected
