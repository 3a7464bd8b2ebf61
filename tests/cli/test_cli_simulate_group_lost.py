"""``planner simulate`` reports P(group lost) beside P(loss), with its interval (issue 20, 3).

P(group lost): k + 1 drives down at once, sector losses written off, the group going on.
The numbers are checked against the birth-death chain of :mod:`reference`, written from
that definition, not against planner's own exact figure.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from csv_helpers import csv_lines
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import load_default_scenario
from tests import reference

RUNNER = CliRunner()
QUICK = ("--rel-error", "0.2", "--seed", "7")
FEW = ("--trials", "200", "--seed", "7")
"""For the formats' columns only: they do not depend on the estimate's precision."""
GROUP_LOST_KEYS = {
    "p_group_lost",
    "p_group_lost_ci95_low",
    "p_group_lost_ci95_high",
    "p_group_lost_rel_error",
    "p_group_lost_trials",
    "p_group_lost_aggregate",
    "p_group_lost_ci95_aggregate_low",
    "p_group_lost_ci95_aggregate_high",
    "p_group_lost_reliable",
}


def run_json(*args: str) -> dict[str, Any]:
    result = RUNNER.invoke(app, [*args, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


@pytest.fixture(scope="module")
def simulation() -> dict[str, Any]:
    return run_json("simulate", *QUICK, "--layout", "raid5 8", "--layout", "raid-dp 16")


def test_simulate_json_has_p_group_lost_with_its_interval(simulation: dict[str, Any]) -> None:
    rates = load_default_scenario().rates()
    for layout in simulation["layouts"]:
        assert set(layout) >= GROUP_LOST_KEYS
        low, high = layout["p_group_lost_ci95_low"], layout["p_group_lost_ci95_high"]
        assert 0 < low <= layout["p_group_lost"] <= high
        exact = reference.overlapping_failures(
            layout["parity"],
            layout["group_size"],
            rates.op_failures_per_hour,
            rates.rebuild_hours,
            simulation["mission_hours"],
            rates.rebuild_streams,
        )
        assert low <= exact <= high, (layout["label"], low, float(exact), high)
        assert layout["p_group_lost_reliable"] is True
        # Defects dominate P(loss) at the paper's rates; whole-group loss is far rarer.
        assert layout["p_group_lost"] < layout["p_loss_group"]
        groups = layout["groups"]
        expected = float(reference.aggregate(layout["p_group_lost"], groups))
        assert layout["p_group_lost_aggregate"] == pytest.approx(expected, rel=1e-9)


def test_fail_rebuild_loses_the_group_on_every_loss() -> None:
    doc = run_json(
        "simulate",
        *QUICK,
        "--layout",
        "raid5 8",
        "--set",
        "restore.on_unreadable_sector=fail-rebuild",
    )
    layout = doc["layouts"][0]
    assert layout["p_group_lost"] == layout["p_loss_group"]
    assert layout["p_group_lost_ci95_high"] == layout["ci95_high"]


def test_simulate_table_markdown_and_csv_show_it(tmp_path: Path) -> None:
    table = RUNNER.invoke(app, ["simulate", *FEW, "--layout", "raid5 8"], env={"COLUMNS": "160"})
    assert table.exit_code == 0, table.stderr
    assert "P(group lost)" in table.stdout
    assert "k+1 drives down at once" in table.stdout  # the note says what it is
    markdown = RUNNER.invoke(app, ["simulate", *FEW, "--layout", "raid5 8", "-f", "markdown"])
    assert "P(group lost) group" in markdown.stdout
    target = tmp_path / "sim.csv"
    written = RUNNER.invoke(
        app, ["simulate", *FEW, "--layout", "raid5 8", "-f", "csv", "-o", str(target)]
    )
    assert written.exit_code == 0, written.stderr
    records = list(csv.DictReader(csv_lines(target.read_text(encoding="utf-8"))))
    assert set(records[0]) >= GROUP_LOST_KEYS


def test_simulated_group_lost_agrees_with_the_exact_figure(simulation: dict[str, Any]) -> None:
    """The same comparison through the exact figure's existing name (``p_group_lost``)."""
    evaluated = run_json("evaluate")
    exact = {x["label"]: x["p_group_lost"] for x in evaluated["layouts"]}
    for layout in simulation["layouts"]:
        low, high = layout["p_group_lost_ci95_low"], layout["p_group_lost_ci95_high"]
        assert low <= exact[layout["label"]] <= high, layout["label"]
