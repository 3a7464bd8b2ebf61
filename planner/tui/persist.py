"""Files the TUI writes: the table shown as Markdown, and the scenario back to its YAML file.

Saving edits the user's round-trip YAML document in place (:mod:`planner.scenario.save`
keeps comments, key order and quoting, and only touches values that changed), then replaces
the file atomically. The document is the one the app loaded (see :mod:`planner.tui.source`),
not the file on disk now.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from planner.analysis.compare import CompareData, SortKey, sorted_results, sorted_sized
from planner.report import sizing
from planner.report.comparison import notes, to_markdown
from planner.scenario import Plan, Scenario
from planner.scenario.edits import FieldPath
from planner.scenario.files import write_atomic
from planner.scenario.plan_save import updated_plan_text
from planner.scenario.save import updated_text
from planner.tui.source import ScenarioSource


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
    text = to_markdown(comparison, inputs.scenario, notes(data), inputs=inputs)
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
    return source.write(target, updated_text(document, source.text, original, scenario, typed))


def save_plan(
    plan: Plan,
    source: ScenarioSource,
    typed: dict[int, dict[FieldPath, Any]],
    target: Path,
) -> ScenarioSource:
    """:func:`save_scenario` for a plan: each tier's edits into the tier (``typed`` by tier).

    Raises:
        planner.scenario.ScenarioError: ``source``'s text does not validate (never expected).
        OSError: the file cannot be written.
    """
    original, document = source.plan()
    return source.write(target, updated_plan_text(document, source.text, original, plan, typed))
