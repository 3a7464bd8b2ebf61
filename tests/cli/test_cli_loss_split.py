"""What is lost, in the CLI's JSON, CSV and tables: the split sums to P(loss)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

TABLE4 = Path(__file__).resolve().parents[2] / "scenarios" / "ns3574-table4.yaml"
KEYS = ("p_group_lost", "p_sectors_lost", "p_group_lost_aggregate", "p_sectors_lost_aggregate")


def _json(*extra: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["evaluate", str(TABLE4), "-f", "json", *extra])
    assert result.exit_code == 0, result.stderr
    document: dict[str, object] = json.loads(result.stdout)
    return document


def test_json_splits_p_loss_and_p_loss_group_stays_the_sum() -> None:
    layouts = _json()["layouts"]
    assert isinstance(layouts, list)
    for layout in layouts:
        assert all(key in layout for key in KEYS)
        total = layout["p_group_lost"] + layout["p_sectors_lost"]
        assert layout["p_loss_group"] == pytest.approx(total, rel=1e-12)
        total = layout["p_group_lost_aggregate"] + layout["p_sectors_lost_aggregate"]
        assert layout["p_loss_aggregate"] == pytest.approx(total, rel=1e-12)
        # NS3574: latent defects dominate at the paper's rates
        assert layout["p_sectors_lost"] > layout["p_group_lost"]


def test_fail_rebuild_counts_sector_losses_as_group_losses() -> None:
    default = _json()["layouts"]
    failing = _json("--set", "restore.on_unreadable_sector=fail-rebuild")["layouts"]
    assert isinstance(default, list)
    assert isinstance(failing, list)
    for a, b in zip(default, failing, strict=True):
        assert a["p_loss_group"] == b["p_loss_group"]
        assert b["p_sectors_lost"] == 0.0
        assert b["p_group_lost"] == pytest.approx(a["p_loss_group"], rel=1e-15)


def test_a_bad_choice_is_refused() -> None:
    result = CliRunner().invoke(
        app, ["evaluate", str(TABLE4), "--set", "restore.on_unreadable_sector=explode"]
    )
    assert result.exit_code == 2
    assert "lose-sectors" in result.stderr


def test_csv_and_sweep_carry_the_split_columns() -> None:
    result = CliRunner().invoke(app, ["evaluate", str(TABLE4), "-f", "csv"])
    text = "".join(line for line in io.StringIO(result.stdout) if not line.startswith("#"))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert all(key in rows[0] for key in KEYS)
    result = CliRunner().invoke(
        app, ["sweep", str(TABLE4), "--vary", "drive.arr=1%..3%:3", "-f", "json"]
    )
    assert result.exit_code == 0, result.stderr
    assert all(key in result.stdout for key in KEYS)


def test_size_splits_the_sized_aggregate_too() -> None:
    table9 = TABLE4.with_name("ns3574-table9-250mb.yaml")
    result = CliRunner().invoke(app, ["size", str(table9), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    for layout in json.loads(result.stdout)["layouts"]:
        total = layout["p_group_lost"] + layout["p_sectors_lost"]
        assert layout["p_loss_group"] == pytest.approx(total, rel=1e-12)
        total = layout["p_group_lost_aggregate"] + layout["p_sectors_lost_aggregate"]
        assert layout["p_loss_aggregate"] == pytest.approx(total, rel=1e-12)


def test_the_inputs_say_what_an_unreadable_sector_does() -> None:
    default = _json()["inputs"]
    assert isinstance(default, dict)
    assert default["on_unreadable_sector"] == "lose-sectors"
    failing = _json("--set", "restore.on_unreadable_sector=fail-rebuild")["inputs"]
    assert isinstance(failing, dict)
    assert failing["on_unreadable_sector"] == "fail-rebuild"
    result = CliRunner().invoke(
        app,
        [
            "evaluate",
            str(TABLE4),
            "-f",
            "markdown",
            "--set",
            "restore.on_unreadable_sector=fail-rebuild",
        ],
    )
    assert "an unreadable sector fails the rebuild" in result.stdout
