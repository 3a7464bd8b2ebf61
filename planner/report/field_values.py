"""Scenario field values as people read them: ``1.9%``, ``0.000108``, ``42``, ``2.5``.

Also a parameter field's value fitted to the cells the TUI gives it (:func:`fitted_value`).

The fields are those a sweep varies and a tornado moves
(:mod:`planner.analysis.varied_fields`), each value in its field's unit (ARR as a fraction,
the mission in years).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len

from planner.report.numbers import plain_column
from planner.scenario.edits import FieldSpec, display_value

if TYPE_CHECKING:
    from planner.analysis.varied_fields import ScenarioField


def field_texts(values: Sequence[tuple[ScenarioField, float]]) -> list[str]:
    """Field values, each in its field's unit (``1.9%``, ``0.000108``, ``42``), as one column.

    The numbers follow :func:`planner.report.numbers.plain_column`'s rule over the whole
    column (a percentage in its own unit, 1.9 for ``1.9%``); whole-number fields are rounded.
    """
    shown = [
        100 * v if f.percent else float(round(v)) if f.integer and math.isfinite(v) else v
        for f, v in values
    ]
    cells = plain_column(shown)
    return [
        f"{cell}%" if f.percent and math.isfinite(v) else cell
        for (f, v), cell in zip(values, cells, strict=True)
    ]


def field_column(field: ScenarioField, values: Sequence[float]) -> list[str]:
    """A column of ``field``'s values, one notation (:func:`field_texts`)."""
    return field_texts([(field, v) for v in values])


def field_text(field: ScenarioField, value: float) -> str:
    """One value of ``field`` as people read it: ``2.5%``, ``0.000108``, ``12``, ``42``."""
    return field_column(field, [value])[0]


APPROXIMATELY = "≈"
"""Marks a value shown rounded to fewer digits than it has (:func:`fitted_value`)."""


def fitted_value(spec: FieldSpec, value: Any, cells: int) -> str | None:
    """``value``, in use in the parameter field ``spec``, as the field shows it in ``cells``.

    Its exact short text (:func:`~planner.scenario.edits.display_value`, the form a field
    loads a value in: ``1e-15`` for ``0.000000000000001``) where it fits; else rounded to
    the most significant digits that fit, in the field's form (a fraction as a percentage)
    and marked :data:`APPROXIMATELY`: ``≈1.234568%`` for ``1.23456789012%``. None when not
    even two significant digits fit, or the value is no number. A field's text cut to its
    width read as another number (``0.00000000`` for 1e-15) or lost its unit (newcomer
    review); these read as the value in use.
    """
    exact = display_value(spec, value)
    if cell_len(exact) <= cells:
        return exact
    items = value if isinstance(value, list) else [value]
    if not all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in items
    ):
        return None
    percent = spec.kind in ("fraction", "fractions")
    for digits in range(15, 1, -1):
        texts = [f"{100 * v:.{digits}g}%" if percent else f"{v:.{digits}g}" for v in items]
        shown = APPROXIMATELY + ", ".join(texts)
        if cell_len(shown) <= cells:
            return shown
    return None
