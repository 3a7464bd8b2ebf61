"""The optional distributions section: the preset, explicit mappings, and every rejection."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.core.simulation.distributions import ELERATH_2009, exponential_from_rates
from planner.core.simulation.time_laws import Exponential, Weibull
from planner.scenario import (
    Scenario,
    ScenarioError,
    load_scenario,
    load_scenario_text,
    scenario_json_schema,
)
from planner.scenario.distributions import CONSTANT_RATES, distribution_set
from planner.scenario.edits import scenario_data

BASE = """\
name: distributions test
drive:
  arr: 1.9%
  latent_defects_per_hour: 1.08e-4
restore:
  rebuild_hours: 12
  scrub_hours: 168
aggregate:
  data_disks: 42
layouts:
  - raid: raid-dp
    group_size: 16
"""

EXPLICIT = """\
distributions:
  operational_failure:
    weibull: {shape: 1.2, scale_hours: 461386}
  restoration:
    weibull:
      shape: 2.0
      scale_hours: 12
      location_hours: 6
  scrub:
    exponential: {mean_hours: 168}
  latent_defects_per_hour: 2.0e-4
"""


def write(tmp_path: Path, section: str) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(BASE + section, encoding="utf-8")
    return path


def rejected(tmp_path: Path, section: str) -> ScenarioError:
    path = write(tmp_path, section)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.path == str(path)
    return info.value


def test_without_section_the_constant_rates_are_exponentials() -> None:
    scenario = load_scenario_text(BASE)
    assert scenario.distributions is None
    distributions, name = distribution_set(scenario.distributions, scenario.rates())
    assert distributions == exponential_from_rates(scenario.rates())
    assert name == CONSTANT_RATES


@pytest.mark.parametrize("written", ["elerath2009", "Elerath-2009", "'elerath_2009'"])
def test_preset_by_name(written: str) -> None:
    scenario = load_scenario_text(BASE + f"distributions: {written}\n")
    assert scenario.distributions is not None
    assert scenario.distributions.name == "elerath2009"
    assert scenario.distributions.to_core(scenario.rates()) == ELERATH_2009


def test_explicit_mapping(tmp_path: Path) -> None:
    scenario = load_scenario(write(tmp_path, EXPLICIT))
    assert scenario.distributions is not None
    core = scenario.distributions.to_core(scenario.rates())
    assert core.operational_failure == Weibull(1.2, 461_386.0, 0.0)
    assert core.restoration == Weibull(2.0, 12.0, 6.0)
    assert core.scrub == Exponential(168.0)
    assert core.latent_defects_per_hour == 2.0e-4
    assert scenario.distributions.name == "custom"


def test_keys_left_out_come_from_the_constant_rates() -> None:
    text = BASE + "distributions:\n  restoration:\n    weibull: {shape: 2, scale_hours: 10}\n"
    scenario = load_scenario_text(text)
    assert scenario.distributions is not None
    core = scenario.distributions.to_core(scenario.rates())
    constant = exponential_from_rates(scenario.rates())
    assert core.restoration == Weibull(2.0, 10.0)
    assert core.operational_failure == constant.operational_failure
    assert core.scrub == constant.scrub
    assert core.latent_defects_per_hour == constant.latent_defects_per_hour


def test_keys_left_out_come_from_the_preset() -> None:
    text = (
        BASE
        + "distributions:\n  preset: elerath2009\n  scrub:\n    exponential: {mean_hours: 24}\n"
    )
    scenario = load_scenario_text(text)
    assert scenario.distributions is not None
    core = scenario.distributions.to_core(scenario.rates())
    assert core.scrub == Exponential(24.0)
    assert core.operational_failure == ELERATH_2009.operational_failure
    assert core.restoration == ELERATH_2009.restoration
    assert scenario.distributions.name == "elerath2009 (modified)"


def test_set_override_names_the_preset() -> None:
    scenario = load_scenario_text(BASE, overrides=["distributions=elerath2009"])
    assert scenario.distributions is not None
    assert scenario.distributions.to_core(scenario.rates()) == ELERATH_2009


def test_round_trips_through_model_dump() -> None:
    scenario = load_scenario_text(BASE + EXPLICIT)
    again = Scenario.model_validate(scenario_data(scenario))
    assert again.distributions == scenario.distributions


@pytest.mark.parametrize(
    ("section", "line", "column", "field", "hint"),
    [
        (
            "distributions: elerth2009\n",
            13,
            16,
            "distributions",
            "unknown distributions preset 'elerth2009'; did you mean 'elerath2009'?",
        ),
        (
            "distributions:\n  preset: elerat\n",
            14,
            11,
            "distributions.preset",
            "did you mean 'elerath2009'?",
        ),
        (
            "distributions:\n  restoration:\n    weibul: {shape: 2, scale_hours: 12}\n",
            15,
            5,
            "distributions.restoration.weibul",
            "unknown key 'weibul'; did you mean 'weibull'?",
        ),
        (
            "distributions:\n  restorations:\n    weibull: {shape: 2, scale_hours: 12}\n",
            14,
            3,
            "distributions.restorations",
            "did you mean 'restoration'?",
        ),
        (
            "distributions:\n  scrub:\n    weibull: {shape: 0, scale_hours: 168}\n",
            15,
            22,
            "distributions.scrub.weibull.shape",
            "must be greater than 0",
        ),
        (
            "distributions:\n  scrub:\n    weibull: {shape: 3}\n",
            15,
            5,
            "distributions.scrub.weibull.scale_hours",
            "missing required key 'scale_hours'",
        ),
        (
            "distributions:\n  scrub:\n    exponential: {mean_hours: '168'}\n",
            15,
            31,
            "distributions.scrub.exponential.mean_hours",
            "write 168 without quotes",
        ),
        (
            "distributions:\n  scrub: {}\n",
            14,
            3,
            "distributions.scrub",
            "give the distribution as weibull",
        ),
        (
            "distributions:\n  scrub:\n    weibull: {shape: 3, scale_hours: 168}\n"
            "    exponential: {mean_hours: 168}\n",
            16,
            5,
            "distributions.scrub.exponential",
            "not both",
        ),
        (
            "distributions:\n  latent_defects_per_hour: -1e-4\n",
            14,
            28,
            "distributions.latent_defects_per_hour",
            "must be at least 0",
        ),
        (
            "distributions: 3\n",
            13,
            16,
            "distributions",
            "expected a preset name (elerath2009) or a mapping",
        ),
    ],
)
def test_rejections_name_line_column_field_and_hint(
    tmp_path: Path, section: str, line: int, column: int, field: str, hint: str
) -> None:
    err = rejected(tmp_path, section)
    assert (err.line, err.column, err.field) == (line, column, field), str(err)
    assert hint in err.message


def test_bad_preset_in_override_names_the_override() -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(BASE, overrides=["distributions=weibull"])
    assert info.value.path == "--set distributions=weibull"
    assert "unknown distributions preset 'weibull'" in info.value.message


def test_json_schema_accepts_the_preset_name_or_a_mapping() -> None:
    schema = scenario_json_schema()
    assert "distributions" in schema["properties"]
    variants = schema["$defs"]["Distributions"]["anyOf"]
    assert {"type": "string", "enum": ["elerath2009"]} in variants
    mapping = next(v for v in variants if v.get("type") == "object")
    assert set(mapping["properties"]) == {
        "preset",
        "operational_failure",
        "restoration",
        "scrub",
        "latent_defects_per_hour",
    }
    assert mapping["additionalProperties"] is False
