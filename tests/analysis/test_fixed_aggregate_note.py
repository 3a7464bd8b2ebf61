"""evaluate and sweep on a workload scenario say that their figures are not sized for it.

The second newcomer swept the hot spares on recommend-400tb.yaml, titled "400 TB and 20,000
IOPS ...", and read the answer for 36 drives where ``planner size`` sizes RAID 6 (10+2) at
636: both commands hold ``aggregate.data_disks`` (24), which only the footer's "24 data
drives" said. The TUI said it already ("Risk of a fixed aggregate ..."); the commands now do.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
NOTE = (
    "Not sized for the workload (400.0 TB, 20,000 IOPS): every figure here is of "
    "aggregate.data_disks' data drives; planner size and planner recommend size each layout "
    "for the workload."
)


def _words(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "-f", "markdown"])
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def test_evaluate_and_sweep_of_a_workload_say_what_they_hold() -> None:
    search = str(SCENARIOS / "recommend-400tb.yaml")
    assert NOTE in _words("evaluate", search)
    spares = ["--set", "restore.replace_delay_hours=72", "--vary", "aggregate.hot_spares=0..2:3"]
    assert NOTE in _words("sweep", search, *spares)


def test_no_such_note_without_a_workload() -> None:
    today = str(SCENARIOS / "today-20tb-nl-sas.yaml")
    assert "Not sized for the workload" not in _words("evaluate", today)
    assert "Not sized for the workload" not in _words("sweep", today)


def test_simulate_and_compare_methods_say_it_too() -> None:
    """The third newcomer: both simulate aggregate.data_disks' aggregate of a workload
    scenario, as evaluate does, and said nothing (the TUI's F6 follows the table's)."""
    search = str(SCENARIOS / "recommend-400tb.yaml")
    fast = ["--layout", "RAID 6 (10+2)", "--trials", "200", "--seed", "1"]
    assert NOTE in _words("simulate", search, *fast, "--method", "plain")
    assert NOTE in _words("compare-methods", search, *fast)
    today = str(SCENARIOS / "today-20tb-nl-sas.yaml")
    plain = ["--layout", "RAID 6 (10+2)", "--trials", "200", "--seed", "1", "--method", "plain"]
    assert "Not sized for the workload" not in _words("simulate", today, *plain)
