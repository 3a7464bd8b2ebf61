"""NS3574 Table 9 (4,000 users, 0.33 IOPS, 10k 300 GB FC drives) and the Lenovo S3200 case."""

import pytest

from planner.core.arrays.layouts import Layout
from planner.core.design.sizing import (
    DRIVE_CLASSES,
    Drive,
    MailboxWorkload,
    SizingResult,
    size_layouts,
)
from planner.core.markov.rates import PAPER_RATES
from planner.core.markov.transient import p_loss_aggregate, p_loss_group

MISSION_HOURS = 5 * 8_760.0
DRIVE_10K_300GB = Drive(0.3, DRIVE_CLASSES["10k"].iops)

RAID10 = Layout("RAID 10", "raid10", 1, 2)
RAID5 = Layout("RAID 5 (7+1)", "raid5", 1, 8)
RAID6 = Layout("RAID 6 (6+2)", "raid6", 2, 8)
RAID6_NO_PENALTY = Layout("RAID 6 no penalty (6+2)", "raid6", 2, 8)


def table9(
    mailbox_mb: float, *layouts: Layout, drive: Drive = DRIVE_10K_300GB
) -> dict[str, SizingResult]:
    workload = MailboxWorkload(users=4_000, iops_per_user=0.33, mailbox_mb=mailbox_mb)
    results = size_layouts(
        layouts,
        workload,
        drive,
        rates=PAPER_RATES,
        mission_hours=MISSION_HOURS,
        write_penalties={
            layout.label: 1.0 for layout in layouts if layout.label == RAID6_NO_PENALTY.label
        },
    )
    return {r.label: r for r in results}


# NetApp sizes an aggregate in evenly sized RAID groups: 24 drives are 2 x (10+2).
@pytest.mark.parametrize("dp_group_size", [8, 10, 12])
def test_ordering_for_250_mb_mailboxes(dp_group_size: int) -> None:
    dp = Layout("RAID-DP", "raid-dp", 2, dp_group_size)
    r = table9(250.0, dp, RAID10, RAID6, RAID6_NO_PENALTY)
    # Table 9: RAID-DP 24 < RAID 10 40 < RAID 6 100
    assert r["RAID-DP"].disks_needed < r["RAID 10"].disks_needed < r["RAID 6 (6+2)"].disks_needed
    # RAID 6 with penalty 1 needs fewer drives than RAID 10 (Table 9: 36 < 40)
    assert r["RAID 6 no penalty (6+2)"].disks_needed < r["RAID 10"].disks_needed
    # all IOPS-bound at 250 MB: the point of the table
    assert {x.bound_by for x in r.values()} == {"iops"}


def test_250_mb_counts_by_hand() -> None:
    # reads 792, writes 1,393.92 (see test_sizing_workloads); 130 IOPS per 10k drive
    # RAID 10: 792 + 2 x 1,393.92 = 3,579.84 / 130 = 27.5 -> 28 drives = 14 mirrors
    # RAID 6:  792 + 6 x 1,393.92 = 9,155.52 / 130 = 70.4 -> 71 -> 9 groups of 8 = 72
    # RAID 6, penalty 1: 2,185.92 / 130 = 16.8 -> 17 -> 3 groups of 8 = 24
    # capacity: 1.7199 TB / 0.27 TB = 6.4 -> 7 data drives -> RAID 10: 14, RAID 6: 2 x 8 = 16
    r = table9(250.0, RAID10, RAID6, RAID6_NO_PENALTY)
    assert (r["RAID 10"].disks_for_iops, r["RAID 10"].disks_for_capacity) == (28, 14)
    assert (r["RAID 6 (6+2)"].disks_for_iops, r["RAID 6 (6+2)"].disks_for_capacity) == (72, 16)
    assert r["RAID 6 no penalty (6+2)"].disks_needed == 24


def test_1024_mb_mailboxes_penalty_still_orders_raid6() -> None:
    # Table 9 at 1,024 MB: RAID 6 104 > RAID 6 no penalty 80 > RAID 5 76 > RAID-DP 70.
    dp = Layout("RAID-DP", "raid-dp", 2, 16)
    r = table9(1_024.0, dp, RAID5, RAID6, RAID6_NO_PENALTY)
    assert r["RAID 6 (6+2)"].disks_needed > r["RAID 5 (7+1)"].disks_needed
    assert r["RAID 5 (7+1)"].disks_needed > r["RAID-DP"].disks_needed
    assert r["RAID 6 (6+2)"].disks_needed > r["RAID 6 no penalty (6+2)"].disks_needed
    # bigger mailboxes make the penalty-free layouts capacity-bound
    assert r["RAID-DP"].bound_by == "capacity"
    assert r["RAID 6 no penalty (6+2)"].bound_by == "capacity"
    assert r["RAID 6 (6+2)"].bound_by == "iops"


def test_risk_column_is_the_engines_for_the_sized_groups() -> None:
    dp = Layout("RAID-DP", "raid-dp", 2, 12)
    for result in table9(250.0, dp, RAID10, RAID5, RAID6).values():
        p_group = p_loss_group(result.parity, result.group_size, PAPER_RATES, MISSION_HOURS)
        assert result.p_loss_group == p_group
        assert result.p_loss_aggregate == p_loss_aggregate(p_group, result.groups)
        assert result.groups * result.group_size == result.disks_needed


def test_lenovo_s3200_case() -> None:
    # Demartek, "Evaluation Report: Supporting Microsoft Exchange on the Lenovo S3200
    # Hybrid Array" (2016): 500 mailboxes of up to 2 GB at 0.5 IOPS on 20 x 900 GB 10k
    # drives, two 10-drive RAID 6 groups. Database IOPS = 500 x 0.5 x 1.2 = 300; reads 150;
    # writes 150 + 0.38 x 300 = 264; back end 150 + 6 x 264 = 1,734 / 130 = 13.3 -> 14
    # -> 2 groups of 10 = 20 drives, IOPS-bound; capacity ~1.37 TB fits one group.
    workload = MailboxWorkload(users=500, iops_per_user=0.5, mailbox_mb=2_000.0)
    (r,) = size_layouts(
        [Layout("RAID 6 (8+2)", "raid6", 2, 10)],
        workload,
        Drive(0.9, DRIVE_CLASSES["10k"].iops),
        rates=PAPER_RATES,
        mission_hours=MISSION_HOURS,
    )
    assert r.backend_iops == pytest.approx(1_734.0)
    assert (r.disks_for_iops, r.disks_for_capacity) == (20, 10)
    assert (r.disks_needed, r.groups, r.bound_by) == (20, 2, "iops")
