"""Parse the range options of ``planner sweep``: ``--vary``, ``--parity`` and ``--group-sizes``.

Pure functions: text in, values out, :class:`RangeError` (a ValueError with a one-line
message) for anything malformed; the command turns that into exit code 2.

* ``--vary drive.arr=1%..5%:9``: nine values of a numeric scenario field from 1% to 5%
  inclusive (``:COUNT`` optional, default :data:`DEFAULT_COUNT`), evenly spaced, or
  log-evenly with ``--log``. Fields and units:
  :data:`planner.analysis.varied_fields.SCENARIO_FIELDS`.
* ``--group-sizes 2..30`` or ``4,8,16`` or ``2..8,16``; ``--parity 1,2,3`` or ``1..3``.
"""

from __future__ import annotations

import math
import re

from planner.analysis.sweep import VaryRange, vary_range
from planner.analysis.varied_fields import FIELDS_BY_NAME, ScenarioField, varied_fields_text
from planner.report.field_values import field_text
from planner.scenario.base import percent_value
from planner.scenario.limits import outside_limits

DEFAULT_COUNT = 9
"""Values of a ``--vary`` range without ``:COUNT``."""

MAX_COUNT = 1000
"""Most values one ``--vary`` range may hold."""

_VARY = re.compile(
    r"^\s*(?P<field>[^=\s]+)\s*=\s*(?P<start>[^.:][^:]*?)\s*\.\.\s*(?P<stop>[^:]+?)\s*"
    r"(?::\s*(?P<count>\S+)\s*)?$"
)
_NUMBER = re.compile(r"^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$")
_INT_RANGE = re.compile(r"^\s*(?P<start>[0-9]+)\s*(?:\.\.\s*(?P<stop>[0-9]+)\s*)?$")

VARY_EXAMPLE = "drive.arr=1%..5%:9"


class RangeError(ValueError):
    """A malformed range option; the message is one line, ready for the user."""


def _hint(name: str) -> str:
    """``; did you mean 'drive.arr'?`` (also for a bare ``arr``), else every field it varies."""
    from planner.scenario.fields import closest

    tails = [f for f in FIELDS_BY_NAME if f.rsplit(".", 1)[-1] == name.rsplit(".", 1)[-1]]
    near = tails[0] if tails else closest(name, list(FIELDS_BY_NAME))
    if near is not None:
        return f"; did you mean {near!r}?"
    return f" (known: {varied_fields_text()})"


def field_named(name: str) -> ScenarioField:
    """The scenario field ``--vary`` knows by this dotted name; RangeError with a hint."""
    field = FIELDS_BY_NAME.get(name.strip())
    if field is None:
        raise RangeError(f"--vary: {name!r} is not a field it can vary{_hint(name)}")
    return field


def _number(text: str, field: ScenarioField, where: str) -> float:
    raw = text.strip()
    percent = raw.endswith("%")
    fraction = percent_value(raw) if percent else None
    if (percent and fraction is None) or (not percent and not _NUMBER.match(raw)):
        raise RangeError(f"--vary {field.name}: {where} {raw!r} is not a number")
    if percent and not field.percent:
        raise RangeError(f"--vary {field.name}: {where} {raw!r}: only drive.arr takes a percentage")
    value = fraction if fraction is not None else float(raw)
    if not math.isfinite(value):
        raise RangeError(f"--vary {field.name}: {where} {raw!r} is not finite")
    if value < 0 or (value == 0 and not field.allows_zero):
        bound = "0 or more" if field.allows_zero else "above 0"
        raise RangeError(f"--vary {field.name}: {where} {raw!r} must be {bound}")
    if value >= field.upper:
        hint = f"; did you mean {raw}%?" if field.percent and not percent and value < 100 else ""
        upper = field_text(field, field.upper)
        raise RangeError(f"--vary {field.name}: {where} {raw!r} is not below {upper}{hint}")
    if field.integer and value != round(value):
        raise RangeError(f"--vary {field.name}: {where} {raw!r} must be a whole number")
    problem = outside_limits(field.name, value)
    if problem is not None:
        raise RangeError(f"--vary {field.name}: {where} {raw!r} {problem}")
    return value


def parse_vary(text: str, log: bool = False) -> VaryRange:
    """Parse ``FIELD=START..STOP[:COUNT]``, e.g. ``drive.arr=1%..5%:9``.

    Args:
        text: the option's value.
        log: space the values evenly on a log scale (``--log``; START and STOP above 0).

    Returns:
        The field and its values in the field's unit (ARR as a fraction: 1% -> 0.01).

    Raises:
        RangeError: a malformed range, an unknown field (with a "did you mean"), a value
            the field cannot take, a count below 1 or above :data:`MAX_COUNT`.
    """
    match = _VARY.match(text)
    if match is None:
        name = text.split("=", 1)[0].strip() if "=" in text else ""
        if name and name not in FIELDS_BY_NAME:
            field_named(name)
        raise RangeError(
            f"--vary {text!r}: expected FIELD=START..STOP[:COUNT], e.g. {VARY_EXAMPLE}"
        )
    field = field_named(match["field"])
    start = _number(match["start"], field, "start")
    stop = _number(match["stop"], field, "stop")
    if stop < start:  # as --group-sizes 30..2: the values would come out in no asked order
        raise RangeError(
            f"--vary {text!r}: {match['start'].strip()}..{match['stop'].strip()} runs "
            f"backwards; write {match['stop'].strip()}..{match['start'].strip()}"
        )
    count_text = match["count"]
    if count_text is None:
        count = 1 if start == stop else DEFAULT_COUNT
    elif count_text.isdigit():
        count = int(count_text)
    else:
        raise RangeError(f"--vary {field.name}: count {count_text!r} is not a whole number")
    if not 1 <= count <= MAX_COUNT:
        raise RangeError(f"--vary {field.name}: count must be 1 to {MAX_COUNT}, got {count}")
    if count == 1 and start != stop:
        raise RangeError(f"--vary {field.name}: one value needs START equal to STOP")
    if log and min(start, stop) <= 0:
        raise RangeError(f"--vary {field.name}: --log needs START and STOP above 0")
    return vary_range(field, start, stop, count, log)


def parse_int_list(text: str, option: str, low: int, high: int) -> list[int]:
    """Parse ``2..30``, ``4,8,16`` or ``2..8,16`` into whole numbers, in order, no repeats.

    Args:
        text: the option's value.
        option: the option's name for messages (``--group-sizes``).
        low: smallest allowed value.
        high: largest allowed value.

    Raises:
        RangeError: a malformed item, a range running backwards, or a value out of bounds.
    """
    values: list[int] = []
    for item in text.split(","):
        match = _INT_RANGE.match(item)
        if match is None:
            what = f"{text!r}" if item.strip() == text.strip() else f"{text!r}: {item.strip()!r}"
            raise RangeError(f"{option} {what} is not a whole number or a range like 2..30")
        start = int(match["start"])
        stop = int(match["stop"]) if match["stop"] is not None else start
        if stop < start:
            raise RangeError(
                f"{option} {text!r}: {start}..{stop} runs backwards; write {stop}..{start}"
            )
        for value in (start, stop):
            if not low <= value <= high:
                raise RangeError(f"{option} {text!r}: {value} is not between {low} and {high}")
        values.extend(range(start, stop + 1))
    return list(dict.fromkeys(values))
