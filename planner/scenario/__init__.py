"""Scenario files: YAML -> validated, typed values for the core, with file:line:col errors.

Typical use::

    from planner.scenario import ScenarioError, load_scenario

    scenario = load_scenario("scenarios/ns3574-table4.yaml", overrides=["drive.arr=2.5%"])
    rates = scenario.rates()
    layouts = scenario.core_layouts()
"""

from planner.scenario.aggregate import Aggregate
from planner.scenario.errors import ScenarioError
from planner.scenario.loader import (
    DEFAULT_SOURCE,
    default_scenario_text,
    load_default_scenario,
    load_plan,
    load_plan_text_document,
    load_scenario,
    load_scenario_document,
    load_scenario_text,
    load_scenario_text_document,
    scenario_json_schema,
    scenario_with_overrides,
)
from planner.scenario.plan import Plan, Tier
from planner.scenario.schema import DriveSpec, LayoutSpec, Restore, Scenario, Workload

__all__ = [
    "DEFAULT_SOURCE",
    "Aggregate",
    "DriveSpec",
    "LayoutSpec",
    "Plan",
    "Restore",
    "Scenario",
    "ScenarioError",
    "Tier",
    "Workload",
    "default_scenario_text",
    "load_default_scenario",
    "load_plan",
    "load_plan_text_document",
    "load_scenario",
    "load_scenario_document",
    "load_scenario_text",
    "load_scenario_text_document",
    "scenario_json_schema",
    "scenario_with_overrides",
]
