"""Render the methods side by side (``planner compare-methods``, ``evaluate --methods``).

For each layout, one row per method: the exact Markov P(loss), the MTTDL approximation
``1 - exp(-T / MTTDL)`` (exact MTTDL and closed form), the classic model without latent
defects, and the simulation with constant rates and with the scenario's distributions,
each with its ratio to the exact Markov answer. The same
:class:`~planner.report.comparison.Column` helpers as the comparison drive every format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from planner.core.markov.rates import HOURS_PER_YEAR
from planner.core.markov.transient import relative_risk
from planner.report.inputs import Inputs, inputs_lines, with_inputs
from planner.report.methods_columns import (
    layout_fields,
    method_fields,
    methods_columns,
    methods_fields,
)
from planner.report.numbers import ratio_column
from planner.report.simulation import (
    METHOD_NOTES,
    diagnostic_notes,
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
    table_cells,
)

if TYPE_CHECKING:
    from rich.table import Table

    from planner.core.arrays.layouts import Layout, LayoutResult
    from planner.core.markov.methods import AnalyticMethods
    from planner.core.simulation.simulate import SimulationResult

MARKOV, MTTDL, MTTDL_APPROX, NO_LATENT = "markov", "mttdl", "mttdl_approx", "no_latent"
SPEC_SHEET = "spec_sheet"
SIM_EXPONENTIAL, SIM_DISTRIBUTIONS = "sim_exponential", "sim_distributions"


@dataclass(frozen=True)
class MethodEstimate:
    """One method's P(loss) of one group.

    Attributes:
        key: stable name in JSON and CSV (``markov``, ``mttdl``, ``sim_exponential``, ...).
        name: name shown in tables.
        p_loss_group: the probability of loss of one group over the mission.
        ratio_to_markov: ``p_loss_group`` over the exact Markov probability; None for a
            simulation of another scenario (laws whose means are not the scenario's rates),
            whose ratio would compare two scenarios.
        simulation: the simulation result for the simulated methods, else None.
    """

    key: str
    name: str
    p_loss_group: float
    ratio_to_markov: float | None
    simulation: SimulationResult | None = None


@dataclass(frozen=True)
class LayoutMethods:
    """Every method's answer for one layout.

    Attributes:
        layout: the layout.
        groups: RAID groups of the aggregate.
        estimates: one per method, the exact Markov answer first.
    """

    layout: Layout
    groups: int
    estimates: tuple[MethodEstimate, ...]


@dataclass(frozen=True)
class MethodsReport:
    """Everything ``planner compare-methods`` shows.

    Attributes:
        title: the scenario's name.
        mission_hours: mission length (h).
        distributions: name of the distributions of the second simulation.
        distributions_note: why those distributions (e.g. the preset stood in), or "".
        method: the simulation estimator asked for (``auto``, ``conditional``, ``biased``
            or ``plain``).
        seed: the random seed of every simulation.
        stopping: the simulations' stopping rule in words.
        target_rel_error: the simulations' requested relative error, or None for a fixed
            trial count (a simulation that stops short of it gets a note).
        inputs: the scenario's assumptions, printed by every export (None: not known).
        layouts: one entry per layout, in the scenario's order.
    """

    title: str
    mission_hours: float
    distributions: str
    distributions_note: str
    method: str
    seed: int
    stopping: str
    layouts: tuple[LayoutMethods, ...]
    inputs: Inputs | None = None
    target_rel_error: float | None = None


def _ratio(p: float, reference: float) -> float:
    return relative_risk(p, reference)


def analytic_estimates(analytic: AnalyticMethods) -> list[MethodEstimate]:
    """The constant-rate methods, exact Markov first, each with its ratio to it."""
    reference = analytic.p_markov
    return [
        MethodEstimate(MARKOV, "Markov, exact", reference, 1.0),
        MethodEstimate(
            MTTDL, "1-exp(-T/MTTDL)", analytic.p_mttdl, _ratio(analytic.p_mttdl, reference)
        ),
        MethodEstimate(
            MTTDL_APPROX,
            "1-exp(-T/MTTDL), closed form",
            analytic.p_mttdl_approx,
            _ratio(analytic.p_mttdl_approx, reference),
        ),
        MethodEstimate(
            NO_LATENT,
            "Markov, no latent defects",
            analytic.p_no_latent,
            _ratio(analytic.p_no_latent, reference),
        ),
        *(
            []
            if analytic.p_spec_sheet is None
            else [
                MethodEstimate(
                    SPEC_SHEET,
                    "Spec sheet: URE at critical rebuild",
                    analytic.p_spec_sheet,
                    _ratio(analytic.p_spec_sheet, reference),
                )
            ]
        ),
    ]


def simulated_estimate(
    key: str, name: str, result: SimulationResult, p_markov: float | None
) -> MethodEstimate:
    """A simulation as a method estimate, with its ratio to the exact Markov answer.

    ``p_markov`` None: the simulation ran another scenario, and has no ratio.
    """
    ratio = None if p_markov is None else _ratio(result.p_loss_group, p_markov)
    return MethodEstimate(key, name, result.p_loss_group, ratio, result)


Row = tuple[LayoutMethods, MethodEstimate]


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
        f"Simulations: {METHOD_NOTES.get(report.method, report.method)}; stopped "
        f"{report.stopping}; seed {report.seed}.",
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


def _rows(report: MethodsReport) -> tuple[list[Column[Row]], list[list[str]], list[bool]]:
    """Columns, cell texts, and whether each row ends a layout's section."""
    columns = methods_columns()
    items: list[Row] = []
    ends: list[bool] = []
    for entry in report.layouts:
        for i, estimate in enumerate(entry.estimates):
            items.append((entry, estimate))
            ends.append(i == len(entry.estimates) - 1)
    rows = table_cells(columns, items)
    for index, (entry, estimate) in enumerate(items):
        if estimate is not entry.estimates[0]:
            rows[index][0] = ""
    return columns, rows, ends


def to_rich_table(report: MethodsReport, max_width: int | None = None) -> Table:
    """A Rich table, a section per layout; the least important columns go when narrow."""
    columns, rows, ends = _rows(report)
    keep = fit_columns(columns, rows, max_width)
    table = rich_table_for(f"{report.title}: methods compared", columns, keep)
    for cells, end in zip(rows, ends, strict=True):
        table.add_row(*(cells[i] for i in keep), end_section=end)
    return table


def to_markdown(report: MethodsReport) -> str:
    """A GitHub-flavoured Markdown table with a heading and footnotes."""
    columns, rows, _ = _rows(report)
    lines = [f"### {report.title}: methods compared", "", *markdown_table(columns, rows), ""]
    lines += [f"- {markdown_cell(note)}" for note in inputs_lines(report.inputs, notes(report))]
    return "\n".join(lines) + "\n"


def _method_rows(report: MethodsReport) -> list[Row]:
    return [(entry, e) for entry in report.layouts for e in entry.estimates]


def to_json(report: MethodsReport) -> str:
    """Scenario, mission, simulation settings, and per layout a list of method estimates."""
    document = {
        "scenario": report.title,
        "mission_hours": report.mission_hours,
        "distributions": report.distributions,
        "distributions_note": report.distributions_note or None,
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
    return json_text(with_inputs(document, report.inputs))


def to_csv(report: MethodsReport) -> str:
    """CSV in long format: one row per layout and method, raw values."""
    return csv_text(export_records(methods_fields(), _method_rows(report)), report.inputs)


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


def evaluate_columns(analytic: Mapping[str, AnalyticMethods]) -> list[Column[LayoutResult]]:
    """Extra columns and export fields of ``planner evaluate --methods``, in export order.

    The MTTDL of the closed form, then for each method its P(loss) of a group (exports
    only) and its ratio to the exact P(loss) (a column, and ``ratio_<method>``).
    """

    def estimate(key: str) -> Callable[[LayoutResult], MethodEstimate]:
        def value(r: LayoutResult) -> MethodEstimate:
            estimates = analytic_estimates(analytic[r.layout.label])
            return next(e for e in estimates if e.key == key)

        return value

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
    given = {e.key for a in analytic.values() for e in analytic_estimates(a)}
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
