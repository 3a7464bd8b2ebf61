"""``planner fit LOG.csv``: the failure rates, Weibull lifetime and degraded multiplier of a log."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from planner.cli.options import FormatOption, OutputOption, chosen_format, scenario_name
from planner.cli.output import Format, emit, fail

if TYPE_CHECKING:
    from rich.table import Table

    from planner.analysis.fleet_fit import FleetFit

LogArgument = Annotated[
    Path,
    typer.Argument(
        help="Failure log (CSV with a header): hours and failed (1/0) per drive, optionally "
        "model, group and installed_at_hours (docs/fit.md).",
        show_default=False,
        dir_okay=False,
        callback=scenario_name,
    ),
]
WindowOption = Annotated[
    float,
    typer.Option(
        "--window-hours",
        min=0.01,
        max=1e6,
        help="How long a group counts as degraded after a failure, for the degraded "
        "multiplier (hours: the time from a failure to its rebuild being done).",
    ),
]


def fit(
    log: LogArgument,
    output_format: FormatOption = None,
    output: OutputOption = None,
    window_hours: WindowOption = 168.0,
) -> None:
    """Fit your fleet's failure log: ARR, Weibull shape and scale, ARR by year, and more."""
    output_format = chosen_format(output_format, output)
    import importlib.util

    from planner.analysis.fleet_fit import LIFELINES_MISSING, fit_fleet
    from planner.scenario.errors import ScenarioError
    from planner.scenario.fleet_log import read_fleet_log

    if importlib.util.find_spec("lifelines") is None:
        fail(LIFELINES_MISSING)
    try:
        result = fit_fleet(read_fleet_log(log), window_hours)
    except ScenarioError as err:
        fail(str(err))
    render_fit(result, output_format, output)


def render_fit(result: FleetFit, output_format: Format, output: Path | None) -> None:
    """Print or write ``result`` as a table with the snippets, Markdown, CSV or JSON."""
    from planner.cli.output import write_stdout
    from planner.cli.render import plain_table_text, print_table
    from planner.report import fleet_fit as render

    def table(width: int | None) -> Table:
        return render.to_rich_table(result, width)

    if output_format is Format.table:
        if output is None:
            print_table(table, render.notes(result))
            write_stdout(render.snippets_text(result))
            return
        text = plain_table_text(table, render.notes(result)) + render.snippets_text(result)
        emit(text, output, "table output")
        return
    texts = {
        Format.markdown: render.to_markdown,
        Format.csv: render.to_csv,
        Format.json: render.to_json,
    }
    emit(texts[output_format](result), output, f"{output_format.value} output")
