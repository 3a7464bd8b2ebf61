"""The rebuild note says its time is without a free hot spare when spares shorten the wait.

A newcomer's review: with one hot spare and a 72 h wait the note read "Rebuild 149 h ...
+ 72 h to replace the drive" above a Rebuild column of 77.9 h for RAID 6 (10+2).
"""

from __future__ import annotations

from pathlib import Path

from planner.analysis.compare import compare_data
from planner.report.comparison import rebuild_note
from planner.scenario import load_scenario

TODAY = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"
WAIT = "restore.replace_delay_hours=72"


def _note(*overrides: str) -> str:
    data = compare_data(load_scenario(TODAY, list(overrides)))
    assert data.rebuild is not None
    return rebuild_note(data.rebuild)


def test_with_spares_the_note_says_the_hours_are_without_one() -> None:
    note = _note(WAIT, "aggregate.hot_spares=1")
    assert note.startswith("Rebuild 149 h with no hot spare free: 20 TB at 285 MB/s")
    assert "With aggregate.hot_spares: 1 a failure waits only when every spare is taken" in note
    result = compare_data(load_scenario(TODAY, [WAIT, "aggregate.hot_spares=1"]))
    raid6 = next(r for r in result.comparison.results if r.layout.label == "RAID 6 (10+2)")
    assert 77.2 < raid6.rebuild_hours < 149  # the column: the rebuild plus B x the wait


def test_without_spares_or_without_a_wait_the_note_is_as_before() -> None:
    assert _note(WAIT).startswith("Rebuild 149 h: 20 TB at 285 MB/s")
    assert "hot spare" not in _note(WAIT)
    assert "hot spare" not in _note("aggregate.hot_spares=2")
