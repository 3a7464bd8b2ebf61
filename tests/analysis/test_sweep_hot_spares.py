"""``sweep --vary aggregate.hot_spares``: how many spares an aggregate needs, in one table.

How many hot spares to buy is an admin's first question about a wait for replacements, and
``--set aggregate.hot_spares=N`` answered it one N at a time. Each row of the sweep must be
the figure evaluate gives at that N (the path checked against the mpmath chain in
tests/analysis/test_hot_spares_wait.py), count the spares in its drives, and never rise
with more spares.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
TODAY = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
WAIT = "restore.replace_delay_hours=72"


def _evaluated(spares: int) -> dict[str, dict[str, float]]:
    """evaluate's JSON rows by label, with ``spares`` hot spares."""
    sets = ["--set", WAIT, "--set", f"aggregate.hot_spares={spares}"]
    result = CliRunner().invoke(app, ["evaluate", str(TODAY), *sets, "--format", "json"])
    assert result.exit_code == 0, result.output
    return {row["label"]: row for row in json.loads(result.stdout)["layouts"]}


def _sweep_rows(*options: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(
        app, ["sweep", str(TODAY), "--set", WAIT, *options, "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.stdout)["rows"]
    return rows


def test_each_row_is_evaluates_figure_at_that_many_spares() -> None:
    rows = _sweep_rows("--vary", "aggregate.hot_spares=0..4:5")
    assert sorted({row["value"] for row in rows}) == [0, 1, 2, 3, 4]
    for row in rows:
        spares = int(row["value"])  # type: ignore[call-overload]
        same = _evaluated(spares)[str(row["label"])]
        assert (
            abs(row["p_loss_aggregate"] - same["p_loss_aggregate"])
            <= 1e-12 * same["p_loss_aggregate"]
        ), (row["label"], spares)
        assert row["total_disks"] == same["total_disks"], (row["label"], spares)


def test_more_spares_never_raise_the_risk() -> None:
    rows = _sweep_rows("--vary", "aggregate.hot_spares=0..6:7")
    by_label: dict[str, list[tuple[float, float]]] = {}
    for row in rows:
        by_label.setdefault(str(row["label"]), []).append(
            (float(row["value"]), float(row["p_loss_aggregate"]))  # type: ignore[arg-type]
        )
    for label, points in by_label.items():
        risks = [risk for _, risk in sorted(points)]
        assert all(b <= a for a, b in itertools.pairwise(risks)), (label, risks)
    raid6 = sorted(by_label["RAID 6 (10+2)"])
    assert raid6[1][1] < 0.6 * raid6[0][1]  # one spare takes most of the 72 h wait away


def test_without_a_wait_the_sweep_says_the_spares_change_nothing() -> None:
    result = CliRunner().invoke(app, ["sweep", str(TODAY), "--vary", "aggregate.hot_spares=0..2:3"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "aggregate.hot_spares changes no probability here" in text
    waited = CliRunner().invoke(
        app, ["sweep", str(TODAY), "--set", WAIT, "--vary", "aggregate.hot_spares=0..2:3"]
    )
    text = " ".join(waited.stdout.split())
    assert "changes no probability" not in text
    assert "B(s, A)" in text  # each row's own count, not the scenario's 0
    assert "all 0 taken" not in text


def test_a_whole_number_field_says_which_values_the_rounding_kept() -> None:
    """A newcomer's review: ``--vary aggregate.hot_spares=0..4:4`` said "4 values evenly
    spaced" and showed 0, 1, 3 and 4 (1.33 and 2.67 rounded, in silence)."""
    result = CliRunner().invoke(app, ["sweep", str(TODAY), "--vary", "aggregate.hot_spares=0..4:4"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "4 values evenly spaced, rounded to whole drives: 0, 1, 3, 4." in text


def test_the_narrow_table_keeps_the_drives_to_buy() -> None:
    """A newcomer's find: at 80 columns the spares sweep dropped Total drives, its answer."""
    args = ["sweep", str(TODAY), "--set", "restore.replace_delay_hours=72"]
    narrow = CliRunner().invoke(
        app, [*args, "--vary", "aggregate.hot_spares=0..2:3"], env={"COLUMNS": "80"}
    )
    assert narrow.exit_code == 0, narrow.output
    header = narrow.output.split("┡")[0]
    assert "Total" in header, header
    assert "Not shown at this width:" in narrow.output
    assert "Overhead drives" in narrow.output.split("Not shown at this width:")[1]
    paper = CliRunner().invoke(app, ["sweep"], env={"COLUMNS": "80"})  # the paper's tables
    assert "Over-" in paper.output.split("┡")[0]
