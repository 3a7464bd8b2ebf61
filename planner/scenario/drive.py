"""The drive section: operational failure rate, latent defect rate, capacity and IOPS.

Rates follow NS3574 ("Exchange Server 2007 and IBM System Storage N series with RAID-DP",
2008): operational failures from an annualized return rate (ARR, a fraction of drives per
year, 1.9% in the paper); latent defects per drive-hour, 1.08e-4 in the paper, which is
Table 1's read errors per byte x bytes read per hour.

For sizing (``planner size``), ``class`` (7.2k, 10k, 15k, ssd) gives a default IOPS per
drive (:data:`planner.core.arrays.rebuild.DRIVE_CLASSES`), ``iops_per_drive`` sets it directly and
``usable_fraction`` is the share of the capacity that holds data (docs/sizing.md).

A drive may also be described as its spec sheet gives it (docs/drives.md): ``capacity_tb``,
``sustained_mb_per_s`` and ``unrecoverable_read_errors_per_bit``, or by ``model``, a
catalogue entry (:data:`planner.core.arrays.drive_models.DRIVE_MODELS`) that fills in whichever of
``capacity_tb``, ``class``, ``sustained_mb_per_s`` and ``unrecoverable_read_errors_per_bit``
the file does not give. The latent-defect rate is then the spec sheet's errors per bit x 8 x
the bytes one drive reads per hour: ``bytes_read_per_hour``, else the workload's reads, else
NS3574's field figure (:mod:`planner.scenario.defects`). A given ``latent_defects_per_hour``
overrides any derived rate.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from planner.core.arrays.drive_models import DRIVE_MODELS, find_drive_model
from planner.core.arrays.rebuild import DEFAULT_USABLE_FRACTION, DRIVE_CLASSES, find_drive_class
from planner.core.markov.rates import (
    afr_to_failures_per_hour,
    arr_to_failures_per_hour,
    mtbf_to_failures_per_hour,
)
from planner.scenario.base import FieldError, FrozenModel, at_least, meta, percent_value, positive
from planner.scenario.costs import price_field, watts_field
from planner.scenario.errors import shown
from planner.scenario.limits import (
    MAX_ERRORS_PER_BIT,
    MAX_LATENT_DEFECTS_PER_HOUR,
    MAX_MTBF_HOURS,
    MAX_SUSTAINED_MB_PER_S,
    MIN_CAPACITY_TB,
    MIN_ERRORS_PER_BIT,
    MIN_FRACTION_PER_YEAR,
    MIN_IOPS_PER_DRIVE,
    MIN_USABLE_FRACTION,
)
from planner.scenario.units import Terabytes, tb_schema


def _parse_percent(value: object) -> object:
    """``"1.9%"`` -> 0.019; numbers pass through for the float validation."""
    if not isinstance(value, str):
        return value
    fraction = percent_value(value)
    if fraction is not None and fraction < 0:
        raise ValueError(f"{shown(value)} is negative; write a percentage like 1.9%")
    comma = re.fullmatch(r"\s*(\d+),(\d+)\s*(%?)\s*", value)
    if fraction is None and comma is not None:  # a decimal comma: 1,5% meant 1.5%
        dotted = f"{comma[1]}.{comma[2]}"
        meant = dotted + ("%" if comma[3] or float(dotted) >= 1 else "")
        raise ValueError(
            f"{shown(value)} is not a number: write the decimal point as '.' ({meant})"
        )
    if fraction is None:
        raise ValueError(
            f"{shown(value)} is not a number; write a fraction per year like 0.019 or a percentage "
            "like 1.9%"
        )
    if fraction >= 1:
        raise ValueError(
            f"{shown(value.strip(), quote=False)} is not below 100% of drives per year; "
            "write a yearly failure rate like 1.9%"
        )
    return fraction


def _check_fraction_per_year(value: float) -> float:
    """A fraction of drives per year must be below 1; 1.9 was probably meant as 1.9%."""
    if value >= 1:
        hint = f"did you mean {value:g}%?" if value < 100 else "write e.g. 0.019 or 1.9%"
        raise ValueError(f"{value:g} is not a fraction of drives per year, below 1: {hint}")
    return value


_FRACTION_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "number", "minimum": MIN_FRACTION_PER_YEAR, "exclusiveMaximum": 1},
        {
            "type": "string",
            "pattern": r"^\s*[0-9.]+([eE][-+]?[0-9]+)?\s*%\s*$",
            "examples": ["1.9%"],
        },
    ]
}

FractionPerYear = Annotated[
    float,
    BeforeValidator(_parse_percent),
    Field(strict=True, ge=MIN_FRACTION_PER_YEAR, allow_inf_nan=False),
    AfterValidator(_check_fraction_per_year),
    WithJsonSchema(_FRACTION_SCHEMA),
]
"""A fraction of drives per year in [1e-6, 1), written as a number (0.019) or a percent (1.9%)."""


_TABLE1_KEYS = ("read_errors_per_byte", "bytes_read_per_hour")


def _fill_from_model(data: Any) -> Any:
    """The drive mapping with the catalogue model's values for the keys it does not give.

    The spec-sheet error rate is not filled in when the file gives its own read errors per
    byte (``read_errors_per_byte``). Beside ``latent_defects_per_hour`` it is: the given rate
    overrides the derived one, and the spec-sheet method still uses the error rate.
    """
    if not isinstance(data, dict) or data.get("model") is None:
        return data
    name = data["model"]
    if not isinstance(name, str):
        raise FieldError(
            f"model must be a drive name such as nl-sas-20tb, got {shown(name)}", "model"
        )
    try:
        model = find_drive_model(name)
    except ValueError as error:
        raise FieldError(str(error), "model") from None
    filled = dict(data)
    filled["model"] = model.name
    catalogue = {
        "capacity_tb": model.capacity_tb,
        "class": model.drive_class,
        "sustained_mb_per_s": model.sustained_mb_per_s,
        "unrecoverable_read_errors_per_bit": model.unrecoverable_read_errors_per_bit,
    }
    for key, value in catalogue.items():
        if key == "class" and "drive_class" in filled:
            continue
        if key == "unrecoverable_read_errors_per_bit" and "read_errors_per_byte" in filled:
            continue
        if value is not None and filled.get(key) is None:
            filled[key] = value
    return filled


class DriveSpec(FrozenModel):
    """One drive model: its operational failure rate, latent defect rate and capacity.

    Give exactly one of ``arr``, ``afr`` or ``mtbf_hours``, and the latent defects as
    ``latent_defects_per_hour``, or as read errors per byte (``read_errors_per_byte``, or the
    spec sheet's ``unrecoverable_read_errors_per_bit``, given or from ``model``) times the
    bytes read per drive-hour (``bytes_read_per_hour``, else the workload's, else NS3574's
    field figure: :mod:`planner.scenario.defects`).
    """

    # ``class`` is a Python keyword: the field is drive_class, written ``class`` in files.
    # populate_by_name lets a model_dump() (field names) validate again.
    model_config = ConfigDict(populate_by_name=True)

    arr: FractionPerYear | None = Field(
        default=None,
        description="Annualized return rate: fraction of drives replaced per year "
        "(NS3574 uses 1.9%).",
        json_schema_extra=meta(
            "ARR", "fraction of drives per year", "1.9%", replaces=("afr", "mtbf_hours")
        ),
    )
    afr: FractionPerYear | None = Field(
        default=None,
        description="Annualized failure rate: probability a drive fails within a year.",
        json_schema_extra=meta(
            "AFR", "fraction of drives per year", "2%", replaces=("arr", "mtbf_hours")
        ),
    )
    mtbf_hours: float | None = Field(
        default=None,
        strict=True,
        ge=1000,
        le=MAX_MTBF_HOURS,
        allow_inf_nan=False,
        description="Mean time between failures of one drive (hours, 1,000 to 1e10).",
        json_schema_extra=meta("MTBF h", "hours", "1.2e6", replaces=("arr", "afr")),
    )
    latent_defects_per_hour: float | None = Field(
        default=None,
        strict=True,
        ge=0,
        lt=MAX_LATENT_DEFECTS_PER_HOUR,
        allow_inf_nan=False,
        description="Latent defects (unreadable sectors) per drive-hour (NS3574: 1.08e-4).",
        json_schema_extra=meta(
            "Latent/h",
            "latent defects per drive-hour",
            "1.08e-4",
            replaces=_TABLE1_KEYS,
        ),
    )
    read_errors_per_byte: float | None = positive(
        default=None,
        le=1e-6,
        description="Read errors per byte read (NS3574 Table 1: 8e-15 to 3.2e-13); the "
        "latent-defect rate is this x the bytes read per drive-hour.",
        json_schema_extra=meta(
            "Err/byte",
            "per byte read",
            "8e-15",
            replaces=("latent_defects_per_hour", "unrecoverable_read_errors_per_bit"),
        ),
    )
    bytes_read_per_hour: float | None = positive(
        default=None,
        lt=1e13,
        description="Bytes the workload reads per drive-hour (NS3574 Table 1: 1.35e9 to "
        "1.35e10); default from the workload's read IOPS, else NS3574's field figure "
        "2.7e11 per day (1.125e10 per hour).",
        json_schema_extra=meta(
            "Bytes/h", "bytes per drive-hour", "1.35e10", replaces=("latent_defects_per_hour",)
        ),
    )
    capacity_tb: (
        Annotated[
            Terabytes,
            Field(strict=True, ge=MIN_CAPACITY_TB, le=1000, allow_inf_nan=False),
            tb_schema(MIN_CAPACITY_TB, 1000),
        ]
        | None
    ) = Field(
        default=None,
        description="Capacity of one drive (TB, 10^12 bytes), for usable capacity, sizing "
        "and the rebuild model.",
        json_schema_extra=meta("Drive TB", "TB", "4", optional=True),
    )
    drive_class: str | None = Field(
        default=None,
        alias="class",
        strict=True,
        description="Drive class for sizing, giving the default IOPS per drive: "
        + ", ".join(f"{c.name} ({c.iops:g} IOPS)" for c in DRIVE_CLASSES.values())
        + ".",
    )
    iops_per_drive: float | None = at_least(
        MIN_IOPS_PER_DRIVE,
        default=None,
        le=10_000_000,
        description="Random I/Os per second one drive sustains (overrides the class default).",
    )
    usable_fraction: float | None = at_least(
        MIN_USABLE_FRACTION,
        default=None,
        le=1,
        description="Share of capacity_tb that holds data after right-sizing and formatting "
        f"(default {DEFAULT_USABLE_FRACTION:g}).",
        json_schema_extra={"default": DEFAULT_USABLE_FRACTION},  # what None means
    )
    model: str | None = Field(
        default=None,
        strict=True,
        description="A drive from the catalogue, filling capacity_tb, class, sustained_mb_per_s "
        "and unrecoverable_read_errors_per_bit where the file does not give them: "
        + ", ".join(DRIVE_MODELS)
        + " (docs/drives.md).",
    )
    sustained_mb_per_s: float | None = positive(
        default=None,
        le=MAX_SUSTAINED_MB_PER_S,
        description="Sustained sequential transfer rate of one drive (MB/s, 10^6 bytes, spec "
        "sheet); without restore.rebuild_hours or rebuild_mb_per_s the rebuild rewrites "
        "capacity_tb at this rate (slowed by restore.load).",
        json_schema_extra=meta("Drive MB/s", "sustained MB/s", "285"),
    )
    unrecoverable_read_errors_per_bit: float | None = Field(
        default=None,
        strict=True,
        ge=MIN_ERRORS_PER_BIT,
        le=MAX_ERRORS_PER_BIT,
        allow_inf_nan=False,
        description="Spec-sheet unrecoverable read errors per bit read (1e-15 for '1 sector "
        "per 10^15 bits'); the latent-defect rate is then 8 x this x the bytes read per "
        "drive-hour (bytes_read_per_hour, else the workload's, else 1.125e10), unless "
        "latent_defects_per_hour is given.",
        json_schema_extra=meta(
            "URE/bit",
            "errors per bit read",
            "1e-15",
            replaces=("read_errors_per_byte",),
        ),
    )
    price: float | None = price_field()
    watts: float | None = watts_field()

    @model_validator(mode="before")
    @classmethod
    def _from_catalogue(cls, data: Any) -> Any:
        return _fill_from_model(data)

    @field_validator("drive_class")
    @classmethod
    def _known_class(cls, name: str | None) -> str | None:
        # find_drive_class raises ValueError listing the classes
        return None if name is None else find_drive_class(name).name

    @model_validator(mode="after")
    def _one_way_each(self) -> DriveSpec:
        given = [n for n in ("arr", "afr", "mtbf_hours") if getattr(self, n) is not None]
        empty = [n for n in ("arr", "afr", "mtbf_hours") if n in self.model_fields_set]
        if not given and empty:  # `arr:` with nothing after it: point at that line
            example = "1000000 (hours)" if empty[0] == "mtbf_hours" else "1.9%"
            raise FieldError(f"no value: write one, e.g. {example}", empty[0])
        if not given:
            raise FieldError(
                "give the operational failure rate as one of arr (e.g. 1.9%), afr or mtbf_hours"
            )
        if len(given) > 1:
            raise FieldError(
                f"give only one of arr, afr or mtbf_hours, not both {given[0]} and {given[1]}",
                given[1],
            )
        self._one_latent_rate()
        return self

    def _one_latent_rate(self) -> None:
        """A latent-defect rate given, or an error rate to derive it from, not two of either."""
        spec = self.unrecoverable_read_errors_per_bit
        if spec is not None and self.read_errors_per_byte is not None:
            raise FieldError(
                "give read_errors_per_byte or the spec sheet's unrecoverable_read_errors_per_bit, "
                "not both (with a model, drop read_errors_per_byte)",
                "read_errors_per_byte",
            )
        table1 = [n for n in _TABLE1_KEYS if getattr(self, n) is not None]
        if self.latent_defects_per_hour is not None:
            if table1:
                raise FieldError(
                    f"give latent_defects_per_hour or read_errors_per_byte with "
                    f"bytes_read_per_hour, not both ({table1[0]} is also given)",
                    table1[0],
                )
            return
        if spec is None and self.read_errors_per_byte is None:
            if self.bytes_read_per_hour is not None:
                raise FieldError(
                    "bytes_read_per_hour needs read_errors_per_byte or the spec sheet's "
                    "unrecoverable_read_errors_per_bit (their product is the rate)",
                    "bytes_read_per_hour",
                )
            raise FieldError(
                "give latent_defects_per_hour (e.g. 1.08e-4), read_errors_per_byte (NS3574 "
                "Table 1), or the spec sheet's unrecoverable_read_errors_per_bit, or a drive "
                "model such as nl-sas-20tb (docs/drives.md)"
            )

    @property
    def iops(self) -> float | None:
        """Random IOPS per drive: ``iops_per_drive``, else the class default, else None."""
        if self.iops_per_drive is not None:
            return self.iops_per_drive
        if self.drive_class is not None:
            return DRIVE_CLASSES[self.drive_class].iops
        return None

    @property
    def op_failures_per_hour(self) -> float:
        """Operational failures per drive-hour, lambda_op, from whichever rate was given."""
        if self.arr is not None:
            return arr_to_failures_per_hour(self.arr)
        if self.afr is not None:
            return afr_to_failures_per_hour(self.afr)
        assert self.mtbf_hours is not None  # guaranteed by _one_way_each
        return mtbf_to_failures_per_hour(self.mtbf_hours)

    @property
    def uses_spec_sheet(self) -> bool:
        """Whether the drive gives the spec sheet's errors per bit (its rate may be given)."""
        return self.unrecoverable_read_errors_per_bit is not None
