"""Writing an edited scenario back into its YAML text, keeping the user's comments.

The user's round-trip document (ruamel.yaml) is edited in place: only values that changed
are touched, removed layouts are dropped and new ones appended, so comments, key order,
quoting and indentation survive. A value the user typed (``"4%"``) is written as typed.
"""

from __future__ import annotations

import itertools
from io import StringIO
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.tokens import CommentToken
from ruamel.yaml.util import load_yaml_guess_indent

from planner.scenario.document import new_yaml
from planner.scenario.edits import FieldPath, field_specs, value_at
from planner.scenario.schema import Scenario


def updated_text(
    document: CommentedMap,
    original_text: str,
    original: Scenario,
    scenario: Scenario,
    typed: dict[FieldPath, Any],
) -> str:
    """The YAML text of ``document`` (which validates to ``original``) edited to ``scenario``.

    Args:
        document: the round-trip document of ``original_text`` (edited in place).
        original_text: the text it was read from (its indentation is kept).
        original: the scenario the document validates to.
        scenario: the scenario to write.
        typed: the YAML value the user typed per field (``"4%"`` rather than 0.04), used for
            the fields that changed.
    """
    update_document(document, original, scenario, typed)
    return dump_like(document, original_text)


def update_document(
    document: CommentedMap,
    original: Scenario,
    scenario: Scenario,
    typed: dict[FieldPath, Any],
) -> None:
    """Change in ``document`` (which validates to ``original``) what differs in ``scenario``.

    The fields of both are looked at: a field the edit took away (a cleared drive price)
    is removed from the document too.
    """
    specs = {spec.path: spec for spec in (*field_specs(original), *field_specs(scenario))}
    for spec in specs.values():
        new = value_at(scenario, spec.path)
        if new == value_at(original, spec.path):
            continue
        parent = document
        outer: tuple[CommentedMap, str] | None = None
        added: tuple[CommentedMap, Any, Any] | None = None
        for part in spec.path[:-1]:
            if not isinstance(parent.get(part), CommentedMap):
                if new is None:
                    break  # nothing to remove
                added = added or added_key(parent, part)
                parent[part] = CommentedMap()
            outer = (parent, part)
            parent = parent[part]
        else:
            if new is None:
                remove_entry(parent, spec.path[-1], outer)
            else:
                added = added or added_key(parent, spec.path[-1])
                parent[spec.path[-1]] = typed.get(spec.path, new)
                if added is not None:
                    move_lines_after(*added)
    if list(scenario.layouts) != list(original.layouts):
        _update_layouts(document, original, scenario)
    if scenario.baseline != original.baseline:
        if scenario.baseline is None:
            remove_entry(document, "baseline")
        else:
            added = added_key(document, "baseline")
            document["baseline"] = scenario.baseline
            if added is not None:
                move_lines_after(*added)


def added_key(mapping: CommentedMap, key: Any) -> tuple[CommentedMap, Any, Any] | None:
    """(mapping, its last key, key) when setting ``mapping[key]`` adds a key after others."""
    if key in mapping or not mapping:
        return None
    return mapping, next(reversed(mapping)), key


def move_lines_after(mapping: CommentedMap, last: Any, key: Any) -> None:
    """Give the new last ``key`` of ``mapping`` the lines that followed ``last``.

    ruamel.yaml keeps the blank lines and comments that end a mapping (before the next
    section, or the next section's comment) with its last key's value. A key added after
    it would be written below them: inside the gap, with the next section right under it.
    Moved to the new key, they end the mapping as they did; ``last`` keeps its own
    end-of-line comment.
    """
    holder, index, slot = _end_slot(mapping, last)
    entry = holder.ca.items.get(index)
    token = entry[slot] if entry is not None and len(entry) > slot else None
    if token is None:
        return
    own, _, after = token.value.partition("\n")
    if not after:
        return  # only its own end-of-line comment: it stays
    mark = CommentMark(token.column)
    entry[slot] = CommentToken(own + "\n", mark, None) if own else None
    holder, index, slot = _end_slot(mapping, key)
    target = holder.ca.items.setdefault(index, [None, None, None, None])
    held = target[slot]
    if held is None:
        target[slot] = CommentToken("\n" + after, mark, None)
    else:  # the new key's own end-of-line comment first
        held.value = held.value.rstrip("\n") + "\n" + after


def remove_entry(
    container: CommentedMap | CommentedSeq,
    key: Any,
    outer: tuple[CommentedMap, str] | None = None,
) -> None:
    """Remove ``container[key]`` (a key, or a list item by index) and only its comment.

    An entry's comment is its end-of-line comment and the comment lines directly above it
    (no blank line between). ruamel.yaml keeps the lines above an entry at the end of what
    comes before it: the previous entry's last line or, for the first entry, the list of
    lines opening the mapping or list (held by ``outer``, its parent and key, when it is
    nested). The lines after the entry (blank lines, the next entry's comment, which
    ruamel.yaml keeps with the entry's last line) are kept where its lines above were.
    """
    if isinstance(container, CommentedMap):
        if key not in container:
            return
        keys = list(container)
        position = keys.index(key)
        previous = keys[position - 1] if position > 0 else None
    else:
        if not 0 <= key < len(container):
            return
        position = key
        previous = key - 1 if key > 0 else None
    after = _lines_after(container, key)
    del container[key]  # a list moves its later items' comments down one index
    if isinstance(container, CommentedMap):
        container.ca.items.pop(key, None)
    if previous is not None:
        holder, index, slot = _end_slot(container, previous)
        entry = holder.ca.items.setdefault(index, [None, None, None, None])
        token = entry[slot]
        own, _, above = (token.value if token is not None else "\n").partition("\n")
        lines = _joined(_without_own_comment(above.splitlines(keepends=True)), after, position)
        value = own + "\n" + "".join(lines)
        if value == "\n":
            entry[slot] = None
        elif token is None:
            entry[slot] = CommentToken(value, CommentMark(0), None)
        else:
            token.value = value
        return
    tokens = _opening_comment(container, outer)
    if tokens is None:
        if not any(line.strip() for line in after):
            return
        tokens = []
        if outer is None:
            container.ca.comment = [None, tokens]
        else:
            outer[0].ca.items.setdefault(outer[1], [None, None, None, None])[3] = tokens
    lines = _joined(_without_own_comment(_token_lines(tokens)), after, position)
    tokens[:] = _line_tokens(lines)


def _end_slot(container: CommentedMap | CommentedSeq, key: Any) -> tuple[Any, Any, int]:
    """Where ruamel.yaml keeps the lines after ``container[key]``: (holder, index, slot)."""
    value = container[key]
    if isinstance(value, CommentedMap | CommentedSeq) and value and not value.fa.flow_style():
        last = next(reversed(value)) if isinstance(value, CommentedMap) else len(value) - 1
        return _end_slot(value, last)
    return container, key, 2 if isinstance(container, CommentedMap) else 0


def _lines_after(container: CommentedMap | CommentedSeq, key: Any) -> list[str]:
    """The lines after ``container[key]`` and its end-of-line comment.

    ruamel.yaml keeps them with its last line: blank lines and the next key's comment.
    """
    holder, index, slot = _end_slot(container, key)
    entry = holder.ca.items.get(index)
    token = entry[slot] if entry is not None and len(entry) > slot else None
    if token is None:
        return []
    text: str = token.value
    return text.partition("\n")[2].splitlines(keepends=True)


def _without_own_comment(lines: list[str]) -> list[str]:
    """``lines`` (the lines above a key) without the comment lines directly above the key."""
    end = len(lines)
    while end and lines[end - 1].lstrip().startswith("#"):
        end -= 1
    return lines[:end]


def _joined(above: list[str], after: list[str], position: int) -> list[str]:
    """The lines above a removed key followed by the lines after it, one gap between.

    At the end of a mapping with nothing after, the blank lines above go too (the file or
    the mapping no longer ends with a gap the key had before it).
    """
    if not after:
        while above and not above[-1].strip():
            above = above[:-1]
        return above if position > 0 or any(line.strip() for line in above) else []
    if above and not above[-1].strip() and not after[0].strip():
        above = above[:-1]
    return above + after


def _opening_comment(
    container: CommentedMap | CommentedSeq, outer: tuple[CommentedMap, str] | None
) -> Any:
    """The comment tokens before ``container``'s first entry, as ruamel.yaml writes them."""
    if outer is not None:
        entry = outer[0].ca.items.get(outer[1])
        if entry is not None and len(entry) > 3 and isinstance(entry[3], list):
            return entry[3]
        return None
    comment = container.ca.comment
    if comment and len(comment) > 1 and isinstance(comment[1], list):
        return comment[1]
    return None


def _token_lines(tokens: list[Any]) -> list[str]:
    """Comment tokens (one comment line each, then any blank lines) as indented lines."""
    lines = []
    for token in tokens:
        for line in token.value.splitlines(keepends=True):
            lines.append(" " * token.column + line.lstrip(" ") if line.strip() else "\n")
    return lines


def _line_tokens(lines: list[str]) -> list[CommentToken]:
    """Indented lines as comment tokens, each blank line joined to the token before it."""
    tokens: list[CommentToken] = []
    for line in lines:
        if line.strip():
            column = len(line) - len(line.lstrip(" "))
            tokens.append(CommentToken(line.lstrip(" "), CommentMark(column), None))
        elif tokens:
            tokens[-1].value += "\n"
        else:
            tokens.append(CommentToken("\n", CommentMark(0), None))
    return tokens


def _update_layouts(document: CommentedMap, original: Scenario, scenario: Scenario) -> None:
    """Drop removed layouts with their comments, append new ones; the rest keep theirs."""
    items = document.get("layouts")
    if not isinstance(items, CommentedSeq):
        items = document["layouts"] = CommentedSeq()
    wanted = {layout.label for layout in scenario.layouts}
    old_labels = [layout.label for layout in original.layouts]
    for index in range(len(old_labels) - 1, -1, -1):
        if old_labels[index] not in wanted and index < len(items):
            remove_entry(items, index, (document, "layouts"))
    for layout in scenario.layouts:
        if layout.label in old_labels:
            continue
        entry = CommentedMap()
        if layout.raid is not None:
            entry["raid"] = layout.raid
        else:
            entry["parity"] = layout.parity
        if layout.data is not None:
            entry["data"] = layout.data
            entry["children"] = layout.group_size
            entry["spares"] = layout.spares or 0
            default_label = f"{layout.raid}:{layout.data}d:{layout.group_size}c:{layout.spares}s"
        else:
            entry["group_size"] = layout.group_size
            default_label = f"{layout.raid or f'n+{layout.parity}'} {layout.group_size}"
        if layout.label != default_label:
            entry["label"] = layout.label
        if items and isinstance(items[-1], CommentedMap):
            _move_trailing_lines(items[-1], entry)
        items.append(entry)


def _move_trailing_lines(last: CommentedMap, target: CommentedMap) -> None:
    """Give ``target`` the lines that followed ``last``, which will no longer be last.

    ruamel.yaml keeps the blank lines and comments after a sequence's last item (those
    before ``baseline:``) in the comment of that item's last key, after its own end-of-line
    comment. A layout appended after it would be written below them, apart from the key
    they describe. Moved to the new last layout, they follow it as they followed the old
    one (:func:`remove_entry` does the same for a removed last layout).
    """
    key = next(reversed(last), None)
    slot: list[Any] | None = None if key is None else last.ca.items.get(key)
    if slot is None or len(slot) < 3 or slot[2] is None or "\n" not in slot[2].value:
        return
    token = slot[2]
    own, _, after = token.value.partition("\n")
    if not after:
        return  # only the key's own end-of-line comment: it stays
    mark = CommentMark(token.column)
    slot[2] = CommentToken(own + "\n", mark, None) if own else None
    target_key = next(reversed(target))
    target_slot = target.ca.items.setdefault(target_key, [None, None, None, None])
    held = target_slot[2]
    if held is None:
        target_slot[2] = CommentToken("\n" + after, mark, None)
    else:  # the target's own end-of-line comment first
        held.value = held.value.rstrip("\n") + "\n" + after


def dump_like(document: CommentedMap, original_text: str) -> str:
    """``document`` as YAML text indented the way ``original_text`` was."""
    yaml = new_yaml()
    _, sequence_indent, offset = load_yaml_guess_indent(original_text)
    mapping = _mapping_indent(original_text)
    if sequence_indent is not None and offset is not None:
        yaml.indent(mapping=mapping, sequence=sequence_indent, offset=offset)
    else:
        yaml.indent(mapping=mapping, sequence=mapping + 2, offset=mapping)
    yaml.width = 4096  # never re-wrap the user's long lines
    buffer = StringIO()
    yaml.dump(document, buffer)
    return buffer.getvalue()


def _mapping_indent(text: str) -> int:
    """Spaces a nested mapping is indented by in ``text`` (2 when it has none)."""
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    for line, following in itertools.pairwise(lines):
        if line.rstrip().endswith(":") and not following.lstrip().startswith("- "):
            depth = len(line) - len(line.lstrip())
            inner = len(following) - len(following.lstrip())
            if inner > depth:
                return inner - depth
    return 2
