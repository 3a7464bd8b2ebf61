"""Render a layout comparison (``planner evaluate``) as a Rich table, Markdown, CSV or JSON.

One list of columns (:mod:`planner.report.comparison_columns`) drives every format through
the renderers of :mod:`planner.report.render`, so the four outputs always agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from planner.core.arrays.declustered import MAX_CHILDREN, children_holding
from planner.report import render
from planner.report.availability import availability_notes
from planner.report.column_choice import screen_columns
from planner.report.comparison_columns import (
    LOSS_FIGURES_NOTE,
    comparison_columns,
    comparison_fields,
    loss_split_columns,
)
from planner.report.numbers import drives_worth, hours_text, significant
from planner.report.percentages import near_certain_notes
from planner.report.spec_sheet import critical_defects_note, spec_sheet_note
from planner.report.table import Column, risk_style, shown_columns

if TYPE_CHECKING:
    from rich.table import Table

    from planner.analysis.compare import CompareData
    from planner.analysis.inputs import Inputs
    from planner.analysis.sizing_report import RebuildSource
    from planner.core.arrays.layouts import AggregateShape, Layout
    from planner.core.design.layout_comparison import Comparison, LayoutResult

__all__ = [
    "comparison_columns",
    "comparison_fields",
    "comparison_records",
    "json_document",
    "loss_split_columns",
    "notes",
    "rebuild_note",
    "source_notes",
    "to_csv",
    "to_json",
    "to_markdown",
    "to_rich_table",
]


def rebuild_note(source: RebuildSource) -> str:
    """Where the mean restore time comes from, in one line.

    ``Rebuild 3.09 h: 0.3 TB at 27 MB/s (restore.rebuild_mb_per_s), restore.load: busy
    (x3.96), + 24 h to replace the drive.`` The rate's source stands beside the rate (a
    re-check found it after the wait); the load is named as the file writes it.
    """
    hours = hours_text(source.hours)
    if source.rebuild_mb_per_s is None or source.capacity_tb is None:
        return f"Rebuild {hours} h (restore.rebuild_hours, as given)."
    parts = [f"{source.capacity_tb:g} TB at {source.rebuild_mb_per_s:g} MB/s ({source.rate_field})"]
    if source.load is not None:
        parts.append(f"restore.load: {source.load} (x{source.load_factor:.3g})")
    elif source.load_factor != 1.0:
        parts.append(f"restore.load_factor: {source.load_factor:g}")
    spared = ""
    if source.delay_hours > 0:
        parts.append(f"+ {source.delay_hours:g} h to replace the drive")
        if source.hot_spares > 0:
            hours += " h with no hot spare free"
            spared = (
                f" With aggregate.hot_spares: {source.hot_spares} a failure waits only when "
                "every spare is taken: the Rebuild column gives each layout's mean."
            )
    unit = "" if spared else " h"
    return f"Rebuild {hours}{unit}: {', '.join(parts)}.{spared}"


def notes(data: CompareData, *, fixed: bool = True) -> list[str]:
    """Every note of a comparison, in the order a buyer needs them.

    First what changes how the table's numbers read: a label a ``--set`` left on a
    reshaped layout (``data.label_notes``: its row misleads till read), the mission, that
    the table is not sized for the workload (``fixed=False`` for the TUI's compare view,
    which says it with its keys), the critical-rebuild bound and ``≈100%``. Then what
    explains them: the loss figures, the availability columns, uneven divisions, pools,
    the rebuild's source, the scenario's, the hot spares' and the costs' notes
    (``data.notes``), and the spec sheet's reading. At 80 columns ``evaluate`` of
    recommend-400tb.yaml printed 57 lines of notes, with "Not sized for the workload" 18
    lines down and the bound 33.
    """
    comparison = data.comparison
    results = comparison.results
    mission = (
        f"Mission {data.inputs.mission_years:g} years ({comparison.mission_hours:,.0f} h); "
        f"{comparison.data_disks:,} data drives; baseline: {comparison.baseline}."
    )
    found = data.critical_defects
    return [
        *data.label_notes,
        mission,
        *([data.fixed_note] if fixed and data.fixed_note else []),
        *([] if found is None else [critical_defects_note(found)]),
        *near_certain_notes(r.p_loss_aggregate for r in results),
        LOSS_FIGURES_NOTE,
        *availability_notes([r.availability for r in results]),
        *uneven_notes(comparison.data_disks, ((r.layout, r.shape) for r in results)),
        *declustered_notes(r.layout for r in results),
        *source_notes(data),
        *([] if data.spec_sheet is None else [spec_sheet_note(data.spec_sheet)]),
    ]


def source_notes(data: CompareData, *, cost: bool = True) -> list[str]:
    """Where the inputs come from: the rebuild's source, ``data.notes``, the costs' note.

    ``cost=False`` leaves the costs' out, for a page whose sized table says its own.
    """
    rebuild = [] if data.rebuild is None else [rebuild_note(data.rebuild)]
    return [*rebuild, *data.notes, *([data.cost_note] if cost and data.cost_note else [])]


def uneven_notes(data_disks: int, shapes: Iterable[tuple[Layout, AggregateShape]]) -> list[str]:
    """The footnote of each layout whose groups (marked ``*``) hold more than ``data_disks``.

    ``planner evaluate`` and ``planner simulate`` say it in these words.
    """
    lines = []
    for layout, shape in shapes:
        if shape.exact_division:
            continue
        extra = shape.groups * layout.data_capacity - data_disks
        extra_text = f"{extra.numerator:,}" if extra.denominator == 1 else f"{float(extra):,.1f}"
        groups = shape.groups
        if layout.declustered is not None:  # a pool's data share is no whole drive count
            pools = f"{groups:,} pools, which hold" if groups != 1 else "1 pool, which holds"
            lines.append(
                f"* {layout.label}: a pool holds "
                f"{drives_worth(f'{round(layout.data_disks_per_group, 1):g}')} of data "
                f"(the data share of its drives that are not spares); "
                f"{data_disks:,} data drives take {pools} "
                f"{drives_worth(extra_text)} more than asked"
                f"{_widths_that_fit(layout, data_disks, int(groups))}."
            )
            continue
        lines.append(
            f"* {layout.label}: {data_disks:,} data drives do not divide evenly "
            f"into {layout.data_disks_per_group:g} data drives per group; "
            f"{groups:,} group{'s hold' if groups != 1 else ' holds'} "
            f"{extra_text} more data drive{'s' if extra != 1 else ''} than asked."
        )
    return lines


def _widths_that_fit(layout: Layout, data_disks: int, groups: int) -> str:
    """``; the pools that hold them with the fewest children: 1 of 62 (...), 2 of 32 (...)``.

    For each count of pools up to ``groups`` (at most three, the most first) whose fewest
    children are within OpenZFS's 255. Empty when none is.
    """
    pool = layout.declustered
    assert pool is not None
    widths: list[tuple[int, int]] = []
    for count in range(groups, 0, -1):
        children = children_holding(data_disks, layout.parity, pool.data, pool.spares, count)
        if children > MAX_CHILDREN or len(widths) == 3:
            break
        widths.append((count, children))
    if not widths or widths[0] == (groups, layout.group_size):
        return ""
    said = ", ".join(
        f"{count} of {children} (draid{layout.parity}:{pool.data}d:{children}c:{pool.spares}s)"
        for count, children in reversed(widths)
    )
    return f"; the pools that hold them with the fewest children: {said}"


def declustered_notes(layouts: Iterable[Layout]) -> list[str]:
    """What a declustered pool's figures assume (docs/declustered.md).

    Only a pool whose rebuild is faster (:attr:`Layout.rebuild_speedup` above 1 at the 3
    digits shown) is said to rebuild faster: the fitted resilver is never slower than a
    traditional rebuild (the core clamps the factor to at least 1), and at 1 a pool is too
    narrow for a speed-up or has no distributed spare, which the note says instead.
    """
    pools = [layout for layout in layouts if layout.declustered is not None]
    if not pools:
        return []
    return [
        f"{_pool_rebuilds(pools)}. Pools rebuild one drive at a time, with no wait for a "
        "replacement unless every spare is taken; k + 1 overlapping failures leave only the "
        "stripes spanning all of them beyond repair (Stripes lost k+1), but the vdev faults and "
        "takes its ZFS pool (the NOMDL counts the pool), and a latent defect loses sectors "
        "only where its stripe holds every failed drive (the share sigma of such moves; "
        "docs/declustered.md)."
    ]


def _pool_rebuilds(pools: Sequence[Layout]) -> str:
    """How fast each pool rebuilds against a traditional group, by what limits it."""
    faster = [x for x in pools if significant(x.rebuild_speedup, 3) > 1]
    spareless = [x for x in pools if x not in faster and x.declustered and not x.declustered.spares]
    narrow = [x for x in pools if x not in faster and x not in spareless]
    clauses = []
    if faster:
        speedups = ", ".join(f"{x.label} x{x.rebuild_speedup:.3g}" for x in faster)
        clauses.append(
            f"Declustered pools rebuild faster onto distributed spares, as OpenZFS measured "
            f"({speedups})"
        )
    if narrow:
        widths = ", ".join(
            f"{x.label} (stripes of {x.stripe_data_drives + x.parity} on {x.group_size} drives)"
            for x in narrow
        )
        one = len(narrow) == 1
        clauses.append(
            f"at {'its width' if one else 'their widths'} OpenZFS's measurements give no "
            f"speed-up to {widths}: each survivor's share of the resilver takes as long as "
            "a traditional rebuild"
        )
    if spareless:
        names = ", ".join(x.label for x in spareless)
        one = len(spareless) == 1
        clauses.append(
            f"{names} {'has' if one else 'have'} no distributed spare and "
            f"rebuild{'s' if one else ''} onto a replacement drive, as a group does"
        )
    text = "; ".join(clauses)
    return text[0].upper() + text[1:]


def comparison_view(
    comparison: Comparison,
    title: str,
    notes: Sequence[str] = (),
    extra_columns: Sequence[Column[LayoutResult]] = (),
    inputs: Inputs | None = None,
    document: dict[str, Any] | None = None,
) -> render.TableView[LayoutResult]:
    """The comparison as every format shows it: the baseline marked, rows coloured by risk.

    ``extra_columns`` (``evaluate --methods``) go after the standard ones and stay longer
    than the optional standard ones on a narrow screen; ``document`` is the JSON's head.
    """
    standard = comparison_columns(comparison)
    extra = shown_columns(extra_columns)
    results = comparison.results
    labels = [r.layout.label for r in results]
    return render.TableView(
        title=title,
        columns=[*standard, *extra],
        # the TUI's order on a terminal; columns asked for stay longer than the others
        screen_columns=screen_columns(standard, extra),
        rows=results,
        notes=notes,
        inputs=inputs,
        fields=[*comparison_fields(comparison), *extra_columns],
        document=document or {},
        styles=[risk_style(r.relative_risk_aggregate) for r in results],
        baseline=labels.index(comparison.baseline) if comparison.baseline in labels else None,
    )


def to_rich_table(
    comparison: Comparison,
    title: str,
    max_width: int | None = None,
    extra_columns: Sequence[Column[LayoutResult]] = (),
    inputs: Inputs | None = None,
) -> Table:
    """A Rich table with the baseline row marked and rows coloured by relative risk.

    With ``max_width`` (the terminal width) the least important columns are left out so
    that the table stays readable; the Markdown, CSV and JSON outputs always have them all.
    ``extra_columns`` go after the standard ones (``evaluate --methods``); ``inputs`` (their
    ``--set`` overrides) end the title.
    """
    view = comparison_view(comparison, title, (), extra_columns, inputs)
    return render.rich_table(view, max_width)


def to_markdown(
    comparison: Comparison,
    title: str,
    footnotes: Sequence[str] = (),
    extra_columns: Sequence[Column[LayoutResult]] = (),
    inputs: Inputs | None = None,
) -> str:
    """A GitHub-flavoured Markdown table with a heading and ``footnotes`` (:func:`notes`).

    With ``inputs`` the first footnote lists the assumptions and the ``--set`` overrides.
    """
    return render.markdown(comparison_view(comparison, title, footnotes, extra_columns, inputs))


def comparison_records(
    comparison: Comparison, extra_columns: Sequence[Column[LayoutResult]] = ()
) -> list[dict[str, Any]]:
    """One flat record of raw values per layout (the JSON contract's ``layouts``).

    ``extra_columns`` (``evaluate --methods``) add their keys after the standard ones.
    """
    return render.records(comparison_view(comparison, "", (), extra_columns))


def to_json(
    comparison: Comparison,
    scenario_name: str,
    extra: dict[str, Any] | None = None,
    extra_columns: Sequence[Column[LayoutResult]] = (),
    inputs: Inputs | None = None,
) -> str:
    """The JSON contract: scenario, mission_hours, baseline, layouts (raw floats).

    ``extra`` keys (e.g. ``rebuild_hours``) go in before ``layouts``; ``extra_columns``
    add their keys to each layout (see :func:`comparison_records`); ``inputs`` adds
    ``inputs``.
    """
    return render.json(_json_view(comparison, scenario_name, extra, extra_columns, inputs))


def json_document(
    comparison: Comparison,
    scenario_name: str,
    extra: dict[str, Any] | None = None,
    extra_columns: Sequence[Column[LayoutResult]] = (),
    inputs: Inputs | None = None,
) -> dict[str, Any]:
    """:func:`to_json`'s document as data (a plan's JSON holds one per tier)."""
    return render.document(_json_view(comparison, scenario_name, extra, extra_columns, inputs))


def _json_view(
    comparison: Comparison,
    scenario_name: str,
    extra: dict[str, Any] | None,
    extra_columns: Sequence[Column[LayoutResult]],
    inputs: Inputs | None,
) -> render.TableView[LayoutResult]:
    document = {
        "scenario": scenario_name,
        "mission_hours": comparison.mission_hours,
        "data_disks": comparison.data_disks,
        "baseline": comparison.baseline,
        **(extra or {}),
    }
    return comparison_view(comparison, scenario_name, (), extra_columns, inputs, document)


def to_csv(
    comparison: Comparison,
    extra_columns: Sequence[Column[LayoutResult]] = (),
    inputs: Inputs | None = None,
) -> str:
    """CSV with a header row and raw values (full precision floats) for spreadsheets."""
    return render.csv(comparison_view(comparison, "", (), extra_columns, inputs))
