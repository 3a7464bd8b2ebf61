"""Render a comparison in the format the user asked for."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from planner.cli.output import Format, emit, write_stdout

if TYPE_CHECKING:
    from rich.table import Table

    from planner.analysis.compare import CompareData
    from planner.analysis.plan import PlanComparison
    from planner.scenario import Scenario

R = TypeVar("R", contravariant=True)


class ReportTexts(Protocol[R]):
    """A report module's text renderers (planner.report.sizing, .sweep, ...)."""

    def to_markdown(self, report: R, /) -> str: ...  # noqa: D102
    def to_csv(self, report: R, /) -> str: ...  # noqa: D102
    def to_json(self, report: R, /) -> str: ...  # noqa: D102


TableFor = Callable[[int | None], "Table"]
"""Builds the Rich table for a terminal of the given width (None: every column)."""


def render_comparison(
    scenario: Scenario, data: CompareData, output_format: Format, output: Path | None
) -> None:
    """Print or write ``comparison`` as a Rich table, Markdown, CSV or JSON.

    When the restore time comes from the rebuild model, a note says how it was derived
    and the JSON carries it as ``rebuild_hours``. With ``methods`` (by layout label) the
    MTTDL-approximation and no-latent-defect columns are added (``evaluate --methods``).
    """
    from planner.report import comparison as report

    comparison = data.comparison
    from planner.report.plan import extras

    notes, columns = extras(data)
    if output_format is Format.table:

        def table(width: int | None) -> Table:
            return report.to_rich_table(comparison, scenario.name, width, columns, data.inputs)

        if output is None:
            print_table(table, notes)
            return
        text = plain_table_text(table, notes)
    elif output_format is Format.markdown:
        text = report.to_markdown(comparison, scenario.name, notes, columns, data.inputs)
    elif output_format is Format.csv:
        text = report.to_csv(comparison, columns, data.inputs)
    else:
        rebuild = {"rebuild_hours": scenario.rebuild_hours}
        text = report.to_json(comparison, scenario.name, rebuild, columns, data.inputs)
    emit(text, output, f"{output_format.value} output")


def render_plan_comparison(
    plan: PlanComparison, output_format: Format, output: Path | None
) -> None:
    """Print or write a plan's tiers and totals as Rich tables, Markdown, CSV or JSON."""
    from planner.report import plan as report

    if output_format is Format.table:
        render_parts(lambda width: report.comparison_parts(plan, width), output)
        return
    texts = {
        Format.markdown: report.comparison_markdown,
        Format.csv: report.comparison_csv,
        Format.json: report.comparison_json,
    }
    emit(texts[output_format](plan), output, f"{output_format.value} output")


def render_parts(parts: Callable[[int | None], Sequence[object]], output: Path | None) -> None:
    """Print ``parts(width)`` fitted to the terminal, or write them whole to ``output``."""
    if output is None:
        print_parts(parts, [])
    else:
        emit(plain_text(parts(None)), output, "table output")


def print_table(table: TableFor, notes: Sequence[str]) -> None:
    """Print the table, fitted to the terminal, and its notes (dimmed) to stdout."""
    print_parts(lambda width: [table(width)], notes)


def print_parts(parts: Callable[[int | None], Sequence[object]], notes: Sequence[str]) -> None:
    """Print ``parts(width)`` (tables and text) fitted to the terminal, then dimmed notes.

    Piped or redirected with no width asked for (COLUMNS): :func:`plain_text` of
    ``parts(None)``, every column, no colour.
    """
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        write_stdout(plain_text(parts(None), notes))
        return
    for part in parts(console.width):
        console.print(part)
    for note in notes:
        console.print(note, style="dim", markup=False)


def plain_table_text(table: TableFor, notes: Sequence[str]) -> str:
    """The table with every column and its notes as plain text without colour codes."""
    return plain_text([table(None)], notes)


def plain_text(parts: Sequence[object], notes: Sequence[str] = ()) -> str:
    """Tables and text as plain text: every table as wide as its cells need, none cut.

    Text and notes wrap at 200 columns; no line ends in a space.

    A table is printed on a console wider than any table, so it takes the width its cells
    need: the width it measures at, without measuring it once more beforehand (a table's
    measure costs about a third of its rendering).
    """
    from rich.console import Console
    from rich.table import Table

    console = Console(width=_UNBOUNDED, color_system=None, force_terminal=False, highlight=False)
    with console.capture() as capture:
        for part in parts:
            console.print(part, width=None if isinstance(part, Table) else _TEXT_WIDTH)
        for note in notes:
            console.print(note, markup=False, width=_TEXT_WIDTH)
    # a title is padded to its table's width and wrapped prose keeps the space it broke at
    return "".join(line.rstrip() + "\n" for line in capture.get().splitlines())


_TEXT_WIDTH = 200
"""Where text and notes of :func:`plain_text` wrap (columns)."""

_UNBOUNDED = 10_000
"""A console width no table of planner's reaches (columns)."""


def render_report(
    output_format: Format,
    output: Path | None,
    table: TableFor,
    notes: Sequence[str],
    text: Callable[[Format], str | Iterable[str | bytes]],
) -> None:
    """Print the table (fitted to the terminal), or write the table or ``text(format)``.

    Every report command ends here: the table goes to the terminal with the least
    important columns left out when it is narrow, and in full to a file; Markdown, CSV and
    JSON come from ``text``.
    """
    if output_format is Format.table:
        if output is None:
            print_table(table, notes)
            return
        emit(plain_table_text(table, notes), output, "table output")
        return
    emit(text(output_format), output, f"{output_format.value} output")


def texts_of(renderer: ReportTexts[R], report: R) -> Callable[[Format], str]:
    """``text(format)`` for :func:`render_report` from a module with to_markdown/csv/json."""
    functions: dict[Format, Callable[[R], str]] = {
        Format.markdown: renderer.to_markdown,
        Format.csv: renderer.to_csv,
        Format.json: renderer.to_json,
    }
    return lambda kind: functions[kind](report)
