"""docs/recommend.md's table of Table 9 and the Lenovo S3200 through recommend is the CLI's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "recommend.md").read_text(encoding="utf-8")
CASES = {
    "Table 9, 250 MB": "ns3574-table9-250mb.yaml",
    "Table 9, 1,024 MB": "ns3574-table9-1024mb.yaml",
    "Lenovo S3200": "lenovo-s3200.yaml",
}


def _rows() -> list[list[str]]:
    rows = []
    for line in DOC.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] in CASES:
            rows.append(cells)
    return rows


def test_every_case_is_in_the_table() -> None:
    assert len(_rows()) == 6


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r[0]} / {r[1]}")
def test_the_recommendation_is_what_the_cli_says(row: list[str]) -> None:
    case, penalty, label, drives, p_loss, cheaper = row[:6]
    extra = ["--set", "search.write_penalty=1"] if penalty.startswith("1") else []
    result = CliRunner().invoke(
        app,
        [
            "recommend",
            str(ROOT / "scenarios" / CASES[case]),
            "--set",
            "target.max_p_loss=1e-4",
            *extra,
            "-f",
            "json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    top = document["recommended"]
    assert top["label"] == label
    assert f"{top['total_disks']:,}" == drives
    assert f"{top['p_loss_aggregate']:.2g}" == p_loss
    nearest = document["nearest_cheaper"]
    if cheaper == "none cheaper":
        assert nearest is None
    else:
        assert nearest is not None
        expected = (
            f"{nearest['label']}, {nearest['total_disks']:,} drives, "
            f"{nearest['p_loss_aggregate']:.2g}"
        )
        assert cheaper == expected
        assert nearest["misses"] == ["max_p_loss"]
