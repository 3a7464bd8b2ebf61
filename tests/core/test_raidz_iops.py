"""A RAID-Z group's small random IOPS: one drive's worth, as a dRAID stripe's.

A newcomer sized raidz2 12 and draid2:8d:48c:2s for the same 20,000 IOPS: 636 drives
against 3,024. The pool followed OpenZFS's rule, whose reason is RAID-Z's own: "performance
is similar to raidz since for any read all D data disks must be accessed" (OpenZFS
documentation, Basic Concepts, dRAID); the raidz group was sized as hardware RAID 6 (every
drive serving reads, 6 I/Os a write). iXsystems, "ZFS Storage Pool Layout" (white paper,
2020-2023), gives a RAID-Z vdev the read and the write IOPS of a single drive: a small read
or write is one I/O across the whole stripe. So both count stripe I/Os now: a write
penalty of 1, and one drive's IOPS a RAID-Z group.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli.app import app
from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.design.drive_counts import sized_counts
from planner.core.design.sizing import Drive, PlainWorkload, default_write_penalty

DRIVE = Drive(capacity_tb=20.0, iops=80.0)
WORKLOAD = PlainWorkload(iops=20_000.0, read_fraction=0.7, capacity_tb=1.0)


@pytest.mark.parametrize(("raid", "parity", "size"), [("raidz1", 1, 6), ("raidz2", 2, 12)])
def test_a_raidz_group_serves_one_drives_worth_of_stripe_ios(
    raid: str, parity: int, size: int
) -> None:
    group = Layout(raid, raid, parity, size)
    assert group.iops_drives_per_group == 1
    assert default_write_penalty(group) == 1.0
    counts = sized_counts(group, WORKLOAD, DRIVE, default_write_penalty(group))
    groups = math.ceil(20_000 / 80)  # one stripe I/O per host I/O, 80 a group
    assert counts.disks_for_iops == groups * size
    assert counts.iops_available == groups * 80


def test_raidz2_of_ten_is_sized_as_the_pool_of_one_such_stripe() -> None:
    """draid2:8d:10c:0s is one raidz2 (8+2) stripe wide: the same drives for IOPS."""
    raidz = Layout("raidz2 10", "raidz2", 2, 10)
    pool = Layout("draid2:8d:10c:0s", "draid2", 2, 10, Declustered(data=8, spares=0))
    sized = [
        sized_counts(x, WORKLOAD, DRIVE, default_write_penalty(x)).disks_for_iops
        for x in (raidz, pool)
    ]
    assert sized[0] == sized[1] == 250 * 10


def test_hardware_raid6_still_counts_every_drive_and_its_penalty() -> None:
    raid6 = Layout("r6", "raid6", 2, 12)
    assert raid6.iops_drives_per_group == 12
    assert default_write_penalty(raid6) == 6.0


def test_size_puts_raidz_and_the_pool_on_one_footing_and_says_so() -> None:
    """The newcomer's command: raidz2 12 beside draid2:8d:48c:2s for 20,000 IOPS."""
    search = Path(__file__).resolve().parents[2] / "scenarios" / "recommend-400tb.yaml"
    sets = ["--set", "layouts[0].raid=raidz2", "--set", "layouts[0].label=raidz2 12"]
    result = CliRunner().invoke(app, ["size", str(search), *sets, "-f", "json"])
    assert result.exit_code == 0, result.output
    rows = {row["label"]: row for row in json.loads(result.output)["layouts"]}
    assert rows["raidz2 12"]["disks_for_iops"] == 3000  # 250 groups of one drive's 80 IOPS
    assert rows["draid2:8d:48c:2s"]["disks_for_iops"] == 3024  # 63 pools of 4 drives' worth
    assert rows["raidz2 12"]["write_penalty"] == 1.0
    shown = CliRunner().invoke(app, ["size", str(search), *sets, "-f", "markdown"]).output
    assert "raidz2 12, draid2:8d:48c:2s count stripe I/Os instead: a small read or write" in (
        " ".join(shown.split())
    )


def test_the_tuis_sizing_notes_say_the_rule_too() -> None:
    """The second newcomer: the TUI showed raidz2 10 at 8,000 back-end IOPS with no word
    on why, where size and the TUI's own export said it."""
    from planner.analysis.sizing_report import sizing_report
    from planner.report.sizing import short_notes
    from planner.scenario import load_scenario

    search = Path(__file__).resolve().parents[2] / "scenarios" / "recommend-400tb.yaml"
    scenario = load_scenario(search, ["layouts[0].raid=raidz2", "layouts[0].label=raidz2 12"])
    report = sizing_report(scenario)
    assert report is not None
    notes = " ".join(short_notes(report, 24))
    assert "raidz2 12, draid2:8d:48c:2s count stripe I/Os instead" in notes
    assert "a RAID-Z group serves one drive's IOPS" in notes
