"""Where a scenario's latent-defect rate comes from, and the rate.

In the order the scenario's keys are preferred:

1. ``drive.latent_defects_per_hour`` as given: it overrides any rate the drive would
   derive (``--set drive.latent_defects_per_hour=...`` on a spec-sheet drive);
2. read errors per byte (``drive.read_errors_per_byte``, or the spec sheet's
   ``unrecoverable_read_errors_per_bit`` x 8) x the bytes one drive reads per hour
   (NS3574 Table 1), the bytes read being, in turn:

   a. ``drive.bytes_read_per_hour`` as given;
   b. the workload's host read IOPS x ``workload.io_size_kb``, spread evenly over
      ``aggregate.data_disks``, each drive reading at most its own IOPS and, when the
      drive gives one, its ``sustained_mb_per_s``
      (:func:`planner.core.arrays.defects.workload_bytes_read_per_hour`): a DATA drive's
      rate, which each layout's chain spreads over its groups' drives, times
      ``Layout.data_share`` (``Rates.defects_per_data_drive``);
   c. NS3574's field figure, 2.7e11 bytes per day per drive
      (:data:`planner.core.arrays.defects.FIELD_BYTES_READ_PER_HOUR`).

The scrub interval is in none of them: scrubs find defects (the chain's mu_scrub), they do
not make them (docs/drives.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from planner.core.arrays.defects import (
    FIELD_BYTES_READ_PER_DAY,
    FIELD_BYTES_READ_PER_HOUR,
    SECONDS_PER_HOUR,
    WorkloadReadDefects,
    errors_per_byte_from_per_bit,
    latent_defects_per_hour,
    workload_bytes_read_per_hour,
)
from planner.scenario.base import FieldError
from planner.scenario.limits import MAX_LATENT_DEFECTS_PER_HOUR

if TYPE_CHECKING:
    from planner.scenario.drive import DriveSpec
    from planner.scenario.workload import Workload

RateSource = Literal["given", "read-errors-per-byte", "spec-sheet"]
"""``drive.latent_defects_per_hour``, ``drive.read_errors_per_byte`` or the spec sheet's
``drive.unrecoverable_read_errors_per_bit``."""

BytesSource = Literal["given", "workload", "field-default"]
"""``drive.bytes_read_per_hour``, the workload's reads, or NS3574's field figure."""


def _figure(value: float) -> str:
    """``1.125e10``, ``9e-5``, ``0.5``: four significant digits, a short exponent."""
    text = f"{value:.4g}"
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa}e{int(exponent)}"


@dataclass(frozen=True)
class LatentDefectRate:
    """A scenario's latent defects per drive-hour and what they were made from.

    Attributes:
        per_hour: latent defects per drive-hour, lambda_ld.
        source: where the rate comes from (:data:`RateSource`).
        errors_per_byte: read errors per byte read (None when the rate is given).
        bytes_read_per_hour: bytes one drive reads per hour (None when the rate is given).
        bytes_source: where those bytes come from (None when the rate is given).
        overrides_spec_sheet: the rate is given beside a spec sheet's error rate, which it
            overrides (the spec-sheet method still uses the error rate).
    """

    per_hour: float
    source: RateSource
    errors_per_byte: float | None = None
    bytes_read_per_hour: float | None = None
    bytes_source: BytesSource | None = None
    overrides_spec_sheet: bool = False

    @property
    def shows_source(self) -> bool:
        """Whether the outputs say where the rate comes from.

        Not for a rate the file gives alone, nor NS3574 Table 1's product with both factors
        in the file (the paper's scenarios): the inputs line shows those as they are.
        """
        if self.source == "given":
            return self.overrides_spec_sheet
        return self.source == "spec-sheet" or self.bytes_source != "given"

    @property
    def source_text(self) -> str:
        """The rate's source in a few words, as the JSON inputs give it."""
        if self.source == "given":
            over = ", overriding the spec sheet" if self.overrides_spec_sheet else ""
            return f"drive.latent_defects_per_hour{over}"
        errors = (
            "drive.read_errors_per_byte"
            if self.source == "read-errors-per-byte"
            else "8 x drive.unrecoverable_read_errors_per_bit"
        )
        reads = {
            "given": "drive.bytes_read_per_hour",
            "workload": "the workload's reads",
            "field-default": "NS3574's field read rate",
        }[self.bytes_source or "given"]
        return f"{errors} x {reads}"

    def note(
        self,
        read_iops: float | None = None,
        io_size_kb: float | None = None,
        drive_mb_per_s: float | None = None,
    ) -> str:
        """One line for the notes: the rate, its arithmetic and where each factor comes from.

        ``drive_mb_per_s``: the drive's sustained rate, which caps its reads with its IOPS.
        """
        if self.source == "given":
            over = (
                ", overriding the spec sheet's error rate (which the spec-sheet method still uses)"
                if self.overrides_spec_sheet
                else ""
            )
            return f"Latent defects {_figure(self.per_hour)} per drive-hour as given{over}."
        assert self.errors_per_byte is not None
        assert self.bytes_read_per_hour is not None
        errors = (
            f"{_figure(self.errors_per_byte)} read errors per byte"
            if self.source == "read-errors-per-byte"
            else f"8 x {_figure(self.errors_per_byte / 8)} errors per bit"
        )
        if self.bytes_source == "given":
            reads = "(drive.bytes_read_per_hour)"
        elif self.bytes_source == "workload":
            io = "" if io_size_kb is None else f" x {_plain(io_size_kb)} KB"
            count = "" if read_iops is None else f"{read_iops:,.6g} read IOPS"
            rate = "" if drive_mb_per_s is None else f" and {drive_mb_per_s:g} MB/s"
            reads = (
                f"(the workload's {count}{io} over the data drives, at most the drive's IOPS"
                f"{rate} each; workload.io_size_kb)"
            )
        else:
            reads = (
                f"(NS3574's field figure, {_figure(FIELD_BYTES_READ_PER_DAY)} bytes per day per "
                "drive whatever its size, so fewer, larger drives for the same data read less in "
                "all: to compare drive sizes, give a workload, whose reads follow the data, or "
                "drive.bytes_read_per_hour)"
            )
        if self.bytes_source == "workload":
            return (
                f"Latent defects {_figure(self.per_hour)} per data drive-hour: {errors} x "
                f"{_figure(self.bytes_read_per_hour)} bytes read per data drive-hour {reads}. "
                "A group's drives share its data drives' reads (a mirror's go to either copy), "
                "so each layout's chain takes this x its data drives per drive, N - k over N "
                "(the Latent defects /drive-h column); scrubs find defects, they do not make "
                "them (docs/drives.md)."
            )
        return (
            f"Latent defects {_figure(self.per_hour)} per drive-hour: {errors} x "
            f"{_figure(self.bytes_read_per_hour)} bytes read per drive-hour {reads}; scrubs find "
            "defects, they do not make them (docs/drives.md)."
        )


def bytes_read_per_hour(
    drive: DriveSpec, workload: Workload | None, data_disks: int
) -> tuple[float, BytesSource]:
    """Bytes one drive reads per hour, and where the figure comes from (see the module)."""
    if drive.bytes_read_per_hour is not None:
        return drive.bytes_read_per_hour, "given"
    iops = drive.iops
    read_iops = 0.0 if workload is None else workload.core_workload().read_iops
    # A workload with no IOPS (capacity only) says nothing of its reads: the field figure.
    if workload is not None and read_iops > 0 and iops is not None:
        return (
            workload_bytes_read_per_hour(
                read_iops, workload.io_bytes, data_disks, iops, _bytes_per_s(drive)
            ),
            "workload",
        )
    return FIELD_BYTES_READ_PER_HOUR, "field-default"


def latent_defect_rate(
    drive: DriveSpec, workload: Workload | None, data_disks: int
) -> LatentDefectRate:
    """The scenario's latent defects per drive-hour and their source (see the module)."""
    spec = drive.unrecoverable_read_errors_per_bit
    if drive.latent_defects_per_hour is not None:
        return LatentDefectRate(
            drive.latent_defects_per_hour, "given", overrides_spec_sheet=spec is not None
        )
    if spec is not None:
        errors, source = errors_per_byte_from_per_bit(spec), "spec-sheet"
    else:
        assert drive.read_errors_per_byte is not None  # DriveSpec requires a way
        errors, source = drive.read_errors_per_byte, "read-errors-per-byte"
    reads, reads_source = bytes_read_per_hour(drive, workload, data_disks)
    return LatentDefectRate(
        latent_defects_per_hour(errors, reads),
        source,  # type: ignore[arg-type]
        errors_per_byte=errors,
        bytes_read_per_hour=reads,
        bytes_source=reads_source,
    )


def workload_read_defects(
    drive: DriveSpec, workload: Workload | None
) -> WorkloadReadDefects | None:
    """:func:`latent_defect_rate` for any count of data drives, from the workload's reads.

    None when the rate is given, or made from given or NS3574's field reads. An aggregate
    sized for the workload spreads its reads over its own data drives (docs/drives.md);
    :func:`latent_defect_rate` spreads them over ``aggregate.data_disks``.
    """
    if drive.latent_defects_per_hour is not None or drive.bytes_read_per_hour is not None:
        return None
    if workload is None or drive.iops is None:
        return None
    read_iops = workload.core_workload().read_iops
    if read_iops <= 0:
        return None
    spec = drive.unrecoverable_read_errors_per_bit
    if spec is not None:
        errors = errors_per_byte_from_per_bit(spec)
    else:
        assert drive.read_errors_per_byte is not None  # DriveSpec requires a way
        errors = drive.read_errors_per_byte
    return WorkloadReadDefects(
        errors, read_iops, workload.io_bytes, drive.iops, _bytes_per_s(drive)
    )


def _bytes_per_s(drive: DriveSpec) -> float | None:
    """The drive's sustained rate in bytes per second (MB = 10^6 bytes), or None."""
    rate = drive.sustained_mb_per_s
    return None if rate is None else rate * 1e6


_WORKLOAD_READS_FROM = (
    ("workload",),
    ("aggregate", "data_disks"),
    ("drive", "class"),
    ("drive", "iops_per_drive"),
    ("drive", "sustained_mb_per_s"),
)
"""Where a workload's reads per drive come from: its reads and I/O size, the drives sharing
them, and each drive's IOPS and sustained rate (their caps)."""


def check_derived_rate(rate: LatentDefectRate, workload: Workload | None) -> None:
    """Refuse a rate derived at 1 or more per drive-hour, saying what it was made of.

    A given rate has its own bound (:class:`~planner.scenario.drive.DriveSpec`). A derived
    one is refused at the drive's error rate, and every field it was made from is an input
    of the error, so a ``--set`` of any of them (``workload.io_size_kb=1000000``) is named.

    Raises:
        FieldError: the rate is not below :data:`MAX_LATENT_DEFECTS_PER_HOUR`.
    """
    if rate.source == "given" or rate.per_hour < MAX_LATENT_DEFECTS_PER_HOUR:
        return
    assert rate.errors_per_byte is not None
    assert rate.bytes_read_per_hour is not None
    spec = rate.source == "spec-sheet"
    key = "unrecoverable_read_errors_per_bit" if spec else "read_errors_per_byte"
    errors = (
        f"8 x the spec sheet's {_figure(rate.errors_per_byte / 8)} errors per bit"
        if spec
        else f"{_figure(rate.errors_per_byte)} read errors per byte"
    )
    inputs: list[tuple[str, ...]] = [("drive", key), ("drive", "model")]
    reads = ""
    if rate.bytes_source == "given":
        inputs.append(("drive", "bytes_read_per_hour"))
    if rate.bytes_source == "workload" and workload is not None:
        inputs.extend(_WORKLOAD_READS_FROM)
        per_drive = rate.bytes_read_per_hour / workload.io_bytes / SECONDS_PER_HOUR
        reads = (
            f" (the workload's: {per_drive:,.3g} reads/s per drive x "
            f"{_plain(workload.io_bytes / 1e3)} KB)"
        )
    raise FieldError(
        f"{errors} x {rate.bytes_read_per_hour:.3g} bytes read per drive-hour{reads} is "
        f"{rate.per_hour:.3g} latent defects per drive-hour; it must be below 1 per drive-hour "
        "(NS3574: 1.08e-4)",
        "drive",
        key,
        inputs=tuple(inputs),
    )


def _plain(value: float) -> str:
    """``8.192``, ``1,000,000``: a number as typed in a file, never ``1e+06``."""
    return f"{value:,.0f}" if value >= 1000 else f"{value:g}"
