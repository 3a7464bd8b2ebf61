"""A layout added in the TUI is saved after the others, above what followed them.

ruamel.yaml keeps the blank lines and comments after the last layout (before
``baseline:``) on that layout's last key; a new layout appended after it used to split
them from the key they describe.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.scenario import load_scenario_text
from planner.scenario.document import parse_yaml
from planner.scenario.layout_edits import with_baseline, with_layout_added, with_layout_removed
from planner.scenario.save import updated_text

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def saved_with_raid6_12(name: str) -> str:
    """The scenario file ``name`` saved after adding a RAID 6 of 12."""
    text = (SCENARIOS / name).read_text(encoding="utf-8")
    original = load_scenario_text(text)
    edited = with_layout_added(original, raid="raid6", parity=None, group_size=12)
    saved = updated_text(parse_yaml(text, name), text, original, edited, {})
    assert [x.label for x in load_scenario_text(saved).layouts][-1] == "raid6 12"
    return saved


def test_the_comment_before_baseline_stays_with_it() -> None:
    saved = saved_with_raid6_12("ns3574-default.yaml")
    assert (
        "  - raid: raid-tp         # triple parity: 4 groups of 9+3 hold 36, so 5 groups\n"
        "    group_size: 12\n"
        "  - raid: raid6\n"
        "    group_size: 12\n"
        "\n"
        "# Relative risks are measured against this layout (a label); Table 4 uses RAID-DP 7+2.\n"
        "baseline: raid-dp 9\n"
    ) in saved


@pytest.mark.parametrize("name", ["ns3574-table9-250mb.yaml", "today-20tb-nl-sas.yaml"])
def test_the_blank_line_before_baseline_stays_before_it(name: str) -> None:
    saved = saved_with_raid6_12(name)
    assert "  - raid: raid6\n    group_size: 12\n\nbaseline:" in saved
    assert "\n\n  - raid: raid6" not in saved


def saved_without(name: str, labels: list[str], baseline: str | None = None) -> str:
    """The scenario file ``name`` saved after removing the layouts ``labels``."""
    text = (SCENARIOS / name).read_text(encoding="utf-8")
    original = load_scenario_text(text)
    edited = original if baseline is None else with_baseline(original, baseline)
    for label in labels:
        edited = with_layout_removed(edited, label, None)
    return updated_text(parse_yaml(text, name), text, original, edited, {})


def test_removing_the_last_layout_keeps_the_comment_before_baseline() -> None:
    saved = saved_without("ns3574-default.yaml", ["raid-tp 12"])
    assert (
        "  - raid: raid-dp         # Table 3: 3 groups of 14+2\n"
        "    group_size: 16\n"
        "\n"
        "# Relative risks are measured against this layout (a label); Table 4 uses RAID-DP 7+2.\n"
        "baseline: raid-dp 9\n"
    ) in saved


def test_removing_the_last_four_keeps_an_end_of_line_comment_and_the_lines_after() -> None:
    # The raid10 entry has one key with its own comment; the trailing lines join it.
    gone = ["raid5 8", "raid-dp 9", "raid-dp 16", "raid-tp 12"]
    saved = saved_without("ns3574-default.yaml", gone, baseline="raid10 2")
    assert (
        "  - raid: raid10          # Table 2: 42 mirrored pairs, 1 data + 1 mirror drive each\n"
        "\n"
        "# Relative risks are measured against this layout (a label); Table 4 uses RAID-DP 7+2.\n"
        "baseline: raid10 2\n"
    ) in saved
