"""``planner size``: disks each layout needs for the scenario's workload, and their risk."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from planner.cli.output import Format, fail, load

if TYPE_CHECKING:
    from planner.analysis.sizing_report import SizingReport


def run_size(
    file: Path | None,
    output_format: Format,
    output: Path | None,
    overrides: list[str] | None,
    tier: str | None = None,
) -> None:
    """Load the scenario, size every layout, print or write the report; exit 2 on bad input."""
    from planner.analysis.inputs import scenario_inputs
    from planner.analysis.sizing_report import NO_WORKLOAD, sizing_report

    scenario = load(file, overrides, tier)
    report = sizing_report(scenario, scenario_inputs(scenario, overrides or ()))
    if report is None:
        where = str(file) if file is not None else "<default scenario>"
        fail(f"{where}: {NO_WORKLOAD}")
    render_sizing(report, output_format, output)


def render_sizing(report: SizingReport, output_format: Format, output: Path | None) -> None:
    """Print or write ``report`` as a Rich table, Markdown, CSV or JSON."""
    from planner.cli.render import render_report, texts_of
    from planner.report import sizing as render

    render_report(
        output_format,
        output,
        lambda width: render.to_rich_table(report, max_width=width),
        render.notes(report),
        texts_of(render, report),
    )
