"""Reading a rendered column's cells back as numbers, to check its notation independently.

The rule every numeric column keeps (docs/commands.md, "Columns and number formats"):

- a value of 1 or more (in the cell's own unit: 13 for ``13%``; by its size, ``-6.6`` is 6.6)
  never takes an exponent, unless it is really huge (1e15 or more); past a million it may
  read in words (``380 million``);
- the values below 1 share one notation: all fixed (``0.0021%``) or all scientific
  (``2.1e-03%``), never ``6.7e-09%`` beside ``0.0000098%``;
- a column is scientific only when fixed notation would need more than
  :data:`MAX_DECIMALS` decimals for one of its values; a fixed cell never has more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_DECIMALS = 10
"""More decimals than this and fixed notation is a wall of zeros."""

_NUMBER = re.compile(
    r"(?P<sign>[+-])?"
    r"(?P<mantissa>[0-9][0-9,]*(?:\.(?P<decimals>[0-9]+))?)"
    r"(?:e(?P<exponent>[+-][0-9]+))?"
    r"(?: (?P<word>million|billion|trillion))?"
    r"[%×]?"
)
_WORDS = {"million": 1e6, "billion": 1e9, "trillion": 1e12}


@dataclass(frozen=True)
class Number:
    """One number read from a cell."""

    text: str
    value: float
    scientific: bool
    decimals_fixed: int
    """Decimals the value takes in fixed notation with the significant digits it shows."""


def read_number(text: str) -> Number | None:
    """The number a cell (or one end of an interval) shows, or None for text."""
    match = _NUMBER.fullmatch(text.strip())
    if match is None:
        return None
    mantissa = match["mantissa"].replace(",", "")
    exponent = int(match["exponent"] or 0)
    value = float(mantissa) * 10.0**exponent * _WORDS.get(match["word"] or "", 1.0)
    if match["sign"] == "-":
        value = -value
    if match["exponent"] is None:
        decimals = len(match["decimals"] or "")
    else:
        digits = len(mantissa.replace(".", ""))
        decimals = max(0, digits - 1 - exponent)
    return Number(text, value, match["exponent"] is not None, decimals)


def numbers_of(cells: list[str]) -> list[Number]:
    """Every number of a column's cells; an interval ``a–b`` gives two, a marker is dropped."""
    found = []
    for cell in cells:
        for part in cell.replace("⚠", "").split("–"):
            number = read_number(part)
            if number is not None:
                found.append(number)
    return found


def notation_faults(cells: list[str]) -> list[str]:
    """What breaks the column rule above in ``cells`` (empty when the column reads right)."""
    numbers = numbers_of(cells)
    faults = [
        f"{n.text}: exponent on a value of 1 or more"
        for n in numbers
        if n.scientific and 1 <= abs(n.value) < 1e15
    ]
    small = [n for n in numbers if 0 < abs(n.value) < 1]
    kinds = {n.scientific for n in small}
    if len(kinds) > 1:
        faults.append(f"fixed and scientific below 1: {[n.text for n in small]}")
    elif kinds == {True} and all(n.decimals_fixed <= MAX_DECIMALS for n in small):
        faults.append(f"scientific where fixed would do: {[n.text for n in small]}")
    faults += [
        f"{n.text}: {n.decimals_fixed} decimals"
        for n in small
        if not n.scientific and n.decimals_fixed > MAX_DECIMALS
    ]
    return faults


def markdown_tables(text: str) -> list[dict[str, list[str]]]:
    """The cells of each Markdown table in ``text``, by header."""
    blocks: list[list[str]] = []
    previous = False
    for line in text.splitlines():
        is_row = line.startswith("|")
        if is_row and not previous:
            blocks.append([])
        if is_row:
            blocks[-1].append(line)
        previous = is_row
    tables = []
    for lines in blocks:
        headers = [h.strip() for h in lines[0].strip("|").split("|")]
        rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
        tables.append({h: [row[i] for row in rows] for i, h in enumerate(headers)})
    return tables


def markdown_columns(text: str) -> dict[str, list[str]]:
    """The cells of the first Markdown table in ``text``, by header."""
    return markdown_tables(text)[0]


def table_faults(text: str) -> dict[str, list[str]]:
    """:func:`notation_faults` of every column of every Markdown table (faulty ones only)."""
    faults = {}
    for number, table in enumerate(markdown_tables(text)):
        for header, cells in table.items():
            found = notation_faults(cells)
            if found:
                faults[f"table {number + 1}: {header}"] = found
    return faults
