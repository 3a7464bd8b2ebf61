"""The choose view: the Pareto front of cost against the targeted risk, and the choice.

``planner recommend`` in the TUI (:mod:`planner.analysis.recommend`): every candidate of
the scenario's search space sized and evaluated, the front drawn (log of the risk the
target limits, P(group lost) when it does, else P(loss), of the aggregate against cost, or
drives without prices), the target as a line. ← and → move
along the front; Enter adds the point as a layout in the compare view.

The point in words (the choice) is always shown whole; the chart takes the rows left above
it, or, with too few, gives way to one line saying how tall a terminal shows it
(:mod:`planner.tui.chart_room`), and the words then name none of its marks.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static
from textual_plotext.plot import Plot

from planner.analysis.recommend import Candidate, Recommendation, risk_of
from planner.report.percentages import format_percent, risk_column
from planner.report.recommend_summary import (
    AGEING_WORDS,
    RISK_NAMES,
    default_note,
    describe_misses,
    limit_words,
    p_loss_words,
)
from planner.report.spec_sheet import (
    recommended_critical_defects_words,
    recommended_spec_sheet_words,
)
from planner.tui.chart_room import ChartText, fit_chart
from planner.tui.plot import CachedPlot, Canvas, DrawnChart
from planner.tui.sweep_view import decade_axis

SEARCHING = "searching the layouts…"


class ChooseView(Vertical, can_focus=True):
    """The front as a plot and the point under the cursor described below it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,up", "move(-1)", "Cheaper", show=True),
        Binding("right,down", "move(1)", "Safer", show=True),
        Binding("enter", "add", "Add layout", show=True),
    ]

    report: reactive[Recommendation | None] = reactive(None, init=False)
    """The latest search; None until computed."""

    index: reactive[int] = reactive(0, init=False)
    """The point of the front under the cursor."""

    _detail: ChartText | None = None
    """The description below the plot, beside it and in its stead (None before a search)."""

    _shown: Text | None = None
    """The wording of the description on screen (None before the first)."""

    class AddRequested(Message):
        """Enter on a point: add its layout to the scenario."""

        def __init__(self, candidate: Candidate) -> None:
            super().__init__()
            self.candidate = candidate

    def compose(self) -> ComposeResult:
        """The plot and the description of the selected point."""
        yield CachedPlot(id="choose-plot")
        # shown in the chart's stead where it has too few rows
        yield Static("", id="choose-room", classes="chart-room", markup=False)
        yield Static(SEARCHING, id="choose-detail", markup=False)

    @property
    def selected(self) -> Candidate | None:
        """The front's point under the cursor, or None before the first search."""
        report = self.report
        if report is None or not report.front:
            return None
        return report.front[min(self.index, len(report.front) - 1)]

    built: DrawnChart | None = None
    """The plot of the next search at its starting point, if the search's worker built it."""

    def canvas(self) -> Canvas | None:
        """Where the front is painted (the search's worker builds the chart for it).

        None while the chart is hidden for want of room: nothing to build.
        """
        plot = self.query_one("#choose-plot", CachedPlot)
        return plot.canvas() if plot.display else None

    def on_resize(self, event: events.Resize) -> None:
        """Show the chart if the new size has room for it above the choice."""
        self._fit(event.size)

    def _fit(self, size: Size) -> None:
        """The chart where it has the rows to be read above the choice, else a line for it."""
        report = self.report
        self._shown = fit_chart(
            self.query_one("#choose-plot", CachedPlot),
            self.query_one("#choose-room", Static),
            self.query_one("#choose-detail", Static),
            self._detail if self._detail is not None else ChartText.plain(SEARCHING),
            size,
            self._shown,
            None if report is None else partial(front_lines, report, self.index),
        )

    def watch_report(self, report: Recommendation | None) -> None:
        """A new search: start on the recommended point (else the closest), redraw."""
        if report is None:
            return
        self.index = start_index(report)
        self._draw()

    def watch_index(self) -> None:
        """The cursor moved: redraw the marker and the description."""
        self._draw()

    def action_move(self, step: int) -> None:
        """Move along the front (cheaper: -1, safer: +1)."""
        report = self.report
        if report is not None and report.front:
            self.index = max(0, min(len(report.front) - 1, self.index + step))

    def action_add(self) -> None:
        """Ask the app to add the selected point as a layout."""
        candidate = self.selected
        if candidate is not None:
            self.post_message(self.AddRequested(candidate))

    def _draw(self) -> None:
        report = self.report
        if report is None:
            return
        self._plot(report)
        selected = self.selected
        self._detail = ChartText(_detail(report, selected), _detail(report, selected, chart=False))
        self._fit(self.size)  # the choice may take a line more or less than before

    def _plot(self, report: Recommendation) -> None:
        index = min(self.index, max(0, len(report.front) - 1))
        self.query_one("#choose-plot", CachedPlot).show(
            front_key(report, index), partial(front_figure, report, index), self.built
        )


def start_index(report: Recommendation) -> int:
    """The point of the front the view starts on: the recommended one, else the closest."""
    start = report.top or report.closest
    labels = [c.name for c in report.front]
    if start is not None and start.name in labels:
        return labels.index(start.name)
    return 0


SELECTED_COLOUR = (255, 215, 0)
"""The selected point's colour: yellow. It was asked for as ``"yellow"``, which plotext does
not know: plotext then took the theme's colour for the next series, which textual-plotext's
theme made blue or purple depending on how many series the front had drawn before."""
CURSOR_MARK = "▲"
"""The point under the cursor, on the plot and in the words under it (◆ is the baseline's)."""


def front_lines(report: Recommendation, index: int, rows: int) -> list[str]:
    """The front point by point, in the chart's stead: at most ``rows``, around ``index``.

    Cheapest first, as the chart reads left to right: ``▲ raid6 26  27 drives  13,822 USD
    P(loss) 0.0011%``, the cursor's point marked as on the chart, ● one meeting the target
    and ○ one missing it. At 80x24 a plan's tier left 6 rows blank under the line saying
    the chart needs more (newcomer review).
    """
    front = report.front
    if not front or rows < 2:
        return []
    name = plotted_risk(report)
    shown = min(rows - 1, len(front))  # a line says which points these are
    first = max(0, min(index - shown // 2, len(front) - shown))
    points = front[first : first + shown]
    risks = risk_column([risk_of(c, name) for c in points])
    labels = [c.name for c in points]
    width = max(len(label) for label in labels)
    lines = [f"Front, cheapest first ({first + 1}-{first + shown} of {len(front)}; ←/→ move):"]
    for offset, (candidate, risk) in enumerate(zip(points, risks, strict=True)):
        mark = CURSOR_MARK if first + offset == index else "○" if candidate.misses else "●"
        cost = (
            f"{candidate.rank_cost:,.0f} {report.currency}".rstrip() + "  " if report.money else ""
        )
        lines.append(
            f"{mark} {candidate.name:<{width}}  {candidate.total_disks:>6,} drives  {cost}"
            f"{RISK_NAMES[name]} {risk}"
        )
    return lines


def front_key(report: Recommendation, index: int) -> Hashable:
    """Which figure the front of ``report`` with point ``index`` selected is."""
    return ("front", id(report), index)


def plotted_risk(report: Recommendation) -> str:
    """The risk limit the plot's y axis and red line show: the first the target gives."""
    return report.target.risk_limits[0]


def front_figure(report: Recommendation, index: int, plt: Plot, canvas: Canvas) -> None:
    """The front (log risk against cost or drives), the target line, point ``index``."""
    name = plotted_risk(report)
    points = [c for c in report.front if risk_of(c, name) > 0]
    xs = [c.rank_cost for c in points]
    ys = [math.log10(risk_of(c, name)) for c in points]
    if points:
        plt.plot(xs, ys, marker="braille", color="gray")
        for meets, marker, colour in ((True, "●", "green"), (False, "○", "white")):
            chosen = [
                (x, y) for x, y, c in zip(xs, ys, points, strict=True) if (not c.misses) == meets
            ]
            if chosen:
                plt.scatter(
                    [x for x, _ in chosen], [y for _, y in chosen], marker=marker, color=colour
                )
    limit = math.log10(getattr(report.target, name))
    plt.hline(limit, color="red")
    selected = report.front[index] if report.front else None
    if selected is not None and risk_of(selected, name) > 0:
        plt.scatter(
            [selected.rank_cost],
            [math.log10(risk_of(selected, name))],
            marker=CURSOR_MARK,
            color=SELECTED_COLOUR,
        )
    line = (limit, format_percent(getattr(report.target, name)))
    decade_axis(plt, min([*ys, limit]), max([*ys, limit]), canvas, line)
    if xs:
        low, high = min(xs), max(xs)
        xticks = [low + (high - low) * i / 4 for i in range(5)] if high > low else [low]
        plt.xticks(xticks, [f"{x:,.0f}" for x in xticks])
    unit = f"total cost ({report.currency})" if report.currency else "total cost"
    plt.xlabel(unit if report.money else "drives")
    ageing = f" {AGEING_WORDS}" if name == "max_p_loss" and report.judged_ageing else ""
    against = unit if report.money else "drives"
    plt.title(f"{RISK_NAMES[name]} of the aggregate{ageing} against {against}")


def _detail(report: Recommendation, selected: Candidate | None, *, chart: bool = True) -> Text:
    """The selected point in words, and (``chart``: beside the plot) what its marks mean."""
    text = Text()
    name = plotted_risk(report)
    target = f"target {RISK_NAMES[name]} ≤ {limit_words(report, name)}"
    if chart:
        target += " (red line)"
    others = [n for n in report.target.risk_limits if n != name]
    for other in others:
        target += f", {RISK_NAMES[other]} ≤ {limit_words(report, other)}"
    if report.default_target:
        target += f" {default_note(report)}"
    if report.top is None:
        text.append("No layout meets the target. ", style="bold red")
    else:
        text.append(f"Recommended: {report.top.name}. ", style="bold")
        spread, bound, limit = report.spec_sheet, report.critical_defects, report.target.max_p_loss
        # said here only where it turns the verdict: the chart needs the rows at 80x24
        if spread is not None and limit is not None and spread.over(limit):
            text.append(recommended_spec_sheet_words(spread, limit), style="yellow")
        over = report.critical_defects_limit
        if bound is not None and over is not None and bound.over(over):
            text.append(recommended_critical_defects_words(bound, over), style="yellow")
    if selected is not None:
        _describe(text, report, selected, f"{CURSOR_MARK} cursor, " if chart else "Cursor on ")
    marks = f"; ● meets it, ○ misses it, {CURSOR_MARK} the cursor" if chart else ""
    text.append(
        f"{target}{marks}. Front: "
        f"{len(report.front):,} of {report.evaluated:,} layouts ({report.off_front:,} beaten "
        "on both). ←/→ move, Enter adds it to Compare.",
        style="dim",
    )
    return text


def _describe(text: Text, report: Recommendation, selected: Candidate, lead: str) -> None:
    """Append ``lead`` and the point under the cursor (name, drives, risks, cost) to ``text``."""
    cost = (
        f", total cost {selected.rank_cost:,.0f} {report.currency}".rstrip() if report.money else ""
    )
    figures = "".join(
        f", P(group lost) {format_percent(selected.p_group_lost_aggregate)}"
        for n in report.target.risk_limits
        if n == "max_p_group_lost"
    )
    text.append(
        f"{lead}{selected.name}: {selected.total_disks:,} drives{figures}, "
        f"{p_loss_words(selected)}{cost}; "
    )
    if selected.misses:
        text.append(
            f"misses {describe_misses(selected.misses, ageing=selected.aged is not None)}. ",
            style="yellow",
        )
    else:
        text.append("meets the target. ", style="green")
