"""``planner recommend``: the cheapest layout that meets the scenario's target, and the front."""

from __future__ import annotations

from typing import Annotated

import typer

from planner.cli.options import FormatOption, OutputOption, ScenarioFile, SetOption
from planner.cli.output import Format, emit, fail, load

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
    for the scenario and evaluated exactly. The target is the scenario's target: section
    (docs/recommend.md); without one, P(loss) of the aggregate at most 1 in 10,000 over the
    mission, as in the TUI's choose view (F7) and planner report. Exit 2 when nothing meets
    the target; the output then shows the closest layout and what it misses.
    """
    from planner.analysis.recommend import DEFAULT_TARGET, RecommendError, recommendation
    from planner.cli.render import plain_text, print_parts
    from planner.report import recommend as render
    from planner.report.recommend import describe_misses

    scenario = load(file, overrides)
    where = str(file) if file is not None else "<default scenario>"
    try:
        report = recommendation(scenario, overrides=overrides or (), fallback_target=DEFAULT_TARGET)
    except RecommendError as error:
        fail(f"{where}: {error}")
    if output_format is Format.table:
        if output is None:
            print_parts(lambda width: render.to_rich(report, top, width), [])
        else:
            emit(plain_text(render.to_rich(report, top, None)), output, "table output")
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
