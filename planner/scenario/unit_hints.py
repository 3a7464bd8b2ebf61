"""What to write where a number field is given a number with a unit (``scrub_hours: 7d``).

A hint suggests a number only when that number is right: the text's unit is the field's own
(``168 h`` for a field in hours: write 168), or one planner converts exactly (``7d`` is 168
hours, ``20 cents`` is 0.2 of the currency, ``0.4 PB`` is 400 TB, ``18 months`` is 1.5
years). A year is 8,760 hours, as planner's missions count it
(:data:`planner.core.markov.rates.HOURS_PER_YEAR`); a month is a twelfth of a year but no
fixed number of hours or days (28 to 31 days), so it converts to years only. Any other unit
gets what to write without a number: ``write a number of hours with no unit, e.g. 168``.
Percentages and capacities are read by the fields themselves (``1.9%``, ``363.8 TiB``);
their refusals say their own numbers (:mod:`planner.scenario.units`).
"""

from __future__ import annotations

import re

from planner.core.markov.rates import HOURS_PER_YEAR
from planner.scenario.units import OTHER_TB_UNITS, TB_UNITS

HOURS_PER_DAY = 24.0
_YEAR_WORDS = ("y", "yr", "yrs", "year", "years")

_HOURS: dict[str, float] = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1 / 3600),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), 1 / 60),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 1.0),
    **dict.fromkeys(("d", "day", "days"), HOURS_PER_DAY),
    **dict.fromkeys(("w", "wk", "wks", "week", "weeks"), 7 * HOURS_PER_DAY),
    **dict.fromkeys(_YEAR_WORDS, HOURS_PER_YEAR),
}
"""Hours per unit of time; a year as planner counts one (8,760 hours, 365 days)."""

_MONTHS = ("mo", "mos", "month", "months")

_YEARS: dict[str, float] = {
    **{unit: per / HOURS_PER_YEAR for unit, per in _HOURS.items()},
    **dict.fromkeys(_MONTHS, 1 / 12),
}
"""Years per unit of time: a month is a twelfth of a year, though no fixed number of days."""

_MB_PER_S: dict[str, float] = {
    "kb/s": 1e-3,
    "mb/s": 1.0,
    "gb/s": 1e3,
    "kib/s": 2**10 / 1e6,
    "mib/s": 2**20 / 1e6,
    "gib/s": 2**30 / 1e6,
}
_KB: dict[str, float] = {"b": 1e-3, "kb": 1.0, "mb": 1e3, "kib": 1.024, "mib": 2**20 / 1e3}
_MB: dict[str, float] = {"kb": 1e-3, "mb": 1.0, "gb": 1e3, "mib": 2**20 / 1e6, "gib": 2**30 / 1e6}
_KIB: dict[str, float] = {"b": 1 / 2**10, "kib": 1.0, "mib": 2**10, "kb": 1e3 / 2**10}
_WATTS: dict[str, float] = {"w": 1.0, "watt": 1.0, "watts": 1.0, "kw": 1e3}
_CURRENCY: dict[str, float] = {"cent": 0.01, "cents": 0.01, "ct": 0.01}
_IOPS: dict[str, float] = {"iops": 1.0}
_DRIVES: dict[str, float] = dict.fromkeys(("drive", "drives", "disk", "disks"), 1.0)
_TIMES: dict[str, float] = dict.fromkeys(("x", "times"), 1.0)

_CURRENCY_CODE = re.compile(r"^[A-Z]{3}$")
"""An ISO 4217 code (USD, EUR): the scenario's currency or another, which planner cannot tell."""


_NUMBER = r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
_NUMBER_WITH_UNIT = re.compile(rf"^\s*({_NUMBER})\s*([A-Za-z]+(?:/[A-Za-z]+)?)\s*$")
_NUMBER_THEN_WORDS = re.compile(rf"^\s*{_NUMBER}\s*[^\s0-9.]")


_BRACKETED = re.compile(
    rf"^\s*(?P<open>[(\[{{]*)\s*(?P<number>{_NUMBER})\s*(?P<close>[)\]}}]*)\s*$"
)
"""A number with brackets before or after it that YAML read as text: ``(8``, ``8}``."""


_CURRENCY_SYMBOL = re.compile(rf"^\s*[$€£¥]\s*({_NUMBER})\s*$|^\s*({_NUMBER})\s*[$€£¥]\s*$")
"""A price with its currency's symbol before or after it: ``$420``, ``420 €``."""


def stray_brackets_hint(number_text: str, brackets: str) -> str:
    """``; if 8 is meant, write 8 without the (`` for a number typed with stray brackets."""
    shown = " ".join(dict.fromkeys(brackets))
    return f"; if {number_text} is meant, write {number_text} without the {shown}"


def typed_hint(text: str, field_unit: str, example: str) -> str:
    """The hint for ``text`` given where a number is wanted (a file, ``--set``, the TUI).

    :func:`stray_brackets_hint` for a number with brackets around it (``(8``, ``8}``),
    :func:`unit_hint` for a number with a unit (``7d``), :func:`words_hint` for a number
    with words after it (``1 per day``), "" for anything else.
    """
    bracketed = _BRACKETED.match(text)
    if bracketed is not None and (bracketed["open"] or bracketed["close"]):
        return stray_brackets_hint(bracketed["number"], bracketed["open"] + bracketed["close"])
    priced = _CURRENCY_SYMBOL.match(text)
    if priced is not None:
        number_text = priced[1] or priced[2]
        return f"; write {number_text} (the currency is costs.currency; no symbol)"
    with_unit = _NUMBER_WITH_UNIT.match(text)
    if with_unit is not None:
        return unit_hint(with_unit[1], with_unit[2], field_unit, example)
    if _NUMBER_THEN_WORDS.match(text):
        return words_hint(field_unit, example)
    return ""


def _per_unit(field_unit: str) -> dict[str, float] | None:
    """The units a field's number can be converted from, as the field's unit per unit."""
    first = field_unit.split(" (")[0].strip()
    scales: list[tuple[bool, dict[str, float] | None]] = [
        (first.startswith("hours"), _HOURS),
        (first == "days", {unit: per / HOURS_PER_DAY for unit, per in _HOURS.items()}),
        (first.startswith("years"), _YEARS),
        ("MB/s" in first, _MB_PER_S),
        (first == "TB", {**TB_UNITS, **OTHER_TB_UNITS}),
        (first == "KB", _KB),
        (first == "MB", _MB),
        (first == "KiB", _KIB),
        (first.startswith("watts"), _WATTS),
        (first.startswith("currency"), _CURRENCY),
        (first == "IOPS", _IOPS),
        (first.endswith(("drives", "drive")), _DRIVES),
        (first == "times", _TIMES),
    ]
    return next((scale for found, scale in scales if found), None)


def _in(unit: str, field_unit: str) -> str:
    """`` hours`` after a converted number; the year it took, where a conversion took one."""
    if field_unit.startswith("currency"):
        return " of the currency"
    years = {*_YEAR_WORDS, *_MONTHS}
    timed = field_unit.startswith(("hours", "days", "years"))
    by_year = timed and (unit.lower() in years) != field_unit.startswith("years")
    return f" {field_unit}" + (" (a year is 365 days in planner)" if by_year else "")


def _shown(number: float) -> str:
    return f"{number:.6g}"


def unit_hint(number_text: str, unit: str, field_unit: str, example: str) -> str:
    """``; 7 d is 168 hours: write 168 (a number of hours, no unit)``, or what to write.

    Args:
        number_text: the number as written (``7``).
        unit: the unit written after it (``d``).
        field_unit: the field's unit in words (``hours``, ``currency per kWh``), or "".
        example: a value of the field as a file gives it (``168``), or "".
    """
    what = f"a number of {field_unit}" if field_unit else "a plain number"
    plain = words_hint(field_unit, example)
    number = float(number_text)
    scale = _per_unit(field_unit)
    per = None if scale is None else scale.get(unit.lower())
    if per == 1.0:
        return f"; write {number_text} ({what}, no unit)"
    if per is not None:
        converted = _shown(number * per)
        return f"; {number_text} {unit} is {converted}{_in(unit, field_unit)}: write {converted}"
    if unit.lower() in _MONTHS and scale is not None and "h" in scale:
        return f"; a month is not a fixed number of {field_unit} (28 to 31 days){plain}"
    if _CURRENCY_CODE.match(unit.split("/")[0]) and field_unit.startswith("currency"):
        return (
            f"; write {number_text} if {unit.split('/')[0]} is the scenario's currency "
            "(costs.currency), with no unit; else convert it"
        )
    return plain


def words_hint(field_unit: str, example: str) -> str:
    """``; write a number of hours with no unit, e.g. 168`` for a number with words after it."""
    what = f"a number of {field_unit}" if field_unit else "a plain number"
    return f"; write {what} with no unit" + (f", e.g. {example}" if example else "")
