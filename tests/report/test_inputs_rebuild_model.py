"""The inputs line says what turns a rebuild rate into its hours.

A newcomer read recommend's "rebuild 77.2 h (285 MB/s)": 20 TB at 285 MB/s is 19.5 h, and
nothing said the other x3.96 was the scenario's busy load. The line now says the factor and
what gives it, and a delay before the rebuild starts; JSON gives the factor and the delay.
What gives it is named as the file writes it, ``restore.load: busy`` (it was "load busy",
a key no file has).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from planner.analysis.inputs import scenario_inputs
from planner.cli.app import app
from planner.report.inputs import inputs_record, inputs_summary
from planner.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
TODAY = SCENARIOS / "today-20tb-nl-sas.yaml"


def _rebuild_words(*sets: str) -> tuple[str, float]:
    scenario = load_scenario(TODAY, list(sets))
    inputs = scenario_inputs(scenario)
    match = re.search(r"rebuild [\d.,]+ h \(([^)]*)\)", inputs_summary(inputs))
    assert match is not None, inputs_summary(inputs)
    return match.group(1), scenario.rebuild_hours


def test_the_rate_says_the_load_that_slows_it_and_the_hours_follow_from_both() -> None:
    words, hours = _rebuild_words()
    assert words == "285 MB/s slowed x3.96 by restore.load: busy"
    # 20 TB at 285 MB/s, x3.96: the hours the table uses, from the words alone
    assert abs(20e6 / 285 / 3600 * 3.96 - hours) / hours < 0.01


def test_a_load_factor_and_a_delay_are_said_and_exported() -> None:
    sets = ["restore.load=null", "restore.load_factor=2", "restore.replace_delay_hours=24"]
    words, hours = _rebuild_words(*sets)
    assert words == ("285 MB/s slowed x2 by restore.load_factor, after 24 h to replace the drive")
    assert abs(20e6 / 285 / 3600 * 2 + 24 - hours) / hours < 0.01
    record = inputs_record(scenario_inputs(load_scenario(TODAY, sets)))
    assert record["rebuild_load_factor"] == 2
    assert record["replace_delay_hours"] == 24


def test_nothing_more_is_said_when_nothing_slows_the_rate_or_hours_are_given() -> None:
    assert _rebuild_words("restore.load=idle")[0] == "285 MB/s"
    paper = scenario_inputs(load_scenario(SCENARIOS / "ns3574-default.yaml"))
    assert "rebuild 12 h," in inputs_summary(paper)
    assert "rebuild_load_factor" not in inputs_record(paper)


def test_recommend_says_the_load_in_its_inputs_line_and_json() -> None:
    scenario = str(SCENARIOS / "recommend-400tb.yaml")
    result = CliRunner().invoke(app, ["recommend", scenario, "-f", "markdown"])
    assert result.exit_code == 0, result.output
    assert "rebuild 77.2 h (285 MB/s slowed x3.96 by restore.load: busy)" in result.output
    result = CliRunner().invoke(app, ["recommend", scenario, "-f", "json"])
    assert round(json.loads(result.output)["inputs"]["rebuild_load_factor"], 2) == 3.96
