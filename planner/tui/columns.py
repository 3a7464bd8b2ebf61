"""The compare table's columns: the CLI report's numbers, narrower headers, fitted widths."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.text import Text

from planner.analysis.compare import SizedRow
from planner.core.layouts import Comparison, LayoutResult
from planner.core.rates import HOURS_PER_YEAR
from planner.report.comparison import Column, fit_columns
from planner.report.numbers import format_count, format_percent, format_ratio, format_tb

RowT = TypeVar("RowT")


@dataclass(frozen=True)
class TuiColumn(Column[RowT]):
    """A compare-table column: a report column whose cells risk colours when ``risk``.

    ``header`` has two lines; ``priority`` says which columns go first on a narrow screen.
    """

    risk: bool = False


LAYOUT_COLUMN: Column[Any] = Column("\nLayout", str, numeric=False)
"""The first column: the layout's label (built by the view, with the baseline's mark)."""


def _groups(r: LayoutResult) -> str:
    return f"{r.shape.groups}" if r.shape.exact_division else f"{r.shape.groups}*"


def _losses(losses: float) -> str:
    return f"{losses:,.2f}" if losses >= 0.01 else f"{losses:.2g}"


def tui_columns(comparison: Comparison) -> list[TuiColumn[LayoutResult]]:
    """The table's columns: the CLI report's numbers and formats, narrower headers.

    Usable TB only when the drive capacity is known; odds and the per-group relative risk
    are left to the Markdown export to fit 120 columns. A narrow terminal drops columns in
    the CLI table's order (total drives first, groups last) and keeps the ones a choice
    rests on: group shape, overhead, the two P(loss) and the risk against the baseline.
    """
    columns: list[TuiColumn[LayoutResult]] = [
        TuiColumn(
            "Drives\n/group",
            lambda r: f"{r.layout.group_size} ({r.layout.data_disks_per_group}+{r.layout.parity})",
        ),
        TuiColumn("\nGroups", _groups, priority=1),
        TuiColumn("Total\ndrives", lambda r: f"{r.shape.total_disks:,}", priority=5),
        TuiColumn("Over-\nhead", lambda r: f"{r.shape.overhead_disks:,}"),
    ]
    if any(r.usable_tb is not None for r in comparison.results):
        columns.append(
            TuiColumn(
                "Usable\nTB",
                lambda r: "" if r.usable_tb is None else format_tb(r.usable_tb),
                priority=2,
            )
        )
    columns += [
        TuiColumn("P(loss)\ngroup", lambda r: format_percent(r.p_loss_group), risk=True),
        TuiColumn("P(loss)\naggregate", lambda r: format_percent(r.p_loss_aggregate), risk=True),
        TuiColumn("Losses/\n10k grps", lambda r: _losses(r.losses_per_10k_groups), priority=3),
        TuiColumn(
            "MTTDL, group\n(years)",
            lambda r: format_count(r.mttdl_hours / HOURS_PER_YEAR),
            priority=4,
        ),
        TuiColumn(
            "Risk vs\nbaseline", lambda r: format_ratio(r.relative_risk_aggregate), risk=True
        ),
        # What is lost (issue 11), shown when the screen is wide enough (the export has them)
        TuiColumn(
            "Group lost\naggregate",
            lambda r: format_percent(r.p_group_lost_aggregate),
            priority=7,
        ),
        TuiColumn(
            "Sectors lost\naggregate",
            lambda r: format_percent(r.p_sectors_lost_aggregate),
            priority=6,
        ),
    ]
    return columns


def sizing_columns() -> list[TuiColumn[SizedRow]]:
    """The sizing columns (``planner size``'s numbers); risk is the sized aggregate's.

    A narrow terminal drops usable TB first, then write penalty, groups, P(loss) of a
    group and the two disk counts that explain "bound by" (the CLI's order where the CLI
    drops them too); disks needed, bound by and the sized aggregate's risk stay.
    """
    return [
        TuiColumn("Write\npen.", lambda s: f"{s.result.write_penalty:g}", priority=5),
        TuiColumn("Disks for\ncapacity", lambda s: f"{s.result.disks_for_capacity:,}", priority=2),
        TuiColumn("Disks\nfor IOPS", lambda s: f"{s.result.disks_for_iops:,}", priority=1),
        TuiColumn("Disks\nneeded", lambda s: f"{s.result.disks_needed:,}"),
        TuiColumn("Bound\nby", lambda s: "IOPS" if s.result.bound_by == "iops" else "capacity"),
        TuiColumn("\nGroups", lambda s: f"{s.result.groups:,}", priority=4),
        TuiColumn("Usable\nTB", lambda s: format_tb(s.result.usable_tb), priority=6),
        TuiColumn(
            "P(loss)\ngroup",
            lambda s: format_percent(s.result.p_loss_group),
            risk=True,
            priority=3,
        ),
        TuiColumn(
            "P(loss) of\nsized aggr.",
            lambda s: format_percent(s.result.p_loss_aggregate),
            risk=True,
        ),
        TuiColumn("Risk vs\nbaseline", lambda s: format_ratio(s.relative_risk), risk=True),
    ]


def fit_to_width(columns: list[Column[Any]], rows: list[list[str]], width: int) -> list[int]:
    """Indices of the columns that fit a DataTable ``width`` cells wide (fit_columns' order).

    :func:`fit_columns` budgets 3 cells a column and 1 more for a Rich table's borders; a
    DataTable has no borders and pads each cell by 1 each side, so ``n`` columns fit
    ``width`` exactly when fit_columns fits them in ``width + n + 1``.
    """
    keep = list(range(len(columns)))
    for n in range(len(columns), 0, -1):
        keep = fit_columns(columns, rows, width + n + 1)
        if len(keep) >= n:
            break
    return keep


def column_widths(headers: list[str], rows: list[list[Text]]) -> list[int]:
    """Each column's content width in cells: its widest header line or cell.

    The table gets these as fixed widths. DataTable measures auto-width columns only when
    idle, and a frame drawn before that (as a resize can cause) caches cells clipped to the
    headers' widths until the next change; fixed widths are right from the first frame.
    """
    return [
        max(
            [
                *(cell_len(line) for line in header.split("\n")),
                *(row[index].cell_len for row in rows),
            ]
        )
        for index, header in enumerate(headers)
    ]
