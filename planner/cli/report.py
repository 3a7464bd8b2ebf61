"""``planner report``: a Markdown design review of a scenario, with its pictures beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from planner.cli.options import ScenarioFile, SetOption
from planner.cli.output import fail, load, print_note, write_atomic

ReportOutput = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        help="The Markdown file to write (default: <scenario>-report.md here); the images "
        "go next to it as <name>-front.svg and <name>-sweep.svg.",
        dir_okay=False,
    ),
]


BudgetOption = Annotated[
    float,
    typer.Option(
        "--time-budget",
        min=0.1,
        max=3600,
        help="Seconds each of the two simulations of the methods cross-check may take.",
    ),
]


def report(
    file: ScenarioFile = None,
    output: ReportOutput = None,
    overrides: SetOption = None,
    time_budget: BudgetOption = 20.0,
) -> None:
    """Write a design review: recommendation, inputs, comparison, front, sweep, sensitivity.

    One Markdown document (it renders on GitHub) with the Pareto front and the group-size
    sweep drawn as SVG files next to it, the sensitivity of the recommended layout and its
    methods cross-check (exact Markov, MTTDL approximation, simulations: up to a minute).
    """
    from dataclasses import replace

    from planner.analysis.design import REPORT_SIMULATION, design_report
    from planner.analysis.recommend import RecommendError
    from planner.report import design as render
    from planner.report.sweep_plot import plot_bytes

    scenario = load(file, overrides)
    where = str(file) if file is not None else "<default scenario>"
    stem = file.stem if file is not None else "ns3574-default"
    target = output if output is not None else Path(f"{stem}-report.md")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        fail(f"{target}: the folder {folder} does not exist; create it or choose another -o")
    settings = replace(REPORT_SIMULATION, time_budget_seconds=time_budget)
    try:
        gathered = design_report(scenario, overrides or (), settings)
    except RecommendError as error:
        fail(f"{where}: {error}")
    front_file = target.with_name(f"{target.stem}-front.svg")
    sweep_file = target.with_name(f"{target.stem}-sweep.svg")
    try:
        images = {
            front_file: render.front_image(gathered.recommendation),
            sweep_file: plot_bytes(gathered.sweep, "svg"),
        }
    except ImportError:
        images = {}
        print_note(
            "matplotlib is not installed: the report has no pictures (pip install '.[plot]')"
        )
    for path, data in images.items():
        write_atomic(path, data)
    text = render.to_markdown(
        gathered,
        front_file.name if images else None,
        sweep_file.name if images else None,
    )
    write_atomic(target, text)
    written = ", ".join(str(p) for p in [target, *images])
    print_note(f"Wrote the design review to {written}")
