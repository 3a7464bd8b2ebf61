"""Hints for a mis-indented line: which line it is indented under or pulled back from.

ruamel reports a mis-indented key as "mapping values are not allowed here" or "expected
<block end>, but found ...", at the line where the parser gave up; the hints here name the
indentation and the lines involved, from the text's lines alone.
"""

from __future__ import annotations

import re
from collections import Counter

from planner.scenario.errors import shown


def indent(line: str) -> int:
    """How many spaces ``line`` starts with."""
    return len(line) - len(line.lstrip(" "))


def key_column(line: str) -> int:
    """0-based column of the line's first key: after the indent and any list dashes."""
    column = indent(line)
    while line[column : column + 2] == "- ":
        column += 2
        column += indent(line[column:])
    return column


def line_above(lines: list[str], index: int) -> int | None:
    """Index of the nearest line above ``index`` holding more than a comment, if any."""
    for above in range(index - 1, -1, -1):
        content = lines[above].strip()
        if content and not content.startswith("#"):
            return above
    return None


def entry_with_value(line: str) -> str | None:
    """The line without its indent and trailing comment if it holds ``key: value``.

    None when it has no value (``key:``, or only a comment after the colon).
    """
    entry = line.strip().split(" #")[0].rstrip()
    _, colon, value = entry.partition(": ")
    value = value.strip()
    return entry if colon and value and not value.startswith("#") else None


def _under_a_value(lines: list[str], index: int, above: int) -> str:
    """The hint for line ``index`` indented under line ``above`` if that has a value.

    Where line ``above`` is the odd one (its indent off the file's step, line ``index``'s
    on it: a key pulled one space left), the hint names it rather than the line after it.
    """
    entry = entry_with_value(lines[above])
    if entry is None:
        return ""
    step = _indent_step(lines)
    if step and indent(lines[above]) % step and not indent(lines[index]) % step:
        spaces = indent(lines[above])
        return (
            f"line {above + 1} ({shown(entry, 40, quote=False)}) is indented {spaces} "
            f"space{'s' if spaces != 1 else ''}, the file's keys by {step}: indent it like "
            f"line {index + 1}"
        )
    return (
        f"line {index + 1} is indented under line {above + 1} "
        f"({shown(entry, 40, quote=False)}), which already has a value: indent it "
        f"like line {above + 1}"
    )


def _indent_step(lines: list[str]) -> int:
    """The file's indent step: the least indent that two or more keys use (0: none)."""
    used = Counter(
        indent(line) for line in lines if line.strip() and not line.lstrip().startswith("#")
    )
    steps = [indent for indent, count in used.items() if indent > 0 and count >= 2]
    return min(steps, default=0)


def indentation_hint(problem: str, index: int | None, lines: list[str]) -> str:
    """What to fix when ruamel's ``problem`` at line ``index`` (0-based) is indentation.

    "mapping values are not allowed here": a ``key:`` where no mapping can start, mostly a
    key indented under a ``key: value`` line (or a value holding ": "). "expected <block
    end>, but found ...": a line pulled back to a column no level above it uses, or (when a
    comment line or a trailing comment has ended the value above, so that the line cannot
    continue it) a key indented under a ``key: value`` line; a key in the column of the
    ``- `` of the list item above it (also "expected the node content"); a ``- `` item in
    the column of a mapping's keys. "expected '<document start>'": a top-level key pulled
    back from a first key that was indented.

    Comment lines and blank lines are skipped when finding the line above.
    """
    if index is None or index >= len(lines):
        return ""
    above = line_above(lines, index)
    here = indent(lines[index])

    if problem.startswith("mapping values are not allowed"):
        hint = (
            _under_a_value(lines, index, above)
            if above is not None and here > indent(lines[above])
            else ""
        )
        return hint
    if problem.startswith(("expected <block end>", "expected the node content")):
        mixed = _key_among_items(lines, index)
        if mixed:
            return mixed
    if above is None or not problem.startswith(
        ("expected <block end>", "expected '<document start>'")
    ):
        return ""
    column = key_column(lines[above])
    if here < column:  # pulled back to no level
        return (
            f"check the indentation of line {index + 1} (column {here + 1}; the key on line "
            f"{above + 1} is in column {column + 1}): keys of one mapping "
            "start in one column, and so do the '- ' of one list's items"
        )
    if here > column and "'<block mapping start>'" in problem:
        return _under_a_value(lines, index, above)
    if "found '-'" in problem:
        return _dash_pushed_in(lines, index, above) or _item_among_keys(lines, index)
    return ""


def _dash_pushed_in(lines: list[str], index: int, above: int) -> str:
    """The hint for a list item's ``- `` pushed in to the column of the item above's keys."""
    here = indent(lines[index])
    if not lines[index].lstrip(" ").startswith("- "):
        return ""
    item = next(
        (
            i
            for i in range(above, -1, -1)
            if lines[i].lstrip(" ").startswith("- ") and indent(lines[i]) < here
        ),
        None,
    )
    if item is None:
        return ""
    return (
        f"check the indentation of line {index + 1} (its '- ' is in column "
        f"{here + 1}, line {item + 1}'s in column {indent(lines[item]) + 1}): the "
        "'- ' of one list's items start in one column"
    )


def _owner(lines: list[str], index: int) -> int | None:
    """The nearest line above ``index`` (comments skipped) indented no deeper than it."""
    here = indent(lines[index])
    for above in range(index - 1, -1, -1):
        content = lines[above].strip()
        if content and not content.startswith("#") and indent(lines[above]) <= here:
            return above
    return None


def _key_among_items(lines: list[str], index: int) -> str:
    """The hint for a key in the column of the ``- `` of the list items above it.

    ``- raid: raid5`` then ``group_size: 8`` under its dash: the key was meant for the item
    (indent it like the item's first key), or the dash above was not meant at all.
    """
    line = lines[index]
    item = _owner(lines, index)
    if line.lstrip(" ").startswith("-") or item is None:
        return ""
    if indent(lines[item]) != indent(line) or not re.match(r"-( |$)", lines[item].lstrip(" ")):
        return ""
    entry = shown(lines[item].strip().split(" #")[0], 40, quote=False)
    content = shown(line.strip().split(" #")[0], 40, quote=False)
    if ":" in entry:  # an item that is a mapping: the key belongs to it, or the dash goes
        return (
            f"line {index + 1} ({content}) starts in the column of the '- ' of line "
            f"{item + 1} ({entry}): indent it to column {key_column(lines[item]) + 1} if it "
            f"belongs to that item, or remove the '- ' if line {item + 1} is not a list item"
        )
    return (
        f"line {index + 1} ({content}) starts in the column of the '- ' of line {item + 1} "
        f"({entry}): a list's items each start with '- ', so add one, or move the key to "
        "the column of the mapping it belongs to"
    )


def _item_among_keys(lines: list[str], index: int) -> str:
    """The hint for a ``- `` list item in the column of a mapping's keys."""
    owner = _owner(lines, index)
    if owner is None or indent(lines[owner]) != indent(lines[index]):
        return ""
    if lines[owner].lstrip(" ").startswith("-"):
        return ""
    content = shown(lines[index].strip().split(" #")[0], 40, quote=False)
    return (
        f"line {index + 1} ({content}) is a list item ('- ') among the keys of a mapping "
        f"(line {owner + 1}: {shown(lines[owner].strip().split(' #')[0], 40, quote=False)}); "
        "write it as key: value, or put the list under a key of its own"
    )
