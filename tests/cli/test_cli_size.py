"""The ``planner size`` command end to end, through Typer's runner and the real engine."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from csv_helpers import csv_lines
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
TABLE9_250 = ROOT / "scenarios" / "ns3574-table9-250mb.yaml"
TABLE9_1024 = ROOT / "scenarios" / "ns3574-table9-1024mb.yaml"
S3200 = ROOT / "scenarios" / "lenovo-s3200.yaml"

CONTRACT = {
    "label",
    "parity",
    "group_size",
    "write_penalty",
    "disks_for_capacity",
    "disks_for_iops",
    "disks_needed",
    "bound_by",
    "groups",
    "rebuild_hours",
    "p_loss_aggregate",
}


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["size", *args, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def by_label(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["label"]: row for row in document["layouts"]}


def test_json_contract(runner: CliRunner) -> None:
    doc = run_json(runner, str(TABLE9_250))
    assert set(doc) >= {"scenario", "mission_hours", "layouts"}
    assert doc["scenario"] == "NS3574 Table 9, 4,000 mailboxes of 250 MB"
    assert doc["mission_hours"] == pytest.approx(5 * 8760)
    for row in doc["layouts"]:
        assert set(row) >= CONTRACT
        assert row["bound_by"] in ("capacity", "iops")
        assert row["disks_needed"] == max(row["disks_for_capacity"], row["disks_for_iops"])
        assert row["groups"] * row["group_size"] == row["disks_needed"]
        assert 0 <= row["p_loss_aggregate"] <= 1


def test_table9_hand_worked_numbers(runner: CliRunner) -> None:
    rows = by_label(run_json(runner, str(TABLE9_250)))
    # 4,000 x 0.33 x 1.2 headroom = 1,584 database IOPS: 792 reads, 792 writes + 0.38 x 1,584
    # = 601.92 log writes, so 1,393.92 writes; RAID 6: 792 + 6 x 1,393.92 = 9,155.52
    # back-end IOPS / 130 per drive = 70.4 -> 71 drives -> 9 groups of 8 = 72.
    raid6 = rows["RAID 6 (6+2)"]
    assert raid6["write_penalty"] == 6
    assert raid6["backend_iops"] == pytest.approx(9155.52)
    assert (raid6["disks_for_iops"], raid6["disks_needed"], raid6["groups"]) == (72, 72, 9)
    assert raid6["bound_by"] == "iops"
    no_penalty = rows["RAID 6 no penalty (6+2)"]
    assert no_penalty["write_penalty"] == 1  # the per-layout override
    assert no_penalty["backend_iops"] == pytest.approx(792 + 1393.92)


def test_table9_ordering_at_250_mb(runner: CliRunner) -> None:
    # NS3574 Table 9, 250 MB: RAID-DP 24 < RAID 10 40 < RAID 6 100.
    rows = by_label(run_json(runner, str(TABLE9_250)))
    need = {label: row["disks_needed"] for label, row in rows.items()}
    assert need["RAID-DP (10+2)"] < need["RAID 10"] < need["RAID 6 (6+2)"]
    assert need["RAID 6 no penalty (6+2)"] < need["RAID 10"]
    assert need["RAID-DP (10+2)"] == 24  # the paper's count


def test_table9_ordering_at_85_iops_per_drive(runner: CliRunner) -> None:
    rows = by_label(run_json(runner, str(TABLE9_250), "--set", "drive.iops_per_drive=85"))
    need = {label: row["disks_needed"] for label, row in rows.items()}
    for raid_dp in ("RAID-DP (14+2)", "RAID-DP (10+2)"):
        assert need[raid_dp] < need["RAID 10"] < need["RAID 6 (6+2)"]


def test_table9_1024_mb_capacity_bound_rows(runner: CliRunner) -> None:
    rows = by_label(run_json(runner, str(TABLE9_1024)))
    assert rows["RAID 10"]["bound_by"] == "capacity"
    assert rows["RAID 6 (6+2)"]["bound_by"] == "iops"


def test_figure8_rebuild_via_set(runner: CliRunner) -> None:
    doc = run_json(runner, str(TABLE9_250), "--set", "drive.capacity_tb=0.144")
    # NS3574 Figure 8: 144 GB rebuilt in 1 h 30 min at ~27 MB/s under load.
    assert doc["rebuild_hours"] == pytest.approx(1.5, abs=0.05)
    assert {row["rebuild_hours"] for row in doc["layouts"]} == {doc["rebuild_hours"]}
    assert {row["rebuild_source"] for row in doc["layouts"]} == {"drive"}


def test_busy_load_raises_rebuild_time_and_risk(runner: CliRunner) -> None:
    idle = by_label(run_json(runner, str(S3200)))["RAID 6 (8+2)"]
    busy = by_label(run_json(runner, str(S3200), "--set", "restore.load=busy"))["RAID 6 (8+2)"]
    assert busy["rebuild_hours"] > 3 * idle["rebuild_hours"]
    assert busy["p_loss_aggregate"] > idle["p_loss_aggregate"]


def test_lenovo_s3200_is_the_tested_configuration(runner: CliRunner) -> None:
    row = by_label(run_json(runner, str(S3200)))["RAID 6 (8+2)"]
    # 500 x 0.5 x 1.2 = 300 IOPS: 150 reads, 150 + 114 log = 264 writes; 150 + 6 x 264 =
    # 1,734 back-end IOPS / 130 = 13.3 drives -> 2 groups of 10.
    assert row["backend_iops"] == pytest.approx(1734)
    assert (row["disks_needed"], row["groups"], row["bound_by"]) == (20, 2, "iops")
    assert row["rebuild_hours"] == pytest.approx(0.9e12 / 27e6 / 3600)


def test_no_workload_is_bad_input(runner: CliRunner) -> None:
    table4 = ROOT / "scenarios" / "ns3574-table4.yaml"
    result = runner.invoke(app, ["size", str(table4)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "scenario has no workload section; add one (see docs/sizing.md)" in result.stderr
    assert str(table4) in result.stderr
    default = runner.invoke(app, ["size"])
    assert default.exit_code == 2
    assert "no workload section" in default.stderr


def test_bad_workload_is_reported_at_its_line(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    text = TABLE9_250.read_text(encoding="utf-8")
    path.write_text(text.replace("iops_per_user: 0.33", "iops_per_user: lots"), encoding="utf-8")
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "iops_per_user" in x)
    result = runner.invoke(app, ["size", str(path)])
    assert result.exit_code == 2
    assert f"{path}:{line}:18: workload.iops_per_user: expected a number" in result.stderr
    assert result.stdout == ""


def test_bad_override_is_bad_input(runner: CliRunner) -> None:
    result = runner.invoke(app, ["size", str(TABLE9_250), "--set", "restore.load=heavy"])
    assert result.exit_code == 2
    assert "--set restore.load=heavy" in result.stderr
    assert "busy-worst" in result.stderr


def test_markdown_is_a_gfm_table(runner: CliRunner) -> None:
    result = runner.invoke(app, ["size", str(TABLE9_250), "--format", "markdown"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "### NS3574 Table 9, 4,000 mailboxes of 250 MB"
    header, rule, *rest = lines[2:]
    cells = [c.strip() for c in header.strip("|").split("|")]
    assert cells[:7] == [
        "Layout",
        "Write penalty",
        "Back-end IOPS",
        "Disks for capacity",
        "Disks for IOPS",
        "Disks needed",
        "Bound by",
    ]
    assert {"Groups", "Usable TB", "Rebuild hours", "P(loss) sized aggregate"} <= set(cells)
    assert rule.startswith("|:---|---:|")
    assert rule.count("|") == header.count("|")
    rows = [line for line in rest if line.startswith("| ")]
    assert len(rows) == 6
    assert all(row.count("|") == header.count("|") for row in rows)
    assert any(line.startswith("- Workload: 4,000 mailboxes") for line in rest)


def test_csv_has_raw_values(runner: CliRunner) -> None:
    result = runner.invoke(app, ["size", str(TABLE9_250), "-f", "csv"])
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(csv_lines(result.stdout)))
    assert len(rows) == 6
    assert set(rows[0]) >= CONTRACT
    assert rows[0]["label"] == "RAID 10"


def test_table_fits_80_and_120_columns(runner: CliRunner) -> None:
    narrow = runner.invoke(app, ["size", str(TABLE9_250)], env={"COLUMNS": "80"})
    assert narrow.exit_code == 0, narrow.stderr
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 80
    for must in ("Layout", "needed", "Bound", "aggregate", "RAID-DP (10+2)", "Rebuild 3.09 h"):
        assert must in narrow.stdout
    wide = runner.invoke(app, ["size", str(TABLE9_250)], env={"COLUMNS": "120"})
    assert max(len(line) for line in wide.stdout.splitlines()) <= 120
    # "Back-end IOPS" fits at 120 columns and is dropped at 80, where the caption names it.
    assert "Back-end" in wide.stdout.split("Workload:")[0]
    narrow_table, caption = narrow.stdout.split("Not shown at this width:")
    assert "Back-end" not in narrow_table
    assert "Back-end IOPS" in " ".join(caption.split())


def test_output_is_written_atomically(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "sizing.json"
    out.write_text("old", encoding="utf-8")
    result = runner.invoke(app, ["size", str(TABLE9_250), "-f", "json", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert "Wrote json output to" in result.stderr
    assert out.name in result.stderr
    assert json.loads(out.read_text(encoding="utf-8")) == run_json(runner, str(TABLE9_250))
    assert [p.name for p in tmp_path.iterdir()] == ["sizing.json"]  # no temporary left
    table = tmp_path / "sizing.txt"
    result = runner.invoke(app, ["size", str(TABLE9_250), "-o", str(table)])
    assert result.exit_code == 0, result.stderr
    text = table.read_text(encoding="utf-8")
    assert "\x1b[" not in text
    table_part = text.split("Workload:")[0]
    for header in ("Back-end", "Usable", "Rebuild", "Groups"):  # a file gets every column
        assert header in table_part


def test_output_into_a_missing_folder_fails_cleanly(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "nope" / "sizing.md"
    result = runner.invoke(app, ["size", str(TABLE9_250), "-f", "markdown", "-o", str(out)])
    assert result.exit_code == 2
    assert "does not exist" in result.stderr
    assert not out.parent.exists()


def test_evaluate_shows_the_derived_rebuild_time(runner: CliRunner) -> None:
    table = runner.invoke(app, ["evaluate", str(S3200)], env={"COLUMNS": "120"})
    assert table.exit_code == 0, table.stderr
    assert "Rebuild 9.26 h: 0.9 TB at 27 MB/s (restore.rebuild_mb_per_s)." in table.stdout
    doc = json.loads(runner.invoke(app, ["evaluate", str(S3200), "-f", "json"]).stdout)
    assert doc["rebuild_hours"] == pytest.approx(0.9e12 / 27e6 / 3600)
    markdown = runner.invoke(app, ["evaluate", str(S3200), "-f", "markdown"]).stdout
    assert "- Rebuild 9.26 h" in markdown


def _help_text(runner: CliRunner, command: str) -> str:
    """``planner COMMAND --help`` as one line of words (no box drawing, no wrapping)."""
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.stderr
    return " ".join(result.stdout.replace("│", " ").split())


def test_size_help_names_a_file_with_a_workload(runner: CliRunner) -> None:
    """The bundled default has no workload: the help must not promise it, and must name a
    shipped file that does size (checked by running it)."""
    text = _help_text(runner, "size")
    assert "Default: the bundled" not in text
    assert "workload: section" in text
    assert "scenarios/lenovo-s3200.yaml" in text
    shipped = runner.invoke(app, ["size", str(ROOT / "scenarios" / "lenovo-s3200.yaml")])
    assert shipped.exit_code == 0, shipped.stderr
    plain = runner.invoke(app, ["size"])
    assert plain.exit_code == 2
    assert "scenarios/lenovo-s3200.yaml" in plain.stderr  # the error says where to look
