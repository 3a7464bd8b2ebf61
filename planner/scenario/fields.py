"""Walking the scenario schema by path, for 'did you mean' hints and ``--set`` checks."""

from __future__ import annotations

import difflib
import types
from collections.abc import Sequence
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from planner.scenario.schema import Scenario


def _strip_optional(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def as_model(annotation: Any) -> type[BaseModel] | None:
    """The model class behind an annotation (``Drive``, ``Drive | None``), else None."""
    annotation = _strip_optional(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def is_list(annotation: Any) -> bool:
    """Whether an annotation is a list (``list[LayoutSpec]``)."""
    return get_origin(_strip_optional(annotation)) is list


def is_text(annotation: Any) -> bool:
    """Whether an annotation is text (``str``, ``str | None``)."""
    return _strip_optional(annotation) is str


def child(annotation: Any, part: str | int) -> Any | None:
    """The annotation one step down: a model's field by name, a list's item by index."""
    if isinstance(part, int):
        inner = _strip_optional(annotation)
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
    """The annotation at ``loc`` from the top of a scenario, or None if it leaves the schema."""
    annotation: Any = Scenario
    for part in loc:
        annotation = child(annotation, part)
        if annotation is None:
            return None
    return annotation


def field_names(model: type[BaseModel]) -> list[str]:
    """The keys a mapping of this model may hold (aliases where given), in declaration order."""
    return [info.alias or name for name, info in model.model_fields.items()]


def did_you_mean(name: str, choices: Sequence[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest choice, else ``" (known: a, b, c)"``."""
    near = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    if near:
        return f"; did you mean {near[0]!r}?"
    return f" (known: {', '.join(choices)})"
