"""Today's drives as a spec sheet gives them, and what they mean for the Markov model.

A spec sheet gives a drive's capacity, its sustained transfer rate and its unrecoverable
read errors per bit read ("1 sector per 10^15 bits"). From these the model's two
capacity-dependent inputs follow:

* the mean restore time: the whole drive rewritten at its sustained rate, slowed by the
  host load (the Demartek load factors of :mod:`planner.core.arrays.rebuild`)::

      rebuild_hours = load_factor x capacity_tb x 1e12 / (sustained_mb_per_s x 1e6) / 3600

* the latent-defect rate per drive-hour: NS3574 Table 1's "read errors per byte x bytes read
  per hour", where the errors per byte are the spec sheet's errors per bit x 8 and the bytes
  read are the workload's (:mod:`planner.core.arrays.defects`; scrubs find defects, they do not
  make them). Equating the spec-sheet rate with the paper's read error rate is NS3574's own
  reading: its Table 1 "Low" row, 8e-15 errors per byte, is exactly 1 error per 1e15 bits.

The catalogue (:data:`DRIVE_MODELS`) holds a few of today's drive classes; each figure's
source is in its ``sources`` and in docs/drives.md. A figure no public source gave is left
out (None), never guessed.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class DriveModel:
    """One drive class of today, as its spec sheet describes it.

    Attributes:
        name: the name scenario files use (``drive.model``).
        drive_class: the IOPS class (:data:`planner.core.arrays.drives.DRIVE_CLASSES`).
        capacity_tb: nominal capacity (TB, 1e12 bytes).
        sustained_mb_per_s: sustained sequential transfer rate (MB/s, 1e6 bytes), the rate
            a rebuild writes the replacement at; None when no public figure was found.
        unrecoverable_read_errors_per_bit: spec-sheet unrecoverable read errors per bit.
        description: the drive the figures are from.
        sources: where each figure comes from (docs/drives.md repeats them).
    """

    name: str
    drive_class: str
    capacity_tb: float
    sustained_mb_per_s: float | None
    unrecoverable_read_errors_per_bit: float
    description: str
    sources: tuple[str, ...]


DRIVE_MODELS: dict[str, DriveModel] = {
    m.name: m
    for m in (
        DriveModel(
            name="nl-sas-20tb",
            drive_class="7.2k",
            capacity_tb=20.0,
            sustained_mb_per_s=285.0,
            unrecoverable_read_errors_per_bit=1e-15,
            description="20 TB 7,200 rpm NL-SAS (Seagate Exos X20 class)",
            sources=(
                "20 TB, 285 MB/s maximum sustained rate, 7,200 rpm: Blocks & Files, "
                "'Seagate pips Toshiba and WD to 24 TB drive' (2023-10-18), on the Exos X20 "
                "and X24 (https://blocksandfiles.com/2023/10/18/"
                "seagate-pips-toshiba-and-wd-with-24tb-drive/)",
                "1 unrecoverable sector per 1e15 bits: Seagate's 7,200 rpm NL-SAS class "
                "specification, e.g. the Constellation ES (ST2000NM0021) product manual, "
                "'Unrecovered Data: less than 1 sector in 10^15 bits transferred' "
                "(https://manualsdump.com/amp/en/manuals/136740/22)",
            ),
        ),
        DriveModel(
            name="sas-10k-2.4tb",
            drive_class="10k",
            capacity_tb=2.4,
            sustained_mb_per_s=None,
            unrecoverable_read_errors_per_bit=1e-16,
            description="2.4 TB 10,000 rpm 2.5-inch SAS (Seagate Exos 10E2400 class)",
            sources=(
                "2.4 TB, 10K class, SAS 12 Gb/s: hwp24.com review of the Exos 10E2400 "
                "(ST2400MM0129) (https://hwp24.com/articles/"
                "seagate_exos_10e2400_testing_a_hybrid_sff_drive_with_an_extended_method/)",
                "1 unrecoverable sector per 1e16 bits: Seagate's 10K SAS class "
                "specification, e.g. the Savvio 10K.5 (ST9900605SS) product manual, "
                "'Unrecovered Data: less than 1 sector in 10^16 bits transferred' "
                "(https://manualsdump.com/en/manuals/seagate-st9900605ss-st9900805ss-"
                "st9900705ss-st9600005ss-st9600105ss-st9600205ss-st9450305ss-st9450405ss-"
                "st9450205ss/136701/21)",
                "sustained rate: no public figure found; give drive.sustained_mb_per_s or "
                "restore.rebuild_mb_per_s",
            ),
        ),
        DriveModel(
            name="ssd-7.68tb",
            drive_class="ssd",
            capacity_tb=7.68,
            sustained_mb_per_s=520.0,
            unrecoverable_read_errors_per_bit=1e-16,
            description="7.68 TB SATA read-intensive SSD (Micron 5100/5300/5400 PRO class)",
            sources=(
                "7,680 GB capacity point and 'Sequential 128KB write: up to 520 MB/s': "
                "Micron 5100 series product manual (https://manualmachine.com/micron/"
                "mtfddak240t/8099401-user-manual); the 5300 and 5400 keep 540 MB/s read "
                "and 520 MB/s write (Blocks & Files, 2022-06-29, https://blocksandfiles.com/"
                "2022/06/29/micron-updates-sata-ssd-line/)",
                "1 uncorrectable sector per 1e16 bits: Micron's enterprise SATA SSD "
                "specification, e.g. the P400m, 'UBER: <1 sector per 10^16 bits read' "
                "(http://manualzilla.com/doc/7119476/crucial-micron-p400m-100gb); newer "
                "datasheets may state 1e-17: set drive.unrecoverable_read_errors_per_bit",
            ),
        ),
    )
}
"""Today's drive classes by name. Every figure is sourced; see docs/drives.md."""


def find_drive_model(name: str) -> DriveModel:
    """The catalogue drive called ``name`` (case-insensitive).

    Raises:
        ValueError: no drive has that name; the message names the nearest and lists all.
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key in DRIVE_MODELS:
        return DRIVE_MODELS[key]
    near = difflib.get_close_matches(key, list(DRIVE_MODELS), n=1, cutoff=0.5)
    hint = f"did you mean {near[0]!r}? " if near else ""
    raise ValueError(f"unknown drive model {name!r}; {hint}known: {', '.join(DRIVE_MODELS)}")
