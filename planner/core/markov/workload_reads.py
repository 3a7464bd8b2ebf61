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

import dataclasses
import math
from dataclasses import dataclass
from typing import Protocol, TypeVar


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

    def per_data_drive(self, data_drives: float, share: float = 1.0) -> float:
        """One drive's latent defects per hour with the reads over ``data_drives``.

        ``share``: the reads of one data drive's worth that one drive serves (a group's
        data drives per drive when all of its drives serve them), taken before the cap.
        """
        if not data_drives > 0:
            raise ValueError(f"data_drives must be positive, got {data_drives!r}")
        return min(self.defects_per_hour / data_drives * share, self.most_per_drive_hour)


class ReadDefects(Protocol):
    """What carries a latent-defect rate a workload's reads may have made.

    The chain's rates (:class:`~planner.core.markov.rates.Rates`) and the simulator's laws.
    """

    @property
    def latent_defects_per_hour(self) -> float:
        """Latent defects per drive-hour (a data drive's with ``defects_per_data_drive``)."""
        ...

    @property
    def defects_per_data_drive(self) -> bool:
        """The rate is a data drive's share of a workload's reads."""
        ...

    @property
    def workload_reads(self) -> WorkloadReads | None:
        """The workload's reads behind the rate, or None."""
        ...


Carried = TypeVar("Carried", bound=ReadDefects)


def reads_spread(
    values: Carried, data_drives: float | None, data_share: float, *, every_drive: bool = True
) -> Carried:
    """Each drive's latent-defect rate in a group whose drives hold ``data_share`` of data.

    A rate per data drive (``defects_per_data_drive``) is first taken over ``data_drives``,
    those the aggregate's groups hold (None: as it is), then times the group's data drives
    per drive: a mirror's reads go to either copy, rotating parity puts data on every
    drive, and with dedicated parity the mean over the group's drives is what a chain that
    gives them one rate needs. ``values`` as they are otherwise (a rate given per drive).

    The cap (the most a drive reads) is on each drive that serves the reads: with
    ``every_drive`` (mirrors, rotating parity, pools) every drive reads its share, so the
    mean is capped, ``min(all / data_drives x data_share, most)``; with dedicated parity
    (RAID 4, RAID-DP) only the data drives read, each capped, ``min(all / data_drives,
    most) x data_share``. Capping each data drive before sharing the reads with a mirror's
    copies undercounted a three-way mirror's defects by 1.29x where the cap bound.
    """
    if not values.defects_per_data_drive:
        return values
    reads = values.workload_reads
    if data_drives is not None and reads is not None:
        if every_drive:
            rate = reads.per_data_drive(data_drives, data_share)
        else:
            rate = reads.per_data_drive(data_drives) * data_share
    else:
        rate = values.latent_defects_per_hour * data_share
    return dataclasses.replace(  # type: ignore[type-var]
        values, latent_defects_per_hour=rate, defects_per_data_drive=False
    )
