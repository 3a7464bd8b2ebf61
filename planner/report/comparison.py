"""Render a layout comparison as a Rich table, GitHub Markdown, CSV or JSON.

One list of columns drives every format, so the four outputs always agree.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from planner.report.inputs import Inputs, inputs_lines, with_inputs
from planner.report.numbers import (
    format_odds,
    format_percent,
    format_ratio,
    format_tb,
    format_years,
)

if TYPE_CHECKING:
    from rich.table import Table

    from planner.core.layouts import Comparison, LayoutResult

RowT = TypeVar("RowT")


@dataclass(frozen=True)
class Column(Generic[RowT]):
    """A column of a report table (the comparison's, the sizing table's).

    Attributes:
        header: one-line header (Markdown, CSV-like outputs).
        text: human text of a result's cell.
        numeric: right-aligned when True.
        short_header: header for narrow terminals; may break over lines.
        priority: 0 is never dropped; higher numbers go first when the terminal is narrow.
    """

    header: str
    text: Callable[[RowT], str]
    numeric: bool = True
    short_header: str = ""
    priority: int = 0


def _groups_text(r: LayoutResult) -> str:
    return f"{r.shape.groups:,}" if r.shape.exact_division else f"{r.shape.groups:,}*"


def _drives_text(r: LayoutResult) -> str:
    return f"{r.layout.group_size} ({r.layout.data_disks_per_group}+{r.layout.parity})"


def comparison_columns(comparison: Comparison) -> list[Column[LayoutResult]]:
    """The columns of the comparison table; usable TB only when capacity is known."""
    columns: list[Column[LayoutResult]] = [
        Column("Layout", lambda r: r.layout.label, numeric=False),
        Column("Drives/group", _drives_text, short_header="Drives/\ngroup"),
        Column("Groups", _groups_text, priority=1),
        Column(
            "Total drives",
            lambda r: f"{r.shape.total_disks:,}",
            short_header="Total\ndrives",
            priority=7,
        ),
        Column(
            "Overhead drives",
            lambda r: f"{r.shape.overhead_disks:,}",
            short_header="Over-\nhead",
        ),
    ]
    if any(r.usable_tb is not None for r in comparison.results):
        columns.append(
            Column(
                "Usable TB",
                lambda r: "" if r.usable_tb is None else format_tb(r.usable_tb),
                short_header="Usable\nTB",
                priority=3,
            )
        )
    columns += [
        Column(
            "P(loss) group",
            lambda r: format_percent(r.p_loss_group),
            short_header="P(loss)\ngroup",
        ),
        Column(
            "P(loss) aggregate",
            lambda r: format_percent(r.p_loss_aggregate),
            short_header="P(loss)\naggregate",
        ),
        Column(
            "Aggregate odds",
            lambda r: format_odds(r.p_loss_aggregate),
            short_header="Aggregate\nodds",
            priority=2,
        ),
        Column(
            "Losses/10k groups",
            lambda r: losses_text(r.losses_per_10k_groups),
            short_header="Losses/\n10k groups",
            priority=4,
        ),
        Column(
            "MTTDL (group)",
            lambda r: format_years(r.mttdl_hours),
            short_header="MTTDL\n(group)",
            priority=5,
        ),
        Column(
            "Risk vs baseline (group)",
            lambda r: format_ratio(r.relative_risk_group),
            short_header="Risk vs\nbase (grp)",
            priority=6,
        ),
        Column(
            "Risk vs baseline (aggregate)",
            lambda r: format_ratio(r.relative_risk_aggregate),
            short_header="Risk vs\nbaseline",
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
            lambda r: format_percent(r.p_group_lost),
            short_header="P(group lost)\ngroup",
            priority=11,
        ),
        Column(
            "P(sectors lost) group",
            lambda r: format_percent(r.p_sectors_lost),
            short_header="P(sectors lost)\ngroup",
            priority=10,
        ),
        Column(
            "P(group lost) aggregate",
            lambda r: format_percent(r.p_group_lost_aggregate),
            short_header="P(group lost)\naggregate",
            priority=9,
        ),
        Column(
            "P(sectors lost) aggregate",
            lambda r: format_percent(r.p_sectors_lost_aggregate),
            short_header="P(sectors lost)\naggregate",
            priority=8,
        ),
    ]


def fit_columns(
    columns: Sequence[Column[Any]], rows: list[list[str]], max_width: int | None
) -> list[int]:
    """Indices of the columns to show so the table fits ``max_width`` terminal cells.

    Columns are dropped highest ``priority`` first; priority 0 columns always stay.
    """
    keep = list(range(len(columns)))
    if max_width is None:
        return keep

    def width(index: int) -> int:
        header = columns[index].short_header or columns[index].header
        cells = [row[index] for row in rows]
        return max(len(x) for x in [*header.split("\n"), *cells]) + 3

    droppable = sorted(
        (i for i, c in enumerate(columns) if c.priority > 0),
        key=lambda i: -columns[i].priority,
    )
    while sum(width(i) for i in keep) + 1 > max_width and droppable:
        keep.remove(droppable.pop(0))
    return keep


def losses_text(losses: float) -> str:
    """Expected losses per 10,000 groups: 2 decimals, or 2 significant digits below 0.01."""
    if losses >= 0.01:
        return f"{losses:,.2f}"
    return f"{losses:.2g}"


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
        extra = r.shape.groups * r.layout.data_disks_per_group - comparison.data_disks
        groups = r.shape.groups
        lines.append(
            f"* {r.layout.label}: {comparison.data_disks:,} data drives do not divide evenly "
            f"into {r.layout.data_disks_per_group} data drives per group; "
            f"{groups:,} group{'s hold' if groups != 1 else ' holds'} "
            f"{extra:,} more data drive{'s' if extra != 1 else ''} than asked."
        )
    return lines


def _rows(
    comparison: Comparison, extra_columns: Sequence[Column[LayoutResult]] = ()
) -> tuple[list[Column[LayoutResult]], list[list[str]]]:
    standard = comparison_columns(comparison)
    if extra_columns:  # columns asked for stay longer than the optional standard ones
        shift = max(c.priority for c in extra_columns)
        standard = [replace(c, priority=c.priority + shift) if c.priority else c for c in standard]
    columns = [*standard, *extra_columns]
    return columns, [[c.text(r) for c in columns] for r in comparison.results]


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


def rich_table_for(title: str, columns: Sequence[Column[Any]], keep: Sequence[int]) -> Table:
    """An empty Rich table with the ``keep`` columns: short headers, numbers right-aligned.

    When columns were left out to fit the terminal, the caption names them, so a narrow
    terminal never hides information silently.
    """
    from rich.table import Table

    hidden = [c.header for i, c in enumerate(columns) if i not in keep]
    caption = (
        f"Not shown at this width: {', '.join(hidden)} (a wider terminal or "
        "--format markdown, csv or json shows every column)."
        if hidden
        else None
    )
    table = Table(
        title=title,
        title_justify="left",
        header_style="bold",
        caption=caption,
        caption_justify="left",
        caption_style="dim italic",
    )
    for i in keep:
        c = columns[i]
        table.add_column(
            c.short_header or c.header,
            justify="right" if c.numeric else "left",
            no_wrap=i == 0,
        )
    return table


def risk_style(relative: float) -> str:
    """Colour of a row by its aggregate risk relative to the baseline."""
    if relative > 10:
        return "red"
    if relative > 1.5:
        return "yellow"
    if relative < 1 / 1.5:
        return "green"
    return ""


def markdown_cell(text: str) -> str:
    """Text safe inside a Markdown table cell (pipes escaped)."""
    return text.replace("|", "\\|")


def markdown_table(columns: Sequence[Column[Any]], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of a GitHub-flavoured Markdown table: header, alignment row, one per row."""
    lines = ["| " + " | ".join(markdown_cell(c.header) for c in columns) + " |"]
    lines.append("|" + "|".join("---:" if c.numeric else ":---" for c in columns) + "|")
    lines += ["| " + " | ".join(markdown_cell(x) for x in cells) + " |" for cells in rows]
    return lines


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
    lines = [f"### {title}", "", *markdown_table(columns, rows), ""]
    lines += [
        f"- {markdown_cell(note.removeprefix('* '))}"
        for note in inputs_lines(inputs, [*notes(comparison, mission_years), *extra_notes])
    ]
    return "\n".join(lines) + "\n"


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
            **(extra_fields or {}).get(r.layout.label, {}),
        }
        for r in comparison.results
    ]


def finite_or_none(value: float) -> float | None:
    """``value``, or None for an infinity or NaN (JSON has neither)."""
    return value if math.isfinite(value) else None


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


def json_text(document: dict[str, Any]) -> str:
    """``document`` as indented JSON; infinities, NaNs and unknown types are errors."""
    return json.dumps(document, indent=2, allow_nan=False, default=_json_default) + "\n"


def _json_default(value: object) -> object:
    raise TypeError(f"not JSON serialisable: {value!r}")


def to_csv(
    comparison: Comparison,
    extra_fields: Mapping[str, Mapping[str, Any]] | None = None,
    inputs: Inputs | None = None,
) -> str:
    """CSV with a header row and raw values (full precision floats) for spreadsheets."""
    return csv_text(comparison_records(comparison, extra_fields), inputs)


def csv_text(records: Sequence[dict[str, Any]], inputs: Inputs | None = None) -> str:
    """Records as CSV: a header row of the first record's keys, then the values.

    With ``inputs``, a ``# Inputs: ...`` comment line comes first (read with
    ``pandas.read_csv(path, comment="#")``; see the README).
    """
    buffer = io.StringIO()
    if inputs is not None:
        buffer.write(inputs.csv_comment())
    writer = csv.DictWriter(buffer, fieldnames=list(records[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return buffer.getvalue()
