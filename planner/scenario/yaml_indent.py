"""Hints for a mis-indented line: which line it is indented under or pulled back from.

ruamel reports a mis-indented key as "mapping values are not allowed here" or "expected
<block end>, but found ...", at the line where the parser gave up; the hints here name the
indentation and the lines involved, from the text's lines alone.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

from planner.scenario.errors import shown


class Hint(NamedTuple):
    """An indentation hint and the line it is about (0-based): the line to fix.

    ruamel reports where parsing failed, often the line after the mis-indented one (a
    newcomer's editor jumped to line 27 for a mistake on line 26); the error stands here.
    """

    text: str
    line: int


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


def _under_a_value(lines: list[str], index: int, above: int) -> Hint | None:
    """The hint for line ``index`` indented under line ``above`` if that has a value.

    Where line ``above`` is the odd one, the hint names it and a line to align it with:
    its indent off the file's step, line ``index``'s on it (a key pulled one space left:
    aligned with a sibling of its own kind); or pulled back out of the mapping it starts,
    into the column of the ``key:`` above it, which then has no value (aligned with line
    ``index``, the next key of that mapping). Pulled back between two keys of a mapping,
    it is named beside line ``index``, which may be the one pushed in.
    """
    entry = entry_with_value(lines[above])
    if entry is None:
        return None
    said = shown(entry, 40, quote=False)
    step = _indent_step(lines)
    if step and indent(lines[above]) % step and not indent(lines[index]) % step:
        spaces = indent(lines[above])
        sibling = _sibling(lines, above)
        return Hint(
            f"line {above + 1} ({said}) is indented {spaces} "
            f"space{'s' if spaces != 1 else ''}, the file's keys by {step}: indent it like "
            f"line {(index if sibling is None else sibling) + 1}",
            above,
        )
    before = line_above(lines, above)
    outside = None if before is None else _pulled_out(lines, index, above, before)
    if outside is not None:
        return outside
    return Hint(
        f"line {index + 1} is indented under line {above + 1} ({said}), which already has a "
        f"value: indent it {_like(lines, above)}",
        index,
    )


def _like(lines: list[str], line: int) -> str:
    """``like line 4``, or for a list item ``to column 5, like raid on line 11`` (its key)."""
    if not is_item(lines[line]):
        return f"like line {line + 1}"
    column = key_column(lines[line])
    key = lines[line][column:].split(":")[0]
    return f"to column {column + 1}, like {shown(key, 30, quote=False)} on line {line + 1}"


def _pulled_out(lines: list[str], index: int, above: int, before: int) -> Hint | None:
    """The hint for line ``above`` pulled back left of the mapping it belongs to.

    Line ``before`` is a ``key:`` with nothing after it in line ``above``'s column (its
    mapping's first key pulled back: ``drive:`` then ``model: x`` then ``  arr: 1%``), or a
    key in line ``index``'s column (a key between two of one mapping's keys).
    """
    here, there = indent(lines[index]), indent(lines[above])
    opens = not is_item(lines[before]) and entry_with_value(lines[before]) is None
    said = shown(lines[above].strip().split(" #")[0].rstrip(), 40, quote=False)
    if indent(lines[before]) == there and opens:
        key = shown(lines[before].strip().split(" #")[0], 30, quote=False)
        sibling = _sibling(lines, above, before)
        return Hint(
            f"line {above + 1} ({said}) is in the column of line {before + 1} ({key}), "
            f"which then has nothing under it: indent line {above + 1} like line "
            f"{(index if sibling is None else sibling) + 1}",
            above,
        )
    if indent(lines[before]) != here or is_item(lines[above]):
        return None
    after = _line_below(lines, index)
    if after is not None and indent(lines[after]) == here:  # the keys go on below: one slipped
        return Hint(
            f"line {above + 1} ({said}) is left of the keys around it (lines {before + 1} "
            f"and {index + 1}): indent it like line {index + 1}",
            above,
        )
    return Hint(
        f"line {index + 1} is indented under line {above + 1} ({said}), which already has a "
        f"value: indent line {above + 1} like line {before + 1} if it belongs with the keys "
        f"above it, else line {index + 1} like line {above + 1}",
        index,
    )


def _line_below(lines: list[str], index: int) -> int | None:
    """Index of the nearest line below ``index`` holding more than a comment, if any."""
    for below in range(index + 1, len(lines)):
        content = lines[below].strip()
        if content and not content.startswith("#"):
            return below
    return None


def is_item(line: str) -> bool:
    """Whether ``line`` is a list item (starts with ``- `` after its indent)."""
    return re.match(r"\s*-( |$)", line) is not None


def _sibling(lines: list[str], index: int, parent: int | None = None) -> int | None:
    """The nearest line of line ``index``'s kind (list item or key) at the level it belongs to.

    The level is the least indent of that kind under line ``index``'s parent (``parent``,
    else the nearest line above it indented less; for a list item, a line that is not
    one), skipping line
    ``index`` itself: ``- raid: raid10`` indented 1 space among items indented 2 gets the
    nearest of those, not the item's own next key.
    """
    here, item = indent(lines[index]), is_item(lines[index])
    if parent is None:
        parent = next(
            (
                i
                for i in range(index - 1, -1, -1)
                if _holds_more(lines[i])
                and indent(lines[i]) < here
                and not (item and is_item(lines[i]))
            ),
            None,
        )
    floor = -1 if parent is None else indent(lines[parent])
    block: list[int] = []
    for i in range((parent or -1) + 1, len(lines)):
        if i == index or not _holds_more(lines[i]):
            continue
        if indent(lines[i]) <= floor:
            break
        if is_item(lines[i]) == item:
            block.append(i)
    if not block:
        return None
    level = min(indent(lines[i]) for i in block)
    return min((i for i in block if indent(lines[i]) == level), key=lambda i: abs(i - index))


def _holds_more(line: str) -> bool:
    """Whether ``line`` holds more than a comment or blanks."""
    content = line.strip()
    return bool(content) and not content.startswith("#")


def _indent_step(lines: list[str]) -> int:
    """The file's indent step: the least indent that two or more keys use (0: none)."""
    used = Counter(
        indent(line) for line in lines if line.strip() and not line.lstrip().startswith("#")
    )
    steps = [indent for indent, count in used.items() if indent > 0 and count >= 2]
    return min(steps, default=0)


def indentation_hint(problem: str, index: int | None, lines: list[str]) -> Hint | None:
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
        return None
    above = line_above(lines, index)
    here = indent(lines[index])

    if problem.startswith("mapping values are not allowed"):
        hint = (
            _under_a_value(lines, index, above)
            if above is not None and here > indent(lines[above])
            else None
        )
        return hint
    if problem.startswith(("expected <block end>", "expected the node content")):
        mixed = _key_among_items(lines, index)
        if mixed:
            return mixed
    if above is None or not problem.startswith(
        ("expected <block end>", "expected '<document start>'")
    ):
        return None
    column = key_column(lines[above])
    if here < column and is_item(lines[index]):
        sibling = _sibling(lines, index)
        if sibling is not None and indent(lines[sibling]) != here:
            return Hint(
                f"check the indentation of line {index + 1} (its '- ' is in column {here + 1}, "
                f"line {sibling + 1}'s in column {indent(lines[sibling]) + 1}): the '- ' of one "
                "list's items start in one column",
                index,
            )
    if here < column:  # pulled back to no level
        return Hint(
            f"check the indentation of line {index + 1} (column {here + 1}; the key on line "
            f"{above + 1} is in column {column + 1}): keys of one mapping "
            "start in one column, and so do the '- ' of one list's items",
            index,
        )
    if here > column and "'<block mapping start>'" in problem:
        return _under_a_value(lines, index, above)
    if "found '-'" in problem:
        return _dash_pushed_in(lines, index, above) or _item_among_keys(lines, index)
    return None


def _dash_pushed_in(lines: list[str], index: int, above: int) -> Hint | None:
    """The hint for a list item's ``- `` pushed in to the column of the item above's keys."""
    here = indent(lines[index])
    if not lines[index].lstrip(" ").startswith("- "):
        return None
    item = next(
        (
            i
            for i in range(above, -1, -1)
            if lines[i].lstrip(" ").startswith("- ") and indent(lines[i]) < here
        ),
        None,
    )
    if item is None:
        return None
    return Hint(
        f"check the indentation of line {index + 1} (its '- ' is in column "
        f"{here + 1}, line {item + 1}'s in column {indent(lines[item]) + 1}): the "
        "'- ' of one list's items start in one column",
        index,
    )


def _owner(lines: list[str], index: int) -> int | None:
    """The nearest line above ``index`` (comments skipped) indented no deeper than it."""
    here = indent(lines[index])
    for above in range(index - 1, -1, -1):
        content = lines[above].strip()
        if content and not content.startswith("#") and indent(lines[above]) <= here:
            return above
    return None


def _key_among_items(lines: list[str], index: int) -> Hint | None:
    """The hint for a key in the column of the ``- `` of the list items above it.

    ``- raid: raid5`` then ``group_size: 8`` under its dash: the key was meant for the item
    (indent it like the item's first key), or the dash above was not meant at all.
    """
    line = lines[index]
    item = _owner(lines, index)
    if line.lstrip(" ").startswith("-") or item is None:
        return None
    if indent(lines[item]) != indent(line) or not re.match(r"-( |$)", lines[item].lstrip(" ")):
        return None
    entry = shown(lines[item].strip().split(" #")[0], 40, quote=False)
    content = shown(line.strip().split(" #")[0], 40, quote=False)
    if ":" in entry:  # an item that is a mapping: the key belongs to it, or the dash goes
        return Hint(
            f"line {index + 1} ({content}) starts in the column of the '- ' of line "
            f"{item + 1} ({entry}): indent it to column {key_column(lines[item]) + 1} if it "
            f"belongs to that item, or remove the '- ' if line {item + 1} is not a list item",
            index,
        )
    return Hint(
        f"line {index + 1} ({content}) starts in the column of the '- ' of line {item + 1} "
        f"({entry}): a list's items each start with '- ', so add one, or move the key to "
        "the column of the mapping it belongs to",
        index,
    )


def _item_among_keys(lines: list[str], index: int) -> Hint | None:
    """The hint for a ``- `` list item in the column of a mapping's keys."""
    owner = _owner(lines, index)
    if owner is None or indent(lines[owner]) != indent(lines[index]):
        return None
    if lines[owner].lstrip(" ").startswith("-"):
        return None
    content = shown(lines[index].strip().split(" #")[0], 40, quote=False)
    return Hint(
        f"line {index + 1} ({content}) is a list item ('- ') among the keys of a mapping "
        f"(line {owner + 1}: {shown(lines[owner].strip().split(' #')[0], 40, quote=False)}); "
        "write it as key: value, or put the list under a key of its own",
        index,
    )
