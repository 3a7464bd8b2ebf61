"""Render a fleet fit (``planner fit``) as a Rich table, Markdown, CSV or JSON, and the snippet.

The table is long: one row per figure (ARR, Weibull shape and scale, ARR in each year of
service, the degraded multiplier) of each set of drives (the whole log, then each model),
with its estimate, its 95 % interval and the failures and drive-years behind it. Its columns
are declared once (:data:`FIT_COLUMNS`) for the Rich table, Markdown and CSV; the JSON is
the result's own fields, nested as the contract pins them (``exponential.arr``,
``weibull.shape``, ...; docs/fit.md). The ``drive:`` snippet (:mod:`planner.report.
fleet_snippet`) follows the table in the terminal and in Markdown, and is in the JSON.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planner.analysis.fleet_fit import ALL_DRIVES, FEW_FAILURES, FleetFit, SubsetFit
from planner.report import render
from planner.report.fleet_snippet import drive_snippet
from planner.report.numbers import count_words_column, format_count, integer_column
from planner.report.percentages import format_percent
from planner.report.table import Column

if TYPE_CHECKING:
    from rich.table import Table


@dataclass(frozen=True)
class FitRow:
    """One figure of one set of drives, as the table shows it.

    Attributes:
        subset: the set's label (``all drives`` or a model).
        figure: what the row is, e.g. ``ARR, year 2``.
        key: the figure's name in CSV: ``arr``, ``weibull_shape``, ``arr_year_2``...
        kind: how to show the numbers: ``fraction``, ``number``, ``hours`` or ``times``.
        estimate: the point estimate.
        low: the interval's low end.
        high: its high end (may be infinite).
        failures: the failures behind the figure, or None.
        drive_years: the drive-years behind it, or None.
    """

    subset: str
    figure: str
    key: str
    kind: str
    estimate: float
    low: float
    high: float
    failures: int | None = None
    drive_years: float | None = None


def _cell(kind: str, value: float) -> str:
    if math.isinf(value):
        return "∞"
    if kind == "fraction":
        return format_percent(value, 3)
    if kind == "hours":
        return f"{format_count(value, 3)} h"
    if kind == "times":
        return f"{format_count(value, 3)}×"
    return format_count(value, 3)


def _figures(rows: Sequence[tuple[str, float]]) -> list[str]:
    return [_cell(kind, value) for kind, value in rows]


def _optional(format_values: Any) -> Any:
    def cells(values: list[Any]) -> list[str]:
        known = [v for v in values if v is not None]
        texts = iter(format_values(known))
        return ["" if v is None else next(texts) for v in values]

    return cells


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


FIT_COLUMNS: tuple[Column[FitRow], ...] = (
    Column("Drives", lambda r: r.subset, numeric=False, key="subset"),
    Column("Figure", lambda r: r.figure, numeric=False, key="figure"),
    Column("Estimate", lambda r: (r.kind, r.estimate), _figures),
    Column("95% low", lambda r: (r.kind, r.low), _figures, short_header="95%\nlow"),
    Column("95% high", lambda r: (r.kind, r.high), _figures, short_header="95%\nhigh"),
    Column("Failures", lambda r: r.failures, _optional(integer_column), priority=2),
    Column(
        "Drive-years",
        lambda r: r.drive_years,
        _optional(lambda v: count_words_column(v, 3)),
        short_header="Drive-\nyears",
        priority=1,
    ),
)
"""The columns of the table (Rich, Markdown); CSV carries the raw values of :data:`FIT_FIELDS`."""

FIT_FIELDS: tuple[Column[FitRow], ...] = (
    FIT_COLUMNS[0],
    Column("key", lambda r: r.key, numeric=False, key="figure", shown=False),
    Column("estimate", lambda r: r.estimate, key="estimate", export=_finite, shown=False),
    Column("low", lambda r: r.low, key="ci_low", export=_finite, shown=False),
    Column("high", lambda r: r.high, key="ci_high", export=_finite, shown=False),
    Column("failures", lambda r: r.failures, key="failures", shown=False),
    Column("drive_years", lambda r: r.drive_years, key="drive_years", shown=False),
)
"""The CSV's fields, in order: subset, figure, estimate, ci_low, ci_high, failures, drive_years."""


def subset_rows(subset: SubsetFit) -> list[FitRow]:
    """The rows of one set of drives: ARR, the Weibull fit, ARR by year of service."""
    fit, label = subset.exponential, subset.label
    rows = [
        FitRow(
            label,
            "ARR (constant rate)",
            "arr",
            "fraction",
            fit.arr,
            *fit.arr_ci,
            fit.failures,
            fit.drive_years,
        ),
    ]
    weibull = subset.weibull
    if weibull is not None:
        rows += [
            FitRow(
                label, "Weibull shape", "weibull_shape", "number", weibull.shape, *weibull.shape_ci
            ),
            FitRow(
                label,
                "Weibull scale",
                "weibull_scale_hours",
                "hours",
                weibull.scale_hours,
                *weibull.scale_hours_ci,
            ),
        ]
    rows += [
        FitRow(
            label,
            f"ARR, year {y.year}",
            f"arr_year_{y.year}",
            "fraction",
            y.arr,
            *y.arr_ci,
            y.failures,
            y.drive_years,
        )
        for y in subset.years
    ]
    return rows


def fit_rows(fit: FleetFit) -> list[FitRow]:
    """Every row of the table: the whole log (with the multiplier), then each model."""
    rows = subset_rows(fit.overall)
    found = fit.degraded
    if found is not None:
        rows.append(
            FitRow(
                ALL_DRIVES,
                f"Degraded multiplier ({found.window_hours:g} h)",
                "degraded_multiplier",
                "times",
                found.multiplier,
                *found.multiplier_ci,
                found.failures_in_windows,
                found.drive_years_in_windows,
            )
        )
    for model in fit.models:
        rows += subset_rows(model)
    return rows


def title(fit: FleetFit) -> str:
    """``Fit of LOG: 8,968 drives, 969 failures, 28,000 drive-years``."""
    overall = fit.overall
    return (
        f"Fit of {fit.source}: {overall.drives:,} drives, {overall.failures:,} "
        f"failure{'' if overall.failures == 1 else 's'}, "
        f"{format_count(overall.exponential.drive_years, 3)} drive-years"
    )


def notes(fit: FleetFit) -> list[str]:
    """What the figures mean and what the log lacked, under the table."""
    found = [
        "ARR = failures / drive-hours x 8,760 h (a constant rate, NS3574's convention). "
        "95% intervals: exact Poisson for every ARR; normal on the log scale for the Weibull "
        "shape and scale (lifelines' fit, right-censored); docs/fit.md."
    ]
    for subset in fit.subsets:
        if subset.exponential.upper_bound_only:
            found.append(
                f"{subset.label}: no failure in the log, so the ARR has only an upper bound "
                f"({format_percent(subset.exponential.arr_ci[1], 3)} at 95%)."
            )
        if subset.weibull is None:
            found.append(f"{subset.label}: no Weibull fit: {subset.weibull_note}.")
        elif subset.failures < FEW_FAILURES:
            found.append(
                f"{subset.label}: only {subset.failures} failures: the Weibull intervals "
                "(a normal approximation) are rough."
            )
    if fit.models:
        found.append(
            "'all drives' mixes the models' lifetimes: for a scenario of one model, take "
            "that model's figures."
        )
    found += _degraded_notes(fit)
    if fit.zero_hour_drives:
        found.append(f"{fit.zero_hour_drives:,} drives with 0 hours in service add nothing.")
    if fit.ignored_columns:
        found.append(f"Columns not read: {', '.join(fit.ignored_columns)}.")
    return found


def _degraded_notes(fit: FleetFit) -> list[str]:
    found = fit.degraded
    if found is None:
        return [f"No degraded multiplier: {fit.degraded_note}."]
    lines = [
        f"Degraded multiplier: the failure rate in the {found.window_hours:g} h after a "
        f"failure in the drive's group over the rate otherwise ({found.failures_in_windows} "
        f"failures in {format_count(found.drive_years_in_windows, 3)} drive-years, against "
        f"{found.failures_outside:,} in {format_count(found.drive_years_outside, 3)}); exact "
        "conditional interval; it assumes a rate that does not change with age."
    ]
    if found.failures_in_windows < FEW_FAILURES and found.multiplier >= 1:
        # a ZFS admin's log gave 7.93x from one such failure, said like any other figure
        count = found.failures_in_windows
        lines.append(
            f"Only {count} failure{'s' if count != 1 else ''} in a degraded window: the "
            f"multiplier's 95% interval is {_times(found.multiplier_ci)}, so the log cannot "
            "say how much its drives fail together; docs/correlated.md gives plausible values "
            "to start from, and the tornado shows how much they move the answer."
        )
    if fit.common_start:
        lines.append(
            "The log has no installed_at_hours: every drive is taken as installed at hour 0 "
            "of one fleet clock."
        )
    return lines


def _times(interval: tuple[float, float]) -> str:
    """``0.194x to 47.7x`` (``no upper bound`` for an infinite end)."""
    low, high = interval
    top = "no upper bound" if math.isinf(high) else f"{high:.3g}x"
    return f"{low:.3g}x to {top}"


def fit_view(fit: FleetFit) -> render.TableView[FitRow]:
    """The table as every format shows it; each set of drives is a group of rows."""
    rows = fit_rows(fit)
    return render.TableView(
        title=title(fit),
        columns=FIT_COLUMNS,
        rows=rows,
        notes=notes(fit),
        fields=FIT_FIELDS,
        rows_key="estimates",
        group_starts=[i == 0 or rows[i - 1].subset != r.subset for i, r in enumerate(rows)],
    )


def snippets(fit: FleetFit) -> list[str]:
    """The ``drive:`` snippet of each set of drives, the whole log first."""
    return [drive_snippet(fit, subset) for subset in fit.subsets]


def snippets_text(fit: FleetFit) -> str:
    """The snippets as the terminal shows them after the table and notes.

    Plain text, never wrapped to the terminal: a comment wrapped onto a line of its own
    would not paste as YAML.
    """
    return "\nPaste into a scenario:\n\n" + "\n".join(snippets(fit))


def to_rich_table(fit: FleetFit, max_width: int | None = None) -> Table:
    """The table; its notes are :func:`notes`, then come :func:`snippets_text`."""
    return render.rich_table(fit_view(fit), max_width)


def to_markdown(fit: FleetFit) -> str:
    """The table with its notes, then each snippet in a YAML block."""
    blocks = "".join(f"\n```yaml\n{text}```\n" for text in snippets(fit))
    return render.markdown(fit_view(fit)) + "\nPaste into a scenario:\n" + blocks


def _log_comment(fit: FleetFit) -> str:
    return f"# Log: {fit.source}; degraded window {fit.window_hours:g} h; 95% intervals\n"


def to_csv(fit: FleetFit) -> str:
    """CSV, one row per figure: subset, figure, estimate, ci_low, ci_high, failures, drive_years."""
    return _log_comment(fit) + render.csv_records(render.records(fit_view(fit)), None)


def _plain(value: Any) -> Any:
    """A result's fields as JSON values: tuples as lists, infinities as null."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _subset_document(fit: FleetFit, subset: SubsetFit) -> dict[str, Any]:
    exponential = _plain(subset.exponential)
    exponential["upper_bound_only"] = subset.exponential.upper_bound_only
    return {
        "drives": subset.drives,
        "failures": subset.failures,
        "drive_hours": subset.exponential.drive_hours,
        "exponential": exponential,
        "weibull": _plain(subset.weibull),
        "weibull_note": subset.weibull_note,
        "arr_by_year": [{**_plain(y), "drive_years": y.drive_years} for y in subset.years],
        "snippet": drive_snippet(fit, subset),
    }


def to_json(fit: FleetFit) -> str:
    """The JSON contract (docs/fit.md): the whole log's figures, then ``models``."""
    degraded = _plain(fit.degraded)
    document = {
        "log": fit.source,
        **_subset_document(fit, fit.overall),
        "degraded_multiplier": degraded,
        "degraded_note": fit.degraded_note,
        "window_hours": fit.window_hours,
        "models": [{"model": m.label, **_subset_document(fit, m)} for m in fit.models],
        "zero_hour_drives": fit.zero_hour_drives,
        "ignored_columns": list(fit.ignored_columns),
        "notes": notes(fit),
    }
    return render.json_document(document, None)
