"""What a refused number field is told: out of range, not a number, a percentage it never takes.

A bound reads in the field's unit (the one declared on its model, else its name's suffix:
``_hours``), as a percentage for a field written as one (``at most 100%``); a share given
as a percent number (``usable_fraction: 90``) is asked whether it meant the fraction. Text
where a number was wanted is told what to write: the number without quotes or brackets, a
number without its unit (:mod:`planner.scenario.unit_hints`), or a fraction for a
percentage the field does not take.
"""

from __future__ import annotations

import math
from typing import Any

from planner.scenario.document import Loc
from planner.scenario.errors import show_value, shown
from planner.scenario.fields import FieldMeta, field_meta, number_bounds
from planner.scenario.limits import reason_for
from planner.scenario.tiers import within_tier
from planner.scenario.unit_hints import stray_brackets_hint, typed_hint

COMPARISONS = {
    "greater_than": ("gt", "greater than"),
    "greater_than_equal": ("ge", "at least"),
    "less_than": ("lt", "less than"),
    "less_than_equal": ("le", "at most"),
}
"""Pydantic's comparison errors: the key of the bound in their ``ctx``, and its words."""


def _unit(loc: Loc) -> str:
    """`` hours`` for a field in hours: its declared unit, else its name's suffix."""
    loc = within_tier(loc)
    if loc and all(isinstance(part, str) for part in loc):
        found = field_meta(".".join(str(part) for part in loc))
        if found is not None and found.unit:
            return f" {found.unit}"
    name = str(loc[-1]) if loc else ""
    if name.endswith("_hours"):
        return " hours"
    if name.endswith("_years"):
        return " years"
    if name.endswith("_tb"):
        return " TB"
    return ""


def _hint_unit(loc: Loc) -> str:
    """``hours`` for a hint: the declared unit, else one read from the field's name."""
    unit = _unit(loc).strip()
    name = str(loc[-1]) if loc else ""
    if unit:
        return unit
    if name in ("iops", "iops_per_drive"):
        return "IOPS"
    if name == "max_cost":
        return "currency"
    return next((unit for end, unit in _SUFFIX_UNITS if name.endswith(end)), "")


_SUFFIX_UNITS = (
    ("_hours", "hours"),
    ("_years", "years"),
    ("_days", "days"),
    ("_tb", "TB"),
    ("_mb_per_s", "MB/s"),
    ("_mb", "MB"),
    ("_kb", "KB"),
    ("_kib", "KiB"),
)
"""The unit of a field without one declared, by the end of its name."""


def _takes_percent(loc: Loc) -> bool:
    """True for a field written as a percentage or a fraction (``arr: 1.9%``)."""
    loc = within_tier(loc)
    if not loc or not all(isinstance(part, str) for part in loc):
        return False
    found = field_meta(".".join(str(part) for part in loc))
    return found is not None and found.percent


def number_hint(value: Any, loc: Loc = (), *, whole: bool = False) -> str:
    """What to write for ``value`` where a number is wanted (``whole``: a count), or ""."""
    if isinstance(value, list) and len(value) == 1 and _is_number(value[0]):
        return stray_brackets_hint(show_value(value[0]), "[]")  # group_size: [8]
    if isinstance(value, str) and value.strip():
        try:
            number = float(value)
        except ValueError:
            if value.strip().endswith("%") and loc:
                return _no_percentage(loc, value.strip()[:-1])
            if not loc:
                return ""
            found = _meta(loc)
            example = found.example if found is not None else ""
            return typed_hint(value, _hint_unit(loc), example, whole=whole)
        if not math.isfinite(number):
            return "; it must be a finite number"
        return f"; write {shown(value.strip(), quote=False)} without quotes"
    return ""


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _meta(loc: Loc) -> FieldMeta | None:
    """The metadata of the field at ``loc`` (a tier's field as the scenario's), if any."""
    plain = within_tier(loc)
    if plain and all(isinstance(part, str) for part in plain):
        return field_meta(".".join(str(part) for part in plain))
    return None


def _no_percentage(loc: Loc, percent_text: str = "") -> str:
    """``; this field takes no percentage: write a number of ..., e.g. 0.000108``.

    A share (``usable_fraction: 90%``) is told the fraction to write: ``90% is 0.9``.
    """
    try:
        fraction = float(percent_text) / 100
    except ValueError:
        fraction = math.nan
    name = str(loc[-1]) if loc else ""
    if name.endswith("fraction") and 0 < fraction <= 1:
        shown_fraction = f"{fraction:.6g}"
        least, most = number_bounds(within_tier(loc)) or (0.0, 1.0)
        if not least <= fraction <= most:  # 0.5% is 0.005, and usable_fraction takes 0.01 up
            return (
                f"; this field takes no percentage: {percent_text}% is {shown_fraction}, out "
                f"of range: it takes {least:g} to {most:g}"
            )
        return (
            f"; this field takes no percentage: {percent_text}% is {shown_fraction}: "
            f"write {shown_fraction}"
        )
    found = _meta(loc)
    unit = f"a number of {found.unit}" if found is not None and found.unit else "a plain number"
    example = f", e.g. {found.example}" if found is not None and found.example else ""
    return f"; this field takes no percentage: write {unit}{example}"


def out_of_range(kind: str, value: Any, ctx: dict[str, Any], loc: Loc) -> str:
    """``5 is out of range: must be at least 6 drives (why)`` for a comparison's error."""
    key, words = COMPARISONS[kind]
    reason = reason_for(str(loc[-1]), upper=key in ("lt", "le")) if loc else ""
    why = f" ({reason})" if reason else ""
    unit = _unit(loc)
    if ctx[key] == 1 and unit.endswith("s"):
        unit = unit[:-1]  # "at least 1 drive", not "1 drives"
    bound = f"{show_value(ctx[key])}{unit}"
    if _takes_percent(loc) and isinstance(ctx[key], int | float):
        # "at most 100%" for '150%', not "at most 1"; the fraction beside a small bound
        small = 0 < ctx[key] < 0.01
        bound = f"{ctx[key] * 100:g}%" + (f" = {show_value(ctx[key])}" if small else "")
    share = _share_of(value, loc) if key == "le" and ctx[key] == 1 else ""
    return f"{show_value(value)} is out of range: must be {words} {bound}{why}{share}"


def _share_of(value: Any, loc: Loc) -> str:
    """``; did you mean 0.9 (90%)?`` for a share given as a percent number (``90``).

    For a number field at most 1 (a fraction, its bounds read from the model) given a
    number above 1 and at most 100 whose hundredth the field takes.
    """
    bounds = number_bounds(within_tier(loc))
    if not _is_number(value) or not 1 < value <= 100 or bounds is None:
        return ""
    least, most = bounds
    fraction = value / 100
    if not least < fraction <= most:
        return ""
    return f"; did you mean {fraction:.6g} ({show_value(value)}%)?"
