"""Render a comparison in the format the user asked for."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from planner.cli.output import Format, emit

if TYPE_CHECKING:
    from planner.core.layouts import Comparison
    from planner.scenario import Scenario


def render_comparison(
    scenario: Scenario, comparison: Comparison, output_format: Format, output: Path | None
) -> None:
    """Print or write ``comparison`` as a Rich table, Markdown, CSV or JSON."""
    from planner.report import comparison as report

    if output_format is Format.table and output is None:
        _print_table(scenario, comparison)
        return
    if output_format is Format.table:
        text = _plain_table_text(scenario, comparison)
    elif output_format is Format.markdown:
        text = report.to_markdown(comparison, scenario.name, scenario.mission_years)
    elif output_format is Format.csv:
        text = report.to_csv(comparison)
    else:
        text = report.to_json(comparison, scenario.name)
    emit(text, output, f"{output_format.value} output")


def _print_table(scenario: Scenario, comparison: Comparison) -> None:
    from rich.console import Console

    from planner.report.comparison import notes, to_rich_table

    console = Console(highlight=False)
    console.print(to_rich_table(comparison, scenario.name, max_width=console.width))
    for note in notes(comparison, scenario.mission_years):
        console.print(note, style="dim", markup=False)


def _plain_table_text(scenario: Scenario, comparison: Comparison) -> str:
    """The table as plain text without colour codes, for a file."""
    from rich.console import Console

    from planner.report.comparison import notes, to_rich_table

    console = Console(width=200, color_system=None, force_terminal=False, highlight=False)
    with console.capture() as capture:
        console.print(to_rich_table(comparison, scenario.name))
        for note in notes(comparison, scenario.mission_years):
            console.print(note, markup=False)
    return capture.get()
