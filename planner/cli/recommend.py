"""``planner recommend``: the cheapest layout that meets the scenario's target, and the front."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from planner.cli.options import FormatOption, OutputOption, ScenarioFile, SetOption, chosen_format
from planner.cli.output import Format, emit, fail, load_plan

if TYPE_CHECKING:
    from planner.analysis.recommend import Recommendation
    from planner.scenario import Plan

TopOption = Annotated[
    int,
    typer.Option("--top", min=1, max=10_000, help="Candidates meeting the target to list."),
]


def recommend(
    file: ScenarioFile = None,
    output_format: FormatOption = None,
    output: OutputOption = None,
    overrides: SetOption = None,
    top: TopOption = 10,
) -> None:
    """Find the cheapest layout that meets the scenario's target, and the cost/risk front.

    Searches mirrors, parity groups of every size and (optionally) dRAID pools, each sized
    for the scenario and evaluated exactly. The target is the scenario's target: section
    (docs/recommend.md); without one, P(loss) of the aggregate at most 1 in 10,000 over the
    mission, as in the TUI's choose view (F7) and planner report. Exit 2 when nothing meets
    the target; the output then shows the closest layout and what it misses. A plan
    (tiers:) is searched tier by tier, each for its own target, then the plan's drives,
    cost and P(any tier loses data) of the recommended layouts.
    """
    output_format = chosen_format(output_format, output)
    from planner.analysis.recommend import DEFAULT_TARGET, RecommendError, recommendation
    from planner.cli.render import plain_text, print_parts
    from planner.report import recommend as render

    plan = load_plan(file, overrides)
    where = str(file) if file is not None else "<default scenario>"
    if plan.tiered:
        _recommend_plan(plan, where, output_format, output, top)
        return
    scenario = plan.tiers[0].scenario
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
        fail(f"{where}: no layout meets the target{closest_text(report)}")


def closest_text(report: Recommendation) -> str:
    """``; closest: raid6 12, which misses ...`` when a search found nothing, else ""."""
    from planner.report.recommend_summary import describe_misses

    closest = report.closest
    if closest is None:
        return ""
    missed = describe_misses(closest.misses, ageing=closest.aged is not None)
    return f"; closest: {closest.layout.label}, which misses {missed}"


def _recommend_plan(
    plan: Plan, where: str, output_format: Format, output: Path | None, top: int
) -> None:
    """Each tier's recommendation and the plan's totals; exit 2 when a tier meets nothing."""
    from planner.analysis.plan import plan_recommendation
    from planner.analysis.recommend import DEFAULT_TARGET, RecommendError
    from planner.cli.render import render_parts
    from planner.report import plan as render

    try:
        found = plan_recommendation(plan, DEFAULT_TARGET)
    except RecommendError as error:
        fail(f"{where}: {error}")
    if output_format is Format.table:
        render_parts(lambda width: render.recommend_parts(found, top, width), output)
    else:
        texts = {
            Format.markdown: render.recommend_markdown,
            Format.csv: render.recommend_csv,
            Format.json: render.recommend_json,
        }
        emit(texts[output_format](found, top), output, f"{output_format.value} output")
    unmet = [(name, report) for name, report in found.tiers if report.top is None]
    if unmet:
        name, report = unmet[0]
        more = f" (and {len(unmet) - 1} more tiers)" if len(unmet) > 1 else ""
        fail(f"{where}: tier {name!r}: no layout meets the target{closest_text(report)}{more}")
