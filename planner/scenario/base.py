"""Shared pieces of the scenario models: the frozen base and field-level errors."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, Strict


class FieldError(ValueError):
    """A ValueError raised by a model-level check that belongs to one field of the model.

    The loader appends ``subpath`` to the error's location so that the message points at
    that field (e.g. ``group_size`` of a layout) rather than at the whole mapping, at its
    value, or at its key with ``at_key`` (a misspelt key, as pydantic's unknown keys are).
    A value derived from other fields and refused lists them in ``inputs`` (paths from the
    same place as ``subpath``; a section stands for all its keys): a ``--set`` of one of
    them is named as the error's source, not the file.
    """

    def __init__(
        self,
        message: str,
        *subpath: str | int,
        at_key: bool = False,
        inputs: tuple[tuple[str | int, ...], ...] = (),
    ) -> None:
        super().__init__(message)
        self.subpath: tuple[str | int, ...] = subpath
        self.at_key = at_key
        self.inputs = inputs


@dataclass(frozen=True)
class SetAside:
    """A key a ``--set`` removed by giving its exclusive alternative (the field's ``replaces``).

    Attributes:
        key: where it was, e.g. ``("restore", "load")``.
        value: its value there, as plain data (``"busy"``).
        by: the ``--set`` that removed it, as messages name it.
        by_key: where that ``--set`` sets, e.g. ``("restore", "rebuild_hours")``.
    """

    key: tuple[str | int, ...]
    value: Any
    by: str
    by_key: tuple[str | int, ...]


_NOT_DISPLAYABLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
"""Control characters (C0, DEL, C1: escape sequences retitle or clear a terminal), line
and paragraph separators, and the bidirectional marks, embeddings, overrides and isolates
(U+202E shows what follows reversed)."""


def displayable(text: str, example: str) -> str:
    """``text`` if a table, report or terminal can show it as written, else ValueError.

    For the scenario's words printed as they are (its name, layout labels, currency).
    """
    found = _NOT_DISPLAYABLE.search(text)
    if found is not None:
        code = f"U+{ord(found.group()):04X}"
        raise ValueError(
            f"holds a control or bidirectional character ({code} at character "
            f"{found.start() + 1}), which would reach the terminal raw; write plain text "
            f"on one line, e.g. {example}"
        )
    return text


def _displayable_name(text: str) -> str:
    return displayable(text, "400 TB on 20 TB NL-SAS")


DisplayName = Annotated[str, AfterValidator(_displayable_name)]
"""A title shown as written (a scenario's name): no control or bidirectional characters."""


class FrozenModel(BaseModel):
    """Base of every scenario model: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _whole_float_as_int(value: object) -> object:
    """``1e5`` (a float in YAML) -> ``100000``: a count written in exponent form is that count.

    Other values pass through for the strict integer validation and its message.
    """
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return value


Count = Annotated[int, BeforeValidator(_whole_float_as_int), Strict()]
"""A whole number of things (drives, groups): an int, or a float with no fraction."""


def at_least(minimum: float, **kwargs: Any) -> Any:
    """A strict, finite float field of at least ``minimum`` (ints accepted)."""
    return Field(strict=True, ge=minimum, allow_inf_nan=False, **kwargs)


_PERCENT = re.compile(r"^\s*([-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\s*%\s*$")


def percent_value(text: str) -> float | None:
    """``"1.9%"`` -> 0.019 (a fraction); None when ``text`` is not a number with ``%``.

    The one place a percentage is read: scenario files, ``--set`` and ``--vary`` values.
    """
    match = _PERCENT.match(text)
    return None if match is None else float(match[1]) / 100


def meta(
    label: str,
    unit: str,
    example: str,
    *,
    replaces: tuple[str, ...] = (),
    optional: bool = False,
) -> dict[str, Any]:
    """A field's editing metadata, kept in its ``json_schema_extra`` (and so in the schema).

    Args:
        label: short name beside an input (the TUI's fields), e.g. ``Rebuild h``.
        unit: the value's unit in words, e.g. ``hours`` (hints, errors, exports).
        example: a value as a file would give it, e.g. ``12`` or ``1.9%``.
        replaces: sibling keys that setting this one removes (exclusive alternatives:
            ``drive.afr`` replaces ``arr`` and ``mtbf_hours``).
        optional: an editor may clear the value (the key is then left out).
    """
    return {
        "x-label": label,
        "x-unit": unit,
        "x-example": example,
        "x-replaces": list(replaces),
        "x-optional": optional,
    }


def positive(**kwargs: Any) -> Any:
    """A strict, finite float field above 0 (ints accepted); ``kwargs`` go to ``Field``."""
    return Field(strict=True, gt=0, allow_inf_nan=False, **kwargs)
