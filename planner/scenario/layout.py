"""A layout: RAID groups of a preset (``raid``) and/or a parity count, and a group size."""

from __future__ import annotations

import difflib
import re
from typing import Any

from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.arrays.presets import MAX_PARITY, PRESETS, RaidPreset, find_preset, nearest_preset
from planner.scenario.base import Count, FieldError, FrozenModel, displayable, positive
from planner.scenario.errors import show_value, shown

MAX_CHILDREN = 255
"""Most drives in one declustered pool: OpenZFS dRAID allows up to 255 children."""

DEFAULT_DRAID_DATA = 8
"""Data blocks per dRAID stripe when ``data`` is not given: the OpenZFS default (8d)."""

_DECLUSTERED_KEYS = ("data", "spares", "children")

LEAST_GROUP_SIZE = 2
"""The least drives of any group: one parity drive and one data drive. A layout's own least
is its parity + 1 (:meth:`LayoutSpec._fits_its_layout`), a pool's its stripe and spares."""


def _layout_schema_extra(schema: dict[str, Any]) -> None:
    # parity, group_size and label have defaults computed from the preset, so none of them
    # is required on its own; a layout needs a preset or a parity count.
    schema.pop("required", None)
    schema["anyOf"] = [{"required": ["raid"]}, {"required": ["parity"]}]


def _preset_or_error(raid: object) -> RaidPreset:
    if not isinstance(raid, str):
        raise FieldError(f"raid must be a preset name such as raid5, got {shown(raid)}", "raid")
    preset = find_preset(raid)
    if preset is None:
        near = nearest_preset(raid)
        hint = f"; did you mean {near!r}?" if near else ""
        known = f" (known: {', '.join(PRESETS)})"
        deeper = re.fullmatch(r"(d?raid|raidz)(\d+)", raid.strip().lower())
        if deeper and deeper[1] != "raid" and int(deeper[2]) > 3:
            # raidz4 is no single-parity raid4: ZFS's parity stops at 3 (a newcomer's find);
            # the list of presets, after this, was cut mid-word at the line's end
            kind = "RAID-Z" if deeper[1] == "raidz" else "dRAID"
            hint = (
                f"; {kind} has at most 3 parity drives ({deeper[1]}3); more is an n+k "
                f"group of hardware RAID: parity: {deeper[2]} and no raid"
            )
            known = ""
        raise FieldError(f"unknown RAID preset {shown(raid)}{hint}{known}", "raid")
    return preset


class LayoutSpec(FrozenModel):
    """One layout: RAID groups of ``group_size`` drives, ``parity`` of them redundancy.

    Give ``raid`` (a preset), ``parity`` (k), or both when they agree. Mirrors fix the group
    size. The default label is ``"<raid> <group_size>"``, or ``"n+<k> <group_size>"``.
    """

    model_config = ConfigDict(json_schema_extra=_layout_schema_extra)

    raid: str | None = Field(
        default=None,
        strict=True,
        description=f"RAID preset, one of: {', '.join(PRESETS)}.",
    )
    parity: Count = Field(ge=1, le=MAX_PARITY, description="Parity drives per group (k of n+k).")
    group_size: Count = Field(
        le=1000,
        # the least is the layout's (parity + 1), checked once parity is known
        json_schema_extra={"minimum": LEAST_GROUP_SIZE},
        description="Drives per RAID group, parity included (n+k).",
    )
    data: Count | None = Field(
        default=None,
        ge=1,
        le=MAX_CHILDREN,
        description="Declustered pools (dRAID) only: data blocks per stripe "
        f"(OpenZFS <d>d; default {DEFAULT_DRAID_DATA}).",
    )
    children: Count | None = Field(
        default=None,
        le=MAX_CHILDREN,
        # no bound of its own: the least is the stripe and spares, checked with them
        description="Declustered pools (dRAID) only: drives in the pool, spares included "
        "(OpenZFS <C>c); the pool's group_size; at least data + parity + spares.",
    )
    spares: Count | None = Field(
        default=None,
        ge=0,
        le=MAX_CHILDREN,
        description="Declustered pools (dRAID) only: distributed spares (OpenZFS <s>s; "
        "default 0, which rebuilds onto a replacement drive at the traditional speed).",
    )
    label: str = Field(
        strict=True,
        min_length=1,
        max_length=80,
        description="Name of the layout in tables; default '<raid> <group_size>'.",
    )
    write_penalty: float | None = positive(
        default=None,
        le=100,
        description="Disk I/Os per host write, for sizing; default by preset: RAID 10 2, "
        "RAID 5 4, RAID 6 6, RAID-DP 1, RAID-Z and a declustered pool 1 (one stripe I/O, the "
        "unit of their IOPS), else 2 (k + 1) (docs/sizing.md).",
    )

    @model_validator(mode="before")
    @classmethod
    def _fill_from_preset(cls, data: Any) -> Any:
        """Fill parity, group size and label from the preset before the fields are checked."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        raid = data.get("raid")
        if raid is None and data.get("parity") is None:
            _refuse_misspelt(data, "raid", "parity")
            raise FieldError("a layout needs raid (a preset such as raid6) or parity (k)")
        prefix = f"n+{data.get('parity')}"
        preset = _preset_or_error(raid) if raid is not None else None
        if preset is not None and preset.declustered:
            return _fill_declustered(data, preset)
        given = [key for key in _DECLUSTERED_KEYS if data.get(key) is not None]
        if given:
            raise FieldError(
                f"{given[0]} is for declustered pools only (raid: draid1, draid2 or draid3); "
                f"drop it or use a dRAID preset",
                given[0],
            )
        if preset is not None:
            data["raid"] = preset.name
            prefix = preset.name
            if data.get("parity") is None:
                data["parity"] = preset.parity
            if preset.fixed_group_size is not None and data.get("group_size") is None:
                data["group_size"] = preset.fixed_group_size
        if data.get("group_size") is None:
            _refuse_misspelt(data, "group_size")
            raise FieldError(
                f"{prefix} needs a group_size (drives per group, parity included)", "group_size"
            )
        if data.get("label") is None:
            data["label"] = default_label(prefix, data["group_size"])
        return data

    @field_validator("group_size")
    @classmethod
    def _fits_its_layout(cls, size: int, info: ValidationInfo) -> int:
        """Refuse a group its layout cannot have, naming the size it takes.

        Here, once raid and parity are read (the fields before it), not as the field's own
        bound: ``raid6`` with ``group_size: 1`` was told "at least 2", then 2 "at least 3".
        A pool's children are checked against its stripe and spares (:meth:`_pool_fits`).
        """
        raid, parity = info.data.get("raid"), info.data.get("parity")
        preset = find_preset(raid) if raid is not None else None
        if preset is not None and preset.declustered:
            return size
        if preset is not None and preset.fixed_group_size not in (None, size):
            raise ValueError(
                f"{preset.name} groups always have {preset.fixed_group_size} drives, not "
                f"{show_value(size)}; drop group_size or use another preset"
            )
        problem = _too_small(size, parity)
        if problem is not None:
            raise ValueError(problem)
        return size

    @field_validator("label")
    @classmethod
    def _strip_label(cls, label: str) -> str:
        if not label.strip():
            raise ValueError("label must not be blank")
        return displayable(label.strip(), "RAID 6 (10+2)")

    @model_validator(mode="after")
    def _consistent(self) -> LayoutSpec:
        preset = find_preset(self.raid) if self.raid is not None else None
        if preset is not None and preset.parity != self.parity:
            raise FieldError(
                f"{preset.name} has {preset.parity} parity drive(s) per group, not "
                f"{self.parity}; drop parity or change raid",
                "parity",
            )
        return self

    @model_validator(mode="after")
    def _pool_fits(self) -> LayoutSpec:
        if self.data is None:
            return self
        spares = self.spares or 0
        if self.group_size > MAX_CHILDREN:
            raise FieldError(
                f"a dRAID pool has at most {MAX_CHILDREN} children (OpenZFS), got "
                f"{self.group_size}; split it into several pools",
                "children",
            )
        if self.data + self.parity > self.group_size - spares:
            raise FieldError(
                f"a stripe of {self.data} data + {self.parity} parity does not fit in "
                f"{self.group_size} children less {spares} spare(s); children must be at "
                f"least {self.data + self.parity + spares}, or lower data",
                "children",
            )
        return self

    @property
    def default_label(self) -> str:
        """The label this layout has when none is given (``raid6 14``, ``draid2:8d:48c:2s``)."""
        if self.data is not None:
            return default_label(str(self.raid), self.group_size, self.data, self.spares or 0)
        return default_label(self.raid or f"n+{self.parity}", self.group_size)

    @property
    def declustered(self) -> Declustered | None:
        """The pool's stripe and spares when this is a declustered layout, else None."""
        if self.data is None:
            return None
        return Declustered(data=self.data, spares=self.spares or 0)

    def core_layout(self) -> Layout:
        """This layout as the core's :class:`~planner.core.arrays.layouts.Layout`."""
        return Layout(
            label=self.label,
            raid=self.raid,
            parity=self.parity,
            group_size=self.group_size,
            declustered=self.declustered,
        )


def default_label(prefix: str, group_size: int, data: int | None = None, spares: int = 0) -> str:
    """A layout's label when none is given: ``raid6 14``, ``n+3 12``, ``draid2:8d:48c:2s``.

    ``prefix`` is the preset's name, or ``n+<parity>`` without one; a declustered pool
    (``data`` given) is named as OpenZFS names its vdev, ``<preset>:<d>d:<C>c:<s>s``.
    """
    if data is not None:
        return f"{prefix}:{data}d:{group_size}c:{spares}s"
    return f"{prefix} {group_size}"


def _too_small(size: int, parity: int | None) -> str | None:
    """Why a group of ``size`` drives cannot hold ``parity`` drives and data, or None.

    Below 2 it is out of range, from 2 it cannot hold its parity; either way the message
    names the least size (``parity`` + 1), or 2 when the parity is not known (refused itself).
    """
    least = LEAST_GROUP_SIZE if parity is None else parity + 1
    if size >= least:
        return None
    if size < LEAST_GROUP_SIZE:
        if parity is None:
            return f"{show_value(size)} is out of range: must be at least {least}"
        drives = "drive" if parity == 1 else "drives"
        return (
            f"{show_value(size)} is out of range: must be at least {least} ({parity} parity "
            f"{drives} and at least one data drive)"
        )
    return (
        f"a group of {size} drives cannot hold {parity} parity drives and data; group_size "
        f"must be at least {least}"
    )


def _refuse_misspelt(data: dict[str, Any], *missing: str) -> None:
    """Refuse an unknown key of ``data`` that misspells one of the ``missing`` keys.

    The defaults are filled in before pydantic checks the keys, so without this a layout
    with ``group_sise: 12`` was told that raid6 needs a group_size, at its ``raid:`` line;
    the misspelling is the mistake, told at the key as every other unknown key is.
    """
    for key in data:
        if not isinstance(key, str) or key in LayoutSpec.model_fields:
            continue
        near = difflib.get_close_matches(key, missing, n=1, cutoff=0.6)
        if near:
            raise FieldError(
                f"unknown key {shown(key)}; did you mean {near[0]!r}?", key, at_key=True
            )


def _whole(value: object) -> bool:
    """A whole number as a YAML file gives one: an int, or a float with no fraction."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _fill_declustered(data: dict[str, Any], preset: RaidPreset) -> dict[str, Any]:
    """Fill a dRAID layout: ``children`` is its group size, ``data`` 8 and ``spares`` 0 by default.

    The default label is the OpenZFS vdev name, ``draid2:8d:48c:2s``.
    """
    data["raid"] = preset.name
    children, size = data.get("children"), data.get("group_size")
    if children is not None and size is not None and children != size:
        raise FieldError(
            f"children ({shown(children)}) and group_size ({shown(size)}) both give the pool's "
            "drives and disagree; keep children",
            "children",
        )
    if children is None and size is None:
        _refuse_misspelt(data, "children", "group_size")
        raise FieldError(
            f"{preset.name} needs children (drives in the pool, spares included), e.g. "
            "children: 48",
            "children",
        )
    if children is not None and not _whole(children):
        raise FieldError(
            f"children must be a whole number of drives, got {shown(children)}", "children"
        )
    if children is not None and children > MAX_CHILDREN:
        # else it became a group_size too big for a group, and was reported so
        raise FieldError(
            f"{children:.3g} is out of range: must be at most {MAX_CHILDREN} (OpenZFS dRAID's "
            "most children per pool)",
            "children",
        )
    data["group_size"] = data["children"] = children if children is not None else size
    if data.get("parity") is None:
        data["parity"] = preset.parity
    if data.get("data") is None:
        data["data"] = DEFAULT_DRAID_DATA
    if data.get("spares") is None:
        data["spares"] = 0
    if data.get("label") is None:
        data["label"] = default_label(preset.name, data["group_size"], data["data"], data["spares"])
    return data
