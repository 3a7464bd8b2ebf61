"""A declustered pool's small random IOPS by OpenZFS's rule (issue 20).

OpenZFS documentation, Basic Concepts, dRAID
(https://openzfs.github.io/openzfs-docs/Basic%20Concepts/dRAID%20Howto.html): "Delivered
random IOPS can be reasonably approximated as floor((N-S)/(D+P))*<single-drive-IOPS>".
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from planner.analysis.recommend import recommendation
from planner.core.arrays.declustered import Declustered, iops_drives
from planner.core.arrays.layouts import Layout
from planner.core.design.drive_counts import sized_counts
from planner.core.design.sizing import Drive, PlainWorkload, default_write_penalty
from planner.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.mark.parametrize(
    ("parity", "children", "data", "spares", "expected"),
    [(2, 48, 8, 2, 4), (3, 24, 4, 1, 3), (1, 11, 4, 1, 2), (2, 255, 16, 0, 14)],
)
def test_floor_of_usable_children_over_stripe_width(
    parity: int, children: int, data: int, spares: int, expected: int
) -> None:
    assert iops_drives(parity, children, data, spares) == expected
    assert expected == (children - spares) // (data + parity)


def test_a_pool_is_sized_by_stripe_ios() -> None:
    # draid3:4d:24c:1s, 20,000 host IOPS at 80 IOPS per drive: each pool serves
    # floor(23 / 7) = 3 drives' worth, 240 IOPS, so ceil(20,000 / 240) = 84 pools of 24.
    pool = Layout("p", "draid3", 3, 24, Declustered(4, 1))
    drive = Drive(capacity_tb=20.0, iops=80.0)
    workload = PlainWorkload(iops=20_000.0, read_fraction=0.7, capacity_tb=1.0)
    counts = sized_counts(pool, workload, drive, default_write_penalty(pool))
    assert counts.disks_for_iops == math.ceil(20_000 / (3 * 80)) * 24 == 2016
    assert counts.iops_available == 84 * 3 * 80
    assert counts.bound_by == "iops"


def test_a_traditional_group_still_counts_every_drive() -> None:
    raid6 = Layout("r6", "raid6", 2, 12)
    drive = Drive(capacity_tb=20.0, iops=80.0)
    workload = PlainWorkload(iops=1_000.0, read_fraction=0.7, capacity_tb=1.0)
    counts = sized_counts(raid6, workload, drive, 6.0)
    assert counts.disks_for_iops == math.ceil((700 + 300 * 6) / 80 / 12) * 12


def test_recommend_sizes_the_400_tb_pool_by_openzfs_rule() -> None:
    # Issue 20: planner picked draid3:4d:24c:1s at 720 drives sized by IOPS, counting all
    # 24 drives of a pool; OpenZFS's rule needs about 2,016.
    scenario = load_scenario(SCENARIOS / "recommend-400tb.yaml")
    pool = Layout("draid3:4d:24c:1s", "draid3", 3, 24, Declustered(4, 1))
    found = recommendation(scenario, [pool])
    candidate = found.meeting[0] if found.meeting else found.closest
    assert candidate is not None
    assert candidate.total_disks == 2016
    assert candidate.bound_by == "iops"
