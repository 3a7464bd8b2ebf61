"""Dedicated hot spares (issue 20, item 5): ``aggregate.hot_spares`` in every drive count,
the power and the cost, and in nothing else.

The costs are worked out here from their definitions (purchase: drives x price + groups x
the enclosure share; replacements: expected failures, drives x lambda x T, at the drive's
price; energy: drives x W x T x price per kWh), with the spares among the drives.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.analysis.compare import comparison
from planner.analysis.recommend import recommendation
from planner.analysis.sizing_report import sized_results
from planner.analysis.sweep import sweep_report
from planner.analysis.sweep_series import group_size_series
from planner.cli import app
from planner.scenario import load_scenario
from tests import reference

SCENARIO = """\
name: spares
mission_years: 5
drive:
  arr: 4%
  latent_defects_per_hour: 1e-5
  capacity_tb: 4
  class: 7.2k
  price: 100
  watts: 7
restore:
  rebuild_hours: 24
  scrub_hours: 168
aggregate:
  data_disks: 24{spares}
layouts:
  - raid: raid6
    group_size: 8
workload:
  iops: 500
  read_fraction: 0.7
  capacity_tb: 50
costs:
  energy_per_kwh: 0.2
  per_group: 900
target:
  max_p_loss: 2%
search:
  parity: [1, 2]
  group_sizes: [3, 8]
"""
LOP = 0.04 / reference.HOURS_PER_YEAR
MISSION = 5 * reference.HOURS_PER_YEAR


def _path(tmp_path: Path, spares: int | None) -> Path:
    path = tmp_path / f"spares-{spares}.yaml"
    extra = "" if spares is None else f"\n  hot_spares: {spares}"
    path.write_text(SCENARIO.format(spares=extra), encoding="utf-8")
    return path


def _tco(drives: int, groups: int) -> float:
    purchase = drives * 100 + groups * 900
    replacements = drives * LOP * MISSION * 100
    energy = drives * 7 * MISSION / 1000 * 0.2
    return purchase + replacements + energy


def test_evaluate_counts_the_spares_in_drives_and_cost(tmp_path: Path) -> None:
    # failed first: aggregate.hot_spares was an unknown key; spares were in no count or cost
    none = comparison(load_scenario(_path(tmp_path, None))).results[0]
    two = comparison(load_scenario(_path(tmp_path, 2))).results[0]
    groups = 4  # 24 data drives in groups of 6 + 2
    assert none.shape.total_disks == 32
    assert two.shape.total_disks == 34
    assert two.shape.overhead_disks == none.shape.overhead_disks + 2
    assert two.shape.groups == groups
    # the spares hold no data: the risk and the usable capacity are unchanged
    assert two.p_loss_aggregate == none.p_loss_aggregate
    assert two.usable_tb == none.usable_tb
    assert two.cost is not None
    assert two.cost.total_cost == pytest.approx(_tco(34, groups), rel=1e-12)
    assert two.cost.purchase_cost == pytest.approx(34 * 100 + groups * 900, rel=1e-12)
    assert two.cost.expected_replacements == pytest.approx(34 * LOP * MISSION, rel=1e-12)
    assert two.cost.energy_kwh == pytest.approx(34 * 7 * MISSION / 1000, rel=1e-12)
    assert none.cost is not None
    assert none.cost.total_cost == pytest.approx(_tco(32, groups), rel=1e-12)


def test_zero_spares_changes_nothing(tmp_path: Path) -> None:
    runner = CliRunner()
    for command in ("evaluate", "size", "recommend", "sweep"):
        outputs = []
        for spares in (None, 0):
            result = runner.invoke(app, [command, str(_path(tmp_path, spares)), "-f", "json"])
            assert result.exit_code == 0, result.stderr
            document = json.loads(result.stdout)
            document["inputs"].pop("hot_spares", None)
            outputs.append(document)
        assert outputs[0] == outputs[1], command


def test_size_sweep_and_recommend_count_the_spares(tmp_path: Path) -> None:
    none = load_scenario(_path(tmp_path, None))
    three = load_scenario(_path(tmp_path, 3))
    sized_none, sized_three = sized_results(none), sized_results(three)
    assert sized_none is not None
    assert sized_three is not None
    a, b = sized_none[0], sized_three[0]
    assert b.disks_needed == a.disks_needed + 3
    assert (b.disks_for_capacity, b.disks_for_iops, b.groups) == (
        a.disks_for_capacity,
        a.disks_for_iops,
        a.groups,
    )
    assert b.cost is not None
    assert b.cost.total_cost == pytest.approx(_tco(b.disks_needed, b.groups), rel=1e-12)
    table = sweep_report(three, [2], [8], True, None, False).table
    assert table.total_disks.tolist() == [32 + 3]
    series = group_size_series(three, (2,))
    assert all(p.total_disks == p.groups * p.group_size + 3 for s in series for p in s.points)
    found_none, found_three = recommendation(none), recommendation(three)
    assert found_three.top is not None
    assert found_none.top is not None
    for c in found_three.meeting:
        assert c.cost is not None
        assert c.rank_cost == pytest.approx(_tco(c.total_disks, c.groups), rel=1e-12)
    drives = {c.layout.label: c.total_disks for c in found_none.meeting}
    assert {c.layout.label: c.total_disks - 3 for c in found_three.meeting} == drives


def test_max_drives_counts_the_spares(tmp_path: Path) -> None:
    none = recommendation(load_scenario(_path(tmp_path, None)))
    assert none.top is not None
    limit = none.top.total_disks
    capped = ["--set", f"target.max_drives={limit}"]
    spared = recommendation(load_scenario(_path(tmp_path, 1), [capped[1]]))
    assert all(c.total_disks <= limit for c in spared.meeting)
    assert none.top.layout.label not in {c.layout.label for c in spared.meeting}


def test_exports_and_inputs_name_the_spares(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["evaluate", str(_path(tmp_path, 2)), "-f", "json"])
    document = json.loads(result.stdout)
    assert document["inputs"]["hot_spares"] == 2
    assert document["layouts"][0]["total_disks"] == 34
    result = CliRunner().invoke(app, ["evaluate", str(_path(tmp_path, 2)), "-f", "csv"])
    assert "2 dedicated hot spares in every drive count" in result.stdout.splitlines()[0]
    result = CliRunner().invoke(app, ["evaluate", str(_path(tmp_path, 2))])
    assert "Drive counts include 2 dedicated hot spares" in " ".join(result.stdout.split())


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("-1", "out of range: must be at least 0"),
        ("1.5", "expected a whole number, got 1.5"),
        ("two", "whole"),
    ],
)
def test_bad_spares_are_one_line_at_the_position(tmp_path: Path, value: str, fragment: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SCENARIO.format(spares=f"\n  hot_spares: {value}"), encoding="utf-8")
    result = CliRunner().invoke(app, ["evaluate", str(path)])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert "\n" not in line
    assert f"{path}:15:15: aggregate.hot_spares: " in line
    assert fragment in line
