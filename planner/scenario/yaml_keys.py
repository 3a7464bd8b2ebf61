"""Keys and colons: a missing colon, a colon with no space after it, a ': ' inside a value.

ruamel reports these as "mapping values are not allowed here" or "could not find expected
':'", often on the line after the mistake: without ``: `` (``arr:1.9%``, ``arr 1.9%``) a
line is text, and YAML reads the next line as more of that text, up to the next colon.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from planner.scenario.errors import shown
from planner.scenario.yaml_indent import (
    indent,
    indentation_hint,
    key_column,
    line_above,
)
from planner.scenario.yaml_said import (
    Said,
    Syntax,
    fixed,
    on_that_line,
    quoted,
    where,
    without_comment,
)

_NO_SPACE = re.compile(r"^([^\s:#'\"]+):([^\s:].*)$")
"""``arr:1.9%``: a key, a colon, and a value with no space between them."""

_WORD = re.compile(r"^[A-Za-z_][\w.-]*$")


def space_after_colon(text: str) -> str | None:
    """``arr: 1.9%`` for ``arr:1.9%``; None if ``text`` is not a key and value so run on."""
    found = _NO_SPACE.match(text.strip())
    return f"{found[1]}: {found[2]}" if found else None


def colon_problem(syntax: Syntax) -> Said | None:
    """A ``key:`` where no key can start ("mapping values are not allowed here").

    In turn: a ``-`` with no space after it above; a second ``: `` on a line (several keys
    on one line, or a value holding ``: ``); a key indented under a ``key: value`` line; a
    line above without ``: ``, read as text running on to this line.
    """
    if not syntax.problem.startswith("mapping values are not allowed") or not syntax.spot:
        return None
    number, column = syntax.spot
    lines = syntax.lines
    line = syntax.line(number)
    above = line_above(lines, number)
    if above is not None and re.match(r"^\s*-[^\s-].*: ", lines[above]):
        dash = indent(lines[above])
        corrected = lines[above][: dash + 1] + " " + lines[above][dash + 1 :]
        return Said(
            f"line {above + 1} needs a space after its '-': {fixed(without_comment(corrected))}",
            above,
            dash,
        )
    start = key_column(line)
    key, colon, value = line[start:column].partition(": ")
    if colon and key.strip() and not line[start:].startswith(("'", '"', "{", "[")):
        prefix = line[:start]
        if re.search(r",\s*\S+$", value):
            return Said(
                "several keys on one line go in braces: "
                f"{fixed(prefix + '{' + without_comment(line[start:]) + '}')}; or put each "
                "key on a line of its own",
                *syntax.spot,
            )
        rest = without_comment(line[start + len(key) + 2 :]).strip()
        return Said(
            f"a value that contains ': ' goes in quotes: {fixed(f'{prefix}{key}: {quoted(rest)}')}"
            "; a new key goes on a line of its own",
            *syntax.spot,
        )
    hint = indentation_hint(syntax.problem, number, lines)
    if hint is not None:
        return Said(hint.text, hint.line, indent(lines[hint.line]))
    if above is not None and indent(lines[above]) <= indent(line):
        run_on = _run_on(lines, above, number)
        if run_on is not None:
            return run_on
    return Said(
        "a ':' where no key can start; put a value that contains ': ' in quotes, or indent "
        "this key like the key above",
        *syntax.spot,
    )


def _run_on(lines: list[str], above: int, number: int) -> Said | None:
    """Line ``above`` has no ``: `` and runs on to line ``number``: what it should say."""
    text = without_comment(lines[above]).strip()
    if not text[:1].isalnum() or text.endswith(":") or ": " in text:
        return None
    start = indent(lines[above])
    corrected = space_after_colon(text)
    if corrected is not None:
        return Said(
            f"line {above + 1} needs a space after its colon: {fixed(corrected)}",
            above,
            start + text.index(":"),
        )
    return Said(
        f"line {above + 1} ({shown(text, 40, quote=False)}) has no ': ', so YAML reads it as "
        f"text going on to line {number + 1}; write it as {_as_key(text)}",
        above,
        start,
    )


def _as_key(text: str) -> str:
    """``key: value`` for a line that lacks its colon (``arr 1.9%``: ``arr: 1.9%``)."""
    first, _, rest = text.partition(" ")
    if rest and _WORD.match(first):
        return f"key: value, e.g. {fixed(f'{first}: {rest.strip()}')}"
    if _WORD.match(text):
        return f"{text}: followed by its value"
    return "key: value"


def no_colon(syntax: Syntax) -> Said | None:
    """A line read as a key with no colon after it ("could not find expected ':'")."""
    if not syntax.problem.startswith("could not find expected ':'") or syntax.opened is None:
        return None
    number, column = syntax.opened
    text = without_comment(syntax.line(number)[column:]).strip()
    if not text:
        return None
    corrected = space_after_colon(text)
    if corrected is not None:
        return Said(
            f"line {number + 1} needs a space after its colon: {fixed(corrected)}",
            number,
            column + text.index(":"),
        )
    if text[:1] in ("[", "{"):  # a [ or { opened there runs on to the next line
        closer = "]" if text[0] == "[" else "}"
        return Said(
            f"the {text[0]} opened at {where(syntax.opened, syntax.lines)} is not closed; "
            f"close it{on_that_line(syntax.lines)}: "
            f"{fixed(without_comment(syntax.line(number)) + closer)}",
            *syntax.opened,
        )
    if ":" in text:
        return Said(
            f"line {number + 1} ({shown(text, 40, quote=False)}) is not a key: value line "
            "YAML can read: write a plain name, then ': ' and the value",
            *syntax.opened,
        )
    return Said(
        f"line {number + 1} ({shown(text, 40, quote=False)}) has no ':'; a mapping holds key: "
        f"value lines: write it as {_as_key(text)}",
        *syntax.opened,
    )


def missing_colon(text: str, keys: Sequence[str] = ()) -> str | None:
    """What to write for a section read as the text ``text``: a key whose ':' is missing.

    ``aggregate:`` with ``data_disks 20`` below it is valid YAML, the text 'data_disks 20'
    where a mapping belongs; the line meant is ``data_disks: 20``. Lines below it without
    their ':' either are read on into the same text: a word of ``keys`` (the section's keys)
    ends the first one's value. None when ``text`` does not start with a name and a value.
    """
    first, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if not rest or not _WORD.match(first):
        return None
    words = rest.split()
    ends = next((i for i, word in enumerate(words) if i and word in keys), len(words))
    value = " ".join(words[:ends])
    below = "; the lines below it need theirs too" if ends < len(words) else ""
    return (
        f"a ':' is missing after {first}, so YAML reads {shown(text.strip(), 40)} as text, "
        f"not a key: write {fixed(f'{first}: {value}')}{below}"
    )
