"""A layout: RAID groups of a preset (``raid``) and/or a parity count, and a group size."""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import ConfigDict, Field, field_validator, model_validator

from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.arrays.presets import MAX_PARITY, PRESETS, RaidPreset, find_preset, nearest_preset
from planner.scenario.base import Count, FieldError, FrozenModel, displayable, positive
from planner.scenario.errors import shown

MAX_CHILDREN = 255
"""Most drives in one declustered pool: OpenZFS dRAID allows up to 255 children."""

DEFAULT_DRAID_DATA = 8
"""Data blocks per dRAID stripe when ``data`` is not given: the OpenZFS default (8d)."""

_DECLUSTERED_KEYS = ("data", "spares", "children")


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
        raise FieldError(
            f"unknown RAID preset {shown(raid)}{hint} (known: {', '.join(PRESETS)})", "raid"
        )
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
        ge=2, le=1000, description="Drives per RAID group, parity included (n+k)."
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
        ge=2,
        le=MAX_CHILDREN,
        description="Declustered pools (dRAID) only: drives in the pool, spares included "
        "(OpenZFS <C>c); the pool's group_size.",
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
        "RAID 5 4, RAID 6 6, RAID-DP 1, else 2 (k + 1) (docs/sizing.md).",
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
            raise FieldError(
                f"{prefix} needs a group_size (drives per group, parity included)", "group_size"
            )
        if data.get("label") is None:
            data["label"] = f"{prefix} {data['group_size']}"
        return data

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
        if (
            preset is not None
            and preset.fixed_group_size is not None
            and preset.fixed_group_size != self.group_size
        ):
            raise FieldError(
                f"{preset.name} groups always have {preset.fixed_group_size} drives, not "
                f"{self.group_size}; drop group_size or use another preset",
                "group_size",
            )
        if self.group_size <= self.parity:
            raise FieldError(
                f"a group of {self.group_size} drives cannot hold {self.parity} parity drives "
                f"and data; group_size must be at least {self.parity + 1}",
                "group_size",
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
        # a misspelt key says so before the missing one (pydantic would, but only later)
        unknown = [k for k in data if isinstance(k, str) and k not in LayoutSpec.model_fields]
        for key in unknown:
            if difflib.get_close_matches(key, ["children"], n=1, cutoff=0.6):
                raise FieldError(f"unknown key {key!r}; did you mean 'children'?", key)
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
        data["label"] = f"{preset.name}:{data['data']}d:{data['group_size']}c:{data['spares']}s"
    return data
