"""What is lost, in the CLI's JSON, CSV and tables (issue 20): four figures that do not sum.

P(group lost) is checked against the birth-death chain of tests/reference.py, the
aggregates against 1 - (1 - p)^g worked out here.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from tests import reference

TABLE4 = Path(__file__).resolve().parents[2] / "scenarios" / "ns3574-table4.yaml"
KEYS = (
    "p_group_lost",
    "p_sectors_lost",
    "p_group_lost_aggregate",
    "p_sectors_lost_aggregate",
    "expected_sector_loss_events_group",
    "expected_sector_loss_events",
)


def _json(*extra: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["evaluate", str(TABLE4), "-f", "json", *extra])
    assert result.exit_code == 0, result.stderr
    document: dict[str, object] = json.loads(result.stdout)
    return document


def test_json_gives_the_four_figures_and_they_do_not_sum() -> None:
    document = _json()
    layouts, hours = document["layouts"], document["mission_hours"]
    assert isinstance(layouts, list)
    assert isinstance(hours, float)
    lop = 0.019 / reference.HOURS_PER_YEAR
    for layout in layouts:
        assert all(key in layout for key in KEYS)
        # k + 1 drives down at once: the birth-death chain (one rebuild at a time, 12 h)
        expected = reference.group_lost(layout["parity"], layout["group_size"], lop, 12, hours)
        assert reference.relative_error(layout["p_group_lost"], expected) < 1e-9
        groups = layout["groups"]
        for key in ("p_group_lost", "p_sectors_lost"):
            aggregate = reference.aggregate(layout[key], groups)
            assert reference.relative_error(layout[f"{key}_aggregate"], aggregate) < 1e-12
        assert layout["expected_sector_loss_events"] == pytest.approx(
            groups * layout["expected_sector_loss_events_group"], rel=1e-15
        )
        assert layout["p_sectors_lost"] <= layout["expected_sector_loss_events_group"]
        # NS3574: latent defects dominate at the paper's rates
        assert layout["p_sectors_lost"] > layout["p_group_lost"]
        assert layout["p_group_lost"] + layout["p_sectors_lost"] != layout["p_loss_group"]


def test_the_table_says_the_figures_do_not_sum() -> None:
    for output_format in ("table", "markdown"):
        result = CliRunner().invoke(app, ["evaluate", str(TABLE4), "-f", output_format])
        assert result.exit_code == 0, result.stderr
        assert "do not sum" in " ".join(result.stdout.split())


def test_fail_rebuild_counts_sector_losses_as_group_losses() -> None:
    default = _json()["layouts"]
    failing = _json("--set", "restore.on_unreadable_sector=fail-rebuild")["layouts"]
    assert isinstance(default, list)
    assert isinstance(failing, list)
    for a, b in zip(default, failing, strict=True):
        assert a["p_loss_group"] == b["p_loss_group"]
        assert b["p_sectors_lost"] == 0.0
        assert b["expected_sector_loss_events"] == 0.0
        # every loss ends the group
        assert b["p_group_lost"] == b["p_loss_group"]
        assert b["p_group_lost_aggregate"] == pytest.approx(b["p_loss_aggregate"], rel=1e-15)


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


def test_size_gives_the_sized_aggregates_figures_too() -> None:
    table9 = TABLE4.with_name("ns3574-table9-250mb.yaml")
    result = CliRunner().invoke(app, ["size", str(table9), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    for layout in json.loads(result.stdout)["layouts"]:
        assert all(key in layout for key in KEYS)
        groups = layout["groups"]
        for key in ("p_group_lost", "p_sectors_lost"):
            aggregate = reference.aggregate(layout[key], groups)
            assert reference.relative_error(layout[f"{key}_aggregate"], aggregate) < 1e-12
        assert layout["expected_sector_loss_events"] == pytest.approx(
            groups * layout["expected_sector_loss_events_group"], rel=1e-15
        )


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
