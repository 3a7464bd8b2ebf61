"""The drive every layout is built from: random-I/O defaults per class and usable capacity.

The sizing engine (:mod:`planner.core.design.sizing`) counts drives of one :class:`Drive`; this
module says what one drive gives (IOPS, usable TB). Its rebuild time is in
:mod:`planner.core.arrays.rebuild`. Units follow the drive vendors: 1 TB = 10**12 bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


def check_positive(name: str, value: float) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is positive and finite."""
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")


def check_non_negative(name: str, value: float) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is finite and >= 0."""
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")


def check_fraction(name: str, value: float) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is between 0 and 1."""
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be between 0 and 1, got {value!r}")


@dataclass(frozen=True)
class DriveClass:
    """Rule-of-thumb random-I/O capability of a class of drive.

    Attributes:
        name: class name as written in scenario files.
        iops: small random I/Os per second one drive sustains at acceptable latency.
        description: what the class is and where the figure comes from.
    """

    name: str
    iops: float
    description: str


DRIVE_CLASSES: dict[str, DriveClass] = {
    c.name: c
    for c in (
        DriveClass(
            "7.2k",
            80.0,
            "7,200 RPM SATA / NL-SAS; rule of thumb 75-100 IOPS, "
            "1000 / (8.5 ms seek + 4.2 ms half turn) = 79",
        ),
        DriveClass(
            "10k",
            130.0,
            "10,000 RPM FC / SAS; rule of thumb 125-150 IOPS, "
            "1000 / (4.5 ms seek + 3.0 ms half turn) = 133",
        ),
        DriveClass(
            "15k",
            180.0,
            "15,000 RPM FC / SAS; rule of thumb 175-210 IOPS, "
            "1000 / (3.5 ms seek + 2.0 ms half turn) = 182",
        ),
        DriveClass(
            "ssd",
            5000.0,
            "SATA / SAS flash; datasheets claim tens of thousands, 5,000 is a "
            "conservative rule of thumb for mixed random I/O behind a RAID controller",
        ),
    )
}
"""Default IOPS per drive class. Rules of thumb, not measurements: override them with the
vendor's or your own figures (see docs/sizing.md for their sources)."""

_DRIVE_CLASS_ALIASES = {
    "7200": "7.2k", "7k": "7.2k", "sata": "7.2k", "nl-sas": "7.2k", "nlsas": "7.2k",
    "10000": "10k", "15000": "15k", "flash": "ssd",
}  # fmt: skip


def find_drive_class(name: str) -> DriveClass:
    """The drive class called ``name`` (or an alias: sata, nl-sas, 7200, flash ...).

    Raises:
        ValueError: no class has that name; the message lists the valid ones.
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _DRIVE_CLASS_ALIASES.get(key, key)
    if key not in DRIVE_CLASSES:
        raise ValueError(f"unknown drive class {name!r}; choose one of {sorted(DRIVE_CLASSES)}")
    return DRIVE_CLASSES[key]


DEFAULT_USABLE_FRACTION = 0.9
"""Share of a drive's nominal capacity left for data after right-sizing and formatting.
Demartek, "Comparison Test: Storage Vendor Drive Rebuild Times and Application Performance
Implications" (2008), measured 458.5, 413 and 464.6 GB usable of a 500 GB drive (0.92,
0.83, 0.93)."""


@dataclass(frozen=True)
class Drive:
    """The drive every layout is built from.

    Attributes:
        capacity_tb: nominal capacity in TB (10**12 bytes), as on the label.
        iops: random I/Os per second per drive (:data:`DRIVE_CLASSES` for defaults).
        usable_fraction: share of ``capacity_tb`` that holds data (right-sizing, format).
        rebuild_mb_per_s: sustained rebuild rate in MB/s, or None to take the restore time
            from the rates as given.
    """

    capacity_tb: float
    iops: float
    usable_fraction: float = DEFAULT_USABLE_FRACTION
    rebuild_mb_per_s: float | None = None

    def __post_init__(self) -> None:
        check_positive("drive capacity_tb", self.capacity_tb)
        check_positive("drive iops", self.iops)
        if not (0.0 < self.usable_fraction <= 1.0):
            raise ValueError(f"usable_fraction must be in (0, 1], got {self.usable_fraction!r}")
        if self.rebuild_mb_per_s is not None:
            check_positive("drive rebuild_mb_per_s", self.rebuild_mb_per_s)

    @property
    def usable_tb(self) -> float:
        """Data capacity of one drive, TB."""
        return self.capacity_tb * self.usable_fraction
