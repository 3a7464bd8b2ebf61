"""A layout: RAID groups of a preset (``raid``) and/or a parity count, and a group size."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, field_validator, model_validator

from planner.core.layouts import Layout
from planner.core.presets import PRESETS, RaidPreset, find_preset, nearest_preset
from planner.scenario.base import Count, FieldError, FrozenModel, positive
from planner.scenario.errors import shown

MAX_PARITY = 8
"""Most parity drives per group a layout may ask for."""


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
        if raid is not None:
            preset = _preset_or_error(raid)
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
        return label.strip()

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

    def core_layout(self) -> Layout:
        """This layout as the core's :class:`~planner.core.layouts.Layout`."""
        return Layout(
            label=self.label, raid=self.raid, parity=self.parity, group_size=self.group_size
        )
