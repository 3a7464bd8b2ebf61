"""A layout ``--set`` reshaped under a label given by hand is noted under its tables.

``label: RAID 6 (10+2)`` and ``--set layouts[1].group_size=14``: the label stays, since it
is the layout's name (the baseline names it), and every table showed a group of 14 drives
as "RAID 6 (10+2)" with nothing to say so. A note now names the label, what the layout now
is, the override, and the ``--set`` that renames it: under evaluate's table and Markdown,
``planner size``, sensitivity, a sweep of the layouts, a plan's tier and the TUI's compare
view (tests/tui/test_tui_kept_label.py).
The JSON and CSV keep their shape: their rows give group_size and parity beside the label.
These tests failed first.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from scenario_texts import SMALL
from typer.testing import CliRunner

from planner.analysis.input_notes import kept_label_notes
from planner.cli import app
from planner.scenario import load_scenario_text

SHIPPED = Path(__file__).resolve().parents[2] / "scenarios"

LABELLED = (
    SMALL.replace(
        "    group_size: 8\n",
        "    group_size: 8\n  - raid: raid6\n    group_size: 12\n    label: RAID 6 (10+2)\n",
    )
    + "baseline: RAID 6 (10+2)\n"
)
"""SMALL with a second layout, 12 drives of RAID 6 labelled by hand, as the baseline."""

WIDER = "layouts[1].group_size=14"

NOTE = (
    "Layout 'RAID 6 (10+2)' is now raid6 14, groups of 12+2 drives, set by --set "
    "layouts[1].group_size=14; it keeps the label the file gives it: rename it with --set "
    "'layouts[1].label=RAID 6 (12+2)' (and --set 'baseline=RAID 6 (12+2)')."
)


def notes_of(overrides: list[str]) -> list[str]:
    scenario = load_scenario_text(LABELLED, "s.yaml", overrides)
    return kept_label_notes(scenario, overrides)


def test_the_note_names_the_label_the_layout_and_the_rename_which_works() -> None:
    assert notes_of([WIDER]) == [NOTE]
    # the renaming it offers, pasted as a shell would read it, loads and leaves no note
    renames = [shlex.split(quoted)[0] for quoted in re.findall(r"--set ('[^']*')", NOTE)]
    assert renames == ["layouts[1].label=RAID 6 (12+2)", "baseline=RAID 6 (12+2)"]
    scenario = load_scenario_text(LABELLED, "s.yaml", [WIDER, *renames])
    assert scenario.layouts[1].label == scenario.baseline == "RAID 6 (12+2)"
    assert kept_label_notes(scenario, [WIDER, *renames]) == []


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param([], id="no override"),
        pytest.param(["layouts[0].group_size=10"], id="a default label follows its layout"),
        pytest.param(["layouts[1].group_size=12"], id="the label's 10+2 is still right"),
        pytest.param([WIDER, "layouts[1].label=Wide", "baseline=Wide"], id="a label set with it"),
        pytest.param(
            ["layouts[1]={raid: raid6, group_size: 14, label: RAID 6 (10+2)}"],
            id="the whole layout set",
        ),
        pytest.param(["drive.arr=2%"], id="another field"),
    ],
)
def test_no_note_where_the_label_is_not_left_behind(overrides: list[str]) -> None:
    assert notes_of(overrides) == []


def test_a_label_without_n_plus_k_is_offered_the_default_and_raid_is_a_shape() -> None:
    text = LABELLED.replace("RAID 6 (10+2)", "Mail store")
    scenario = load_scenario_text(text, "s.yaml", ["layouts[1].raid=RAID5"])
    (note,) = kept_label_notes(scenario, ["layouts[1].raid=RAID5"])
    assert note.startswith("Layout 'Mail store' is now raid5 12, groups of 11+1 drives,")
    assert note.endswith("--set 'layouts[1].label=raid5 12' (and --set 'baseline=raid5 12').")


@pytest.mark.parametrize(("raid", "now"), [("raidz2", "raidz2 12"), ("raid-dp", "raid-dp 12")])
def test_another_raid_of_the_same_n_plus_k_is_noted(raid: str, now: str) -> None:
    """The second newcomer: ``layouts[0].raid=raidz2`` left a row called "RAID 6 (10+2)"
    sized as RAID-Z (3,000 drives, write penalty 1) with no note; the n+k had not moved."""
    (note,) = notes_of([f"layouts[1].raid={raid}"])
    assert note.startswith(f"Layout 'RAID 6 (10+2)' is now {now}, groups of 10+2 drives"), note
    assert note.endswith(f"--set 'layouts[1].label={now}' (and --set 'baseline={now}').")


def test_the_same_raid_set_again_is_not_noted() -> None:
    assert notes_of(["layouts[1].raid=raid6"]) == []
    assert notes_of(["layouts[1].raid=RAID-6"]) == []


def test_evaluate_and_size_say_it_and_json_keeps_its_shape(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(LABELLED, encoding="utf-8")
    runner = CliRunner()
    table = runner.invoke(app, ["evaluate", str(path), "--set", WIDER])
    assert table.exit_code == 0, table.output
    assert " ".join(NOTE.split()) in " ".join(table.stdout.split())  # wrapped at any width
    markdown = runner.invoke(app, ["evaluate", str(path), "--set", WIDER, "-f", "markdown"])
    assert f"- {NOTE}" in markdown.stdout

    plain, wider = (
        json.loads(runner.invoke(app, ["evaluate", str(path), *extra, "-f", "json"]).stdout)
        for extra in ([], ["--set", WIDER])
    )
    assert list(wider) == list(plain)
    assert [list(row) for row in wider["layouts"]] == [list(row) for row in plain["layouts"]]
    assert (wider["layouts"][1]["label"], wider["layouts"][1]["group_size"]) == (
        "RAID 6 (10+2)",
        14,
    )

    sized = runner.invoke(
        app, ["size", str(SHIPPED / "lenovo-s3200.yaml"), "--set", "layouts[0].group_size=12"]
    )
    assert sized.exit_code == 0, sized.output
    assert "Layout 'RAID 6 (8+2)' is now raid6 12, groups of 10+2 drives" in " ".join(
        sized.stdout.split()
    )


def test_a_plans_tier_is_noted_once_with_its_tier_in_the_rename() -> None:
    result = CliRunner().invoke(
        app,
        [
            "evaluate",
            str(SHIPPED / "three-tier-plan.yaml"),
            "--set",
            "tiers[1].layouts[0].group_size=14",
            "-f",
            "markdown",
        ],
    )
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stdout.splitlines() if line.startswith("- Layout '")]
    assert len(notes) == 1, notes  # tier 2's own "RAID 6 (10+2)" is not the one set
    assert notes[0].startswith("- Layout 'RAID 6 (10+2)' is now raid6 14, groups of 12+2")
    assert "--set 'tiers[1].layouts[0].label=RAID 6 (12+2)'." in notes[0]


def test_sensitivity_and_a_sweep_of_the_layouts_say_it_too(tmp_path: Path) -> None:
    """The tornado and the by-layout sweep name the layout by its label as evaluate does.

    ``planner sensitivity --set layouts[1].group_size=14`` headed its tornado "sensitivity
    of RAID 6 (10+2)" over a 14-drive group, and ``sweep --vary`` of the scenario's layouts
    showed the row "RAID 6 (10+2)", neither with a word. The tornado is of the baseline,
    so only the layout it moves is noted; the sweep notes every layout it shows.
    """
    path = tmp_path / "s.yaml"
    path.write_text(LABELLED, encoding="utf-8")
    runner = CliRunner()
    for args in (["sensitivity"], ["sweep", "--vary", "drive.arr=1%..2%:2"]):
        for output in ("table", "markdown"):
            result = runner.invoke(app, [*args, str(path), "--set", WIDER, "-f", output])
            assert result.exit_code == 0, result.output
            assert " ".join(NOTE.split()) in " ".join(result.stdout.split()), (args, output)
    other = runner.invoke(app, ["sensitivity", str(path), "--set", WIDER, "--layout", "raid5 8"])
    assert other.exit_code == 0, other.output
    assert "keeps the label" not in other.stdout  # the layout the tornado moves is not it
