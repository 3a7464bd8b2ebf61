"""Scenario field values as people read them: ``1.9%``, ``0.000108``, ``42``, ``2.5``.

The fields are those a sweep varies and a tornado moves
(:mod:`planner.analysis.varied_fields`), each value in its field's unit (ARR as a fraction,
the mission in years).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from planner.report.numbers import plain_column

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
