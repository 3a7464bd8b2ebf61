"""The aggregate section: the data drives every layout must hold, hot spares, the stripe unit.

``data_disks`` is the aggregate's size in data drives (NS3574: 42), which each layout
divides into groups; ``hot_spares`` are dedicated spares beside the groups (counted in the
drives and the cost, never in the risk); ``stripe_unit_kib`` sets how much one sector-loss
event loses in the NOMDL (docs/availability.md).
"""

from __future__ import annotations

from pydantic import Field

from planner.core.arrays.availability import DEFAULT_STRIPE_UNIT_BYTES
from planner.scenario.base import Count, FrozenModel, meta
from planner.scenario.limits import MAX_STRIPE_UNIT_KIB, MIN_STRIPE_UNIT_KIB

DEFAULT_STRIPE_UNIT_KIB = DEFAULT_STRIPE_UNIT_BYTES // 1024
"""128 KiB (:data:`planner.core.arrays.availability.DEFAULT_STRIPE_UNIT_BYTES`)."""


class Aggregate(FrozenModel):
    """The aggregate every layout must hold: data drives, dedicated hot spares, the stripe."""

    data_disks: Count = Field(
        ge=1,
        le=100_000,
        description="Data drives the aggregate holds (NS3574: 42).",
        json_schema_extra=meta("Data disks", "data drives", "42"),
    )
    hot_spares: Count = Field(
        default=0,
        ge=0,
        le=100_000,
        description="Dedicated hot spares beside the groups (default 0): they hold no data, "
        "but are counted in every drive count, the power and the cost (purchase, "
        "replacements, energy). With restore.replace_delay_hours a failed drive is rebuilt "
        "onto a free spare at once and waits for its replacement only when every spare is "
        "taken (Erlang's loss formula; docs/sizing.md). A pool's distributed spares are its "
        "own (layouts[].spares).",
        json_schema_extra=meta("Hot spares", "drives", "2"),
    )
    stripe_unit_kib: Count = Field(
        default=DEFAULT_STRIPE_UNIT_KIB,
        ge=MIN_STRIPE_UNIT_KIB,
        le=MAX_STRIPE_UNIT_KIB,
        description="KiB of one stripe on each drive (the stripe unit: md's chunk, a RAID "
        "controller's strip). Default 128, OpenZFS's default record size (zfsprops(7): "
        "recordsize); Linux md's default chunk is 512 (mdadm(8): --chunk). A sector-loss "
        "event loses one stripe's data, this times the stripe's data drives, in the NOMDL "
        "(bytes lost per usable TB, docs/availability.md).",
        json_schema_extra=meta("Stripe unit", "KiB", "512"),
    )

    @property
    def stripe_unit_bytes(self) -> int:
        """The stripe unit in bytes (KiB = 1,024 bytes)."""
        return self.stripe_unit_kib * 1024
