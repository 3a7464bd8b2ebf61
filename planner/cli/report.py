"""``planner report``: a Markdown design review of a scenario, with its pictures beside it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from planner.cli.options import ScenarioFile, SetOption, file_to_write
from planner.cli.output import (
    check_destinations,
    fail,
    load_plan,
    note_output,
    print_note,
    refuse_missing_folder,
    write_files,
    write_stdout,
)
from planner.cli.recommend import closest_text

if TYPE_CHECKING:
    from planner.analysis.design import DesignReport
    from planner.analysis.simulation import RunSettings
    from planner.scenario import Plan

STDOUT = Path("-")
"""``-o -``: the Markdown to stdout."""


def _report_name(value: Path | None) -> Path | None:
    """``-o`` of the report: ``-`` is stdout; an empty name is bad input."""
    if value is None or value == STDOUT:
        return value
    if str(value) == ".":  # Click's reading of -o '' (it refuses -o . as a folder itself)
        fail("-o '': the file name is empty; name a Markdown file, or - for stdout")
    if value.suffix and value.suffix.lower() not in (".md", ".markdown"):
        fail(f"-o {value}: the design review is Markdown; name the file .md (or - for stdout)")
    note_output(value, "-o")
    return value


ReportOutput = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        help="The Markdown file to write (default: <scenario>-report.md here); the images "
        "go next to it as <name>-front.svg and <name>-sweep.svg. To - (stdout) or a device "
        "such as /dev/stdout, the Markdown alone.",
        parser=file_to_write,
        metavar="<file>",
        callback=_report_name,
    ),
]


_SYSTEM_FOLDERS = (Path("/dev"), Path("/proc"))
"""Folders of devices and descriptors: ``/dev/stdout`` is a regular file when stdout is
redirected to one, and pictures beside it would land in /dev."""


def _is_stream(target: Path) -> bool:
    """Whether ``target`` has no folder to put pictures beside.

    Stdout (``-``), a device, FIFO or socket, or a name for a descriptor (``/dev/stdout``,
    ``/proc/self/fd/1``).
    """
    import os
    import stat

    if target == STDOUT:
        return True
    where = Path(os.path.abspath(target))
    if any(where.is_relative_to(folder) for folder in _SYSTEM_FOLDERS):
        return True
    try:
        return not stat.S_ISREG(target.stat().st_mode)
    except OSError:
        return False


def _write_stream(target: Path, text: str) -> None:
    """Write ``text`` into ``target`` as it is (a device or descriptor: nothing to replace)."""
    try:
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as err:
        fail(f"{target}: cannot write: {err.strerror or err}")


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
    Exit 2 when nothing meets the target, as planner recommend (the review is written).
    A plan (tiers:) gets the plan's totals of the recommended layouts, then each tier's
    review with its own two pictures (<name>-<tier>-front.svg, -sweep.svg).
    """
    from dataclasses import replace

    from planner.analysis.design import REPORT_SIMULATION, design_report
    from planner.analysis.recommend import RecommendError
    from planner.report import design as render

    plan = load_plan(file, overrides)
    where = str(file) if file is not None else "<default scenario>"
    stem = file.stem if file is not None else "ns3574-default"
    target = output if output is not None else Path(f"{stem}-report.md")
    stream = _is_stream(target)
    settings = replace(REPORT_SIMULATION, time_budget_seconds=time_budget)
    if plan.tiered:
        _report_plan(plan, where, target, stream, settings)
        return
    scenario = plan.tiers[0].scenario
    front_file = target.with_name(f"{target.stem}-front.svg")
    sweep_file = target.with_name(f"{target.stem}-sweep.svg")
    if not stream:
        _check_files(target, [target, front_file, sweep_file])
    try:
        gathered = design_report(scenario, overrides or (), settings)
    except RecommendError as error:
        fail(f"{where}: {error}")
    images = _images(gathered, front_file, sweep_file) if not stream else {}
    if stream:
        # /dev/stdout-front.svg once landed in /dev: a stream has no folder for pictures
        print_note(
            f"planner: note: {'stdout' if target == STDOUT else target} is not a file: the "
            "report has no pictures (give -o NAME.md to have them beside it)"
        )
    text = render.to_markdown(
        gathered,
        front_file.name if images else None,
        sweep_file.name if images else None,
    )
    _write_report(target, stream, text, images)
    if gathered.recommendation.top is None:
        # as planner recommend: the review is written (it shows the closest), and exit 2
        fail(f"{where}: no layout meets the target{closest_text(gathered.recommendation)}")


def _report_plan(plan: Plan, where: str, target: Path, stream: bool, settings: RunSettings) -> None:
    """A plan's review: the totals, then each tier's, with each tier's two pictures."""
    from planner.analysis.design import plan_design_report
    from planner.analysis.recommend import RecommendError
    from planner.report import design as render
    from planner.report.plan import tier_slugs

    files = [
        (target.with_name(f"{target.stem}-{slug}-front.svg"),
         target.with_name(f"{target.stem}-{slug}-sweep.svg"))
        for slug in tier_slugs(plan.names)
    ]  # fmt: skip
    if not stream:
        _check_files(target, [target, *(path for pair in files for path in pair)])
    try:
        gathered = plan_design_report(plan, settings)
    except RecommendError as error:
        fail(f"{where}: {error}")
    images: dict[Path, str | bytes] = {}
    if not stream:
        for (_, review), (front, sweep) in zip(gathered.tiers, files, strict=True):
            images.update(_images(review, front, sweep))
    else:
        print_note(f"planner: note: {target} is not a file: the report has no pictures")
    names = [
        (front.name if front in images else None, sweep.name if sweep in images else None)
        for front, sweep in files
    ]
    _write_report(target, stream, render.plan_to_markdown(gathered, names), images)
    unmet = [(name, review) for name, review in gathered.tiers if review.recommendation.top is None]
    if unmet:
        name, review = unmet[0]
        detail = closest_text(review.recommendation)
        fail(f"{where}: tier {name!r}: no layout meets the target{detail}")


def _check_files(target: Path, files: list[Path]) -> None:
    """Exit 2 unless the report and its pictures can be written (before a minute of work)."""
    refuse_missing_folder(target)
    check_destinations(files)


def _images(gathered: DesignReport, front_file: Path, sweep_file: Path) -> dict[Path, str | bytes]:
    """The front and the sweep as SVG, by file; none without matplotlib (a note says so)."""
    from planner.report.design import front_image
    from planner.report.sweep_plot import plot_bytes

    try:
        return {
            front_file: front_image(gathered.recommendation),
            sweep_file: plot_bytes(gathered.sweep, "svg"),
        }
    except ImportError:
        print_note(
            "matplotlib is not installed: the report has no pictures (pip install '.[plot]')"
        )
        return {}


def _write_report(target: Path, stream: bool, text: str, images: dict[Path, str | bytes]) -> None:
    """Write the document to stdout, a stream, or with its pictures as one step."""
    if target == STDOUT:
        write_stdout(text)
    elif stream:
        _write_stream(target, text)
        print_note(f"Wrote the design review to {target}")
    else:
        # the document and its pictures as one step: all replaced, or none
        write_files({target: text, **images})
        written = ", ".join(str(p) for p in [target, *images])
        print_note(f"Wrote the design review to {written}")
