"""Render the methods side by side (``planner compare-methods``, ``evaluate --methods``).

For each layout, one row per method: the exact Markov P(loss), the MTTDL approximation
``1 - exp(-T / MTTDL)`` (exact MTTDL and closed form), the classic model without latent
defects, and the simulation with constant rates and with the scenario's distributions,
each with its ratio to the exact Markov answer (:mod:`planner.analysis.method_estimates`).
The renderers of :mod:`planner.report.render` draw every format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from planner.analysis.method_estimates import MTTDL, MTTDL_APPROX, NO_LATENT, SPEC_SHEET
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.report import render
from planner.report.methods_columns import (
    Row,
    layout_fields,
    method_fields,
    methods_columns,
    methods_fields,
)
from planner.report.numbers import ratio_column
from planner.report.simulation import METHOD_NOTES, diagnostic_notes
from planner.report.table import (
    Column,
    export_field,
    export_records,
    finite_or_none,
)

if TYPE_CHECKING:
    from rich.table import Table

    from planner.analysis.method_comparison import MethodsReport
    from planner.analysis.method_estimates import AnalyticEstimates, MethodEstimate
    from planner.core.design.layout_comparison import LayoutResult


def notes(report: MethodsReport) -> list[str]:
    """Footnotes: methods, simulation settings, stand-in distributions, per-run notes.

    Each simulation that the time budget stopped, or whose interval cannot be trusted,
    gets :func:`~planner.report.simulation.diagnostic_notes`, as in ``planner simulate``.
    """
    years = report.mission_hours / HOURS_PER_YEAR
    lines = [
        f"P(loss) of one group over {years:g} years ({report.mission_hours:,.0f} h); "
        "vs Markov: each method over the exact Markov answer.",
        "1-exp(-T/MTTDL): exact MTTDL; closed form: leading-order MTTDL for failure rates "
        "<< repair rates. No latent defects: the chain with latent_defects_per_hour = 0.",
        *([report.closed_form_note] if report.closed_form_note else []),
        f"Simulations: {METHOD_NOTES.get(report.method, report.method)}; stopped "
        f"{report.stopping}; seed {report.seed}.",
        *([report.fixed_note] if report.fixed_note else []),
    ]
    if report.distributions_note:
        lines.append(report.distributions_note)
    for entry in report.layouts:
        for estimate in entry.estimates:
            if estimate.simulation is not None:
                label = f"{entry.layout.label}, {estimate.name}"
                lines += [
                    n.removeprefix("* ")
                    for n in diagnostic_notes(label, estimate.simulation, report.target_rel_error)
                ]
    return lines


def _method_rows(report: MethodsReport) -> list[Row]:
    return [(entry, e) for entry in report.layouts for e in entry.estimates]


def methods_view(report: MethodsReport) -> render.TableView[Row]:
    """The methods table (long: one row per layout and method), a section per layout."""
    return render.TableView(
        title=f"{report.title}: methods compared",
        columns=methods_columns(),
        rows=_method_rows(report),
        notes=notes(report),
        inputs=report.inputs,
        fields=methods_fields(),
        group_starts=[e is entry.estimates[0] for entry, e in _method_rows(report)],
    )


def to_rich_table(report: MethodsReport, max_width: int | None = None) -> Table:
    """A Rich table, a section per layout; the least important columns go when narrow."""
    return render.rich_table(methods_view(report), max_width)


def to_markdown(report: MethodsReport) -> str:
    """A GitHub-flavoured Markdown table with a heading and footnotes."""
    return render.markdown(methods_view(report))


def to_json(report: MethodsReport) -> str:
    """Scenario, mission, simulation settings, and per layout a list of method estimates."""
    document = {
        "scenario": report.title,
        "mission_hours": report.mission_hours,
        "distributions": report.distributions,
        "distributions_note": report.distributions_note or None,
        **({"closed_form_note": report.closed_form_note} if report.closed_form_note else {}),
        "method": report.method,
        "seed": report.seed,
        "target_rel_error": report.target_rel_error,
        "layouts": [
            {
                **next(export_records(layout_fields(), [(entry, entry.estimates[0])])),
                "methods": list(
                    export_records(method_fields(), [(entry, e) for e in entry.estimates])
                ),
            }
            for entry in report.layouts
        ],
    }
    return render.json_document(document, report.inputs)


def to_csv(report: MethodsReport) -> str:
    """CSV in long format: one row per layout and method, raw values."""
    return render.csv(methods_view(report))


EVALUATE_NOTE = (
    "Methods, each as a ratio to the exact P(loss) group: 1-exp(-T/MTTDL) with the exact and "
    "the closed-form (leading-order) MTTDL, and the chain without latent defects (a narrow "
    "terminal may leave them out; JSON and CSV give the probabilities). Simulations: "
    "planner compare-methods."
)
"""The note ``planner evaluate --methods`` adds under its table."""

_EVALUATE_COLUMNS = (
    (MTTDL, "1-exp(-T/MTTDL) vs exact", "MTTDL\nvs exact"),
    (MTTDL_APPROX, "1-exp(-T/MTTDL), closed form vs exact", "Closed-form\nvs exact"),
    (NO_LATENT, "No latent defects vs exact", "No latent\nvs exact"),
    (SPEC_SHEET, "Spec-sheet URE method vs exact", "Spec sheet\nvs exact"),
)


def evaluate_columns(analytic: Mapping[str, AnalyticEstimates]) -> list[Column[LayoutResult]]:
    """Extra columns and export fields of ``planner evaluate --methods``, in export order.

    The MTTDL of the closed form, then for each method its P(loss) of a group (exports
    only) and its ratio to the exact P(loss) (a column, and ``ratio_<method>``).
    """

    def estimate(key: str) -> Callable[[LayoutResult], MethodEstimate]:
        return lambda r: analytic[r.layout.label].estimate(key)

    def ratio(key: str) -> Callable[[LayoutResult], float]:
        read = estimate(key)

        def value(r: LayoutResult) -> float:
            ratio = read(r).ratio_to_markov
            assert ratio is not None  # an analytic method always has its ratio
            return ratio

        return value

    def p_loss(key: str) -> Callable[[LayoutResult], float]:
        read = estimate(key)
        return lambda r: read(r).p_loss_group

    # Droppable, the most telling last: a terminal too narrow for them keeps evaluate's table.
    # The spec-sheet method only when the scenario gives a capacity and an error rate per bit.
    given = {e.key for a in analytic.values() for e in a.estimates}
    fields: list[Column[LayoutResult]] = [
        export_field("mttdl_approx_hours", lambda r: analytic[r.layout.label].mttdl_approx_hours)
    ]
    for i, (key, header, short) in enumerate(_EVALUATE_COLUMNS):
        if key not in given:
            continue
        fields += [
            export_field(f"p_loss_{key}", p_loss(key)),
            Column(
                header,
                ratio(key),
                ratio_column,
                short_header=short,
                priority=len(_EVALUATE_COLUMNS) - i,
                key=f"ratio_{key}",
                export=finite_or_none,
            ),
        ]
    return fields
