"""Shared pieces of the scenario models: the frozen base and field-level errors."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class FieldError(ValueError):
    """A ValueError raised by a model-level check that belongs to one field of the model.

    The loader appends ``subpath`` to the error's location so that the message points at
    that field (e.g. ``group_size`` of a layout) rather than at the whole mapping.
    """

    def __init__(self, message: str, *subpath: str | int) -> None:
        super().__init__(message)
        self.subpath: tuple[str | int, ...] = subpath


class FrozenModel(BaseModel):
    """Base of every scenario model: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def at_least(minimum: float, **kwargs: Any) -> Any:
    """A strict, finite float field of at least ``minimum`` (ints accepted)."""
    return Field(strict=True, ge=minimum, allow_inf_nan=False, **kwargs)


def positive(**kwargs: Any) -> Any:
    """A strict, finite float field above 0 (ints accepted); ``kwargs`` go to ``Field``."""
    return Field(strict=True, gt=0, allow_inf_nan=False, **kwargs)
