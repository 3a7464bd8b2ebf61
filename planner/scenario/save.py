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
        for part in spec.path[:-1]:
            if not isinstance(parent.get(part), CommentedMap):
                parent[part] = CommentedMap()
            parent = parent[part]
        if new is None:
            parent.pop(spec.path[-1], None)
        else:
            parent[spec.path[-1]] = typed.get(spec.path, new)
    if list(scenario.layouts) != list(original.layouts):
        _update_layouts(document, original, scenario)
    if scenario.baseline != original.baseline:
        if scenario.baseline is None:
            document.pop("baseline", None)
        else:
            document["baseline"] = scenario.baseline


def _update_layouts(document: CommentedMap, original: Scenario, scenario: Scenario) -> None:
    """Drop removed layouts and append new ones; kept entries keep their comments."""
    items = document.get("layouts")
    if not isinstance(items, CommentedSeq):
        items = document["layouts"] = CommentedSeq()
    wanted = {layout.label for layout in scenario.layouts}
    old_labels = [layout.label for layout in original.layouts]
    for index in range(len(old_labels) - 1, -1, -1):
        if old_labels[index] not in wanted and index < len(items):
            if index == len(items) - 1 and index > 0:
                _move_trailing_lines(items[index], items[index - 1])
            del items[index]
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
    they describe; a removed last layout would take them with it. Moved to the new last
    layout, they follow it as they followed the old one.
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
