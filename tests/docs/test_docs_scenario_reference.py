"""docs/scenario-reference.md is what ``planner schema --format markdown`` prints today.

The reference is generated from the scenario models' JSON Schema so that it cannot drift:
a field added, renamed, re-ranged or re-described without regenerating the page fails here,
with the command that regenerates it.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app
from planner.report.scenario_reference import REGENERATE, anchor, scenario_reference_markdown
from planner.scenario import scenario_json_schema

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "scenario-reference.md"


def test_the_committed_reference_is_the_generated_one() -> None:
    generated = scenario_reference_markdown(scenario_json_schema())
    committed = REFERENCE.read_text(encoding="utf-8")
    assert committed == generated, (
        "docs/scenario-reference.md is out of date with the scenario models; regenerate it "
        f"from the repository root with: .venv/bin/{REGENERATE}"
    )


def test_the_cli_prints_the_reference_and_the_schema() -> None:
    markdown = CliRunner().invoke(app, ["schema", "--format", "markdown"])
    assert markdown.exit_code == 0, markdown.stderr
    assert markdown.stdout == scenario_reference_markdown(scenario_json_schema())
    default = CliRunner().invoke(app, ["schema"])
    assert default.exit_code == 0, default.stderr
    assert json.loads(default.stdout) == scenario_json_schema()
    assert default.stdout == CliRunner().invoke(app, ["schema", "-f", "json"]).stdout


def test_a_wrong_format_is_bad_input() -> None:
    result = CliRunner().invoke(app, ["schema", "--format", "yaml"])
    assert result.exit_code == 2


def test_every_scenario_key_has_a_row_with_a_description() -> None:
    schema = scenario_json_schema()
    text = scenario_reference_markdown(schema)
    lines = text.splitlines()
    rows = {line.split("|")[1].strip(): line for line in lines if line.startswith("| `")}
    for key in schema["properties"]:
        assert f"`{key}`" in rows, key
    for name, definition in schema["$defs"].items():
        objects = [definition, *definition.get("anyOf", ())]
        for key, prop in (kv for node in objects for kv in node.get("properties", {}).items()):
            assert prop.get("description"), f"{name}.{key} has no description"
            assert f"`{key}`" in rows, f"{name}.{key}"


def test_one_section_per_scenario_section_with_its_path() -> None:
    text = scenario_reference_markdown(scenario_json_schema())
    headings = [line[3:] for line in text.splitlines() if line.startswith("## ")]
    assert headings[:10] == [
        "Top level",
        "drive",
        "restore",
        "aggregate",
        "layouts[]",
        "workload",
        "costs",
        "target",
        "search",
        "distributions",
    ]
    assert "[restore](#restore)" in text  # the top level links to each section
    assert "The same keys also at `distributions.restoration`, `distributions.scrub`." in text


def test_a_row_gives_type_unit_range_default_and_description() -> None:
    text = scenario_reference_markdown(scenario_json_schema())
    (arr,) = [line for line in text.splitlines() if line.startswith("| `arr` |")]
    assert "number or text such as `1.9%`" in arr
    assert "fraction of drives per year; ≥ 1e-06, < 1" in arr
    assert "Excludes `afr` and `mtbf_hours`." in arr
    (scrub,) = [line for line in text.splitlines() if line.startswith("| `scrub_hours` |")]
    assert "| hours; ≥ 0.001, ≤ 87,600 | required |" in scrub
    (search_parity,) = [
        line for line in text.splitlines() if line.startswith("| `parity` | list of")
    ]
    assert "| `[1, 2, 3]` |" in search_parity


def test_key_rules_and_preset_alternatives_are_stated() -> None:
    schema = {
        "type": "object",
        "properties": {"one": {"$ref": "#/$defs/One"}},
        "$defs": {
            "One": {
                "anyOf": [{"enum": ["preset"], "type": "string"}, {"properties": {}}],
                "oneOf": [{"required": ["a"]}, {"required": ["b", "c"]}],
                "not": {"required": ["a", "b"]},
                "properties": {"a": {"type": "number", "description": "A | B."}},
            }
        },
    }
    text = scenario_reference_markdown(schema)
    assert "Instead of a mapping: one of `preset`." in text
    assert "Give exactly one of these sets of keys: `a`; or `b` and `c`." in text
    assert "Not both `a` and `b`." in text
    assert "| A \\| B. |" in text  # a pipe in a description does not end the cell
    assert "one of `preset` or mapping ([one](#one))" in text


def test_anchors_are_githubs() -> None:
    assert anchor("layouts[]") == "layouts"
    assert anchor("Top level") == "top-level"
    assert anchor("distributions.scrub.weibull") == "distributionsscrubweibull"
