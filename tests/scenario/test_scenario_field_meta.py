"""Field metadata is declared once, on the Pydantic models, and read everywhere from there."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.analysis.varied_fields import SCENARIO_FIELDS
from planner.scenario import load_default_scenario, load_scenario_text, scenario_json_schema
from planner.scenario.edits import field_specs
from planner.scenario.fields import field_meta

EDITED = (
    "drive.arr",
    "drive.afr",
    "drive.mtbf_hours",
    "drive.latent_defects_per_hour",
    "drive.read_errors_per_byte",
    "drive.bytes_read_per_hour",
    "drive.capacity_tb",
    "restore.rebuild_hours",
    "restore.rebuild_mb_per_s",
    "restore.scrub_hours",
    "mission_years",
    "aggregate.data_disks",
)


@pytest.mark.parametrize("name", EDITED)
def test_every_edited_field_declares_label_unit_and_example(name: str) -> None:
    found = field_meta(name)
    assert found is not None
    assert found.label
    assert found.example
    assert found.description


def test_forms_come_from_the_model() -> None:
    arr, disks, capacity = (
        field_meta(n) for n in ("drive.arr", "aggregate.data_disks", "drive.capacity_tb")
    )
    assert arr is not None
    assert disks is not None
    assert capacity is not None
    assert (arr.percent, arr.integer, arr.replaces) == (True, False, ("afr", "mtbf_hours"))
    assert (disks.percent, disks.integer) == (False, True)
    assert (capacity.optional, capacity.unit) == (True, "TB")
    assert field_meta("name") is None  # text, not edited as a number


def test_the_json_schema_carries_the_metadata_for_editors() -> None:
    drive = scenario_json_schema()["$defs"]["DriveSpec"]["properties"]["arr"]
    assert drive["x-unit"] == "fraction of drives per year"
    assert drive["x-label"] == "ARR"


def test_the_tui_fields_the_sweep_and_the_tornado_use_the_same_units() -> None:
    specs = {spec.dotted: spec for spec in field_specs(load_default_scenario())}
    for field in SCENARIO_FIELDS:
        found = field_meta(field.name)
        assert found is not None
        assert field.unit == found.unit
        assert specs[field.name].label == found.label
        assert found.unit in specs[field.name].hint


def test_setting_an_alternative_removes_the_others_as_the_metadata_says() -> None:
    text = """
drive: {arr: 1.9%, latent_defects_per_hour: 1.0e-4}
restore: {rebuild_mb_per_s: 27, load: busy, scrub_hours: 168}
aggregate: {data_disks: 14}
layouts: [{raid: raid5, group_size: 8}]
"""
    scenario = load_scenario_text(
        text + "  \n", overrides=["drive.mtbf_hours=1.2e6", "restore.rebuild_hours=12"]
    )
    assert scenario.drive.arr is None
    assert scenario.drive.mtbf_hours == 1.2e6
    assert scenario.restore.rebuild_mb_per_s is None
    assert scenario.restore.load is None


def test_a_field_that_is_not_a_number_says_what_to_write() -> None:
    """'27c' in Rebuild MB/s said only 'is not a number' (newcomer review)."""
    from planner.scenario import load_scenario
    from planner.scenario.edits import EditError, field_specs, parse_text

    repo = Path(__file__).resolve().parents[2]
    scenario = load_scenario(repo / "scenarios" / "ns3574-table9-250mb.yaml")
    for spec in field_specs(scenario):
        if spec.kind in ("streams",):
            continue
        with pytest.raises(EditError) as info:
            parse_text(spec, "27c")
        assert "e.g." in str(info.value) or "like" in str(info.value), (spec.label, info.value)


@pytest.mark.parametrize("typed", ["1,9%", "12,5", "0,019", "1,0000", "12,50,000", ",5", "5,"])
def test_a_decimal_comma_is_refused_not_read_as_a_thousands_separator(typed: str) -> None:
    """'1,9%' in ARR became 19 % and was saved (newcomer review): a comma that does not
    group thousands is an error, as `--set drive.arr=1,9%` is."""
    from planner.scenario import load_default_scenario
    from planner.scenario.edits import EditError, field_specs, parse_text

    specs = {s.key: s for s in field_specs(load_default_scenario())}
    for key in ("drive-arr", "drive-capacity-tb"):
        with pytest.raises(EditError, match=r"decimal point"):
            parse_text(specs[key], typed)


@pytest.mark.parametrize(
    ("typed", "value"),
    [("1,000", 1000), ("100,000", 100000), ("1,234,567.5", 1234567.5), ("1_000", 1000)],
)
def test_thousands_separators_still_read(typed: str, value: float) -> None:
    from planner.scenario import load_default_scenario
    from planner.scenario.edits import field_specs, parse_text

    specs = {s.key: s for s in field_specs(load_default_scenario())}
    assert parse_text(specs["drive-capacity-tb"], typed) == value


def test_a_percentage_where_a_field_takes_none_says_so() -> None:
    """'150%' in the latent-defect rate said "'150%' is not a number" in the TUI and
    "expected a number" with no example on the command line (newcomer review)."""
    from planner.scenario import ScenarioError
    from planner.scenario.edits import EditError, parse_text

    scenario = load_default_scenario()
    for spec in field_specs(scenario):
        if field_meta(spec.dotted) is None or spec.kind in ("fraction", "fractions", "streams"):
            continue
        with pytest.raises(EditError, match="takes no percentage") as info:
            parse_text(spec, "150%")
        assert "e.g." in str(info.value), spec.label
    with pytest.raises(ScenarioError) as error:
        load_default_scenario(["drive.latent_defects_per_hour=150%"])
    assert "takes no percentage: write a number of latent defects per drive-hour" in str(
        error.value
    )
    assert "e.g. 1.08e-4" in str(error.value)
