"""Workloads and drives: host I/O split, capacity, defaults and clear errors."""

import pytest

from planner.core.design.sizing import (
    DRIVE_CLASSES,
    Drive,
    MailboxWorkload,
    PlainWorkload,
    find_drive_class,
)


def test_plain_workload_split() -> None:
    w = PlainWorkload(iops=1_000.0, read_fraction=0.75, capacity_tb=3.0)
    assert (w.read_iops, w.write_iops, w.host_iops, w.required_tb) == (750.0, 250.0, 1_000.0, 3.0)


def test_mailbox_workload_by_hand() -> None:
    # NS3574 Table 9, 250 MB mailboxes, every other factor at its default:
    # database IOPS = 4,000 x 0.33 x 1.2 headroom = 1,584
    # reads = 1,584 x 0.5 = 792; writes = 792 + 1,584 x 0.38 log = 792 + 601.92 = 1,393.92
    # per user: 250 MB + one day of mail (100 x 50 KB = 5 MB) white space
    #           + 14 days of dumpster (70 MB) = 325 MB
    # databases: 4,000 x 325 MB x 1.2 overhead x 1.05 content index = 1,638,000 MB = 1.638 TB
    # logs: 5 % of that = 0.0819 TB; total 1.7199 TB
    w = MailboxWorkload(users=4_000, iops_per_user=0.33, mailbox_mb=250.0)
    assert w.database_iops == pytest.approx(1_584.0)
    assert w.read_iops == pytest.approx(792.0)
    assert w.log_iops == pytest.approx(601.92)
    assert w.write_iops == pytest.approx(1_393.92)
    assert w.host_iops == pytest.approx(2_185.92)
    assert w.database_mb_per_user == pytest.approx(325.0)
    assert w.database_tb == pytest.approx(1.638)
    assert w.log_tb == pytest.approx(0.0819)
    assert w.required_tb == pytest.approx(1.7199)


def test_mailbox_workload_bare() -> None:
    # With every overhead at zero the mailbox workload is users x IOPS and users x quota.
    w = MailboxWorkload(
        users=1_000,
        iops_per_user=0.5,
        mailbox_mb=2_000.0,
        read_fraction=0.6,
        log_overhead_fraction=0.0,
        iops_headroom_fraction=0.0,
        messages_per_day=0.0,
        database_overhead_fraction=0.0,
        content_index_fraction=0.0,
        log_capacity_fraction=0.0,
    )
    assert (w.read_iops, w.write_iops) == pytest.approx((300.0, 200.0))
    assert w.required_tb == pytest.approx(2.0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"read_fraction": 1.5}, "read_fraction must be between 0 and 1"),
        ({"read_fraction": float("nan")}, "read_fraction"),
        ({"iops": -1.0}, "iops must be a finite number >= 0"),
        ({"capacity_tb": float("inf")}, "capacity_tb"),
        ({"iops": 0.0, "capacity_tb": 0.0}, "neither IOPS nor capacity"),
    ],
)
def test_plain_workload_errors(kwargs: dict[str, float], message: str) -> None:
    base = {"iops": 100.0, "read_fraction": 0.5, "capacity_tb": 1.0} | kwargs
    with pytest.raises(ValueError, match=message):
        PlainWorkload(**base)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"users": 0}, "users must be a whole number >= 1"),
        ({"users": 2.5}, "users must be a whole number"),
        ({"users": True}, "users must be a whole number"),
        ({"iops_per_user": -0.1}, "iops_per_user"),
        ({"mailbox_mb": 0.0}, "mailbox_mb must be a positive"),
        ({"read_fraction": -0.1}, "read_fraction"),
        ({"log_overhead_fraction": -1.0}, "log_overhead_fraction"),
        ({"content_index_fraction": float("nan")}, "content_index_fraction"),
    ],
)
def test_mailbox_workload_errors(kwargs: dict[str, object], message: str) -> None:
    base: dict[str, object] = {"users": 10, "iops_per_user": 0.3, "mailbox_mb": 100.0} | kwargs
    with pytest.raises(ValueError, match=message):
        MailboxWorkload(**base)  # type: ignore[arg-type]


def iops_from_mechanics(avg_seek_ms: float, rpm: float) -> float:
    """Random IOPS of a hard drive: 1000 / (average seek + half a revolution), in ms."""
    return 1_000.0 / (avg_seek_ms + 30_000.0 / rpm)


def test_drive_classes_match_the_mechanics_rule() -> None:
    # IOPS ~ 1000 / (average seek + half a revolution), datasheet-typical seeks.
    assert DRIVE_CLASSES["7.2k"].iops == pytest.approx(iops_from_mechanics(8.5, 7_200), rel=0.05)
    assert DRIVE_CLASSES["10k"].iops == pytest.approx(iops_from_mechanics(4.5, 10_000), rel=0.05)
    assert DRIVE_CLASSES["15k"].iops == pytest.approx(iops_from_mechanics(3.5, 15_000), rel=0.05)
    assert DRIVE_CLASSES["ssd"].iops >= 1_000.0


def test_drive_class_ladder_and_aliases() -> None:
    ladder = [DRIVE_CLASSES[n].iops for n in ("7.2k", "10k", "15k", "ssd")]
    assert ladder == sorted(ladder)
    assert find_drive_class("NL-SAS").name == "7.2k"
    assert find_drive_class("sata").name == "7.2k"
    assert find_drive_class("10K").name == "10k"
    assert find_drive_class("flash").name == "ssd"
    with pytest.raises(ValueError, match=r"unknown drive class '12k'; choose one of"):
        find_drive_class("12k")


def test_drive_usable_and_defaults() -> None:
    d = Drive(0.3, DRIVE_CLASSES["10k"].iops)
    assert d.usable_tb == pytest.approx(0.27)
    assert d.rebuild_mb_per_s is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"capacity_tb": 0.0}, "drive capacity_tb"),
        ({"iops": -5.0}, "drive iops"),
        ({"usable_fraction": 0.0}, "usable_fraction must be in"),
        ({"usable_fraction": 1.2}, "usable_fraction must be in"),
        ({"rebuild_mb_per_s": 0.0}, "drive rebuild_mb_per_s"),
    ],
)
def test_drive_errors(kwargs: dict[str, float], message: str) -> None:
    base = {"capacity_tb": 1.0, "iops": 100.0} | kwargs
    with pytest.raises(ValueError, match=message):
        Drive(**base)
