"""Numbers typed with a unit: capacities in TB or TiB, and the thousands separators.

A capacity field (``drive.capacity_tb``, ``target.usable_tb``, ``workload.capacity_tb``)
takes a number of TB (10^12 bytes), or text with a unit: ``400 TB`` or ``363.8 TiB``
(1 TiB = 2^40 bytes = 1.0995 TB). Any other unit is refused with the value in TB where the
unit is a known one (``400 GB`` is 0.4 TB). The same rules hold in a scenario file, in
``--set`` and in the TUI's fields, which hand the typed text to the model.

Commas group thousands (``1,000 TB``); a decimal comma (``363,8 TiB``) is refused rather
than read as a separator, as the TUI's number fields refuse it (:func:`plain_number_text`).
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BeforeValidator, WithJsonSchema

from planner.scenario.errors import shown

BYTES_PER_TB = 10**12
BYTES_PER_TIB = 2**40

TB_UNITS: dict[str, float] = {"tb": 1.0, "tib": BYTES_PER_TIB / BYTES_PER_TB}
"""The units a capacity field takes (lower case), as TB per unit."""

OTHER_TB_UNITS: dict[str, float] = {
    "b": 1e-12,
    "kb": 1e-9,
    "mb": 1e-6,
    "gb": 1e-3,
    "pb": 1e3,
    "eb": 1e6,
    "kib": 2**10 / BYTES_PER_TB,
    "mib": 2**20 / BYTES_PER_TB,
    "gib": 2**30 / BYTES_PER_TB,
    "pib": 2**50 / BYTES_PER_TB,
    "eib": 2**60 / BYTES_PER_TB,
}
"""Units a capacity field refuses but can name the TB of (a hint in the refusal)."""

_GROUPED = re.compile(r"[+-]?[1-9]\d{0,2}(,\d{3})+(\.\d*)?([eE][+-]?\d+)?%?")
"""A number whose commas group its whole part in thousands: 1,000 or 1,234,567.5."""

_WITH_UNIT = re.compile(r"^\s*(?P<number>[-+0-9.,_eE]*[0-9.])\s*(?P<unit>[A-Za-z]+)\s*$")

_EXAMPLE = "e.g. 400 TB or 363.8 TiB"

_NUMBER_THEN_WORDS = re.compile(r"^\s*[-+]?[0-9][-+0-9.,_eE]*\s+\S+\s+\S")
"""A number followed by more than one word (``12 TB drives``): a capacity with a remark."""


_NUMBER_CHARACTERS = re.compile(r"[-+0-9.,eE%]*")
"""What a number alone is written with: digits, a sign, points, commas, an exponent, %."""


def plain_number_text(text: str) -> str:
    """``text`` without its thousands separators (``,`` or ``_``).

    A comma that does not group thousands is a decimal comma, refused: read as a separator,
    ``1,9%`` would be 19 %.

    Raises:
        ValueError: a decimal comma, worded for the person who typed it.
    """
    plain = text.replace("_", "")
    if not _NUMBER_CHARACTERS.fullmatch(plain.strip()):
        return plain  # no number alone ($1,200): the caller's message names what is there
    if "," in plain and not _GROUPED.fullmatch(plain):
        comma = re.fullmatch(r"\s*(\d+),(\d+)\s*(%?)\s*", plain)  # 1,5% meant 1.5%
        meant = f"{comma[1]}.{comma[2]}{comma[3]}" if comma is not None else "1.9%, 12.5"
        raise ValueError(
            f"{shown(text)} is not a number: write the decimal point as '.' ({meant}); "
            "a comma only groups thousands (100,000)"
        )
    return plain.replace(",", "")


def terabytes(value: object) -> object:
    """``"363.8 TiB"`` -> 400.0 (TB); ``"400 TB"`` -> 400.0; other values pass through.

    Text without a unit passes through too, for the float validation and its message.

    Raises:
        ValueError: a unit other than TB or TiB, or a number that cannot be read.
    """
    if not isinstance(value, str):
        return value
    match = _WITH_UNIT.match(value)
    if match is None:
        if _NUMBER_THEN_WORDS.match(value):
            raise ValueError(
                f"{shown(value.strip())} is not a capacity: write a number with TB or TiB "
                f"alone ({_EXAMPLE}); a remark goes after a '#'"
            )
        return value
    unit = match["unit"]
    number_text = match["number"]
    try:
        number = float(plain_number_text(number_text))
    except ValueError as problem:
        if "," in number_text:
            raise ValueError(
                f"{shown(value.strip())} is not a number: write the decimal point as '.' "
                f"({_EXAMPLE}); a comma only groups thousands (1,000 TB)"
            ) from None
        raise ValueError(f"{shown(value.strip())} is not a number of TB; {_EXAMPLE}") from problem
    per_unit = TB_UNITS.get(unit.lower())
    if per_unit is not None:
        return number * per_unit
    other = OTHER_TB_UNITS.get(unit.lower())
    hint = f"; {number_text} {unit} is {number * other:.6g} TB" if other is not None else ""
    raise ValueError(
        f"{shown(unit)} is not a unit of capacity here: write TB (10^12 bytes) or TiB (2^40 "
        f"bytes), {_EXAMPLE}{hint}"
    )


_TB_TEXT = r"^\s*[0-9.,_]+([eE][-+]?[0-9]+)?\s*([Tt][Bb]|[Tt][Ii][Bb])\s*$"

Terabytes = Annotated[float, BeforeValidator(terabytes)]
"""A capacity in TB (10^12 bytes): a number, or text with the unit TB or TiB.

Each field adds its bounds (a ``Field``) and :func:`tb_schema` with the same bounds."""


def tb_schema(low: float, high: float, *, above: bool = False) -> WithJsonSchema:
    """The JSON schema of a capacity field: a number in [low, high] (or (low, high]), or text."""
    number: dict[str, Any] = {"type": "number", "maximum": high}
    number["exclusiveMinimum" if above else "minimum"] = low
    text = {"type": "string", "pattern": _TB_TEXT, "examples": ["400 TB", "363.8 TiB"]}
    return WithJsonSchema({"anyOf": [number, text]})


def takes_terabytes(metadata: list[Any]) -> bool:
    """Whether a field's metadata holds the capacity parser (it takes ``363.8 TiB``)."""
    return any(getattr(m, "func", None) is terabytes for m in metadata)
