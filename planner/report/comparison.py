"""Render a layout comparison as a Rich table, GitHub Markdown, CSV or JSON.

One list of columns drives every format, so the four outputs always agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from planner.report.costs import cost_columns, cost_record
from planner.report.inputs import Inputs, inputs_lines, with_inputs
from planner.report.numbers import (
    drives_column,
    format_odds,
    integer_column,
    percent_column,
    ratio_column,
    significant_column,
    tb_column,
    years_column,
)
from planner.report.table import (
    Column,
    csv_text,
    finite_or_none,
    fit_columns,
    json_text,
    markdown_cell,
    markdown_document,
    markdown_table,
    rich_table_for,
    risk_style,
    table_cells,
)

if TYPE_CHECKING:
    from rich.table import Table

    from planner.core.layouts import Comparison, Layout, LayoutResult

__all__ = [
    "Column",
    "comparison_columns",
    "comparison_records",
    "csv_text",
    "finite_or_none",
    "fit_columns",
    "json_text",
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


def _odds_column(probabilities: Sequence[float]) -> list[str]:
    return [format_odds(p) for p in probabilities]


def groups_text(groups: int, exact_division: bool) -> str:
    """Groups with thousands separators, ``*`` marking an uneven division: ``1,040*``."""
    return f"{groups:,}" if exact_division else f"{groups:,}*"


def _groups_text(r: LayoutResult) -> str:
    return groups_text(r.shape.groups, r.shape.exact_division)


def _drives_text(r: LayoutResult) -> str:
    return r.layout.group_text()


def declustered_columns() -> list[Column[Any]]:
    """The columns a declustered pool adds: its rebuild time and the share lost on overlap.

    For any row with ``layout`` (a :class:`~planner.core.layouts.Layout`) and
    ``rebuild_hours``: the compare and sizing tables both use them.
    """
    return [
        Column(
            "Rebuild hours",
            lambda r: r.rebuild_hours,
            significant_column,
            short_header="Rebuild\nh",
            priority=3,
            unit="h",
        ),
        Column(
            "Share lost on k+1 failures",
            lambda r: r.layout.fraction_lost_on_overlap,
            percent_column,
            short_header="Lost on\nk+1",
            priority=3,
        ),
    ]


def comparison_columns(comparison: Comparison) -> list[Column[LayoutResult]]:
    """The columns of the comparison table; some only when the scenario gives their inputs.

    Usable TB only when capacity is known, the cost columns only when the scenario prices
    its drives (:mod:`planner.report.costs`).

    The same declarations feed the Rich table, Markdown and the TUI's compare table. A
    narrow screen drops the highest priority first: per-group risk, odds, total drives,
    MTTDL, losses, usable TB, groups; the group shape, overhead, both P(loss) and the
    aggregate's risk against the baseline always stay.
    """
    columns: list[Column[LayoutResult]] = [
        Column("Layout", lambda r: r.layout.label, numeric=False),
        Column("Drives/group", _drives_text, short_header="Drives/\ngroup"),
        Column("Groups", _groups_text, priority=1),
        Column(
            "Total drives",
            lambda r: r.shape.total_disks,
            integer_column,
            short_header="Total\ndrives",
            priority=5,
        ),
        Column(
            "Overhead drives",
            lambda r: r.shape.overhead_disks,
            drives_column,
            short_header="Over-\nhead",
        ),
    ]
    if any(r.layout.declustered is not None for r in comparison.results):
        columns += declustered_columns()
    if any(r.usable_tb is not None for r in comparison.results):
        columns.append(
            Column(
                "Usable TB",
                lambda r: r.usable_tb,
                tb_column,
                short_header="Usable\nTB",
                priority=2,
                unit="TB",
            )
        )
    columns += cost_columns(lambda r: r.cost, comparison.results)
    columns += [
        Column(
            "P(loss) group",
            lambda r: r.p_loss_group,
            percent_column,
            short_header="P(loss)\ngroup",
            risk=True,
        ),
        Column(
            "P(loss) aggregate",
            lambda r: r.p_loss_aggregate,
            percent_column,
            short_header="P(loss)\naggregate",
            risk=True,
        ),
        Column(
            "Aggregate odds",
            lambda r: r.p_loss_aggregate,
            _odds_column,
            short_header="Aggregate\nodds",
            priority=6,
        ),
        Column(
            "Losses/10k groups",
            lambda r: r.losses_per_10k_groups,
            significant_column,
            short_header="Losses/\n10k groups",
            priority=3,
        ),
        Column(
            "MTTDL group (years)",
            lambda r: r.mttdl_hours,
            years_column,
            short_header="MTTDL group\n(years)",
            priority=4,
            unit="years",
        ),
        Column(
            "Risk vs baseline (group)",
            lambda r: r.relative_risk_group,
            ratio_column,
            short_header="Risk vs base\nper group",
            priority=7,
        ),
        Column(
            "Risk vs baseline (aggregate)",
            lambda r: r.relative_risk_aggregate,
            ratio_column,
            short_header="Risk vs base\nper aggr.",
            risk=True,
        ),
        *loss_split_columns(),
    ]
    return columns


def loss_split_columns() -> list[Column[LayoutResult]]:
    """What is lost (issue 11): the group's P(loss) split, and the aggregate's.

    P(group lost) + P(sectors lost) = P(loss) per group; per aggregate, P(some group lost
    whole) + P(sectors lost, no group lost whole) = P(loss) aggregate. On a narrow screen
    they go first (the exports always have them).
    """
    return [
        Column(
            "P(group lost) group",
            lambda r: r.p_group_lost,
            percent_column,
            short_header="P(group lost)\ngroup",
            priority=11,
        ),
        Column(
            "P(sectors lost) group",
            lambda r: r.p_sectors_lost,
            percent_column,
            short_header="P(sectors lost)\ngroup",
            priority=10,
        ),
        Column(
            "P(group lost) aggregate",
            lambda r: r.p_group_lost_aggregate,
            percent_column,
            short_header="P(group lost)\naggregate",
            priority=9,
        ),
        Column(
            "P(sectors lost) aggregate",
            lambda r: r.p_sectors_lost_aggregate,
            percent_column,
            short_header="P(sectors lost)\naggregate",
            priority=8,
        ),
    ]


def notes(comparison: Comparison, mission_years: float) -> list[str]:
    """Footnotes that qualify the table (mission, baseline, uneven divisions)."""
    lines = [
        f"Mission {mission_years:g} years ({comparison.mission_hours:,.0f} h); "
        f"{comparison.data_disks:,} data drives; baseline: {comparison.baseline}."
    ]
    lines.append(
        "P(loss) = P(group lost), k + 1 overlapping drive failures, + P(sectors lost), a "
        "latent defect among the events; the aggregate's: some group lost whole, or sectors "
        "lost with no group lost whole."
    )
    uneven = [r for r in comparison.results if not r.shape.exact_division]
    for r in uneven:
        extra = r.shape.groups * r.layout.data_capacity - comparison.data_disks
        extra_text = f"{extra.numerator:,}" if extra.denominator == 1 else f"{float(extra):,.1f}"
        groups = r.shape.groups
        lines.append(
            f"* {r.layout.label}: {comparison.data_disks:,} data drives do not divide evenly "
            f"into {r.layout.data_disks_per_group:g} data drives per group; "
            f"{groups:,} group{'s hold' if groups != 1 else ' holds'} "
            f"{extra_text} more data drive{'s' if extra != 1 else ''} than asked."
        )
    lines += declustered_notes(r.layout for r in comparison.results)
    return lines


def declustered_notes(layouts: Iterable[Layout]) -> list[str]:
    """What a declustered pool's figures assume (docs/declustered.md)."""
    pools = [layout for layout in layouts if layout.declustered is not None]
    if not pools:
        return []
    speedups = ", ".join(f"{x.label} x{x.rebuild_speedup:.3g}" for x in pools)
    return [
        f"Declustered pools rebuild (C - 1) / (d + 1) times faster onto distributed spares "
        f"({speedups}), one drive at a time; k + 1 overlapping failures lose only the "
        "stripes spanning all of them (Lost on k+1). Their P(sectors lost) is an upper "
        "bound: a latent defect is taken to share a stripe with every failed drive "
        "(docs/declustered.md)."
    ]


def _rows(
    comparison: Comparison, extra_columns: Sequence[Column[LayoutResult]] = ()
) -> tuple[list[Column[LayoutResult]], list[list[str]]]:
    standard = comparison_columns(comparison)
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
    comparison: Comparison, extra_fields: Mapping[str, Mapping[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """One flat record of raw values per layout (the JSON contract's ``layouts``).

    ``extra_fields`` adds keys to the record of each layout, by label.
    """
    return [
        {
            "label": r.layout.label,
            "raid": r.layout.raid,
            "parity": r.layout.parity,
            "group_size": r.layout.group_size,
            "data_disks_per_group": r.layout.data_disks_per_group,
            "groups": r.shape.groups,
            "total_disks": r.shape.total_disks,
            "overhead_disks": r.shape.overhead_disks,
            "rebuild_hours": r.rebuild_hours,
            "declustered_data": None if r.layout.declustered is None else r.layout.declustered.data,
            "declustered_spares": (
                None if r.layout.declustered is None else r.layout.declustered.spares
            ),
            "rebuild_speedup": r.layout.rebuild_speedup,
            "fraction_lost_on_overlap": r.layout.fraction_lost_on_overlap,
            "exact_division": r.shape.exact_division,
            "usable_tb": r.usable_tb,
            "p_loss_group": r.p_loss_group,
            "p_loss_aggregate": r.p_loss_aggregate,
            "p_group_lost": r.p_group_lost,
            "p_sectors_lost": r.p_sectors_lost,
            "p_group_lost_aggregate": r.p_group_lost_aggregate,
            "p_sectors_lost_aggregate": r.p_sectors_lost_aggregate,
            "losses_per_10k_groups": r.losses_per_10k_groups,
            "mttdl_hours": r.mttdl_hours,
            "relative_risk_group": finite_or_none(r.relative_risk_group),
            "relative_risk_aggregate": finite_or_none(r.relative_risk_aggregate),
            "is_baseline": r.layout.label == comparison.baseline,
            **cost_record(r.cost),
            **(extra_fields or {}).get(r.layout.label, {}),
        }
        for r in comparison.results
    ]


def to_json(
    comparison: Comparison,
    scenario_name: str,
    extra: dict[str, Any] | None = None,
    extra_fields: Mapping[str, Mapping[str, Any]] | None = None,
    inputs: Inputs | None = None,
) -> str:
    """The JSON contract: scenario, mission_hours, baseline, layouts (raw floats).

    ``extra`` keys (e.g. ``rebuild_hours``) go in before ``layouts``; ``extra_fields`` add
    keys to each layout (see :func:`comparison_records`); ``inputs`` adds ``inputs``.
    """
    document = {
        "scenario": scenario_name,
        "mission_hours": comparison.mission_hours,
        "data_disks": comparison.data_disks,
        "baseline": comparison.baseline,
        **(extra or {}),
        "layouts": comparison_records(comparison, extra_fields),
    }
    return json_text(with_inputs(document, inputs))


def to_csv(
    comparison: Comparison,
    extra_fields: Mapping[str, Mapping[str, Any]] | None = None,
    inputs: Inputs | None = None,
) -> str:
    """CSV with a header row and raw values (full precision floats) for spreadsheets."""
    return csv_text(comparison_records(comparison, extra_fields), inputs)
