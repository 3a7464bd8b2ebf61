"""A misspelt baseline is pointed at the layout it abbreviates, not at a look-alike.

A newcomer wrote ``baseline: RAID6`` beside RAID 6 (10+2), RAID 10 and a pool and was told
"did you mean 'RAID 10'?": following the hint would have measured every relative risk
against the mirrors. Labels are matched without case, spaces or punctuation first, and a
label that starts with what was written wins.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli.app import app
from planner.scenario.base import FieldError
from planner.scenario.baseline import check_baseline

LABELS = ["RAID 6 (10+2)", "RAID 10", "draid2:8d:24c:1s"]


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("RAID6", "RAID 6 (10+2)"),
        ("raid 6", "RAID 6 (10+2)"),
        ("raid 6 (10+2)", "RAID 6 (10+2)"),
        ("RAID10", "RAID 10"),
        ("draid2", "draid2:8d:24c:1s"),
        ("RAID 1O", "RAID 10"),  # a typo, no label starts with it: the closest
    ],
)
def test_the_hint_names_the_layout_meant(written: str, meant: str) -> None:
    with pytest.raises(FieldError) as raised:
        check_baseline(written, LABELS, None)
    assert f"did you mean {meant!r}?" in str(raised.value)


def test_no_hint_for_a_name_like_none_of_them() -> None:
    with pytest.raises(FieldError) as raised:
        check_baseline("mirror3 3", LABELS, None)
    assert "did you mean" not in str(raised.value)
    assert "layouts: 'RAID 6 (10+2)', 'RAID 10', 'draid2:8d:24c:1s'" in str(raised.value)


@pytest.mark.parametrize("command", ["sensitivity", "simulate"])
def test_layout_options_point_the_same_way(command: str) -> None:
    today = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"
    result = CliRunner().invoke(app, [command, str(today), "--layout", "RAID6"])
    assert result.exit_code == 2
    assert "did you mean 'RAID 6 (10+2)'?" in result.output


TODAY_LABELS = ["RAID 10", "RAID 6 (10+2)", "triple parity (12+3)", "draid2:8d:48c:2s"]
TODAY_ALIASES = {
    "raid10 2": "RAID 10",
    "raid6 12": "RAID 6 (10+2)",
    "raid-tp 15": "triple parity (12+3)",
    "draid2:8d:48c:2s": "draid2:8d:48c:2s",
}


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("raid10 2", "RAID 10"),  # a layout's preset name and width: its default label
        ("raid-tp 15", "triple parity (12+3)"),
        ("raid6 12", "RAID 6 (10+2)"),
        ("RAID6", "RAID 6 (10+2)"),
    ],
)
def test_a_layouts_preset_and_width_name_it(written: str, meant: str) -> None:
    """The second newcomer: ``raid10 2`` was pointed at 'RAID 6 (10+2)', ``raid-tp 15`` at
    'RAID 10', on today-20tb-nl-sas.yaml, whose labels are written by hand."""
    with pytest.raises(FieldError) as raised:
        check_baseline(written, TODAY_LABELS, None, TODAY_ALIASES)
    assert f"did you mean {meant!r}?" in str(raised.value)


@pytest.mark.parametrize("command", ["sensitivity", "simulate", "compare-methods"])
def test_every_layout_option_hints_and_lists_alike(command: str) -> None:
    today = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"
    result = CliRunner().invoke(app, [command, str(today), "--layout", "raid10 2"])
    assert result.exit_code == 2
    words = " ".join(result.output.translate(str.maketrans("", "", "│╭╮╰╯─")).split())
    assert "did you mean 'RAID 10'? (layouts: 'RAID 10', 'RAID 6 (10+2)'," in words, words
