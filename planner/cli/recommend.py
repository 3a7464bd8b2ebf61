"""``planner recommend``: the cheapest layout that meets the scenario's target, and the front."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Annotated

import typer

from planner.cli.options import FormatOption, OutputOption, ScenarioFile, SetOption
from planner.cli.output import Format, emit, fail, load, write_stdout

TopOption = Annotated[
    int,
    typer.Option("--top", min=1, max=10_000, help="Candidates meeting the target to list."),
]


def recommend(
    file: ScenarioFile = None,
    output_format: FormatOption = Format.table,
    output: OutputOption = None,
    overrides: SetOption = None,
    top: TopOption = 10,
) -> None:
    """Find the cheapest layout that meets the scenario's target, and the cost/risk front.

    Searches mirrors, parity groups of every size and (optionally) dRAID pools, each sized
    for the scenario and evaluated exactly. The scenario needs a target: section (README:
    Recommend). Exit 2 when nothing meets the target; the output then shows the closest
    layout and what it misses.
    """
    from planner.analysis.recommend import RecommendError, recommendation
    from planner.report import recommend as render
    from planner.report.recommend import describe_misses

    scenario = load(file, overrides)
    where = str(file) if file is not None else "<default scenario>"
    try:
        report = recommendation(scenario, overrides=overrides or ())
    except RecommendError as error:
        fail(f"{where}: {error}")
    if output_format is Format.table:
        if output is None:
            _print(render.to_rich(report, top, _width()))
        else:
            emit(_plain(render.to_rich(report, top, None)), output, "table output")
    elif output_format is Format.markdown:
        emit(render.to_markdown(report, top), output, "markdown output")
    elif output_format is Format.csv:
        emit(render.to_csv(report, top), output, "csv output")
    else:
        emit(render.to_json(report, top), output, "json output")
    if report.top is None:
        closest = report.closest
        detail = (
            ""
            if closest is None
            else (
                f"; closest: {closest.layout.label}, which misses {describe_misses(closest.misses)}"
            )
        )
        fail(f"{where}: no layout meets the target{detail}")


def _width() -> int | None:
    from rich.console import Console

    console = Console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        return None
    return console.width


def _print(parts: Sequence[object]) -> None:
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        write_stdout(_plain(parts))
        return
    for part in parts:
        console.print(part)


def _plain(parts: Sequence[object]) -> str:
    from rich.console import Console
    from rich.table import Table

    # As wide as the widest table needs, so no cell is cut; text wraps at 200.
    measure = Console(width=10_000, color_system=None, force_terminal=False)
    tables = [p for p in parts if isinstance(p, Table)]
    width = max([200, *(measure.measure(t).maximum for t in tables)])
    console = Console(width=width, color_system=None, force_terminal=False, highlight=False)
    with console.capture() as capture:
        for part in parts:
            console.print(part, width=None if isinstance(part, Table) else min(width, 200))
    return capture.get()
