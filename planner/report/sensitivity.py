"""Render a tornado (``planner sensitivity``) as a Rich table and bar chart, Markdown, CSV, JSON.

Inputs are named and valued as in scenario files (``drive.arr`` 1.9%, ``mission_years`` 5;
:mod:`planner.analysis.varied_fields`). The bar chart under the terminal's table is
:mod:`planner.report.tornado_chart`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planner.core.markov.rates import HOURS_PER_YEAR
from planner.report import render
from planner.report.field_values import field_texts
from planner.report.numbers import ratio_column, signed_column
from planner.report.percentages import format_percent, percent_column, risk_column
from planner.report.table import Column, export_field, finite_or_none, shown_columns
from planner.report.tornado_chart import tornado_chart

if TYPE_CHECKING:
    from rich.table import Table

    from planner.analysis.sensitivity import BarFigures, SensitivityReport
    from planner.analysis.varied_fields import ScenarioField
    from planner.core.design.sensitivity import TornadoBar


@dataclass(frozen=True)
class _FieldValue:
    """An input's value in its scenario field's unit (ARR as a fraction, years)."""

    field: ScenarioField
    value: float


def _in_field_unit(
    report: SensitivityReport, read: Callable[[BarFigures], float]
) -> Callable[[TornadoBar], _FieldValue]:
    def value(bar: TornadoBar) -> _FieldValue:
        moved = report.figures[bar.parameter]
        return _FieldValue(moved.field, read(moved))

    return value


def _field_values_column(values: Sequence[_FieldValue]) -> list[str]:
    """Each input in its own field's unit (``1.9%``, ``0.000108``, ``42``), one notation."""
    return field_texts([(v.field, v.value) for v in values])


def _clean(value: float) -> float:
    """``value`` to 12 significant digits: 0.019, not 0.019000000000000003 (unit noise)."""
    return float(f"{value:.12g}")


def _exported_field_value(value: _FieldValue) -> float:
    return _clean(value.value)


def _elasticity_column(values: Sequence[float]) -> list[str]:
    """``+2.00``, ``+0.86``, ``-0.000087``: signed, one notation a column."""
    return signed_column(values)


def sensitivity_fields(report: SensitivityReport) -> list[Column[TornadoBar]]:
    """Every column and export field of the tornado, in the JSON contract's order.

    The table shows them in the same order (:func:`sensitivity_columns`); the records of
    JSON and CSV (:func:`bar_records`) hold the inputs in their field's unit.
    """
    return [*_input_fields(report), *_risk_fields(report)]


def _input_fields(report: SensitivityReport) -> list[Column[TornadoBar]]:
    """The input's rank, name, unit, and its values at the base, moved down and up."""
    s = report.sensitivity
    low, high = f"×{s.low_factor:g}", f"×{s.high_factor:g}"
    bar = report.figures
    return [
        export_field("rank", lambda b: bar[b.parameter].rank),
        Column("Input", lambda b: bar[b.parameter].field.name, numeric=False, key="field"),
        export_field("unit", lambda b: bar[b.parameter].field.unit),
        Column(
            "Base",
            _in_field_unit(report, lambda f: f.base_value),
            _field_values_column,
            priority=4,
            key="base_value",
            export=_exported_field_value,
        ),
        Column(
            f"Low ({low})",
            _in_field_unit(report, lambda f: f.low_value),
            _field_values_column,
            short_header=f"Low\n{low}",
            priority=3,
            key="low_value",
            export=_exported_field_value,
        ),
        Column(
            f"High ({high})",
            _in_field_unit(report, lambda f: f.high_value),
            _field_values_column,
            short_header=f"High\n{high}",
            priority=3,
            key="high_value",
            export=_exported_field_value,
        ),
    ]


def _risk_fields(report: SensitivityReport) -> list[Column[TornadoBar]]:
    """P(loss) of the aggregate moved down and up, against the base, and the elasticities."""
    bar = report.figures
    return [
        Column(
            "P(loss) low",
            lambda b: b.p_loss_low,
            risk_column,
            short_header="P(loss)\nlow",
            key="p_loss_low",
        ),
        Column(
            "P(loss) high",
            lambda b: b.p_loss_high,
            risk_column,
            short_header="P(loss)\nhigh",
            key="p_loss_high",
        ),
        Column(
            "Risk low/base",
            lambda b: bar[b.parameter].risk_low,
            ratio_column,
            short_header="Risk\nlow/base",
            priority=6,
        ),
        Column(
            "Risk high/base",
            lambda b: bar[b.parameter].risk_high,
            ratio_column,
            short_header="Risk\nhigh/base",
            priority=6,
        ),
        Column("Swing", lambda b: b.swing, percent_column, priority=2, key="swing"),
        Column(
            "Elasticity",
            lambda b: b.elasticity,
            _elasticity_column,
            short_header="Elasti-\ncity",
            key="elasticity",
            export=finite_or_none,
        ),
        Column(
            "Elasticity (group)",
            lambda b: b.elasticity_group,
            _elasticity_column,
            short_header="Elast.\n(group)",
            priority=7,
            key="elasticity_group",
            export=finite_or_none,
        ),
        export_field("low_capped", lambda b: b.low_capped),
        export_field("high_capped", lambda b: b.high_capped),
    ]


def sensitivity_columns(report: SensitivityReport) -> list[Column[TornadoBar]]:
    """The columns of the table (CLI, Markdown, the TUI's tornado); priority 0 always shown."""
    return shown_columns(sensitivity_fields(report))


def to_rich_table(report: SensitivityReport, max_width: int | None = None) -> Table:
    """The tornado table (largest swing first) with the bar chart under it, in one grid."""
    from rich.table import Table

    grid = Table.grid()
    grid.add_row(render.rich_table(sensitivity_view(report), max_width))
    grid.add_row("")
    grid.add_row(tornado_chart(report, max_width))
    return grid


def notes(report: SensitivityReport) -> list[str]:
    """Footnotes: the layout and its base risk, what was moved, what elasticity means."""
    s = report.sensitivity
    years = s.point.mission_hours / HOURS_PER_YEAR
    group = report.group or f"{s.group_size} ({s.group_size - s.parity}+{s.parity})"
    aggregate = "sized aggregate" if report.sized else "aggregate"
    lines = [
        f"{report.label}: {s.groups} groups of {group}, "
        f"{s.point.data_disks:,} data drives; P(loss) over {years:g} years "
        f"{format_percent(s.p_loss_aggregate)} for the {aggregate}, "
        f"{format_percent(s.p_loss_group)} per group.",
        f"Each input multiplied by {s.low_factor:g} and by {s.high_factor:g} as --set field=value "
        f"sets it (each bar is planner {'size' if report.sized else 'evaluate'}'s P(loss) with "
        "it; what it derives follows, the others held); ranked by the swing in P(loss) of the "
        "aggregate.",
        "Elasticity: d ln P / d ln x at the base (exact derivative): +2 means 1% more of the "
        "input gives about 2% more risk; data drives count groups as continuous.",
    ]
    lines += _capped_notes(report)
    if report.sized:
        lines.append(
            "The workload's sizing sets the aggregate: "
            f"{s.point.data_disks:,} data drives, as planner size and the TUI's compare table "
            "show it (planner evaluate compares aggregate.data_disks); "
            "aggregate.data_disks does not change it, so it has no bar."
            + _own_defects_words(report)
        )
    if report.pool_rebuild_hours is not None:
        lines.append(
            "restore.rebuild_hours is the traditional rebuild onto one drive; this pool "
            f"rebuilds in {report.pool_rebuild_hours:.3g} h (docs/declustered.md), and its "
            "bar moves the traditional time as planner evaluate --set does."
        )
    if report.rebuild_model:
        lines.append(
            "restore.rebuild_hours is the rebuild model's mean restore time "
            "(from restore.rebuild_mb_per_s); halving it is like doubling the rate."
        )
    return [*lines, *report.notes]


def _own_defects_words(report: SensitivityReport) -> str:
    """`` Its drives read the workload's reads...``: a sized aggregate's own defect rate."""
    own = report.sensitivity.point.rates.latent_defects_per_hour
    if report.inputs is None or not report.inputs.latent_defects_from_workload:
        return ""
    return (
        " Its data drives share the workload's reads, and its groups' drives theirs: latent "
        f"defects {own:.4g} per drive-hour, where each of aggregate.data_disks' "
        f"{report.inputs.data_disks:,} data drives would read "
        f"{report.inputs.latent_defects_per_hour:.4g}."
    )


def _capped_notes(report: SensitivityReport) -> list[str]:
    """One note per move that stopped at its input's limit short of its factor."""
    s = report.sensitivity
    lines = []
    for bar in s.bars:
        moved = report.figures[bar.parameter]
        field = moved.field
        for capped, factor, shown, bound in (
            (bar.low_capped, s.low_factor, moved.low_value, "least"),
            (bar.high_capped, s.high_factor, moved.high_value, "most"),
        ):
            if capped:
                under = bound == "most" and shown < field.upper
                where = "just under the most" if under else f"at the {bound}"
                number = f"{100 * shown:.7g}%" if field.percent else f"{shown:.7g} {field.unit}"
                lines.append(
                    f"{field.name} ×{factor:g} stopped {where} a scenario may hold: {number}."
                )
    return lines


def sensitivity_view(report: SensitivityReport) -> render.TableView[TornadoBar]:
    """The tornado's table (largest swing first) as every format shows it."""
    s = report.sensitivity
    return render.TableView(
        title=f"{report.title}: sensitivity of {report.label}",
        columns=sensitivity_columns(report),
        rows=s.bars,
        notes=notes(report),
        inputs=report.inputs,
        fields=sensitivity_fields(report),
        document={
            "scenario": report.title,
            "layout": report.label,
            "parity": s.parity,
            "group_size": s.group_size,
            "groups": s.groups,
            "data_disks": s.point.data_disks,
            "mission_hours": s.point.mission_hours,
            "p_loss_group": s.p_loss_group,
            "p_loss_aggregate": s.p_loss_aggregate,
            "low_factor": s.low_factor,
            "high_factor": s.high_factor,
            "sized_aggregate": report.sized,
        },
        rows_key="bars",
    )


def to_markdown(report: SensitivityReport) -> str:
    """A GitHub-flavoured Markdown table with a heading and the notes as a list."""
    return render.markdown(sensitivity_view(report))


def bar_records(report: SensitivityReport) -> list[dict[str, Any]]:
    """One record per input, largest swing first, values in the scenario field's unit."""
    return render.records(sensitivity_view(report))


def to_json(report: SensitivityReport) -> str:
    """The layout, its base risk, the factors and the bars (raw floats)."""
    return render.json(sensitivity_view(report))


def to_csv(report: SensitivityReport) -> str:
    """CSV of the bars with a header row and raw values."""
    return render.csv(sensitivity_view(report))
