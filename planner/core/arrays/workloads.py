"""Workloads to size for: host reads and writes per second and the capacity they need.

Two kinds: a plain workload (IOPS, read share, capacity) and an Exchange-style mailbox
workload whose factors are documented, editable parameters (docs/sizing.md gives their
sources). Both satisfy the :class:`Workload` protocol that :mod:`planner.core.design.sizing` uses.

Units: TB = 10**12 bytes, MB = 10**6 bytes, KB = 10**3 bytes; IOPS are I/Os per second.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from planner.core.arrays.rebuild import check_fraction, check_non_negative, check_positive


class Workload(Protocol):
    """What the sizing needs from a workload: host I/O split and capacity."""

    @property
    def read_iops(self) -> float:
        """Host reads per second reaching the array."""
        ...

    @property
    def write_iops(self) -> float:
        """Host writes per second reaching the array."""
        ...

    @property
    def required_tb(self) -> float:
        """Usable capacity the data needs, in TB (10**12 bytes)."""
        ...


@dataclass(frozen=True)
class PlainWorkload:
    """A workload given directly: host IOPS, read share and capacity.

    Attributes:
        iops: host I/Os per second (reads + writes) at the peak to size for.
        read_fraction: share of ``iops`` that are reads, 0 to 1.
        capacity_tb: usable capacity needed, TB (10**12 bytes).
    """

    iops: float
    read_fraction: float
    capacity_tb: float

    def __post_init__(self) -> None:
        check_non_negative("iops", self.iops)
        check_fraction("read_fraction", self.read_fraction)
        check_non_negative("capacity_tb", self.capacity_tb)
        if self.iops == 0.0 and self.capacity_tb == 0.0:
            raise ValueError("the workload asks for neither IOPS nor capacity")

    @property
    def read_iops(self) -> float:
        """Host reads per second."""
        return self.iops * self.read_fraction

    @property
    def write_iops(self) -> float:
        """Host writes per second."""
        return self.iops * (1.0 - self.read_fraction)

    @property
    def host_iops(self) -> float:
        """Host I/Os per second."""
        return self.iops

    @property
    def required_tb(self) -> float:
        """Usable capacity needed, TB."""
        return self.capacity_tb


@dataclass(frozen=True)
class MailboxWorkload:
    """An Exchange 2007 style mailbox workload (databases and their logs on one aggregate).

    Every factor is a named default from Exchange 2007 sizing guidance; docs/sizing.md
    gives the sources and the effect of each on NS3574 Table 9.

    Attributes:
        users: mailboxes.
        iops_per_user: database IOPS per mailbox (Exchange 2007 profiles: 0.11 light,
            0.18 average, 0.32 heavy, 0.48 very heavy; NS3574 Table 9 uses 0.33).
        mailbox_mb: mailbox quota, MB.
        read_fraction: database reads / database IOPS; Exchange 2007 is about 1:1.
        log_overhead_fraction: transaction log writes per database I/O (about 3/4 of the
            database writes at 1:1, so 0.38; 0 leaves the logs out).
        iops_headroom_fraction: peak headroom on top of the profile (20 %, as the IBM XIV
            ESRP: Offer and Hartman, "IBM XIV Storage System Model 2810 40,000 Mailbox
            Resiliency Exchange 2010 Storage Solution", IBM, 2009: 0.8 IOPS "include 20%
            headroom", 1.0 tested).
        messages_per_day: messages sent and received per mailbox per day (100 for the heavy
            0.32 IOPS profile: 20 sent, 80 received).
        message_kb: average message size, KB (10**3 bytes).
        deleted_item_retention_days: days the dumpster keeps deleted items (default 14).
        database_overhead_fraction: extra space on top of mailboxes, white space and
            dumpster for tables, indices and safety (Microsoft: 20 %).
        content_index_fraction: content index size as a share of the database (about 5 %).
        log_capacity_fraction: log space as a share of the database (Demartek, "Evaluation
            Report: Supporting Microsoft Exchange on the Lenovo S3200 Hybrid Array", 2016:
            10 GB log volumes for 200 GB database volumes, 5 %).
    """

    users: int
    iops_per_user: float
    mailbox_mb: float
    read_fraction: float = 0.5
    log_overhead_fraction: float = 0.38
    iops_headroom_fraction: float = 0.2
    messages_per_day: float = 100.0
    message_kb: float = 50.0
    deleted_item_retention_days: float = 14.0
    database_overhead_fraction: float = 0.2
    content_index_fraction: float = 0.05
    log_capacity_fraction: float = 0.05

    def __post_init__(self) -> None:
        if isinstance(self.users, bool) or not isinstance(self.users, int) or self.users < 1:
            raise ValueError(f"users must be a whole number >= 1, got {self.users!r}")
        check_non_negative("iops_per_user", self.iops_per_user)
        check_positive("mailbox_mb", self.mailbox_mb)
        check_fraction("read_fraction", self.read_fraction)
        for name in (
            "log_overhead_fraction",
            "iops_headroom_fraction",
            "messages_per_day",
            "message_kb",
            "deleted_item_retention_days",
            "database_overhead_fraction",
            "content_index_fraction",
            "log_capacity_fraction",
        ):
            check_non_negative(name, getattr(self, name))

    @property
    def database_iops(self) -> float:
        """Database IOPS with headroom: users x IOPS per user x (1 + headroom)."""
        return self.users * self.iops_per_user * (1.0 + self.iops_headroom_fraction)

    @property
    def log_iops(self) -> float:
        """Transaction log writes per second: database IOPS x log overhead."""
        return self.database_iops * self.log_overhead_fraction

    @property
    def read_iops(self) -> float:
        """Host reads per second (database reads; log reads only happen in recovery)."""
        return self.database_iops * self.read_fraction

    @property
    def write_iops(self) -> float:
        """Host writes per second: database writes plus log writes."""
        return self.database_iops * (1.0 - self.read_fraction) + self.log_iops

    @property
    def host_iops(self) -> float:
        """Host I/Os per second, reads and writes."""
        return self.read_iops + self.write_iops

    @property
    def database_mb_per_user(self) -> float:
        """Database space per mailbox before the overhead factor, MB.

        Mailbox + white space (one day of mail) + dumpster (retention days of mail).
        """
        day_mb = self.messages_per_day * self.message_kb / 1_000.0
        return self.mailbox_mb + day_mb * (1.0 + self.deleted_item_retention_days)

    @property
    def database_tb(self) -> float:
        """All databases with overhead and content index, TB."""
        mb = self.users * self.database_mb_per_user
        mb *= (1.0 + self.database_overhead_fraction) * (1.0 + self.content_index_fraction)
        return mb / 1e6

    @property
    def log_tb(self) -> float:
        """Transaction log space, TB."""
        return self.database_tb * self.log_capacity_fraction

    @property
    def required_tb(self) -> float:
        """Databases plus logs, TB."""
        return self.database_tb + self.log_tb
