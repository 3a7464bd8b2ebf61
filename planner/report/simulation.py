"""Render a simulation (``planner simulate``) as a Rich table, GitHub Markdown, CSV or JSON.

One column list drives every format through :mod:`planner.report.render`, so the four
outputs always agree; the figures every table shares are :mod:`planner.report.figures`'.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from planner.core.markov.rates import HOURS_PER_YEAR
from planner.report import figures, render
from planner.report.comparison import uneven_notes
from planner.report.numbers import format_count, format_rel_error, groups_text
from planner.report.percentages import percent_column, percent_interval_column
from planner.report.table import Column, export_field, finite_or_none, shown_columns

if TYPE_CHECKING:
    from rich.table import Table

    from planner.analysis.simulation import Interval, SimulatedLayout, SimulationReport
    from planner.core.simulation.result import SimulationResult

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

MISSED_MARKER = "✗"
"""Appended to the exact Markov value where the simulation's 95% interval does not hold it."""


def interval_column(intervals: Sequence[Interval | None]) -> list[str]:
    """95% intervals (``0.0059%–0.0066%``) in one notation a column, blank for None.

    Marked when the diagnostics say an interval cannot be trusted.
    """
    given = [None if i is None or math.isnan(i.high) else i for i in intervals]
    texts = percent_interval_column([None if i is None else (i.low, i.high) for i in given])
    # no interval (a weighted run without a hit: SimulationResult.warning says why): a dash
    texts = [
        "—" if i is not None and g is None else text
        for text, i, g in zip(texts, intervals, given, strict=True)
    ]
    return [
        text if i is None or i.reliable else f"{text} {UNTRUSTED_MARKER}"
        for text, i in zip(texts, intervals, strict=True)
    ]


def markov_column(values: Sequence[tuple[float, bool | None]]) -> list[str]:
    """Exact Markov P(loss) values in one notation, marked where the interval misses them.

    Each value is ``(p_loss, inside)``: ``inside`` False marks the cell, None (another
    scenario, or no interval) leaves it unmarked.
    """
    texts = percent_column([p for p, _ in values])
    return [
        f"{text} {MISSED_MARKER}" if inside is False else text
        for text, (_, inside) in zip(texts, values, strict=True)
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
    if result.p_loss_group == 0:  # no relative error to speak of: say what was seen
        trials = format_count(result.trials)
        lines.append(
            f"* {label}: no loss in {trials} trials; the 95% interval from 0 is all it says"
            + ("; raise --time-budget for more." if result.stopped_by == "time_budget" else ".")
        )
    elif target_rel_error is not None and not result.rel_error <= target_rel_error:
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


def _counts_column(counts: Sequence[float]) -> list[str]:
    return [f"{c:,.0f}" for c in counts]


def _shares_column(shares: Sequence[float]) -> list[str]:
    return [format_share(s) for s in shares]


def _group_fields() -> list[Column[SimulatedLayout]]:
    """The layout and its group's simulated P(loss), interval and precision."""
    return [
        figures.LAYOUT.column(lambda r: r.layout.label),
        export_field("raid", lambda r: r.layout.raid),
        export_field("parity", lambda r: r.layout.parity),
        export_field("group_size", lambda r: r.layout.group_size),
        figures.DRIVES_PER_GROUP.column(lambda r: r.layout.group_text(), priority=4),
        figures.GROUPS_MARKED.column(
            lambda r: groups_text(r.groups, r.shape.exact_division), priority=3
        ),
        export_field("groups", lambda r: r.groups),
        export_field("method", lambda r: r.result.method),
        figures.TRIALS.column(lambda r: r.result.trials, priority=2),
        export_field("hits", lambda r: r.result.hits),
        figures.P_LOSS_GROUP.column(lambda r: r.result.p_loss_group),
        Column(
            "95% CI (group)",
            lambda r: r.interval,
            interval_column,
            short_header="95% CI\n(group)",
        ),
        export_field("ci95_low", lambda r: r.result.ci95_low, finite_or_none),
        export_field("ci95_high", lambda r: r.result.ci95_high, finite_or_none),
        # The exact chain beside the estimate (the TUI's F6 line shows the same figure); on a
        # narrow screen it stays and the relative error, which the interval shows, goes.
        Column(
            "Markov P(loss) group",
            lambda r: (r.markov.p_loss_group, r.markov_in_interval),
            markov_column,
            short_header="Markov\nP(loss)",
            key="p_loss_markov",
            export=lambda value: value[0],
        ),
        export_field("ratio_to_markov", lambda r: r.ratio_to_markov, figures.optional_finite),
        export_field("markov_in_ci95", lambda r: r.markov_in_interval),
        figures.REL_ERROR.column(lambda r: r.result.rel_error, priority=1),
        export_field("std_error", lambda r: r.result.std_error, finite_or_none),
    ]


def _group_lost_fields() -> list[Column[SimulatedLayout]]:
    """The group's simulated P(group lost), its interval and how it was run."""
    return [
        # the simulation's table is wide: a shorter title than the comparison's
        figures.P_GROUP_LOST_GROUP.column(
            lambda r: r.group_lost.p_loss_group, short_header="P(group\nlost)", priority=1
        ),
        Column(
            "95% CI (group lost)",
            lambda r: r.group_lost_interval,
            interval_column,
            short_header="95% CI\n(group lost)",
            priority=1,
        ),
        export_field("p_group_lost_ci95_low", lambda r: r.group_lost.ci95_low, finite_or_none),
        export_field("p_group_lost_ci95_high", lambda r: r.group_lost.ci95_high, finite_or_none),
        export_field("p_group_lost_rel_error", lambda r: r.group_lost.rel_error, finite_or_none),
        export_field("p_group_lost_trials", lambda r: r.group_lost.trials),
        export_field("p_group_lost_method", lambda r: r.group_lost.method),
        export_field("p_group_lost_reliable", lambda r: r.group_lost.reliable),
        export_field("p_group_lost_warning", lambda r: r.group_lost.warning or None),
    ]


def _group_lost_aggregate_fields() -> list[Column[SimulatedLayout]]:
    """The aggregate's P(group lost) (some group lost whole) and its interval."""
    return [
        figures.P_GROUP_LOST_AGGREGATE.column(lambda r: r.p_group_lost_aggregate, priority=2),
        export_field(
            "p_group_lost_ci95_aggregate_low",
            lambda r: r.group_lost_aggregate_interval[0],
            finite_or_none,
        ),
        export_field(
            "p_group_lost_ci95_aggregate_high",
            lambda r: r.group_lost_aggregate_interval[1],
            finite_or_none,
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
        figures.P_LOSS_AGGREGATE.column(lambda r: r.p_loss_aggregate),
        Column(
            "95% CI (aggregate)",
            lambda r: r.aggregate_interval,
            interval_column,
            short_header="95% CI\n(aggregate)",
            priority=1,
        ),
        export_field("ci95_aggregate_low", lambda r: r.aggregate_interval.low, finite_or_none),
        export_field("ci95_aggregate_high", lambda r: r.aggregate_interval.high, finite_or_none),
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
        *report.notes,
    ]
    if any(r.result.method != "plain" for r in report.rows):
        lines.append(
            "Eff. trials: effective sample size (sum y)^2 / sum y^2 of the per-trial "
            f"estimates; Top trial: the largest trial's share of the sum. {UNTRUSTED_MARKER}: "
            "too few effective trials or one trial dominating, the interval cannot be trusted."
        )
    lines.append(markov_note(report))
    lines.append(group_lost_note(report.sectors_fail_rebuild))
    lines += uneven_notes(report.data_disks, ((r.layout, r.shape) for r in report.rows))
    for row in report.rows:
        lines += diagnostic_notes(row.layout.label, row.result, report.target_rel_error)
        if row.group_lost is not row.result:
            lines += diagnostic_notes(
                f"{row.layout.label}, P(group lost)", row.group_lost, report.target_rel_error
            )
    return lines


def markov_note(report: SimulationReport) -> str:
    """What the Markov column is, and whether the simulation should agree with it.

    Every row of a report shares the scenario's distributions, so one note says it.
    """
    what = (
        "Markov P(loss) group: the exact chain at the scenario's constant rates "
        "(planner evaluate's P(loss) group)"
    )
    checks = [row.markov for row in report.rows]
    if not all(check.same_scenario for check in checks):
        return (
            f"{what}. The distributions' means are not the scenario's rates (or the drives "
            "age): the simulation ran another scenario, so no ratio and no verdict."
        )
    if all(check.exponential for check in checks):
        agreement = (
            "the simulation runs that very chain, so its 95% interval holds it about 19 times in 20"
        )
    else:
        agreement = (
            "the simulated laws are not all exponential, so the estimate differs from it by "
            "what their shapes change (same means)"
        )
    return f"{what}; {agreement}. {MISSED_MARKER}: outside the 95% interval."


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


def simulation_view(report: SimulationReport) -> render.TableView[SimulatedLayout]:
    """The simulation as every format shows it."""
    return render.TableView(
        title=f"{report.title}: simulation",
        columns=simulation_columns(),
        rows=report.rows,
        notes=notes(report),
        inputs=report.inputs,
        fields=simulation_fields(),
        document={
            "scenario": report.title,
            "mission_hours": report.mission_hours,
            "distributions": report.distributions,
            "method": report.method,
            "seed": report.seed,
            "target_rel_error": report.target_rel_error,
        },
    )


def to_rich_table(report: SimulationReport, max_width: int | None = None) -> Table:
    """A Rich table; with ``max_width`` the least important columns are left out to fit."""
    return render.rich_table(simulation_view(report), max_width)


def to_markdown(report: SimulationReport) -> str:
    """A GitHub-flavoured Markdown table with a heading and footnotes."""
    return render.markdown(simulation_view(report))


def simulation_records(report: SimulationReport) -> list[dict[str, Any]]:
    """One flat record of raw values per layout (the JSON contract's ``layouts``)."""
    return render.records(simulation_view(report))


def to_json(report: SimulationReport) -> str:
    """The JSON contract: scenario, mission_hours, layouts (raw values), plus run details."""
    return render.json(simulation_view(report))


def to_csv(report: SimulationReport) -> str:
    """CSV with a header row and raw values for spreadsheets."""
    return render.csv(simulation_view(report))
