"""Render a layout comparison as a Rich table, GitHub Markdown, CSV or JSON.

One list of columns drives every format, so the four outputs always agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from planner.report.comparison_columns import (
    LOSS_FIGURES_NOTE,
    comparison_columns,
    comparison_fields,
    loss_split_columns,
)
from planner.report.inputs import Inputs, inputs_lines, with_inputs
from planner.report.table import (
    Column,
    csv_text,
    export_records,
    finite_or_none,
    fit_columns,
    json_text,
    markdown_cell,
    markdown_document,
    markdown_table,
    rich_table_for,
    risk_style,
    shown_columns,
    table_cells,
)

if TYPE_CHECKING:
    from rich.table import Table

    from planner.core.arrays.layouts import AggregateShape, Comparison, Layout, LayoutResult

__all__ = [
    "Column",
    "comparison_columns",
    "comparison_fields",
    "comparison_records",
    "csv_text",
    "finite_or_none",
    "fit_columns",
    "json_text",
    "loss_split_columns",
    "markdown_cell",
    "markdown_table",
    "notes",
    "rich_table_for",
    "risk_style",
    "to_csv",
    "to_json",
    "to_markdown",
    "to_rich_table",
]


def notes(comparison: Comparison, mission_years: float) -> list[str]:
    """Footnotes that qualify the table (mission, baseline, uneven divisions)."""
    lines = [
        f"Mission {mission_years:g} years ({comparison.mission_hours:,.0f} h); "
        f"{comparison.data_disks:,} data drives; baseline: {comparison.baseline}."
    ]
    lines.append(LOSS_FIGURES_NOTE)
    lines += uneven_notes(comparison.data_disks, ((r.layout, r.shape) for r in comparison.results))
    lines += declustered_notes(r.layout for r in comparison.results)
    return lines


def uneven_notes(data_disks: int, shapes: Iterable[tuple[Layout, AggregateShape]]) -> list[str]:
    """The footnote of each layout whose groups (marked ``*``) hold more than ``data_disks``.

    ``planner evaluate`` and ``planner simulate`` say it in these words.
    """
    lines = []
    for layout, shape in shapes:
        if shape.exact_division:
            continue
        extra = shape.groups * layout.data_capacity - data_disks
        extra_text = f"{extra.numerator:,}" if extra.denominator == 1 else f"{float(extra):,.1f}"
        groups = shape.groups
        lines.append(
            f"* {layout.label}: {data_disks:,} data drives do not divide evenly "
            f"into {layout.data_disks_per_group:g} data drives per group; "
            f"{groups:,} group{'s hold' if groups != 1 else ' holds'} "
            f"{extra_text} more data drive{'s' if extra != 1 else ''} than asked."
        )
    return lines


def declustered_notes(layouts: Iterable[Layout]) -> list[str]:
    """What a declustered pool's figures assume (docs/declustered.md)."""
    pools = [layout for layout in layouts if layout.declustered is not None]
    if not pools:
        return []
    speedups = ", ".join(f"{x.label} x{x.rebuild_speedup:.3g}" for x in pools)
    return [
        "Declustered pools rebuild faster onto distributed spares, as OpenZFS measured "
        f"({speedups}), one drive at a time, with no wait for a replacement unless every "
        "spare is taken; k + 1 overlapping failures lose only the stripes spanning all of "
        "them (Lost on k+1), and a latent defect loses sectors only where its stripe holds "
        "every failed drive (the share sigma of such moves; docs/declustered.md)."
    ]


def _rows(
    comparison: Comparison, extra_columns: Sequence[Column[LayoutResult]] = ()
) -> tuple[list[Column[LayoutResult]], list[list[str]]]:
    standard = comparison_columns(comparison)
    extra_columns = shown_columns(extra_columns)
    if extra_columns:  # columns asked for stay longer than the optional standard ones
        shift = max(c.priority for c in extra_columns)
        standard = [replace(c, priority=c.priority + shift) if c.priority else c for c in standard]
    columns = [*standard, *extra_columns]
    return columns, table_cells(columns, comparison.results)


def to_rich_table(
    comparison: Comparison,
    title: str,
    max_width: int | None = None,
    extra_columns: Sequence[Column[LayoutResult]] = (),
) -> Table:
    """A Rich table with the baseline row marked and rows coloured by relative risk.

    With ``max_width`` (the terminal width) the least important columns are left out so
    that the table stays readable; the Markdown, CSV and JSON outputs always have them all.
    ``extra_columns`` go after the standard ones (``evaluate --methods``).
    """
    columns, rows = _rows(comparison, extra_columns)
    for result, cells in zip(comparison.results, rows, strict=True):
        if result.layout.label == comparison.baseline:
            cells[0] = f"{cells[0]} (base)"
    keep = fit_columns(columns, rows, max_width)
    table = rich_table_for(title, columns, keep)
    for result, cells in zip(comparison.results, rows, strict=True):
        table.add_row(*(cells[i] for i in keep), style=risk_style(result.relative_risk_aggregate))
    return table


def to_markdown(
    comparison: Comparison,
    title: str,
    mission_years: float,
    extra_notes: Sequence[str] = (),
    extra_columns: Sequence[Column[LayoutResult]] = (),
    inputs: Inputs | None = None,
) -> str:
    """A GitHub-flavoured Markdown table with a heading and footnotes (plus ``extra_notes``).

    With ``inputs`` the first footnote lists the assumptions and the ``--set`` overrides.
    """
    columns, rows = _rows(comparison, extra_columns)
    for result, cells in zip(comparison.results, rows, strict=True):
        if result.layout.label == comparison.baseline:
            cells[0] = f"**{cells[0]}** (baseline)"
    return markdown_document(
        title,
        columns,
        rows,
        inputs_lines(inputs, [*notes(comparison, mission_years), *extra_notes]),
    )


def comparison_records(
    comparison: Comparison, extra_columns: Sequence[Column[LayoutResult]] = ()
) -> list[dict[str, Any]]:
    """One flat record of raw values per layout (the JSON contract's ``layouts``).

    ``extra_columns`` (``evaluate --methods``) add their keys after the standard ones.
    """
    fields = [*comparison_fields(comparison), *extra_columns]
    return list(export_records(fields, comparison.results))


def to_json(
    comparison: Comparison,
    scenario_name: str,
    extra: dict[str, Any] | None = None,
    extra_columns: Sequence[Column[LayoutResult]] = (),
    inputs: Inputs | None = None,
) -> str:
    """The JSON contract: scenario, mission_hours, baseline, layouts (raw floats).

    ``extra`` keys (e.g. ``rebuild_hours``) go in before ``layouts``; ``extra_columns``
    add their keys to each layout (see :func:`comparison_records`); ``inputs`` adds
    ``inputs``.
    """
    document = {
        "scenario": scenario_name,
        "mission_hours": comparison.mission_hours,
        "data_disks": comparison.data_disks,
        "baseline": comparison.baseline,
        **(extra or {}),
        "layouts": comparison_records(comparison, extra_columns),
    }
    return json_text(with_inputs(document, inputs))


def to_csv(
    comparison: Comparison,
    extra_columns: Sequence[Column[LayoutResult]] = (),
    inputs: Inputs | None = None,
) -> str:
    """CSV with a header row and raw values (full precision floats) for spreadsheets."""
    return csv_text(comparison_records(comparison, extra_columns), inputs)
