"""Render a plan of several tiers: each tier's table as a single scenario's, then the totals.

The totals' columns are declared once here (:func:`totals_columns`) and drawn by
:mod:`planner.report.render` like every table. ``planner evaluate`` of a plan is each
tier's comparison (:mod:`planner.report.comparison`, the tier's name as its title) and the
totals; its CSV is every tier's layouts with a ``tier`` column (and ``in_total``), then the
plan's row; its JSON a list of the tiers' documents and a ``total`` object.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from planner.report import comparison, figures, render
from planner.report.costs import money_column
from planner.report.inputs import csv_comment
from planner.report.numbers import format_odds
from planner.report.percentages import risk_column
from planner.report.table import Column, ColumnFormat, markdown_cell

if TYPE_CHECKING:
    from rich.console import RenderableType

    from planner.analysis.compare import CompareData
    from planner.analysis.plan import (
        PlanComparison,
        PlanRecommendation,
        PlanRow,
        PlanTotals,
        TierComparison,
    )
    from planner.core.design.layout_comparison import LayoutResult

PLAN_ROW = "Plan"
"""The ``tier`` of the plan's row in CSV (its totals)."""


def extras(data: CompareData) -> tuple[list[str], list[Column[LayoutResult]]]:
    """Every note of ``data``'s comparison, and ``evaluate --methods``'s note and columns."""
    notes = comparison.notes(data)
    if not data.methods:  # the methods' columns and their modules only for --methods
        return notes, []
    from planner.report.methods import EVALUATE_NOTE, evaluate_columns

    return [*notes, EVALUATE_NOTE], evaluate_columns(data.methods)


def blank_none(format_column: ColumnFormat) -> ColumnFormat:
    """``format_column`` over the values a column has; None (a tier without one) blank."""

    def column(values: Sequence[Any]) -> list[str]:
        known = [v for v in values if v is not None]
        texts = iter(format_column(known))
        return ["" if v is None else next(texts) for v in values]

    return column


P_LOSS = figures.Figure(
    "P(loss) over the mission", blank_none(risk_column), "P(loss)\nmission", key="p_loss"
)
"""A tier's P(loss) of its aggregate; on the plan's row, P(any tier loses data)."""


def _odds(probabilities: Sequence[float]) -> list[str]:
    return [format_odds(p) for p in probabilities]


def totals_columns(totals: PlanTotals) -> list[Column[PlanRow]]:
    """The totals' columns (and JSON and CSV keys): the money ones only when priced."""
    currency = next((r.currency for r in totals.rows if r.currency), "")
    unit = f" ({currency})" if currency else ""
    priced = any(row.total_cost is not None for row in totals.rows)
    return [
        Column("Tier", lambda r: r.tier, numeric=False, key="tier"),
        figures.LAYOUT.column(lambda r: r.layout),
        figures.TOTAL_DRIVES.column(lambda r: r.total_disks, format=blank_none(_integers)),
        figures.USABLE_TB.column(
            lambda r: r.usable_tb,
            priority=3,
            shown=any(row.usable_tb is not None for row in totals.tiers),
        ),
        P_LOSS.column(lambda r: r.p_loss),
        Column("Odds", lambda r: r.p_loss, blank_none(_odds), priority=2),
        Column(
            f"Purchase{unit}",
            lambda r: r.purchase_cost,
            money_column,
            short_header=f"Purchase\n{unit.strip()}".strip(),
            priority=4,
            unit=currency,
            key="purchase_cost",
            shown=priced,
        ),
        Column(
            f"TCO{unit}",
            lambda r: r.total_cost,
            money_column,
            short_header=f"TCO\n{unit.strip()}".strip(),
            priority=1,
            unit=currency,
            key="total_cost",
            shown=priced,
        ),
        # a tier's own hours (the plan's row leaves them blank) and the plan's bytes per TB
        figures.DEGRADED_HOURS.column(lambda r: r.degraded_hours_per_year, priority=6),
        figures.CRITICAL_HOURS.column(lambda r: r.critical_hours_per_year, priority=7),
        figures.NOMDL.column(
            lambda r: r.nomdl_bytes_per_tb,
            priority=5,
            shown=any(row.nomdl_bytes_per_tb is not None for row in totals.rows),
        ),
    ]


def _integers(values: Sequence[int]) -> list[str]:
    return [f"{v:,}" for v in values]


def totals_title(totals: PlanTotals) -> str:
    """The totals' heading: ``Plan: <name>, <basis> layout of each tier``."""
    return f"Plan totals: {totals.title} ({totals.basis} layout of each tier)"


def totals_view(totals: PlanTotals) -> render.TableView[PlanRow]:
    """The totals as every format shows them: the plan's row in bold."""
    columns = totals_columns(totals)
    return render.TableView(
        title=totals_title(totals),
        columns=[c for c in columns if c.shown],
        rows=totals.rows,
        notes=totals.notes,
        fields=columns,
        styles=[*([""] * len(totals.tiers)), "bold"],
    )


_NOT_THE_PLANS = (
    "tier",
    "label",
    "p_loss",
    figures.DEGRADED_HOURS.key,
    figures.CRITICAL_HOURS.key,
)
"""Keys of a row the plan's JSON total leaves out: its own name, P(loss) (written as
p_loss_any_tier), and the hours, which are each tier's (no sum of them is anyone's)."""


def totals_document(totals: PlanTotals) -> dict[str, Any]:
    """The JSON ``total``: the basis, the plan's figures, one row per tier, the notes."""
    view = totals_view(totals)
    plan, *_ = render.records(
        render.TableView("", view.columns, [totals.total], fields=view.fields)
    )
    return {
        "basis": totals.basis,
        "tiers_independent": True,
        **{key: value for key, value in plan.items() if key not in _NOT_THE_PLANS},
        "p_loss_any_tier": totals.total.p_loss,
        "tiers": render.records(
            render.TableView("", view.columns, totals.tiers, fields=view.fields)
        ),
        "notes": list(totals.notes),
    }


def totals_markdown(totals: PlanTotals) -> str:
    """The totals as a Markdown table with its notes."""
    return render.markdown(totals_view(totals))


def _tier_notes(tier: TierComparison) -> list[str]:
    return extras(tier.data)[0]


def comparison_parts(plan: PlanComparison, max_width: int | None) -> list[RenderableType]:
    """The tiers' tables, each with its notes, then the totals, for a terminal.

    A note said under an earlier tier is not repeated (the Markdown keeps every tier's
    section whole: it is pasted piece by piece into documents).
    """
    from rich.text import Text

    parts: list[RenderableType] = [Text(plan.title, style="bold")]
    said: set[str] = set()  # a note every tier shares is said under the first tier only
    for tier in plan.tiers:
        _, columns = extras(tier.data)
        data = tier.data
        parts.append(
            comparison.to_rich_table(data.comparison, tier.name, max_width, columns, data.inputs)
        )
        notes = _tier_notes(tier)
        parts += [Text(note, style="dim") for note in notes if note not in said]
        said.update(notes)
        parts.append(Text(""))
    parts.append(render.rich_table(totals_view(plan.totals), max_width))
    parts += [Text(note, style="dim") for note in plan.totals.notes]
    return parts


def comparison_markdown(plan: PlanComparison) -> str:
    """The plan's heading, each tier's comparison (its inputs and notes), then the totals."""
    texts = [f"## {markdown_cell(plan.title)}\n"]
    for tier in plan.tiers:
        extra, columns = extras(tier.data)
        data = tier.data
        texts.append(
            comparison.to_markdown(data.comparison, tier.name, extra, columns, data.inputs)
        )
    texts.append(totals_markdown(plan.totals))
    return "\n".join(texts)


def _tier_document(tier: TierComparison) -> dict[str, Any]:
    _, columns = extras(tier.data)
    extra = {"rebuild_hours": tier.rebuild_hours}
    data = tier.data
    return comparison.json_document(data.comparison, tier.name, extra, columns, data.inputs)


def comparison_json(plan: PlanComparison) -> str:
    """JSON: the plan's name, mission, each tier's comparison document, then ``total``."""
    return render.json_document(
        {
            "plan": plan.title,
            "mission_hours": plan.totals.mission_hours,
            "tiers": [{"tier": t.name, **_tier_document(t)} for t in plan.tiers],
            "total": totals_document(plan.totals),
        },
        None,
    )


def comparison_csv(plan: PlanComparison) -> str:
    """CSV: every tier's layouts (``tier``, ``in_total``, then the comparison's fields).

    The last row is the plan's (``tier`` Plan): its drives, usable TB, costs and, under
    ``p_loss_aggregate``, P(any tier loses data). One ``#`` line of inputs per tier.
    """
    rows: list[dict[str, Any]] = []
    for tier, counted in zip(plan.tiers, plan.totals.tiers, strict=True):
        _, columns = extras(tier.data)
        for record in comparison.comparison_records(tier.data.comparison, columns):
            rows.append(
                {"tier": tier.name, "in_total": record["label"] == counted.layout, **record}
            )
    rows.append(plan_record(plan.totals, {"label": ""}))
    comments = "".join(f"# {t.name}: {csv_comment(t.data.inputs)[2:]}" for t in plan.tiers)
    return comments + render.csv_records(union_of_keys(rows), None)


def plan_record(totals: PlanTotals, head: Mapping[str, Any]) -> dict[str, Any]:
    """The plan's CSV row: ``tier`` Plan, ``head``, its sums and P(any tier loses data).

    P(any tier loses data) is under ``p_loss_aggregate``, the tiers' own P(loss) column;
    the costs only when priced.
    """
    total = totals.total
    costs = {"purchase_cost": total.purchase_cost, "total_cost": total.total_cost}
    return {
        "tier": PLAN_ROW,
        **head,
        "total_disks": total.total_disks,
        "usable_tb": total.usable_tb,
        "p_loss_aggregate": total.p_loss,
        **{key: value for key, value in costs.items() if value is not None},
    }


def union_of_keys(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` with every key any row has, in first-seen order (None where missing).

    The tiers of a plan may carry different fields (one priced, one not): a CSV has one
    header.
    """
    keys = list(dict.fromkeys(key for row in rows for key in row))
    return [{key: row.get(key) for key in keys} for row in rows]


def recommend_parts(
    plan: PlanRecommendation, top: int, max_width: int | None
) -> list[RenderableType]:
    """Each tier's search (summary, candidates, front), then the recommended totals."""
    from rich.text import Text

    from planner.report import recommend

    parts: list[RenderableType] = [Text(plan.title, style="bold underline"), Text("")]
    for _, found in plan.tiers:
        parts += [*recommend.to_rich(found, top, max_width), Text("")]
    parts.append(render.rich_table(totals_view(plan.totals), max_width))
    parts += [Text(note, style="dim") for note in plan.totals.notes]
    return parts


def recommend_markdown(plan: PlanRecommendation, top: int) -> str:
    """The plan's heading, each tier's search as ``planner recommend`` writes it, the totals."""
    from planner.report import recommend

    texts = [f"## {markdown_cell(plan.title)}\n"]
    texts += [recommend.to_markdown(found, top) for _, found in plan.tiers]
    texts.append(totals_markdown(plan.totals))
    return "\n".join(texts)


def recommend_json(plan: PlanRecommendation, top: int) -> str:
    """JSON: the plan, each tier's recommendation document, then ``total``."""
    from planner.report import recommend

    return render.json_document(
        {
            "plan": plan.title,
            "mission_hours": plan.totals.mission_hours,
            "tiers": [
                {"tier": name, **recommend.json_document(found, top)} for name, found in plan.tiers
            ],
            "total": totals_document(plan.totals),
        },
        None,
    )


def recommend_csv(plan: PlanRecommendation, top: int) -> str:
    """CSV: every tier's rows (``tier``, then ``role`` and the candidate's fields), the plan's.

    The plan's row has ``role`` plan_total; one ``#`` line of inputs per tier.
    """
    from planner.report import recommend

    rows: list[dict[str, Any]] = []
    for name, found in plan.tiers:
        rows += [{"tier": name, **row} for row in recommend.csv_rows(found, top)]
    rows.append(plan_record(plan.totals, {"role": "plan_total"}))
    comments = "".join(f"# {name}: {csv_comment(found.inputs)[2:]}" for name, found in plan.tiers)
    return comments + render.csv_records(union_of_keys(rows), None)


def totals_items(totals: PlanTotals, *, short: bool = False) -> list[str]:
    """The plan's row as items of a line (the TUI's tier bar), as the totals table formats it.

    ``["Plan, baselines:", "200 drives,", "1,969.3 TB,", "P(any tier loses data) 0.11%,",
    "TCO 93,931 USD;", "tiers independent"]``: each item carries the punctuation after it,
    so lines broken between items read as the one line does. ``short`` names the plan's
    risk ``P(loss, any tier)``, for a narrow screen. A figure some tier lacks is left out.
    """
    columns = totals_view(totals).columns
    last = render.TableView("", columns, totals.rows).cells()[-1]
    cells = dict(zip([c.header for c in columns], last, strict=True))
    parts = []
    if cells.get(figures.TOTAL_DRIVES.header):
        parts.append(f"{cells[figures.TOTAL_DRIVES.header]} drives")
    if cells.get(figures.USABLE_TB.header):
        parts.append(f"{cells[figures.USABLE_TB.header]} TB")
    if cells.get(P_LOSS.header):
        risk = "P(loss, any tier)" if short else "P(any tier loses data)"
        parts.append(f"{risk} {cells[P_LOSS.header]}")
    tco = next((c for c in columns if c.key == "total_cost"), None)
    if tco is not None and cells[tco.header]:
        parts.append(f"TCO {cells[tco.header]} {tco.unit}".rstrip())
    figures_shown = [f"{part}," for part in parts[:-1]] + [f"{part};" for part in parts[-1:]]
    return [f"Plan, {totals.basis}s:", *figures_shown, "tiers independent"]


def tier_slugs(names: list[str]) -> list[str]:
    """File-name parts for tiers (``NL-SAS`` -> ``nl-sas``); numbered where two would clash."""
    slugs = [re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "tier" for name in names]
    return [
        slug if slugs.count(slug) == 1 else f"{slug}-{index + 1}"
        for index, slug in enumerate(slugs)
    ]
