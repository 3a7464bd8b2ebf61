"""compare-methods' note on the shapes' simulation names the inputs as the chain takes them.

A newcomer's review: with two hot spares and a 48 h wait, and a latent-defect rate made from
a workload's reads, the note said "rebuild 125 h ... latent defects 1.89e-05 per
drive-hour", where each layout's chain took ~77 h (the spares shorten the wait) and a
group's mean rate, 1.57e-5 for RAID 6 (10+2): 1.89e-5 is a data drive's.
"""

from __future__ import annotations

from pathlib import Path

from planner.analysis.method_comparison import second_distributions
from planner.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_the_note_says_the_wait_and_the_rate_are_each_layouts_own() -> None:
    scenario = load_scenario(
        SCENARIOS / "recommend-400tb.yaml",
        ["aggregate.hot_spares=2", "restore.replace_delay_hours=48"],
    )
    note = " ".join(second_distributions(scenario).note.split())
    assert "with no hot spare free" in note
    assert "per data drive-hour (each layout's chain takes its drives' mean" in note
    plain = " ".join(
        second_distributions(load_scenario(SCENARIOS / "today-20tb-nl-sas.yaml")).note.split()
    )
    assert "no hot spare free" not in plain
    assert "per drive-hour" in plain
    assert "per data drive-hour" not in plain  # the field figure is every drive's
