"""The drive: random-I/O defaults per class, usable capacity, and its rebuild time.

The sizing engine (:mod:`planner.core.sizing`) counts drives of one :class:`Drive`; this
module says what one drive gives (IOPS, usable TB) and how long it takes to restore it.

Rebuild (restore) time comes from the drive's capacity and a sustained rebuild rate.
Units follow the drive vendors: 1 TB = 10**12 bytes, 1 GB = 10**9 bytes, 1 MB = 10**6
bytes. The result is the mean restore time of the reliability model (``1 / mu_op``, hours).

The model is deliberately simple: a fixed delay before the rebuild starts (no hot spare:
the hours until someone replaces the drive), then the whole drive is rewritten at
``rebuild_mb_per_s``, slowed by ``load_factor`` when the array also serves host I/O::

    rebuild_hours = delay_hours + load_factor * capacity_tb * 1e12 / (rebuild_mb_per_s * 1e6)
                    / 3600

Sources for the rates and load factors:

* NS3574 (seed 000), Figure 8: a 144 GB 15k FC drive in a 16-drive RAID-DP group rebuilt
  in 1 h 30 min 32 s (the N5600 log) while the 10,000-user Jetstress load ran: ~27 MB/s
  *under load* (:data:`FIGURE8_REBUILD_MB_PER_S`).
* Demartek rebuild comparison (seed 003): 500 GB SATA drives in 6-drive RAID 5/RAID 4
  groups rebuilt in 3 h 48 min to 5 h 1 min on an idle array, and in 8 h 24 min to
  29 h 26 min when the LUN of the failed drive was busy with 4 KB random I/O (80 % reads)
  (:data:`DEMARTEK_REBUILD_HOURS`). The busy / idle time ratios of each system give the
  load factors (:data:`LOAD_FACTORS`).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Literal

from planner.core.rates import Rates

RebuildSource = Literal["rates", "drive"]

BYTES_PER_TB = 1e12
"""Decimal terabyte, as drive vendors count it."""

BYTES_PER_MB = 1e6
"""Decimal megabyte, as drive vendors and rebuild-rate figures count it."""

SECONDS_PER_HOUR = 3_600.0

FIGURE8_CAPACITY_TB = 0.144
"""NS3574 Figure 8: the rebuilt drive, a 15k RPM 144 GB FC drive."""

FIGURE8_REBUILD_HOURS = 1.0 + 30.0 / 60.0 + 32.0 / 3_600.0
"""NS3574 Figure 8: reconstruction started 17:39:01 and completed in 1:30:32."""

FIGURE8_REBUILD_MB_PER_S = 27.0
"""NS3574 Figure 8: "a reconstruction rate of ~27 MB/sec", measured under Jetstress load."""


def _hm(hours: int, minutes: int) -> float:
    return hours + minutes / 60.0


DEMARTEK_CAPACITY_TB = 0.5
"""Seed 003: every system used 500 GB SATA drives."""

DEMARTEK_REBUILD_HOURS: dict[str, dict[str, tuple[float, ...]]] = {
    # idle: "No load, idle system"; busy: the four cases where the failed drive's LUN is
    # busy ("fail busy LUN", two LUNs busy, one per shelf, after a controller failure).
    # "Single LUN busy, fail idle LUN" is left out: the failed drive saw no host I/O.
    "EMC CX3-40": {
        "idle": (_hm(5, 1),),
        "busy": (_hm(21, 19), _hm(18, 25), _hm(17, 45), _hm(23, 33)),
    },
    "NetApp FAS3050c": {
        "idle": (_hm(4, 53),),
        "busy": (_hm(26, 58), _hm(28, 40), _hm(29, 26), _hm(27, 32)),
    },
    "Pillar Axiom 500": {
        "idle": (_hm(3, 48),),
        "busy": (_hm(8, 28), _hm(8, 36), _hm(8, 24), _hm(9, 42)),
    },
}
"""Seed 003, "Rebuild Time" table: hours to rebuild one 500 GB SATA drive to a hot spare."""


def check_positive(name: str, value: float) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is positive and finite."""
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")


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
Seed 003 measured 458.5, 413 and 464.6 GB usable of a 500 GB drive (0.92, 0.83, 0.93)."""


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

    @classmethod
    def of_class(
        cls,
        drive_class: str,
        capacity_tb: float,
        *,
        usable_fraction: float = DEFAULT_USABLE_FRACTION,
        rebuild_mb_per_s: float | None = None,
    ) -> Drive:
        """A drive with the default IOPS of ``drive_class`` (7.2k, 10k, 15k or ssd)."""
        return cls(
            capacity_tb=capacity_tb,
            iops=find_drive_class(drive_class).iops,
            usable_fraction=usable_fraction,
            rebuild_mb_per_s=rebuild_mb_per_s,
        )

    @property
    def usable_tb(self) -> float:
        """Data capacity of one drive, TB."""
        return self.capacity_tb * self.usable_fraction


def check_non_negative(name: str, value: float) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is finite and >= 0."""
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")


def check_fraction(name: str, value: float) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is between 0 and 1."""
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be between 0 and 1, got {value!r}")


def rebuild_hours(
    capacity_tb: float,
    rebuild_mb_per_s: float,
    load_factor: float = 1.0,
    delay_hours: float = 0.0,
) -> float:
    """Hours from a drive failure until its data is restored onto a replacement.

    Args:
        capacity_tb: data to rebuild, in TB (10**12 bytes); usually the whole drive, since
            a classic RAID rebuild rewrites every block whether it holds data or not.
        rebuild_mb_per_s: sustained rebuild rate in MB/s (10**6 bytes per second), under the
            conditions it was measured in.
        load_factor: how many times longer the rebuild takes than at ``rebuild_mb_per_s``
            (1 = the measured conditions; see :data:`LOAD_FACTORS` for idle versus busy).
        delay_hours: hours before the rebuild starts (0 with a hot spare; with none, the
            time to get a replacement drive in).

    Returns:
        The restore time in hours.

    Raises:
        ValueError: a capacity, rate or load factor that is not positive and finite, or a
            negative delay.
    """
    check_positive("capacity_tb", capacity_tb)
    check_positive("rebuild_mb_per_s", rebuild_mb_per_s)
    check_positive("load_factor", load_factor)
    if not (math.isfinite(delay_hours) and delay_hours >= 0.0):
        raise ValueError(f"delay_hours must be a finite number >= 0, got {delay_hours!r}")
    seconds = capacity_tb * BYTES_PER_TB / (rebuild_mb_per_s * BYTES_PER_MB)
    return delay_hours + load_factor * seconds / SECONDS_PER_HOUR


def rebuild_mb_per_s_from_hours(capacity_tb: float, hours: float) -> float:
    """The sustained rate (MB/s) that rebuilds ``capacity_tb`` (TB) in ``hours``.

    The inverse of :func:`rebuild_hours` with no delay and a load factor of 1, to turn a
    measured rebuild time into a rate: NS3574 Figure 8 gives 0.144 TB in 1.509 h, 26.5 MB/s.
    """
    check_positive("capacity_tb", capacity_tb)
    check_positive("hours", hours)
    return capacity_tb * BYTES_PER_TB / (hours * SECONDS_PER_HOUR * BYTES_PER_MB)


def demartek_busy_ratios() -> tuple[float, ...]:
    """Busy / idle rebuild-time ratios of seed 003, one per system and busy case (12)."""
    return tuple(
        busy / cases["idle"][0]
        for cases in DEMARTEK_REBUILD_HOURS.values()
        for busy in cases["busy"]
    )


def demartek_idle_mb_per_s() -> tuple[float, ...]:
    """Idle rebuild rates of seed 003 in MB/s (whole 500 GB drive): 27.7, 28.4, 36.5."""
    return tuple(
        rebuild_mb_per_s_from_hours(DEMARTEK_CAPACITY_TB, cases["idle"][0])
        for cases in DEMARTEK_REBUILD_HOURS.values()
    )


LOAD_FACTORS: dict[str, float] = {
    "idle": 1.0,
    "busy": statistics.median(demartek_busy_ratios()),
    "busy-worst": max(demartek_busy_ratios()),
}
"""Rebuild slow-down under host load, relative to an idle array (seed 003).

``busy`` is the median of the twelve busy / idle ratios (about 3.96; the systems range
from 2.2 for the Pillar Axiom to 6.0 for the NetApp FAS3050c); ``busy-worst`` is the
largest (about 6.03). Apply them to a rate measured on an *idle* array. A rate measured
under load, such as NS3574 Figure 8's 27 MB/s, already includes its load: use 1.
"""

DEMARTEK_IDLE_REBUILD_MB_PER_S = statistics.median(demartek_idle_mb_per_s())
"""Median idle rebuild rate of a 500 GB SATA drive in seed 003, about 28.4 MB/s."""


def load_factor_named(name: str) -> float:
    """The load factor preset called ``name`` (``idle``, ``busy`` or ``busy-worst``).

    Raises:
        ValueError: no preset has that name; the message lists the valid ones.
    """
    key = name.strip().lower().replace("_", "-")
    if key not in LOAD_FACTORS:
        raise ValueError(f"unknown rebuild load {name!r}; choose one of {sorted(LOAD_FACTORS)}")
    return LOAD_FACTORS[key]


def restore_hours(
    drive: Drive, rates: Rates, *, load_factor: float = 1.0, delay_hours: float = 0.0
) -> tuple[float, RebuildSource]:
    """The mean restore time for the model and where it came from.

    With a drive rebuild rate, :func:`planner.core.rebuild.rebuild_hours` of the whole drive
    (``drive.capacity_tb``); without one, ``rates.rebuild_hours`` as given.

    Raises:
        ValueError: a load factor or delay without a drive rebuild rate to apply it to.
    """
    if drive.rebuild_mb_per_s is None:
        if load_factor != 1.0 or delay_hours != 0.0:
            raise ValueError(
                "a rebuild load factor or delay needs the drive's rebuild_mb_per_s; "
                "without it the restore time is rates.rebuild_hours as given"
            )
        return rates.rebuild_hours, "rates"
    hours = rebuild_hours(drive.capacity_tb, drive.rebuild_mb_per_s, load_factor, delay_hours)
    return hours, "drive"
