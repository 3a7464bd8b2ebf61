"""Sized for a workload, the cost per TB is per TB needed, not per TB the IOPS bought.

A newcomer's purchase (500 TB, 15,000 IOPS on 20 TB drives): RAID 6 (10+2), which the
IOPS make 480 drives and 7,200 TB usable, showed 31.50 USD per TB beside a three-way
mirror's 78.76, though it costs 85,000 USD more: per usable TB, capacity nobody asked for
looks cheap. Every aggregate sized for a workload (or a target's usable TB) holds the TB
needed, so ``planner size`` and ``planner recommend`` now show the TCO per TB needed, which
ranks as the TCO does; the exports keep the cost per usable TB beside it. A fixed
aggregate (``evaluate``) keeps the cost per usable TB, its only capacity. The checks are
from the JSON's own TCO and the scenario's capacity. These tests failed first.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

PURCHASE = """\
name: purchase
drive:
  model: nl-sas-20tb
  arr: 1%
  price: 400
  watts: 8
costs:
  energy_per_kwh: 0.15
  currency: USD
restore:
  load: busy
  scrub_hours: 168
aggregate:
  data_disks: 28
layouts:
  - {raid: mirror3, label: 3-way mirror}
  - {raid: raid6, group_size: 12, label: RAID 6 (10+2)}
  - {raid: raid-tp, group_size: 15}
workload:
  iops: 15000
  read_fraction: 0.7
  capacity_tb: 500
"""


@pytest.fixture
def purchase(tmp_path: Path) -> Path:
    path = tmp_path / "purchase.yaml"
    path.write_text(PURCHASE, encoding="utf-8")
    return path


def test_size_prices_each_aggregate_per_tb_needed(purchase: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["size", str(purchase), "-f", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["layouts"]
    for row in rows:
        assert row["cost_per_needed_tb"] == pytest.approx(row["total_cost"] / 500, rel=1e-12)
        assert row["cost_per_usable_tb"] == pytest.approx(
            row["total_cost"] / row["usable_tb"], rel=1e-12
        )
    by_needed = sorted(rows, key=lambda r: r["cost_per_needed_tb"])
    assert by_needed == sorted(rows, key=lambda r: r["total_cost"])
    mirror, raid6 = rows[0], rows[1]
    assert raid6["total_cost"] > mirror["total_cost"]
    assert raid6["cost_per_usable_tb"] < mirror["cost_per_usable_tb"]  # the misleading one
    assert raid6["cost_per_needed_tb"] > mirror["cost_per_needed_tb"]

    table = runner.invoke(app, ["size", str(purchase)], env={"COLUMNS": "250"})
    text = " ".join(table.stdout.split())
    assert "TCO/TB needed" in text
    assert "TCO/TB per TB needed (500.0 TB)" in text


def test_recommend_shows_the_cost_per_tb_needed(purchase: Path) -> None:
    result = CliRunner().invoke(app, ["recommend", str(purchase), "-f", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    candidates = [*document["front"], *document["candidates"]]
    assert candidates
    for row in candidates:
        assert row["cost_per_needed_tb"] == pytest.approx(row["total_cost"] / 500, rel=1e-12)


def test_a_fixed_aggregate_keeps_the_cost_per_usable_tb(purchase: Path) -> None:
    result = CliRunner().invoke(app, ["evaluate", str(purchase), "-f", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["layouts"]
    assert all("cost_per_needed_tb" not in row for row in rows)
    assert all(r["cost_per_usable_tb"] == r["total_cost"] / r["usable_tb"] for r in rows)


def test_the_design_review_says_one_cost_rule(purchase: Path, tmp_path: Path) -> None:
    """The review of a workload shows the sized table, priced per TB needed; its inputs
    section still said "TCO/TB per usable TB" (the fixed aggregate's rule) above it."""
    target = tmp_path / "review.md"
    result = CliRunner().invoke(app, ["report", str(purchase), "-o", str(target)])
    assert result.exit_code == 0, result.output
    costs = [line for line in target.read_text().splitlines() if line.startswith("- Cost: ")]
    assert len(costs) == 1, costs
    assert costs[0].endswith("TCO/TB per TB needed (500.0 TB).")
    fixed = CliRunner().invoke(app, ["evaluate", str(purchase), "-f", "markdown"]).stdout
    assert "TCO/TB per usable TB." in fixed  # evaluate's fixed aggregate keeps its rule
