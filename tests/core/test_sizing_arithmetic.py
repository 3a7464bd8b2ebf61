"""Sizing arithmetic against examples worked out by hand, step by step, in each test."""

import pytest

from planner.core.arrays.layouts import Layout
from planner.core.design.drive_counts import ceil_count, disks_for_capacity, disks_for_iops
from planner.core.design.sizing import Drive, PlainWorkload, SizingResult, size_layout, size_layouts
from planner.core.markov.rates import PAPER_RATES
from planner.core.markov.transient import p_loss_aggregate, p_loss_group

MISSION_HOURS = 5 * 8_760.0

RAID5_4P1 = Layout("RAID 5 (4+1)", "raid5", 1, 5)
RAID10 = Layout("RAID 10", "raid10", 1, 2)
RAID6_4P2 = Layout("RAID 6 (4+2)", "raid6", 2, 6)
RAID6_6P2 = Layout("RAID 6 (6+2)", "raid6", 2, 8)
RAID_DP_14P2 = Layout("RAID-DP (14+2)", "raid-dp", 2, 16)


def size(layout: Layout, workload: PlainWorkload, drive: Drive) -> SizingResult:
    return size_layout(layout, workload, drive, rates=PAPER_RATES, mission_hours=MISSION_HOURS)


# Example 1: IOPS-bound, groups that do not divide the drive count.
#   1,000 host IOPS, 70 % reads -> 700 reads, 300 writes; 2 TB; 1 TB drives of 100 IOPS, all
#   of it usable.
IOPS_HEAVY = PlainWorkload(iops=1_000.0, read_fraction=0.7, capacity_tb=2.0)
SMALL_FAST_DRIVE = Drive(capacity_tb=1.0, iops=100.0, usable_fraction=1.0)


def test_raid5_iops_bound_uneven_groups() -> None:
    # back end = 700 + 300 x 4 = 1,900 IOPS -> 1,900 / 100 = 19 drives
    # groups of 5: ceil(19 / 5) = 4 groups -> 20 drives for IOPS
    # capacity: 2 TB / 1 TB = 2 data drives; 4 data drives per group -> 1 group -> 5 drives
    r = size(RAID5_4P1, IOPS_HEAVY, SMALL_FAST_DRIVE)
    assert r.write_penalty == 4.0
    assert r.read_iops == pytest.approx(700.0)
    assert r.write_iops == pytest.approx(300.0)
    assert r.backend_iops == pytest.approx(1_900.0)
    assert r.disks_for_iops == 20
    assert r.disks_for_capacity == 5
    assert r.disks_needed == 20
    assert r.bound_by == "iops"
    assert r.groups == 4
    assert r.data_disks == 16
    assert r.usable_tb == pytest.approx(16.0)
    assert r.iops_available == pytest.approx(2_000.0)


def test_raid10_iops_bound() -> None:
    # back end = 700 + 300 x 2 = 1,300 -> 13 drives -> ceil(13 / 2) = 7 mirrors -> 14 drives
    # capacity: 2 data drives, 1 per mirror -> 2 mirrors -> 4 drives
    r = size(RAID10, IOPS_HEAVY, SMALL_FAST_DRIVE)
    assert (r.backend_iops, r.disks_for_iops, r.disks_for_capacity) == (1_300.0, 14, 4)
    assert (r.disks_needed, r.groups, r.bound_by) == (14, 7, "iops")


def test_raid6_iops_bound_uneven_groups() -> None:
    # back end = 700 + 300 x 6 = 2,500 -> 25 drives -> ceil(25 / 6) = 5 groups -> 30 drives
    r = size(RAID6_4P2, IOPS_HEAVY, SMALL_FAST_DRIVE)
    assert r.backend_iops == pytest.approx(2_500.0)
    assert (r.disks_for_iops, r.disks_for_capacity) == (30, 6)
    assert (r.disks_needed, r.groups, r.data_disks, r.bound_by) == (30, 5, 20, "iops")


# Example 2: capacity-bound.
#   200 host IOPS, half reads -> 100 reads, 100 writes; 10 TB; 0.6 TB drives of 150 IOPS,
#   90 % usable -> 0.54 TB each -> 10 / 0.54 = 18.5 -> 19 data drives.
SPACE_HEAVY = PlainWorkload(iops=200.0, read_fraction=0.5, capacity_tb=10.0)
BIG_DRIVE = Drive(capacity_tb=0.6, iops=150.0, usable_fraction=0.9)


def test_raid6_capacity_bound_uneven_groups() -> None:
    # capacity: 19 data drives / 6 per group -> ceil(3.17) = 4 groups -> 32 drives
    # IOPS: 100 + 100 x 6 = 700 / 150 = 4.67 -> 5 drives -> 1 group -> 8 drives
    r = size(RAID6_6P2, SPACE_HEAVY, BIG_DRIVE)
    assert r.backend_iops == pytest.approx(700.0)
    assert (r.disks_for_capacity, r.disks_for_iops) == (32, 8)
    assert (r.disks_needed, r.groups, r.data_disks, r.bound_by) == (32, 4, 24, "capacity")
    assert r.usable_tb == pytest.approx(4 * 6 * 0.54)
    assert r.usable_tb >= r.required_tb


def test_raid_dp_capacity_bound() -> None:
    # penalty 1: 100 + 100 = 200 / 150 -> 2 drives -> 1 group of 16
    # capacity: 19 data drives / 14 per group -> 2 groups -> 32 drives
    r = size(RAID_DP_14P2, SPACE_HEAVY, BIG_DRIVE)
    assert r.write_penalty == 1.0
    assert (r.disks_for_capacity, r.disks_for_iops, r.disks_needed) == (32, 16, 32)
    assert (r.groups, r.bound_by) == (2, "capacity")


def test_tie_is_reported_as_capacity() -> None:
    # 400 reads, 0 writes on 100-IOPS drives -> 4 drives -> 2 mirrors = 4 drives
    # 2 TB on 1 TB drives -> 2 data drives -> 2 mirrors = 4 drives
    tie = PlainWorkload(iops=400.0, read_fraction=1.0, capacity_tb=2.0)
    r = size(RAID10, tie, SMALL_FAST_DRIVE)
    assert (r.disks_for_iops, r.disks_for_capacity, r.bound_by) == (4, 4, "capacity")


def test_tiny_workload_still_gets_one_group() -> None:
    tiny = PlainWorkload(iops=1.0, read_fraction=1.0, capacity_tb=0.001)
    r = size(RAID_DP_14P2, tiny, SMALL_FAST_DRIVE)
    assert (r.disks_for_iops, r.disks_for_capacity) == (16, 16)
    assert (r.disks_needed, r.groups) == (16, 1)


def test_floating_point_noise_does_not_add_a_drive() -> None:
    # 1,000 x (1 - 0.7) = 300.00000000000006 in binary; on 100-IOPS drives that is exactly 3.
    writes = 1_000.0 * (1.0 - 0.7)
    assert writes > 300.0
    assert ceil_count(writes / 100.0) == 3
    assert disks_for_iops(writes, 100.0, 1) == 3
    assert ceil_count(3.000001) == 4
    assert ceil_count(1e-99) == 1
    assert ceil_count(0.0) == 0


def test_building_blocks_directly() -> None:
    # 1,001 IOPS on 100-IOPS drives -> 11 drives -> groups of 5 -> 3 groups -> 15 drives
    assert disks_for_iops(1_001.0, 100.0, 5) == 15
    # 4.5 TB on 1 TB usable drives -> 5 data drives -> 4 per group -> 2 groups -> 10 drives
    assert disks_for_capacity(4.5, 1.0, RAID5_4P1) == 10


def test_risk_is_the_engines_p_loss_for_the_sized_group_count() -> None:
    r = size(RAID5_4P1, IOPS_HEAVY, SMALL_FAST_DRIVE)
    p_group = p_loss_group(1, 5, PAPER_RATES, MISSION_HOURS)
    assert r.p_loss_group == p_group
    assert r.p_loss_aggregate == p_loss_aggregate(p_group, 4)
    assert r.rebuild_hours == PAPER_RATES.rebuild_hours
    assert r.rebuild_source == "rates"


def test_write_penalty_override_by_label() -> None:
    # RAID 6 (4+2) with penalty 1: 700 + 300 = 1,000 -> 10 drives -> 2 groups -> 12 drives
    default, override = size_layouts(
        [RAID6_4P2, Layout("RAID 6 low", "raid6", 2, 6)],
        IOPS_HEAVY,
        SMALL_FAST_DRIVE,
        rates=PAPER_RATES,
        mission_hours=MISSION_HOURS,
        write_penalties={"RAID 6 low": 1.0},
    )
    assert default.write_penalty == 6.0
    assert (override.write_penalty, override.backend_iops, override.disks_needed) == (
        1.0,
        1_000.0,
        12,
    )


def test_override_for_unknown_layout_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"write_penalties name no layout: \['RAID 7'\]"):
        size_layouts(
            [RAID10],
            IOPS_HEAVY,
            SMALL_FAST_DRIVE,
            rates=PAPER_RATES,
            mission_hours=MISSION_HOURS,
            write_penalties={"RAID 7": 3.0},
        )


def test_bad_penalty_and_mission_are_errors() -> None:
    with pytest.raises(ValueError, match="write_penalty must be positive"):
        size_layout(
            RAID10, IOPS_HEAVY, SMALL_FAST_DRIVE, rates=PAPER_RATES, mission_hours=1.0,
            write_penalty=0.0,
        )  # fmt: skip
    with pytest.raises(ValueError, match="mission_hours must be positive"):
        size_layout(RAID10, IOPS_HEAVY, SMALL_FAST_DRIVE, rates=PAPER_RATES, mission_hours=0.0)
    with pytest.raises(ValueError, match="at least one layout"):
        size_layouts([], IOPS_HEAVY, SMALL_FAST_DRIVE, rates=PAPER_RATES, mission_hours=1.0)
