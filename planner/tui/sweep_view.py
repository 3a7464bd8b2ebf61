"""The sweep view: P(loss) of the aggregate against group size for n+1, n+2 and n+3.

Like the paper's Figures 2, 3, 5 and 6, but for the current parameters, with the overhead
drives each group size costs drawn alongside. The plots take the rows the caption leaves,
or, with too few, give way to one line saying how tall a terminal shows them
(:mod:`planner.tui.chart_room`); the caption then names none of their lines and marks.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from functools import partial

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.reactive import reactive
from textual.widgets import Static
from textual_plotext.plot import Plot

from planner.analysis.sweep_series import SweepSeries
from planner.tui.chart_room import ChartText, fit_chart
from planner.tui.plot import CachedPlot, Canvas, DrawnChart, even_ticks, plot_rows

SERIES_COLOURS = {1: "red", 2: "orange", 3: "cyan"}
"""Plotext line colour per parity count (n+1 riskiest, red)."""

COMPUTING = "computing…"
"""The caption before the first sweep."""

CAPTION_COLOURS = {1: "red", 2: "orange1", 3: "cyan"}
"""The same colours as Rich styles, for the legend in the caption."""


class SweepView(Vertical):
    """Two plots side by side: risk on a log scale, and overhead drives."""

    series: reactive[tuple[SweepSeries, ...]] = reactive(())
    """The latest sweep, one series per parity count; empty until computed."""

    data_disks: reactive[int] = reactive(0)
    """Data drives of the aggregate the sweep was computed for (for the caption)."""

    _overhead_figure: tuple[object, ...] = ()
    """What the overhead plot shows (parity, then size, overhead, exact per point)."""

    def compose(self) -> ComposeResult:
        """The plots and a caption."""
        with Horizontal(id="sweep-plots"):
            yield CachedPlot(id="sweep-risk")
            yield CachedPlot(id="sweep-overhead")
        yield Static("", id="sweep-room", classes="chart-room", markup=False)
        yield Static(COMPUTING, id="sweep-caption", markup=False)

    built: DrawnChart | None = None
    """The risk plot of the next series, if the sweep's worker built it."""

    _caption: ChartText = ChartText.plain(COMPUTING)
    """The caption below the plots, beside them and in their stead."""

    _shown: Text | None = None
    """The wording of the caption on screen (None before the first)."""

    def risk_canvas(self) -> Canvas | None:
        """Where the risk plot is painted (its worker builds the chart for it).

        None while the plots are hidden for want of room: nothing to build.
        """
        plots = self.query_one("#sweep-plots", Horizontal)
        return self.query_one("#sweep-risk", CachedPlot).canvas() if plots.display else None

    def on_resize(self, event: events.Resize) -> None:
        """Show the plots if the new size has room for them above the caption."""
        self._fit(event.size)

    def _fit(self, size: Size) -> None:
        """The plots where they get their least rows above the caption, else a line for them."""
        self._shown = fit_chart(
            self.query_one("#sweep-plots", Horizontal),
            self.query_one("#sweep-room", Static),
            self.query_one("#sweep-caption", Static),
            self._caption,
            size,
            self._shown,
        )

    def watch_series(self, series: tuple[SweepSeries, ...]) -> None:
        """Redraw both plots for a new sweep."""
        if not series:
            return
        self.query_one("#sweep-risk", CachedPlot).show(
            risk_key(series), partial(risk_figure, series), self.built
        )
        self._draw_overhead(series)
        caption = sweep_caption(series, self.data_disks)
        if caption != self._caption:  # an update re-lays the screen out: only on change
            self._caption = caption
            self._fit(self.size)  # the caption may take a line more or less than before

    def _draw_overhead(self, series: Sequence[SweepSeries]) -> None:
        # The overhead depends on the group sizes only, not on the rates: a keystroke in a
        # rate field leaves this plot as it is (drawing it costs as much as the risk plot).
        figure = tuple(
            (s.parity, tuple((p.group_size, p.overhead_disks, p.exact_division) for p in s.points))
            for s in series
        )
        if figure != self._overhead_figure:
            self._overhead_figure = figure
            widget = self.query_one("#sweep-overhead", CachedPlot)
            widget.show(figure, partial(overhead_figure, series))


def risk_key(series: Sequence[SweepSeries]) -> Hashable:
    """Which risk figure ``series`` draws (the same object: the worker's and the view's)."""
    return ("risk", id(series))


def risk_figure(series: Sequence[SweepSeries], plt: Plot, canvas: Canvas) -> None:
    """P(loss) of the aggregate against group size, log scale, one line per parity count."""
    for s in series:
        points = [p for p in s.points if p.p_loss_aggregate > 0]
        if not points:
            continue
        colour = SERIES_COLOURS.get(s.parity, "white")
        plt.plot(
            [p.group_size for p in points],
            [math.log10(p.p_loss_aggregate) for p in points],
            marker="dot",
            color=colour,
        )
        exact = [p for p in points if p.exact_division]
        plt.scatter(
            [p.group_size for p in exact],
            [math.log10(p.p_loss_aggregate) for p in exact],
            marker="●",
            color=colour,
        )
    logs = [
        math.log10(p.p_loss_aggregate) for s in series for p in s.points if p.p_loss_aggregate > 0
    ]
    if logs:
        decade_axis(plt, min(logs), max(logs), canvas)
    _group_size_ticks(plt, series)
    plt.title("P(loss) of the aggregate (log scale)")
    plt.xlabel("group size N (drives, parity included)")


def overhead_figure(series: Sequence[SweepSeries], plt: Plot, canvas: Canvas) -> None:
    """Overhead drives against group size, one line per parity count."""
    for s in series:
        colour = SERIES_COLOURS.get(s.parity, "white")
        plt.plot(
            [p.group_size for p in s.points],
            [p.overhead_disks for p in s.points],
            marker="dot",
            color=colour,
        )
        exact = [p for p in s.points if p.exact_division]
        plt.scatter(
            [p.group_size for p in exact],
            [p.overhead_disks for p in exact],
            marker="●",
            color=colour,
        )
    _group_size_ticks(plt, series)
    top = max((p.overhead_disks for s in series for p in s.points), default=0)
    ticks = even_ticks(0.0, top, ROUND_STEPS, plot_rows(canvas))
    plt.ylim(*ticks.limits)
    plt.yticks(list(ticks.values), [f"{v:,.0f}" for v in ticks.values])
    plt.title("Overhead drives (parity)")
    plt.xlabel("group size N")


def _group_size_ticks(plt: Plot, series: Sequence[SweepSeries]) -> None:
    """Whole-number group sizes on the x axis: 2, then every 4 drives."""
    top = max((p.group_size for s in series for p in s.points), default=2)
    plt.xticks([2.0, *(float(v) for v in range(4, top + 1, 4))])


ROUND_STEPS = tuple(sorted({m * 10**e for e in range(8) for m in (1, 2, 5)} | {25, 250, 2500}))
"""Steps between drive-count ticks: 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, ..."""


def decade_axis(
    plt: Plot, lowest: float, highest: float, canvas: Canvas, line: tuple[float, str] | None = None
) -> None:
    """A log10 y axis around ``[lowest, highest]``, labelled every few decades, evenly.

    ``line``: a horizontal line's log10 value and label. Where the line falls on the row of
    a decade's label (a short plot: a row spans a decade or more), that row is labelled
    with the line's value instead: at 80x24 the choose view's red target line of 0.010% sat
    beside the label 0.001% (newcomer review).
    """
    top = min(0.0, math.ceil(highest))
    rows = plot_rows(canvas)
    ticks = even_ticks(math.floor(lowest), top, range(1, 400), rows)
    plt.ylim(*ticks.limits)
    values = list(ticks.values)
    labels = [decade_label(round(t)) for t in values]
    if line is not None and rows > 1:
        low, high = ticks.limits

        def row(value: float) -> int:
            return round((value - low) / (high - low) * (rows - 1))

        for i, value in enumerate(values):
            if row(value) == row(line[0]) and value != line[0]:
                values[i], labels[i] = line
    plt.yticks(values, labels)


def decade_label(exponent: int) -> str:
    """A power of ten as a percentage: 100%, 10%, 1%, 0.1%, ..., then 1e-5%."""
    percent = 10.0 ** (exponent + 2)
    if percent >= 1:
        return f"{percent:.0f}%"
    if exponent >= -6:
        return f"{percent:.{-(exponent + 2)}f}%"
    return f"1e{exponent + 2}%"


def sweep_caption(series: Sequence[SweepSeries], data_disks: int) -> ChartText:
    """The legend of the plots, and (in their stead) the exact group sizes alone."""
    beside = Text()
    for s in series:
        beside.append(f"━ n+{s.parity}  ", style=CAPTION_COLOURS.get(s.parity, ""))
    exact = "; ".join(_exact_sizes(s) for s in series)
    beside.append(
        f"● exact: the group's data drives divide the {data_disks} data drives "
        f"evenly ({exact}); · the last group holds extra data drives."
    )
    alone = Text(
        f"Group sizes whose data drives divide the {data_disks} data drives evenly: {exact}."
    )
    return ChartText(beside, alone)


def _exact_sizes(series: SweepSeries) -> str:
    """``n+k: 3, 8, 9`` -- the group sizes that divide the aggregate exactly."""
    sizes = [str(p.group_size) for p in series.points if p.exact_division]
    return f"n+{series.parity}: {', '.join(sizes) or 'none'}"
