"""Chart a sweep as PNG or SVG with matplotlib (the optional ``plot`` extra).

Like NS3574 Figures 3 and 6: P(loss) of the aggregate on a log scale against drives per
group, one line per parity count, filled markers where the group's data drives divide the
aggregate evenly and hollow ones where they do not, and the overhead drives each size
costs on a secondary axis. A sweep of the scenario's own layouts over a field is drawn
against that field instead, one line per layout.

matplotlib is imported inside :func:`plot_bytes` only (ImportError when it is missing), so
the rest of the report layer never needs it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from planner.analysis.sweep import SweepReport
from planner.core.design.sweep import SweepRow
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.report.field_values import field_text
from planner.report.log_ticks import plain_log_ticks
from planner.report.sweep_columns import parity_text

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

K = TypeVar("K", bound=Hashable)

PLOT_FORMATS = ("png", "svg")
"""Image formats :func:`plot_bytes` writes, chosen by the file's suffix."""

_PARITY_MAPS = {
    1: "Reds",
    2: "Blues",
    3: "Greens",
    4: "Purples",
    5: "Oranges",
    6: "Greys",
    7: "RdPu",
    8: "YlOrBr",
}
"""One colour map per parity count up to MAX_PARITY; varied values take its shades, light
to dark."""


def plot_bytes(report: SweepReport, image_format: str) -> bytes:
    """The chart of ``report`` as ``png`` or ``svg`` bytes.

    Raises:
        ImportError: matplotlib is not installed.
        ValueError: an image format other than :data:`PLOT_FORMATS`.
    """
    if image_format not in PLOT_FORMATS:
        raise ValueError(f"image format must be one of {', '.join(PLOT_FORMATS)}")
    figure = plot_figure(report)
    buffer = io.BytesIO()
    figure.savefig(buffer, format=image_format, metadata=_metadata(image_format))
    return buffer.getvalue()


def plot_figure(report: SweepReport) -> Figure:
    """The chart of ``report`` as a matplotlib figure (risk, and overhead when by size).

    Raises:
        ImportError: matplotlib is not installed.
    """
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 6.5), dpi=110, layout="constrained")
    if report.by_layout and report.varied is not None:
        axes = figure.subplots()
        _draw_against_field(axes, report)
    else:
        axes, overhead = figure.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": (3, 1.2)})
        _draw_against_group_size(axes, report)
        _draw_overhead(overhead, report)
    axes.set_yscale("log")
    plain_log_ticks(axes.yaxis)
    axes.set_ylabel("P(data loss) of the aggregate")
    axes.grid(True, which="major", alpha=0.35)
    axes.grid(True, which="minor", axis="y", alpha=0.12)
    years = report.mission_hours / HOURS_PER_YEAR
    figure.suptitle(f"{report.title}\n{report.data_disks:,} data drives, {years:g}-year mission")
    return figure


class SweepLine(NamedTuple):
    """One point of the chart: a row, its layout's label and the varied value (field unit)."""

    row: SweepRow
    label: str | None
    value: float | None


def sweep_lines(report: SweepReport) -> tuple[SweepLine, ...]:
    """The report's rows as chart points (a chart draws a few hundred at most)."""
    values = [None] * len(report) if report.values is None else report.values.tolist()
    return tuple(
        SweepLine(row, label, value)
        for row, label, value in zip(report.table.rows(), report.row_labels(), values, strict=True)
    )


def _metadata(image_format: str) -> dict[str, str | None]:
    # No creation date: the same sweep gives the same file.
    return {"Date": None} if image_format == "svg" else {}


def _series(
    lines: tuple[SweepLine, ...], key: Callable[[SweepLine], K]
) -> dict[K, list[SweepLine]]:
    groups: dict[K, list[SweepLine]] = {}
    for line in lines:
        groups.setdefault(key(line), []).append(line)
    return groups


def _risk(line: SweepLine) -> float:
    return line.row.p_loss_aggregate


def _markers(
    axes: Axes,
    lines: list[SweepLine],
    x: Callable[[SweepLine], float],
    colour: Any,
    y: Callable[[SweepLine], float] = _risk,
) -> None:
    """Filled markers on exact divisions, hollow ones on uneven (Tables 2 and 3)."""
    for exact in (True, False):
        picked = [s for s in lines if s.row.exact_division is exact and y(s) > 0]
        if picked:
            axes.scatter(
                [x(s) for s in picked],
                [y(s) for s in picked],
                s=26,
                facecolors=colour if exact else "white",
                edgecolors=colour,
                linewidths=1.2,
                zorder=3,
            )


def _shade(parity: int, index: int, count: int) -> Any:
    from matplotlib import colormaps

    cmap = colormaps[_PARITY_MAPS.get(parity, "Greys")]
    return cmap(0.75 if count == 1 else 0.4 + 0.55 * index / (count - 1))


def _draw_against_group_size(axes: Axes, report: SweepReport) -> None:
    lines = sweep_lines(report)
    values = sorted({s.value for s in lines if s.value is not None})
    field = report.varied
    by_series = _series(lines, lambda s: (s.row.parity, s.value))
    for (parity, value), series in by_series.items():
        index = values.index(value) if value is not None else 0
        colour = _shade(parity, index, max(1, len(values)))
        label = parity_text(parity)
        if field is not None and value is not None:
            label += f", {field.name} {field_text(field, value)}"
        shown = [s for s in series if s.row.p_loss_aggregate > 0]
        axes.plot(
            [s.row.group_size for s in shown],
            [s.row.p_loss_aggregate for s in shown],
            color=colour,
            linewidth=1.6,
            label=label,
        )
        _markers(axes, series, lambda s: s.row.group_size, colour)
    axes.set_title(
        "filled: the groups' data drives divide the aggregate evenly; hollow: uneven",
        fontsize="small",
    )
    _legend_outside(axes, ncols=2 if len(by_series) > 12 else 1)


def _draw_overhead(axes: Axes, report: SweepReport) -> None:
    """Overhead (parity) drives of the aggregate per parity count: the price of safety.

    With a varied field, the first value's (the overhead only changes with the data drives).
    """
    lines = sweep_lines(report)
    first = lines[0].value
    for parity, series in _series(lines, lambda s: s.row.parity).items():
        picked = [s for s in series if s.value == first]
        colour = _shade(parity, 0, 1)
        axes.plot(
            [s.row.group_size for s in picked],
            [s.row.overhead_disks for s in picked],
            color=colour,
            linewidth=1.2,
            drawstyle="steps-mid",
            label=parity_text(parity),
        )
        _markers(axes, picked, lambda s: s.row.group_size, colour, lambda s: s.row.overhead_disks)
    axes.set_ylabel("overhead drives")
    axes.set_xlabel("drives per group, N")
    axes.set_ylim(bottom=0)
    axes.grid(True, alpha=0.35)


def _draw_against_field(axes: Axes, report: SweepReport) -> None:
    """One line per scenario layout against the varied field (ARR in percent)."""
    field = report.varied
    assert field is not None
    scale = 100.0 if field.percent else 1.0

    def x(line: SweepLine) -> float:
        return scale * (line.value or 0.0)

    lines = sweep_lines(report)
    for index, (label, series) in enumerate(_series(lines, lambda s: s.label).items()):
        shown = [s for s in series if s.value is not None and s.row.p_loss_aggregate > 0]
        colour = f"C{index % 10}"
        axes.plot(
            [x(s) for s in shown],
            [s.row.p_loss_aggregate for s in shown],
            color=colour,
            linewidth=1.6,
            label=str(label),
        )
        _markers(axes, series, x, colour)
    unit = "%" if field.percent else field.unit
    axes.set_xlabel(f"{field.name} ({unit})")
    if report.log:
        axes.set_xscale("log")
        plain_log_ticks(axes.xaxis)
    _legend_outside(axes)


def _legend_outside(axes: Axes, ncols: int = 1) -> None:
    """The legend right of the plot, where it can never cover a point (n+1 at N = 22 did)."""
    axes.legend(
        loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, fontsize="small", ncols=ncols
    )
