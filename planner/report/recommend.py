"""``planner recommend`` rendered: the choice, the candidates meeting the target, the front.

The columns are declared once (:func:`candidate_columns`) for the Rich tables, Markdown and
the TUI's choose view; CSV and JSON carry the raw values (:func:`candidate_record`). The
summary above the tables is :mod:`planner.report.recommend_summary`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from planner.analysis.recommend import nines
from planner.report import figures, render
from planner.report.ageing import ageing_columns
from planner.report.costs import money_column
from planner.report.inputs import inputs_lines, with_inputs
from planner.report.recommend_summary import risks_ranked, summary
from planner.report.table import (
    Column,
    export_field,
    export_records,
    finite_or_none,
    markdown_cell,
    shown_columns,
)

if TYPE_CHECKING:
    from rich.console import RenderableType

    from planner.analysis.recommend import Candidate, Recommendation


SHOWN = 10
"""Candidates meeting the target listed by default (``--top`` changes it)."""


def _nines_column(values: Sequence[float]) -> list[str]:
    """Nines of reliability with one decimal: ``4.3``."""
    return ["∞" if math.isinf(v) else f"{v:.1f}" for v in values]


def _by_workload(report: Recommendation) -> bool:
    """Whether the candidates are sized for a workload (each bound by IOPS or capacity)."""
    return any(c.bound_by is not None for c in (*report.front, *report.meeting))


def candidate_fields(report: Recommendation) -> list[Column[Candidate]]:
    """Every column and export field of a candidate, in the JSON contract's order.

    The tables show the columns (usable TB when the search counts it, the costs when the
    scenario has prices, each one's latent-defect rate when the workload's reads make it);
    the JSON and CSV records carry every keyed field, always.
    """
    own = report.inputs.latent_defects_from_workload
    usable = (report.meeting and report.meeting[0].usable_tb is not None) or bool(
        report.front and report.front[0].usable_tb is not None
    )
    return [
        figures.LAYOUT.column(lambda c: c.name, key=None),
        export_field("label", lambda c: c.layout.label),
        figures.DRIVES_PER_GROUP.column(lambda c: c.layout.group_text()),
        export_field("raid", lambda c: c.layout.raid),
        export_field("parity", lambda c: c.layout.parity),
        export_field("group_size", lambda c: c.layout.group_size),
        export_field("declustered_data", lambda c: _declustered(c, "data")),
        export_field("declustered_spares", lambda c: _declustered(c, "spares")),
        figures.GROUPS.column(lambda c: c.groups, priority=3),
        figures.TOTAL_DRIVES.column(lambda c: c.total_disks),
        figures.OVERHEAD_DRIVES.column(lambda c: c.overhead_disks, priority=2),
        figures.USABLE_TB.column(lambda c: c.usable_tb, priority=2, shown=bool(usable)),
        figures.BOUND_BY.column(lambda c: c.bound_by, priority=4, shown=_by_workload(report)),
        figures.REBUILD_HOURS.column(lambda c: c.rebuild_hours, priority=4),
        figures.LATENT_DEFECTS.column(lambda c: c.latent_defects_per_hour, priority=6, shown=own),
        figures.P_LOSS_AGGREGATE.column(lambda c: c.p_loss_aggregate),
        Column("Nines", lambda c: nines(c.p_loss_aggregate), _nines_column, priority=3),
        # a table of many candidates: a shorter title than the comparison's
        figures.P_GROUP_LOST_AGGREGATE.column(
            lambda c: c.p_group_lost_aggregate,
            short_header="P(group\nlost)",
            priority=0 if report.target.max_p_group_lost is not None else 5,
        ),
        export_field("p_sectors_lost_aggregate", lambda c: c.p_sectors_lost_aggregate),
        export_field("expected_sector_loss_events", lambda c: c.expected_sector_loss_events),
        *_cost_fields(report),
        export_field("rank_cost", lambda c: c.rank_cost, finite_or_none),
        export_field("misses", lambda c: [m.target for m in c.misses]),
        *_placement_fields(report),
        *_ageing_fields(report),
    ]


def _cost_fields(report: Recommendation) -> list[Column[Candidate]]:
    """The total cost, and that per TB: per TB needed where the search sized for a TB.

    Per usable TB there, a layout its IOPS make large looked cheapest for capacity nobody
    asked for (:mod:`planner.report.costs`); the exports carry both.
    """
    money = f" ({report.currency})" if report.currency else ""
    needed = any(
        c.cost is not None and c.cost.cost_per_needed_tb is not None
        for c in (*report.front, *report.meeting)
    )
    return [
        Column(
            f"Total cost{money}",
            lambda c: None if c.cost is None else c.cost.total_cost,
            money_column,
            short_header=f"Total\ncost{money}",
            key="total_cost",
            shown=report.money,
        ),
        *(
            Column(
                f"Cost per {what}{money}",
                _cost_part(key),
                money_column,
                short_header=short,
                priority=4,
                key=key,
                shown=report.money and needed == (key == "cost_per_needed_tb"),
            )
            for what, key, short in (
                ("usable TB", "cost_per_usable_tb", "Cost/\nTB"),
                ("TB needed", "cost_per_needed_tb", "Cost/TB\nneeded"),
            )
        ),
    ]


def _cost_part(key: str) -> Callable[[Candidate], float | None]:
    """A candidate's cost figure ``key`` (None when it is not priced)."""

    def value(candidate: Candidate) -> float | None:
        return None if candidate.cost is None else getattr(candidate.cost, key)

    return value


def _ageing_fields(report: Recommendation) -> list[Column[Candidate]]:
    """With an ageing section, the P(loss) the target is judged by (docs/ageing.md)."""
    return ageing_columns([*report.meeting, *report.front], lambda c: c.aged)


def _placement_fields(report: Recommendation) -> list[Column[Candidate]]:
    """With enclosures (docs/domains.md): the placement and P(unavailable) of the aggregate."""
    found = [*report.meeting, *report.front]
    if not any(c.placement is not None for c in found):
        return []
    limited = report.target.max_p_unavailable is not None
    return [
        figures.ENCLOSURES_PER_GROUP.column(
            lambda c: None if c.placement is None else c.placement.enclosures, priority=3
        ),
        export_field(
            "members_per_enclosure",
            lambda c: None if c.placement is None else c.placement.large_size,
        ),
        figures.P_UNAVAILABLE_AGGREGATE.column(
            lambda c: c.p_unavailable_aggregate, priority=0 if limited else 4
        ),
    ]


def candidate_columns(report: Recommendation) -> list[Column[Candidate]]:
    """The columns of every candidate table (:func:`candidate_fields` that are shown)."""
    return shown_columns(candidate_fields(report))


def _declustered(candidate: Candidate, part: str) -> int | None:
    """A pool's data drives per stripe or distributed spares; None for a traditional group."""
    pool = candidate.layout.declustered
    return None if pool is None else int(getattr(pool, part))


def _ranked_key(report: Recommendation, name: str) -> str:
    """The JSON key of the figure a risk limit judges: ``p_loss_aggregate_ageing`` with ageing."""
    key = f"{name.removeprefix('max_')}_aggregate"
    ageing = name == "max_p_loss" and report.judged_ageing
    return f"{key}_ageing" if ageing else key


def front_title(report: Recommendation) -> str:
    """``Pareto front: cost against P(loss)`` (the risks the target limits)."""
    return f"Pareto front: cost against {risks_ranked(report)}"


def _shown(report: Recommendation, top: int) -> tuple[Candidate, ...]:
    return report.meeting[:top]


def _tables(
    report: Recommendation, top: int
) -> tuple[render.TableView[Candidate], render.TableView[Candidate]]:
    """The candidates meeting the target (the best ``top``), and the front.

    The recommended layout is in bold, a candidate missing the target dimmed.
    """
    columns = candidate_columns(report)
    shown = _shown(report, top)
    chosen = report.top

    def view(title: str, rows: Sequence[Candidate]) -> render.TableView[Candidate]:
        styles = ["dim" if c.misses else "bold" if c == chosen else "" for c in rows]
        return render.TableView(title, columns, rows, styles=styles)

    return (
        view(
            f"Meeting the target, cheapest first ({len(shown)} of {len(report.meeting):,})", shown
        ),
        view(front_title(report), report.front),
    )


def to_rich(
    report: Recommendation, top: int = SHOWN, max_width: int | None = None
) -> list[RenderableType]:
    """The summary, the best candidates meeting the target, and the front, for a terminal."""
    from rich.text import Text

    parts: list[RenderableType] = [Text(report.title, style="bold")]
    parts += [Text(line) for line in summary(report)]
    parts += [render.rich_table(v, max_width) for v in _tables(report, top) if v.rows]
    parts += [Text(line, style="dim") for line in inputs_lines(report.inputs, [])]
    return parts


def to_markdown(report: Recommendation, top: int = SHOWN, with_summary: bool = True) -> str:
    """The summary, the candidates meeting the target and the front, as Markdown.

    ``with_summary=False`` leaves out the heading and the summary (the design report says
    them in its own words above the tables).
    """
    lines = []
    if with_summary:
        lines += [f"### {report.title}", ""]
        for line in summary(report):  # one paragraph each (Markdown joins adjacent lines)
            lines += [markdown_cell(line), ""]
    meeting, front = _tables(report, top)
    if meeting.rows:
        heading = f"({len(meeting.rows)} of {len(report.meeting):,})"
        lines += [f"**Meeting the target, cheapest first** {heading}", ""]
        lines += [*render.markdown_rows(meeting), ""]
    lines += [f"**{front.title}**", "", *render.markdown_rows(front), ""]
    lines += [f"- {markdown_cell(line)}" for line in inputs_lines(report.inputs, [])]
    return "\n".join(lines) + "\n"


def candidate_record(
    fields: Sequence[Column[Candidate]], candidate: Candidate, role: str
) -> dict[str, Any]:
    """One candidate's raw values under ``role`` (the JSON contract's rows)."""
    return {"role": role, **next(export_records(fields, [candidate]))}


def _records(report: Recommendation, top: int) -> list[dict[str, Any]]:
    fields = candidate_fields(report)
    rows = [candidate_record(fields, c, "meets") for c in _shown(report, top)]
    rows += [candidate_record(fields, c, "front") for c in report.front]
    for role, candidate in (
        ("recommended", report.top),
        ("nearest_cheaper", report.nearest_cheaper),
        ("closest", report.closest),
    ):
        if candidate is not None:
            rows.append(candidate_record(fields, candidate, role))
    return rows


def to_json(report: Recommendation, top: int = SHOWN) -> str:
    """The JSON contract: the search, the target, the choice, the front."""
    return render.json_document(json_document(report, top), None)


def json_document(report: Recommendation, top: int = SHOWN) -> dict[str, Any]:
    """:func:`to_json`'s document as data (a plan's JSON holds one per tier)."""
    target = report.target
    fields = candidate_fields(report)

    def single(candidate: Candidate | None, role: str) -> dict[str, Any] | None:
        return None if candidate is None else candidate_record(fields, candidate, role)

    document = {
        "scenario": report.title,
        "mission_hours": report.mission_hours,
        "requirement": report.requirement,
        "target": {
            "max_p_loss": target.max_p_loss,
            "max_p_group_lost": target.max_p_group_lost,
            "max_drives": target.max_drives,
            "max_cost": target.max_cost,
            "default": report.default_target,
            "given_as_fraction": list(report.bare_fractions),
        },
        "ranked_by_risk": [_ranked_key(report, name) for name in target.risk_limits],
        "ranked_by": "total_cost" if report.money else "total_disks",
        "currency": report.currency,
        "evaluated": report.evaluated,
        "meeting": len(report.meeting),
        "front_size": len(report.front),
        "off_front": report.off_front,
        "recommended": single(report.top, "recommended"),
        "nearest_cheaper": single(report.nearest_cheaper, "nearest_cheaper"),
        "closest": single(report.closest, "closest"),
        "candidates": [candidate_record(fields, c, "meets") for c in _shown(report, top)],
        "front": [candidate_record(fields, c, "front") for c in report.front],
        "summary": summary(report),
    }
    return with_inputs(document, report.inputs)


def to_csv(report: Recommendation, top: int = SHOWN) -> str:
    """CSV: the listed candidates, the front and the choices, one row each (``role``)."""
    return render.csv_records(csv_rows(report, top), report.inputs)


def csv_rows(report: Recommendation, top: int = SHOWN) -> list[dict[str, Any]]:
    """:func:`to_csv`'s rows (a plan's CSV holds every tier's)."""
    rows = _records(report, top)
    for row in rows:
        row["misses"] = " ".join(row["misses"])
    return rows
