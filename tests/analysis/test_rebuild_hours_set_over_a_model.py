"""``--set restore.rebuild_hours`` over a rebuild model works, and says what no longer applies.

A reviewer set ``restore.rebuild_hours=10`` on today-20tb-nl-sas.yaml, whose rebuilds are
slowed by ``load: busy``: it ran (the --set drops the rebuild model's keys, a deliberate
what-if: docs/sizing.md), but nothing said the load was gone, while the same two keys in a
file are refused ("load belongs to the rebuild model"). The file stays refused; the --set
now says under the table which of the model's keys no longer apply.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.analysis.compare import compare_data
from planner.cli.app import app
from planner.scenario import ScenarioError, load_plan, load_scenario, load_scenario_text
from planner.scenario.edits import revalidate, scenario_data

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
TODAY = SCENARIOS / "today-20tb-nl-sas.yaml"


def _notes(path: Path, *sets: str) -> list[str]:
    scenario = load_scenario(path, list(sets))
    return [n for n in compare_data(scenario, sets).notes if "no longer appl" in n]


def test_the_load_a_set_rebuild_time_drops_is_said() -> None:
    scenario = load_scenario(TODAY, ["restore.rebuild_hours=10"])
    assert scenario.restore.rebuild_hours == 10  # the what-if runs, at 10 h
    assert scenario.restore.load is None
    assert _notes(TODAY, "restore.rebuild_hours=10") == [
        "--set restore.rebuild_hours=10 gives the rebuild time itself: restore.load: busy no "
        "longer applies (it belongs to the rebuild model, which a given time replaces)."
    ]


def test_what_was_removed_is_no_part_of_the_scenario_s_value() -> None:
    """The TUI compares scenarios to know what is unsaved: an edit undone is saved."""
    scenario = load_scenario(TODAY, ["restore.rebuild_hours=10"])
    assert scenario.restore.set_aside
    again = revalidate(scenario_data(scenario))
    assert not again.restore.set_aside
    assert again == scenario


def test_a_load_factor_and_a_delay_are_named_too() -> None:
    sets = (
        "restore.load=null",
        "restore.load_factor=2",
        "restore.replace_delay_hours=24",
        "restore.rebuild_hours=10",
    )
    assert _notes(TODAY, *sets) == [
        "--set restore.rebuild_hours=10 gives the rebuild time itself: restore.load_factor: 2 "
        "and restore.replace_delay_hours: 24 no longer apply (they belong to the rebuild "
        "model, which a given time replaces)."
    ]


@pytest.mark.parametrize(
    ("path", "sets"),
    [
        (SCENARIOS / "ns3574-default.yaml", ("restore.rebuild_hours=10",)),  # no model
        (TODAY, ("restore.load=idle", "restore.rebuild_hours=10")),  # nothing slows it
        (TODAY, ()),
        # the rate given back: the time that set the load aside is gone too
        (TODAY, ("restore.rebuild_hours=10", "restore.rebuild_mb_per_s=50")),
    ],
)
def test_nothing_is_said_when_nothing_that_applied_was_dropped(
    path: Path, sets: tuple[str, ...]
) -> None:
    assert _notes(path, *sets) == []


def test_a_load_the_file_misspelt_is_named_as_written() -> None:
    """The --set removes it before it is checked: the what-if runs, and names it."""
    text = TODAY.read_text(encoding="utf-8").replace("  load: busy\n", "  load: bussy\n")
    scenario = load_scenario_text(text, overrides=["restore.rebuild_hours=10"])
    notes = compare_data(scenario, ["restore.rebuild_hours=10"]).notes
    assert any("restore.load: bussy no longer applies" in note for note in notes)


def test_the_same_keys_in_a_file_are_still_refused() -> None:
    text = TODAY.read_text(encoding="utf-8").replace(
        "  load: busy\n", "  load: busy\n  rebuild_hours: 10\n"
    )
    with pytest.raises(ScenarioError, match="load belongs to the rebuild model"):
        load_scenario_text(text)


def test_a_plan_tier_says_it_too() -> None:
    """The plan's restore (load: busy) is the NL-SAS tier's; the SAS tier has its own."""
    override = "restore.rebuild_hours=10"
    plan = load_plan(SCENARIOS / "three-tier-plan.yaml", [override])
    notes = [compare_data(tier.scenario, tier.overrides).notes for tier in plan.tiers]
    said = f"--set {override} gives the rebuild time itself: restore.load: busy no longer"
    assert [any(said in note for note in tier) for tier in notes] == [True, False, True]


def test_evaluate_says_it_under_the_table() -> None:
    for output in ("table", "markdown"):
        result = CliRunner().invoke(
            app,
            ["evaluate", str(TODAY), "--set", "restore.rebuild_hours=10", "-f", output],
            env={"COLUMNS": "400"},
        )
        assert result.exit_code == 0, result.stderr
        assert "restore.load: busy no longer applies" in result.stdout
