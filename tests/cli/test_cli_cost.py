"""The cost columns of ``evaluate`` and ``size`` in JSON, CSV, Markdown and the table.

Figures worked by hand from the scenarios' prices:

* today-20tb-nl-sas.yaml: 400 USD a drive, 8 W, 0.15 USD/kWh, ARR 1%, 5 years (43,800 h).
  RAID 6 (10+2) for 96 data drives: 10 groups of 12 = 120 drives, 1,800 usable TB (10 x
  10 x 20 TB x 0.9 usable). Purchase 120 x 400 = 48,000; replacements 120 x 1% x 5 = 6
  drives, 2,400; energy 120 x 8 W x 43,800 h = 42,048 kWh, 6,307.20; TCO 56,707.20,
  31.504 a TB.
* tests/tui/tui_workload.yaml with ``--set drive.price=100 --set costs.per_group=50``:
  raid-dp 8 is sized to 16 drives in 2 groups, 10.8 usable TB (2 x 6 x 0.9 TB); ARR 1.9%.
  Purchase 16 x 100 + 2 x 50 = 1,700; replacements 16 x 1.9% x 5 = 1.52 drives, 152;
  TCO 1,852, 171.48 a TB.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from csv_helpers import csv_lines
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
TODAY = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
TABLE4 = ROOT / "scenarios" / "ns3574-table4.yaml"
WORKLOAD = ROOT / "tests" / "tui" / "tui_workload.yaml"
PRICED_SIZING = ("--set", "drive.price=100", "--set", "costs.per_group=50")
COST_KEYS = {
    "purchase_cost",
    "expected_replacements",
    "replacement_cost",
    "energy_kwh",
    "energy_cost",
    "total_cost",
    "cost_per_usable_tb",
    "currency",
}


def run(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(app, list(args), env=env)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def layout(document: dict[str, Any], label: str) -> dict[str, Any]:
    found: dict[str, Any] = next(x for x in document["layouts"] if x["label"] == label)
    return found


def test_evaluate_json_has_the_hand_worked_cost() -> None:
    raid6 = layout(json.loads(run("evaluate", str(TODAY), "-f", "json")), "RAID 6 (10+2)")
    assert raid6["total_disks"] == 120
    assert raid6["purchase_cost"] == pytest.approx(48_000.0, rel=1e-15)
    assert raid6["expected_replacements"] == pytest.approx(6.0, rel=1e-14)
    assert raid6["replacement_cost"] == pytest.approx(2_400.0, rel=1e-14)
    assert raid6["energy_kwh"] == pytest.approx(42_048.0, rel=1e-15)
    assert raid6["energy_cost"] == pytest.approx(6_307.2, rel=1e-14)
    assert raid6["total_cost"] == pytest.approx(56_707.2, rel=1e-14)
    # 100 data drives x 20 TB x 0.9 usable (issue 20: one meaning of usable TB)
    assert raid6["cost_per_usable_tb"] == pytest.approx(56_707.2 / 1_800, rel=1e-14)
    assert raid6["currency"] == "USD"


def test_the_exports_carry_the_prices() -> None:
    """The inputs every export prints name the prices the costs come from."""
    inputs = json.loads(run("evaluate", str(TODAY), "-f", "json"))["inputs"]
    assert inputs["costs"] == {
        "price": 400.0,
        "watts": 8.0,
        "energy_per_kwh": 0.15,
        "per_group": None,
        "currency": "USD",
    }
    comment = run("evaluate", str(TODAY), "-f", "csv").splitlines()[0]
    assert comment.endswith(
        "20 TB drives (90% usable), 128 KiB stripe unit, 400 USD a drive, 8 W a drive, "
        "0.15 USD/kWh."
    )
    comment = run("size", str(WORKLOAD), "-f", "csv", *PRICED_SIZING).splitlines()[0]
    assert "100 a drive, 50 a group." in comment


def test_an_unpriced_scenario_has_no_cost() -> None:
    document = json.loads(run("evaluate", str(TABLE4), "-f", "json"))
    assert all(not COST_KEYS & set(x) for x in document["layouts"])
    assert "costs" not in document["inputs"]
    markdown = run("evaluate", str(TABLE4), "-f", "markdown")
    assert "TCO" not in markdown
    assert "Cost:" not in markdown


def test_evaluate_csv_and_markdown_have_the_columns() -> None:
    rows = list(
        csv.DictReader(io.StringIO("".join(csv_lines(run("evaluate", str(TODAY), "-f", "csv")))))
    )
    assert set(rows[0]) >= COST_KEYS
    raid6 = next(row for row in rows if row["label"] == "RAID 6 (10+2)")
    assert float(raid6["total_cost"]) == pytest.approx(56_707.2, rel=1e-14)
    markdown = run("evaluate", str(TODAY), "-f", "markdown")
    header = next(line for line in markdown.splitlines() if line.startswith("| Layout"))
    for title in ("Purchase (USD)", "Replacements (drives)", "Energy (USD)", "TCO (USD)"):
        assert f"| {title} |" in header
    row = next(line for line in markdown.splitlines() if "RAID 6 (10+2)" in line)
    assert "| 48,000 | 6.00 | 6,307 | 56,707 | 31.50 |" in row  # / 1,800 TB
    assert "- Cost: purchase = drives x 400 USD;" in markdown


def test_a_120_column_table_keeps_the_tco() -> None:
    table = run("evaluate", str(TODAY), "--set", "costs.currency=€", env={"COLUMNS": "120"})
    assert "TCO" in table
    assert "(€)" in table
    assert "56,707" in table
    hidden = " ".join(table.split()).split("Not shown at this width:")[1].split("(a wider")[0]
    assert "Purchase (€)" in hidden  # dropped before the TCO


def test_size_json_csv_markdown_price_the_sized_aggregate() -> None:
    document = json.loads(run("size", str(WORKLOAD), "-f", "json", *PRICED_SIZING))
    dp = layout(document, "raid-dp 8")
    assert (dp["disks_needed"], dp["groups"]) == (16, 2)
    assert dp["purchase_cost"] == pytest.approx(1_700.0, rel=1e-15)
    assert dp["expected_replacements"] == pytest.approx(1.52, rel=1e-14)
    assert dp["total_cost"] == pytest.approx(1_852.0, rel=1e-14)
    assert dp["cost_per_usable_tb"] == pytest.approx(1_852.0 / 10.8, rel=1e-14)
    assert document["workload"]["required_tb"] == 10.0
    assert dp["cost_per_needed_tb"] == pytest.approx(1_852.0 / 10.0, rel=1e-14)
    assert dp["energy_cost"] is None  # no watts: energy not priced
    assert dp["currency"] == ""
    text = run("size", str(WORKLOAD), "-f", "csv", *PRICED_SIZING)
    rows = list(csv.DictReader(io.StringIO("".join(csv_lines(text)))))
    assert set(rows[0]) >= COST_KEYS
    markdown = run("size", str(WORKLOAD), "-f", "markdown", *PRICED_SIZING)
    header = next(line for line in markdown.splitlines() if line.startswith("| Layout"))
    assert "| Purchase | Replacements (drives) | TCO | TCO/TB needed |" in header
    assert "Energy" not in header
    row = next(line for line in markdown.splitlines() if line.startswith("| raid-dp 8"))
    assert "| 1,700 | 1.52 | 1,852 | 185 |" in row
    assert "- Cost: purchase = drives x 100 + groups x 50;" in markdown


def test_size_without_prices_is_unchanged() -> None:
    document = json.loads(run("size", str(WORKLOAD), "-f", "json"))
    assert all(not COST_KEYS & set(x) for x in document["layouts"])


def test_a_bad_price_is_one_line_and_exit_2() -> None:
    result = CliRunner().invoke(app, ["evaluate", str(TODAY), "--set", "drive.watts=-3"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "drive.watts" in lines[0]
    assert "must be at least 0" in lines[0]


def test_without_a_drive_price_there_is_no_tco_column_and_recommend_ranks_drives() -> None:
    # review: with watts and an energy price only, "TCO" was the energy alone
    scenario = str(Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml")
    table = CliRunner().invoke(app, ["evaluate", scenario, "--set", "drive.price=null"])
    assert table.exit_code == 0, table.stderr
    assert "Energy" in table.stdout
    assert "TCO" not in table.stdout
    found = CliRunner().invoke(
        app,
        ["recommend", scenario, "--set", "drive.price=null", "--set", "target.max_p_loss=1e-4",
         "-f", "json"],
    )  # fmt: skip
    assert json.loads(found.stdout)["ranked_by"] == "total_disks"
