"""``planner report`` rendered: one Markdown document for a design review, with pictures.

The document links two SVG files written next to it: the Pareto front of cost against
P(loss) (:func:`front_image`) and the group-size sweep
(:func:`planner.report.sweep_plot.plot_bytes`). GitHub renders the Markdown, its tables and
the linked SVGs as they are.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from planner import __version__
from planner.analysis.recommend import nines, risk_of
from planner.report import comparison, methods, sensitivity
from planner.report import plan as plan_report
from planner.report import recommend as recommend_report
from planner.report import sizing as sizing_report
from planner.report.inputs import inputs_lines
from planner.report.log_ticks import plain_log_ticks
from planner.report.percentages import format_percent
from planner.report.recommend_summary import (
    AGEING_WORDS,
    RISK_NAMES,
    describe_misses,
    limit_words,
    summary,
    target_text,
)
from planner.report.table import markdown_cell

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from planner.analysis.design import DesignReport, PlanDesign
    from planner.analysis.recommend import Candidate, Recommendation


def front_image(found: Recommendation) -> bytes:
    """The front as SVG: the targeted risk of the aggregate (log) against cost, and the line.

    The risk is P(group lost) when the target limits it, else P(loss).

    Raises:
        ImportError: matplotlib (the ``plot`` extra) is not installed.
    """
    from matplotlib.figure import Figure

    name = found.target.risk_limits[0]
    figure = Figure(figsize=(9, 5.5), dpi=110, layout="constrained")
    axes = figure.subplots()
    _draw_front(axes, found, name)
    axes.set_yscale("log")
    plain_log_ticks(axes.yaxis)
    unit = f"total cost of ownership ({found.currency})" if found.currency else "total cost"
    axes.set_xlabel(unit if found.money else "drives")
    axes.set_ylabel(
        "P(group lost) of the aggregate over the mission"
        if name == "max_p_group_lost"
        else "P(data loss) of the aggregate over the mission"
    )
    axes.grid(True, which="major", alpha=0.35)
    axes.legend(loc="upper right", fontsize=8)
    figure.suptitle(
        f"{found.title}: the Pareto front of {len(found.front)} of {found.evaluated:,} layouts"
    )
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def _draw_front(axes: Axes, found: Recommendation, name: str) -> None:
    """The front's line and points (meeting the target or not), the target, the choice."""

    def risk(c: Candidate) -> float:
        return risk_of(c, name)

    front = [c for c in found.front if risk(c) > 0]
    meets = [c for c in front if not c.misses]
    misses = [c for c in front if c.misses]
    axes.plot(
        [c.rank_cost for c in front],
        [risk(c) for c in front],
        color="0.6",
        linewidth=1,
        zorder=1,
    )
    kinds = ((meets, "tab:green", "meets the target"), (misses, "white", "misses it"))
    for group, face, label in kinds:
        if group:
            axes.scatter(
                [c.rank_cost for c in group],
                [risk(c) for c in group],
                s=34,
                facecolors=face,
                edgecolors="tab:green" if face != "white" else "0.3",
                zorder=3,
                label=label,
            )
    axes.axhline(getattr(found.target, name), color="tab:red", linestyle="--", label="target")
    top = found.top
    if top is not None and risk(top) > 0:
        axes.scatter(
            [top.rank_cost], [risk(top)], s=140, marker="*", color="gold",
            edgecolors="black", zorder=4, label=f"recommended: {top.name}",
        )  # fmt: skip
    named = [c for c in (found.top, found.nearest_cheaper, found.closest) if c is not None]
    for c in [*named, *front[:: max(1, len(front) // 6)]]:  # a few, so labels do not pile up
        if risk(c) > 0:
            axes.annotate(
                c.name, (c.rank_cost, risk(c)), fontsize=7,
                xytext=(4, 4), textcoords="offset points",
            )  # fmt: skip


def plan_to_markdown(plan: PlanDesign, images: Sequence[tuple[str | None, str | None]]) -> str:
    """A plan's design review: the plan's totals, then each tier's review one level down.

    ``images`` are each tier's front and sweep files (relative paths, or None).
    """
    names = ", ".join(markdown_cell(name) for name, _ in plan.tiers)
    lines = [
        f"# Design review: {markdown_cell(plan.title)}",
        "",
        *_generated(),
        "## The plan",
        "",
        f"{len(plan.tiers)} tiers ({names}), each reviewed below as a scenario of its own, "
        "for its own target; the totals count each tier's recommended layout.",
        "",
        plan_report.totals_markdown(plan.totals),
    ]
    for (_, review), (front, sweep) in zip(plan.tiers, images, strict=True):
        lines.append(to_markdown(review, front, sweep, depth=1))
    return "\n".join(lines).rstrip() + "\n"


def _generated() -> list[str]:
    return [
        f"Generated by planner {__version__} (`planner report`). Every figure below is "
        "computed from the scenario file; rerun the command to refresh it.",
        "",
    ]


def to_markdown(
    report: DesignReport, front_file: str | None, sweep_file: str | None, depth: int = 0
) -> str:
    """The design-review document; ``*_file`` are the images' paths relative to it.

    ``depth`` 1 makes it a section of a plan's review (a tier's): its headings one level
    down, headed by the tier's name.
    """
    chosen = report.chosen_label
    lines = [*_recommendation_section(report, depth), *_inputs_section(report)]
    lines += ["## The layouts compared", ""]
    if chosen is not None:
        lines += [f"The recommended layout is **{markdown_cell(chosen)}**.", ""]
    sizing = report.compare.sizing
    if sizing is not None:
        # a workload scenario: each layout sized for it, as the recommendation was
        lines.append(sizing_report.to_markdown(sizing))
    else:
        lines.append(
            comparison.to_markdown(
                report.compare.comparison,
                "Every layout over the mission",
                comparison.notes(report.compare),
            )
        )
    lines += ["## Cost against risk", ""]
    if front_file is not None:
        lines += [f"![The Pareto front of cost against P(loss)]({front_file})", ""]
    lines.append(recommend_report.to_markdown(report.recommendation, top=5, with_summary=False))
    lines += ["## Group size and parity", ""]
    if sweep_file is not None:
        lines += [f"![P(loss) of the aggregate against group size]({sweep_file})", ""]
    lines += [
        "P(loss) of the aggregate for n+1, n+2 and n+3 groups of 2 to 28 drives (filled "
        "markers: the data drives divide the aggregate evenly), and the overhead drives each "
        "costs. `planner sweep` gives the numbers.",
        "",
    ]
    if report.sensitivity is not None:
        lines += [f"## Sensitivity of {markdown_cell(chosen or '')}", ""]
        lines.append(_untitled(sensitivity.to_markdown(report.sensitivity)))
    if report.methods is not None:
        lines += ["## Methods cross-check", ""]
        lines.append(_untitled(methods.to_markdown(report.methods)))
    elif report.methods_note:
        lines += ["## Methods cross-check", "", f"Not run: {report.methods_note}.", ""]
    if depth:  # a tier's sections, one level below the plan's, under the tier's name
        lines = ["#" * depth + line if line.startswith("## ") else line for line in lines]
        lines = [f"{'#' * (depth + 1)} Tier: {markdown_cell(report.title)}", "", *lines]
    return "\n".join(lines).rstrip() + "\n"


def _untitled(markdown: str) -> str:
    """A report's Markdown without its ``###`` title: the section's heading says it."""
    first, _, rest = markdown.partition("\n")
    return rest.lstrip("\n") if first.startswith("### ") else markdown


def _recommendation_section(report: DesignReport, depth: int = 0) -> list[str]:
    """The title, where the figures come from, and the recommendation with its reasons."""
    found = report.recommendation
    title = f"# Design review: {markdown_cell(report.title)}"
    lines = [title, "", *_generated()] if depth == 0 else []
    lines += ["## Recommendation", ""]
    if not report.target_given:
        what = (
            "a `target:` section without a loss target"
            if found.target_section
            else "no `target:` section"
        )
        lines += [
            f"> The scenario has {what}: this report looks for "
            f"{target_text(found, noted=False)}. Add `max_p_loss`, "
            "`min_nines` or `max_p_group_lost` to say what you need (docs/recommend.md).",
            "",
        ]
    # The opening above says why the target is the default one: the summary need not.
    for line in summary(found, noted=report.target_given):
        lines += [markdown_cell(line), ""]
    if report.chosen_label is not None and found.top is not None:
        lines += _why(report)
    return lines


def _inputs_section(report: DesignReport) -> list[str]:
    """The inputs, the notes on where they come from, and the sources of the rest."""
    lines = ["## Inputs and their sources", ""]
    lines += [f"- {markdown_cell(line)}" for line in inputs_lines(report.inputs, [])]
    # the table's own readings (a bound, the spec sheet's) go with the table shown, not here:
    # a workload's review shows the sized table, and they are of aggregate.data_disks';
    # so is evaluate's note that its table is not sized for the workload (fixed=False)
    data = report.compare
    # a workload's review shows the sized table, which says its costs per TB needed
    notes = [*data.label_notes, *comparison.source_notes(data, cost=data.sizing is None)]
    lines += [f"- {markdown_cell(note)}" for note in notes]
    return [
        *lines,
        "- Drive figures of a catalogue model (`drive.model`) are sourced in docs/drives.md; "
        "the reliability model and its assumptions are NS3574's (docs/models.md).",
        "",
    ]


def _why(report: DesignReport) -> list[str]:
    found = report.recommendation
    top = found.top
    assert top is not None  # _why is called with a recommendation
    met = []
    for name in found.target.risk_limits:
        value = risk_of(top, name)
        in_nines = f" ({nines(value):.1f} nines)" if name == "max_p_loss" else ""
        ageing = f" {AGEING_WORDS}" if name == "max_p_loss" and top.aged is not None else ""
        met.append(
            f"{RISK_NAMES[name]} {format_percent(value)} over the mission{ageing}"
            f"{in_nines} against at most {limit_words(found, name)}"
        )
    why = [
        "Why this layout:",
        "",
        f"- it meets the target: {'; '.join(met)};",
        f"- it is the cheapest of the {len(found.meeting):,} layouts that do "
        + ("(total cost of ownership);" if found.money else "(fewest drives);"),
    ]
    cheaper = found.nearest_cheaper
    if cheaper is not None:
        why.append(
            f"- the next cheaper, {markdown_cell(cheaper.name)}, misses "
            f"{markdown_cell(describe_misses(cheaper.misses, ageing=cheaper.aged is not None))};"
        )
    if top in found.front:
        why.append(
            f"- it is on the Pareto front: no layout of the {found.evaluated:,} searched is "
            "both cheaper and safer."
        )
    return [*why, ""]
