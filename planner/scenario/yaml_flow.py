"""Brackets and quotes a parser error lies inside or just after, read from ruamel's tokens.

ruamel's parser reports an unclosed ``[`` where it gives up, often on a later line and in
its own words ("expected the node content, but found '-' (while parsing a flow node)"),
and a quote closed too late as "expected <block end>, but found '<scalar>'". The scanner's
tokens up to that spot (``YAML.scan``, each with its start and end marks) say which ``[``
or ``{`` is still open there, and which quoted value ends just before it; the messages
here name that bracket or quote, where it was opened, and the text that would be right.
"""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.tokens import (
    BlockEntryToken,
    FlowEntryToken,
    FlowMappingEndToken,
    FlowMappingStartToken,
    FlowSequenceEndToken,
    FlowSequenceStartToken,
    ScalarToken,
    StreamEndToken,
    ValueToken,
)

from planner.scenario.errors import shown
from planner.scenario.yaml_said import (
    Said,
    Spot,
    fixed,
    on_that_line,
    value_quoted,
    where,
    without_comment,
)

CLOSERS = {"[": "]", "{": "}"}
_WHAT = {"[": "list", "{": "mapping"}
_OPENERS = (FlowSequenceStartToken, FlowMappingStartToken)
_ENDS = (FlowSequenceEndToken, FlowMappingEndToken)


def _start(token: Any) -> Spot:
    return token.start_mark.line, token.start_mark.column


def _end(token: Any) -> Spot:
    return token.end_mark.line, token.end_mark.column


def read_tokens(text: str, spot: Spot) -> tuple[list[Any], Any | None]:
    """The scanner's tokens that start before ``spot``, and the first one at or after it.

    As many as the scanner reads: one that fails later (or at the spot) stops the list
    there. The parser's errors come after the scanner's, so a parser error's tokens are
    all there up to its spot.
    """
    before: list[Any] = []
    try:
        for token in YAML(typ="rt").scan(text):
            if _start(token) < spot:
                before.append(token)
            elif _end(token) > _start(token) or isinstance(token, StreamEndToken):
                return before, token  # not the empty marks of a start (of the file, a key)
    except YAMLError:
        pass
    return before, None


def flow_problem(lines: list[str], before: list[Any], found: Any | None) -> Said | None:
    """What is wrong with the ``[`` or ``{`` open where the parser stopped, if one is.

    ``before`` are the tokens before the parser's spot and ``found`` the one it stopped at
    (None: the scanner failed there too). A ``]`` or ``}`` with none open is a stray one.
    """
    open_tokens: list[Any] = []
    for token in before:
        if isinstance(token, _OPENERS):
            open_tokens.append(token)
        elif isinstance(token, _ENDS) and open_tokens:
            open_tokens.pop()
    if not open_tokens:
        return _stray_closer(lines, found)
    opener = open_tokens[-1]
    char = str(opener.id)
    at = _start(opener)
    if isinstance(found, _ENDS):
        return _closed_with_the_other(lines, open_tokens, found)
    if found is None or isinstance(found, StreamEndToken) or _start(found)[0] > at[0]:
        inside = [token for token in before if _start(token) > at]
        if all(_start(token)[0] == at[0] for token in inside):
            # all its items are on its line: it was meant to close there
            line = without_comment(lines[at[0]]).rstrip(",")
            on_line = [token for token in open_tokens if _start(token)[0] == at[0]]
            closers = "".join(CLOSERS[str(token.id)] for token in reversed(on_line))
            fix = f"close it{on_that_line(lines)}: {fixed(line + closers)}"
            stray = _stray_opener(without_comment(lines[at[0]]), at[1], closers[1:])
            if stray is not None:
                fix = stray if char == "{" else f"{stray}; or, for a list, {fix}"
        else:
            fix = f"end the {_WHAT[char]} with {CLOSERS[char]} after its last item"
        return Said(f"the {char} opened at {where(at, lines)} is not closed; {fix}", *at)
    if isinstance(found, ValueToken) and before and isinstance(before[-1], ScalarToken):
        return _missing_comma(lines, opener, before[-1])
    if isinstance(found, BlockEntryToken):
        return Said(
            f"a '- ' item cannot go inside the {char} opened at {where(at, lines)}: inside "
            f"{char} {CLOSERS[char]} the items are separated by ', ' (remove the {char}, or "
            "the '- ')",
            *_start(found),
        )
    return None


_LONE_VALUE = re.compile(r"[^\s,:#\[\]{}'\"][^,\[\]{}]*")
"""A value with no item or key in it (``8``, ``1.9%``, ``raid5``): no ``, : [ ] { }``."""


def _stray_opener(line: str, column: int, outer_closers: str) -> str | None:
    """``if 8 is meant, write group_size: 8`` for ``group_size: {8``, else None.

    A ``{`` or ``[`` after a key with one plain value after it, and nothing else, is most
    likely a stray key press: no scenario key takes a mapping of one key with no value, and
    few take a list. ``outer_closers`` close the brackets the line opened before it.
    """
    before, value = line[:column], line[column + 1 :].strip()
    if not before.rstrip().endswith(":") or not _LONE_VALUE.fullmatch(value):
        return None
    if ": " in value or value.endswith(":"):  # a key: a mapping meant, its } left out
        return None
    return f"if {shown(value, quote=False)} is meant, write {fixed(before + value + outer_closers)}"


def _stray_closer(lines: list[str], found: Any | None) -> Said | None:
    """A ``]`` or ``}`` that closes nothing (``a: [1, 2]]``), or a value starting with ``,``."""
    if isinstance(found, FlowEntryToken):
        return Said(
            "a value cannot start with ',' (YAML keeps it for lists in [ ]); put the value "
            f"in quotes: {value_quoted(lines, _start(found))}",
            *_start(found),
        )
    if not isinstance(found, _ENDS):
        return None
    char = str(found.id)
    opener = "[" if char == "]" else "{"
    return Said(
        f"this {char} closes no {opener}; remove it (or put the whole value in quotes)",
        *_start(found),
    )


def _closed_with_the_other(lines: list[str], open_tokens: list[Any], found: Any) -> Said:
    """A ``[`` closed with ``}`` (or a ``{`` with ``]``): ``{a: [1, 2}``."""
    opener = open_tokens[-1]
    char, wrong = str(opener.id), str(found.id)
    right = CLOSERS[char]
    at = _start(opener)
    line_number, column = _start(found)
    line = lines[line_number]
    corrected = without_comment(line[:column] + right + line[column:])
    fix = f"close it with {right} first: {fixed(corrected)}"
    return Said(f"the {char} opened at {where(at, lines)} is closed with {wrong}; {fix}", *at)


def _missing_comma(lines: list[str], opener: Any, scalar: Any) -> Said | None:
    """``{raid: raid6 group_size: 8}``: a key read as part of the value before it."""
    start, end = _start(scalar), _end(scalar)
    if start[0] != end[0] or scalar.style is not None:
        return None
    line = lines[start[0]]
    words = line[start[1] : end[1]]
    if " " not in words.strip():
        return None
    key_column = start[1] + words.rstrip().rindex(" ") + 1
    char = str(opener.id)
    corrected = line[:key_column].rstrip() + ", " + line[key_column:]
    return Said(
        f"a ',' is missing before {shown(line[key_column : end[1]].strip())} in the {char} "
        f"opened at {where(_start(opener), lines)}; separate its entries with ', ': "
        f"{fixed(without_comment(corrected))}",
        start[0],
        key_column,
    )


def quote_problem(lines: list[str], before: list[Any], found: Any | None) -> Said | None:
    """What is wrong when the parser stops just after a quoted value or a ``]``, if it does.

    A quote closed only on a later line (a closing quote left out, and the next quote in
    the file taken for it), an apostrophe inside single quotes, or text after the closing
    quote (``name: "test" x``) or bracket (``arr: [1] x``).
    """
    if not before or found is None:
        return None
    token = before[-1]
    if isinstance(token, _ENDS) and _end(token)[0] == _start(found)[0]:
        closer = str(token.id)
        return Said(
            f"text after the closing {closer}; put it inside the {'[' if closer == ']' else '{'} "
            f"{closer}, or remove it",
            *_start(found),
        )
    if not isinstance(token, ScalarToken) or token.style not in ("'", '"'):
        return None
    quote = str(token.style)
    start, end = _start(token), _end(token)
    if start[0] != end[0]:
        line = without_comment(lines[start[0]])
        return Said(
            f"the {quote} opened at {where(start, lines)} is closed only at "
            f"{where((end[0], end[1] - 1), lines)}; close it on line {start[0] + 1}: "
            f"{fixed(line + quote)}",
            *start,
        )
    if _start(found)[0] != end[0]:
        return None
    line = lines[start[0]]
    inside = line[start[1] + 1 : end[1] - 1]
    after = without_comment(line[end[1] :])
    if quote == "'" and after[:1].isalnum():
        meant = without_comment(line[start[1] + 1 :]).removesuffix("'")
        return Said(
            f"the ' at {where((end[0], end[1] - 1), lines)} ends the quoted text; inside "
            "single quotes write '' for ', or use double quotes: "
            f"{fixed(line[: start[1]] + chr(34) + meant + chr(34))}",
            end[0],
            end[1] - 1,
        )
    return Said(
        f"text after the closing {quote}; put all of the value inside the quotes: "
        f"{fixed(line[: start[1]] + quote + inside + after + quote)}",
        *_start(found),
    )
