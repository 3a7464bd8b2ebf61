"""How many drives a layout needs for a workload: capacity and IOPS, in whole groups.

What belongs here: the counting half of sizing (:func:`sized_counts`, cheap enough for the
thousands of candidates of ``planner recommend``): back-end IOPS, the drives for capacity
and for IOPS, each rounded up to whole groups, the larger kept and which one decided
(``bound_by``). The risk of the sized aggregate is :mod:`planner.core.design.sizing`.

Counting rules (the NS3574 Table 9 comparison and the Exchange sizing guides use the same):

* **IOPS.** Back-end IOPS = reads + writes x write penalty (NS3574, "Write performance").
  Every drive of a group serves back-end I/O, parity and mirror drives included, because
  the penalty already charges the parity (or mirror) writes: a group of N drives serves
  N x ``drive.iops``. A declustered pool counts stripe I/Os instead: a small read or write
  is one I/O across the ``d + p`` drives of its stripe (penalty 1), and the pool serves
  ``floor((C - s) / (d + p))`` x ``drive.iops`` of them (OpenZFS dRAID documentation;
  :func:`planner.core.arrays.declustered.iops_drives`).
* **Capacity.** Only the n = N - k data drives of a group hold data: a group gives
  n x ``drive.usable_tb``.

Units: TB = 10**12 bytes; IOPS are I/Os per second.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from planner.core.arrays.declustered import drive_count
from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.arrays.rebuild import Drive
from planner.core.arrays.workloads import Workload

BoundBy = Literal["capacity", "iops"]

_CEIL_TOLERANCE = 1e-9
"""Relative slack before rounding up: 1,000 IOPS x (1 - 0.7 reads) is 300.00000000000006
writes in binary floating point, and one spurious extra drive would be a wrong answer."""


def backend_iops(read_iops: float, write_iops: float, write_penalty: float) -> float:
    """Disk I/Os per second the array performs: reads + writes x penalty (NS3574)."""
    return read_iops + write_iops * write_penalty


def ceil_count(value: float) -> int:
    """Round a non-negative count up, ignoring floating-point noise below 1e-9 relative."""
    return math.ceil(value * (1.0 - _CEIL_TOLERANCE))


def disks_for_iops(
    backend: float, iops_per_drive: float, group_size: int, iops_drives: int | None = None
) -> int:
    """Drives needed to serve ``backend`` IOPS, rounded up to whole groups of ``group_size``.

    Every drive of a group counts, parity or mirror drives included (see module docstring),
    unless ``iops_drives`` says how many drives' worth of IOPS a group serves (a
    declustered pool: ``floor((C - s) / (d + p))`` stripe I/Os' worth).
    """
    per_group = group_size if iops_drives is None else iops_drives
    groups = ceil_count(ceil_count(backend / iops_per_drive) / per_group)
    return groups * group_size


def disks_for_capacity(required_tb: float, usable_tb_per_drive: float, layout: Layout) -> int:
    """Drives needed to hold ``required_tb``, rounded up to whole groups of the layout.

    Only the data drives of a group count: ceil(ceil(TB / usable TB per drive) / n) groups.
    """
    data_drives = ceil_count(required_tb / usable_tb_per_drive)
    return aggregate_shape(layout, data_drives).total_disks


@dataclass(frozen=True)
class SizedCounts:
    """How many drives a layout needs for a workload, before any risk is evaluated.

    Attributes are those of :class:`~planner.core.design.sizing.SizingResult` with the same
    names.
    """

    backend_iops: float
    disks_for_capacity: int
    disks_for_iops: int
    disks_needed: int
    bound_by: BoundBy
    groups: int
    data_disks: float
    usable_tb: float
    iops_available: float


def sized_counts(
    layout: Layout, workload: Workload, drive: Drive, write_penalty: float
) -> SizedCounts:
    """Drives for capacity and for IOPS in whole groups, the larger kept (at least a group).

    The counting half of :func:`~planner.core.design.sizing.size_layout`, cheap enough for
    thousands of candidates (``planner recommend``).
    """
    backend = backend_iops(workload.read_iops, workload.write_iops, write_penalty)
    for_capacity = disks_for_capacity(workload.required_tb, drive.usable_tb, layout)
    for_iops = disks_for_iops(backend, drive.iops, layout.group_size, layout.iops_drives_per_group)
    # At least one group, even for a workload too small to fill one.
    needed = max(for_capacity, for_iops, layout.group_size)
    groups = needed // layout.group_size
    return SizedCounts(
        backend_iops=backend,
        disks_for_capacity=for_capacity,
        disks_for_iops=for_iops,
        disks_needed=needed,
        bound_by="iops" if for_iops > for_capacity else "capacity",
        groups=groups,
        data_disks=drive_count(groups * layout.data_capacity),
        usable_tb=float(groups * layout.data_capacity) * drive.usable_tb,
        iops_available=groups * layout.iops_drives_per_group * drive.iops,
    )
