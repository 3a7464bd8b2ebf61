"""The ``planner evaluate`` command end to end, through Typer's runner and the real engine."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from csv_helpers import csv_lines
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
TABLE4 = ROOT / "scenarios" / "ns3574-table4.yaml"

JSON_KEYS = {
    "label",
    "raid",
    "parity",
    "group_size",
    "data_disks_per_group",
    "groups",
    "total_disks",
    "overhead_disks",
    "p_loss_group",
    "p_loss_aggregate",
    "losses_per_10k_groups",
    "mttdl_hours",
    "relative_risk_group",
    "relative_risk_aggregate",
}


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run_json(runner: CliRunner, *args: str) -> dict:
    result = runner.invoke(app, ["evaluate", *args, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_default_scenario_table(runner: CliRunner) -> None:
    result = runner.invoke(app, ["evaluate"])
    assert result.exit_code == 0, result.stderr
    assert "P(loss)" in result.stdout
    assert "aggregate" in result.stdout
    assert "raid10" in result.stdout.lower() or "raid 10" in result.stdout.lower()
    assert "(base)" in result.stdout


def test_json_contract(runner: CliRunner) -> None:
    doc = run_json(runner, str(TABLE4))
    assert set(doc) >= {"scenario", "mission_hours", "baseline", "layouts"}
    assert doc["mission_hours"] == pytest.approx(5 * 8760)
    for layout in doc["layouts"]:
        assert set(layout) >= JSON_KEYS
        assert 0.0 <= layout["p_loss_group"] <= layout["p_loss_aggregate"] <= 1.0
        assert layout["total_disks"] == layout["groups"] * layout["group_size"]
    base = [x for x in doc["layouts"] if x["label"] == doc["baseline"]]
    assert len(base) == 1
    assert base[0]["relative_risk_group"] == pytest.approx(1.0)


def test_paper_table4_numbers_through_cli(runner: CliRunner) -> None:
    """NS3574 Table 4: RAID 10 0.33% and RAID-DP (7+2) ~0.002% in 5 years."""
    doc = run_json(runner, str(TABLE4))
    by_group = {(x["parity"], x["group_size"]): x for x in doc["layouts"]}
    assert by_group[(1, 2)]["p_loss_group"] == pytest.approx(0.0033, abs=0.00005)
    assert round(by_group[(2, 9)]["p_loss_group"] * 100, 3) == 0.002
    assert by_group[(1, 2)]["relative_risk_group"] == pytest.approx(163, rel=0.05)
    assert by_group[(1, 8)]["relative_risk_group"] == pytest.approx(3955, rel=0.05)


def test_set_override_raises_every_probability(runner: CliRunner) -> None:
    low = run_json(runner, str(TABLE4))
    high = run_json(runner, str(TABLE4), "--set", "drive.arr=4%")
    for a, b in zip(low["layouts"], high["layouts"], strict=True):
        assert b["p_loss_group"] > a["p_loss_group"]


def test_markdown_is_a_gfm_table(runner: CliRunner) -> None:
    result = runner.invoke(app, ["evaluate", str(TABLE4), "--format", "markdown"])
    assert result.exit_code == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("|")]
    header, rule, *rows = lines
    width = header.count("|")
    assert re.fullmatch(r"\|(:?-+:?\|)+", rule)
    assert all(row.count("|") - row.count("\\|") == width for row in rows)
    assert len(rows) == 4


def test_csv_has_raw_values(runner: CliRunner) -> None:
    result = runner.invoke(app, ["evaluate", str(TABLE4), "--format", "csv"])
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(csv_lines(result.stdout)))
    assert len(rows) == 4
    assert 0 < float(rows[0]["p_loss_group"]) < 1


def test_output_file_is_written_atomically(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    result = runner.invoke(app, ["evaluate", str(TABLE4), "-f", "markdown", "-o", str(target)])
    assert result.exit_code == 0, result.stderr
    assert target.read_text(encoding="utf-8").startswith("### ")
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]


def test_bad_input_leaves_existing_output_untouched(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("previous", encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nmission_years: -1\n", encoding="utf-8")
    result = runner.invoke(app, ["evaluate", str(bad), "-f", "json", "-o", str(target)])
    assert result.exit_code == 2
    assert target.read_text(encoding="utf-8") == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml", "out.json"]


def test_output_into_missing_folder_is_bad_input(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["evaluate", "-o", str(tmp_path / "no" / "such.md")])
    assert result.exit_code == 2
    assert "does not exist" in result.stderr
