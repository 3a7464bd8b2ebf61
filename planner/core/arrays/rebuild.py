"""How long a failed drive takes to restore: capacity over a sustained rebuild rate.

The drive itself (IOPS per class, usable TB) is in :mod:`planner.core.arrays.drives`, re-exported
here; this module says how long it takes to restore one.

Rebuild (restore) time comes from the drive's capacity and a sustained rebuild rate.
Units follow the drive vendors: 1 TB = 10**12 bytes, 1 GB = 10**9 bytes, 1 MB = 10**6
bytes. The result is the mean restore time of the reliability model (``1 / mu_op``, hours).

The model is deliberately simple: a fixed delay before the rebuild starts (no hot spare:
the hours until someone replaces the drive), then the whole drive is rewritten at
``rebuild_mb_per_s``, slowed by ``load_factor`` when the array also serves host I/O::

    rebuild_hours = delay_hours + load_factor * capacity_tb * 1e12 / (rebuild_mb_per_s * 1e6)
                    / 3600

Sources for the rates and load factors:

* NS3574 (IBM, "Microsoft Exchange Server 2007 and IBM System Storage N series with
  RAID-DP", 2008), Figure 8: a 144 GB 15k FC drive in a 16-drive RAID-DP group rebuilt
  in 1 h 30 min 32 s (the N5600 log) while the 10,000-user Jetstress load ran: ~27 MB/s
  *under load* (:data:`FIGURE8_REBUILD_MB_PER_S`).
* Demartek, "Comparison Test: Storage Vendor Drive Rebuild Times and Application
  Performance Implications" (2008), commissioned by Pillar Data Systems: 500 GB SATA
  drives in 6-drive RAID 5/RAID 4 groups rebuilt in 3 h 48 min to 5 h 1 min on an idle
  array, and in 8 h 24 min to 29 h 26 min when the LUN of the failed drive was busy with
  4 KB random I/O (80 % reads) (:data:`DEMARTEK_REBUILD_HOURS`). The busy / idle time
  ratios of each system give the load factors (:data:`LOAD_FACTORS`).
"""

from __future__ import annotations

import math
import statistics
from typing import Literal

from planner.core.arrays.drives import (
    DEFAULT_USABLE_FRACTION,
    DRIVE_CLASSES,
    Drive,
    DriveClass,
    check_fraction,
    check_non_negative,
    check_positive,
    find_drive_class,
)
from planner.core.markov.rates import Rates

__all__ = [
    "DEFAULT_USABLE_FRACTION",
    "DEMARTEK_IDLE_REBUILD_MB_PER_S",
    "DEMARTEK_REBUILD_HOURS",
    "DRIVE_CLASSES",
    "FIGURE8_REBUILD_MB_PER_S",
    "LOAD_FACTORS",
    "Drive",
    "DriveClass",
    "check_fraction",
    "check_non_negative",
    "check_positive",
    "find_drive_class",
    "load_factor_named",
    "rebuild_hours",
    "rebuild_mb_per_s_from_hours",
    "restore_hours",
]

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
"""Demartek (2008): every system used 500 GB SATA drives."""

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
"""Demartek (2008), "Rebuild Time" table: hours to rebuild one 500 GB SATA drive to a spare."""


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
    """Busy / idle rebuild-time ratios of Demartek (2008), one per system and busy case."""
    return tuple(
        busy / cases["idle"][0]
        for cases in DEMARTEK_REBUILD_HOURS.values()
        for busy in cases["busy"]
    )


def demartek_idle_mb_per_s() -> tuple[float, ...]:
    """Idle rebuild rates of Demartek (2008) in MB/s (whole 500 GB drive): 27.7, 28.4, 36.5."""
    return tuple(
        rebuild_mb_per_s_from_hours(DEMARTEK_CAPACITY_TB, cases["idle"][0])
        for cases in DEMARTEK_REBUILD_HOURS.values()
    )


LOAD_FACTORS: dict[str, float] = {
    "idle": 1.0,
    "busy": statistics.median(demartek_busy_ratios()),
    "busy-worst": max(demartek_busy_ratios()),
}
"""Rebuild slow-down under host load, relative to an idle array (Demartek, 2008).

``busy`` is the median of the twelve busy / idle ratios (about 3.96; the systems range
from 2.2 for the Pillar Axiom to 6.0 for the NetApp FAS3050c); ``busy-worst`` is the
largest (about 6.03). Apply them to a rate measured on an *idle* array. A rate measured
under load, such as NS3574 Figure 8's 27 MB/s, already includes its load: use 1.
"""

DEMARTEK_IDLE_REBUILD_MB_PER_S = statistics.median(demartek_idle_mb_per_s())
"""Median idle rebuild rate of a 500 GB SATA drive in Demartek (2008), about 28.4 MB/s."""


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

    With a drive rebuild rate, :func:`planner.core.arrays.rebuild.rebuild_hours` of the whole drive
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
