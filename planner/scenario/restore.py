"""The restore section: how long a failed drive takes to restore, and how often scrubs run.

The mean restore time of the Markov model (1 / mu_op, hours) is given in one of two ways:

* ``rebuild_hours``: the time as a number (NS3574 uses 12 h);
* the rebuild model: ``rebuild_mb_per_s`` (the sustained rebuild rate), optionally slowed
  by ``load`` (``idle``, ``busy``, ``busy-worst``) or an explicit ``load_factor``, plus
  ``replace_delay_hours``, the wait for a replacement drive before the rebuild starts when
  no hot spare is free (``aggregate.hot_spares`` shortens it per layout). The time is then
  :func:`planner.core.arrays.rebuild.rebuild_hours` of the drive's ``capacity_tb`` (the whole drive
  is rewritten), so the scenario must give ``drive.capacity_tb``;
* neither: the rebuild model at the drive's own ``drive.sustained_mb_per_s`` (its spec
  sheet, or its catalogue ``drive.model``), with the same ``load`` and delay. The scenario
  checks that the drive gives the rate.

The rate lives here, not on the drive, because it is a property of the array under its
load as much as of the drive: Demartek, "Comparison Test: Storage Vendor Drive Rebuild
Times and Application Performance Implications" (2008), measured the same 500 GB drive
rebuilding in 3 h 48 to 5 h 1 on three arrays. Sources and presets: docs/sizing.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import ConfigDict, Field, PrivateAttr, field_validator, model_validator

from planner.core.arrays.rebuild import LOAD_FACTORS, load_factor_named, rebuild_hours
from planner.scenario.base import FieldError, FrozenModel, SetAside, at_least, meta, positive
from planner.scenario.errors import shown
from planner.scenario.limits import MIN_RESTORE_HOURS, reason_for

MAX_REBUILD_HOURS = 8760.0
"""Longest mean restore time accepted, given or derived (a year)."""

MAX_REBUILD_STREAMS = 64
"""Most concurrent rebuild streams accepted (more than the parity schema allows)."""

_MODEL_KEYS = ("load", "load_factor", "replace_delay_hours")

REBUILD_MODEL_KEYS = ("rebuild_mb_per_s", *_MODEL_KEYS)
"""The rebuild model's keys: giving ``rebuild_hours`` replaces them all."""
"""Keys that only make sense with ``rebuild_mb_per_s``."""


def format_hours(hours: float) -> str:
    """Hours as a message states them: 10,288, or 2.2e+303 past a billion."""
    return f"{hours:,.0f}" if hours < 1e9 else f"{hours:.3g}"


def _restore_schema_extra(schema: dict[str, Any]) -> None:
    # At most one way of giving the restore time (the model check says so in words); with
    # neither the drive's sustained_mb_per_s is the rate.
    schema["not"] = {"required": ["rebuild_hours", "rebuild_mb_per_s"]}


STREAMS_GRAMMAR = (
    f"a whole number of rebuild streams from 1 to {MAX_REBUILD_STREAMS} (1: one at a time), "
    "or all (every failed drive at once); true and false read as all and 1"
)
"""What ``parallel_rebuilds`` takes, in the file, the TUI's Rebuilds field and ``planner
derive --parallel-rebuilds`` alike (0, yes and no are refused in all three)."""


def parse_rebuild_streams(text: str) -> int | None:
    """``--parallel-rebuilds``: ``1``-``64`` -> that many streams, ``all``/``true`` -> None.

    ``false`` is 1. The grammar of the file's ``parallel_rebuilds`` and the TUI's field.

    Raises:
        ValueError: anything else (0, yes, 65), saying what to give.
    """
    word = text.strip().lower()
    if word in ("all", "true"):
        return None
    if word == "false":
        return 1
    if word.isdigit() and 1 <= int(word) <= MAX_REBUILD_STREAMS:
        return int(word)
    raise ValueError(f"{shown(text)} is not {STREAMS_GRAMMAR}")


class Restore(FrozenModel):
    """Mean times to repair: rebuilding a failed drive and scrubbing away a latent defect.

    Give ``rebuild_hours``, or the rebuild model ``rebuild_mb_per_s`` (with optional
    ``load`` or ``load_factor`` and ``replace_delay_hours``), not both; or neither, to rebuild
    at the drive's ``sustained_mb_per_s``.
    """

    model_config = ConfigDict(json_schema_extra=_restore_schema_extra)

    rebuild_hours: float | None = at_least(
        MIN_RESTORE_HOURS,
        default=None,
        le=MAX_REBUILD_HOURS,
        description="Mean time to restore a failed drive onto a spare (hours; NS3574: 12). "
        "Alternative: rebuild_mb_per_s.",
        json_schema_extra=meta("Rebuild h", "hours", "12", replaces=REBUILD_MODEL_KEYS),
    )
    rebuild_mb_per_s: float | None = positive(
        default=None,
        le=100_000,
        description="Sustained rebuild rate (MB/s, 10^6 bytes); the restore time is then "
        "drive.capacity_tb at this rate (NS3574 Figure 8: ~27 MB/s under load).",
        json_schema_extra=meta("Rebuild MB/s", "MB/s", "27", replaces=("rebuild_hours",)),
    )
    load: str | None = Field(
        default=None,
        strict=True,
        description="Host load during the rebuild, slowing a rate measured on an idle "
        f"array: one of {', '.join(LOAD_FACTORS)} (Demartek's 2008 rebuild comparison: busy = "
        f"{LOAD_FACTORS['busy']:.2f}x, busy-worst = {LOAD_FACTORS['busy-worst']:.2f}x). "
        "Default idle.",
        json_schema_extra=meta("Load", "", "busy", replaces=("load_factor",)),
    )
    load_factor: float | None = positive(
        default=None,
        le=1000,
        description="How many times longer the rebuild takes than at rebuild_mb_per_s "
        "(instead of load; default 1).",
        json_schema_extra=meta("Load factor", "", "2", replaces=("load",)),
    )
    replace_delay_hours: float | None = Field(
        default=None,
        strict=True,
        ge=0,
        le=MAX_REBUILD_HOURS,
        allow_inf_nan=False,
        description="Hours until a replacement drive arrives (default 0). Without a free "
        "hot spare the rebuild waits for it; with aggregate.hot_spares a failure is rebuilt "
        "onto a spare at once and waits only when every spare is taken (docs/sizing.md).",
    )
    on_unreadable_sector: Literal["lose-sectors", "fail-rebuild"] = Field(
        default="lose-sectors",
        description="What an unreadable sector met during a critical rebuild does: "
        "lose-sectors (the stripes under it are lost; default) or fail-rebuild (the rebuild "
        "fails and the group is lost). Either way it is data loss: P(loss) is the same; "
        "with fail-rebuild every loss ends the group, so P(group lost) = P(loss) and no "
        "sectors are lost.",
    )
    scrub_hours: float = at_least(
        MIN_RESTORE_HOURS,
        le=87600,
        description="Mean time for a scrub to find a latent defect (hours; NS3574: 168).",
        json_schema_extra=meta("Scrub h", "hours", "168"),
    )
    parallel_rebuilds: bool | int = Field(
        default=False,
        description="Failed drives rebuilt at once: false (default) one at a time, the paper's "
        "model; true every failed drive at once (Linux md, ZFS resilver, declustered arrays); "
        "or a number of concurrent rebuild streams. With f drives failed the chain rebuilds "
        "at min(f, streams) x 1 / rebuild time.",
    )

    _set_aside: tuple[SetAside, ...] = PrivateAttr(default=())

    @field_validator("parallel_rebuilds", mode="before")
    @classmethod
    def _streams(cls, value: object) -> bool | int:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() == "all":
            return True
        if isinstance(value, int) and 1 <= value <= MAX_REBUILD_STREAMS:
            return False if value == 1 else value  # one stream is one rebuild at a time
        raise ValueError(f"parallel_rebuilds is {STREAMS_GRAMMAR}")

    @field_validator("load")
    @classmethod
    def _known_load(cls, load: str | None) -> str | None:
        if load is None:
            return None
        load_factor_named(load)  # raises ValueError listing the presets
        return load.strip().lower().replace("_", "-")

    @model_validator(mode="after")
    def _one_way(self) -> Restore:
        if self.rebuild_hours is not None and self.rebuild_mb_per_s is not None:
            raise FieldError(
                "give rebuild_hours or the rebuild model rebuild_mb_per_s, not both",
                "rebuild_mb_per_s",
            )
        if self.rebuild_hours is not None:
            for key in _MODEL_KEYS:
                if getattr(self, key) is not None:
                    raise FieldError(
                        f"{key} belongs to the rebuild model; with rebuild_hours give the "
                        f"time as it is (or use rebuild_mb_per_s instead of rebuild_hours)",
                        key,
                    )
        if self.load is not None and self.load_factor is not None:
            raise FieldError(f"give load ({self.load}) or load_factor, not both", "load_factor")
        return self

    @property
    def set_aside(self) -> tuple[SetAside, ...]:
        """This section's keys a ``--set`` removed, giving an exclusive alternative.

        ``--set restore.rebuild_hours=10`` over ``load: busy`` removes the load, which a
        file could not give beside the hours: the what-if runs, and a note says what no
        longer applies. Empty for a section as a file (or an edit) gives it.
        """
        return self._set_aside

    def with_set_aside(self, set_aside: Sequence[SetAside]) -> Restore:
        """A copy of this section noting ``set_aside`` (:attr:`set_aside`)."""
        copy = self.model_copy()
        copy._set_aside = tuple(set_aside)
        return copy

    def __eq__(self, other: object) -> bool:
        """Equal keys are equal sections: what a ``--set`` removed is where they came from.

        (Pydantic compares private attributes too: the TUI, started with such a ``--set``,
        would hold an edited and undone scenario unsaved.)
        """
        if not isinstance(other, Restore):
            return NotImplemented
        return self.__dict__ == other.__dict__

    @property
    def rebuild_streams(self) -> int | None:
        """Concurrent rebuilds for the model: 1 (one at a time), a number, or None (all)."""
        if self.parallel_rebuilds is True:
            return None
        if self.parallel_rebuilds is False:
            return 1
        return self.parallel_rebuilds

    @property
    def uses_rebuild_model(self) -> bool:
        """Whether the restore time is derived from ``rebuild_mb_per_s``."""
        return self.rebuild_mb_per_s is not None

    @property
    def uses_drive_rate(self) -> bool:
        """Whether the restore time is derived from the drive's ``sustained_mb_per_s``."""
        return self.rebuild_hours is None and self.rebuild_mb_per_s is None

    def rebuild_rate_mb_per_s(self, drive_mb_per_s: float | None) -> float | None:
        """The rate the rebuild model uses: ``rebuild_mb_per_s``, else the drive's, else None."""
        if self.rebuild_hours is not None:
            return None
        return self.rebuild_mb_per_s if self.rebuild_mb_per_s is not None else drive_mb_per_s

    @property
    def rebuild_load_factor(self) -> float:
        """The load factor applied to the rebuild rate: 1, ``load``'s preset or ``load_factor``."""
        if self.load_factor is not None:
            return self.load_factor
        if self.load is not None:
            return load_factor_named(self.load)
        return 1.0

    @property
    def load_source(self) -> str | None:
        """What sets :attr:`rebuild_load_factor`, as the file writes it, or None for no load.

        ``restore.load: busy`` or ``restore.load_factor``: the inputs line and the notes
        name the key the reader would change.
        """
        if self.load_factor is not None:
            return "restore.load_factor"
        return None if self.load is None else f"restore.load: {self.load}"

    @property
    def delay_hours(self) -> float:
        """Hours before the rebuild starts (0 unless ``replace_delay_hours`` is given)."""
        return self.replace_delay_hours or 0.0

    def mean_restore_hours(
        self,
        capacity_tb: float | None,
        drive_mb_per_s: float | None = None,
        drive_model: str | None = None,
    ) -> float:
        """The mean restore time in hours: as given, or derived for a drive of ``capacity_tb``.

        Args:
            capacity_tb: TB per drive (what a rebuild rewrites), or None.
            drive_mb_per_s: the drive's sustained rate (MB/s), used when the section gives
                neither ``rebuild_hours`` nor ``rebuild_mb_per_s``.
            drive_model: the drive's catalogue name, if it has one (a refusal names it).

        Raises:
            FieldError: the rebuild model without a capacity or rate, or a derived time out
                of range.
        """
        if self.rebuild_hours is not None:
            return self.rebuild_hours
        rate = self.rebuild_rate_mb_per_s(drive_mb_per_s)
        key = "rebuild_mb_per_s" if self.rebuild_mb_per_s is not None else "sustained_mb_per_s"
        if rate is None and drive_model is not None:
            raise FieldError(
                f"the catalogue gives no sustained rate for {shown(drive_model)} to rebuild "
                "at: add drive.sustained_mb_per_s (MB/s, e.g. 200), or give "
                "restore.rebuild_hours (e.g. 12) or restore.rebuild_mb_per_s",
                "drive",
                "model",
            )
        if rate is None:
            raise FieldError(
                "give the restore time as rebuild_hours (e.g. 12), as a rebuild rate "
                "rebuild_mb_per_s (e.g. 27, with load: busy if measured idle), or the drive's "
                "drive.sustained_mb_per_s (or a drive.model) to rebuild at",
                "restore",
            )
        if capacity_tb is None:
            raise FieldError(
                "the rebuild model needs drive.capacity_tb (the TB a rebuild rewrites); "
                "add it under drive, or give restore.rebuild_hours instead",
                "restore",
                "rebuild_mb_per_s",
            )
        where = ("restore", "rebuild_mb_per_s") if key == "rebuild_mb_per_s" else ("drive", key)
        hours = rebuild_hours(capacity_tb, rate, self.rebuild_load_factor, self.delay_hours)
        _check_model_hours(hours, capacity_tb, rate, where, self.delay_hours)
        return hours


def _check_model_hours(
    hours: float, capacity_tb: float, rate: float, where: tuple[str, str], delay_hours: float
) -> None:
    """Refuse a restore time the rebuild model derived out of range, at the rate's field.

    Past the most, the likely slip is named: the wait for a replacement when it is most of
    the time (``replace_delay_hours: 8760`` was blamed on the rate's units), else the rate's
    units.

    Raises:
        FieldError: below :data:`MIN_RESTORE_HOURS` or above :data:`MAX_REBUILD_HOURS`.
    """
    # made from the restore section, the drive's capacity and rate: a --set of one is named
    inputs = (("restore",), ("drive", "capacity_tb"), ("drive", "sustained_mb_per_s"))
    if not hours >= MIN_RESTORE_HOURS:
        raise FieldError(
            f"the rebuild model gives {hours:.3g} hours for {capacity_tb:g} TB at "
            f"{rate:g} MB/s; it must be at least {MIN_RESTORE_HOURS:g} hours "
            f"({reason_for('rebuild_hours')})",
            *where,
            inputs=inputs,
        )
    if hours > MAX_REBUILD_HOURS:
        if delay_hours >= hours / 2:
            raise FieldError(
                f"the rebuild model gives {format_hours(hours)} hours for {capacity_tb:g} TB "
                f"at {rate:g} MB/s, {format_hours(delay_hours)} of them the wait for a "
                f"replacement; at most {MAX_REBUILD_HOURS:,.0f} hours (replace_delay_hours is "
                "in hours: 72 is three days)",
                "restore",
                "replace_delay_hours",
                inputs=inputs,
            )
        raise FieldError(
            f"the rebuild model gives {format_hours(hours)} hours for {capacity_tb:g} TB at "
            f"{rate:g} MB/s; at most {MAX_REBUILD_HOURS:g} hours "
            "(check the rate's units: MB/s)",
            *where,
            inputs=inputs,
        )
