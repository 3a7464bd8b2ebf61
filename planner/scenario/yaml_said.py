"""What the YAML syntax messages share: the error's parts, a spot, and the fix offered.

A message names a spot as ``line 3, column 11`` and offers the line that would be right,
without its indent and cut at :data:`FIXED_CHARS` (:mod:`yaml_syntax` says each mistake).
"""

from __future__ import annotations

from dataclasses import dataclass

from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.parser import ParserError

from planner.scenario.errors import shown

Spot = tuple[int, int]
"""A 0-based (line, column), as ruamel's marks count."""

FIXED_CHARS = 60
"""Longest line of text a message offers as the fix (longer ones end in ``…``)."""


@dataclass(frozen=True)
class Said:
    """A syntax error in words: the message and the 0-based spot it is about."""

    message: str
    line: int
    column: int


@dataclass(frozen=True)
class Syntax:
    """A ruamel syntax error and the text it is about."""

    problem: str
    context: str
    spot: Spot | None
    opened: Spot | None
    lines: list[str]
    text: str
    parser: bool

    @classmethod
    def of(cls, exc: MarkedYAMLError, text: str) -> Syntax:
        """The error's parts: its ``problem_mark`` (else ``context_mark``) is its spot."""
        mark = exc.problem_mark or exc.context_mark
        opened = exc.context_mark
        return cls(
            problem=str(exc.problem or ""),
            context=str(exc.context or ""),
            spot=(mark.line, mark.column) if mark is not None else None,
            opened=(opened.line, opened.column) if opened is not None else None,
            lines=text.splitlines(),
            text=text,
            parser=isinstance(exc, ParserError),
        )

    def line(self, number: int) -> str:
        """Line ``number`` (0-based) of the text, or "" past its end."""
        return self.lines[number] if 0 <= number < len(self.lines) else ""

    def char_at(self, spot: Spot) -> str:
        """The character at ``spot`` (line, column; 0-based), or "" past the text."""
        return self.line(spot[0])[spot[1] : spot[1] + 1]

    def value_quoted(self, spot: Spot) -> str:
        """The line of ``spot`` with its value from ``spot`` on in quotes: the fix to offer."""
        return value_quoted(self.lines, spot)


def value_quoted(lines: list[str], spot: Spot) -> str:
    """Line ``spot[0]`` with its text from ``spot`` on in quotes: the fix to offer."""
    line = lines[spot[0]] if spot[0] < len(lines) else ""
    return fixed(line[: spot[1]] + quoted(without_comment(line[spot[1] :]).strip()))


def where(spot: Spot, lines: list[str]) -> str:
    """``line 3, column 11`` (``column 11`` in a text of one line, a ``--set`` value)."""
    column = f"column {spot[1] + 1}"
    return column if len(lines) <= 1 else f"line {spot[0] + 1}, {column}"


def on_that_line(lines: list[str]) -> str:
    """`` on that line`` after "close it", unless the text is one line (a ``--set`` value)."""
    return " on that line" if len(lines) > 1 else ""


def without_comment(line: str) -> str:
    """``line`` without a trailing `` # comment`` and trailing spaces (quotes not read)."""
    cut = line.find(" #")
    return (line if cut < 0 else line[:cut]).rstrip()


def fixed(text: str) -> str:
    """A line of text offered as the fix, without its indent, cut to :data:`FIXED_CHARS`."""
    return shown(text.strip(), FIXED_CHARS, quote=False)


def quoted(value: str) -> str:
    """``value`` in single quotes, as YAML reads it back (a ``'`` inside written ``''``)."""
    return "'" + value.replace("'", "''") + "'"
