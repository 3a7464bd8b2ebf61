"""Walking the scenario schema by path: 'did you mean' hints, ``--set`` checks, field metadata.

:func:`field_meta` reads what a field is (label, unit, example, percent form, exclusive
alternatives) from its Pydantic model, for the TUI's fields, ``--set``, the error hints
and the sweep and tornado tables: declared once, on the model. :func:`number_bounds` reads a
number field's least and most from its constraints, for the error hints.
"""

from __future__ import annotations

import difflib
import math
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from planner.scenario.errors import closest_label
from planner.scenario.schema import Scenario
from planner.scenario.tiers import PlanFile
from planner.scenario.units import takes_terabytes


def _strip_optional(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _bare(annotation: Any) -> Any:
    """The type behind ``None`` and constraints.

    A tier's ``layouts`` is ``Optional[Annotated[list[LayoutSpec], MinLen(1), ...]]``: a list
    all the same.
    """
    annotation = _strip_optional(annotation)
    return get_args(annotation)[0] if get_origin(annotation) is Annotated else annotation


def _whole_number(annotation: Any) -> bool:
    """An int field, optional or not (``Count | None`` keeps ``Count``'s ``Annotated``)."""
    annotation = _strip_optional(annotation)
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation is int


def as_model(annotation: Any) -> type[BaseModel] | None:
    """The model class behind an annotation (``DriveSpec``, ``DriveSpec | None``), else None."""
    annotation = _bare(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def is_list(annotation: Any) -> bool:
    """Whether an annotation is a list (``list[LayoutSpec]``)."""
    return get_origin(_bare(annotation)) is list


def allows_none(annotation: Any) -> bool:
    """Whether an annotation takes None (``str | None``): the key may be left out."""
    return get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation)


def is_text(annotation: Any) -> bool:
    """Whether an annotation is text (``str``, ``str | None``)."""
    return _strip_optional(annotation) is str


def child(annotation: Any, part: str | int) -> Any | None:
    """The annotation one step down: a model's field by name, a list's item by index."""
    if isinstance(part, int):
        inner = _bare(annotation)
        return get_args(inner)[0] if get_origin(inner) is list else None
    model = as_model(annotation)
    info = field_info(model, part) if model is not None else None
    return None if info is None else info.annotation


def field_info(model: type[BaseModel], key: str) -> FieldInfo | None:
    """The field a mapping key names, by its alias if it has one (``class`` for drive_class)."""
    for name, info in model.model_fields.items():
        if (info.alias or name) == key:
            return info
    return None


def annotation_at(loc: Sequence[str | int]) -> Any | None:
    """The annotation at ``loc`` from the top of a scenario, or None if it leaves the schema.

    A location under ``tiers`` is walked from the top of a plan file
    (:mod:`planner.scenario.tiers`).
    """
    annotation: Any = PlanFile if tuple(loc[:1]) == ("tiers",) else Scenario
    for part in loc:
        annotation = child(annotation, part)
        if annotation is None:
            return None
    return annotation


def field_names(model: type[BaseModel]) -> list[str]:
    """The keys a mapping of this model may hold (aliases where given), in declaration order."""
    return [info.alias or name for name, info in model.model_fields.items()]


def closest(name: str, choices: Sequence[str]) -> str | None:
    """The choice ``name`` most likely misspells, or None when none is close."""
    near = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return near[0] if near else None


def did_you_mean_label(
    label: str, labels: Sequence[str], aliases: Mapping[str, str] | None = None
) -> str:
    """``"; did you mean 'X'? (layouts: 'A', 'B')"`` by :func:`closest_label`, the list always."""
    near = closest_label(label, labels, aliases)
    listed = f"(layouts: {_some([repr(name) for name in labels])})"
    return f"; did you mean {near!r}? {listed}" if near is not None else f" {listed}"


def did_you_mean(name: str, choices: Sequence[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest choice, else ``" (known: a, b, c)"``."""
    near = closest(name, choices)
    if near is not None:
        return f"; did you mean {near!r}?"
    return f" (known: {_some(choices)})"


_KNOWN_CHARS = 120
"""Most characters of a list of known names in a message (the line stays under 300)."""


def _some(names: Sequence[str]) -> str:
    """``a, b, c`` whole, or as many as fit in :data:`_KNOWN_CHARS` and where the rest are."""
    text = ", ".join(names)
    if len(text) <= _KNOWN_CHARS:
        return text
    kept: list[str] = []
    for name in names:
        if len(", ".join([*kept, name])) > _KNOWN_CHARS:
            break
        kept.append(name)
    return f"{', '.join(kept)} and {len(names) - len(kept)} more: planner schema lists them"


@dataclass(frozen=True)
class FieldMeta:
    """What a scenario field is, read from its Pydantic model (description and metadata).

    Attributes:
        path: where the value lives, e.g. ``("restore", "rebuild_hours")``.
        label: short name beside an input, e.g. ``Rebuild h``.
        unit: the value's unit in words, e.g. ``hours`` ("" when it has none).
        example: a value as a file gives it, e.g. ``12`` or ``1.9%``.
        description: the model's description of the field.
        percent: the field takes a percentage (``1.9%``) as well as a fraction.
        integer: the field takes whole numbers only.
        optional: an editor may clear it (the key is then left out).
        replaces: sibling keys that giving this one removes (exclusive alternatives).
        terabytes: the field is a capacity that takes a unit, ``363.8 TiB`` or ``400 TB``.
        many: the field is a list of such values (``ageing.arr_by_year``).
    """

    path: tuple[str, ...]
    label: str
    unit: str
    example: str
    description: str
    percent: bool
    integer: bool
    optional: bool
    replaces: tuple[str, ...]
    terabytes: bool = False
    many: bool = False

    @property
    def dotted(self) -> str:
        """The field as ``--set`` and error messages name it, e.g. ``drive.arr``."""
        return ".".join(self.path)

    @property
    def hint(self) -> str:
        """Units and an example for an input's placeholder: ``hours, e.g. 12``."""
        other = " or %" if self.percent else " or TiB" if self.terabytes else ""
        unit = f"{self.unit}{other}, " if self.unit else ""
        return f"{unit}e.g. {self.example}"


def list_item(annotation: Any) -> Any | None:
    """The item type of a list annotation (``list[X] | None``, annotated or not), else None."""
    inner = _strip_optional(annotation)
    if get_origin(inner) is Annotated:
        inner = get_args(inner)[0]
    return get_args(inner)[0] if get_origin(inner) is list else None


def _takes_percent(info: FieldInfo) -> bool:
    annotation = _strip_optional(info.annotation)
    item = list_item(info.annotation)
    if item is not None:
        return any(
            getattr(getattr(m, "func", None), "__name__", "") == "_parse_percent"
            for m in getattr(item, "__metadata__", ())
        )
    return any(
        getattr(getattr(m, "func", None), "__name__", "") == "_parse_percent"
        for m in [*info.metadata, *getattr(annotation, "__metadata__", ())]
    )


def number_bounds(loc: Sequence[str | int]) -> tuple[float, float] | None:
    """The least and most a number field takes, from its ``ge``/``gt`` and ``le``/``lt``.

    ``(0.01, 1)`` for ``drive.usable_fraction``; -inf or inf where a side is unbounded (an
    exclusive bound counts as the bound). None for a field that is no float (a count, text,
    a section) or a location off the schema.
    """
    if not loc or not isinstance(loc[-1], str):
        return None
    model = as_model(annotation_at(loc[:-1]))
    info = field_info(model, loc[-1]) if model is not None else None
    if info is None or _bare(info.annotation) is not float:
        return None
    least, most = -math.inf, math.inf
    annotation = _strip_optional(info.annotation)
    for found in [*info.metadata, *getattr(annotation, "__metadata__", ())]:
        # a type's own Field(...) (correlation's Probability) holds its constraints inside
        for constraint in [found, *(getattr(found, "metadata", None) or ())]:
            for low in (getattr(constraint, "ge", None), getattr(constraint, "gt", None)):
                least = max(least, low) if isinstance(low, int | float) else least
            for high in (getattr(constraint, "le", None), getattr(constraint, "lt", None)):
                most = min(most, high) if isinstance(high, int | float) else most
    return least, most


def _takes_terabytes(info: FieldInfo) -> bool:
    annotation = _strip_optional(info.annotation)
    return takes_terabytes([*info.metadata, *getattr(annotation, "__metadata__", ())])


def field_meta(dotted_name: str) -> FieldMeta | None:
    """The metadata of the scenario field ``dotted_name`` (e.g. ``drive.arr``), if it has any.

    Labels, units, examples and alternatives live in each field's ``json_schema_extra``
    (:func:`planner.scenario.base.meta`); the description and the percent and whole-number
    forms come from the field itself.
    """
    path = tuple(dotted_name.split("."))
    model = as_model(annotation_at(path[:-1])) if len(path) > 1 else Scenario
    info = field_info(model, path[-1]) if model is not None else None
    extra = info.json_schema_extra if info is not None else None
    if info is None or not isinstance(extra, dict) or "x-label" not in extra:
        return None
    replaces = extra.get("x-replaces") or []
    return FieldMeta(
        path=path,
        label=str(extra["x-label"]),
        unit=str(extra.get("x-unit", "")),
        example=str(extra.get("x-example", "")),
        description=info.description or "",
        percent=_takes_percent(info),
        integer=_whole_number(info.annotation),
        optional=bool(extra.get("x-optional", False)),
        replaces=tuple(str(r) for r in replaces) if isinstance(replaces, list) else (),
        terabytes=_takes_terabytes(info),
        many=list_item(info.annotation) is not None,
    )
