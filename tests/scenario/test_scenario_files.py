"""The shipped scenarios load, say what they claim, and convert to the core's values."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from shipped import SINGLE_AGGREGATE

from planner.core.arrays.layouts import Layout
from planner.core.design.layout_comparison import compare_layouts
from planner.core.markov.rates import (
    PAPER_RATES,
    afr_to_failures_per_hour,
    arr_to_failures_per_hour,
)
from planner.scenario import load_scenario, load_scenario_text
from planner.scenario.edits import EditError
from planner.scenario.layout_edits import with_baseline, with_layout_added

REPO = Path(__file__).resolve().parents[2]
SHIPPED = SINGLE_AGGREGATE  # a plan's tiers: the plan tests (tests/shipped.py)


def by_name(name: str) -> Path:
    return REPO / "scenarios" / name


def test_the_expected_scenarios_are_shipped() -> None:
    names = {path.name for path in SHIPPED}
    assert {
        "ns3574-default.yaml",
        "ns3574-table2-n+1.yaml",
        "ns3574-table3-n+2.yaml",
        "ns3574-table4.yaml",
        "example-modern-nl-sas.yaml",
        "ns3574-table9-250mb.yaml",
        "ns3574-table9-1024mb.yaml",
        "lenovo-s3200.yaml",
    } <= names


@pytest.mark.parametrize("path", SHIPPED, ids=[path.name for path in SHIPPED])
def test_every_shipped_scenario_loads_and_evaluates(path: Path) -> None:
    scenario = load_scenario(path)
    layouts = scenario.core_layouts()
    assert layouts
    assert all(isinstance(layout, Layout) for layout in layouts)
    comparison = compare_layouts(
        layouts,
        data_disks=scenario.aggregate.data_disks,
        rates=scenario.rates(),
        mission_hours=scenario.mission_hours,
        baseline=scenario.baseline_label(),
        capacity_tb=scenario.drive.capacity_tb,
    )
    assert comparison.baseline == scenario.baseline_label()
    assert all(0 <= result.p_loss_aggregate <= 1 for result in comparison.results)


@pytest.mark.parametrize(
    "name",
    [
        "ns3574-default.yaml",
        "ns3574-table2-n+1.yaml",
        "ns3574-table3-n+2.yaml",
        "ns3574-table4.yaml",
    ],
)
def test_paper_scenarios_use_the_papers_rates(name: str) -> None:
    scenario = load_scenario(by_name(name))
    rates = scenario.rates()
    assert rates.op_failures_per_hour == pytest.approx(PAPER_RATES.op_failures_per_hour)
    assert rates.latent_defects_per_hour == pytest.approx(PAPER_RATES.latent_defects_per_hour)
    assert rates.rebuild_hours == PAPER_RATES.rebuild_hours
    assert rates.scrub_hours == PAPER_RATES.scrub_hours
    assert scenario.mission_hours == 5 * 8760
    assert scenario.aggregate.data_disks == 42


def test_table2_group_sizes() -> None:
    scenario = load_scenario(by_name("ns3574-table2-n+1.yaml"))
    assert [layout.group_size for layout in scenario.layouts] == [2, 3, 4, 7, 8, 15, 22]
    assert {layout.parity for layout in scenario.layouts} == {1}
    assert scenario.layouts[0].raid == "raid10"


def test_table3_group_sizes() -> None:
    scenario = load_scenario(by_name("ns3574-table3-n+2.yaml"))
    assert [(lay.raid, lay.group_size) for lay in scenario.layouts] == [
        ("raid-dp", 5),
        ("raid-dp", 8),
        ("raid-dp", 9),
        ("raid-dp", 16),
        ("raid-dp", 23),
    ]


def test_table4_layouts() -> None:
    scenario = load_scenario(by_name("ns3574-table4.yaml"))
    assert [(lay.label, lay.parity, lay.group_size) for lay in scenario.layouts] == [
        ("RAID 10", 1, 2),
        ("RAID 5 (7+1)", 1, 8),
        ("RAID 6 (7+2)", 2, 9),
        ("RAID-DP (7+2)", 2, 9),
    ]
    assert scenario.baseline_label() == "RAID-DP (7+2)"
    assert scenario.drive.read_errors_per_byte == pytest.approx(8e-15)


def test_modern_example() -> None:
    scenario = load_scenario(by_name("example-modern-nl-sas.yaml"))
    assert scenario.drive.capacity_tb == 16
    assert scenario.aggregate.data_disks == 60
    assert scenario.layouts[-1].raid is None
    assert scenario.layouts[-1].label == "n+4 (12+4)"


TEMPLATE = """\
drive:
  {rate}
  latent_defects_per_hour: 1.0e-4
restore: {{rebuild_hours: 12, scrub_hours: 168}}
aggregate: {{data_disks: 10}}
layouts: [{{parity: 2, group_size: 6}}]
"""


@pytest.mark.parametrize(
    ("rate", "per_hour"),
    [
        ("arr: 1.9%", arr_to_failures_per_hour(0.019)),
        ("arr: '1.9%'", arr_to_failures_per_hour(0.019)),
        ("arr: 0.5 %", arr_to_failures_per_hour(0.005)),
        ("arr: .5%", arr_to_failures_per_hour(0.005)),
        ("arr: 0.019", arr_to_failures_per_hour(0.019)),
        ("arr: 1e-2", arr_to_failures_per_hour(0.01)),
        ("afr: 2%", afr_to_failures_per_hour(0.02)),
        ("afr: 0.02", -math.log1p(-0.02) / 8760),
        ("mtbf_hours: 1200000", 1 / 1.2e6),
        ("mtbf_hours: 1_000_000", 1e-6),
    ],
)
def test_failure_rate_forms(rate: str, per_hour: float) -> None:
    scenario = load_scenario_text(TEMPLATE.format(rate=rate))
    assert scenario.rates().op_failures_per_hour == pytest.approx(per_hour, rel=1e-12)


def test_parity_only_layout_and_default_label() -> None:
    scenario = load_scenario_text(TEMPLATE.format(rate="arr: 1%"))
    assert scenario.core_layouts() == [Layout(label="n+2 6", raid=None, parity=2, group_size=6)]
    assert scenario.baseline_label() == "n+2 6"


def test_layout_edits_revalidate() -> None:
    scenario = load_scenario(by_name("ns3574-table4.yaml"))
    added = with_layout_added(scenario, raid="raid-tp", parity=None, group_size=10)
    changed = with_baseline(added, "raid-tp 10")
    assert changed.baseline_label() == "raid-tp 10"
    assert changed.layouts[-1].parity == 3
    assert scenario.layouts[-1].label == "RAID-DP (7+2)"
    with pytest.raises(EditError, match="duplicate label"):
        with_layout_added(added, raid="raid-tp", parity=None, group_size=10)
