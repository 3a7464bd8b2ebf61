"""RAID level presets: parity drives per group and, for mirrors, the fixed group size."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

MAX_PARITY = 8
"""Most parity drives per group, everywhere: scenario layouts (so the TUI), ``planner
sweep --parity`` and ``planner derive --parity``. The engine is checked exact for every k
up to it (planner/scenario/limits.py); an n+8 group of 9 drives loses data in ~1 of 1e29.
Only ``derive``'s symbolic exact MTTDL costs more past k = 6 (it asks for ``--force``)."""


@dataclass(frozen=True)
class RaidPreset:
    """A named RAID level.

    Attributes:
        name: canonical preset name, as written in scenario files.
        parity: drives per group that hold redundancy (k of the n+k model).
        fixed_group_size: the group size when the level fixes it (mirrors), else None.
        description: what the level is, for help texts.
        declustered: a declustered pool (dRAID): the group is the pool's children, and a
            layout gives ``data`` per stripe and distributed ``spares``.
        whole_stripe_io: a small read or write is one I/O across the whole stripe (ZFS
            RAID-Z: every block spans the group's data drives), so a group serves one
            drive's worth of small random IOPS, not N (``Layout.iops_drives_per_group``).
        dedicated_parity: the parity drives hold no data and so serve no host reads
            (RAID 4, RAID-DP; ``Layout.every_drive_reads``).
    """

    name: str
    parity: int
    fixed_group_size: int | None
    description: str
    declustered: bool = False
    whole_stripe_io: bool = False
    dedicated_parity: bool = False


PRESETS: dict[str, RaidPreset] = {
    p.name: p
    for p in (
        RaidPreset("raid10", 1, 2, "striped 2-way mirrors (n+1 with one data drive)"),
        RaidPreset("raid1", 1, 2, "2-way mirror (n+1 with one data drive)"),
        RaidPreset("raid4", 1, None, "single dedicated parity (n+1)", dedicated_parity=True),
        RaidPreset("raid5", 1, None, "single distributed parity (n+1)"),
        RaidPreset("raidz1", 1, None, "ZFS single parity (n+1)", whole_stripe_io=True),
        RaidPreset("raid6", 2, None, "double parity (n+2)"),
        RaidPreset(
            "raid-dp", 2, None, "NetApp/IBM N series double parity (n+2)", dedicated_parity=True
        ),
        RaidPreset("raidz2", 2, None, "ZFS double parity (n+2)", whole_stripe_io=True),
        RaidPreset("mirror3", 2, 3, "3-way mirror (n+2 with one data drive)"),
        RaidPreset("raid-tp", 3, None, "triple parity (n+3)"),
        RaidPreset("raidz3", 3, None, "ZFS triple parity (n+3)", whole_stripe_io=True),
        RaidPreset("draid1", 1, None, "ZFS dRAID, declustered single parity", True),
        RaidPreset("draid2", 2, None, "ZFS dRAID, declustered double parity", True),
        RaidPreset("draid3", 3, None, "ZFS dRAID, declustered triple parity", True),
    )
}


def find_preset(name: str) -> RaidPreset | None:
    """The preset called ``name`` (case-insensitive, ``_`` or space for ``-``), or None."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key in PRESETS:
        return PRESETS[key]
    compact = key.replace("-", "")
    for preset in PRESETS.values():
        if preset.name.replace("-", "") == compact:
            return preset
    return None


def nearest_preset(name: str) -> str | None:
    """The preset name closest to a misspelt ``name``, for 'did you mean' hints."""
    matches = difflib.get_close_matches(name.strip().lower(), list(PRESETS), n=1, cutoff=0.4)
    return matches[0] if matches else None
