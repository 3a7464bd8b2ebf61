"""docs/declustered.md's worked comparison is what the CLI prints, and the pool row is right.

The table in the docs is rebuilt here from ``planner evaluate -f json`` with the report's
own number formats; the dRAID row's probabilities are checked against the mpmath chain of
tests/reference.py with the declustered rebuild time worked out here.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from planner.cli import app
from planner.report.numbers import drives_column, format_tb, percent_column, significant_column
from tests import reference

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
DOC = ROOT / "docs" / "declustered.md"


def _layouts(*extra: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(app, ["evaluate", str(SCENARIO), "-f", "json", *extra])
    assert result.exit_code == 0, result.stderr
    layouts: list[dict[str, Any]] = json.loads(result.stdout)["layouts"]
    return layouts


def test_the_docs_table_is_the_cli_output() -> None:
    rows = _layouts()
    columns = [
        [r["label"] for r in rows],
        drives_column([r["total_disks"] for r in rows]),
        drives_column([r["overhead_disks"] for r in rows]),
        [format_tb(r["usable_tb"]) for r in rows],
        significant_column([r["rebuild_hours"] for r in rows]),
        percent_column([r["p_group_lost_aggregate"] for r in rows]),
        percent_column([r["p_sectors_lost_aggregate"] for r in rows]),
        percent_column([r["p_loss_aggregate"] for r in rows]),
        percent_column([r["fraction_lost_on_overlap"] for r in rows]),
    ]
    doc = DOC.read_text(encoding="utf-8")
    for cells in zip(*columns, strict=True):
        line = "| " + " | ".join(cells) + " |"
        assert line in doc, line
    assert [r["label"] for r in rows] == [
        "RAID 10",
        "RAID 6 (10+2)",
        "triple parity (12+3)",
        "draid2:8d:48c:2s",
    ]


def test_the_pool_row_against_the_mpmath_chain() -> None:
    pool = _layouts()[-1]
    traditional = _layouts()[1]["rebuild_hours"]
    rebuild = traditional * (8 + 1) / (48 - 1)  # (C - 1) / (d + 1) faster
    assert math.isclose(pool["rebuild_hours"], rebuild, rel_tol=1e-12)
    lop = 0.01 / reference.HOURS_PER_YEAR
    lld = 8 * 1e-15 * 20e12 / 168  # the scrub reads the whole 20 TB drive every 168 h
    hours = 5 * reference.HOURS_PER_YEAR
    group_lost, sectors_lost = reference.loss_split(2, 48, lop, lld, rebuild, 168, hours)
    assert reference.relative_error(pool["p_group_lost"], group_lost) < 1e-9
    assert reference.relative_error(pool["p_sectors_lost"], sectors_lost) < 1e-9
    # 3 pools of 36.8 drives' worth of data hold the 96 data drives
    assert (pool["groups"], pool["total_disks"]) == (3, 144)
    # 20 TB drives store 18 TB each (drive.usable_fraction 0.9, issue 20)
    assert math.isclose(pool["usable_tb"], 3 * 46 * 8 / 10 * 20 * 0.9, rel_tol=1e-12)
    # C(45, 7) / C(48, 10): the stripes spanning 3 given drives of 48
    assert math.isclose(
        pool["fraction_lost_on_overlap"], math.comb(45, 7) / math.comb(48, 10), rel_tol=1e-12
    )
