"""The inputs line of a sized result names what it is sized for, not aggregate.data_disks."""

from __future__ import annotations

from pathlib import Path

from planner.analysis.compare import compare_data
from planner.analysis.inputs import scenario_inputs
from planner.analysis.recommend import DEFAULT_TARGET, recommendation
from planner.analysis.sizing_report import sizing_report
from planner.report.inputs import inputs_record, inputs_summary
from planner.scenario import load_scenario

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def test_a_workload_sizing_and_its_search_do_not_claim_the_files_data_drives() -> None:
    scenario = load_scenario(SCENARIOS / "ns3574-table9-250mb.yaml")
    fixed = f"{scenario.aggregate.data_disks:,} data drives"
    inputs = scenario_inputs(scenario)
    assert fixed in inputs_summary(inputs)  # the fixed aggregate (planner evaluate) uses them
    sizing = sizing_report(scenario, inputs)
    assert sizing is not None
    assert sizing.inputs is not None
    assert fixed not in inputs_summary(sizing.inputs)
    assert "data drives sized for the workload" in inputs_summary(sizing.inputs)
    search = recommendation(scenario, None, (), DEFAULT_TARGET)
    assert search.inputs is not None
    assert fixed not in inputs_summary(search.inputs)
    assert f"data drives sized for {search.requirement}" in inputs_summary(search.inputs)
    assert inputs_record(search.inputs) == inputs_record(inputs)  # the JSON keeps the file's values


def test_the_compare_data_of_a_workload_keeps_both_lines() -> None:
    scenario = load_scenario(SCENARIOS / "ns3574-table9-250mb.yaml")
    data = compare_data(scenario)
    assert data.sizing is not None
    assert data.sizing.inputs is not None
    assert "sized for the workload" in inputs_summary(data.sizing.inputs)
    assert f"{scenario.aggregate.data_disks:,} data drives" in inputs_summary(data.inputs)
