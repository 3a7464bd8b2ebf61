"""The methods table's columns and export fields, each declared once (issue 9).

:func:`methods_fields` lists them in the JSON and CSV order; :func:`methods_columns`
shows the same declarations in the table's order (:mod:`planner.report.methods`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from planner.report import figures
from planner.report.numbers import ratio_column
from planner.report.simulation import interval_column
from planner.report.table import Column, export_field, finite_or_none, shown_columns

if TYPE_CHECKING:
    from planner.analysis.method_comparison import LayoutMethods
    from planner.analysis.method_estimates import MethodEstimate
    from planner.core.simulation.result import SimulationResult

Row = tuple["LayoutMethods", "MethodEstimate"]
"""One row of the methods table: a layout and one method's estimate for it."""


def _sim(read: Callable[[SimulationResult], Any]) -> Callable[[Row], Any]:
    """A simulation's field of the row's estimate; None for a constant-rate method."""

    def value(row: Row) -> Any:
        sim = row[1].simulation
        return None if sim is None else read(sim)

    return value


def _ratio_or_blank_column(values: Sequence[float | None]) -> list[str]:
    """Ratios to Markov; blank where a simulation ran another scenario (no ratio)."""
    texts = iter(ratio_column([v for v in values if v is not None]))
    return ["" if v is None else next(texts) for v in values]


def layout_fields() -> list[Column[Row]]:
    """The layout of a row (JSON: the layout's record; CSV: the first columns)."""
    return [
        figures.LAYOUT.column(lambda r: r[0].layout.label),
        export_field("raid", lambda r: r[0].layout.raid),
        export_field("parity", lambda r: r[0].layout.parity),
        export_field("group_size", lambda r: r[0].layout.group_size),
        export_field("groups", lambda r: r[0].groups),
    ]


def _estimate_fields() -> list[Column[Row]]:
    """The method and its P(loss) of a group, against the exact Markov answer."""
    return [
        export_field("method", lambda r: r[1].key),
        Column("Method", lambda r: r[1].name, numeric=False, key="name"),
        figures.P_LOSS_GROUP.column(lambda r: r[1].p_loss_group),
        Column(
            "vs Markov",
            lambda r: r[1].ratio_to_markov,
            _ratio_or_blank_column,
            short_header="vs\nMarkov",
            key="ratio_to_markov",
            export=figures.optional_finite,
        ),
    ]


def _aggregate_fields() -> list[Column[Row]]:
    """The aggregate's P(loss) by the method."""
    return [figures.P_LOSS_AGGREGATE.column(lambda r: r[1].p_loss_aggregate, priority=2)]


def _simulation_fields() -> list[Column[Row]]:
    """A simulated method's interval, precision, trials and diagnostics (None otherwise)."""
    return [
        Column("95% CI", lambda r: r[1].interval, interval_column, priority=1),
        export_field("ci95_low", _sim(lambda s: finite_or_none(s.ci95_low))),
        export_field("ci95_high", _sim(lambda s: finite_or_none(s.ci95_high))),
        figures.REL_ERROR.column(_sim(lambda s: s.rel_error), priority=3),
        figures.TRIALS.column(_sim(lambda s: s.trials), priority=4),
        export_field("estimator", _sim(lambda s: s.method)),
        export_field("effective_trials", _sim(lambda s: s.effective_trials)),
        export_field("max_weight_share", _sim(lambda s: s.max_weight_share)),
        export_field("reliable", _sim(lambda s: s.reliable)),
        export_field("warning", _sim(lambda s: s.warning or None)),
        export_field("stopped_by", _sim(lambda s: s.stopped_by)),
    ]


def methods_fields() -> list[Column[Row]]:
    """Every column and export field of a method row, in the JSON and CSV order.

    JSON nests them: the layout's (:func:`layout_fields`) once per layout, the others in
    its ``methods`` list; CSV has them all on each row.
    """
    return [*layout_fields(), *method_fields()]


def method_fields() -> list[Column[Row]]:
    """The fields of one method's estimate (JSON: each entry of a layout's ``methods``)."""
    return [*_estimate_fields(), *_aggregate_fields(), *_simulation_fields()]


def methods_columns() -> list[Column[Row]]:
    """The columns of the methods table (long format: one row per layout and method).

    The declarations of :func:`methods_fields` in the table's order (the aggregate last).
    """
    return shown_columns(
        [*layout_fields(), *_estimate_fields(), *_simulation_fields(), *_aggregate_fields()]
    )
