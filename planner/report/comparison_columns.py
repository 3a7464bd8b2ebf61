"""The comparison's columns and export fields, each declared once (issue 9).

:func:`comparison_fields` lists them in the JSON contract's order (the records of JSON
and CSV); :func:`comparison_columns` shows the same declarations in the table's order, for
the Rich table, Markdown and the TUI's compare table (:mod:`planner.report.comparison`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from planner.report import figures
from planner.report.ageing import ageing_columns
from planner.report.availability import availability_columns
from planner.report.correlation import correlation_columns
from planner.report.costs import cost_fields
from planner.report.enclosures import enclosure_columns
from planner.report.numbers import format_odds, groups_text, ratio_column, years_column
from planner.report.percentages import percent_column
from planner.report.table import Column, export_field, finite_or_none, shown_columns

if TYPE_CHECKING:
    from planner.core.arrays.declustered import Declustered
    from planner.core.design.layout_comparison import Comparison, LayoutResult


def _odds_column(probabilities: Sequence[float]) -> list[str]:
    return [format_odds(p) for p in probabilities]


def _groups_text(r: LayoutResult) -> str:
    return groups_text(r.shape.groups, r.shape.exact_division)


def _drives_text(r: LayoutResult) -> str:
    return r.layout.group_text()


def _declustered(r: LayoutResult, read: Callable[[Declustered], int]) -> int | None:
    pool = r.layout.declustered
    return None if pool is None else read(pool)


def _shape_fields(comparison: Comparison) -> list[Column[LayoutResult]]:
    """The layout, its groups, drives and capacity (and a declustered pool's rebuild).

    The rebuild columns show only when a pool is declustered, each chain's latent-defect
    rate only when they differ, usable TB only when the capacity is known; the exports
    always carry them.
    """
    results = comparison.results
    declustered = any(r.layout.declustered is not None for r in results)
    return [
        figures.LAYOUT.column(lambda r: r.layout.label),
        export_field("raid", lambda r: r.layout.raid),
        export_field("parity", lambda r: r.layout.parity),
        export_field("group_size", lambda r: r.layout.group_size),
        export_field("data_disks_per_group", lambda r: r.layout.data_disks_per_group),
        figures.DRIVES_PER_GROUP.column(_drives_text),
        figures.GROUPS_MARKED.column(_groups_text, priority=1),
        export_field("groups", lambda r: r.shape.groups),
        figures.TOTAL_DRIVES.column(lambda r: r.shape.total_disks, priority=5),
        figures.OVERHEAD_DRIVES.column(lambda r: r.shape.overhead_disks),
        figures.REBUILD_HOURS.column(lambda r: r.rebuild_hours, priority=3, shown=declustered),
        # shown where the layouts' chains take different rates: a workload's reads spread
        # over each group's drives (docs/drives.md)
        figures.LATENT_DEFECTS.column(
            lambda r: r.latent_defects_per_hour,
            priority=6,
            shown=len({r.latent_defects_per_hour for r in results}) > 1,
        ),
        export_field("declustered_data", lambda r: _declustered(r, lambda p: p.data)),
        export_field("declustered_spares", lambda r: _declustered(r, lambda p: p.spares)),
        export_field("rebuild_speedup", lambda r: r.layout.rebuild_speedup),
        Column(
            "Stripes lost on k+1 failures",
            lambda r: r.layout.fraction_lost_on_overlap,
            percent_column,
            short_header="Stripes\nlost k+1",
            priority=3,
            key="fraction_lost_on_overlap",
            shown=declustered,
        ),
        export_field("exact_division", lambda r: r.shape.exact_division),
        figures.USABLE_TB.column(
            lambda r: r.usable_tb,
            priority=2,
            shown=any(r.usable_tb is not None for r in results),
        ),
    ]


def _loss_fields() -> list[Column[LayoutResult]]:
    """P(loss) per group and aggregate, and the aggregate's odds (shown only)."""
    return [
        figures.P_LOSS_GROUP.column(lambda r: r.p_loss_group, risk=True),
        figures.P_LOSS_AGGREGATE.column(lambda r: r.p_loss_aggregate, risk=True),
        Column(
            "Aggregate odds",
            lambda r: r.p_loss_aggregate,
            _odds_column,
            short_header="Aggregate\nodds",
            priority=6,
        ),
    ]


def _risk_fields() -> list[Column[LayoutResult]]:
    """Losses per 10,000 groups, MTTDL and the risk relative to the baseline."""
    return [
        figures.LOSSES_PER_10K_GROUPS.column(lambda r: r.losses_per_10k_groups, priority=3),
        Column(
            "MTTDL group (years)",
            lambda r: r.mttdl_hours,
            years_column,
            short_header="MTTDL group\n(years)",
            priority=4,
            unit="years",
            key="mttdl_hours",
        ),
        Column(
            "Risk vs baseline (group)",
            lambda r: r.relative_risk_group,
            ratio_column,
            short_header="Risk vs base\nper group",
            priority=7,
            key="relative_risk_group",
            export=finite_or_none,
        ),
        figures.RISK_VS_BASELINE.column(lambda r: r.relative_risk_aggregate, risk=True),
    ]


def comparison_fields(comparison: Comparison) -> list[Column[LayoutResult]]:
    """Every column and export field of the comparison, in the JSON contract's order.

    The records of JSON and CSV (:func:`comparison_records`) are these fields' keys in
    this order; :func:`comparison_columns` shows the same declarations in the table's.
    """
    baseline = comparison.baseline
    return [
        *_shape_fields(comparison),
        *_loss_fields(),
        *loss_split_columns(),
        *_availability(comparison),
        *_risk_fields(),
        export_field("is_baseline", lambda r: r.layout.label == baseline),
        *cost_fields(lambda r: r.cost, comparison.results),
        *correlation_columns(comparison.results, lambda r: r.independent),
        *enclosure_columns(comparison.results, lambda r: r.enclosures),
        *ageing_columns(comparison.results, lambda r: r.aged),
    ]


def comparison_columns(comparison: Comparison) -> list[Column[LayoutResult]]:
    """The columns of the comparison table; some only when the scenario gives their inputs.

    The declarations of :func:`comparison_fields` in the table's order (the cost columns
    after the capacity, the loss split last). The rebuild columns only for declustered
    pools, usable TB only when capacity is known, the cost columns only when the scenario
    prices its drives (:mod:`planner.report.costs`).

    The same declarations feed the Rich table, Markdown and the TUI's compare table. On a
    screen both front ends take them in a buyer's order and a narrow one keeps the leading
    columns that fit (:mod:`planner.report.column_choice`), so the columns' own priorities
    do not decide there.
    """
    return shown_columns(
        [
            *_shape_fields(comparison),
            *cost_fields(lambda r: r.cost, comparison.results),
            *_loss_fields(),
            *enclosure_columns(comparison.results, lambda r: r.enclosures),
            *correlation_columns(comparison.results, lambda r: r.independent),
            *ageing_columns(comparison.results, lambda r: r.aged),
            *_risk_fields(),
            *loss_split_columns(),
            *_availability(comparison),
        ]
    )


def _availability(comparison: Comparison) -> list[Column[LayoutResult]]:
    """Hours degraded and critical, group losses and NOMDL: the first to go when narrow."""
    return availability_columns(comparison.results, lambda r: r.availability, priority=12)


LOSS_FIGURES_NOTE = (
    "The loss figures do not sum: P(group lost) counts k + 1 drives down at once at any time "
    "in the mission (sector losses written off), P(sectors lost) at least one sector-loss "
    "event (a lost group restored), P(loss) only the first loss of any kind; Sector-loss "
    "events: their expected number in the aggregate (docs/loss.md)."
)
"""The note under every table that shows the loss figures (issue 20)."""


def loss_split_columns() -> list[Column[LayoutResult]]:
    """What is lost (issue 20): P(group lost), P(sectors lost), expected sector-loss events.

    P(group lost): k + 1 drives down at once, sector losses written off; P(sectors lost): at
    least one sector-loss event; per group and per aggregate (some group). They do not sum
    to P(loss) (:mod:`planner.core.markov.loss_figures`). The expected events are the aggregate's.
    On a narrow screen they go first (the exports always have them).
    """
    return [
        figures.P_GROUP_LOST_GROUP.column(lambda r: r.p_group_lost, priority=11),
        figures.P_SECTORS_LOST_GROUP.column(lambda r: r.p_sectors_lost, priority=10),
        figures.P_GROUP_LOST_AGGREGATE.column(lambda r: r.p_group_lost_aggregate, priority=9),
        figures.P_SECTORS_LOST_AGGREGATE.column(lambda r: r.p_sectors_lost_aggregate, priority=8),
        export_field(
            "expected_sector_loss_events_group", lambda r: r.expected_sector_loss_events_group
        ),
        figures.SECTOR_LOSS_EVENTS.column(lambda r: r.expected_sector_loss_events, priority=8),
    ]
