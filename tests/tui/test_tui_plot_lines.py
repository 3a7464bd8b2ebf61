"""The charts' lines are what plotext's ANSI text decodes to, and what textual-plotext shows.

Two references: Rich's own decoder (``Text.from_ansi``) of the same ANSI text, cut into
lines by Rich (every segment's text and style must match, for each figure the TUI draws, at
several sizes, in plotext's themes: named, 256-colour and RGB colours); and textual-plotext's
``PlotextPlot`` widget, the figure drawn on its ``plt`` and painted by it, in its ``auto``
theme (the app theme's colours) and a named one, larger than the terminal plotext sees.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import plotext  # type: ignore[import-untyped]
import pytest
from pilot_helpers import SCENARIO
from rich.console import Console
from rich.segment import Segment
from rich.text import Text
from shipped import SINGLE_AGGREGATE
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual_plotext import PlotextPlot

from planner.analysis.recommend import DEFAULT_TARGET, recommendation
from planner.analysis.sweep_series import group_size_series
from planner.report.percentages import format_percent
from planner.scenario import load_default_scenario, load_scenario
from planner.tui.choose import front_figure, start_index
from planner.tui.plot import PLOTEXT_LOCK, CachedPlot, Canvas, Draw, draw_lines
from planner.tui.sweep_view import overhead_figure, risk_figure

THEMES = ["textual-dark", "textual-clear", "pro", "dark", "matrix", "retro", "default", "clear"]
SIZES = [(24, 8), (59, 30), (117, 17)]


def _figures() -> dict[str, Draw]:
    figures: dict[str, Draw] = {}
    for name, scenario in [("tui", load_scenario(SCENARIO)), ("default", load_default_scenario())]:
        series = group_size_series(scenario)
        report = recommendation(scenario, None, (), DEFAULT_TARGET)
        index = start_index(report)
        figures[f"{name}-risk"] = partial(risk_figure, series)
        figures[f"{name}-overhead"] = partial(overhead_figure, series)
        figures[f"{name}-front"] = partial(front_figure, report, index)
        figures[f"{name}-front-first"] = partial(front_figure, report, 0)
    return figures


FIGURES = _figures()


def simplified(lines: Sequence[Strip]) -> list[list[Segment]]:
    return [list(Segment.simplify(list(line))) for line in lines]


def decoded_by_rich(draw: Draw, canvas: Canvas) -> list[list[Segment]]:
    """The chart's ANSI text as Rich decodes it and cuts it into lines."""
    with PLOTEXT_LOCK:
        plotext.clear_figure()
        plotext.limit_size(False, False)
        draw(plotext, canvas)
        plotext.plot_size(canvas.width, canvas.height)
        plotext.theme(canvas.theme)
        ansi = plotext.build()
    console = Console(width=canvas.width, force_terminal=True, color_system="truecolor")
    options = console.options.update_dimensions(canvas.width, canvas.height)
    lines = console.render_lines(Text.from_ansi(ansi), options, pad=True)
    return [list(Segment.simplify(line)) for line in lines]


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("figure", sorted(FIGURES))
def test_lines_match_the_decoded_ansi_text(figure: str, theme: str) -> None:
    for width, height in SIZES:
        canvas = Canvas(width, height, theme)
        built = simplified(draw_lines(FIGURES[figure], canvas))
        assert len(built) == height
        assert built == decoded_by_rich(FIGURES[figure], canvas), (figure, width, height, theme)
        assert any(segment.style for line in built for segment in line)  # colours kept


class Plots(App[None]):
    """textual-plotext's widget and the planner's, side by side, the same size."""

    def __init__(self, draw: Draw, theme: str) -> None:
        super().__init__()
        self.draw = draw
        self.plot_theme = theme

    def compose(self) -> ComposeResult:
        for plot in (PlotextPlot(id="reference"), CachedPlot(id="planner")):
            plot.styles.width = 150  # wider and taller than the 80x24 plotext assumes
            plot.styles.height = 45  # when the standard output is not a terminal
            plot.theme = self.plot_theme  # type: ignore[assignment]
            yield plot


@pytest.mark.asyncio
@pytest.mark.parametrize("theme", ["auto", "pro"])
@pytest.mark.parametrize("figure", ["default-risk", "tui-front"])
async def test_lines_match_textual_plotexts_widget(figure: str, theme: str) -> None:
    app = Plots(FIGURES[figure], theme)
    async with app.run_test(size=(310, 50)) as pilot:
        reference = app.query_one("#reference", PlotextPlot)
        planner = app.query_one(CachedPlot)
        await pilot.pause()
        assert planner.size == reference.size == (150, 45)
        FIGURES[figure](reference.plt, planner.canvas())
        planner.show(figure, FIGURES[figure])
        shown = simplified([planner.render_line(y) for y in range(45)])
        # what the widget renders, before Textual lays its own style over it
        chart = reference.render()
        assert isinstance(chart, Text)
        console = Console(width=150, force_terminal=True, color_system="truecolor")
        options = console.options.update_dimensions(150, 45)
        expected = [list(Segment.simplify(line)) for line in console.render_lines(chart, options)]
        assert shown == expected, (figure, theme)


@pytest.mark.parametrize(
    ("figure", "width", "title_word"),
    [
        ("default-risk", 50, "P(loss)"),  # the sweep's left chart at 80 columns is 53 wide
        ("default-overhead", 26, "Overhead"),  # and its right chart 27
        ("default-front", 78, "P(loss)"),
    ],
)
def test_each_chart_keeps_its_title_at_80_columns(figure: str, width: int, title_word: str) -> None:
    # Plotext drops a title wider than the chart: at 80 columns the sweep's risk chart
    # once showed no title at all.
    lines = draw_lines(FIGURES[figure], Canvas(width, 20, "textual-dark"))
    assert title_word in lines[0].text


ROOT = Path(__file__).resolve().parents[2]
SHIPPED = SINGLE_AGGREGATE  # a plan's tiers: the plan tests (tests/shipped.py)
AXIS_SIZES = [(53, 12), (27, 12), (53, 10), (53, 15), (27, 17), (60, 20), (80, 33)]
"""The sweep's charts at 80x24 (53 and 27 wide, 12 high), and taller and shorter ones."""


def y_labels(lines: Sequence[Strip]) -> list[tuple[int, str]]:
    """The y axis's labels with their line: the text left of the axis (a tick, a corner, or
    a horizontal line's start)."""
    found = []
    for row, line in enumerate(lines):
        text = line.text
        cut = min((i for i in (text.find(c) for c in "┤├┼│┌└") if i >= 0), default=-1)
        if cut > 0 and text[:cut].strip():
            found.append((row, text[:cut].strip()))
    return found


def decade_of(label: str) -> float:
    """``0.01%`` or ``1e-5%`` as log10 of the probability (-4, -7)."""
    return math.log10(float(label.rstrip("%").replace(",", ""))) - 2


def assert_even(labels: list[tuple[int, str]], value: Callable[[str], float], what: str) -> None:
    assert len(labels) >= 2, what
    rows = [row for row, _ in labels]
    values = [value(text) for _, text in labels]
    row_steps = {b - a for a, b in itertools.pairwise(rows)}
    value_steps = {round(a - b, 9) for a, b in itertools.pairwise(values)}
    assert len(row_steps) == 1, (what, labels)  # the same number of rows between labels
    assert len(value_steps) == 1, (what, labels)  # and the same step between their values
    assert min(row_steps) >= 2, (what, labels)  # never two labels on touching rows


@pytest.mark.parametrize("scenario", SHIPPED, ids=lambda p: p.stem)
def test_sweep_axes_keep_evenly_spaced_labels(scenario: Path) -> None:
    # At 80x24 the risk axis once read 100%, 10%, 0.01%, 0.001%, 1e-5% on consecutive rows
    # (plotext drops the ticks that collide) and the overhead axis 300, 250, 150, 100, 0.
    series = group_size_series(load_scenario(scenario))
    logs = [math.log10(p.p_loss_aggregate) for s in series for p in s.points]
    most = max(p.overhead_disks for s in series for p in s.points)
    for width, height in AXIS_SIZES:
        canvas = Canvas(width, height, "textual-dark")
        risk = y_labels(draw_lines(partial(risk_figure, series), canvas))
        assert_even(risk, decade_of, f"risk at {width}x{height}")
        assert decade_of(risk[0][1]) >= max(logs)  # the top label is over every point
        assert decade_of(risk[-1][1]) <= min(logs)  # and the lowest under every point
        overhead = y_labels(draw_lines(partial(overhead_figure, series), canvas))
        assert_even(overhead, lambda t: -float(t.replace(",", "")), f"overhead at {width}x{height}")
        assert overhead[-1][1] == "0"
        assert float(overhead[0][1].replace(",", "")) >= most


@pytest.mark.parametrize("scenario", ["recommend-400tb", "today-20tb-nl-sas"])
def test_front_axis_keeps_evenly_spaced_labels(scenario: str) -> None:
    report = recommendation(
        load_scenario(ROOT / "scenarios" / f"{scenario}.yaml"), None, (), DEFAULT_TARGET
    )
    logs = [math.log10(c.p_loss_aggregate) for c in report.front if c.p_loss_aggregate > 0]
    assert report.target.max_p_loss is not None
    logs.append(math.log10(report.target.max_p_loss))
    target = format_percent(report.target.max_p_loss)
    for width, height in AXIS_SIZES:
        canvas = Canvas(width, height, "textual-dark")
        labels = y_labels(draw_lines(partial(front_figure, report, 0), canvas))
        assert_even(
            labels, partial(_decade_or_stand_in, labels, target), f"front at {width}x{height}"
        )
        assert decade_of(labels[0][1]) >= max(logs)
        assert decade_of(labels[-1][1]) <= min(logs)


def _decade_or_stand_in(labels: list[tuple[int, str]], target: str, label: str) -> float:
    """:func:`decade_of` a label; the target line's, where it stands in for a decade's label
    on a short chart (the decade's row holds the line: sweep_view.decade_axis), as the
    decade it stands in for, from its neighbours (the others must be even for that)."""
    texts = [text for _, text in labels]
    i = texts.index(label)
    if label != target or len(texts) < 3:
        return decade_of(label)
    if 0 < i < len(texts) - 1:
        return (decade_of(texts[i - 1]) + decade_of(texts[i + 1])) / 2
    near, far = (texts[1], texts[2]) if i == 0 else (texts[-2], texts[-3])
    return 2 * decade_of(near) - decade_of(far)
