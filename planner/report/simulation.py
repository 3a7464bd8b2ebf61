"""Render a simulation (``planner simulate``) as a Rich table, GitHub Markdown, CSV or JSON.

The same :class:`~planner.report.comparison.Column` list and helpers as the comparison
drive every format, so the four outputs always agree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planner.core.markov.rates import HOURS_PER_YEAR
from planner.report.comparison import uneven_notes
from planner.report.inputs import Inputs, inputs_lines, with_inputs
from planner.report.numbers import (
    format_count,
    groups_text,
    percent_column,
    percent_interval_column,
)
from planner.report.table import (
    Column,
    csv_text,
    export_field,
    export_records,
    finite_or_none,
    fit_columns,
    json_text,
    markdown_cell,
    markdown_table,
    rich_table_for,
    shown_columns,
    table_cells,
)

if TYPE_CHECKING:
    from rich.table import Table

    from planner.core.arrays.layouts import AggregateShape, Layout
    from planner.core.simulation.simulate import SimulationResult

METHOD_NOTES = {
    "auto": "auto: conditioning on the last failure, plus failure biasing renewed per "
    "rebuild period where critical states are rare (unbiased; normal 95% interval)",
    "conditional": "conditioning on the last failure, no biasing (unbiased; normal 95% interval)",
    "biased": "conditioning on the last failure plus failure biasing renewed per rebuild "
    "period (unbiased; normal 95% interval)",
    "plain": "plain Monte Carlo (each trial a loss or not; Clopper-Pearson 95% interval)",
}
"""What each estimator is, for the notes."""

UNTRUSTED_MARKER = "⚠"
"""Appended to the interval of a row whose diagnostics say it cannot be trusted."""


@dataclass(frozen=True)
class Interval:
    """A 95% interval of a probability, and whether the diagnostics trust it."""

    low: float
    high: float
    reliable: bool


def interval_column(intervals: Sequence[Interval | None]) -> list[str]:
    """95% intervals (``0.0059%–0.0066%``) in one notation a column, blank for None.

    Marked when the diagnostics say an interval cannot be trusted.
    """
    texts = percent_interval_column([None if i is None else (i.low, i.high) for i in intervals])
    return [
        text if i is None or i.reliable else f"{text} {UNTRUSTED_MARKER}"
        for text, i in zip(texts, intervals, strict=True)
    ]


def format_share(share: float) -> str:
    """The largest trial's share of the estimate: ``0.4%``; ``—`` when nothing contributed."""
    if share <= 0:
        return "—"
    return f"{100 * share:.1f}%" if share < 0.1 else f"{100 * share:.0f}%"


def diagnostic_notes(
    label: str, result: SimulationResult, target_rel_error: float | None
) -> list[str]:
    """Footnotes for one simulated row: a time-budget stop, an untrusted interval.

    ``target_rel_error`` is the relative error the run was asked for (None: a trial count).
    ``planner simulate``, ``planner compare-methods`` and the report's methods section
    all say it this way.
    """
    lines = []
    if target_rel_error is not None and not result.rel_error <= target_rel_error:
        lines.append(
            f"* {label}: stopped by the time budget at "
            f"{format_rel_error(result.rel_error)} (target ±{100 * target_rel_error:g}%); "
            "raise --time-budget for more precision."
        )
    elif target_rel_error is None and result.stopped_by == "time_budget":
        lines.append(
            f"* {label}: stopped by the time budget after "
            f"{format_count(result.trials)} trials; raise --time-budget for all of them."
        )
    if not result.reliable:
        lines.append(f"* {label} {UNTRUSTED_MARKER}: {result.warning}.")
    return lines


@dataclass(frozen=True)
class SimulatedLayout:
    """One layout's simulation.

    Attributes:
        layout: the layout (group size, parity, label).
        shape: how the layout fills the aggregate: its groups, for the aggregate
            probability, and whether they divide it evenly (``5*`` otherwise).
        result: the simulated P(loss) of one group with its interval.
        group_lost: the simulated P(group lost) of one group (k + 1 drives down at once,
            sector losses written off) with its interval; ``result`` itself where every
            loss loses the group.
    """

    layout: Layout
    shape: AggregateShape
    result: SimulationResult
    group_lost: SimulationResult

    @property
    def groups(self) -> int:
        """RAID groups the aggregate needs."""
        return self.shape.groups

    @property
    def p_loss_aggregate(self) -> float:
        """P(loss) of the aggregate: 1 - (1 - p)^groups."""
        return self.result.p_loss_aggregate(self.groups)

    @property
    def p_group_lost_aggregate(self) -> float:
        """P(some group of the aggregate lost whole): 1 - (1 - p)^groups."""
        return self.group_lost.p_loss_aggregate(self.groups)


@dataclass(frozen=True)
class SimulationReport:
    """Everything a simulation report shows.

    Attributes:
        title: the scenario's name.
        mission_hours: mission length (h).
        data_disks: the aggregate's data drives (for the note on an uneven division).
        distributions: name of the distributions (``elerath2009``, ``custom``, ...).
        method: the estimator asked for: ``auto``, ``conditional``, ``biased`` or ``plain``.
        seed: the random seed every layout was run with.
        stopping: the stopping rule in words (``until +/-10% or 20 s per layout``).
        target_rel_error: the requested relative error, or None for a fixed trial count.
        inputs: the scenario's assumptions, printed by every export (None: not known).
        rows: one simulated layout per row, in the scenario's order.
        sectors_fail_rebuild: an unreadable sector fails the rebuild
            (``restore.on_unreadable_sector: fail-rebuild``): every loss loses the group.
    """

    title: str
    mission_hours: float
    data_disks: int
    distributions: str
    method: str
    seed: int
    stopping: str
    target_rel_error: float | None
    rows: tuple[SimulatedLayout, ...]
    inputs: Inputs | None = None
    sectors_fail_rebuild: bool = False


def format_rel_error(rel_error: float) -> str:
    """A relative half-width: ``±8.6%``; ``—`` when undefined (no loss seen)."""
    if not math.isfinite(rel_error):
        return "—"
    percent = 100 * rel_error
    return f"±{percent:.1f}%" if percent < 10 else f"±{percent:,.0f}%"


def _counts_column(counts: Sequence[float]) -> list[str]:
    return [f"{c:,.0f}" for c in counts]


def _trials_column(trials: Sequence[int]) -> list[str]:
    return [format_count(t) for t in trials]


def _rel_errors_column(rel_errors: Sequence[float]) -> list[str]:
    return [format_rel_error(e) for e in rel_errors]


def _shares_column(shares: Sequence[float]) -> list[str]:
    return [format_share(s) for s in shares]


def _group_fields() -> list[Column[SimulatedLayout]]:
    """The layout and its group's simulated P(loss), interval and precision."""
    return [
        Column("Layout", lambda r: r.layout.label, numeric=False, key="label"),
        export_field("raid", lambda r: r.layout.raid),
        export_field("parity", lambda r: r.layout.parity),
        export_field("group_size", lambda r: r.layout.group_size),
        Column(
            "Drives/group",
            lambda r: r.layout.group_text(),
            short_header="Drives/\ngroup",
            priority=4,
        ),
        Column(
            "Groups",
            lambda r: groups_text(r.groups, r.shape.exact_division),
            priority=3,
        ),
        export_field("groups", lambda r: r.groups),
        export_field("method", lambda r: r.result.method),
        Column("Trials", lambda r: r.result.trials, _trials_column, priority=2, key="trials"),
        export_field("hits", lambda r: r.result.hits),
        Column(
            "P(loss) group",
            lambda r: r.result.p_loss_group,
            percent_column,
            short_header="P(loss)\ngroup",
            key="p_loss_group",
        ),
        Column(
            "95% CI (group)",
            lambda r: Interval(r.result.ci95_low, r.result.ci95_high, r.result.reliable),
            interval_column,
            short_header="95% CI\n(group)",
        ),
        export_field("ci95_low", lambda r: r.result.ci95_low),
        export_field("ci95_high", lambda r: r.result.ci95_high),
        Column(
            "Rel. error",
            lambda r: r.result.rel_error,
            _rel_errors_column,
            short_header="Rel.\nerror",
            key="rel_error",
            export=finite_or_none,
        ),
        export_field("std_error", lambda r: r.result.std_error, finite_or_none),
    ]


def _group_lost_fields() -> list[Column[SimulatedLayout]]:
    """The group's simulated P(group lost), its interval and how it was run."""
    return [
        Column(
            "P(group lost) group",
            lambda r: r.group_lost.p_loss_group,
            percent_column,
            short_header="P(group\nlost)",
            priority=1,
            key="p_group_lost",
        ),
        Column(
            "95% CI (group lost)",
            lambda r: Interval(
                r.group_lost.ci95_low, r.group_lost.ci95_high, r.group_lost.reliable
            ),
            interval_column,
            short_header="95% CI\n(group lost)",
            priority=1,
        ),
        export_field("p_group_lost_ci95_low", lambda r: r.group_lost.ci95_low),
        export_field("p_group_lost_ci95_high", lambda r: r.group_lost.ci95_high),
        export_field("p_group_lost_rel_error", lambda r: r.group_lost.rel_error, finite_or_none),
        export_field("p_group_lost_trials", lambda r: r.group_lost.trials),
        export_field("p_group_lost_method", lambda r: r.group_lost.method),
        export_field("p_group_lost_reliable", lambda r: r.group_lost.reliable),
        export_field("p_group_lost_warning", lambda r: r.group_lost.warning or None),
    ]


def _group_lost_aggregate_fields() -> list[Column[SimulatedLayout]]:
    """The aggregate's P(group lost) (some group lost whole) and its interval."""
    return [
        Column(
            "P(group lost) aggregate",
            lambda r: r.p_group_lost_aggregate,
            percent_column,
            short_header="P(group lost)\naggregate",
            priority=2,
            key="p_group_lost_aggregate",
        ),
        export_field(
            "p_group_lost_ci95_aggregate_low", lambda r: r.group_lost.ci95_aggregate(r.groups)[0]
        ),
        export_field(
            "p_group_lost_ci95_aggregate_high", lambda r: r.group_lost.ci95_aggregate(r.groups)[1]
        ),
    ]


def _diagnostic_fields() -> list[Column[SimulatedLayout]]:
    """How far the interval can be trusted, and why the run stopped."""
    return [
        Column(
            "Eff. trials",
            lambda r: r.result.effective_trials,
            _counts_column,
            short_header="Eff.\ntrials",
            priority=5,
            key="effective_trials",
        ),
        Column(
            "Top trial",
            lambda r: r.result.max_weight_share,
            _shares_column,
            short_header="Top\ntrial",
            priority=6,
            key="max_weight_share",
        ),
        export_field("reliable", lambda r: r.result.reliable),
        export_field("warning", lambda r: r.result.warning or None),
        export_field("stopped_by", lambda r: r.result.stopped_by),
        export_field("rebuild_streams", lambda r: r.result.rebuild_streams),
    ]


def _aggregate_fields() -> list[Column[SimulatedLayout]]:
    """The aggregate's P(loss) and its interval."""
    return [
        Column(
            "P(loss) aggregate",
            lambda r: r.p_loss_aggregate,
            percent_column,
            short_header="P(loss)\naggregate",
            key="p_loss_aggregate",
        ),
        Column(
            "95% CI (aggregate)",
            lambda r: Interval(*r.result.ci95_aggregate(r.groups), r.result.reliable),
            interval_column,
            short_header="95% CI\n(aggregate)",
            priority=1,
        ),
        export_field("ci95_aggregate_low", lambda r: r.result.ci95_aggregate(r.groups)[0]),
        export_field("ci95_aggregate_high", lambda r: r.result.ci95_aggregate(r.groups)[1]),
    ]


def simulation_fields() -> list[Column[SimulatedLayout]]:
    """Every column and export field of the simulation, in the JSON contract's order."""
    return [
        *_group_fields(),
        *_aggregate_fields(),
        *_diagnostic_fields(),
        *_group_lost_fields(),
        *_group_lost_aggregate_fields(),
    ]


def simulation_columns() -> list[Column[SimulatedLayout]]:
    """The columns of the simulation table, most important never dropped (priority 0).

    The declarations of :func:`simulation_fields` in the table's order (the diagnostics
    before the aggregate).
    """
    return shown_columns(
        [
            *_group_fields(),
            *_group_lost_fields(),
            *_diagnostic_fields(),
            *_aggregate_fields(),
            *_group_lost_aggregate_fields(),
        ]
    )


def notes(report: SimulationReport) -> list[str]:
    """Footnotes: what was simulated, how, the seed, uneven divisions, missed targets."""
    years = report.mission_hours / HOURS_PER_YEAR
    lines = [
        f"Monte Carlo over {years:g} years ({report.mission_hours:,.0f} h), distributions: "
        f"{report.distributions}; {METHOD_NOTES.get(report.method, report.method)}.",
        f"Stopped {report.stopping}; seed {report.seed} (--seed {report.seed} reproduces it).",
    ]
    if any(r.result.method != "plain" for r in report.rows):
        lines.append(
            "Eff. trials: effective sample size (sum y)^2 / sum y^2 of the per-trial "
            f"estimates; Top trial: the largest trial's share of the sum. {UNTRUSTED_MARKER}: "
            "too few effective trials or one trial dominating, the interval cannot be trusted."
        )
    lines.append(group_lost_note(report.sectors_fail_rebuild))
    lines += uneven_notes(report.data_disks, ((r.layout, r.shape) for r in report.rows))
    for row in report.rows:
        lines += diagnostic_notes(row.layout.label, row.result, report.target_rel_error)
        if row.group_lost is not row.result:
            lines += diagnostic_notes(
                f"{row.layout.label}, P(group lost)", row.group_lost, report.target_rel_error
            )
    return lines


def group_lost_note(sectors_fail_rebuild: bool) -> str:
    """What the simulated P(group lost) is, and how it was run."""
    if sectors_fail_rebuild:
        return (
            "P(group lost): an unreadable sector fails the rebuild "
            "(restore.on_unreadable_sector: fail-rebuild), so every loss loses the group: "
            "P(group lost) = P(loss)."
        )
    return (
        "P(group lost): k+1 drives down at once during the mission, sector losses written "
        "off and the group going on; simulated with latent defects off, which play no part "
        "in it. It is not a share of P(loss) (any first loss): the two do not sum."
    )


def _rows(report: SimulationReport) -> tuple[list[Column[SimulatedLayout]], list[list[str]]]:
    columns = simulation_columns()
    return columns, table_cells(columns, report.rows)


def to_rich_table(report: SimulationReport, max_width: int | None = None) -> Table:
    """A Rich table; with ``max_width`` the least important columns are left out to fit."""
    columns, rows = _rows(report)
    keep = fit_columns(columns, rows, max_width)
    table = rich_table_for(f"{report.title}: simulation", columns, keep)
    for cells in rows:
        table.add_row(*(cells[i] for i in keep))
    return table


def to_markdown(report: SimulationReport) -> str:
    """A GitHub-flavoured Markdown table with a heading and footnotes."""
    columns, rows = _rows(report)
    lines = [f"### {report.title}: simulation", "", *markdown_table(columns, rows), ""]
    lines += [
        f"- {markdown_cell(note.removeprefix('* '))}"
        for note in inputs_lines(report.inputs, notes(report))
    ]
    return "\n".join(lines) + "\n"


def simulation_records(report: SimulationReport) -> list[dict[str, Any]]:
    """One flat record of raw values per layout (the JSON contract's ``layouts``)."""
    return list(export_records(simulation_fields(), report.rows))


def to_json(report: SimulationReport) -> str:
    """The JSON contract: scenario, mission_hours, layouts (raw values), plus run details."""
    document = {
        "scenario": report.title,
        "mission_hours": report.mission_hours,
        "distributions": report.distributions,
        "method": report.method,
        "seed": report.seed,
        "target_rel_error": report.target_rel_error,
        "layouts": simulation_records(report),
    }
    return json_text(with_inputs(document, report.inputs))


def to_csv(report: SimulationReport) -> str:
    """CSV with a header row and raw values for spreadsheets."""
    return csv_text(simulation_records(report), report.inputs)
