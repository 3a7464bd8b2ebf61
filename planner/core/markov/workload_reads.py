"""A workload's reads as latent defects, for any count of data drives that share them.

A workload's host reads meet latent defects at read errors per byte x the bytes they read
(NS3574 Table 1; :mod:`planner.core.arrays.defects`). The reads spread over the data drives
an aggregate has, each reading at most what its IOPS and sustained rate allow, so one data
drive's rate is ``min(all / data drives, most)``. The count is the aggregate's own: a layout
whose groups hold more data drives than asked (an uneven division) spreads the same reads
thinner (a newcomer's review: RAID 6 (8+2) for 17 or 24 data drives is the same 3 groups,
and was 38% riskier for 17). :meth:`planner.core.arrays.layouts.Layout.chain_rates` asks
for the count its groups hold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class WorkloadReads:
    """A workload's reads as latent defects: all of them an hour, and one data drive's most.

    Attributes:
        defects_per_hour: read errors per byte x the bytes the workload's host reads take
            from all the data drives in an hour (1/h).
        most_per_drive_hour: the most one data drive meets, reading at its own IOPS and
            sustained rate (1/h; inf when neither is known).
    """

    defects_per_hour: float
    most_per_drive_hour: float = math.inf

    def __post_init__(self) -> None:
        if not (math.isfinite(self.defects_per_hour) and self.defects_per_hour >= 0):
            raise ValueError(f"defects_per_hour must be >= 0, got {self.defects_per_hour!r}")
        if not self.most_per_drive_hour >= 0:
            raise ValueError(f"most_per_drive_hour must be >= 0, got {self.most_per_drive_hour!r}")

    def per_data_drive(self, data_drives: float) -> float:
        """One data drive's latent defects per hour with the reads over ``data_drives``."""
        if not data_drives > 0:
            raise ValueError(f"data_drives must be positive, got {data_drives!r}")
        return min(self.defects_per_hour / data_drives, self.most_per_drive_hour)
