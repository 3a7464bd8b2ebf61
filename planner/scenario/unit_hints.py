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

A price with its currency (``$420``, ``US$420``, ``USD 420``) is told the number alone, the
currency being ``costs.currency``'s. Digits grouped by commas, which YAML reads as text
(``1,200``), are told the number without them; a decimal comma (``1,5``) its number only
where the comma can group no thousands.
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
_GROUPED_NUMBER = r"[-+]?[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]*)?"
"""A number whose commas group its whole part in threes: 1,200 or 12,000,000.50."""

_SOME_NUMBER = rf"(?:{_GROUPED_NUMBER}|{_NUMBER})"
"""A number as typed, its thousands grouped by commas or not (a hint writes it without)."""

_NUMBER_WITH_UNIT = re.compile(rf"^\s*({_SOME_NUMBER})\s*([A-Za-z]+(?:/[A-Za-z]+)?)\s*$")
_CODE_THEN_NUMBER = re.compile(rf"^\s*([A-Z]{{3}})\s*({_SOME_NUMBER})\s*$")
"""A price with its currency's code before it: ``USD 420``, ``EUR420``."""
_NUMBER_THEN_WORDS = re.compile(rf"^\s*{_NUMBER}\s*[^\s0-9.]")


_BRACKETED = re.compile(
    rf"^\s*(?P<open>[(\[{{]*)\s*(?P<number>{_NUMBER})\s*(?P<close>[)\]}}]*)\s*$"
)
"""A number with brackets before or after it that YAML read as text: ``(8``, ``8}``."""


_SYMBOL = r"[A-Z]{0,3}[$€£¥]"
"""A currency's symbol, with the letters some put before a dollar: ``$``, ``US$``, ``A$``."""

_CURRENCY_SYMBOL = re.compile(
    rf"^\s*{_SYMBOL}\s*({_SOME_NUMBER})\s*$|^\s*({_SOME_NUMBER})\s*{_SYMBOL}\s*$"
)
"""A price with its currency's symbol before or after it: ``$420``, ``US$420``, ``420 €``."""

_DECIMAL_COMMA = re.compile(r"^\s*([-+]?[0-9]+),([0-9]+)\s*$")
"""Digits, one comma, digits: a decimal comma (``1,5``) where the comma groups no thousands."""


def stray_brackets_hint(number_text: str, brackets: str) -> str:
    """``; if 8 is meant, write 8 without the (`` for a number typed with stray brackets."""
    shown = " ".join(dict.fromkeys(brackets))
    return f"; if {number_text} is meant, write {number_text} without the {shown}"


def typed_hint(text: str, field_unit: str, example: str, *, whole: bool = False) -> str:
    """The hint for ``text`` given where a number is wanted (a file, ``--set``, the TUI).

    :func:`stray_brackets_hint` for a number with brackets around it (``(8``, ``8}``),
    the number alone for a price with a currency's symbol (``US$420``), :func:`unit_hint`
    for a number with a unit or a currency's code (``7d``, ``USD 420``), :func:`comma_hint`
    for digits with commas (``1,200``), :func:`words_hint` for a number with words after it
    (``1 per day``), "" for anything else. A number grouped by commas is written without
    them. ``whole``: the field takes whole numbers (a count).
    """
    bracketed = _BRACKETED.match(text)
    if bracketed is not None and (bracketed["open"] or bracketed["close"]):
        return stray_brackets_hint(bracketed["number"], bracketed["open"] + bracketed["close"])
    priced = _CURRENCY_SYMBOL.match(text)
    if priced is not None:
        number_text = _ungrouped(priced[1] or priced[2])
        return f"; write {number_text} (the currency is costs.currency; no symbol)"
    coded = _CODE_THEN_NUMBER.match(text)
    if coded is not None:  # USD 420 as 420 USD
        return unit_hint(_ungrouped(coded[2]), coded[1], field_unit, example)
    with_unit = _NUMBER_WITH_UNIT.match(text)
    if with_unit is not None:
        return unit_hint(_ungrouped(with_unit[1]), with_unit[2], field_unit, example)
    commas = comma_hint(text, whole=whole)
    if commas:
        return commas
    if _NUMBER_THEN_WORDS.match(text):
        return words_hint(field_unit, example)
    return ""


def _ungrouped(number_text: str) -> str:
    return number_text.replace(",", "")


def comma_hint(text: str, *, whole: bool = False) -> str:
    """``; YAML reads 1,200 as text: write 1200 (no thousands separator)``, or "".

    Commas that group a number's whole part in threes (``1,200``, ``12,000,000.5``) are
    thousands separators, as :func:`planner.scenario.units.plain_number_text` reads them.
    A decimal comma gets its number only where it can be nothing else: one comma with one
    or two digits after it (``1,5``), or after a lone 0 (``0,500``); ``1234,567`` may be a
    grouping with a comma left out. ``whole``: a count, told no decimals.
    """
    stripped = text.strip()
    if re.fullmatch(_GROUPED_NUMBER, stripped):
        number_text, _, decimals = _ungrouped(stripped).partition(".")
        if whole and decimals.strip("0"):
            return ""  # 1,200.5 drives: no count to suggest
        if decimals and not whole:
            number_text = f"{number_text}.{decimals}"
        return f"; YAML reads {stripped} as text: write {number_text} (no thousands separator)"
    decimal = _DECIMAL_COMMA.match(text)
    if decimal is None or whole:
        return ""
    before, after = decimal[1], decimal[2]
    if len(after) > 2 and before.lstrip("+-") != "0":
        return ""
    return f"; YAML reads {stripped} as text: write {before}.{after} (a decimal point, not a comma)"


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
