"""Files the TUI writes: the comparison as Markdown, and the scenario back to its YAML file.

Saving edits the user's round-trip YAML document in place (ruamel keeps comments, key order
and quoting) and only touches values that changed, then replaces the file atomically. The
document is the one the app loaded (see :mod:`planner.tui.source`), not the file on disk now.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from io import StringIO
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.util import load_yaml_guess_indent

from planner.analysis.compare import CompareData, SortKey, sorted_results, sorted_sized
from planner.files import write_atomic
from planner.report import sizing
from planner.report.comparison import to_markdown
from planner.scenario import Scenario
from planner.scenario.document import new_yaml
from planner.tui.source import ScenarioSource
from planner.tui.state import FieldPath, field_specs, value_at


def markdown_path(scenario_path: Path | None, kind: str = "comparison") -> Path:
    """Where the Markdown export goes: ``<scenario>-<kind>.md`` beside the file, or cwd."""
    if scenario_path is None:
        return Path.cwd() / f"planner-{kind}.md"
    return scenario_path.with_name(f"{scenario_path.stem}-{kind}.md")


def export_table(
    data: CompareData, showing_sizing: bool, sort_key: SortKey, scenario_path: Path | None
) -> tuple[str, Path]:
    """Export the table the compare view shows, in its on-screen order, as Markdown.

    The sizing when it is shown, else the comparison; the same Markdown as ``planner size``
    or ``planner evaluate --format markdown``, inputs included.

    Returns:
        What was exported (``"sizing"`` or ``"comparison"``) and the file written.
    """
    if showing_sizing and data.sizing is not None:
        order = [s.result for s in sorted_sized(data.sized_rows(), sort_key)]
        target = markdown_path(scenario_path, "sizing")
        write_atomic(target, sizing.to_markdown(replace(data.sizing, results=tuple(order))))
        return "sizing", target
    comparison = replace(data.comparison, results=tuple(sorted_results(data.comparison, sort_key)))
    inputs = data.inputs
    target = markdown_path(scenario_path)
    text = to_markdown(comparison, inputs.scenario, inputs.mission_years, data.notes, inputs=inputs)
    write_atomic(target, text)
    return "comparison", target


def save_scenario(
    scenario: Scenario,
    source: ScenarioSource,
    typed: dict[FieldPath, Any],
    target: Path,
) -> ScenarioSource:
    """Write ``scenario`` into the YAML of ``source`` at ``target``, keeping comments and order.

    The document edited is ``source``'s (what the app loaded or last saved), not the file on
    disk now, which may have been edited since into something that no longer validates.
    ``typed`` holds the YAML values the user typed per field (``"4%"`` rather than 0.04), used
    for the fields that changed. Returns the source now on disk.

    Raises:
        planner.scenario.ScenarioError: ``source``'s text does not validate (never expected).
        OSError: the file cannot be written.
    """
    original, document = source.document()
    update_document(document, original, scenario, typed)
    return source.write(target, dump_like(document, source.text))


def update_document(
    document: CommentedMap,
    original: Scenario,
    scenario: Scenario,
    typed: dict[FieldPath, Any],
) -> None:
    """Change in ``document`` (which validates to ``original``) what differs in ``scenario``."""
    for spec in field_specs(scenario):
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
            del items[index]
    for layout in scenario.layouts:
        if layout.label in old_labels:
            continue
        entry = CommentedMap()
        if layout.raid is not None:
            entry["raid"] = layout.raid
        else:
            entry["parity"] = layout.parity
        entry["group_size"] = layout.group_size
        default_label = f"{layout.raid or f'n+{layout.parity}'} {layout.group_size}"
        if layout.label != default_label:
            entry["label"] = layout.label
        items.append(entry)


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
