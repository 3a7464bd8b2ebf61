"""``planner sensitivity``: which input moves the risk of one layout most (a tornado)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from planner.cli.options import (
    FormatOption,
    OutputOption,
    ScenarioFile,
    SetOption,
    TierOption,
    chosen_format,
)
from planner.cli.output import Format, fail, load

if TYPE_CHECKING:
    from planner.analysis.sensitivity import SensitivityReport
    from planner.scenario import Scenario

LayoutOption = Annotated[
    str | None,
    typer.Option(
        "--layout",
        "-l",
        help="The layout to analyse (its label) \\[default: the scenario's baseline].",
        metavar="LABEL",
        show_default=False,
    ),
]
LowOption = Annotated[
    float, typer.Option("--low", help="Multiply each input by this for the low case (0 to 1).")
]
FixedOption = Annotated[
    bool,
    typer.Option(
        "--fixed",
        help="With a workload: the aggregate of aggregate.data_disks (planner evaluate's), "
        "not the layout's sized one (planner size's; the TUI's c switches the same way).",
    ),
]
HighOption = Annotated[
    float, typer.Option("--high", help="Multiply each input by this for the high case (above 1).")
]


def sensitivity(
    file: ScenarioFile = None,
    layout: LayoutOption = None,
    low: LowOption = 0.5,
    high: HighOption = 2.0,
    output_format: FormatOption = None,
    output: OutputOption = None,
    overrides: SetOption = None,
    tier: TierOption = None,
    fixed: FixedOption = False,
) -> None:
    """Tornado for one layout: each input halved and doubled, ranked by the change in P(loss).

    For a scenario with a workload the aggregate is the layout's sized one (as the TUI's
    compare table shows it; --fixed: aggregate.data_disks'), else aggregate.data_disks.
    """
    output_format = chosen_format(output_format, output)
    if not 0 < low < 1:
        fail(f"--low must be between 0 and 1 (0.5 halves each input), got {low:g}")
    if not high > 1:
        fail(f"--high must be above 1 (2 doubles each input), got {high:g}")
    from planner.analysis.sensitivity import sensitivity_report

    scenario = load(file, overrides, tier)
    chosen = choose_layout(scenario, layout)
    try:
        report = sensitivity_report(scenario, chosen, low, high, overrides or (), fixed=fixed)
    except ValueError as err:
        fail(str(err))
    render_sensitivity(report, output_format, output)


def choose_layout(scenario: Scenario, label: str | None) -> str:
    """The label of the layout named ``label`` (default the baseline); exit 2 if none."""
    from planner.scenario.fields import did_you_mean_label

    labels = [layout.label for layout in scenario.layouts]
    label = scenario.baseline_label() if label is None else label
    if label not in labels:
        aliases = {layout.default_label: layout.label for layout in scenario.layouts}
        hint = did_you_mean_label(label, labels, aliases)
        fail(f"--layout {label!r}: no layout has that label{hint}")
    return label


def render_sensitivity(
    report: SensitivityReport, output_format: Format, output: Path | None
) -> None:
    """Print or write ``report`` as a Rich table and chart, Markdown, CSV or JSON."""
    from planner.cli.render import render_report, texts_of
    from planner.report import sensitivity as render

    render_report(
        output_format,
        output,
        lambda width: render.to_rich_table(report, max_width=width),
        render.notes(report),
        texts_of(render, report),
    )
