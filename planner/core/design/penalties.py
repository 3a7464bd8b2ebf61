"""Disk I/Os per host write: the write penalty of each layout (NS3574, "Write performance").

The sizing (:mod:`planner.core.design.sizing`) charges every host write this many back-end
I/Os; its defaults by preset, overridable per layout (``layouts[].write_penalty``).
"""

from __future__ import annotations

from planner.core.arrays.layouts import Layout
from planner.core.arrays.presets import find_preset

__all__ = ["WRITE_PENALTIES", "default_write_penalty"]

WRITE_PENALTIES: dict[str, float] = {
    # Mirrors: one write per copy (NS3574: RAID 10 "one write to the first disk and another
    # write to the mirrored disk").
    "raid1": 2.0,
    "raid10": 2.0,
    "mirror3": 3.0,
    # Read-modify-write of a small write: read data and k parities, write data and k
    # parities, 2 (k + 1) I/Os (NS3574: RAID 5 = 4, RAID 6 = 6). RAID 4 is RAID 5 with a
    # dedicated parity drive: same I/O count. Triple parity continues the rule: 8.
    "raid4": 4.0,
    "raid5": 4.0,
    "raid6": 6.0,
    "raid-tp": 8.0,
    # RAID-DP with WAFL writes full stripes: NS3574 Figure 7 measured "substantially below
    # 1.0" disk write per host write; 1 is the value the paper feeds the Exchange
    # calculator for Table 9's "RAID 6 (no write penalty)" row.
    "raid-dp": 1.0,
}
"""Default disk I/Os per host write, by preset name (overridable per layout). RAID-Z and
dRAID count stripe I/Os instead (:func:`default_write_penalty`)."""


def default_write_penalty(layout: Layout) -> float:
    """Disk I/Os per host write for ``layout``: by preset, else 2 (k + 1) read-modify-write.

    A plain ``parity: k`` layout (no preset) gets the generic parity figure 2 (k + 1):
    4, 6, 8 for k = 1, 2, 3. A declustered pool (dRAID) writes fixed-width stripes, padding
    a small write to a whole stripe (OpenZFS dRAID docs), and RAID-Z, copy-on-write, writes
    a block as a new stripe across the group without reading to modify one: one stripe
    I/O, as a small read is, so 1 in their unit, the stripe I/O
    (:attr:`~planner.core.arrays.layouts.Layout.counts_stripe_ios`,
    :func:`~planner.core.design.drive_counts.disks_for_iops`).
    """
    if layout.counts_stripe_ios:
        return 1.0
    if layout.raid is not None:
        preset = find_preset(layout.raid)
        if preset is not None and preset.name in WRITE_PENALTIES:
            return WRITE_PENALTIES[preset.name]
    return 2.0 * (layout.parity + 1)
