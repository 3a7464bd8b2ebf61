"""Latent defects per drive-hour from the reads that meet them (NS3574 Table 1).

NS3574 ("Exchange Server 2007 and IBM System Storage N series with RAID-DP", IBM, 2008),
"Latent defects and corrupted data": "By knowing the number of discovered defects per GB
read and the average number of GBs read, we can estimate the RER as a function of time";
Table 1 multiplies read errors per byte by the bytes read per hour. The reads that count
are the workload's: a defect is found when something reads its sector. A scrub reads the
whole drive to FIND defects and repair them (NS3574, "Data scrubbing"; the chain's
mu_scrub), so its reads do not enter the rate: were they counted, scrubbing more often would
raise the risk, the opposite of what a scrub is for.

Three figures, in the order a scenario prefers them (:mod:`planner.scenario.defects`):

* the bytes read per drive-hour as given;
* from a workload: its host read IOPS x the I/O size, spread evenly over the data drives,
  each drive reading at most its own IOPS and sustained rate
  (:func:`workload_bytes_read_per_hour`);
* NS3574's field figure: "Based on the study of 63,000 HDDs reading 7.3x10^17 bytes of
  data in five months, we can estimate the read rate to be 2.7x10^11 bytes/day/HDD"
  (:data:`FIELD_BYTES_READ_PER_HOUR`, 1.125e10 bytes per drive-hour).
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.core.arrays.drives import check_non_negative, check_positive
from planner.core.markov.workload_reads import WorkloadReads

BITS_PER_BYTE = 8.0

FIELD_BYTES_READ_PER_DAY = 2.7e11
"""NS3574's field read rate per drive (bytes per day): 63,000 HDDs, 7.3e17 bytes, 5 months."""

FIELD_BYTES_READ_PER_HOUR = FIELD_BYTES_READ_PER_DAY / 24.0
"""The same per drive-hour: 1.125e10 bytes (Table 1's columns are 1.35e9 and 1.35e10)."""

SECONDS_PER_HOUR = 3600.0


def errors_per_byte_from_per_bit(errors_per_bit: float) -> float:
    """Unrecoverable read errors per byte read from a spec sheet's errors per bit read.

    NS3574's Table 1 "Low" row, 8e-15 errors per byte, is exactly 1 error per 1e15 bits.
    """
    check_non_negative("errors_per_bit", errors_per_bit)
    return BITS_PER_BYTE * errors_per_bit


def latent_defects_per_hour(errors_per_byte: float, bytes_read_per_hour: float) -> float:
    """Latent defects per drive-hour: read errors per byte x bytes read per drive-hour.

    Args:
        errors_per_byte: read errors per byte read (NS3574 Table 1: 8e-15 to 3.2e-13; a
            spec sheet's errors per bit x 8).
        bytes_read_per_hour: bytes the workload reads per drive-hour (not the scrubs').

    Returns:
        The product, per drive-hour (NS3574 Table 1: 1.08e-5 to 4.32e-3).
    """
    check_non_negative("errors_per_byte", errors_per_byte)
    check_non_negative("bytes_read_per_hour", bytes_read_per_hour)
    return errors_per_byte * bytes_read_per_hour


def workload_bytes_read_per_hour(
    read_iops: float,
    io_bytes: float,
    data_drives: float,
    drive_iops: float,
    drive_bytes_per_s: float | None = None,
) -> float:
    """Bytes one drive reads per hour for a workload's host reads.

    A host read of one I/O reads one data drive (parity is not read while the group is
    whole), so the reads spread evenly over the data drives; a drive cannot read more I/Os
    per second than it sustains, so each drive's share is capped at ``drive_iops`` (a
    workload that needs more drives is what ``planner size`` sizes), nor more bytes per
    second than its sustained sequential rate, the most its media delivers: 80 reads of
    1 GB a second are not 80 GB/s from a 285 MB/s drive. Both caps are upper bounds (a
    large read costs a seek and its transfer), so the rate errs high, not low.

    Args:
        read_iops: host reads per second reaching the array.
        io_bytes: bytes per read (bytes).
        data_drives: data drives sharing the reads (> 0).
        drive_iops: random I/Os per second one drive sustains.
        drive_bytes_per_s: the drive's sustained transfer rate (bytes per second), or None
            when unknown (no cap).

    Returns:
        ``min(read_iops / data_drives x io_bytes, drive_iops x io_bytes,
        drive_bytes_per_s) x 3,600`` bytes per drive-hour.
    """
    check_non_negative("read_iops", read_iops)
    check_positive("io_bytes", io_bytes)
    check_positive("data_drives", data_drives)
    check_positive("drive_iops", drive_iops)
    per_second = min(read_iops / data_drives, drive_iops) * io_bytes
    if drive_bytes_per_s is not None:
        check_positive("drive_bytes_per_s", drive_bytes_per_s)
        per_second = min(per_second, drive_bytes_per_s)
    return per_second * SECONDS_PER_HOUR


@dataclass(frozen=True)
class WorkloadReadDefects:
    """Latent defects per drive-hour from a workload's reads, for any count of data drives.

    An aggregate sized for a workload (``planner size``, ``recommend``) spreads the same host
    reads over its own data drives: more drives, fewer reads each, fewer defects per drive.
    The scenario's own rate spreads them over ``aggregate.data_disks``.

    Attributes:
        errors_per_byte: read errors per byte read.
        read_iops: host reads per second reaching the array.
        io_bytes: bytes per read.
        drive_iops: random I/Os per second one drive sustains (each drive's cap).
        drive_bytes_per_s: the drive's sustained rate, bytes per second (a cap too), or
            None when unknown.
    """

    errors_per_byte: float
    read_iops: float
    io_bytes: float
    drive_iops: float
    drive_bytes_per_s: float | None = None

    def reads(self) -> WorkloadReads:
        """The same reads as the chain's rates carry them: all of them, a drive's most.

        ``per_hour(D)`` is ``reads().per_data_drive(D)``: the bytes a drive reads are the
        reads over D, at most its IOPS and its sustained rate
        (:func:`workload_bytes_read_per_hour`).
        """
        most = self.drive_iops * self.io_bytes
        if self.drive_bytes_per_s is not None:
            most = min(most, self.drive_bytes_per_s)
        to_defects = self.errors_per_byte * SECONDS_PER_HOUR
        return WorkloadReads(self.read_iops * self.io_bytes * to_defects, most * to_defects)

    def per_hour(self, data_drives: float) -> float:
        """Latent defects per drive-hour with the reads spread over ``data_drives``."""
        reads = workload_bytes_read_per_hour(
            self.read_iops, self.io_bytes, data_drives, self.drive_iops, self.drive_bytes_per_s
        )
        return latent_defects_per_hour(self.errors_per_byte, reads)
